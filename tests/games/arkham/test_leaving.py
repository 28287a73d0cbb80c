"""A location's Forced effect when an investigator moves out of it, driven by the move action as a table
types it: Arkham Woods: Twisting Paths (01151) tests intellect (3) before the move; a failure cancels
the move (the action stays spent), a success makes it."""

from __future__ import annotations

import pytest

from tablekeeper.core.game import Txn
from tablekeeper.core.session import Session
from tablekeeper.games.arkham import actions, board

from .helpers import answer, do, new, rejects, start_turn, track
from .helpers import data as viewed


def in_the_woods(card: str = "Twisting Paths") -> Session:
    """The Devourer Below, round 1: seat 1 enters the first Arkham Woods, revealed as ``card``; its turn."""
    s = start_turn(new(seats=2, scenario_id="devourer_below"), 1)
    do(s, "enter seat1 Arkham Woods 1")
    answer(s, card)
    assert viewed(s, "at")["1"] == "Arkham Woods 1"
    return s


def where(s: Session, seat: int) -> str:
    at: str = viewed(s, "at")[str(seat)]
    return at


@pytest.mark.rule("AH-FORCED-4")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_moving_out_of_twisting_paths_waits_for_its_intellect_test(monkeypatch: pytest.MonkeyPatch,
                                                                   protection: str) -> None:
    """The move action is paid; the Forced test opens before the investigator leaves (still in the
    woods while it runs)."""
    if protection == "protection-removed":
        def straight(txn: Txn, seat: int, target: str) -> None:
            board.enter(txn, seat, target)
        monkeypatch.setattr(actions, "move_out", straight)
    s = in_the_woods()
    actions_left = track(s, "seat1.actions")
    do(s, "act seat1 move Main Path")
    assert track(s, "seat1.actions") == actions_left - 1
    if protection == "protection-removed":
        assert viewed(s, "test") is None and where(s, 1) == "Main Path"  # the box as it was: no test
        return
    test = viewed(s, "test")
    assert (test["seat"], test["skill"], test["difficulty"]) == (1, "intellect", 3)
    assert test["source"] == "Arkham Woods 1 (Twisting Paths)"
    assert where(s, 1) == "Arkham Woods 1"
    assert "Arkham Woods 1 (Twisting Paths): Forced, when seat 1 moves out: test intellect (3); " \
        "a failure cancels the move" in viewed(s, "notices")
    assert rejects(s, "act seat1 draw") == "a skill test is running; resolve it first"


@pytest.mark.parametrize(("token", "lands"), [("0", "Main Path"), ("autofail", "Arkham Woods 1")],
                         ids=["success", "failure"])
def test_a_success_makes_the_move_and_a_failure_cancels_it(token: str, lands: str) -> None:
    s = in_the_woods()
    do(s, "act seat1 move Main Path", f"reveal chaos {token}", "resolve")
    assert where(s, 1) == lands and track(s, "seat1.actions") == 2
    if lands != "Main Path":
        assert "Arkham Woods 1 (Twisting Paths): seat 1's move to Main Path is cancelled" in viewed(s, "notices")


def test_engaged_enemies_come_along_only_when_the_move_is_made() -> None:
    s = in_the_woods()
    do(s, "enemy seat1 Sentry fight=1 health=3 evade=5 damage=0 horror=0 exhausted",
       "act seat1 move Main Path", "reveal chaos autofail", "resolve")
    assert viewed(s, "enemies")["Sentry"]["engaged"] == 1 and where(s, 1) == "Arkham Woods 1"
    do(s, "act seat1 move Main Path", "reveal chaos 0", "resolve")
    assert where(s, 1) == "Main Path" and board.enemy_location(s.state, board.enemy(s.state, "Sentry")) == "Main Path"


def test_another_wood_lets_the_investigator_leave_without_a_test() -> None:
    s = in_the_woods("Old House")
    do(s, "act seat1 move Main Path")
    assert viewed(s, "test") is None and where(s, 1) == "Main Path"


def test_enter_places_an_investigator_without_the_forced_test() -> None:
    """`enter` places an investigator (setup, a card that places them): not the move action, no test."""
    s = in_the_woods()
    do(s, "enter seat1 Main Path")
    assert viewed(s, "test") is None and where(s, 1) == "Main Path"
