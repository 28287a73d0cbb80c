"""Snapshots in the save: a resume starts from the newest stored state that fits and applies only the
log's tail, and reaches exactly the state (and the screens) a whole replay reaches; a snapshot that
does not fit, does not decode or fails its checksum is passed over (one line to the log) and the log
replayed; undo still reaches behind a snapshot; a save without snapshots still opens."""

from __future__ import annotations

import logging
import shutil
import sqlite3
import zlib
from pathlib import Path

import msgspec
import pytest

from tablekeeper import games
from tablekeeper.commands.play import Runner
from tablekeeper.core import session as session_module
from tablekeeper.core import snapshot
from tablekeeper.core.events import Command
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import StoreError
from tablekeeper.ui.compose import compose
from tablekeeper.ui.model import Screens
from tablekeeper.ui.state import UiState
from tests.core.fixture_game import GAME as FIXTURE
from tests.faults.walk import random_walk
from tests.station.frames import SCRIPT_ARGS, example_setup

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
EVERY = 5  # a snapshot every 5 active commands here, so each example script leaves several


@pytest.fixture(autouse=True)
def often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "CHECKPOINT_EVERY", EVERY)


def play_example(name: str, save: Path) -> Session:
    """The game's example script played into ``save`` through ``play``'s runner (buttons included);
    every state on the way survives the snapshot's encoding unchanged."""
    game = games.load(name)
    seats, seed, options = example_setup(name)
    store = Store.open(save)
    session = Session(game, seats=seats or game.seats_default, seed=seed, options=options)
    session.journal = store.create("main", session.setup)
    runner = Runner(session)
    for number, text in enumerate((DOCS / f"{name}.script").read_text(encoding="utf-8").splitlines(), 1):
        outcome = runner.line(number, text)
        if outcome is not None:
            assert outcome.accepted, (number, text, outcome.reason)
            assert snapshot.decode(snapshot.encode(session.state), game.record_type) == session.state, number
    assert runner.finish().accepted
    store.close()
    return session


@pytest.fixture(scope="module")
def example_saves(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Session]]:
    """Each example script played into a save once (copied by the tests that change it)."""
    made: dict[str, tuple[Path, Session]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "CHECKPOINT_EVERY", EVERY)
        for name in SCRIPT_ARGS:
            save = tmp_path_factory.mktemp(name) / "s.sqlite"
            made[name] = (save, play_example(name, save))
    return made


def copied(example_saves: dict[str, tuple[Path, Session]], name: str, tmp_path: Path) -> tuple[Path, Session]:
    save, played = example_saves[name]
    shutil.copy(save, tmp_path / "s.sqlite")
    return tmp_path / "s.sqlite", played


def resumed(game: Game, save: Path, *, with_snapshots: bool = True) -> Session:
    with Store.open(save) as store:
        return resumed_from(game, store, with_snapshots=with_snapshots)


def resumed_from(game: Game, store: Store, *, with_snapshots: bool = True) -> Session:
    """The session in the store's slot ``main``, as ``play`` and ``run`` resume it (or replayed whole)."""
    saved = store.load("main")
    assert saved is not None
    return Session(game, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                   entries=saved.entries, snapshots=saved.snapshots if with_snapshots else (),
                   from_save=f"{store.path}: slot 'main'")


def screens(session: Session) -> Screens:
    panels = session.game.panels(session.state)
    return compose(session.state, UiState(), panels, game=session.game, roles=("track", *sorted(panels)))


@pytest.mark.parametrize("name", list(SCRIPT_ARGS))
def test_a_resume_from_the_snapshot_reaches_the_whole_replays_state_and_screens(
        name: str, example_saves: dict[str, tuple[Path, Session]]) -> None:
    save, played = example_saves[name]
    game = played.game
    fast, whole = resumed(game, save), resumed(game, save, with_snapshots=False)
    assert whole.resumed_from == 0
    assert fast.resumed_from == len(fast.line) - len(fast.line) % EVERY > 0  # only the tail was applied
    assert fast.state == whole.state == played.state
    assert fast.view() == whole.view()
    assert screens(fast) == screens(whole)


