"""Costs and assets: who pays, cost modifiers, assigning damage and horror to assets, exhausting
(AH-COST-5, AH-COST-9, AH-TRIG-9, AH-DMG-4/5/11, AH-DIRECT-1, AH-EXHAUST-2, AH-BASE-1, AH-EFFECT-4)."""

from __future__ import annotations

import pytest

from .helpers import data, do, new, rejects, start_turn, to_step, track


@pytest.mark.rule("AH-COST-5")
def test_ah_cost_5_a_seat_pays_only_from_its_own_pool() -> None:
    s = new()
    do(s, "set seat1.resources 0")  # seat 2 keeps its 5
    start_turn(s, 1)
    assert rejects(s, "play seat1 1 asset") == "seat 1 has 0 resources; the card costs 1"
    assert track(s, "seat2.resources") == 5


@pytest.mark.rule("AH-COST-9")
def test_ah_cost_9_healing_nothing_is_refused_and_costs_nothing() -> None:
    s = new()
    assert rejects(s, "heal seat1 1") == "seat 1 has 0 damage; cannot heal 1"
    assert track(s, "seat1.resources") == 5


@pytest.mark.rule("AH-TRIG-9")
def test_ah_trig_9_cost_modifier_makes_an_ability_affordable() -> None:
    s = new()
    do(s, "set seat1.resources 1")
    start_turn(s, 1)
    assert rejects(s, "activate seat1 1 2") == "seat 1 has 1 resources; the ability costs 2"
    do(s, "activate seat1 1 2 less=1")
    assert track(s, "seat1.resources") == 0


@pytest.mark.rule("AH-DMG-4")
def test_ah_dmg_4_horror_only_to_assets_with_sanity() -> None:
    s = new()
    do(s, "asset seat1 Dog health=3")
    assert rejects(s, "hit seat1 0 2 Dog=0/2") == "Dog has no sanity: it cannot take horror"
    do(s, "hit seat1 0 2")
    assert track(s, "seat1.horror") == 2


@pytest.mark.rule("AH-DMG-5")
def test_ah_dmg_5_an_asset_takes_at_most_what_defeats_it() -> None:
    s = new()
    do(s, "asset seat1 Ally health=2", "hit seat1 1 0 Ally=1/0")
    assert data(s, "assets")["1"]["Ally"]["damage"] == 1 and track(s, "seat1.damage") == 0
    assert rejects(s, "hit seat1 3 0 Ally=2/0") == "Ally can take at most 1 more damage"
    do(s, "hit seat1 3 0 Ally=1")
    assert track(s, "seat1.damage") == 2


@pytest.mark.rule("AH-DMG-11")
def test_ah_dmg_11_defeated_ally_discarded_investigator_takes_the_rest() -> None:
    s = new(seat1="skids")  # health 8
    do(s, "set seat1.damage 5", "asset seat1 Ally health=2", "hit seat1 3 0 Ally=2/0")
    assert "Ally" not in data(s, "assets")["1"] and track(s, "seat1.discard") == 1
    assert track(s, "seat1.damage") == 6 and data(s, "eliminated") == {}


@pytest.mark.rule("AH-DIRECT-1")
def test_ah_direct_1_direct_damage_cannot_go_to_an_ally() -> None:
    s = new()
    do(s, "asset seat1 Ally health=2")
    assert rejects(s, "hit seat1 1 0 Ally=1/0 direct") == "direct damage and horror cannot be assigned to assets"
    do(s, "hit seat1 1 0 direct")
    assert track(s, "seat1.damage") == 1


@pytest.mark.rule("AH-EXHAUST-2")
def test_ah_exhaust_2_an_exhausted_card_cannot_exhaust_again() -> None:
    s = new()
    do(s, "asset seat1 Lantern", "exhaust seat1 Lantern")
    assert rejects(s, "exhaust seat1 Lantern") == "Lantern is already exhausted"
    do(s, "ready seat1 Lantern", "exhaust seat1 Lantern")
    to_step(s, "upkeep", "4.3")  # 4.3 readies every exhausted card
    assert data(s, "assets")["1"]["Lantern"]["exhausted"] is False


@pytest.mark.rule("AH-BASE-1")
def test_ah_base_1_base_value_is_printed_modified_value_counts_modifiers() -> None:
    s = new()
    do(s, "enemy seat1 Ghoul fight=3 health=3 evade=2 damage=1 horror=0", "enemy-mod Ghoul fight +1")
    assert data(s, "enemies")["Ghoul"]["fight"] == 3
    start_turn(s, 1)
    do(s, "act seat1 fight Ghoul")
    assert data(s, "test")["difficulty"] == 4


@pytest.mark.rule("AH-EFFECT-4")
def test_ah_effect_4_as_many_as_exist() -> None:
    s = new()
    do(s, "set seat1.deck 3", "draw-cards seat1 5")  # the discard pile is empty
    assert (track(s, "seat1.deck"), track(s, "seat1.hand")) == (0, 8)
    assert s.notices[-1] == "seat 1: deck and discard pile are empty; nothing more to draw"


@pytest.mark.rule("AH-DMG-8")
def test_ah_dmg_8_fully_prevented_damage_deals_nothing() -> None:
    s = new()
    do(s, "hit seat1 2 0 prevent=2")
    assert track(s, "seat1.damage") == 0
    assert s.notices == ("seat 1: everything was prevented; nothing was dealt",)
    do(s, "hit seat1 2 1 prevent=1/1")
    assert (track(s, "seat1.damage"), track(s, "seat1.horror")) == (1, 0)
