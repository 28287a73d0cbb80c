"""Pure rule functions, one test per decidable `Test:` line of the catalogue."""

from __future__ import annotations

import pytest

from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.cards import apply_upgrades, parse_card, upgrade
from tablekeeper.games.oathsworn.rules import Drawn, Item


def cards(text: str, extras: str = "") -> list[Drawn]:
    out = [Drawn(parse_card(c)) for c in text.split()]
    out += [Drawn(parse_card(c), extra=True) for c in extras.split()]
    return out


@pytest.mark.rule("OS-SETUP-6")
def test_os_setup_6_full_defense() -> None:
    assert rules.full_defense(2 + 1) == 3
    assert rules.full_defense(0) == 1


@pytest.mark.rule("OS-SETUP-8")
def test_os_setup_8_companion_defense() -> None:
    assert rules.companion_defense(2) == 4
    assert rules.companion_defense(0) == 3
    assert rules.companion_defense(1) == 3


@pytest.mark.rule("OS-SETUP-5")
def test_os_setup_5_might_track_from_items() -> None:
    items = [Item("a", "weapon", 1, might=("R", "Y")), Item("b", "weapon", 1, might=("Y",))]
    assert sorted(rules.might_track(items)) == ["R", "Y", "Y"]


@pytest.mark.rule("OS-ITEM-2")
def test_os_item_2_equip_limits() -> None:
    with pytest.raises(Rejected):
        rules.check_equip([Item("maul", "weapon", 2), Item("buckler", "shield", 1)])
    rules.check_equip([Item("a", "weapon", 1), Item("b", "weapon", 1), Item("c", "armor"), Item("d", "gear")])
    with pytest.raises(Rejected):
        rules.check_equip([Item("c", "armor"), Item("e", "armor")])


@pytest.mark.rule("OS-IRON-3")
def test_os_iron_3_shortfall_pays_with_items() -> None:
    loss = rules.lose_iron(3, [6, 4], 7)
    assert (loss.iron_lost, loss.items_lost, loss.unpaid) == (3, (0, 1), 0)


@pytest.mark.rule("OS-IRON-4")
def test_os_iron_4_equipped_never_lost() -> None:
    loss = rules.lose_iron(2, [], 10)
    assert (loss.iron_lost, loss.items_lost, loss.unpaid) == (2, (), 8)


@pytest.mark.rule("OS-HP-1")
def test_os_hp_1_die_turns_down() -> None:
    assert rules.lose_hp(5, 2) == 3
    assert rules.lose_hp(1, 3) == 0


@pytest.mark.rule("OS-HP-3")
def test_os_hp_3_heal_capped() -> None:
    assert rules.heal(5, 1, hp_max=5) == 5


@pytest.mark.rule("OS-MIGHT-2")
def test_os_might_2_upgrade_steps() -> None:
    assert upgrade("W") == "Y"
    assert upgrade("R") == "B"
    with pytest.raises(Rejected):
        upgrade("B")


@pytest.mark.rule("OS-CHECK-2")
def test_os_check_2_at_most_ten_whites() -> None:
    assert rules.white_count(10) == 10
    with pytest.raises(Rejected):
        rules.white_count(11)


@pytest.mark.rule("OS-CHECK-3")
def test_os_check_3_total_and_blanks() -> None:
    assert rules.check_passes(cards("W2 W1 W0 W1"), 4)
    assert not rules.check_passes(cards("W2 W2 W0 W0"), 3)


@pytest.mark.rule("OS-CHECK-4")
def test_os_check_4_critical_extras_excuse_blanks() -> None:
    drawn = cards("W2* W1 W0", extras="W2* W0")
    assert rules.total(drawn) == 5
    assert rules.counted_blanks(drawn) == 1
    assert rules.check_passes(drawn, 5)


@pytest.mark.rule("OS-CHECK-5")
def test_os_check_5_redraw_replaces_a_blank() -> None:
    before = cards("W1 W0 W0")
    assert not rules.check_passes(before, 3)
    after = cards("W1 W0 W2")
    assert rules.check_passes(after, 3)


