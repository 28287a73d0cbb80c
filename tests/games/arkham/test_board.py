"""Enemies, engagement, attacks of opportunity and locations (AH-AOO, AH-ENGM, AH-EVADE, AH-CLUE...)."""

from __future__ import annotations

import pytest

from tablekeeper.games.arkham import board

from .helpers import data, do, new, rejects, start_turn, to_step, track


def enemy(s: object, name: str) -> dict[str, object]:
    found: dict[str, object] = s.view()["enemies"][name]  # type: ignore[attr-defined]
    return found


@pytest.mark.rule("AH-AOO-1")
def test_ah_aoo_1_ready_enemies_attack_before_the_draw() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 A fight=2 health=2 evade=2 damage=1 horror=1",
       "enemy seat1 B fight=2 health=2 evade=2 damage=2 horror=0", "enemy-state B exhausted")
    start_turn(s, 1)
    hand = track(s, "seat1.hand")
    do(s, "act seat1 draw")
    assert (track(s, "seat1.damage"), track(s, "seat1.horror"), track(s, "seat1.hand")) == (1, 1, hand + 1)
    assert s.notices[0] == "A makes an attack of opportunity on seat 1: 1 damage, 1 horror"


@pytest.mark.rule("AH-AOO-3")
def test_ah_aoo_3_a_two_action_ability_provokes_once_per_enemy() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 A fight=2 health=2 evade=2 damage=1 horror=0",
       "enemy seat1 B fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "activate seat1 2")
    assert s.state.prompt is not None and s.state.prompt.id == "aoo_order"  # AH-AOO-2: the investigator's order
    do(s, "choose 2")
    assert track(s, "seat1.damage") == 2 and s.state.prompt is None


@pytest.mark.rule("AH-AOO-4")
def test_ah_aoo_4_the_attacker_stays_ready() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 A fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 resource")
    assert enemy(s, "A")["ready"] is True and track(s, "seat1.damage") == 1


@pytest.mark.rule("AH-AOO-9")
def test_ah_aoo_9_move_provokes_then_the_enemy_moves_along() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "location Study 2 0", "enter seat1 Hall",
       "enemy seat1 A fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 move Study")
    assert track(s, "seat1.damage") == 1
    assert enemy(s, "A")["engaged"] == 1 and s.view()["at"]["1"] == "Study"


@pytest.mark.rule("AH-EVADE-6")
def test_ah_evade_6_evade_action_provokes_nothing() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 X fight=2 health=2 evade=2 damage=1 horror=0",
       "enemy seat1 Y fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 evade X")
    assert track(s, "seat1.damage") == 0


@pytest.mark.rule("AH-DESIG-1")
def test_ah_desig_1_an_evade_designated_ability_provokes_nothing() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 X fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "activate seat1 1 evade")
    assert track(s, "seat1.damage") == 0
    do(s, "activate seat1 1")
    assert track(s, "seat1.damage") == 1


@pytest.mark.rule("AH-FAST-6")
def test_ah_fast_6_fast_cards_provoke_nothing() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 X fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "play seat1 1 asset fast")
    assert track(s, "seat1.damage") == 0
    do(s, "play seat1 1 asset")
    assert track(s, "seat1.damage") == 1


@pytest.mark.rule("AH-ALOOF-1")
def test_ah_aloof_1_aloof_enemy_never_engages_by_itself() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall",
       "enemy seat2 Bat fight=2 health=2 evade=2 damage=1 horror=0 aloof at=Hall")
    assert enemy(s, "Bat")["engaged"] is None
    to_step(s, "upkeep", "4.4")
    assert enemy(s, "Bat")["engaged"] is None


@pytest.mark.rule("AH-ALOOF-2")
def test_ah_aloof_2_aloof_enemy_spawns_unengaged_at_the_drawers_location() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enemy seat1 Bat fight=2 health=2 evade=2 damage=1 horror=0 aloof")
    assert (enemy(s, "Bat")["engaged"], enemy(s, "Bat")["location"]) == (None, "Hall")


