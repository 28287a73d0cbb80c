"""The round, doom and agenda, the act and clues, actions (AH-FW, AH-DOOM, AH-ACTAG, AH-ACTION...)."""

from __future__ import annotations

import pytest

from tablekeeper.games.arkham import rules
from tablekeeper.games.arkham.record import rec

from .helpers import data, do, new, rejects, start_turn, to_step, track


@pytest.mark.rule("AH-FW-1")
def test_ah_fw_1_first_round_starts_in_investigation_and_doom_waits_for_round_2() -> None:
    s = new()
    assert (s.state.round, s.state.phase, s.state.step) == (1, "investigation", "2.1")
    to_step(s, "upkeep", "4.6")
    assert track(s, "agenda.doom") == 0
    do(s, "next")
    assert (s.state.round, s.state.phase, s.state.step) == (2, "mythos", "1.1")
    assert track(s, "agenda.doom") == 0
    do(s, "next")
    assert s.state.step == "1.2" and track(s, "agenda.doom") == 1


@pytest.mark.rule("AH-FW-2")
def test_ah_fw_2_doom_then_check_then_encounters_under_the_new_agenda() -> None:
    s = new()
    to_step(s, "mythos", "1.1")
    do(s, "set agenda.doom 2")
    do(s, "next")  # 1.2: 3 doom
    assert track(s, "agenda.doom") == 3 and track(s, "agenda") == 1
    do(s, "next")  # 1.3: advances; its reverse side asks the lead (discard at random, or 2 horror)
    assert track(s, "agenda") == 2 and track(s, "agenda.doom") == 0
    do(s, "choose 2")
    assert track(s, "seat1.horror") == 2
    do(s, "next")  # 1.4: the lead draws, names the card, then seat 2 draws
    assert [e["agenda"] for e in data(s, "encounters")] == [2]
    do(s, "choose 1")
    assert [e["agenda"] for e in data(s, "encounters")] == [2, 2]


@pytest.mark.rule("AH-FW-3")
def test_ah_fw_3_one_turn_each_and_a_fourth_is_rejected() -> None:
    s = new(seats=3)
    to_step(s, "investigation", "2.2")
    do(s, "turn seat2", "next", "turn seat1", "next")
    assert s.state.active_seat == 3  # the last one left goes without being asked
    do(s, "next")
    assert s.state.step == "2.3"
    assert "no turn to start now" in rejects(s, "turn seat1")


@pytest.mark.rule("AH-FW-3")
def test_ah_fw_3_a_seat_that_had_its_turn_cannot_be_chosen_again() -> None:
    s = new(seats=3)
    to_step(s, "investigation", "2.2")
    do(s, "turn seat2", "next")
    assert rejects(s, "turn seat2") == "seat 2 has had its turn this phase"


@pytest.mark.rule("AH-ACTIVE-1")
def test_ah_active_1_no_active_player_in_the_enemy_phase() -> None:
    s = start_turn(new(), 1)
    assert s.view()["active_seat"] == 1
    to_step(s, "enemy", "3.2")
    assert s.view()["active_seat"] is None


@pytest.mark.rule("AH-DOOM-2")
def test_ah_doom_2_mythos_puts_one_doom_on_the_agenda() -> None:
    s = to_step(new(), "mythos", "1.1")
    assert s.state.round == 2 and track(s, "agenda.doom") == 0
    do(s, "next")
    assert track(s, "agenda.doom") == 1


@pytest.mark.rule("AH-DOOM-4")
def test_ah_doom_4_doom_on_an_enemy_counts_at_the_check() -> None:
    s = new()
    do(s, "enemy seat1 Cultist fight=2 health=2 evade=2 damage=1 horror=0")
    to_step(s, "mythos", "1.1")
    do(s, "set agenda.doom 1", "enemy-doom Cultist +1")
    do(s, "next", "next")  # 1.2 (2 on the agenda), 1.3
    assert track(s, "agenda") == 2
    assert track(s, "agenda.doom") == 0 and track(s, "doom.other") == 0
    assert data(s, "enemies")["Cultist"]["doom"] == 0


@pytest.mark.rule("AH-DOOM-4")
def test_ah_doom_4_reaching_the_threshold_outside_the_check_does_not_advance() -> None:
    s = new()
    do(s, "set agenda.threshold 4", "set agenda.doom 3")
    start_turn(s, 1)
    do(s, "add doom.other 1")  # a card: 4 in play during the investigation phase
    assert track(s, "agenda") == 1
    assert "only at 1.3" in rejects(s, "advance agenda")
    to_step(s, "mythos", "1.2")
    assert track(s, "agenda") == 1  # 5 in play, the check is next
    do(s, "next")
    assert track(s, "agenda") == 2


