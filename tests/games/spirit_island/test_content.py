"""The core box's content as data, through the verbs: the eight Spirits (tracks, unique Powers,
Innate levels), named Fear cards, Blight cards both sides (Still Healthy drawing the next card),
the adversaries by the keys users type, and every unchecked fact said on screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island import spirit_data

from .helpers import attempt, run, session, to_step, tracks
from .test_table_counts import to_turn_two_ravage

CORE_SPIRITS = {  # key: (name, Energy per turn, Card Plays, Presence placed at setup)
    "lightning": ("Lightning's Swift Strike", 1, 2, 2),
    "river": ("River Surges in Sunlight", 1, 1, 1),
    "vital_strength": ("Vital Strength of the Earth", 2, 1, 3),
    "shadows": ("Shadows Flicker Like Flame", 0, 1, 3),
    "thunderspeaker": ("Thunderspeaker", 1, 1, 2),
    "rampant_green": ("A Spread of Rampant Green", 0, 1, 2),
    "ocean": ("Ocean's Hungry Grasp", 0, 1, 2),
    "bringer": ("Bringer of Dreams and Nightmares", 2, 2, 2),
}


def notices(outcome: object) -> list[str]:
    return [str(e["text"]) for e in outcome.events if e.kind == "notice"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("key", sorted(CORE_SPIRITS))
def test_each_core_spirit_loads_by_its_key_with_its_tracks_and_setup_presence(key: str) -> None:
    name, energy, plays, presence = CORE_SPIRITS[key]
    s = session(seats=1, spirits=key)
    t = tracks(s)
    assert s.view()["spirit_island"]["spirits"] == {"seat1": name}
    assert (t["seat1.energy_per_turn"], t["seat1.card_plays"], t["seat1.presence"]) == (energy, plays, presence)
    spirit = spirit_data.load(None).spirits[key]
    assert spirit.verified and len(spirit.cards) == 4 and spirit.innates  # four unique Powers each
    to_step(s, "spirit", "growth")
    cheapest = min(spirit.cards, key=lambda card: card.cost)
    run(s, f"play 1 {cheapest.name}")  # a unique Power by name: its cost paid, its elements gained
    assert tracks(s)["seat1.energy"] == energy - cheapest.cost
    gained = s.view()["spirit_island"]["elements"]["seat1"]
    assert all(gained.get(element, 0) >= 1 for element in cheapest.elements)


def test_a_spirit_is_also_found_by_its_name() -> None:
    s = session(seats=2, spirits="Vital Strength of the Earth,-")
    assert s.view()["spirit_island"]["spirits"] == {"seat1": "Vital Strength of the Earth"}


def test_uncovering_a_track_space_gives_its_energy_or_its_element() -> None:
    """Thunderspeaker's Energy track: 1, Air, 2, ... (an element space gives the element every
    turn; the Energy stays the last number uncovered)."""
    s = session(seats=1, spirits="thunderspeaker")
    to_step(s, "spirit", "growth")
    out = run(s, "uncover 1 energy A1")
    assert "Seat 1 uncovers 'air' on its Energy track; the Presence goes to A1" in notices(out)
    assert (tracks(s)["seat1.energy_per_turn"], tracks(s)["seat1.presence"]) == (1, 3)
    assert s.view()["spirit_island"]["elements"]["seat1"] == {"air": 1}
    run(s, "uncover 1 energy A1")
    assert tracks(s)["seat1.energy_per_turn"] == 2  # next turn's Energy
    run(s, "uncover 1 plays A1")
    assert tracks(s)["seat1.card_plays"] == 2


def test_uncovering_past_the_end_of_a_track_is_refused() -> None:
    s = session(seats=1, spirits="lightning")
    to_step(s, "spirit", "growth")
    for _ in range(4):
        run(s, "uncover 1 plays A1")
    refused = attempt(s, "uncover 1 plays A1")
    assert not refused.accepted and tracks(s)["seat1.card_plays"] == 6


def test_an_innate_names_every_level_its_elements_meet() -> None:
    s = session(seats=1, spirits="lightning")
    to_step(s, "spirit", "growth")
    run(s, "element 1 fire fire fire fire air air air")
    to_step(s, "slow")
    out = run(s, "innate 1")
    assert any("threshold 2 of 4 met" in text and "May destroy a City instead" in text for text in notices(out))


def test_swiftness_of_lightning_lets_a_slow_power_be_used_as_fast_for_each_air() -> None:
    s = session(seats=1, spirits="lightning")
    to_step(s, "spirit", "growth")
    run(s, "play 1 harbingers of the lightning", "play 1 lightning's boon", "done 1")  # Air 2
    assert s.state.phase == "fast"
    out = run(s, "use 1 1")  # Harbingers is Slow
    assert "Seat 1 uses Harbingers of the Lightning as if Fast (air 1 of 2)" in notices(out)
    assert "Seat 1 uses card 2, Lightning's Boon (Power use 2 this turn)" in notices(run(s, "use 1 2"))


@pytest.mark.rule("SI-DEFEND-1")
def test_earths_vitality_defends_3_at_the_spirits_sacred_site_in_the_ravage_answer() -> None:
    """Vital Strength's 2 Presence in A6 (its highest-numbered Mountain) are a Sacred Site: the
    Ravage in Mountain offers 0 Damage there (a Town and an Explorer: 3, less Defend 3)."""
    strong = to_turn_two_ravage(seats=1, spirits="vital_strength")
    assert "A6: 0 Damage, 1 Town destroyed" in strong.state.prompt.options[0]  # type: ignore[union-attr]
    plain = to_turn_two_ravage(seats=1, spirits="river")
    assert "A6: 3 Damage, Blight, 1 Dahan lost" in plain.state.prompt.options[0]  # type: ignore[union-attr]


def test_an_earned_fear_card_is_named_with_its_terror_level_section() -> None:
    """The core cards' effects are checked against two sets (verified); one a pack adds unchecked
    says so on its question and in the view's ``unverified``."""
    s = session(seats=1)
    to_step(s, "spirit", "growth")
    run(s, "fear 4")
    to_step(s, "invader", "fear")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.fear_card"
    name = prompt.text.split(",")[0]
    assert name in {card.name for card in datamod.load(None).fear_cards}
    assert "Terror Level I:" in prompt.text and "unverified" not in prompt.text
    assert s.view()["sources"]["fear_cards"]["remaining"] == 14
    assert "Fear card effects" not in s.view()["spirit_island"]["unverified"]


