"""Damage, Defend, Strife, Badlands, Ravage/Build/Explore and healing (pure rule functions)."""

from __future__ import annotations

import pytest

from tablekeeper.games.spirit_island import damage as dm
from tablekeeper.games.spirit_island import invader_rules as ir
from tablekeeper.games.spirit_island.invader_rules import Invader


@pytest.mark.rule("SI-BADLANDS-1")
def test_si_badlands_1_one_boost_on_any_one_instance() -> None:
    instances = [dm.Instance(1, "towns"), dm.Instance(1, "any")]
    assert dm.badlands_results(instances, 1) == {(2, 1), (1, 2)}
    assert not dm.badlands_allowed(instances, 1, (2, 2))
    assert not dm.badlands_allowed(instances, 1, (1, 1))


@pytest.mark.rule("SI-BADLANDS-2")
def test_si_badlands_2_dahan_boost_counted_apart() -> None:
    invaders, dahan = dm.badlands_split([dm.Instance(1)], [dm.Instance(1, "dahan")], 1)
    assert invaders == {(2,)} and dahan == {(2,)}


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


@pytest.mark.rule("SI-DEFEND-4")
def test_si_defend_4_single_land_amount_locks_island_wide_recounts() -> None:
    single = dm.resolve_single_land(dm.DefendSource(1, per_dahan=True), dahan_now=3)
    assert dm.defend_total([single], dahan=2, sitting_out=0, in_ravage=True) == 3
    island = dm.resolve_single_land(dm.DefendSource(1, per_dahan=True, island_wide=True), dahan_now=3)
    assert dm.defend_total([island], dahan=2, sitting_out=0, in_ravage=True) == 2


@pytest.mark.rule("SI-DAHAN-TIMING-1")
def test_si_dahan_timing_1_later_change_overwrites_only_timing() -> None:
    words = dm.TimingChange("Words of Warning", "simultaneous")
    warn = dm.TimingChange("Warn of Impending Conflict", "first", count=1)
    engage = dm.TimingChange("Engage on Their Own Terms", "after", count=0, damage_delta=-1)
    timings, damage = dm.dahan_timing(3, [engage, words, warn])
    assert timings == ["first", "simultaneous", "simultaneous"] and damage == 1
    timings, damage = dm.dahan_timing(3, [engage, warn, words])
    assert timings == ["simultaneous"] * 3 and damage == 1


@pytest.mark.rule("SI-STRIFE-1")
def test_si_strife_1_strife_off_before_damage_restores_health() -> None:
    town = Invader("town", strife=1, strife_health_penalty=1)
    health = {"town": 2}
    assert town.health(health) == 1
    dealt, after = ir.ravage_damage([town])
    assert dealt == 0 and after[0].strife == 0
    restored = ir.strife_comes_off_first(town)
    survives = dm.deal(dm.Piece("town", restored.health(health)), 1)
    assert survives == (dm.Piece("town", 2, damage=1), False)
    assert dm.deal(dm.Piece("town", town.health(health)), 1)[1]  # without the restore: destroyed


@pytest.mark.rule("SI-STRIFE-2")
def test_si_strife_2_city_with_strife_deals_nothing_and_loses_one() -> None:
    result = ir.ravage([Invader("city", strife=2)], [0])
    assert result.damage_to_land == 0 and result.blight == 0
    assert result.invaders[0].strife == 1 and result.counterattack == 2


@pytest.mark.rule("SI-DAMAGE-1")
def test_si_damage_1_bonus_goes_over_the_cap() -> None:
    assert dm.capped(3, 3, 1) == 4
    assert dm.capped(5, 3, 1) == 4


@pytest.mark.rule("SI-DAMAGE-2")
def test_si_damage_2_no_boost_when_the_damage_is_not_happening() -> None:
    assert dm.conditional_damage(happens=False, base=2, bonus=1) == 0
    assert dm.conditional_damage(happens=True, base=2, bonus=1) == 3


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


@pytest.mark.rule("SI-HEALTH-1")
def test_si_health_1_health_budgets_never_pool() -> None:
    assert not dm.removable_by_health([3], [2, 2])
    assert dm.removable_by_health([3, 1], [4])


@pytest.mark.rule("SI-HEAL-1")
def test_si_heal_1_not_healed_keeps_time_passes_damage_only() -> None:
    town, dahan = dm.Piece("town", 2, damage=1), dm.Piece("dahan", 2, damage=2)
    assert [p.damage for p in dm.heal_at_time_passes([town], not_healed=True)] == [1]
    assert [p.damage for p in dm.heal_at_time_passes([town], not_healed=False)] == [0]
    assert dm.saved_from_destruction(dahan).damage == 0


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


@pytest.mark.rule("SI-DECK-1")
def test_si_deck_1_stage_sequence() -> None:
    assert ir.stage_sequence([3, 4, 5]) == ["I"] * 3 + ["II"] * 4 + ["III"] * 5