@pytest.mark.rule("AH-ALOOF-4")
def test_ah_aloof_4_fight_only_once_someone_engaged_it() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enemy seat1 Bat fight=2 health=2 evade=2 damage=1 horror=0 aloof")
    start_turn(s, 1)
    assert "aloof and engaged with nobody" in rejects(s, "act seat1 fight Bat")
    do(s, "act seat1 engage Bat", "act seat1 fight Bat")
    assert data(s, "test")["kind"] == "fight"


@pytest.mark.rule("AH-ENEMY-2")
def test_ah_enemy_2_no_spawn_instruction_engages_the_drawer() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat2 Ghoul fight=2 health=2 evade=2 damage=1 horror=0")
    assert enemy(s, "Ghoul")["engaged"] == 2


@pytest.mark.rule("AH-ENGM-2")
def test_ah_engm_2_engaged_enemies_move_with_the_investigator() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "location Study 2 0", "enter seat1 Hall",
       "enemy seat1 A fight=2 health=2 evade=2 damage=1 horror=0",
        "enemy seat1 B fight=2 health=2 evade=2 damage=1 horror=0", "enter seat1 Study")
    view = s.view()
    for name in ("A", "B"):
        assert enemy(s, name)["engaged"] == 1
    assert view["at"]["1"] == "Study"


@pytest.mark.rule("AH-ENGM-3")
def test_ah_engm_3_prey_picks_among_several_investigators() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enter seat2 Hall",
       "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=1 horror=0 at=Hall")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "prey" and prompt.options == ("seat 1", "seat 2")
    do(s, "choose 1")  # an enemy typed by hand has no prey instruction: the players pick
    assert enemy(s, "Ghoul")["engaged"] == 1


@pytest.mark.rule("AH-ENGM-5")
def test_ah_engm_5_moving_into_a_ready_enemy_engages_it() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "location Study 2 0", "enter seat1 Hall",
       "enemy seat2 Ghoul fight=2 health=2 evade=2 damage=1 horror=0 at=Study")
    assert enemy(s, "Ghoul")["engaged"] is None
    do(s, "enter seat1 Study")
    assert enemy(s, "Ghoul")["engaged"] == 1


@pytest.mark.rule("AH-ENGM-6")
def test_ah_engm_6_exhausted_enemy_engages_when_readied_at_upkeep() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall",
       "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=1 horror=0 exhausted at=Hall")
    assert enemy(s, "Ghoul")["engaged"] is None
    to_step(s, "upkeep", "4.3")
    assert enemy(s, "Ghoul")["engaged"] == 1 and enemy(s, "Ghoul")["ready"] is True


@pytest.mark.rule("AH-ENGM-6")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_two_enemies_readied_beside_two_investigators_each_engage(monkeypatch: pytest.MonkeyPatch,
                                                                    protection: str) -> None:
    """Both ready at 4.3 beside two investigators: the first asks whom it engages; the second, readied
    while that question was open, asks once it is answered (it was left unengaged before)."""
    if protection == "protection-removed":  # the engagement that waited is dropped
        monkeypatch.setattr(board, "engage_waiting", lambda txn: txn.put("engage_later", ()))
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enter seat2 Hall",
       "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=1 horror=0 exhausted at=Hall",
       "enemy seat1 Rat fight=1 health=1 evade=1 damage=1 horror=0 exhausted at=Hall")
    to_step(s, "upkeep", "4.3")
    assert s.state.prompt is not None and s.state.prompt.text == "Ghoul's prey: whom does it engage?"
    do(s, "choose 1")
    assert enemy(s, "Ghoul")["engaged"] == 1
    if protection == "protection-removed":
        assert s.state.prompt is None and enemy(s, "Rat")["engaged"] is None
        return
    assert s.state.prompt is not None and s.state.prompt.text == "Rat's prey: whom does it engage?"
    do(s, "choose 2")
    assert enemy(s, "Rat")["engaged"] == 2 and s.state.prompt is None