@pytest.mark.rule("AH-DOOM-4")
def test_ah_doom_4_below_the_threshold_nothing_advances() -> None:
    s = new()
    to_step(s, "mythos", "1.1")
    do(s, "set agenda.doom 1", "next", "next")
    assert track(s, "agenda.doom") == 2 and track(s, "agenda") == 1


@pytest.mark.rule("AH-DOOM-4")
def test_ah_doom_4_a_card_may_advance_the_agenda_when_the_players_say_so() -> None:
    s = start_turn(new(), 1)
    do(s, "advance agenda card")
    assert track(s, "agenda") == 2 and track(s, "agenda.threshold") == 7


@pytest.mark.rule("AH-ACTAG-3")
def test_ah_actag_3_per_investigator_requirement() -> None:
    s = new(seats=3)  # The Gathering act 1: 2 clues per investigator
    assert track(s, "act.clues_required") == 6
    assert rules.per_investigator(2, True, 3) == 6 and rules.per_investigator(4, False, 3) == 4


@pytest.mark.rule("AH-ACTAG-4")
def test_ah_actag_4_clues_split_in_any_proportion() -> None:
    s = new(seats=3)
    do(s, "set seat1.clues 4", "set seat2.clues 2", "set seat3.clues 1")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4 seat2:2 seat3:0")
    assert track(s, "act") == 2
    assert (track(s, "seat1.clues"), track(s, "seat2.clues"), track(s, "seat3.clues")) == (0, 0, 1)


@pytest.mark.rule("AH-ACTAG-4")
def test_ah_actag_4_five_clues_do_not_pay_for_six() -> None:
    s = new(seats=3)
    do(s, "set seat1.clues 4", "set seat2.clues 1")
    start_turn(s, 1)
    assert rejects(s, "spend-clues seat1:4 seat2:1") == "5 offered, 6 needed (the group holds 5)"
    assert rejects(s, "spend-clues seat1:4 seat2:2") == "seat 2 holds 1, cannot spend 2"


@pytest.mark.rule("AH-COST-8")
def test_ah_cost_8_a_group_cost_split_between_investigators() -> None:
    rules.group_spend({1: 1, 2: 3}, {1: 1, 2: 3}, 4)
    s = new(scenario_id="custom")
    assert track(s, "act.clues_required") == 4
    do(s, "set seat1.clues 1", "set seat2.clues 3")
    start_turn(s, 2)
    do(s, "spend-clues seat1:1 seat2:3")
    assert track(s, "act") == 2


@pytest.mark.rule("AH-ACTAG-5")
def test_ah_actag_5_an_objective_act_ignores_clues() -> None:
    s = new()  # The Gathering's act 3: its Objective is checked, not paid for
    do(s, "set seat1.clues 20", "set act 3")
    start_turn(s, 1)
    assert "has an objective" in rejects(s, "spend-clues seat1:2")
    assert "objective" in rejects(s, "advance act")
    assert "Ghoul Priest is not defeated yet" in rejects(s, "advance act objective")


@pytest.mark.rule("AH-CLUE-4")
def test_ah_clue_4_clues_are_spent_only_during_an_investigator_turn() -> None:
    s = new()
    do(s, "set seat1.clues 4")
    to_step(s, "enemy", "3.2")
    assert rejects(s, "spend-clues seat1:4") == "clues are spent on the act only during an investigator's turn"
    to_step(s, "mythos", "1.1")
    start_turn(s, 2)
    do(s, "spend-clues seat1:4")  # any investigator's turn, not only the spender's
    assert track(s, "act") == 2


@pytest.mark.rule("AH-ACTAG-8")
def test_ah_actag_8_agenda_clears_all_doom_act_leaves_enemy_doom() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 Cultist fight=2 health=2 evade=2 damage=1 horror=0", "enemy-doom Cultist +1",
       "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4")
    assert track(s, "act") == 2 and track(s, "doom.other") == 1
    assert data(s, "enemies")["Cultist"]["doom"] == 1
    do(s, "set agenda.doom 3", "advance agenda card")
    assert track(s, "agenda.doom") == 0 and track(s, "doom.other") == 0
    assert data(s, "enemies")["Cultist"]["doom"] == 0


@pytest.mark.rule("AH-ACTAG-10")
def test_ah_actag_10_next_agenda_current_and_old_one_removed() -> None:
    s = to_step(new(), "mythos", "1.1")
    do(s, "set agenda.doom 2", "next", "next")
    assert track(s, "agenda") == 2 and track(s, "agenda.doom") == 0
    assert data(s, "removed") == ["agenda 1: What's Going On?!"]