@pytest.mark.rule("OS-CHECK-6")
def test_os_check_6_empowered_only_in_might_checks() -> None:
    assert not rules.empowered_allowed("survival")
    assert rules.empowered_allowed("might")


@pytest.mark.rule("OS-CHECK-7")
def test_os_check_7_successes() -> None:
    assert rules.successes(cards("W2 W2 W2 W1 W0"), 3) == 2
    assert rules.successes(cards("W1 W1"), 3) == 0


@pytest.mark.rule("OS-CHECK-8")
def test_os_check_8_trait_redraws() -> None:
    assert rules.free_redraws("spot", {"keen-eyed": 2}) == 2
    assert rules.free_redraws("spot", {"keen-eyed": 4}) == 3
    assert rules.free_redraws("survival", {"keen-eyed": 2}) == 0


@pytest.mark.rule("OS-SCOMBAT-3")
def test_os_scombat_3_miss_or_sum() -> None:
    assert rules.attack_damage(cards("W0 W0 R3")) is None
    assert rules.attack_damage(cards("W1 W0 R3")) == 4


@pytest.mark.rule("OS-SCOMBAT-4")
def test_os_scombat_4_beat_the_defense() -> None:
    assert rules.story_fight_result(5, 6) == (False, 1)
    assert rules.story_fight_result(rules.attack_damage(cards("W2 W0 R4")), 6) == (True, 0)
    assert rules.story_fight_result(rules.attack_damage(cards("B5 R4 W0 W0")), 6) == (False, 1)


@pytest.mark.rule("OS-TRADE-2")
def test_os_trade_2_runner_costs() -> None:
    assert rules.runner_cost(3, 2) == 6
    assert rules.runner_cost(3, 2, well_connected=True) == 0


@pytest.mark.rule("OS-TRADE-3")
def test_os_trade_3_apothecary() -> None:
    assert rules.runner_cost(2, 1) + rules.apothecary(2, 3)[0] == 8
    assert rules.apothecary(2, 3) == (6, 3)
    assert rules.apothecary(2, 3, herbalist=True) == (6, 6)


@pytest.mark.rule("OS-TRADE-4")
def test_os_trade_4_sell_half_up() -> None:
    assert rules.sell_value(5) == 3
    assert rules.sell_value(4) == 2


@pytest.mark.rule("OS-HC-2")
def test_os_hc_2_low_hp_injuries() -> None:
    due = [hp for hp in (1, 2, 3, 6) if rules.injury_due(hp, False, hardcore=True)]
    assert due == [1, 2]


@pytest.mark.rule("OS-LVL-7")
def test_os_lvl_7_hand_limit() -> None:
    with pytest.raises(Rejected):
        rules.check_hand([0, 1, 1, 2, 2, 3, 3, 3])


@pytest.mark.rule("OS-LVL-9")
def test_os_lvl_9_permanent_cap() -> None:
    with pytest.raises(Rejected):
        rules.add_permanent({"redraw": 3}, "redraw")
    assert rules.add_permanent({"redraw": 3}, "defense") == {"redraw": 3, "defense": 1}


@pytest.mark.rule("OS-ESET-5")
def test_os_eset_5_hand_cooldowns() -> None:
    rules.check_hand([0, 1, 1, 2, 2, 3, 3])
    with pytest.raises(Rejected):
        rules.check_hand([0, 0, 1, 2, 2, 3, 3])


@pytest.mark.rule("OS-ANIM-2")
def test_os_anim_2_regen_limited_by_reserve() -> None:
    assert rules.regenerate(2, 4, 3) == (0, 6)


@pytest.mark.rule("OS-ANIM-3")
def test_os_anim_3_companion_regen() -> None:
    assert rules.regenerate(2, 0, 2) == (0, 2)


@pytest.mark.rule("OS-ANIM-4")
def test_os_anim_4_pay_from_available() -> None:
    with pytest.raises(Rejected):
        rules.spend(4, 2, 3)


