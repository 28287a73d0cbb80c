"""Spirit Island's typed record: what the modules share is converted from the log's JSON once, as each
event is applied; a save of the example script replays to the same record, and a logged value of
the wrong shape is refused, not kept."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace

import msgspec
import pytest

from tablekeeper import cli
from tablekeeper.commands.play import Runner
from tablekeeper.core import game as game_module
from tablekeeper.core.events import Event
from tablekeeper.core.frozen import thaw
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.games import load
from tablekeeper.games.spirit_island import record as record_module
from tablekeeper.games.spirit_island.record import LandRecord, Question, SpiritIslandRecord, shared

from .test_acceptance import ARGS, SCRIPT

GAME = load("spirit_island")
OPTIONS = {"spirits": "river,lightning", "invaders": "report", "fear_cards": "report"}


def scripted(options: Mapping[str, str]) -> Session:
    """The example script, run in this process as ``tablekeeper play`` runs it."""
    runner = Runner(Session(GAME, seats=2, seed=7, options=options))
    for number, text in enumerate(SCRIPT.read_text().splitlines(), 1):
        outcome = runner.line(number, text)
        assert outcome is None or outcome.accepted, (number, text, outcome.reason)
    return runner.session


def test_a_save_of_the_example_script_replays_to_the_same_record(tmp_path: Path) -> None:
    save = tmp_path / "si.db"
    assert cli.main([*ARGS, "--strict", "--save", str(save)]) == 0
    with Store.open(save) as store:
        saved = store.load("main")
    assert saved is not None and OPTIONS.items() <= saved.setup.options.items()
    replayed = Session(GAME, seats=2, seed=7, options=saved.setup.options, entries=saved.entries)
    live = scripted(saved.setup.options)
    record = shared(replayed.state)
    assert record == shared(live.state)
    # the script reaches what the record holds: lands, Fear resolved, the Invader slots
    assert record.lands["A5"].blight == 2 and record.fear_resolved[0].name == "Dahan Enheartened"
    dealt = 12 - replayed.state.value("invader.cards_left")
    assert len(record.discard) + sum(map(len, record.slots.as_mapping().values())) == dealt == 4
    # the record as JSON (what a put logs) converts back to itself
    assert msgspec.convert(thaw(record), SpiritIslandRecord) == record


def test_keys_are_logged_under_the_names_older_saves_use() -> None:
    """Renamed fields keep their logged key, so a save made before the record opens the same."""
    state = GAME.new_state(2, 1)
    for key, value in (("invader.slots", {"ravage": [], "build": ["W"], "explore": []}),
                       ("blight.ask", [["A5", [1, 2]]]),
                       ("counts.queue", [{"kind": "build", "land": "A1"}]),
                       ("lands", {"A1": {"blight": 1, "presence": {"2": 1}}})):
        state = GAME.apply(state, Event("data.set", {"key": key, "value": value}))
        assert key not in state.data
    record = shared(state)
    assert record.slots.build == ("W",) and record.blight_ask[0].seats == (1, 2)
    assert record.queue == (Question("build", land="A1"),)
    assert record.lands["A1"] == LandRecord(blight=1, presence={"2": 1})
    with pytest.raises(KeyError, match="typed record"):
        state.get("lands")


@pytest.mark.parametrize("protection", ["kept", "removed"])
def test_questions_logged_before_their_piece_and_count_fields_keep_their_meaning(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save made before ``piece`` and ``count`` logged a pushed or hand-placed piece's kind in
    ``terrain`` and Sworn to Victory's Dahan in ``delta``: it opens asking about the same pieces."""
    if protection == "removed":  # without the move a Town's push would push an Explorer
        monkeypatch.setattr(record_module, "_from_older_log", lambda q: None)
    older = [{"kind": "push", "terrain": "towns", "land": "B6", "step": "To Dream a Thousand Deaths"},
             {"kind": "where", "terrain": "cities", "delta": -1},
             {"kind": "sworn", "land": "A6", "delta": 2}]
    state = GAME.apply(GAME.new_state(2, 1), Event("data.set", {"key": "counts.queue", "value": older}))
    queue = shared(state).queue
    if protection == "removed":
        assert (queue[0].piece, queue[1].piece, queue[2].count) == ("", "", 0)
        return
    assert queue == (Question("push", land="B6", step="To Dream a Thousand Deaths", piece="towns"),
                     Question("where", delta=-1, piece="cities"), Question("sworn", land="A6", count=2))
    assert [q.to_json() for q in queue] == [
        {"kind": "push", "land": "B6", "step": "To Dream a Thousand Deaths", "piece": "towns"},
        {"kind": "where", "delta": -1, "piece": "cities"}, {"kind": "sworn", "land": "A6", "count": 2}]


@pytest.mark.parametrize(("key", "value", "message"), [
    ("lands", {"A1": {"blight": "two"}}, r"Expected `int`, got `str` - at `\$\[\.\.\.\]\.blight`"),
    ("invader.slots", {"build": "W"}, r"Expected `array`, got `str` - at `\$\.build`"),
    ("counts.queue", [{"land": "A1"}], r"missing required field `kind` - at `\$\[0\]`"),
    ("invader_draws", "someone", "Invalid enum value 'someone'"),
])
@pytest.mark.parametrize("protection", ["kept", "removed"])
def test_a_logged_value_of_the_wrong_shape_is_refused(key: str, value: object, message: str, protection: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    state = GAME.new_state(2, 1)
    event = Event("data.set", {"key": key, "value": value})
    if protection == "removed":  # without the conversion the junk would be kept for every reader
        monkeypatch.setattr(game_module, "msgspec", SimpleNamespace(convert=lambda raw, kind: raw,
                                                                     structs=msgspec.structs))
        after = GAME.apply(state, event)
        assert after.record != state.record
        return
    with pytest.raises(msgspec.ValidationError, match=message):
        GAME.apply(state, event)