@pytest.mark.rule("AH-ACTAG-11")
def test_ah_actag_11_resolution_point_ends_the_scenario_at_once() -> None:
    s = new()
    to_step(s, "mythos", "1.1")
    do(s, "set agenda 3", "set agenda.threshold 2", "set agenda.doom 1", "next", "next")
    assert s.state.over == "resolution R3" and data(s, "resolution") == "R3"
    assert s.state.step == "1.3"  # no further step of the round ran
    assert data(s, "encounters") == []
    assert "the game is over" in rejects(s, "next")


@pytest.mark.rule("AH-ACTION-1")
def test_ah_action_1_a_fourth_action_is_rejected() -> None:
    s = start_turn(new(), 1)
    do(s, "act seat1", "act seat1 resource", "act seat1")
    assert rejects(s, "act seat1") == "seat 1 has 0 actions left; the other action needs 1"


@pytest.mark.rule("AH-ACTION-3")
def test_ah_action_3_losing_an_action_in_the_mythos_phase() -> None:
    s = to_step(new(), "mythos", "1.4")
    do(s, "lose seat1 1")
    start_turn(s, 1)
    do(s, "act seat1", "act seat1")
    assert "0 actions left" in rejects(s, "act seat1")
    do(s, "lose seat2 5")
    assert track(s, "seat2.actions") == 0


@pytest.mark.rule("AH-TRIG-7")
def test_ah_trig_7_two_action_ability_needs_two_actions() -> None:
    s = start_turn(new(), 1)
    do(s, "act seat1", "act seat1")
    assert rejects(s, "activate seat1 2") == "seat 1 has 1 action left; this ability needs 2"
    s = start_turn(new(), 1)
    do(s, "act seat1", "activate seat1 2")
    assert track(s, "seat1.actions") == 0


@pytest.mark.rule("AH-TRIG-7")
def test_ah_trig_7_only_on_the_investigators_own_turn() -> None:
    s = start_turn(new(), 1)
    assert "it is seat 1's turn, not seat 2's" in rejects(s, "activate seat2 1")


@pytest.mark.rule("AH-ACTV-2")
def test_ah_actv_2_all_costs_together_or_none() -> None:
    s = start_turn(new(), 1)
    do(s, "act seat1", "set seat1.resources 1")
    do(s, "activate seat1 2 1")
    assert (track(s, "seat1.actions"), track(s, "seat1.resources")) == (0, 0)
    s = start_turn(new(), 1)
    do(s, "set seat1.resources 0")
    assert rejects(s, "activate seat1 2 1") == "seat 1 has 0 resources; the ability costs 1"
    do(s, "set seat1.resources 1", "act seat1", "act seat1")
    assert "needs 2" in rejects(s, "activate seat1 2 1")
    assert track(s, "seat1.resources") == 1


@pytest.mark.rule("AH-COST-2")
def test_ah_cost_2_resource_cost_paid_from_the_pool() -> None:
    s = start_turn(new(), 1)
    do(s, "play seat1 3 asset")
    assert track(s, "seat1.resources") == 2 and track(s, "seat1.hand") == 4
    assert rejects(s, "play seat1 3 asset") == "seat 1 has 2 resources; the card costs 3"


@pytest.mark.rule("AH-EVENT-2")
def test_ah_event_2_non_fast_event_not_in_the_enemy_phase() -> None:
    s = to_step(new(), "enemy", "3.2")
    assert "only on an investigator's own turn" in rejects(s, "play seat1 0 event")
    start_turn(to_step(s, "mythos", "1.1"), 1)
    do(s, "play seat1 1 event")
    assert track(s, "seat1.actions") == 2 and track(s, "seat1.discard") == 1


@pytest.mark.rule("AH-FAST-1")
def test_ah_fast_1_fast_card_costs_no_action() -> None:
    s = start_turn(new(), 1)
    do(s, "play seat1 1 event fast", "play seat1 1 asset fast")
    assert track(s, "seat1.actions") == 3 and track(s, "seat1.resources") == 3


@pytest.mark.rule("AH-FAST-5")
def test_ah_fast_5_fast_asset_only_on_its_players_turn() -> None:
    s = start_turn(new(), 1)
    assert "it is seat 1's turn, not seat 2's" in rejects(s, "play seat2 1 asset fast")
    do(s, "play seat2 1 event fast")  # a fast event follows its own timing
    to_step(s, "enemy", "3.2")
    assert "own turn" in rejects(s, "play seat1 1 asset fast")


@pytest.mark.rule("AH-GOLD-2")
def test_ah_gold_2_card_text_beats_the_play_action_rule() -> None:
    s = start_turn(new(), 1)
    do(s, "play seat1 0 event free")
    assert track(s, "seat1.actions") == 3


@pytest.mark.rule("AH-DRAWACT-1")
def test_ah_drawact_1_draw_action() -> None:
    s = new(deck="25")
    do(s, "set seat1.hand 4")
    start_turn(s, 1)
    deck = track(s, "seat1.deck")
    do(s, "act seat1 draw")
    assert (track(s, "seat1.hand"), track(s, "seat1.deck"), track(s, "seat1.actions")) == (5, deck - 1, 2)


