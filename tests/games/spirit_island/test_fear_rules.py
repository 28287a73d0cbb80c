"""A Fear card resolved in the Fear step changes the Ravage, Build and Explore that follow it in
the same Invader Phase (SI-INV-1): the station's "as the rules place them" answers follow it, and
say so. Before, a table that had just resolved Trade Suffers was offered a Town in a land with a
City, to take with one press."""

from __future__ import annotations

import pytest

from tablekeeper.core.session import Session

from .helpers import detail, run, session, to_step


def resolved_in_turn_one(name: str) -> Session:
    """Turn 1 (Build in Mountain, Explore in Sands at seed 3), with Fear card ``name`` earned in the
    Spirit Phase and resolved at Terror Level I."""
    s = session(seats=2, fear_cards="report")
    run(s, "fear 8")
    to_step(s, "invader", "fear")
    run(s, f"reveal fear_cards {name}", "choose 1")
    return s


def options(s: Session) -> tuple[str, ...]:
    prompt = s.state.prompt
    assert prompt is not None
    return prompt.options


@pytest.mark.rule("SI-INV-1")
@pytest.mark.rule("SI-INV-5")
def test_trade_suffers_stops_the_build_in_lands_with_a_city() -> None:
    s = resolved_in_turn_one("Trade Suffers")
    to_step(s, "invader", "build")  # B2 holds its printed City and an Explorer
    assert options(s)[0] == "as the rules place them: A1, A6, B7: 1 Town added (with Trade Suffers)"
    detail(s)
    run(s, "choose 1", "choose 1")  # A1, A6: a Town each
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in B2: what was added?" and prompt.options[0] == "nothing"


@pytest.mark.rule("SI-INV-1")
@pytest.mark.rule("SI-INV-6")
def test_avoid_the_dahan_stops_the_explore_into_lands_with_two_dahan() -> None:
    s = resolved_in_turn_one("Avoid the Dahan")
    to_step(s, "invader", "build")
    assert options(s)[0] == "as the rules place them: A1, A6, B2, B7: 1 Town added"  # Level I: Explore only
    run(s, "choose 1", "next")
    # Sands: A7 (next to A8's Town) and B3 (Coastal) hold 2 Dahan each
    assert options(s)[0] == "as the rules place them: A4, B5: 1 Explorer added (with Avoid the Dahan)"


@pytest.mark.rule("SI-INV-2")
@pytest.mark.rule("SI-DEFEND-4")
def test_overseas_trade_gives_defend_in_coastal_lands_for_the_ravage_and_only_this_turn() -> None:
    s = session(seats=2, fear_cards="report")
    to_step(s, "time", "passes")
    run(s, "next", "fear 8")  # turn 2: the Ravage in Mountain
    to_step(s, "invader", "fear")
    run(s, "reveal fear_cards Overseas Trade Seem Safer", "choose 1")
    to_step(s, "invader", "ravage")
    # without it: "A1: 3 Damage, Blight; A6, B7: 3 Damage, Blight, 1 Dahan lost; B2: 6 Damage, Blight"
    assert options(s)[0].startswith("as the rules place them: A1: 0 Damage; A6, B7: 3 Damage, Blight, 1 Dahan lost; "
                                    "B2: 3 Damage, Blight (with Overseas Trade Seem Safer)")
    to_step(s, "time", "passes")
    run(s, "next")
    assert s.state.round == 3
    to_step(s, "invader", "ravage")
    assert "Overseas Trade" not in options(s)[0]  # Defend from a Fear card lasts the turn
