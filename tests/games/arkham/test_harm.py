"""Dealt harm past health or sanity defeats (AH-DMG-9, AH-DEFEAT-1), enemy attacks split onto
eligible assets by prompt (AH-DMG-3..6, AH-AOO-8), the order of attacks of opportunity (AH-AOO-2),
and what elimination does with the investigator's cards (AH-ELIM-3 steps 0, 1, 4)."""

from __future__ import annotations

import pytest

from tablekeeper.core.session import Session

from .helpers import answer, data, do, new, rejects, start_turn, to_step, track


def prompt_id(s: Session) -> str | None:
    prompt = s.state.prompt
    return None if prompt is None else str(prompt.id)


@pytest.mark.rule("AH-DMG-9")
def test_lethal_hit_defeats_and_the_game_goes_on() -> None:
    s = new(seats=3, seat2="daisy")  # Daisy: health 5
    do(s, "hit seat2 7")
    assert track(s, "seat2.damage") == 5  # the track stops at the limit
    assert data(s, "eliminated") == {"2": "damage"} and track(s, "seat2.physical_trauma") == 1
    to_step(s, "investigation", "2.2")
    to_step(s, "mythos", "1.1")
    assert s.state.round == 2  # a later round happens


@pytest.mark.rule("AH-DEFEAT-1")
def test_lethal_horror_defeats_through_sanity() -> None:
    s = new(seats=2)  # seat 1 Roland: sanity 5
    do(s, "hit seat1 0 9")
    assert track(s, "seat1.horror") == 5 and data(s, "eliminated") == {"1": "horror"}
    assert track(s, "seat1.mental_trauma") == 1


def test_set_and_add_keep_refusing_values_beyond_the_limit() -> None:
    s = new()
    assert rejects(s, "set seat2.damage 6") == "seat2.damage 6 is beyond health 5"
    assert rejects(s, "add seat1.horror +6") == "seat1.horror 6 is beyond sanity 5"


@pytest.mark.rule("AH-DMG-9")
def test_a_lethal_attack_of_opportunity_defeats_and_ends_the_turn() -> None:
    s = new(seats=3, seat2="daisy")
    do(s, "enemy seat2 Brute fight=4 health=4 evade=2 damage=9 horror=0")
    start_turn(s, 2)
    do(s, "act seat2 resource")
    assert data(s, "eliminated") == {"2": "damage"} and track(s, "seat2.damage") == 5
    assert track(s, "seat2.resources") == 0  # the action never resolved; resources went back
    assert s.state.active_seat is None and s.state.owing == (1, 3)  # her turn is over; the others owe theirs


@pytest.mark.rule("AH-DMG-9")
def test_a_lethal_enemy_phase_attack_lets_the_round_go_on() -> None:
    s = new(seats=2, seat2="daisy", scenario_id="custom")  # no locations: nobody beside the Brute
    do(s, "enemy seat2 Brute fight=4 health=4 evade=2 damage=9 horror=0")
    to_step(s, "enemy", "3.3")
    assert data(s, "eliminated") == {"2": "damage"}
    to_step(s, "mythos", "1.1")
    assert s.state.round == 2
    assert data(s, "enemies")["Brute"]["engaged"] is None  # AH-ELIM-3 step 3


@pytest.mark.rule("AH-AOO-8")
def test_an_attack_of_opportunity_is_split_onto_an_ally_by_prompt() -> None:
    s = new()
    do(s, "asset seat1 Dog health=3 sanity=1", "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=2 horror=1")
    start_turn(s, 1)
    do(s, "act seat1 draw")
    assert prompt_id(s) == "soak" and s.state.prompt.options == ("rest on Roland", "1 damage on Dog", "1 horror on Dog")
    hand = track(s, "seat1.hand")
    do(s, "choose 2", "choose 3")  # one damage and the horror on the dog
    assert prompt_id(s) == "soak" and s.state.prompt.options == ("rest on Roland", "1 damage on Dog")
    do(s, "choose 1")  # the other damage on Roland
    assert track(s, "seat1.damage") == 1 and track(s, "seat1.horror") == 0
    assert "Dog" not in data(s, "assets")["1"] and track(s, "seat1.discard") == 1  # AH-DMG-11: sanity 1
    assert track(s, "seat1.hand") == hand + 1  # AH-AOO-5: then the draw resolves


@pytest.mark.rule("AH-DMG-4")
def test_only_eligible_assets_are_offered() -> None:
    s = new()
    do(s, "asset seat1 Lantern", "asset seat1 Cop health=2",
       "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=0 horror=2")
    to_step(s, "enemy", "3.3")
    assert s.state.prompt is None  # no asset can take horror: it all landed on Roland
    assert track(s, "seat1.horror") == 2