@pytest.mark.parametrize("name", ["arkham", "spirit_island"])
def test_undo_reaches_behind_the_snapshot_a_session_resumed_from(
        name: str, example_saves: dict[str, tuple[Path, Session]]) -> None:
    save, _played = example_saves[name]
    fast, whole = resumed(games.load(name), save), resumed(games.load(name), save, with_snapshots=False)
    for _ in range(2 * EVERY + 1):  # across the newest snapshot and the one before it
        assert fast.undo().accepted and whole.undo().accepted
        assert fast.state == whole.state
    for _ in range(EVERY):
        assert fast.redo().accepted and whole.redo().accepted
        assert fast.state == whole.state


@pytest.mark.parametrize(("game", "seed"), [(FIXTURE, 3), (FIXTURE, 11), (FIXTURE, 27), (games.load("arkham"), 5)],
                         ids=["fixture-3", "fixture-11", "fixture-27", "arkham-5"])
def test_a_log_with_undo_redo_and_rewind_resumes_as_it_replays(game: Game, seed: int, tmp_path: Path) -> None:
    """A snapshot undone since (the active line no longer passes through it) is passed over."""
    walk = random_walk(game, length=90, seed=seed)
    save = tmp_path / "s.sqlite"
    with Store.open(save) as store:
        session = Session(game, seats=walk.seats, seed=walk.seed)
        session.journal = store.create("main", session.setup)
        for line in walk.lines:
            verb, *args = line.split()
            assert session.perform(Command(verb, tuple(args))).accepted, line
        assert session.perform(Command("rewind", (str(session.line[len(session.line) // 2].index),))).accepted
        session.perform(Command("next"))  # a command after the rewind, where the game takes one
    fast, whole = resumed(game, save), resumed(game, save, with_snapshots=False)
    assert fast.state == whole.state == session.state


def test_a_snapshot_is_written_with_its_entry_in_one_transaction(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """No sync of its own: a press that leaves a snapshot commits once, as every other press does."""
    writes = []
    original = Store._write

    def counted(store: Store) -> object:
        writes.append(1)
        return original(store)

    with Store.open(tmp_path / "s.sqlite") as store:
        session = Session(FIXTURE, seats=1, seed=1)
        session.journal = store.create("main", session.setup)
        monkeypatch.setattr(Store, "_write", counted)
        for _ in range(3 * EVERY):
            assert session.perform(Command("next")).accepted
        assert len(writes) == 3 * EVERY
        stored = store.load("main")
    assert stored is not None and [s.position for s in stored.snapshots] == [2 * EVERY, 3 * EVERY]


def _tamper(save: Path, how: str) -> None:
    db = sqlite3.connect(save)
    body, crc = db.execute("SELECT body, crc FROM snapshots ORDER BY idx DESC LIMIT 1").fetchone()
    if how == "checksum":  # a bit flipped on the card: still JSON, another number
        body = body.replace(b'"seed":', b'"seed":1', 1)
    elif how == "decode":  # a body that is not a state (its checksum made to match)
        body = b'{"game": 7}'
        crc = zlib.crc32(body)
    elif how == "key":  # the save's setup no longer the one the snapshot was made for
        db.execute("UPDATE sessions SET seed = seed + 1")
    db.execute("UPDATE snapshots SET body = ?, crc = ? WHERE idx = (SELECT max(idx) FROM snapshots)", (body, crc))
    db.commit()
    db.close()


PROTECTIONS = {
    "checksum": ("_intact", lambda snap: True),
    "decode": ("_decoded", lambda snap, record_type: snapshot.decode(snap.body, record_type)),
    "key": ("_fits", lambda snap, key: True),
}


@pytest.mark.parametrize("protection", ["kept", "removed (protection-removed)"])
@pytest.mark.parametrize("how", list(PROTECTIONS))
def test_a_damaged_or_mismatched_snapshot_is_passed_over_and_the_log_replayed(
        how: str, protection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, example_saves: dict[str, tuple[Path, Session]]) -> None:
    save, _played = copied(example_saves, "arkham", tmp_path)
    _tamper(save, how)
    game = games.load("arkham")
    whole = resumed(game, save, with_snapshots=False)
    if protection != "kept":
        name, replacement = PROTECTIONS[how]
        monkeypatch.setattr(snapshot, name, replacement)
        try:
            fast = resumed(game, save)
        except (msgspec.MsgspecError, ValueError, TypeError, KeyError):
            return  # without the guard a body that is not a state stops the resume
        assert fast.state != whole.state  # without the check the resume would go on from a wrong state
        return
    with caplog.at_level(logging.INFO, logger="tablekeeper.core.snapshot"):
        fast = resumed(game, save)
    assert fast.state == whole.state
    newest = len(fast.line) - len(fast.line) % EVERY
    assert fast.resumed_from in (0, newest - EVERY)  # the one before it still fits (the key's case: none)
    passed_over = [r for r in caplog.records if r.name == "tablekeeper.core.snapshot"]
    assert len(passed_over) == (2 if how == "key" else 1)  # one line per snapshot passed over
    assert "snapshot after entry" in passed_over[0].getMessage()


def test_a_save_without_snapshots_still_opens_and_starts_keeping_them(
        tmp_path: Path, example_saves: dict[str, tuple[Path, Session]]) -> None:
    """A save written before snapshots (no table) replays whole, then gains the table and its snapshots."""
    old, played = copied(example_saves, "oathsworn", tmp_path)
    db = sqlite3.connect(old)
    db.execute("DROP TABLE snapshots")
    db.commit()
    db.close()
    game = played.game
    reopened = resumed(game, old)
    assert reopened.resumed_from == 0 and reopened.state == played.state
    with Store.open(old) as store:
        session = resumed_from(game, store)
        session.journal = store.journal("main")
        for verb in ("undo",) * EVERY + ("redo",) * EVERY:  # the redos pass a multiple of EVERY
            assert session.perform(Command(verb)).accepted
    assert resumed(game, old).resumed_from > 0
    with Store.open(old) as store:  # a deleted slot takes its snapshots with it
        store.delete("main")
        assert store._db.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 0


def test_play_resumes_a_save_from_its_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """``play --save`` (and ``run``, which opens a save through it) starts from the snapshot."""
    from tablekeeper import cli

    save = tmp_path / "s.sqlite"
    setup = ["--seats", "2", "--save", str(save)]
    assert cli.main(["play", "arkham", *setup, "--script", str(DOCS / "arkham.script"), "--strict"]) == 0
    used: list[snapshot.Checkpoint | None] = []
    choose = snapshot.choose

    def watched(*args: object, **kwargs: object) -> snapshot.Checkpoint | None:
        used.append(choose(*args, **kwargs))  # type: ignore[arg-type]
        return used[-1]

    monkeypatch.setattr(snapshot, "choose", watched)
    capsys.readouterr()
    assert cli.main(["play", "arkham", *setup, "--json"]) == 0
    view = msgspec.json.decode(capsys.readouterr().out)
    assert len(used) == 1 and used[0] is not None and used[0].position > 0
    whole = resumed(games.load("arkham"), save, with_snapshots=False)
    assert view["log_length"] == whole.log_length and view["tracks"] == whole.view()["tracks"]


def test_a_save_set_aside_keeps_its_snapshots_with_its_log(
        tmp_path: Path, example_saves: dict[str, tuple[Path, Session]]) -> None:
    """A game set aside (its packs changed) keeps its snapshots in the kept slot, for a ``play`` with
    the old content; the slot it leaves starts without any."""
    save, _played = copied(example_saves, "spirit_island", tmp_path)
    with Store.open(save) as store:
        before = store.load("main")
        kept = store.set_aside("main")
        after = store.load(kept)
        assert store.load("main") is None
        assert store._db.execute("SELECT count(*) FROM snapshots WHERE slot = 'main'").fetchone()[0] == 0
    assert before is not None and after is not None and after.snapshots == before.snapshots != ()


# --- a resume past stale snapshots keeps a fresh one -----------------------------------------------
REFRESH = ["kept", "removed (protection-removed)"]


def updated(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """An update: every stored snapshot's key now mismatches. Protection removed: no fresh snapshot is
    kept after a slow resume (as before this was added)."""
    monkeypatch.setattr(snapshot, "__version__", f"{snapshot.__version__}+update")
    if protection != "kept":
        monkeypatch.setattr(Session, "keep_snapshot", lambda self: False)


def stored(save: Path) -> tuple[snapshot.Stored, ...]:
    with Store.open(save) as store:
        saved = store.load("main")
    assert saved is not None
    return saved.snapshots


@pytest.mark.parametrize("protection", REFRESH)
@pytest.mark.parametrize("name", ["arkham", "spirit_island"])
def test_a_resume_after_an_update_keeps_a_fresh_snapshot_the_next_resume_starts_from(
        name: str, protection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        example_saves: dict[str, tuple[Path, Session]]) -> None:
    save, played = copied(example_saves, name, tmp_path)
    game = played.game
    updated(monkeypatch, protection)
    with Store.open(save) as store:
        first = resumed_from(game, store)
        first.journal = store.journal("main")
        assert first.resumed_from == 0 and first.snapshot_due  # every snapshot was made by the old software
        first.keep_snapshot()  # what ``run`` does once the first frame is out, and ``play`` after its answer
    whole = resumed(game, save, with_snapshots=False)
    second = resumed(game, save)
    if protection != "kept":
        assert second.resumed_from == 0  # without the refresh every restart replays the whole log again
        return
    kept = stored(save)
    assert {s.key for s in kept} == {first.snapshot_key}  # the stale ones are gone: the save does not grow
    newest = max(kept, key=lambda s: s.index)
    assert (newest.index, newest.position, newest.last) == (first.log_length, len(first.line), first.line[-1].index)
    assert second.resumed_from == len(second.line) > 0 and not second.snapshot_due
    assert second.state == whole.state == played.state
    assert screens(second) == screens(whole)


def test_a_resume_from_a_fitting_snapshot_keeps_none(
        tmp_path: Path, example_saves: dict[str, tuple[Path, Session]]) -> None:
    """No update, no write: a resume from a snapshot less than an interval behind is what play leaves."""
    save, played = copied(example_saves, "oathsworn", tmp_path)
    before = stored(save)
    with Store.open(save) as store:
        session = resumed_from(played.game, store)
        session.journal = store.journal("main")
        assert not session.snapshot_due and not session.keep_snapshot()
    assert stored(save) == before


@pytest.mark.parametrize("protection", REFRESH)
def test_play_after_an_update_leaves_a_snapshot_for_the_next_play(
        protection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The console: ``play --save`` resumed past stale snapshots writes a fresh one after its answer."""
    from tablekeeper import cli

    save = tmp_path / "s.sqlite"
    setup = ["--seats", "2", "--save", str(save)]
    assert cli.main(["play", "arkham", *setup, "--script", str(DOCS / "arkham.script"), "--strict"]) == 0
    updated(monkeypatch, protection)
    assert cli.main(["play", "arkham", *setup, "--json"]) == 0
    first = msgspec.json.decode(capsys.readouterr().out.splitlines()[-1])
    assert cli.main(["play", "arkham", *setup, "--json"]) == 0
    second = msgspec.json.decode(capsys.readouterr().out)
    assert second == first
    again = resumed(games.load("arkham"), save)
    if protection != "kept":
        assert again.resumed_from == 0
        return
    assert again.resumed_from == len(again.line) > 0


@pytest.mark.parametrize("protection", ["kept", "removed (protection-removed)"])
def test_a_snapshot_that_cannot_be_written_is_one_line_and_the_session_plays_on(
        protection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        example_saves: dict[str, tuple[Path, Session]]) -> None:
    """A full disk: the fresh snapshot is not kept (one warning), nothing in the save is lost, no error
    reaches the table, and the next command is saved once there is room. Protection removed: the
    write's error escapes to the caller."""
    from tests.core.test_full_disk import fill_up, make_room

    save, played = copied(example_saves, "arkham", tmp_path)
    game = played.game
    updated(monkeypatch, "kept")
    if protection != "kept":
        def unguarded(store: Store, slot: str, index: int, checkpoint: snapshot.Checkpoint) -> bool:
            with store._write():
                store._put_snapshot(slot, index, checkpoint, snapshot.encode(checkpoint.state), only_this_key=True)
            return True

        monkeypatch.setattr(Store, "keep_snapshot", unguarded)
    with Store.open(save) as store:
        session = resumed_from(game, store)
        session.journal = store.journal("main")
        before = stored_rows(store)
        fill_up(store)
        with caplog.at_level(logging.WARNING, logger="tablekeeper.core.store"):
            if protection != "kept":
                with pytest.raises(StoreError):
                    session.keep_snapshot()
                return
            assert session.keep_snapshot() is False
        lines = [r.getMessage() for r in caplog.records if r.name == "tablekeeper.core.store"]
        assert len(lines) == 1 and "snapshot at entry" in lines[0] and "disk is full" in lines[0]
        assert "\n" not in lines[0] and not any(r.exc_info for r in caplog.records)
        assert stored_rows(store) == before and not session.snapshot_due  # tried once, not at every idle moment
        make_room(store)
        assert session.perform(Command("undo")).accepted
    reopened = resumed(game, save, with_snapshots=False)
    assert reopened.log_length == played.log_length + 1 and reopened.state == session.state


def stored_rows(store: Store) -> list[tuple[object, ...]]:
    return store._db.execute("SELECT idx, key, crc FROM snapshots ORDER BY idx").fetchall()


@pytest.mark.parametrize("protection", REFRESH)
def test_the_station_keeps_the_fresh_snapshot_after_its_first_frame(
        protection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        example_saves: dict[str, tuple[Path, Session]]) -> None:
    """``run``: the station's loop keeps it at its first idle pass, the game already on the displays and
    presses already waiting handled first."""
    from tablekeeper.commands.run import run_station_loop
    from tablekeeper.config import REFERENCE_CONFIG, load_config
    from tablekeeper.intents import Tick
    from tablekeeper.sim.clock import FakeClock
    from tablekeeper.sim.simulator import SimulatedParts
    from tablekeeper.station.loop import Station
    from tablekeeper.station.parts import make_displays
    from tablekeeper.supervisor import Supervisor
    from tests.station.test_idle_wakeups import ClockedQueue

    save, played = copied(example_saves, "arkham", tmp_path)
    updated(monkeypatch, protection)
    config = load_config(REFERENCE_CONFIG)
    clock = FakeClock(100.0)
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path)
    frames_before_keep: list[tuple[int, int]] = []
    keep = Store.keep_snapshot

    def watched(store: Store, slot: str, index: int, checkpoint: snapshot.Checkpoint) -> bool:
        frames_before_keep.append((station.stats.redraws, station.stats.intents))
        return keep(store, slot, index, checkpoint)

    monkeypatch.setattr(Store, "keep_snapshot", watched)
    with Store.open(save) as store:
        session = resumed_from(played.game, store)
        session.journal = store.journal("main")
        station = Station(session=session, config=config, clock=clock, intents=ClockedQueue(clock, 160.0),
                          displays=make_displays(config, parts.open_device, clock=clock))
        try:
            station.start()
            station.put(Tick())  # two presses waiting when the loop begins: both are handled first
            station.put(Tick())
            run_station_loop(station, Supervisor(clock=clock), None, clock=clock, sleep=lambda s: None)
        finally:
            station.close()
            parts.close()
    again = resumed(played.game, save)
    if protection != "kept":
        assert frames_before_keep == [] and again.resumed_from == 0
        return
    assert len(frames_before_keep) == 1  # once
    redraws, intents = frames_before_keep[0]
    assert redraws >= 1 and intents == 2  # the first frame out, the waiting intents handled
    assert again.resumed_from == len(again.line) > 0 and again.state == played.state
