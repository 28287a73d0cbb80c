"""Damage, horror, defeat, trauma and elimination (AH-DMG, AH-DEFEAT, AH-TRAUMA, AH-ELIM)."""

from __future__ import annotations

import pytest

from tablekeeper.games.arkham import rules

from .helpers import data, do, new, rejects, start_turn, to_step, track


@pytest.mark.rule("AH-DMG-9")
def test_ah_dmg_9_damage_reaching_health_defeats() -> None:
    s = new(seat1="agnes")  # health 6
    do(s, "hit seat1 5")
    assert data(s, "eliminated") == {}
    do(s, "hit seat1 1")
    assert data(s, "eliminated") == {"1": "damage"}
    assert track(s, "seat1.physical_trauma") == 1


def test_setting_a_track_beyond_health_is_rejected_but_dealt_harm_defeats() -> None:
    s = new()
    assert rejects(s, "add seat2.horror +10") == "seat2.horror 10 is beyond sanity 9"
    assert rejects(s, "set seat1.damage 10") == "seat1.damage 10 is beyond health 9"
    do(s, "hit seat1 10")  # AH-DMG-9: dealt harm is never refused; the track stops at the limit
    assert track(s, "seat1.damage") == 9 and data(s, "eliminated") == {"1": "damage"}
    assert track(s, "seat1.physical_trauma") == 1


@pytest.mark.rule("AH-DEFEAT-2")
def test_ah_defeat_2_resignation_is_no_defeat_and_no_trauma() -> None:
    s = new()
    do(s, "resign seat2")
    assert data(s, "eliminated") == {"2": "resign"}
    assert (track(s, "seat2.physical_trauma"), track(s, "seat2.mental_trauma")) == (0, 0)


@pytest.mark.rule("AH-TRAUMA-3")
def test_ah_trauma_3_trauma_reaching_printed_health_kills() -> None:
    s = new(seat1="wendy", **{"seat1.physical_trauma": "6"})  # health 7
    assert track(s, "seat1.damage") == 6  # AH-TRAUMA-2: each physical trauma is 1 starting damage
    do(s, "hit seat1 1")
    assert track(s, "seat1.physical_trauma") == 7
    assert data(s, "fate") == {"1": "killed"}
    assert rules.killed_or_insane(7, 0, 7, 7) == "killed" and rules.killed_or_insane(0, 5, 9, 5) == "insane"


@pytest.mark.rule("AH-TRAUMA-4")
def test_ah_trauma_4_horror_defeat_gives_mental_trauma() -> None:
    s = new()
    do(s, "hit seat1 0 5")  # Roland: sanity 5
    assert data(s, "eliminated") == {"1": "horror"} and track(s, "seat1.mental_trauma") == 1


@pytest.mark.rule("AH-TRAUMA-5")
def test_ah_trauma_5_both_at_once_the_player_picks_one_trauma() -> None:
    s = new(seat1="wendy", seat2="agnes")
    do(s, "set seat2.health 5", "set seat2.sanity 5", "set seat2.damage 4", "set seat2.horror 4")
    do(s, "hit seat2 1 1")
    assert s.state.prompt is not None and s.state.prompt.options == ("physical", "mental")
    do(s, "choose 2")
    assert (track(s, "seat2.physical_trauma"), track(s, "seat2.mental_trauma")) == (0, 1)
    assert data(s, "eliminated") == {"2": "both"}


def test_standalone_play_records_no_trauma() -> None:
    s = new(mode="standalone")
    do(s, "hit seat1 9")
    assert data(s, "eliminated") == {"1": "damage"} and track(s, "seat1.physical_trauma") == 0


@pytest.mark.rule("AH-CAMPDEF-1")
def test_ah_campdef_1_defeat_by_a_card_ability_records_no_trauma() -> None:
    s = new()
    do(s, "defeat seat1")
    assert data(s, "eliminated") == {"1": "ability"}
    assert (track(s, "seat1.physical_trauma"), track(s, "seat1.mental_trauma")) == (0, 0)