@pytest.mark.rule("AH-ENGAGE-1")
def test_ah_engage_1_same_location_only() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "location Study 2 0", "enter seat1 Hall",
       "enemy seat1 Near fight=2 health=2 evade=2 damage=1 horror=0 exhausted at=Hall",
       "enemy seat1 Far fight=2 health=2 evade=2 damage=1 horror=0 at=Study")
    start_turn(s, 1)
    assert rejects(s, "act seat1 engage Far") == "Far is not at seat 1's location"
    do(s, "act seat1 engage Near")
    assert enemy(s, "Near")["engaged"] == 1
    assert rejects(s, "act seat1 engage Near") == "Near is already engaged with seat 1"


@pytest.mark.rule("AH-ENGAGE-2")
def test_ah_engage_2_taking_over_another_investigators_enemy() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enter seat2 Hall",
       "enemy seat2 Ghoul fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 engage Ghoul")
    assert enemy(s, "Ghoul")["engaged"] == 1
    assert track(s, "seat1.damage") == 0  # AH-ENGAGE-4: the target was not engaged with the actor


@pytest.mark.rule("AH-EVADE-4")
def test_ah_evade_4_evaded_enemy_is_exhausted_at_the_location_and_stays_unengaged() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=1 horror=0",
       "evade Ghoul")
    ghoul = enemy(s, "Ghoul")
    assert (ghoul["ready"], ghoul["engaged"], ghoul["location"]) == (False, None, "Hall")


@pytest.mark.rule("AH-EVADE-5")
def test_ah_evade_5_evade_only_your_own_enemy() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enter seat1 Hall", "enter seat2 Hall",
       "enemy seat2 Ghoul fight=2 health=2 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    assert "Evade targets only your own enemies" in rejects(s, "act seat1 evade Ghoul")
    do(s, "act seat1 fight Ghoul")


@pytest.mark.rule("AH-DEFEAT-3")
def test_ah_defeat_3_enemy_defeated_on_the_second_hit() -> None:
    s = new(scenario_id="custom")
    do(s, "enemy seat1 Ghoul fight=2 health=3 evade=2 damage=1 horror=0", "harm-enemy Ghoul 2")
    assert enemy(s, "Ghoul")["damage"] == 2
    do(s, "harm-enemy Ghoul 1")
    assert "Ghoul" not in data(s, "enemies")


def test_enemy_phase_attacks_then_exhausts() -> None:
    """3.3 (outside the seeds): engaged ready enemies attack and exhaust; hunters are listed at 3.2."""
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "enemy seat1 Ghoul fight=2 health=3 evade=2 damage=1 horror=1",
       "enemy seat2 Hound fight=2 health=3 evade=2 damage=1 horror=0 hunter at=Hall")
    to_step(s, "enemy", "3.2")
    assert s.notices == ("Hound hunts: move it with move-enemy (its location's connections are not known)",)
    do(s, "next")
    assert (track(s, "seat1.damage"), track(s, "seat1.horror")) == (1, 1)
    assert enemy(s, "Ghoul")["ready"] is False


@pytest.mark.rule("AH-CLUE-2")
def test_ah_clue_2_first_entry_reveals_with_per_investigator_clues() -> None:
    s = new(seats=3, scenario_id="custom")
    do(s, "location Study 2 2 per", "enter seat1 Study")
    assert data(s, "locations")["Study"]["clues"] == 6
    do(s, "enter seat2 Study")
    assert data(s, "locations")["Study"]["clues"] == 6


@pytest.mark.rule("AH-CLUE-3")
def test_ah_clue_3_successful_investigation_moves_a_clue() -> None:
    s = new(scenario_id="custom")
    do(s, "location Study 2 3", "enter seat1 Study")
    start_turn(s, 1)
    do(s, "act seat1 investigate", "reveal chaos 0", "resolve")
    assert data(s, "locations")["Study"]["clues"] == 2 and track(s, "seat1.clues") == 1


