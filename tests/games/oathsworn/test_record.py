"""Oathsworn's typed record (record.py): every key the game keeps is a typed field, a save replays to
the same record, and a logged value of the wrong shape is refused instead of kept."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from tablekeeper.core.events import Event
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store, export_lines
from tablekeeper.core.timing import KEY as TIMING_KEY
from tablekeeper.games.oathsworn import GAME
from tablekeeper.games.oathsworn.record import CheckDraw, Draw, OathswornRecord, Plan, StoryDraw, rec

SCRIPT = Path(__file__).parents[3] / "docs" / "games" / "oathsworn.script"
ENCOUNTER_LINES = ("next", "next", "check 1 5 3", "token 1 redraw", "redraw 1 1", "resolve", "minion rat 3 2",
                   "plan 3 head white=3", "attack 3 rat white=3 interrupt", "resolve", "enemy 1,3 B B R", "choose 1",
                   "choose 1", "set seat4.hp 0", "break head,body 3", "break claws", "tally")


def played(options: dict[str, str], lines: list[str] | tuple[str, ...]) -> Session:
    s = Session(GAME, seats=4, seed=3, options=options)
    for line in lines:
        parsed = parse_line(line)
        if parsed is not None:
            s.perform(parsed.command)  # a station-only line (press) is refused and changes nothing
    return s


@pytest.fixture(scope="module")
def example() -> Session:
    return played({}, SCRIPT.read_text(encoding="utf-8").splitlines())


@pytest.fixture(scope="module")
def fought() -> Session:
    return played({"part": "encounter", "encounter": "practice"}, ENCOUNTER_LINES)


def test_every_key_the_game_puts_is_a_field_of_the_record(example: Session, fought: Session) -> None:
    """Only the core's own bookkeeping stays in the untyped data."""
    fields = set(OathswornRecord.__struct_encode_fields__)
    for s in (example, fought):
        put = {str(e["key"]) for entry in s.entries for e in entry.events if e.kind == "data.set"}
        assert put and put - {TIMING_KEY} <= fields
        assert set(s.state.data) <= {TIMING_KEY}


def test_the_example_scripts_save_replays_to_the_same_record(tmp_path: Path, example: Session,
                                                             fought: Session) -> None:
    for n, s in enumerate((example, fought)):
        with Store.open(str(tmp_path / f"s{n}.db")) as store:
            saved = store.import_lines("main", list(export_lines(s.setup, tuple(s.entries))))
        resumed = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                          entries=saved.entries)
        assert rec(resumed.state) == rec(s.state)
        assert resumed.state == s.state
    assert rec(fought.state).tally is not None and rec(fought.state).minions == {}


def test_a_draw_is_logged_in_the_shape_saves_always_held(fought: Session) -> None:
    """Tagged by ``kind``; a key the old JSON did not have (an escape's bonus, redraw payers) is left out."""
    drawn = [e["value"] for entry in fought.entries for e in entry.events
             if e.kind == "data.set" and e["key"] == "draws" and e["value"]]
    check = drawn[0][0]
    assert check["kind"] == "check" and set(check) == {"kind", "seat", "difficulty", "type", "cards", "free", "spent"}
    assert msgspec.convert(check, CheckDraw).cards == tuple((c, extra) for c, extra in check["cards"])
    story = msgspec.json.decode(b'{"kind": "story", "seat": 1, "target": "6", "defense": 6, "targets": [["6", 6]],'
                                b' "choice": [], "determination": false, "cards": [], "free": 0, "bonus": 0,'
                                b' "spent": {"redraw": 0, "empowered": 0}}')
    assert isinstance(msgspec.convert(story, Draw), StoryDraw)


@pytest.mark.parametrize(("key", "value", "says"), [
    ("plan", {"seat": 1, "target": "head", "white": "x"}, "$.white"),
    ("minions", {"rat": {"defense": "two", "mob": False, "activated": False}}, "got `str` - at `$[...].defense`"),
    ("draws", [{"kind": "peek", "seat": 1}], "Invalid value 'peek'"),
    ("seat.1", {"kind": "full", "items": [], "tokens": {}, "positions": [[], [], [], []], "hand": [],
                "max_animus": 5, "level": 1}, "missing required field `class`"),
    ("part", "interlude", "Invalid enum value 'interlude'"),
])
def test_a_logged_value_of_the_wrong_shape_is_refused(key: str, value: object, says: str) -> None:
    state = GAME.new_state(4, 3, {"encounter": "practice"})
    with pytest.raises(msgspec.ValidationError) as refused:
        GAME.apply(state, Event("data.set", {"key": key, "value": json.loads(json.dumps(value))}))
    assert says in str(refused.value)


def test_a_plan_put_typed_and_one_read_from_a_save_are_the_same() -> None:
    state = GAME.new_state(4, 3, {"encounter": "practice"})
    logged = GAME.apply(state, Event("data.set", {"key": "plan", "value": {"seat": 1, "target": "head", "white": 2}}))
    assert rec(logged).plan == Plan(seat=1, target="head", white=2)
    with pytest.raises(KeyError, match="typed record"):
        logged.get("plan")


@pytest.mark.parametrize("n", [0, 5])
def test_a_seat_outside_the_company_is_no_record(n: int) -> None:
    """Not seat 4 read from the end of the four (a plan a hand-edited log holds shows no odds)."""
    with pytest.raises(KeyError, match=f"seat {n}"):
        rec(GAME.new_state(4, 3)).seat(n)
