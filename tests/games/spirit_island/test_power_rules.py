"""Seed rulings about Powers, triggers, counting, Incarna, Isolate and Reminder cards."""

from __future__ import annotations

import pytest

from tablekeeper.games.spirit_island import invader_rules as ir
from tablekeeper.games.spirit_island import powers as pw
from tablekeeper.games.spirit_island import table_actions

from .helpers import answer_counts, attempt, record, run, session, to_step, tracks


@pytest.mark.rule("SI-REPEAT-1")
def test_si_repeat_1_a_repeat_is_another_power_use() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "play 1 1 fast sun")
    to_step(s, "fast")
    run(s, "whenever 1 gain 1 Energy", "use 1 1")
    assert s.state.get("seat1.power_uses") == 1
    run(s, "repeat 1 1")
    assert s.state.get("seat1.power_uses") == 2
    assert any("Whenever seat 1 uses a Power" in n for n in s.notices)


@pytest.mark.rule("SI-ERRATA-3")
def test_si_errata_3_fortification_offers_unshown_terrains() -> None:
    slots = {"ravage": ["Jungle"], "build": ["Wetland"], "explore": []}
    assert ir.unshown_terrains(slots, ["Jungle", "Mountain", "Sands", "Wetland"]) == ["Mountain", "Sands"]
    s = session(seats=1, events="on")
    to_step(s, "invader", "event")  # turn 2: Ravage and Build slots hold the first two cards
    answer_counts(s)
    run(s, "event fortification")
    assert s.state.prompt is None  # typed during the Event, it waits for the cards to advance
    to_step(s, "invader", "advance")
    slots = record(s).slots.as_mapping()
    shown = {*slots["ravage"], *slots["build"]}
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in which terrain?"
    options = list(prompt.options)
    assert not shown & set(options) and len(options) == 4 - len(shown)
    assert options == ["Mountain", "Wetland"]  # after advancing, this seed's cards show Jungle and Sands
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build (Fortification) in Mountain: what was added?"
    run(s, "choose 2")  # land by land: the Mountains with Invaders, A1 and A6
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in A1: what was added?"
    assert prompt.options[0] == "1 City"  # an Explorer and a Town there: Towns outnumber Cities
    assert s.view()["spirit_island"]["actions"] == ["Build (Fortification) in A1"]
    towns = tracks(s)["island.towns"]
    run(s, "choose 2", "choose 2")  # nothing was built in either
    assert tracks(s)["island.towns"] == towns and s.view()["spirit_island"]["actions"] == []


@pytest.mark.rule("SI-ERRATA-4")
def test_si_errata_4_cash_crops_only_unshown_terrain() -> None:
    slots = {"ravage": ["Sands"], "build": ["Mountain+Wetland"], "explore": []}
    assert ir.unshown_terrains(slots, ["Jungle", "Mountain", "Sands", "Wetland"]) == ["Jungle"]
    s = session(seats=1, events="on")
    to_step(s, "invader", "event")
    answer_counts(s)
    slots = record(s).slots.as_mapping()
    run(s, "event cash crops take hold")  # a Ravage at once, in a terrain no card shows
    prompt = s.state.prompt
    assert prompt is not None and not {*slots["ravage"], *slots["build"]} & set(prompt.options)
    assert prompt.options == ("Sands", "Wetland")
    run(s, "choose 2", "choose 2")  # Wetland; then land by land
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_blight"
    assert prompt.text == "Ravage in A2: did it add Blight?"  # the City in A2: 3 Damage
    assert prompt.options[0] == "Blight added (3 Damage, 1 Dahan lost)"


@pytest.mark.rule("SI-TRIGGER-3")
def test_si_trigger_3_tracker_setup_blight_does_not_fire_post_setup_rules() -> None:
    s = session(adversary="sweden:5")
    run(s, "blight A1")  # during setup
    assert not any("Mining Rush" in n for n in s.notices)
    to_step(s, "spirit", "growth")
    run(s, "blight A2")
    assert any("Mining Rush" in n for n in s.notices)


@pytest.mark.rule("SI-COUNTS-1")
def test_si_counts_1_choice_fixed_for_the_whole_action() -> None:
    s = session()
    to_step(s, "fast", "powers")
    run(s, "begin Many Minds Move as One", "counts-as S yes")
    refused = attempt(s, "counts-as S no")
    assert not refused.accepted and "whole action" in str(refused.reason)
    run(s, "counts-as S yes")  # the same choice again is fine
    assert table_actions.counts(s.state, "S") is True
    run(s, "end")
    assert table_actions.counts(s.state, "S") is None


@pytest.mark.rule("SI-COUNTS-2")
def test_si_counts_2_nested_action_has_its_own_choices() -> None:
    s = session()
    to_step(s, "fast", "powers")
    run(s, "begin Insatiable Hunger", "counts-as S yes", "begin Blight card Immediately", "counts-as S no")
    assert table_actions.counts(s.state, "S") is False
    run(s, "end")
    assert table_actions.counts(s.state, "S") is True


