"""Adversary levels the station applies itself (beyond setup pieces and deck orders), through the
verbs: what each changes in the Invader counts, the Blight, the Fear or the Invader deck."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper.core.session import Session
from tests.games.played import opened

from .helpers import answer_counts, attempt, record, run, to_step, tracks


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


def overview(s: Session) -> str:
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.overview", prompt
    return prompt.options[0]


def explore_last(adversary: str, cards: list[str], **options: str) -> Session:
    """The cards before the last reported and answered; the last one revealed, its question open."""
    s = reported(adversary, cards[:-1], **options)
    to_step(s, "invader", "explore")
    run(s, f"reveal invaders {cards[-1]}")
    return s


def test_france_1_a_second_explorer_where_there_are_no_towns_or_cities() -> None:
    s = reported("france:1", ["Wetland"])
    run(s, "land A7 towns=1")
    to_step(s, "invader", "explore")
    run(s, "reveal invaders Sands")
    assert overview(s) == "as the rules place them: A4: 2 Explorers added; A7: 1 Explorer added"
    run(s, "choose 1")
    assert (count(s, "A4", "explorers"), count(s, "A7", "explorers")) == (2, 1)


def test_scotland_1_explore_cards_add_towns_in_coastal_lands() -> None:
    s = explore_last("scotland:1", ["Wetland", "Jungle"])
    assert overview(s) == "as the rules place them: A3: 1 Town added; A8: 1 Explorer added"
    run(s, "choose 1")
    assert (count(s, "A3", "towns"), count(s, "A3", "explorers")) == (1, 0)


def test_scotland_1_the_coastal_lands_card_adds_towns_in_two_lands_per_board() -> None:
    s = explore_last("scotland:1", ["Wetland", "Jungle", "Sands", "Coastal"])
    assert overview(s) == "as the rules place them: A1, A2: 1 Town added; A3: 1 Explorer added"


def test_scotland_3_coastal_lands_next_to_a_city_build_without_invaders() -> None:
    s = reported("scotland:3", ["Mountain"])
    run(s, "land A1 explorers=0")  # A1 (Mountain, Coastal) is empty, next to A2's City
    to_step(s, "invader", "build")
    assert "A1" in overview(s) and "1 Town added" in overview(s)


def test_scotland_6_a_town_in_each_ravaged_inland_land_near_a_town() -> None:
    s = reported("scotland:6", ["Wetland", "Jungle"])
    towns = count(s, "A5", "towns")
    to_step(s, "invader", "explore")  # the Ravage in Wetland (no Blight), its after-step, the Build in Jungle
    assert count(s, "A5", "towns") == towns + 1  # Inland, next to A8's Town; A2 is Coastal


def test_russia_3_ravage_cards_also_hit_lands_with_three_explorers() -> None:
    s = reported("russia:3", ["Wetland", "Jungle"])
    run(s, "land A7 explorers=3")  # Sands: not the Ravage card's terrain
    to_step(s, "invader", "ravage")
    assert "A7: 6 Damage" in overview(s)  # Sands; 3 Explorers and Russia 1's, +1 Damage each


def test_russia_6_a_board_without_ravage_blight_gets_an_explorer_and_a_town() -> None:
    s = reported("russia:6", ["Wetland", "Jungle"])
    run(s, "land A6 explorers=2")  # the land with the most Explorers on board A
    to_step(s, "invader", "explore")  # the Ravage answered without Blight
    assert (count(s, "A6", "explorers"), count(s, "A6", "towns")) == (3, 1)


def test_russia_2_the_first_explorer_an_action_destroys_is_pushed_for_a_fear() -> None:
    s = reported("russia:2", ["Wetland"])
    run(s, "land A5 explorers=3")
    fear, a7 = tracks(s)["fear.generated"], count(s, "A7", "explorers")
    run(s, "begin Power", "destroy explorer 2 A5")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.endswith("the Explorer in A5 is pushed: into which adjacent land?")
    run(s, f"choose {prompt.options.index('A7') + 1}")
    assert (count(s, "A5", "explorers"), count(s, "A7", "explorers")) == (1, a7 + 1)
    assert tracks(s)["fear.generated"] == fear + 1
    run(s, "destroy explorer A5")  # the same action again: destroyed
    assert count(s, "A5", "explorers") == 0 and s.state.prompt is None
    run(s, "end")


def test_russia_5_the_invader_card_under_the_third_fear_card_goes_to_build() -> None:
    s = reported("russia:5", ["Wetland"])
    run(s, "fear 12")  # three Fear cards earned (4 markers per player)
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.startswith("Entrench in the Face of Fear: the Stage II Invader card")
    run(s, f"choose {prompt.options.index('Sands') + 1}")
    assert slots(s)["build"] == ["Wetland", "Sands"]
    deck = s.state.sources["invaders"]
    assert all(not stage.count("Sands") for stage in deck.stages[3:] if "Coastal" in stage.as_dict())


def test_sweden_4_royal_backing_discards_the_next_card_for_a_town_per_board() -> None:
    s = opened("spirit_island", seats=2, seed=3, adversary="sweden:4", invaders="report").session
    run(s, "choose 1", "reveal invaders Wetland", "choose 1")
    assert record(s).royal_backing and s.state.phase == "setup"
    assert attempt(s, "next").reason == "flip the Invader card Royal Backing discards: reveal invaders CARD " \
                                         "(or draw invaders)"
    left = tracks(s)["invader.cards_left"]
    run(s, "reveal invaders Sands")  # A4 (1 Explorer? no: Blight) or A7, the fewest Invaders on board A
    assert s.view()["spirit_island"]["discard"] == ["Sands"] and tracks(s)["invader.cards_left"] == left - 1
    added = [n for n in s.notices if n.startswith("Royal Backing: 1 Town added")]
    prompt = s.state.prompt
    assert len(added) + (prompt is not None) == 2  # one Town per board, asked where the fewest tie


def test_france_2_a_build_turns_all_but_one_explorer_into_towns() -> None:
    s = reported("france:2", ["Wetland"])
    run(s, "land A5 explorers=3")
    to_step(s, "invader", "build")
    run(s, "choose 1")
    assert (count(s, "A5", "explorers"), count(s, "A5", "towns")) == (1, 3)


def test_france_4_a_coastal_city_adds_a_town_next_door() -> None:
    s = reported("france:4", ["Wetland"])
    run(s, "land A2 towns=2")  # Towns outnumber Cities: A2 (Coastal) builds a City
    to_step(s, "invader", "build")
    run(s, "choose 2")  # land by land
    while s.state.prompt is not None and s.state.prompt.id == "si.counts.build":
        run(s, "choose 1")
        if s.state.prompt is not None and s.state.prompt.id == "si.counts.place":
            break
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.startswith("Triangle Trade from A2:")
    assert prompt.options == ("A3", "A4", "nowhere")  # A1 has France 3's Town


def test_france_5_removed_blight_waits_on_the_panel() -> None:
    s = reported("france:5", ["Wetland"])
    card = tracks(s)["blight.card"]
    run(s, "land A5 blight=3", "remove-blight A5", "remove-blight A5")
    assert (tracks(s)["blight.card"], tracks(s)["blight.healing"]) == (card, 2)
    run(s, "remove-blight A5")  # 3 per player: all back to the card
    assert (tracks(s)["blight.card"], tracks(s)["blight.healing"]) == (card + 3, 0)


def test_russias_escalation_adds_explorers_among_lands_with_beasts() -> None:
    s = reported("russia:1", ["Wetland", "Jungle", "Sands"])
    assert count(s, "A7", "beasts") == 1  # Russia 1's setup Beasts (highest land without Towns/Cities)
    before = count(s, "A7", "explorers")
    to_step(s, "invader", "explore")
    run(s, "reveal invaders Mountain", "choose 1")  # Stage II, with the escalation mark
    assert count(s, "A7", "explorers") == before + 2


def test_scotlands_escalation_asks_the_lands_with_the_fewest_towns() -> None:
    s = reported("scotland:0", ["Wetland", "Jungle", "Sands"])
    to_step(s, "invader", "explore")
    run(s, "reveal invaders Mountain", "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Ports Sprawl Outward: which land with the fewest Towns gets a Town?"
    run(s, f"choose {prompt.options.index('A6') + 1}")
    assert count(s, "A6", "towns") == 1 and s.state.prompt is None


def test_lands_touching_across_boards_are_neighbours_for_a_cascade() -> None:
    s = opened("spirit_island", seats=2, seed=3, links="A1-B6").session
    run(s, "choose 1", "next", "land A1 blight=1", "begin Power", "blight A1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.options == ("A2", "A4", "A5", "A6", "B6")
    assert "not adjacent" in str(attempt(s, "cascade B3").reason)
    run(s, "cascade B6")