def test_a_packs_unchecked_fear_card_says_it_is_unverified(tmp_path: Path) -> None:
    folder = tmp_path / "si"
    folder.mkdir()
    (folder / "pack.toml").write_text('name = "homebrew"\ngame = "spirit_island"\n', encoding="utf-8")
    (folder / "fear_cards.toml").write_text(
        '[[fear_cards]]\nname = "Rumours"\nverified = false\neffects = ["1 Fear", "2 Fear", "3 Fear"]\n',
        encoding="utf-8")
    s = session(seats=1, fear_cards="report", packs=str(folder))
    assert "Fear card effects" in s.view()["spirit_island"]["unverified"]
    to_step(s, "spirit", "growth")
    run(s, "fear 4")
    to_step(s, "invader", "fear")
    run(s, "reveal fear_cards Rumours")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Rumours, Terror Level I: 1 Fear (effect unverified: check the card)"


def test_the_players_name_a_fear_card_they_revealed() -> None:
    s = session(seats=1, fear_cards="report")
    to_step(s, "spirit", "growth")
    run(s, "fear 4")
    to_step(s, "invader", "fear")
    assert s.state.prompt is not None and s.state.prompt.id == "si.fear_name"
    run(s, "reveal fear_cards Avoid the Dahan")
    assert s.state.prompt is not None and s.state.prompt.text.startswith("Avoid the Dahan, Terror Level I:")
    refused = attempt(s, "reveal fear_cards Avoid the Dahan")
    assert not refused.accepted