@pytest.mark.rule("SI-REMINDER-1")
def test_si_reminder_1_reminder_waits_and_acceleration_goes_on() -> None:
    accelerated, waiting = ir.accelerate(["a", "R", "b", "c"], 3, frozenset({"R"}))
    assert accelerated == ["a", "b", "c"] and waiting == ["R"]


@pytest.mark.rule("SI-REMINDER-2")
def test_si_reminder_2_all_thieves_accelerate_before_the_reminder() -> None:
    # Thieves #1 and #2 escape from one land: one action accelerating 1 card each.
    accelerated, waiting = ir.accelerate(["R", "x", "y"], 2, frozenset({"R"}))
    assert accelerated == ["x", "y"] and waiting == ["R"]


@pytest.mark.rule("SI-FEAR-2")
def test_si_fear_2_every_card_with_the_fear_icon_generates_fear() -> None:
    cards = pw.load_powers()
    with_icon = [c for c in cards.values() if c.fear_icon]
    assert with_icon and all(c.generates_fear for c in with_icon)
    assert not any(c.generates_fear for c in cards.values() if not c.fear_icon)


@pytest.mark.rule("SI-DAMAGE-3")
def test_si_damage_3_a_push_behind_a_threshold_still_counts() -> None:
    card = pw.PowerCard("Thresholded", 1, "fast", False, frozenset({"push", "damage"}))
    assert "push" in card.instructions and card.violence_qualifies


@pytest.mark.rule("SI-TURN-1")
def test_si_turn_1_slow_power_in_fast_phase_is_refused_and_stays_pending() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "play 1 1 slow water")
    to_step(s, "fast")
    out = attempt(s, "use 1 1")
    assert not out.accepted and "Slow" in str(out.reason)
    to_step(s, "slow")
    run(s, "use 1 1")


@pytest.mark.rule("SI-ERRATA-2")
def test_si_errata_2_france_6_fires_after_each_explore_card_resolved() -> None:
    s = session(adversary="france:6")
    to_step(s, "invader", "explore")  # the first card is flipped, its question open
    first = record(s).slots.as_mapping()["explore"][0]
    run(s, "explore more")  # an effect flips a second card
    second = record(s).slots.as_mapping()["explore"][1]
    out = run(s, "choose 1")  # the first card's Explore, as the rules place it
    texts = [str(e["text"]) for e in out.events if e.kind == "notice"]
    assert [t for t in texts if "France 6" in t] == [f"After the {first} Explore card: France 6: add 1 Explorer "
                                                      "to a land without one"]
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == f"Explore in {second}: what was added?"
    out = run(s, "choose 1")
    texts = [str(e["text"]) for e in out.events if e.kind == "notice"]
    assert sum("France 6" in t for t in texts) == 1 and any(t.startswith(f"After the {second}") for t in texts)
    assert len(record(s).slots.as_mapping()["explore"]) == 2


@pytest.mark.rule("SI-ERRATA-2")
def test_si_errata_2_no_explore_card_resolved_fires_nothing() -> None:
    s = session(adversary="france:6")
    to_step(s, "invader", "explore")
    left = s.state.value("invader.cards_left")
    run(s, "explore skip")
    out = run(s, "next")
    assert not any("France 6" in str(e["text"]) for e in out.events if e.kind == "notice")
    assert s.state.value("invader.cards_left") == left and len(record(s).slots.as_mapping()["build"]) == 1


@pytest.mark.rule("SI-ERRATA-1")
@pytest.mark.rule("SI-PUSH-1")
def test_bringers_powers_turn_what_they_would_destroy_into_fear_and_pushes() -> None:
    """Bringer of Dreams and Nightmares (seat 2) uses a Power that would destroy B6's Town: the Town
    stays on the island, pushed where the players say, and the special rule's 2 Fear replace the
    1 Fear of destroying it; a City stays where it is for 5 Fear (before, only ``destroy`` existed,
    which took the Town off the island)."""
    s = session(seats=2, spirits="river,bringer")
    towns = tracks(s)["island.towns"]
    refused = attempt(s, "dream 1 town B6")
    assert refused.reason == "seat 1's Spirit does not turn destruction into Fear: destroy PIECE [N] [LAND]"
    run(s, "dream 2 town B6")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.push"
    assert prompt.text == "To Dream a Thousand Deaths: the Town in B6 is pushed: into which adjacent land?"
    assert prompt.options == ("B1", "B5", "B7", "B8")
    run(s, "choose 2")
    land = s.view()["spirit_island"]["lands"]
    assert (land["B6"].get("towns", 0), land["B5"].get("towns", 0)) == (0, 1)
    assert tracks(s)["island.towns"] == towns and tracks(s)["fear.generated"] == 2
    run(s, "dream 2 city B2")
    assert s.view()["spirit_island"]["lands"]["B2"]["cities"] == 1 and tracks(s)["fear.generated"] == 7
    assert s.state.prompt is None  # a City is not pushed