@pytest.mark.rule("AH-DRAW-5")
def test_ah_draw_5_empty_deck_resets_then_one_horror() -> None:
    s = new()
    do(s, "set seat1.deck 0", "set seat1.discard 10", "draw-cards seat1 1")
    assert (track(s, "seat1.deck"), track(s, "seat1.hand"), track(s, "seat1.discard")) == (9, 6, 0)
    assert track(s, "seat1.horror") == 1


@pytest.mark.rule("AH-DRAW-5")
def test_ah_draw_5_reset_in_the_middle_of_a_draw_and_one_horror_after() -> None:
    s = new()
    do(s, "set seat1.deck 2", "set seat1.discard 5", "draw-cards seat1 3")
    assert (track(s, "seat1.deck"), track(s, "seat1.hand"), track(s, "seat1.horror")) == (4, 8, 1)


@pytest.mark.rule("AH-DRAW-6")
def test_ah_draw_6_empty_deck_costs_nothing_until_a_draw() -> None:
    s = new()
    do(s, "set seat1.deck 1", "set seat1.discard 3", "draw-cards seat1 1")
    assert (track(s, "seat1.deck"), track(s, "seat1.discard"), track(s, "seat1.horror")) == (0, 3, 0)


@pytest.mark.rule("AH-ENCDECK-2")
def test_ah_encdeck_2_encounter_discard_becomes_the_deck() -> None:
    s = new()
    do(s, "set encounter.discard 12", "set encounter.deck 0")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (12, 0)
    to_step(s, "mythos", "1.4")
    assert track(s, "encounter.deck") == 11  # the lead drew; the next draws once that card is named
    do(s, "choose 1")
    assert track(s, "encounter.deck") == 10


def test_upkeep_resets_actions_draws_gains_and_checks_hand_size() -> None:
    """4.2-4.5 (outside the seeds): 3 actions again, 1 card and 1 resource, at most 8 cards."""
    s = start_turn(new(), 1)
    do(s, "act seat1", "set seat1.hand 8")
    to_step(s, "upkeep", "4.4")
    assert track(s, "seat1.actions") == 3
    assert (track(s, "seat1.hand"), track(s, "seat1.resources"), track(s, "seat2.resources")) == (9, 6, 6)
    do(s, "next")
    assert "discard 1" in rejects(s, "next")
    do(s, "discard seat1 1", "next")
    assert s.state.step == "4.6"


@pytest.mark.rule("AH-GRIM-1")
def test_ah_grim_1_grim_rule_resolution_kept_in_the_log() -> None:
    s = new()
    do(s, "grim the hunter moves toward seat 1")
    assert data(s, "grim") == [{"round": 1, "step": "2.1", "text": "the hunter moves toward seat 1"}]
    assert s.notices == ("Grim Rule: the hunter moves toward seat 1",)




@pytest.mark.rule("AH-DIFFLVL-3")
def test_ah_difflvl_3_reference_side_follows_difficulty() -> None:
    assert new(difficulty="expert").view()["reference_side"] == "Hard/Expert"
    assert new(difficulty="standard").view()["reference_side"] == "Easy/Standard"
    assert data(new(difficulty="hard"), "scenario") == "the_gathering"
    tokens = rec(new(difficulty="hard").state).tokens
    assert tokens["tablet"].value == -4 and rec(new().state).tokens["tablet"].value == -2


def test_undo_crosses_a_round_boundary() -> None:
    s = to_step(new(), "mythos", "1.2")
    assert track(s, "agenda.doom") == 1
    for _ in range(3):
        assert s.undo().accepted
    assert (s.state.round, s.state.step) == (1, "4.5")
    assert track(s, "agenda.doom") == 0


@pytest.mark.parametrize(("count_eliminated", "required"), [("true", 9), ("false", 6)])
def test_per_investigator_values_after_an_elimination_follow_the_option(count_eliminated: str,
                                                                        required: int) -> None:
    """Ambiguity 7: eliminated investigators count for per-investigator values unless told otherwise."""
    s = new(seats=3, count_eliminated=count_eliminated)
    do(s, "resign seat3", "set seat1.clues 6")
    start_turn(s, 1)
    do(s, "spend-clues seat1:6")
    assert track(s, "act.clues_required") == required  # The Barrier: 3 per investigator


def test_choosing_an_agenda_or_act_by_hand_brings_its_threshold() -> None:
    s = new()
    do(s, "set agenda 2", "set act 2")
    assert (track(s, "agenda.threshold"), track(s, "act.clues_required")) == (7, 6)
    do(s, "set agenda.threshold 5")  # and the table may still correct it
    assert track(s, "agenda.threshold") == 5
