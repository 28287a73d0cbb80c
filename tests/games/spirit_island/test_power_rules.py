"""Seed rulings about Powers, triggers, counting, Incarna, Isolate and Reminder cards."""

from __future__ import annotations

import pytest

from tablekeeper.games.spirit_island import invader_rules as ir
from tablekeeper.games.spirit_island import powers as pw
from tablekeeper.games.spirit_island import table_actions

from .helpers import answer_counts, attempt, run, session, to_step, tracks


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
    slots = s.state.get("invader.slots")
    shown = {*slots["ravage"], *slots["build"]}
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in which terrain?"
    options = list(prompt.options)
    assert not shown & set(options) and len(options) == 4 - len(shown)
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == f"Build (Fortification) in {options[0]}: what was added?"
    run(s, "choose 2")  # terrain by terrain
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == f"Build in {options[0]}: what was added?"
    assert s.view()["spirit_island"]["actions"] == [f"Build (Fortification) in {options[0]}"]
    towns = tracks(s)["island.towns"]
    run(s, "choose 2")  # nothing was built there
    assert tracks(s)["island.towns"] == towns and s.view()["spirit_island"]["actions"] == []


@pytest.mark.rule("SI-ERRATA-4")
def test_si_errata_4_cash_crops_only_unshown_terrain() -> None:
    slots = {"ravage": ["Sands"], "build": ["Mountain+Wetland"], "explore": []}
    assert ir.unshown_terrains(slots, ["Jungle", "Mountain", "Sands", "Wetland"]) == ["Jungle"]
    s = session(seats=1, events="on")
    to_step(s, "invader", "event")
    answer_counts(s)
    slots = s.state.get("invader.slots")
    run(s, "event cash crops take hold")  # a Ravage at once, in a terrain no card shows
    prompt = s.state.prompt
    assert prompt is not None and not {*slots["ravage"], *slots["build"]} & set(prompt.options)
    run(s, "choose 1", "choose 2")  # the terrain; then board by board
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_blight"


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
@pytest.mark.parametrize(("how", "fired"), [("skip", 0), ("more", 2)])
def test_si_errata_2_explore_with_zero_or_two_cards_is_recorded(how: str, fired: int) -> None:
    s = session(adversary="france:6")
    to_step(s, "invader", "explore")
    left = s.state.value("invader.cards_left")
    run(s, f"explore {how}")
    answer_counts(s)
    run(s, "next")
    assert sum("France 6" in n for n in s.notices) == fired
    assert s.state.value("invader.cards_left") == left - (1 if how == "more" else 0)
    assert len(s.state.get("invader.slots")["build"]) == (2 if how == "more" else 1)