@pytest.mark.rule("AH-ELIM-3")
def test_ah_elim_3_clues_resources_and_enemies_after_a_defeat() -> None:
    s = new(seats=3, scenario_id="custom")
    do(s, "location Study 2 0", "enter seat1 Study", "set seat1.clues 3", "set seat1.resources 4",
       "enemy seat1 X fight=2 health=3 evade=2 damage=1 horror=0",
        "enemy seat1 Y fight=2 health=3 evade=2 damage=1 horror=0",
       "enemy-state Y exhausted", "harm-enemy Y 1")
    do(s, "defeat seat1")
    assert data(s, "locations")["Study"]["clues"] == 3
    assert track(s, "seat1.resources") == 0 and track(s, "seat1.clues") == 0
    x, y = data(s, "enemies")["X"], data(s, "enemies")["Y"]
    assert (x["engaged"], x["location"]) == (None, "Study")
    assert (y["engaged"], y["location"], y["ready"], y["damage"]) == (None, "Study", False, 1)


@pytest.mark.rule("AH-ELIM-3")
def test_ah_elim_3_a_ready_enemy_engages_another_investigator_there() -> None:
    s = new(seats=3, scenario_id="custom")
    do(s, "location Study 2 0", "enter seat1 Study", "enter seat2 Study",
       "enemy seat1 X fight=2 health=3 evade=2 damage=1 horror=0",
        "enemy seat1 Y fight=2 health=3 evade=2 damage=1 horror=0", "enemy-state Y exhausted")
    do(s, "defeat seat1")
    assert data(s, "enemies")["X"]["engaged"] == 2
    assert data(s, "enemies")["Y"]["engaged"] is None


@pytest.mark.rule("AH-ELIM-3")
def test_ah_elim_3_last_investigator_resigning_ends_without_resolution() -> None:
    s = new()
    do(s, "resign seat1")
    assert s.state.over is None
    do(s, "resign seat2")
    assert s.state.over == "no resolution"


@pytest.mark.rule("AH-ELIM-3")
def test_ah_elim_3_lead_eliminated_forces_a_new_lead() -> None:
    s = new(seats=3)
    assert s.state.lead == 1
    do(s, "defeat seat1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "lead" and prompt.options == ("seat 2", "seat 3")
    assert "answer the prompt first" in rejects(s, "next")
    do(s, "choose 2")
    assert s.state.lead == 3


def test_eliminated_investigator_takes_no_turn_and_draws_no_encounter() -> None:
    s = new(seats=3)
    do(s, "resign seat2")
    to_step(s, "investigation", "2.2")
    assert s.state.prompt is None and s.state.owing == (1, 3)
    assert "no longer in the scenario" in rejects(s, "turn seat2")
    do(s, "turn seat3", "next")
    assert s.state.active_seat == 1
    do(s, "next")
    assert s.state.step == "2.3"
    to_step(s, "mythos", "1.5")
    assert [e["seat"] for e in data(s, "encounters")] == [1, 3]
    assert "no longer in the scenario" in rejects(s, "hit seat2 1")


def test_defeat_during_own_turn_by_attacks_of_opportunity_stops_the_action() -> None:
    s = new(seat1="daisy", seat2="roland")  # Daisy: health 5
    do(s, "set seat1.damage 4", "enemy seat1 Ghoul fight=2 health=3 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    hand = track(s, "seat1.hand")
    do(s, "act seat1 draw")
    assert data(s, "eliminated") == {"1": "damage"} and hand > 0
    assert not any(e["name"] == "seat1.hand" and e["value"] == hand + 1
                   for e in s.line[-1].events if e.kind == "track.set")  # the draw never resolved
    # AH-ELIM-3 step 1: hand, deck and discard leave the game
    assert (track(s, "seat1.hand"), track(s, "seat1.deck"), track(s, "seat1.discard")) == (0, 0, 0)
    assert s.state.active_seat == 2  # the defeated investigator's turn is over
