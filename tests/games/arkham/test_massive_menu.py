"""The action menu against a massive enemy (Umôrdhoth, 01157), driven through the verbs a table types:
ready, it counts as engaged with everyone at its location, so the menu offers fight and evade, never
engage; exhausted, it is engaged with nobody, so fight alone (it is never placed in a threat area)."""

from __future__ import annotations

import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.arkham import board
from tablekeeper.games.arkham.records import Enemy

from .helpers import answer, data, do, new, rejects, start_turn, track


def threat_area_only(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The menu as it was: engaged meant "in my threat area", which a massive enemy never is."""
    if protection == "protection-removed":
        monkeypatch.setattr(board, "is_engaged", lambda state, foe, seat: foe.engaged == seat)


def menu(s: Session, seat: int) -> tuple[str, ...]:
    do(s, f"actions seat{seat}")
    assert s.state.prompt is not None and s.state.prompt.id == "action"
    return s.state.prompt.options


def umordhoth_turn(seat: int = 2) -> Session:
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Umordhoth")
    return start_turn(s, seat)


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_ready_massive_enemy_offers_fight_and_evade_not_engage(monkeypatch: pytest.MonkeyPatch,
                                                                  protection: str) -> None:
    threat_area_only(monkeypatch, protection)
    s = umordhoth_turn()
    options = menu(s, 2)
    if protection == "protection-removed":
        assert "evade Umôrdhoth" not in options  # seat 2 could not evade the enemy attacking it
        return
    assert "fight Umôrdhoth" in options and "evade Umôrdhoth" in options
    assert "engage Umôrdhoth" not in options


def test_evade_from_the_menu_exhausts_the_massive_enemy_where_it_stands() -> None:
    s = umordhoth_turn()
    menu(s, 2)
    answer(s, "evade Umôrdhoth")
    assert s.state.prompt is None and data(s, "test") is not None  # the agility test starts
    assert track(s, "seat2.actions") == 2


def test_an_exhausted_massive_enemy_offers_fight_only() -> None:
    s = umordhoth_turn()
    do(s, "enemy-state Umôrdhoth exhausted")
    options = menu(s, 2)
    assert "fight Umôrdhoth" in options
    assert "evade Umôrdhoth" not in options and "engage Umôrdhoth" not in options


@pytest.mark.parametrize("ready", [True, False])
def test_a_massive_enemy_is_never_engaged_into_a_threat_area(ready: bool) -> None:
    """Neither the engage action nor a card's engage puts it in a threat area, ready or exhausted."""
    s = umordhoth_turn()
    if not ready:
        do(s, "enemy-state Umôrdhoth exhausted")
    reason = rejects(s, "act seat2 engage Umôrdhoth")
    assert ("already engaged with seat 2" if ready else "massive") in reason
    assert "massive" in rejects(s, "engage seat2 Umôrdhoth")
    foe: Enemy = board.enemy(s.state, "Umôrdhoth")
    assert foe.engaged is None and foe.location == "Main Path"


def test_the_menu_still_offers_engage_for_an_ordinary_enemy_at_the_location() -> None:
    s = new()
    do(s, "enemy seat1 Ghoul Minion")
    start_turn(s, 2)
    options = menu(s, 2)
    assert "engage Ghoul Minion" in options and "fight Ghoul Minion" in options
    assert "evade Ghoul Minion" not in options