@pytest.mark.rule("AH-CLUE-5")
def test_ah_clue_5_clues_at_a_location_exclude_those_held() -> None:
    s = new(scenario_id="custom")
    do(s, "location Study 2 3", "enter seat1 Study", "set seat1.clues 2")
    assert data(s, "locations")["Study"]["clues"] == 3
    start_turn(s, 1)
    do(s, "act seat1 investigate", "reveal chaos +1", "resolve")  # one of the location's 3, not the 2 held
    assert data(s, "locations")["Study"]["clues"] == 2 and track(s, "seat1.clues") == 3


@pytest.mark.rule("AH-EMPTY-1")
def test_ah_empty_1_empty_location() -> None:
    s = new(scenario_id="custom")
    do(s, "location Study 2 3", "location Hall 1 0")
    assert data(s, "empty") == ["Hall", "Study"]
    do(s, "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=1 horror=0 exhausted at=Study")
    assert data(s, "empty") == ["Hall"]
    do(s, "enter seat1 Hall")
    assert data(s, "empty") == []


def test_enemy_phase_attacks_in_the_order_the_player_chooses() -> None:
    """3.3: with two ready engaged enemies the player picks the order; it decides which defeat comes first."""
    s = new(seat1="roland")  # sanity 5, health 9
    do(s, "set seat1.horror 4", "enemy seat1 Biter fight=2 health=3 evade=2 damage=1 horror=0",
       "enemy seat1 Screamer fight=2 health=3 evade=2 damage=0 horror=1")
    to_step(s, "enemy", "3.3")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "attack_order" and prompt.options == ("Biter", "Screamer")
    assert "answer the prompt first" in rejects(s, "next")
    do(s, "choose 1")  # the Biter first: 1 damage, then the Screamer: horror 5 -> defeated by horror
    assert (track(s, "seat1.damage"), track(s, "seat1.horror")) == (1, 5)
    assert data(s, "eliminated") == {"1": "horror"}
    assert enemy(s, "Biter")["ready"] is False


def test_attacks_of_opportunity_in_the_named_order() -> None:
    """AH-AOO-1: the investigator picks the order of the attacks; a defeat stops the rest."""
    s = new(seat1="daisy", seat2="roland")  # Daisy: health 5
    do(s, "set seat1.damage 4", "enemy seat1 A fight=2 health=3 evade=2 damage=1 horror=0",
       "enemy seat1 B fight=2 health=3 evade=2 damage=0 horror=1")
    start_turn(s, 1)
    assert "must name each ready engaged enemy once" in rejects(s, "act seat1 resource order=A")
    do(s, "act seat1 resource order=B,A")
    assert (track(s, "seat1.horror"), data(s, "eliminated")) == (1, {"1": "damage"})


def test_hunter_moves_one_location_toward_the_nearest_investigator() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hall 1 0", "location Study 2 0 to=Hall", "location Attic 1 0 to=Study",
       "location Cellar 1 0 to=Hall", "enter seat1 Cellar", "enter seat2 Cellar",
       "enemy seat1 Hound fight=2 health=3 evade=2 damage=1 horror=0 hunter at=Attic")
    to_step(s, "enemy", "3.2")
    assert enemy(s, "Hound")["location"] == "Study" and s.notices == ("Hound hunts to Study",)
    to_step(do(s, "next"), "enemy", "3.2")  # next round: Study -> Hall
    assert enemy(s, "Hound")["location"] == "Hall"