@pytest.mark.rule("AH-DMG-5")
def test_an_asset_is_offered_only_what_still_defeats_it() -> None:
    s = new()
    do(s, "asset seat1 Cop health=2", "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=3 horror=0")
    to_step(s, "enemy", "3.3")
    do(s, "choose 2", "choose 2")
    assert s.state.prompt is None  # the Cop is full: the last damage lands on Roland without a question
    assert track(s, "seat1.damage") == 1 and "Cop" not in data(s, "assets")["1"]
    assert data(s, "enemies")["Ghoul"]["ready"] is False  # 3.3: the attacker exhausts


@pytest.mark.rule("AH-AOO-2")
def test_the_investigator_orders_several_attacks_of_opportunity() -> None:
    s = new()
    do(s, "enemy seat1 A fight=2 health=2 evade=2 damage=1 horror=0",
       "enemy seat1 B fight=2 health=2 evade=2 damage=0 horror=1")
    start_turn(s, 1)
    do(s, "act seat1 resource")
    assert prompt_id(s) == "aoo_order" and s.state.prompt.options == ("A", "B")
    assert track(s, "seat1.resources") == 5  # the effect waits for the attacks (AH-AOO-5)
    do(s, "choose 2")
    notices = s.notices
    assert any("B makes an attack of opportunity" in n for n in notices)
    assert any("A makes an attack of opportunity" in n for n in notices)
    assert track(s, "seat1.resources") == 6 and (track(s, "seat1.damage"), track(s, "seat1.horror")) == (1, 1)


@pytest.mark.rule("AH-ENGAGE-2")
def test_a_card_effect_engages_an_enemy_without_an_action() -> None:
    s = new()
    do(s, "location Hall 1 0", "enter seat1 Hall", "enter seat2 Hall",
       "enemy seat2 Rat fight=1 health=1 evade=3 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "engage seat1 Rat")
    assert data(s, "enemies")["Rat"]["engaged"] == 1 and track(s, "seat1.actions") == 3
    assert rejects(s, "engage seat1 Rat") == "Rat is already engaged with seat 1"


@pytest.mark.rule("AH-DMG-10")
def test_a_weakness_enemy_goes_to_its_owners_discard_pile() -> None:
    s = new()
    do(s, "enemy seat1 Mob fight=1 health=1 evade=1 damage=1 horror=0 weakness",
       "enemy seat1 Rat fight=1 health=1 evade=1 damage=1 horror=0")
    do(s, "harm-enemy Mob 1", "harm-enemy Rat 1")
    assert track(s, "seat1.discard") == 1 and track(s, "encounter.discard") == 1


@pytest.mark.rule("AH-ELIM-3")
def test_elimination_removes_weaknesses_cards_and_the_threat_area() -> None:
    s = new(seats=3)
    do(s, "enemy seat2 Mob fight=1 health=1 evade=1 damage=1 horror=0 weakness exhausted",
       "enemy seat2 Rat fight=1 health=1 evade=1 damage=1 horror=0")
    to_step(s, "mythos", "1.4")
    do(s, "asset seat2 Dog health=3")
    answer(s, "discarded")  # each investigator draws in turn: seat 1's card is discarded,
    answer(s, "stays in my threat area")  # seat 2's stays in its threat area,
    answer(s, "discarded")  # seat 3's is discarded
    assert list(data(s, "treacheries")) == ["Treachery 2.2"]
    discard = track(s, "encounter.discard")
    do(s, "defeat seat2")
    assert "Mob" not in data(s, "enemies") and "weakness Mob" in data(s, "removed")  # step 0
    assert (track(s, "seat2.hand"), track(s, "seat2.deck"), track(s, "seat2.discard")) == (0, 0, 0)  # step 1
    assert data(s, "assets")["2"] is None  # step 1: its cards in play leave the game
    assert data(s, "treacheries") == {} and track(s, "encounter.discard") == discard + 1  # step 4
    assert data(s, "enemies")["Rat"]["engaged"] is None  # step 3


@pytest.mark.rule("AH-ELIM-1")
def test_resigning_on_ones_own_turn_ends_the_turn() -> None:
    s = new(seats=3)
    start_turn(s, 2)
    do(s, "act seat2 resign")
    assert data(s, "eliminated") == {"2": "resign"}
    assert s.state.active_seat is None and s.state.prompt is None and s.state.owing == (1, 3)
