"""Damage, Defend, Strife, Badlands, Ravage/Build/Explore and healing (pure rule functions)."""

from __future__ import annotations

import pytest

from tablekeeper.games.spirit_island import damage as dm
from tablekeeper.games.spirit_island import invader_rules as ir
from tablekeeper.games.spirit_island.invader_rules import Invader


@pytest.mark.rule("SI-BADLANDS-3")
def test_si_badlands_3_plus_one_each_only_on_real_damage() -> None:
    assert dm.boosted(0, 2) == 0
    assert dm.boosted(1, 2) == 3


@pytest.mark.rule("SI-DEFEND-1")
def test_si_defend_1_defend_cuts_every_ravage() -> None:
    town_and_explorer = [Invader("town"), Invader("explorer")]
    for _ in range(2):
        assert ir.ravage(town_and_explorer, [], defend=3).damage_to_land == 0


@pytest.mark.rule("SI-DEFEND-2")
def test_si_defend_2_each_hit_stands_alone_for_blight() -> None:
    hits = [ir.ravage([Invader("city")], [], defend=2) for _ in range(2)]
    assert [h.damage_to_land for h in hits] == [1, 1]
    assert sum(h.blight for h in hits) == 0


@pytest.mark.rule("SI-DEFEND-3")
def test_si_defend_3_sitting_out_dahan_grant_no_defend_in_the_ravage() -> None:
    bargains = dm.DefendSource(1, per_dahan=True, island_wide=True)
    assert dm.defend_total([bargains], dahan=2, sitting_out=1, in_ravage=True) == 1
    assert dm.defend_total([bargains], dahan=2, sitting_out=1, in_ravage=False) == 2


@pytest.mark.rule("SI-STRIFE-2")
def test_si_strife_2_city_with_strife_deals_nothing_and_loses_one() -> None:
    result = ir.ravage([Invader("city", strife=2)], [0])
    assert result.damage_to_land == 0 and result.blight == 0
    assert result.invaders[0].strife == 1 and result.counterattack == 2


@pytest.mark.rule("SI-DAMAGE-1")
def test_si_damage_1_bonus_goes_over_the_cap() -> None:
    assert dm.capped(3, 3, 1) == 4
    assert dm.capped(5, 3, 1) == 4


@pytest.mark.rule("SI-DAMAGE-4")
def test_si_damage_4_bonus_applies_to_durable_target() -> None:
    durable_town = dm.Piece("town", base_health=2, bonus=2)  # Durable: Health 4
    hit, destroyed = dm.deal(durable_town, 2, bonus=1)  # Asphyxiating Smoke + Flame's Fury
    assert hit.damage == 3 and not destroyed
    assert dm.deal(durable_town, 0, bonus=1)[0].damage == 0


@pytest.mark.rule("SI-DAMAGE-5")
def test_si_damage_5_moved_piece_destroyed_in_destination() -> None:
    town = dm.Piece("town", base_health=2, damage=3, bonus=2)  # Health 4 in land A
    assert town.health == 4 and town.damage < town.health
    moved, destroyed = dm.move(town, bonus_in_destination=0)
    assert moved.health == 2 and moved.damage == 3 and destroyed
    assert dm.move(town, bonus_in_destination=2) == (town, False)


@pytest.mark.rule("SI-INV-2")
def test_si_inv_2_ravage_total_minus_defend() -> None:
    result = ir.ravage([Invader("city"), Invader("explorer")], [0, 0], defend=1)
    assert result.damage_to_land == 3 and result.damage_to_dahan == 3


@pytest.mark.rule("SI-INV-3")
def test_si_inv_3_two_or_more_damage_adds_exactly_one_blight() -> None:
    assert ir.blight_from_ravage(9) == 1 and ir.blight_from_ravage(1) == 0


@pytest.mark.rule("SI-INV-4")
def test_si_inv_4_damage_kills_as_many_dahan_as_it_can() -> None:
    assert ir.dahan_casualties([0, 0], 3) == (1,)
    result = ir.ravage([Invader("city")], [0, 0])
    assert result.dahan_left == (1,) and result.counterattack == 2
    assert ir.ravage([Invader("city")], [0, 0], ravaged=False).counterattack == 0


@pytest.mark.rule("SI-INV-5")
def test_si_inv_5_what_a_build_adds() -> None:
    assert ir.build(0, 1, 0) == "city"
    assert ir.build(0, 1, 1) == "town"
    assert ir.build(2, 0, 0) == "town"
    assert ir.build(0, 0, 0) is None


@pytest.mark.rule("SI-INV-6")
def test_si_inv_6_explore_sources() -> None:
    lands = {
        "I": ir.Land("I", "Jungle", adjacent=("E",)), "E": ir.Land("E", "Sands", explorers=2),
        "C": ir.Land("C", "Jungle", coastal=True),
        "N": ir.Land("N", "Jungle", adjacent=("K",)), "K": ir.Land("K", "Sands", cities=1),
    }
    assert ir.explore_adds(lands["I"], lands) == 0
    assert ir.explore_adds(lands["C"], lands) == 1
    assert ir.explore_adds(lands["N"], lands) == 1


@pytest.mark.rule("SI-INV-7")
def test_si_inv_7_advance_moves_cards_along() -> None:
    slots, discard = ir.advance({"ravage": ["Jungle"], "build": ["Sands"], "explore": ["Wetland"]}, [])
    assert slots == {"ravage": ["Sands"], "build": ["Wetland"], "explore": []} and discard == ["Jungle"]
