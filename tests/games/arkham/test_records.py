"""Arkham's typed record (``record.ArkhamRecord``): a save replays to the record the game had, a logged
value of the wrong shape is refused, and two games in one process never see each other's record."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from tablekeeper import cli
from tablekeeper.core.events import Event
from tablekeeper.core.script import parse_lines
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.games.arkham import GAME, board
from tablekeeper.games.arkham.record import ArkhamRecord, rec
from tests.games.arkham.helpers import new

SCRIPT = Path(__file__).resolve().parents[3] / "docs" / "games" / "arkham.script"
VIEWED = ("eliminated", "fate", "removed", "victory", "grim", "records", "resolution", "resolution_to", "enemies",
          "locations", "at", "encounters", "treacheries")


def test_two_sessions_read_their_own_scenario_and_seats_turn_about() -> None:
    gathering = new(scenario_id="the_gathering", difficulty="easy")
    masks = new(scenario_id="midnight_masks", difficulty="hard")
    for _ in range(2):
        assert gathering.view()["scenario"] == "the_gathering"
        assert masks.view()["scenario"] == "midnight_masks"
        assert gathering.view()["difficulty"] == "easy" and masks.view()["difficulty"] == "hard"


def test_the_example_scripts_save_replays_to_the_same_record(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The documented three rounds with a save: reopened from the file, the game has the record it
    had when the script ended, field for field, and the view shows it as the live game did."""
    save = tmp_path / "arkham.db"
    code = cli.main(["play", "arkham", "--seats", "2", "--script", str(SCRIPT), "--strict", "--json",
                     "--save", str(save)])
    out, err = capsys.readouterr()
    assert code == 0, err
    live_view = json.loads(out)
    with Store.open(str(save)) as store:
        saved = store.load("main")
    assert saved is not None
    setup = saved.setup
    live = Session(GAME, seats=setup.seats, seed=setup.seed, options=setup.options)
    for line in parse_lines(SCRIPT.read_text(encoding="utf-8").splitlines()):
        assert live.perform(line.command).accepted, line
    reopened = Session(GAME, seats=setup.seats, seed=setup.seed, options=setup.options, entries=saved.entries)
    record = rec(reopened.state)
    assert record == rec(live.state)
    assert record.removed == ("act 1: Trapped", "location Study", "agenda 1: What's Going On?!")
    assert list(record.enemies) == ["Flesh-Eater"] and record.at == {"1": "Attic", "2": "Cellar"}
    assert len(record.encounters) == 5 and record.draws is not None
    reopened_view = reopened.view()
    assert {k: reopened_view[k] for k in VIEWED} == {k: live_view[k] for k in VIEWED}


@pytest.mark.parametrize(("key", "value", "where"), [
    ("enemies", {"Ghoul": {"fight": "two", "health": 3, "evade": 2}},
     r"Expected `int`, got `str` - at `\$\[\.\.\.\]\.fight`"),
    ("at", ["Study"], r"Expected `object`, got `array`"),
    ("victory", [2, "Ghoul Priest"], r"\$\[1\]"),
    ("draws", {"seats": "1"}, r"\$\.seats"),
])
def test_a_logged_value_of_the_wrong_shape_is_refused(key: str, value: object, where: str) -> None:
    """A doctored or damaged log cannot slip a value the readers do not expect into the record."""
    state = new().state
    with pytest.raises(msgspec.ValidationError, match=where):
        GAME.apply(state, Event("data.set", {"key": key, "value": value}))


def test_an_older_saves_eliminated_seat_without_a_location_still_opens() -> None:
    """Saves from before the record kept an eliminated seat's place as null: it still reads as nowhere."""
    state = GAME.apply(new().state, Event("data.set", {"key": "at", "value": {"1": "Study", "2": None}}))
    assert board.where(state, 1) == "Study" and board.where(state, 2) is None


def test_a_new_game_puts_its_setup_into_the_record() -> None:
    record = rec(new(seat1="daisy", seat2="roland", mode="standalone").state)
    assert isinstance(record, ArkhamRecord) and record.scenario.id == "the_gathering"
    assert [s.investigator for s in record.seats.values()] == ["daisy", "roland"]
    assert record.mode == "standalone" and record.at == {"1": "Study", "2": "Study"}
    assert record.locations["Study"].revealed and record.campaign_log is None