@pytest.mark.rule("SI-BLIGHTCARD-1")
def test_a_still_healthy_card_keeps_the_island_healthy_then_draws_the_next_card_blighted() -> None:
    s = session(seats=1, blight="Invaders Find the Land to Their Liking")
    assert tracks(s)["blight.card"] == 3  # 2 per player + 1
    out = run(s, "set blight.card 0")
    assert "Still Healthy: 2 Blight" in notices(out)
    assert tracks(s)["fear.pool"] == 5  # its Immediately: 1 Fear marker per player at Terror Level I
    out = run(s, "set blight.card 0")  # the Still Healthy side runs out: no defeat, a new card
    assert s.state.prompt is not None and s.state.prompt.id == "si.blight.draw" and s.view()["over"] is None
    out = run(s, "choose 3")  # Memory Fades to Dust, chosen by the players
    assert "Memory Fades to Dust comes into play Blighted: 4 Blight" in notices(out)
    assert (tracks(s)["blight.card"], s.view()["spirit_island"]["blight_card"]) == (4, "Memory Fades to Dust")
    run(s, "set blight.card 0")
    assert s.view()["over"] is not None  # that card is the Blighted Island: running out loses


@pytest.mark.rule("SI-BLIGHTCARD-1")
def test_a_drawn_blight_card_after_still_healthy_can_come_from_the_device() -> None:
    s = session(seats=1, blight="Invaders Find the Land to Their Liking")
    run(s, "set blight.card 0", "set blight.card 0", "choose 1")
    card = s.view()["spirit_island"]["blight_card"]
    assert card != "Invaders Find the Land to Their Liking" and s.state.prompt is None


def test_an_unverified_blight_card_is_said_on_the_tokens_display() -> None:
    s = session(seats=1, blight="Tipping Point")
    lines = s.game.panels(s.state)["tokens"].lines
    assert any("Unverified data" in line and "Blight card Tipping Point" in line for line in lines)
    assert "Blight card Tipping Point" not in session(seats=1).view()["spirit_island"]["unverified"]


@pytest.mark.parametrize("key", ["brandenburg_prussia", "england", "sweden", "russia", "scotland", "france"])
def test_every_adversary_loads_by_its_key_at_every_level(key: str) -> None:
    for level in range(7):
        adversary = session(seats=1, confirm=False, adversary=f"{key}:{level}").view()["spirit_island"]["adversary"]
        assert (adversary["key"], adversary["level"]) == (key, level)


def test_a_revealed_card_is_taken_in_any_case_and_a_wrong_one_is_told_what_it_may_be() -> None:
    """Typed at the console: "wetland" is the Wetland card (it was refused: "the top of the
    invaders deck holds no 'wetland'"), a unique start of a name is enough, and a card that cannot
    be next is refused with the names that can."""
    s = session(seats=1, invaders="report", fear_cards="report", confirm=False)
    run(s, "choose 1")  # the printed setup; the first Explore waits for its card
    refused = attempt(s, "reveal invaders Coastal")  # a Stage II card
    assert not refused.accepted and refused.reason == (
        "the top of the invaders deck holds no 'Coastal' (it may show Jungle, Mountain, Sands, Wetland)")
    run(s, "reveal invaders wetland")
    assert s.view()["spirit_island"]["slots"]["explore"] == ["Wetland"]
    refused = attempt(s, "reveal invaders jungle")
    assert refused.reason == "this Explore step already has its card (a second one: explore more)"
    run(s, "choose 1", "fear 4")
    to_step(s, "invader", "fear")
    refused = attempt(s, "reveal fear_cards dahan")
    assert refused.reason == ("'dahan' is more than one of the cards the top of the fear_cards deck may show: "
                              "Dahan Enheartened, Dahan Raid, Dahan on Their Guard")
    run(s, "reveal fear_cards avoid the dahan")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.startswith("Avoid the Dahan, Terror Level I:")