@pytest.mark.rule("OS-ANIM-5")
def test_os_anim_5_gems_conserved() -> None:
    r, a = 6, 0
    r, a = rules.regenerate(r, a, 3)
    assert (r, a) == (3, 3)
    r, a = rules.spend(r, a, 2)
    assert (r, a) == (5, 1)
    r, a = rules.spend(r, a, 1)
    assert (r, a) == (6, 0)
    assert rules.regenerate(r, a, 3) == (3, 3)


@pytest.mark.rule("OS-TOK-2")
def test_os_tok_2_plus_two_animus() -> None:
    assert rules.animus_token(4, 1) == (2, 3)


@pytest.mark.rule("OS-TOK-3")
def test_os_tok_3_battleflow_token() -> None:
    pos, hand = rules.battleflow_token(((), (), ("A", "B"), ()), (), 2)
    assert pos[1] == ("A", "B") and pos[2] == ()
    pos, hand = rules.battleflow_token((("C",), (), (), ()), (), 0)
    assert hand == ("C",) and pos[0] == ()


@pytest.mark.rule("OS-TOK-4")
def test_os_tok_4_defense_token() -> None:
    assert rules.hp_lost(9, 3) == 3
    assert rules.hp_lost(9, 3 + 1) == 2


@pytest.mark.rule("OS-TOK-5")
def test_os_tok_5_empowered_three_upgrades() -> None:
    assert sorted(apply_upgrades(["W", "W", "Y"], 3, [0, 0, 1])) == ["R", "Y", "Y"]
    assert apply_upgrades(["B"], 3, [0, 0, 0]) == ["B"]  # steps beyond black are lost


@pytest.mark.rule("OS-CD-3")
def test_os_cd_3_positions() -> None:
    for cd in range(4):
        pos, _ = rules.cooldown_place(((), (), (), ()), (), "X", cd)
        assert pos[cd] == ("X",)


@pytest.mark.rule("OS-CD-4")
def test_os_cd_4_refresh_returns_position_zero() -> None:
    pos, hand = rules.cooldown_refresh((("A",), ("B",), (), ("C",)), ())
    assert hand == ("A",) and pos == ((), ("B",), (), ("C",))


@pytest.mark.rule("OS-CD-5")
def test_os_cd_5_battleflow_no_cascade() -> None:
    pos, _ = rules.cooldown_place(((), ("B",), ("C", "D"), ()), (), "E", 2)
    assert pos == ((), ("B", "C", "D"), ("E",), ())


@pytest.mark.rule("OS-CD-6")
def test_os_cd_6_items_do_not_battleflow() -> None:
    pos, _ = rules.cooldown_place(((), (), ("C",), ()), (), "item", 2, battleflow=False)
    assert pos[2] == ("C", "item")


@pytest.mark.rule("OS-CD-8")
def test_os_cd_8_item_before_ability() -> None:
    pos, _ = rules.cooldown_place(((), (), (), ()), (), "item", 3, battleflow=False)
    pos, _ = rules.cooldown_place(pos, (), "ability", 3)
    assert pos[2] == ("item",) and pos[3] == ("ability",)


@pytest.mark.rule("OS-CD-9")
def test_os_cd_9_cooldown_zero_to_hand() -> None:
    pos, hand = rules.cooldown_place((("A",), (), (), ()), (), "B", 0)
    assert hand == ("A",) and pos[0] == ("B",)


@pytest.mark.rule("OS-ATK-8")
def test_os_atk_8_miss_and_excused_extra() -> None:
    assert rules.attack_damage(cards("W0 R0 Y3")) is None
    assert rules.attack_damage(cards("W0 R4*", extras="R0")) == 4


@pytest.mark.rule("OS-ATK-9")
def test_os_atk_9_damage_sum() -> None:
    assert rules.attack_damage(cards("W1 Y2 R3")) == 6


@pytest.mark.rule("OS-ATK-10")
def test_os_atk_10_critical_chain_damage() -> None:
    assert rules.attack_damage(cards("Y3*", extras="Y3* Y1")) == 7


