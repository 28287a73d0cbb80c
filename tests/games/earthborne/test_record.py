"""The typed record (``record.EarthborneRecord``): what the verbs put is kept typed, a save replays to the
same record, and a value of the wrong shape in a log is refused rather than kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from tablekeeper import cli
from tablekeeper.core import game as game_module
from tablekeeper.core.events import Command, Event
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Entry, Session
from tablekeeper.core.store import Store
from tablekeeper.games.earthborne import GAME
from tablekeeper.games.earthborne.record import CardInPlay, EarthborneRecord, Turns
from tests.games.earthborne.helpers import PATH_CARDS, session

SCRIPT = Path(__file__).resolve().parents[3] / "docs" / "games" / "earthborne.script"


def _scripted() -> Session:
    live = Session(GAME, seats=2, seed=7, options={"flow": "auto"})  # as ``play`` runs it
    for line in SCRIPT.read_text().splitlines():
        parsed = parse_line(line)
        if parsed is not None:
            assert live.perform(parsed.command).accepted, line
    return live


def test_the_example_scripts_save_replays_to_the_same_record(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "earthborne.db"
    args = ["play", "earthborne", "--seats", "2", "--seed", "7", "--script", str(SCRIPT), "--strict"]
    assert cli.main([*args, "--save", str(save)]) == 0
    capsys.readouterr()
    with Store.open(save) as store:
        saved = store.load(store.slots()[0])
    assert saved is not None
    reopened = Session(GAME, seats=2, seed=7, options=saved.setup.options, entries=saved.entries,
                       from_save=str(save))
    record = reopened.state.typed(EarthborneRecord)
    assert record == _scripted().state.typed(EarthborneRecord)
    irix = record.cards["card4"]
    assert isinstance(irix, CardInPlay) and (irix.name, irix.area, irix.from_path) == ("Circling Irix", "along", True)
    assert "persistent" in irix.keywords and irix.progress == "7"
    assert [c.name for c in record.clears] == ["Agitated Meadowlarks", "Pouncing Atrox"]
    assert record.location is not None and record.location.name == "Atrox Mountain"
    assert not reopened.state.data  # every key the game puts is a field of the record


def test_the_verbs_put_typed_values() -> None:
    s = session(PATH_CARDS, "next", "turn 1", "rest 1")
    assert s.state.typed(EarthborneRecord).turns == Turns(last=1, rested=(1,), role_exhausted=(), acted=None)
    s = session(PATH_CARDS, "next", "turn 1", "play 1 Walk With Me")
    assert s.state.typed(EarthborneRecord).turns == Turns(last=None, acted="played Walk With Me")


@pytest.mark.parametrize(("key", "value", "where"), [
    ("turns", {"rested": "1"}, r"\$\.rested"),
    ("cards", {"card1": {"name": "Doe", "presence": [1]}}, r"\$\[\.\.\.\]\.presence"),
    ("work", [{"kind": "nonsense"}], r"\$\[0\]"),
    ("day_end", {"reason": "camped", "timing": "tomorrow"}, r"\$\.timing"),
])
def test_a_logged_value_of_the_wrong_shape_is_refused(key: str, value: Any, where: str) -> None:
    """A save whose log holds nonsense for a typed field does not open with it kept: the replay stops
    with a ``ValueError`` naming where the value is wrong (``play`` reports it in one line, exit 2)."""
    s = session(PATH_CARDS, "next")
    bad = Entry(len(s.entries) + 1, "command", Command("note", ("x",)),
                (Event("data.set", {"key": key, "value": value}),))
    with pytest.raises(msgspec.ValidationError, match=where) as caught:
        Session(GAME, seats=2, seed=7, options=s.setup.options, entries=[*s.entries, bad], from_save="test")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("key", ["turns", "cards", "location", "cfg", "work", "responses", "path_built"])
def test_a_reader_of_a_typed_key_through_get_is_refused(key: str) -> None:
    with pytest.raises(KeyError, match="typed record"):
        session().state.get(key)


@pytest.mark.parametrize("protection", ["kept", "removed"])
def test_without_the_conversion_a_bad_value_would_be_kept(protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal above is the record's conversion at work: without it the nonsense gets into the state
    and a reader trips over it later, far from the value and without saying where it is."""
    s = session(PATH_CARDS, "next")
    bad = Entry(len(s.entries) + 1, "command", Command("note", ("x",)),
                (Event("data.set", {"key": "turns", "value": {"rested": "1"}}),))
    if protection == "removed":
        untyped = {name: (name, Any, None) for name in EarthborneRecord.__struct_fields__}
        monkeypatch.setattr(game_module, "_record_fields", lambda kind: untyped)  # every field taken as it comes
        with pytest.raises(AttributeError, match="'dict' object has no attribute 'rested'"):
            Session(GAME, seats=2, seed=7, options=s.setup.options, entries=[*s.entries, bad], from_save="t")
        return
    with pytest.raises(msgspec.ValidationError, match=r"got `str` - at `\$\.rested`"):
        Session(GAME, seats=2, seed=7, options=s.setup.options, entries=[*s.entries, bad], from_save="t")
