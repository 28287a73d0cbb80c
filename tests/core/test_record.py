"""A game's typed record (``Game.record_type``): what its verbs put is kept as typed fields, logged as
JSON and converted back once when the event is applied, so undo, redo and a save's replay all agree."""

from __future__ import annotations

import msgspec
import pytest

from tablekeeper.core import game as game_module
from tablekeeper.core.events import Command, Event
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tests.core.fixture_game import FLOW, GAME, FixtureRecord


def run(s: Session, *lines: str) -> None:
    for line in lines:
        verb, *args = line.split()
        out = s.perform(Command(verb, tuple(args)))
        assert out.accepted, (line, out.reason)


def to_round_two_weather(s: Session) -> None:
    run(s, "next", "next", "pass 1", "done 1", "next")


def test_a_new_game_starts_with_the_records_defaults() -> None:
    s = Session(GAME, seats=1, seed=1)
    assert s.state.typed(FixtureRecord) == FixtureRecord()


def test_a_verb_puts_typed_values_and_the_log_keeps_json() -> None:
    s = Session(GAME, seats=1, seed=1)
    to_round_two_weather(s)
    run(s, "choose 2")
    record = s.state.typed(FixtureRecord)
    assert record.weather == "rain" and record.asked == (2,)
    logged = [e for entry in s.entries for e in entry.events if e.kind == "data.set"]
    assert [(e["key"], e["value"]) for e in logged] == [("asked", [2]), ("weather", "rain")]
    assert msgspec.json.decode(msgspec.json.encode(logged[0].data)) == {"key": "asked", "value": [2]}


def test_undo_and_replay_give_the_same_record() -> None:
    s = Session(GAME, seats=1, seed=1)
    to_round_two_weather(s)
    before = s.state.typed(FixtureRecord)
    run(s, "choose 1")
    assert s.undo().accepted
    assert s.state.typed(FixtureRecord) == before
    assert s.redo().accepted
    reopened = Session(GAME, seats=1, seed=1, entries=s.entries)
    assert reopened.state.typed(FixtureRecord) == s.state.typed(FixtureRecord) == FixtureRecord("sun", (2,))
    assert reopened.state == s.state


def test_none_puts_the_fields_default_back() -> None:
    state = GAME.new_state(1, 1)
    state = GAME.apply(state, Event("data.set", {"key": "weather", "value": "sun"}))
    assert state.typed(FixtureRecord).weather == "sun"
    state = GAME.apply(state, Event("data.set", {"key": "weather", "value": None}))
    assert state.typed(FixtureRecord).weather == ""


def test_a_logged_value_of_the_wrong_type_is_refused_not_kept() -> None:
    state = GAME.new_state(1, 1)
    with pytest.raises(msgspec.ValidationError, match="Expected `str`"):
        GAME.apply(state, Event("data.set", {"key": "weather", "value": 3}))


def test_an_untyped_key_still_lands_in_data() -> None:
    state = GAME.apply(GAME.new_state(1, 1), Event("data.set", {"key": "note", "value": {"a": [1]}}))
    assert state.get("note") == {"a": (1,)} and state.typed(FixtureRecord) == FixtureRecord()


@pytest.mark.parametrize("protection", ["kept", "removed"])
def test_a_reader_left_behind_is_told_to_read_the_record(protection: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``get`` of a typed field would silently answer None (its value lives in the record); it
    refuses instead, so a reader missed in a conversion fails its game's tests."""
    state = GAME.apply(GAME.new_state(1, 1), Event("data.set", {"key": "weather", "value": "sun"}))
    if protection == "removed":
        monkeypatch.setattr(GameState, "get", lambda self, key, default=None: self.data.get(key, default))
        assert state.get("weather") is None
        return
    with pytest.raises(KeyError, match="typed record"):
        state.get("weather")


def test_a_state_read_as_another_games_record_is_a_programming_error() -> None:
    class Other(msgspec.Struct, frozen=True):
        weather: str = ""

    with pytest.raises(TypeError, match="not Other"):
        GAME.new_state(1, 1).typed(Other)


def test_field_types_are_read_once_per_record_type() -> None:
    game_module._record_fields.cache_clear()
    for value in ("sun", "rain", None):
        GAME.apply(GAME.new_state(1, 1), Event("data.set", {"key": "weather", "value": value}))
    assert game_module._record_fields.cache_info().misses == 1


def test_a_struct_put_is_logged_as_plain_json() -> None:
    """What a verb puts may be typed (a nested record, tuples); the event holds lists and dicts only,
    so a live event equals the same event read back from a save."""

    class Card(msgspec.Struct, frozen=True):
        name: str
        tags: tuple[str, ...] = ()

    value = [Card("Ghoul", ("monster",)), {"7": Card("Rat")}]
    assert thaw(value) == [{"name": "Ghoul", "tags": ["monster"]}, {"7": {"name": "Rat", "tags": []}}]


def test_a_field_renamed_for_the_log_keeps_the_logged_key() -> None:
    """A game whose saves name a key "invader.slots" declares the field under an attribute name and
    renames it back; the key logged stays the one old saves hold, and ``get`` of it refuses."""

    class Dotted(msgspec.Struct, frozen=True, rename={"slots": "invader.slots"}):
        slots: tuple[str, ...] = ()

    class DottedGame(Game):
        name, title, flow, record_type = "dotted", "Dotted", FLOW, Dotted

    game = DottedGame()
    state = game.apply(game.new_state(1, 1), Event("data.set", {"key": "invader.slots", "value": ["W"]}))
    assert state.typed(Dotted).slots == ("W",) and "invader.slots" not in state.data
    with pytest.raises(KeyError, match="typed record"):
        state.get("invader.slots")
