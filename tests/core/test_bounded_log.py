"""A session whose journal reads entries back (a save) keeps only a window of its log in memory and
reads older entries back; it must behave exactly as a session that keeps everything (no journal)."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.core import session as session_module
from tablekeeper.core.events import Command
from tablekeeper.core.session import KEEP_CHECKPOINTS, WINDOW, Entry, Session
from tablekeeper.core.store import Store
from tests.core.fixture_game import GAME

PLAY = ["next", "add doom +1", "add doom -1", "draw dice", "draw bag", "spend", "choose 1", "pass 1", "done 2"]


def cmd(text: str) -> Command:
    verb, *args = text.split()
    return Command(verb, tuple(args))


class AppendOnly:
    """A journal that cannot read back: the session keeps every entry, as without a save."""

    def __init__(self) -> None:
        self.written: list[Entry] = []

    def append(self, entry: Entry) -> None:
        self.written.append(entry)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    monkeypatch.setattr(Store, "SYNCHRONOUS", "OFF")  # durability is not looked at here; fsyncs are slow
    with Store.open(tmp_path / "save.sqlite") as opened:
        yield opened


def twins(store: Store, seed: int = 5) -> tuple[Session, Session]:
    saved = Session(GAME, seats=2, seed=seed)
    saved.journal = store.create("main", saved.setup)
    return saved, Session(GAME, seats=2, seed=seed)


def both(saved: Session, plain: Session, text: str) -> bool:
    a, b = saved.perform(cmd(text)), plain.perform(cmd(text))
    assert (a.accepted, a.reason, a.events, a.entry) == (b.accepted, b.reason, b.events, b.entry), text
    assert saved.state == plain.state and saved.log_length == plain.log_length, text
    assert saved.notices == plain.notices, text
    return a.accepted


def play(saved: Session, plain: Session, commands: int, rng: random.Random) -> None:
    while plain.log_length < commands:
        both(saved, plain, "undo" if plain.state.over else rng.choice(PLAY))  # an ended game takes only undo


def held(session: Session) -> tuple[int, int]:
    entries, checkpoints = session.held()
    return len(entries), len(checkpoints)


def test_a_thousand_commands_keep_only_the_window_in_memory(store: Store) -> None:
    saved, plain = twins(store)
    play(saved, plain, 1_000, random.Random(1))
    assert held(saved) == (WINDOW, KEEP_CHECKPOINTS + 1)
    assert held(plain) == (1_000, len(plain.line) // session_module.CHECKPOINT_EVERY + 1)
    assert saved.entries == plain.entries and saved.line == plain.line
    assert saved.replay() == plain.replay() == plain.state


def test_without_a_readable_journal_every_entry_stays(store: Store) -> None:
    """The same play with a journal that only appends: nothing is bounded (the switch is the read)."""
    journal = AppendOnly()
    session = Session(GAME, seats=2, seed=5, journal=journal)
    plain = Session(GAME, seats=2, seed=5)
    play(session, plain, 300, random.Random(1))
    assert held(session)[0] == 300 and tuple(journal.written) == session.entries == plain.entries


def test_undo_past_the_window_then_redo_gives_the_unbounded_states(store: Store) -> None:
    saved, plain = twins(store)
    play(saved, plain, 600, random.Random(2))
    for _ in range(3 * WINDOW):
        assert both(saved, plain, "undo")
    assert held(saved)[0] <= 2 * WINDOW
    for _ in range(3 * WINDOW):
        assert both(saved, plain, "redo")
    assert saved.entries == plain.entries and held(saved)[0] <= 2 * WINDOW


def test_rewind_to_entry_one_and_back(store: Store) -> None:
    saved, plain = twins(store)
    play(saved, plain, 1_000, random.Random(3))
    first = plain.line[0].index
    assert both(saved, plain, f"rewind {first}")
    assert saved.state == saved.initial
    assert held(saved)[0] <= 2 * WINDOW
    for _ in range(200):
        assert both(saved, plain, "redo")
    assert both(saved, plain, f"rewind {plain.line[3].index}")
    assert not both(saved, plain, "rewind 999999")
    assert both(saved, plain, "next")  # a new command drops the redo stack, hidden part too
    assert not both(saved, plain, "redo")
    assert saved.line == plain.line and saved.entries == plain.entries


def test_a_resumed_save_is_bounded_and_replays_alike(store: Store) -> None:
    saved, plain = twins(store, seed=9)
    play(saved, plain, 700, random.Random(4))
    loaded = store.load("main")
    assert loaded is not None
    resumed = Session(GAME, seats=2, seed=9, journal=store.journal("main"), entries=loaded.entries)
    assert resumed.state == plain.state and held(resumed) == (WINDOW, KEEP_CHECKPOINTS + 1)
    for _ in range(WINDOW + 10):
        assert resumed.undo().accepted and plain.undo().accepted
        assert resumed.state == plain.state


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*PLAY, "undo", "undo", "redo", "redo", "rewind"]), max_size=120),
       st.randoms(use_true_random=False))
def test_any_play_with_a_tiny_window_matches_the_unbounded_session(texts: list[str], rng: random.Random) -> None:
    """A window of 4 entries and a checkpoint every 2 commands reach past the window all the time."""
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as tmp:
        patch.setattr(Store, "SYNCHRONOUS", "OFF")
        store = Store.open(Path(tmp) / "save.sqlite")
        patch.setattr(session_module, "CHECKPOINT_EVERY", 2)
        patch.setattr(session_module, "WINDOW", 4)
        patch.setattr(session_module, "KEEP_CHECKPOINTS", 1)
        saved, plain = twins(store)
        for text in texts:
            if text == "rewind":
                text = f"rewind {rng.randint(0, plain.log_length + 1)}"
            both(saved, plain, text)
            assert held(saved)[0] <= 4 + 4 and held(saved)[1] <= 1 + 1
        assert saved.entries == plain.entries and saved.line == plain.line
        store.close()
