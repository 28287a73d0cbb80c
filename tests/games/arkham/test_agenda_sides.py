"""An agenda whose reverse side reads the act: They're Getting Out! (01107), The Gathering's agenda 3.
Turned over at act 1 or 2 it is resolution R3; at act 3 each investigator who has not resigned is
defeated and suffers 1 physical trauma, and the scenario ends with no resolution (the campaign
guide's own entry for that follows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.session import Session
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham import data, effects

from .helpers import data as viewed
from .helpers import do, new, start_turn, track


def at_agenda_3(act: int, seats: int = 3) -> Session:
    s = start_turn(new(seats=seats), 1)
    return do(s, "set agenda 3", *([f"set act {act}"] if act > 1 else []))


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_at_act_3_each_investigator_still_in_is_defeated_with_1_physical_trauma(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Seat 3 resigned earlier: it keeps its trauma as it was. Seats 1 and 2 are defeated by the card
    (1 physical trauma each, in campaign play); the scenario ends with no resolution, not R3."""
    if protection == "protection-removed":
        monkeypatch.setattr(effects, "late_side", lambda state, deck, current: None)
    s = at_agenda_3(act=3)
    do(s, "resign seat3", "advance agenda card")
    if protection == "protection-removed":
        assert viewed(s, "resolution") == "R3"  # the box as it was: R3 whatever the act
        return
    assert viewed(s, "eliminated") == {"1": "ability", "2": "ability", "3": "resign"}
    assert [track(s, f"seat{n}.physical_trauma") for n in (1, 2, 3)] == [1, 1, 0]
    assert viewed(s, "resolution") == "no resolution" and s.state.over is not None
    assert s.state.prompt is None  # no new lead asked for on the way


@pytest.mark.parametrize("act", [1, 2])
def test_before_act_3_it_is_resolution_r3(act: int) -> None:
    s = at_agenda_3(act=act)
    do(s, "advance agenda card")
    assert viewed(s, "resolution") == "R3" and viewed(s, "eliminated") == {}
    assert track(s, "seat1.physical_trauma") == 0


def test_standalone_play_defeats_without_trauma() -> None:
    s = start_turn(new(seats=2, mode="standalone"), 1)
    do(s, "set agenda 3", "set act 3", "advance agenda card")
    assert viewed(s, "eliminated") == {"1": "ability", "2": "ability"}
    assert track(s, "seat1.physical_trauma") == 0


def test_a_late_side_without_a_resolution_for_the_earlier_acts_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "scenarios.toml"
    path.write_text('[scenarios.x]\ntitle = "X"\n[[scenarios.x.agendas]]\nname = "A"\ndoom = 3\n'
                    'from_act = { act = 2, then = [{ do = "defeat_each" }] }\n'
                    '[[scenarios.x.acts]]\nname = "B"\nclues = 2\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        data.load_scenarios(str(path))
    said = str(caught.value)
    assert str(path) in said and "from_act" in said and "\n" not in said
