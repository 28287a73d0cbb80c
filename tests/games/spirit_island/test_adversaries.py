"""Adversary levels the station applies itself (beyond setup pieces and deck orders), through the
verbs: what each changes in the Invader counts, the Blight, the Fear or the Invader deck."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper.core.session import Session
from tests.games.played import opened

from .helpers import answer_counts, run, to_step


def lands(s: Session) -> dict[str, dict[str, Any]]:
    view: dict[str, dict[str, Any]] = s.view()["spirit_island"]["lands"]
    return view


def count(s: Session, land: str, key: str) -> int:
    return int(lands(s)[land].get(key, 0))


def reported(adversary: str, cards: list[str], seats: int = 1, **options: str) -> Session:
    """A game in play's default flow whose Invader cards the players report: the setup's Explore
    card, then one per turn's Explore until ``cards`` is used up (Ravages add no Blight)."""
    s = opened("spirit_island", seats=seats, seed=3, adversary=adversary, invaders="report", **options).session
    run(s, "choose 1", f"reveal invaders {cards[0]}")
    answer_counts(s)
    for card in cards[1:]:
        to_step(s, "invader", "explore")
        run(s, f"reveal invaders {card}")
        answer_counts(s)
    return s


def slots(s: Session) -> dict[str, list[str]]:
    found: dict[str, list[str]] = s.view()["spirit_island"]["slots"]
    return found


@pytest.mark.rule("SI-INV-7")
def test_england_3_high_immigration_builds_before_the_ravage_until_a_stage_two_card_reaches_it() -> None:
    s = reported("england:3", ["Wetland", "Mountain", "Sands", "Jungle", "Mountain"])
    # turn 5: Wetland built on the tile on turn 3, Mountain on turn 4, Sands now
    assert s.view()["spirit_island"]["discard"] == ["Wetland", "Mountain"]
    assert slots(s)["immigration"] == ["Sands"]
    to_step(s, "invader", "immigration")
    assert s.state.prompt is not None and s.state.prompt.text == "High Immigration in Sands: what was added?"
    assert s.view()["spirit_island"]["slots"]["ravage"] == ["Jungle"]  # Stage II: it slides onto the tile next
    to_step(s, "invader", "explore")
    run(s, "reveal invaders Coastal")
    answer_counts(s)
    to_step(s, "spirit", "growth")  # turn 6: Jungle (Stage II) reached the tile, which left with it
    assert "immigration" not in slots(s) and "Jungle" in s.view()["spirit_island"]["discard"]
    run(s, "done 1")
    assert s.state.step in ("fear", "ravage")  # no High Immigration Build any more


def test_england_4_keeps_the_tile_all_game() -> None:
    s = reported("england:4", ["Wetland", "Mountain", "Sands", "Jungle", "Mountain", "Coastal"])
    assert s.state.over is None and s.state.round == 6
    assert slots(s)["immigration"] == ["Jungle"]  # the Stage II card stays on the tile
    assert s.view()["spirit_island"]["discard"] == ["Wetland", "Mountain", "Sands"]


def test_england_6_builds_twice_when_no_fear_card_was_resolved() -> None:
    s = reported("england:6", ["Wetland", "Mountain", "Sands"])
    to_step(s, "invader", "immigration")
    before = count(s, "A5", "towns") + count(s, "A5", "cities")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "High Immigration in Wetland: what was added?"
    assert any("Builds twice" in n for n in s.notices)
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "High Immigration (again) in Wetland: what was added?"
    run(s, "choose 1")
    assert count(s, "A5", "towns") + count(s, "A5", "cities") == before + 2 and s.state.step == "ravage"


def test_england_6_builds_once_after_a_fear_card() -> None:
    s = reported("england:6", ["Wetland", "Mountain", "Sands"])
    run(s, "fear 5")  # England 6: 5 markers per player in the Fear Pool; a Fear card earned
    to_step(s, "invader", "fear")
    run(s, "choose 1")  # the Fear card resolved
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "High Immigration in Wetland: what was added?"
    run(s, "choose 1")
    assert s.state.step == "ravage" and not any("Builds twice" in n for n in s.notices)