@pytest.mark.rule("OS-ATK-14")
def test_os_atk_14_empowered_stacks() -> None:
    assert sorted(apply_upgrades(["W", "W"], 2 + 3, [0, 0, 0, 1, 1])) == ["B", "R"]


@pytest.mark.rule("OS-DMG-3")
def test_os_dmg_3_hp_lost() -> None:
    assert rules.hp_lost(11, 3) == 3
    assert rules.hp_lost(2, 3) == 0


@pytest.mark.rule("OS-DMG-5")
def test_os_dmg_5_die_removed_excess_lost() -> None:
    assert rules.boss_die_loss(2, 3) == (0, True)


@pytest.mark.rule("OS-EMOVE-3")
def test_os_emove_3_size() -> None:
    assert not rules.large(1)
    assert rules.large(3)


@pytest.mark.rule("OS-EATK-1")
def test_os_eatk_1_broken_attack() -> None:
    assert sorted(rules.broken_attack(["B", "B", "R"])) == ["B", "R"]
    assert rules.broken_attack(["R", "W", "W"]) == ["W", "W"]


@pytest.mark.rule("OS-EATK-4")
def test_os_eatk_4_enemies_ignore_blanks_and_criticals() -> None:
    assert rules.enemy_damage([parse_card(c) for c in ("R0", "R4*", "B3")]) == 7


@pytest.mark.rule("OS-EATK-5")
def test_os_eatk_5_one_draw_many_targets() -> None:
    assert [rules.hp_lost(6, d) for d in (2, 3)] == [3, 2]


@pytest.mark.rule("OS-END-1")
def test_os_end_1_victory_wins_ties() -> None:
    assert rules.encounter_result(0, 0) == "victory"
    assert rules.encounter_result(1, 0) == "defeat"


@pytest.mark.rule("OS-END-4")
def test_os_end_4_replay_score() -> None:
    from tablekeeper.games.oathsworn.data import load
    d = load()
    assert rules.replay_score(d.difficulties["pilgrim"]) == 5
    assert rules.replay_score(d.difficulties["dread"]) == 2


@pytest.mark.rule("OS-STAT-3")
def test_os_stat_3_crippled_timing() -> None:
    assert rules.crippled_until(2, "encounter") == 3
    assert rules.crippled_until(2, "oathsworn") == 3


@pytest.mark.rule("OS-FX-3")
def test_os_fx_3_caged_through_next_round() -> None:
    assert rules.caged_until(3) == 4


@pytest.mark.rule("OS-FX-4")
def test_os_fx_4_escape() -> None:
    assert rules.escape_total(4, 2) >= 8
    assert rules.escape_cost(companion=True) == 1


@pytest.mark.rule("OS-FX-13")
def test_os_fx_13_consumed_release() -> None:
    assert not rules.consumed_released(3, 2)
    assert rules.consumed_released(3 + 3, 2)


@pytest.mark.rule("OS-TALLY-4")
def test_os_tally_4_unique_fallback() -> None:
    from tablekeeper.games.oathsworn.data import load
    d = load()
    _, owed = rules.loot_counts(d.difficulties["dread"], scavenger=False, extra_unique=True)
    assert owed == 5
    assert rules.uniques_drawn(owed, 4) == (4, 1)


@pytest.mark.rule("OS-TALLY-6")
def test_os_tally_6_loot_formula() -> None:
    from tablekeeper.games.oathsworn.data import load
    assert rules.loot_counts(load().difficulties["free"], scavenger=True, extra_unique=False) == (5, 2)


@pytest.mark.rule("OS-TALLY-7")
def test_os_tally_7_ko_ticks() -> None:
    from tablekeeper.games.oathsworn.data import load
    d = load().difficulties
    assert rules.ko_ticks(2, d["pilgrim"]) == 3
    assert rules.ko_ticks(1, d["dread"]) == 0
    assert rules.ko_ticks(0, d["journeyman"]) == 2


@pytest.mark.rule("OS-TALLY-9")
def test_os_tally_9_items_lost() -> None:
    assert rules.items_lost(knocked_out=False) == 1
    assert rules.items_lost(knocked_out=True) == 2