def test_hunter_with_two_equal_ways_asks_its_prey() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hub 1 0", "location West 1 0 to=Hub", "location East 1 0 to=Hub",
       "enter seat1 West", "enter seat2 East",
        "enemy seat1 Hound fight=2 health=3 evade=2 damage=1 horror=0 hunter at=Hub")
    to_step(s, "enemy", "3.2")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "hunter_move" and prompt.options == ("East", "West")
    do(s, "choose 1")
    assert enemy(s, "Hound")["engaged"] == 2  # arrived where seat 2 is, and engaged at once


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_two_equal_ways_that_meet_again_before_the_investigator_are_both_asked(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Kennel -> North or South -> Gate -> Yard: both first steps are as short; the search once kept only
    the first way to reach the Gate and moved the hunter North without a word."""
    if protection == "protection-removed":
        def first_way_only(state: object, start: str, occupied: set[str]) -> list[str]:
            return found[:1] if (found := original(state, start, occupied)) else []

        original = board.first_steps_toward
        monkeypatch.setattr(board, "first_steps_toward", first_way_only)
    s = new(scenario_id="custom")
    do(s, "location Yard 1 0", "location Gate 1 0 to=Yard", "location North 1 0 to=Gate",
       "location South 1 0 to=Gate", "location Kennel 1 0 to=North,South", "enter seat1 Yard", "enter seat2 Yard",
       "enemy seat1 Hound fight=2 health=3 evade=2 damage=1 horror=0 hunter at=Kennel")
    to_step(s, "enemy", "3.2")
    prompt = s.state.prompt
    if protection == "protection-removed":
        assert prompt is None and enemy(s, "Hound")["location"] == "North"
        return
    assert prompt is not None and prompt.id == "hunter_move" and prompt.options == ("North", "South")
    do(s, "choose 2")
    assert enemy(s, "Hound")["location"] == "South"


def test_a_trauma_choice_in_the_enemy_phase_lets_the_other_attacks_go_on() -> None:
    s = new(seats=2, seat1="wendy", seat2="agnes")  # Wendy 7/7
    do(s, "set seat1.damage 6", "set seat1.horror 6",
       "enemy seat1 Ghoul fight=2 health=3 evade=2 damage=1 horror=1",
       "enemy seat2 Rat fight=1 health=1 evade=1 damage=1 horror=0")
    to_step(s, "enemy", "3.3")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "trauma"
    assert track(s, "seat2.damage") == 0  # seat 2's attacks wait for the choice
    do(s, "choose 2")
    assert track(s, "seat1.mental_trauma") == 1 and track(s, "seat2.damage") == 1
    assert s.state.prompt is None
    do(s, "next")
    assert s.state.step == "3.4"


def test_an_action_does_not_resolve_while_its_actor_is_defeated() -> None:
    s = new(seat1="wendy")
    do(s, "set seat1.damage 6", "set seat1.horror 6", "enemy seat1 Ghoul fight=2 health=3 evade=2 damage=1 horror=1")
    start_turn(s, 1)
    hand = track(s, "seat1.hand")
    do(s, "act seat1 draw")
    assert s.state.prompt is not None and s.state.prompt.id == "trauma"
    assert track(s, "seat1.hand") == hand
    do(s, "choose 1")
    assert data(s, "eliminated") == {"1": "both"} and track(s, "seat1.physical_trauma") == 1


def test_hunters_go_on_after_a_prey_choice() -> None:
    s = new(scenario_id="custom")
    do(s, "location Hub 1 0", "location Far 1 0 to=Hub", "location Farther 1 0 to=Far",
       "enter seat1 Hub", "enter seat2 Hub",
       "enemy seat1 Hound fight=2 health=3 evade=2 damage=1 horror=0 hunter at=Far",
       "enemy seat1 Jackal fight=2 health=3 evade=2 damage=1 horror=0 hunter at=Farther")
    to_step(s, "enemy", "3.2")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "prey"  # the Hound reached the Hub, where both are
    do(s, "choose 2")
    assert enemy(s, "Hound")["engaged"] == 2
    assert enemy(s, "Jackal")["location"] == "Far"  # the next hunter moved after the choice


def test_a_retaliate_attack_and_one_dropped_clue_read_as_english() -> None:
    from tests.games.played import ok, opened

    play = ok(opened("arkham", seats=2), "turn seat1", "enemy seat1 Acolyte fight=5 health=3 evade=2 damage=1 horror=1 "
              "retaliate", "act seat1 fight Acolyte", "reveal chaos -1", "resolve")
    assert "Acolyte makes a retaliate attack on seat 1: 1 damage, 1 horror" in play.session.view()["notices"]
    ok(play, "set seat1.clues 1", "defeat seat1")
    assert "seat 1's 1 clue goes onto their location" in play.session.view()["notices"]
