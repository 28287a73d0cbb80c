"""Encounter rounds through the real session: setup, phases and turns, animus, cooldowns, tokens,
attacks, boss dice and breaks, the stage deck, enemy attacks, knockouts, allies, replay, tally."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.chance import Deck
from tablekeeper.core.session import Session
from tablekeeper.games.oathsworn.data import DEFAULT_NAME
from tablekeeper.games.oathsworn.record import rec

from .helpers import encounter, last, new, no, ok, seat, to_turns, v


def deck(s: Session, name: str) -> Deck:
    src = s.state.sources[name]
    assert isinstance(src, Deck)
    return src


def pass_all(s: Session) -> Session:
    """Every seat passes in a row, starting with the active one."""
    for _ in range(4):
        ok(s, f"pass {s.state.active_seat}")
    return s


def round_end(s: Session) -> Session:
    """From the Oathsworn phase to the next round's refresh."""
    pass_all(s)
    return ok(s, "next", "next", "next")


def defeat(s: Session) -> Session:
    """Knock every Oathsworn out with the track (as the HP dice would)."""
    for n in (1, 2, 3, 4):
        if not seat(s, n)["down"]:
            ok(s, f"set seat{n}.hp 0")
    return s


def custom_data(tmp_path: Path, old: str, new_text: str) -> str:
    from importlib import resources
    text = resources.files("tablekeeper.games.oathsworn").joinpath("data").joinpath(DEFAULT_NAME).read_text("utf-8")
    assert old in text
    path = tmp_path / "oathsworn.toml"
    path.write_text(text.replace(old, new_text), encoding="utf-8")
    return str(path)


@pytest.mark.rule("OS-ESET-3")
def test_os_eset_3_boss_dice_at_six() -> None:
    s = encounter()
    assert {k: v(s, k) for k in s.state.tracks if k.startswith("boss.")} == {
        "boss.head": 6, "boss.body": 6, "boss.claws": 6}


@pytest.mark.rule("OS-ESET-4")
def test_os_eset_4_stage_deck_order() -> None:
    s = encounter()
    d = deck(s, "stage")
    assert [st.total for st in d.stages] == [4, 5, 5]  # one stage 1 card lies faceup on top
    assert str(rec(s.state).stage_faceup).startswith("S1.")


@pytest.mark.rule("OS-ESET-10")
def test_os_eset_10_lead_opens_every_round() -> None:
    s = to_turns(encounter(lead="3"))
    assert s.state.active_seat == 3
    round_end(s)
    ok(s, "next")
    assert s.state.round == 2 and s.state.active_seat == 3


@pytest.mark.rule("OS-ESET-11")
def test_os_eset_11_ambush_starts_with_stage_card() -> None:
    s = encounter(ambush="1")
    assert (s.state.phase, s.state.step) == ("encounter", "stage")
    assert rec(s.state).stage_current is not None


@pytest.mark.rule("OS-RND-1")
def test_os_rnd_1_phase_order() -> None:
    s = encounter()
    seen = [s.state.phase]
    pass_all(ok(s, "next"))
    seen.append(s.state.phase)
    for _ in range(3):
        ok(s, "next")
        seen.append(f"{s.state.phase}.{s.state.step}")
    assert seen == ["refresh", "encounter", "encounter.minions", "end.end", "refresh.refresh"]


@pytest.mark.rule("OS-RND-2")
def test_os_rnd_2_ambush_round_one_only() -> None:
    s = encounter(ambush="1")
    ok(s, "next", "next", "next")
    assert (s.state.round, s.state.phase) == (2, "refresh")


@pytest.mark.rule("OS-RND-3")
def test_os_rnd_3_companion_cubes_cleared() -> None:
    s = to_turns(encounter(companions="1"))
    ok(s, "ability 1 1 interrupt", "ability 1 2 interrupt")
    assert seat(s, 1)["cubes"] == ["1", "2"]
    round_end(s)
    assert seat(s, 1)["cubes"] == []


@pytest.mark.rule("OS-RND-4")
def test_os_rnd_4_turns_until_all_pass() -> None:
    s = to_turns(encounter())
    ok(s, "pass 1", "next", "pass 3", "pass 4", "pass 1")
    assert s.state.step == "turns" and s.state.active_seat == 2
    ok(s, "pass 2")  # seats 3, 4, 1 and now 2 passed in a row
    assert s.state.step == "stage"


@pytest.mark.rule("OS-RND-5")
def test_os_rnd_5_one_ability_card_many_items() -> None:
    s = to_turns(encounter())
    ok(s, "play 1 Slash 1")
    assert "already played" in no(s, "play 1 Guard 2")
    ok(s, "item 1 Short Sword", "item 1 Buckler")


@pytest.mark.rule("OS-RND-6")
def test_os_rnd_6_item_cost_and_cooldown(tmp_path: Path) -> None:
    path = custom_data(tmp_path, '[item."Short Sword"]\nkind = "weapon"',
                       '[item."Short Sword"]\ncost = 2\ncooldown = 2\nkind = "weapon"')
    s = ok(encounter(data=path), "next", "move 1 2")  # refresh gave 3: one left
    assert "only 1" in no(s, "item 1 Short Sword")
    s = ok(encounter(data=path), "next", "item 1 Short Sword")
    assert seat(s, 1)["positions"][2] == ["Short Sword"] and v(s, "seat1.animus") == 1


@pytest.mark.rule("OS-RND-7")
def test_os_rnd_7_injuries_first() -> None:
    s = ok(encounter(), "injure 1", "injure 1", "next")
    assert "injury" in no(s, "move 1 1")
    ok(s, "injury 1", "injury 1", "play 1 Slash 1")


@pytest.mark.rule("OS-RND-8")
def test_os_rnd_8_kept_stage_card_discarded_at_end() -> None:
    s = pass_all(to_turns(encounter()))
    ok(s, "keep")
    card = rec(s.state).stage_current
    assert list(rec(s.state).stage_kept) == [card]
    ok(s, "next", "next")
    assert list(rec(s.state).stage_kept) == []


@pytest.mark.rule("OS-ANIM-2")
def test_os_anim_2_refresh_regenerates() -> None:
    s = to_turns(encounter())
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)


@pytest.mark.rule("OS-ANIM-3")
def test_os_anim_3_companions_regenerate_two() -> None:
    s = to_turns(encounter(companions="2"))
    assert (v(s, "seat2.animus_reserve"), v(s, "seat2.animus")) == (0, 2)


@pytest.mark.rule("OS-ANIM-4")
def test_os_anim_4_cannot_overspend() -> None:
    s = ok(encounter(), "next", "move 1 2")
    assert "only 1" in no(s, "play 1 Cleave 2 3")


@pytest.mark.rule("OS-ANIM-5")
def test_os_anim_5_gem_invariant_in_play() -> None:
    s = new()
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (6, 0)
    ok(s, "next")  # the story ends: round 1 refresh
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)
    ok(s, "next", "move 1 2")
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (5, 1)
    ok(s, "play 1 Slash 1 1")
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (6, 0)
    round_end(s)
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)
    ok(s, "add seat1.animus -1")  # a button press: one gem spent goes to the reserve
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (4, 2)


@pytest.mark.rule("OS-COMP-1")
def test_os_comp_1_move_and_one_action() -> None:
    s = to_turns(encounter(companions="1"))
    ok(s, "move 1 1", "attack 1 head white=1 = Y2 W1", "resolve")
    assert "already attacked" in no(s, "ability 1 1")


@pytest.mark.rule("OS-COMP-2")
def test_os_comp_2_archetype_once_per_round() -> None:
    s = to_turns(encounter(companions="1"))
    ok(s, "ability 1 1")
    assert "already used" in no(s, "ability 1 1 interrupt")
    round_end(s)
    ok(s, "next", "ability 1 1")


@pytest.mark.rule("OS-COMP-3")
def test_os_comp_3_companion_items_single_use() -> None:
    s = to_turns(encounter(companions="1"))
    defense = v(s, "seat1.defense")
    ok(s, "item 1 Buckler")
    assert "facedown" in no(s, "item 1 Buckler")
    assert v(s, "seat1.defense") == defense == 3 + 2


@pytest.mark.rule("OS-MOVE-1")
def test_os_move_1_one_gem_per_step() -> None:
    s = to_turns(encounter())
    assert "only 3" in no(s, "move 1 4")
    ok(s, "move 1 3")
    assert v(s, "seat1.animus") == 0


@pytest.mark.rule("OS-MOVE-2")
def test_os_move_2_free_movement() -> None:
    s = ok(encounter(), "next", "move 1 3")
    ok(s, "next")
    ok(s, "move 2 2 free=2")
    assert v(s, "seat2.animus") == 3


@pytest.mark.rule("OS-MOVE-4")
def test_os_move_4_fire() -> None:
    s = ok(encounter(), "set seat1.hp 4", "fire 1")
    assert v(s, "seat1.hp") == 3


@pytest.mark.rule("OS-CD-1")
def test_os_cd_1_cost_must_be_available() -> None:
    s = ok(encounter(), "next", "move 1 2")
    assert "only 1" in no(s, "play 1 Heavy 2 2")


@pytest.mark.rule("OS-CD-7")
def test_os_cd_7_items_on_cooldown_keep_defense() -> None:
    s = to_turns(encounter())
    ok(s, "item 1 Pig Iron Coat", "token 1 battleflow", "battleflow 1 0")
    assert v(s, "seat1.defense") == 3


@pytest.mark.rule("OS-CD-4")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_os_cd_4_refresh_returns_ability_cards_and_leaves_items_at_position_0(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refresh takes the ability cards at cooldown position 0 back into the hand; an item there stays
    out of the hand (AMB-14). With the item filter removed (a refresh that returns every card), the
    Buckler comes back to the hand and the test sees it."""
    from tablekeeper.games.oathsworn import rules

    if protection == "protection-removed":
        real = rules.cooldown_refresh
        monkeypatch.setattr(rules, "cooldown_refresh", lambda positions, hand, items=(): real(positions, hand))
    s = to_turns(encounter())
    ok(s, "play 1 Jab 0", "item 1 Buckler")  # both at position 0; the item does not battleflow the card
    assert seat(s, 1)["positions"][0] == ["Jab", "Buckler"] and seat(s, 1)["hand"] == []
    round_end(s)  # the next round's refresh
    back = seat(s, 1)
    if protection == "in place":
        assert back["hand"] == ["Jab"] and back["positions"][0] == ["Buckler"]
    else:
        assert "Buckler" in back["hand"]


@pytest.mark.rule("OS-TOK-2")
def test_os_tok_2_session_boost() -> None:
    s = ok(encounter(), "next", "move 1 2", "token 1 animus", "boost 1")
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)


@pytest.mark.rule("OS-TOK-3")
def test_os_tok_3_session_battleflow() -> None:
    s = ok(encounter(), "next", "play 1 A 2", "next", "play 2 B 2")
    ok(s, "token 2 battleflow", "battleflow 2 2")
    assert seat(s, 2)["positions"][1] == ["B"]


@pytest.mark.rule("OS-TOK-4")
def test_os_tok_4_session_defense_token() -> None:
    s = ok(encounter(), "token 1 defense", "enemy 1 B B R = B5* B4 R0")
    assert last(s)["losses"] == {"1": 9 // (3 + 0)}
    s = ok(encounter(), "token 1 defense", "enemy 1 B B R def=1 = B5* B4 R0")
    assert last(s)["losses"] == {"1": 9 // 4}


@pytest.mark.rule("OS-TOK-5")
def test_os_tok_5_session_empowered() -> None:
    s = ok(encounter(), "next", "token 1 empowered", "attack 1 head white=2 emp=1 up=2,2,3")
    colours = sorted(c[0] for c, extra in rec(s.state).draws[0].cards if not extra)
    assert colours == ["R", "Y", "Y"]
    s = ok(encounter(classes="Witch,Warden,Priest,Cur"), "next", "attack 1 head empower=5")
    assert [c[0] for c, extra in rec(s.state).draws[0].cards if not extra] == ["B", "B"]
    assert any("1 upgrade step(s) lost" in n for n in s.notices)


@pytest.mark.rule("OS-TOK-6")
def test_os_tok_6_redraw_turns_a_miss_into_a_hit() -> None:
    s = ok(encounter(), "next", "token 1 redraw", "attack 1 head white=2 = Y2 W0 W0")
    ok(s, "redraw 2 = W1", "resolve")
    assert last(s)["hit"] is True and last(s)["damage"] == 3


@pytest.mark.rule("OS-TOK-7")
def test_os_tok_7_companion_token_action() -> None:
    s = to_turns(encounter(companions="1"))
    ok(s, "token 1 battleflow")
    animus = v(s, "seat1.animus")
    ok(s, "companion 1 battleflow move")
    assert v(s, "seat1.animus") == animus and seat(s, 1)["positions"] == [[], [], [], []]
    assert "companions and allies" in no(s, "battleflow 1 2")
    ok(s, "token 1 animus", "companion 1 animus attack", "attack 1 head white=1 = Y0 W0", "resolve")
    assert last(s)["hit"] is False and s.state.prompt is None  # no determination for this attack


@pytest.mark.rule("OS-ATK-6")
def test_os_atk_6_cubes_then_whites() -> None:
    s = ok(encounter(classes="Priest,Warden,Cur,Witch"), "next", "attack 1 head white=3")
    counted = [c[0] for c, extra in rec(s.state).draws[0].cards if not extra]
    assert sorted(counted) == sorted(["R", "Y", "W", "W", "W"])


@pytest.mark.rule("OS-ATK-7")
def test_os_atk_7_unarmed_drops_weapon_might() -> None:
    s = ok(encounter(classes="Priest,Warden,Cur,Witch"), "next", "attack 1 head white=2 unarmed")
    assert [c[0] for c, extra in rec(s.state).draws[0].cards if not extra] == ["W", "W"]


@pytest.mark.rule("OS-ATK-8")
def test_os_atk_8_session_miss_and_excused_extra() -> None:
    s = ok(encounter(classes="Huntress,Warden,Priest,Witch"), "next", "attack 1 head white=1 = Y3 R0 W0",
           "resolve")
    assert last(s)["hit"] is False
    s = ok(encounter(classes="Huntress,Warden,Priest,Witch"), "next", "attack 1 head white=1 = Y0 R4* W2 R0",
           "resolve")
    assert last(s)["hit"] is True and last(s)["damage"] == 6


@pytest.mark.rule("OS-ATK-11")
def test_os_atk_11_redraw_again() -> None:
    s = ok(encounter(classes="Huntress,Warden,Priest,Witch"), "next", "token 1 redraw 2",
           "attack 1 head = Y2 R0", "redraw 2 = R0", "redraw 2 = R3", "resolve")
    assert last(s)["damage"] == 5 and seat(s, 1)["tokens"]["redraw"] == 0


@pytest.mark.rule("OS-ATK-13")
def test_os_atk_13_determination() -> None:
    s = ok(encounter(), "next", "token 1 redraw", "token 1 empowered",
           "attack 1 head white=2 emp=1 up=2,2,2 = Y0 B0 W1", "redraw 3 = W0", "resolve")
    assert last(s)["hit"] is False
    assert s.state.prompt is not None and s.state.prompt.id == "determination"
    ok(s, "choose 3")
    assert seat(s, 1)["tokens"] == {"redraw": 1, "empowered": 1, "defense": 1, "animus": 0, "battleflow": 0}


@pytest.mark.rule("OS-DMG-5")
def test_os_dmg_5_session_die_removed() -> None:
    s = ok(encounter(), "set boss.head 2", "next", "attack 1 head white=2 = Y3 W2 W2", "resolve")
    assert v(s, "boss.head") == 0 and "head" in rec(s.state).broken
    assert any("excess" in n for n in s.notices)


@pytest.mark.rule("OS-BRK-1")
def test_os_brk_1_any_cause_breaks() -> None:
    s = ok(encounter(), "set boss.head 1", "break head 2")
    assert list(rec(s.state).broken) == ["head"]
    assert rec(s.state).reactions[0].target == 2


@pytest.mark.rule("OS-BRK-2")
def test_os_brk_2_break_procedure() -> None:
    s = ok(encounter(), "next", "attack 1 head white=2 = Y3 W2 W2", "set boss.head 1", "break head 1")
    d = deck(s, "stage")
    assert rec(s.state).stage_now == 2
    assert d.stages[0].total == 0 and d.discard.count("S1.1") + d.discard.count("S1.2") >= 1
    reaction = rec(s.state).reactions[0]
    assert reaction.card.startswith("S2.") and reaction.target == 1
    assert str(rec(s.state).stage_faceup).startswith("S2.")
    assert any(n.startswith("reaction:") and n.endswith("targets seat 1: resolve it now (its attack: enemy 1)")
               for n in s.notices)  # the table is told the reaction is resolved at once, and how


@pytest.mark.rule("OS-BRK-4")
def test_os_brk_4_minions_never_react() -> None:
    s = ok(encounter(), "minion wolf 2 2", "next")
    before = deck(s, "stage").remaining
    ok(s, "attack 1 wolf white=2 = Y3 W2 W2", "resolve")
    assert "minion.wolf" not in s.state.tracks and deck(s, "stage").remaining == before
    assert not rec(s.state).reactions and rec(s.state).breaks == 0


@pytest.mark.rule("OS-STAGE-2")
def test_os_stage_2_card_discarded_at_once() -> None:
    s = pass_all(to_turns(encounter()))
    assert deck(s, "stage").discard.count(str(rec(s.state).stage_current)) == 1


@pytest.mark.rule("OS-STAGE-4")
def test_os_stage_4_next_card_faceup() -> None:
    s = pass_all(to_turns(encounter()))
    faceup = rec(s.state).stage_faceup
    assert faceup is not None and faceup != rec(s.state).stage_current


@pytest.mark.rule("OS-EATK-2")
def test_os_eatk_2_defender_draws_enemy_cards() -> None:
    s = ok(encounter(), "enemy 1 R R Y")
    assert deck(s, "enemy.red").discard.total == 2 and deck(s, "enemy.yellow").discard.total == 1
    assert deck(s, "might.red").discard.total == 0


@pytest.mark.rule("OS-EATK-3")
def test_os_eatk_3_defensive_card() -> None:
    s = ok(encounter(classes="Priest,Warden,Cur,Witch"), "enemy 1 B B shield=2 = B4 B4")
    assert last(s)["losses"] == {"1": 2}
    s = ok(encounter(classes="Priest,Warden,Cur,Witch"), "enemy 1 B B = B4 B4")
    assert last(s)["losses"] == {"1": 4}


@pytest.mark.rule("OS-EATK-4")
def test_os_eatk_4_session_no_critical_extras() -> None:
    s = ok(encounter(), "enemy 1 R R B = R0 R4* B3")
    assert last(s)["damage"] == 7 and deck(s, "enemy.red").discard.total == 2


@pytest.mark.rule("OS-EATK-5")
def test_os_eatk_5_session_multi_target() -> None:
    s = ok(encounter(classes="Witch,Priest,Warden,Cur"), "enemy 2,3 B R = B4 R2")
    assert last(s)["losses"] == {"2": 6 // 2, "3": 6 // 3}


@pytest.mark.rule("OS-EATK-6")
def test_os_eatk_6_unconscious_at_zero() -> None:
    s = ok(encounter(), "enemy 1 B B = B4 B3")
    assert v(s, "seat1.hp") == 6 - 2
    ok(s, "set seat1.hp 2", "enemy 1 B B = B4 B3")
    assert v(s, "seat1.hp") == 0 and seat(s, 1)["down"] is True


@pytest.mark.rule("OS-MIN-7")
def test_os_min_7_mob_one_draw() -> None:
    s = ok(encounter(), "enemy 1 R R R")
    if s.state.prompt is not None:  # the seat is asked only when it would lose HP
        ok(s, "choose 1")
    assert deck(s, "enemy.red").discard.total == 3 and "damage" in last(s)


@pytest.mark.rule("OS-KO-1")
def test_os_ko_1_unconscious() -> None:
    s = ok(encounter(), "set seat1.hp 1", "enemy 1 B B B = B5* B4 B0")
    assert seat(s, 1)["down"] and v(s, "seat1.hp") == 0
    assert any("model removed" in n for n in s.notices)


@pytest.mark.rule("OS-KO-2")
def test_os_ko_2_tally_for_knockouts() -> None:
    s = ok(encounter(), "set seat1.hp 0", "set seat2.hp 0", "break head", "break body", "break claws", "tally")
    t = rec(s.state).tally
    assert t is not None and t.ko_ticks == 2 and list(t.injuries) == [1, 2]
    assert t.items_lost["1"] == 2 and t.items_lost["3"] == 1


@pytest.mark.rule("OS-KO-3")
def test_os_ko_3_ally_enters() -> None:
    s = ok(encounter(), "set seat1.hp 0", "ally 1 men-at-arms")
    assert v(s, "seat1.hp") == 6
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (0, 2)
    assert v(s, "seat1.defense") == 2


@pytest.mark.rule("OS-KO-4")
def test_os_ko_4_ally_once_per_encounter() -> None:
    s = ok(encounter(), "set seat1.hp 0", "ally 1 men-at-arms", "ability 1 once interrupt")
    assert "already used" in no(s, "ability 1 once interrupt")


@pytest.mark.rule("OS-KO-5")
def test_os_ko_5_killed_ally_archived_or_returned() -> None:
    s = ok(encounter(), "set seat1.hp 0", "ally 1 men-at-arms", "set seat1.hp 0")
    assert list(rec(s.state).dead_allies) == ["men-at-arms"]
    replayed = ok(s, "set seat2.hp 0", "set seat3.hp 0", "set seat4.hp 0", "choose 1")
    assert list(rec(replayed.state).dead_allies) == []
    won = ok(encounter(), "set seat1.hp 0", "ally 1 men-at-arms", "set seat1.hp 0",
             "break head", "break body", "break claws", "tally")
    assert list(rec(won.state).tally.allies_archived) == ["men-at-arms"]


@pytest.mark.rule("OS-KO-6")
def test_os_ko_6_no_combat_ally_left(tmp_path: Path) -> None:
    path = custom_data(tmp_path, 'allies = ["men-at-arms", "men-at-arms", "men-at-arms", "men-at-arms"]',
                       'allies = ["men-at-arms"]')
    s = ok(encounter(data=path), "set seat1.hp 0", "ally 1 men-at-arms", "set seat2.hp 0")
    assert "no men-at-arms left" in no(s, "ally 2 men-at-arms")
    ok(s, "next")  # play continues with fewer figures


@pytest.mark.rule("OS-END-2")
def test_os_end_2_victory_ends_at_once() -> None:
    s = ok(encounter(), "minion a 1 1", "minion b 1 1", "minion c 2 1", "break head", "break body")
    before = deck(s, "stage").remaining
    ok(s, "break claws")
    assert rec(s.state).result == "victory" and deck(s, "stage").remaining == before
    assert not any(t.startswith("minion.") for t in s.state.tracks)
    assert "tally" in no(s, "next")


@pytest.mark.rule("OS-END-3")
def test_os_end_3_move_on_discards_tokens() -> None:
    s = ok(encounter(), "token 1 redraw", "token 2 defense")
    defeat(s)
    assert s.state.prompt is not None and s.state.prompt.id == "defeat"
    ok(s, "choose 2")
    assert all(sum(seat(s, n)["tokens"].values()) == 0 for n in (1, 2, 3, 4))
    ok(s, "tally")
    for n in (1, 2, 3, 4):  # everyone was knocked out: two items each to tick off
        ok(s, *(f"lose {n} {item}" for item in seat(s, n)["items"][:2]))
    assert s.state.over == "defeat"


@pytest.mark.rule("OS-END-4")
def test_os_end_4_replay_fixes_score() -> None:
    s = defeat(encounter(difficulty="pilgrim"))
    ok(s, "choose 1")
    assert v(s, "knockouts") == 5
    ok(s, "set seat1.hp 0", "break head", "break body", "break claws", "tally")
    assert v(s, "knockouts") == 5
    assert v(ok(defeat(encounter(difficulty="dread")), "choose 1"), "knockouts") == 2


@pytest.mark.rule("OS-END-5")
def test_os_end_5_conscious_after_replay_avoids_losses() -> None:
    s = defeat(encounter(classes="A'Dendri Ranger,Warden,Priest,Witch"))
    ok(s, "choose 1", "break head", "break body", "break claws", "tally")
    t = rec(s.state).tally
    assert t is not None and t.items_lost["1"] == 1 and 1 not in t.injuries


@pytest.mark.rule("OS-END-6")
def test_os_end_6_replay_setup() -> None:
    s = ok(encounter(difficulty="grim"), "permanent 1 defense", "token 1 redraw", "set seat1.hp 2")
    ok(defeat(s), "choose 1")
    assert v(s, "seat1.hp") == 5
    assert seat(s, 1)["tokens"] == {"redraw": 0, "empowered": 0, "defense": 1, "animus": 0, "battleflow": 0}
    assert (s.state.round, s.state.phase) == (1, "refresh")


@pytest.mark.rule("OS-HC-1")
def test_os_hc_1_hardcore_death() -> None:
    s = ok(encounter(hardcore="1", classes="Priest,Warden,Cur,Witch"), "set seat1.hp 0")
    assert seat(s, 1)["dead"] and list(rec(s.state).hardcore_dead) == ["Priest"]
    ok(s, "break head", "break body", "break claws", "tally")
    assert rec(s.state).tally.ko_ticks == 1


@pytest.mark.rule("OS-HC-3")
def test_os_hc_3_dead_items_archived_iron_kept() -> None:
    s = ok(encounter(hardcore="1", classes="Witch,Warden,Cur,Priest"), "set seat1.hp 0")
    iron = v(s, "iron")
    ok(s, "break head", "break body", "break claws", "tally")
    assert list(rec(s.state).tally.archived_items["1"]) == ["Gnarled Branch", "Tattered Flax Garment"]
    assert seat(s, 1)["items"] == [] and v(s, "iron") == iron


@pytest.mark.rule("OS-HC-4")
def test_os_hc_4_replay_prevents_deaths() -> None:
    s = defeat(encounter(hardcore="1"))
    ok(s, "choose 1")
    assert list(rec(s.state).hardcore_dead) == []
    assert not any(seat(s, n)["dead"] for n in (1, 2, 3, 4))
    assert v(s, "knockouts") == 4


@pytest.mark.rule("OS-STAT-2")
def test_os_stat_2_bleed_needs_a_trigger() -> None:
    s = ok(encounter(), "status 1 bleed 2")
    round_end(to_turns(s))
    assert v(s, "seat1.hp") == 6
    ok(s, "bleed 1 1")
    assert v(s, "seat1.hp") == 5


@pytest.mark.rule("OS-STAT-3")
def test_os_stat_3_session_crippled() -> None:
    s = round_end(to_turns(encounter()))
    ok(s, "next")
    pass_all(s)
    ok(s, "status 1 crippled")  # round 2, encounter phase
    ok(s, "next", "next", "next", "next")  # round 3 Oathsworn phase
    assert "crippled" in no(s, "move 1 1")
    pass_all(s)
    assert seat(s, 1)["crippled_until"] is None


@pytest.mark.rule("OS-FX-1")
def test_os_fx_1_aoe_one_draw() -> None:
    s = ok(encounter(classes="Witch,Priest,Warden,Cur"), "enemy 1,2 R W = R3 W2")
    assert last(s)["losses"] == {"1": 5 // 1, "2": 5 // 2}


@pytest.mark.rule("OS-FX-5")
def test_os_fx_5_cage_ends_with_failure() -> None:
    s = to_turns(encounter())
    ok(s, "status 1 caged")
    assert "caged" in no(s, "move 1 1")
    pass_all(s)
    ok(s, "next", "next")
    assert seat(s, 1)["caged_until"] == 2
    ok(s, "next", "next")
    pass_all(s)
    ok(s, "next", "next")
    assert seat(s, 1)["caged_until"] is None and any("cage ends" in n for n in s.notices)


@pytest.mark.rule("OS-FX-19")
def test_os_fx_19_thrown_shield() -> None:
    s = to_turns(encounter(classes="Warden,Priest,Cur,Witch"))
    ok(s, "throw 1 Buckler")
    assert v(s, "seat1.defense") == 2
    ok(s, "pickup 1 Buckler")
    assert v(s, "seat1.defense") == 3


@pytest.mark.rule("OS-FX-22")
def test_os_fx_22_defensive_play_costs_nothing() -> None:
    s = to_turns(encounter())
    animus = v(s, "seat1.animus")
    ok(s, "enemy 1 R shield=3 = R3")
    assert v(s, "seat1.animus") == animus


@pytest.mark.rule("OS-TALLY-1")
def test_os_tally_1_level_up() -> None:
    s = ok(encounter(chapter="3"), "break head", "break body", "break claws", "tally")
    assert seat(s, 1)["level"] == 4


@pytest.mark.rule("OS-TALLY-2")
def test_os_tally_2_next_common_deck() -> None:
    s = ok(encounter(chapter="3"), "break head", "break body", "break claws", "tally")
    assert rec(s.state).tally.common_deck == "chapter 4"


@pytest.mark.rule("OS-TALLY-3")
def test_os_tally_3_four_commons() -> None:
    s = ok(encounter(), "break head", "break body", "break claws", "tally")
    assert rec(s.state).tally.commons == 4


@pytest.mark.rule("OS-TALLY-5")
def test_os_tally_5_next_unique_deck() -> None:
    s = ok(encounter(chapter="3"), "break head", "break body", "break claws", "tally")
    assert rec(s.state).tally.unique_deck == "chapter 4"


@pytest.mark.rule("OS-TALLY-8")
def test_os_tally_8_injuries_only_for_knockouts() -> None:
    s = ok(encounter(), "set seat1.hp 0", "set seat2.hp 1", "break head", "break body", "break claws", "tally")
    assert list(rec(s.state).tally.injuries) == [1]


@pytest.mark.rule("OS-TALLY-10")
def test_os_tally_10_dead_allies_archived() -> None:
    s = ok(encounter(), "set seat1.hp 0", "ally 1 men-at-arms", "set seat1.hp 0", "ally 1 men-at-arms",
           "set seat1.hp 0", "break head", "break body", "break claws", "tally")
    assert list(rec(s.state).tally.allies_archived) == ["men-at-arms", "men-at-arms"]


@pytest.mark.rule("OS-TOK-1")
def test_os_tok_1_tokens_discarded_after_epilogue() -> None:
    s = ok(encounter(), "token 1 redraw 2", "break head", "break body", "break claws", "tally")
    assert seat(s, 1)["tokens"]["redraw"] == 0


@pytest.mark.rule("OS-TIME-5")
def test_os_time_5_extra_unique_in_the_tally() -> None:
    s = ok(new(), "time 3", "next", "break head", "break body", "break claws", "tally")
    assert rec(s.state).tally.uniques == 3


@pytest.mark.rule("OS-LVL-1")
def test_os_lvl_1_level_two_after_chapter_one() -> None:
    s = ok(encounter(), "break head", "break body", "break claws", "tally")
    assert seat(s, 1)["level"] == 2


@pytest.mark.rule("OS-LVL-11")
def test_os_lvl_11_companion_growth() -> None:
    s = ok(encounter(companions="2"), "break head", "break body", "break claws", "tally")
    assert seat(s, 2)["level"] == 2 and seat(s, 2)["max_animus"] == 2
    s = ok(encounter(companions="2"), "permanent 2 animus")
    assert seat(s, 2)["permanent"] == {"animus": 1} and seat(s, 2)["max_animus"] == 2


@pytest.mark.rule("OS-ALLY-1")
def test_os_ally_1_non_combat_ally_never_fights() -> None:
    s = ok(encounter(), "set seat1.hp 0")
    assert "not a combat ally" in no(s, "ally 1 guide")


@pytest.mark.rule("OS-BRK-7")
def test_os_brk_7_simultaneous_breaks() -> None:
    s = ok(encounter(), "next", "break head,body 1")
    assert rec(s.state).stage_now == 2  # one check after both dice are gone (stage 2 from the first break)
    reactions = rec(s.state).reactions
    assert len(reactions) == 2 and all(r.target == 1 for r in reactions)
    assert reactions[0].card != reactions[1].card


@pytest.mark.rule("OS-FX-21")
def test_os_fx_21_interrupt_as_often_as_paid() -> None:
    s = ok(encounter(), "next", "move 1 1", "play 1 Slash 1", "next")  # seat 1 has 2 animus left
    ok(s, "play 1 Riposte 2 1 interrupt", "play 1 Parry 3 1 interrupt")  # no count limit, only the cost
    assert v(s, "seat1.animus") == 0
    assert "only 0" in no(s, "play 1 Feint 2 1 interrupt")
    assert "cooldown" in no(s, "play 1 Riposte 2 0 interrupt")


@pytest.mark.rule("OS-DMG-4")
def test_os_dmg_4_minion_hp_slot() -> None:
    s = ok(encounter(), "minion brute 2 1", "next", "attack 1 brute white=1 = Y1 W0", "resolve")
    assert v(s, "minion.brute") == 1
    ok(s, "next", "attack 2 brute white=1 = Y1 R0 W1", "resolve")
    assert "minion.brute" not in s.state.tracks and "brute" not in rec(s.state).minions


@pytest.mark.rule("OS-MIN-1")
def test_os_min_1_stage_activated_minions_skip_step_two() -> None:
    s = ok(encounter(), "minion m 1 1", "minion n 1 1", "minion o 1 1")
    pass_all(to_turns(s))
    ok(s, "activated m", "next")
    assert list(rec(s.state).minions_due) == ["n", "o"]


@pytest.mark.rule("OS-ATK-15")
def test_os_atk_15_bonus_applies_to_every_target() -> None:
    s = ok(encounter(), "minion a 6 1", "minion b 6 1", "minion c 6 1", "next",
           "attack 1 a,b,c white=2 bonus=1 = Y2 W2 W1", "resolve")
    assert last(s)["damage"] == 6 and last(s)["losses"] == {"a": 6, "b": 6, "c": 6}
    assert not any(t.startswith("minion.") for t in s.state.tracks)


@pytest.mark.rule("OS-ATK-4")
def test_os_atk_4_choose_the_location_after_the_draw() -> None:
    s = ok(encounter(), "next", "attack 1 head|body white=2 = Y3 W2 W1", "resolve")
    assert s.state.prompt is not None and s.state.prompt.options == ("head", "body")
    ok(s, "choose 2")
    assert (v(s, "boss.head"), v(s, "boss.body")) == (6, 6 - 6 // 2)


@pytest.mark.rule("OS-FX-12")
def test_os_fx_12_consumed_attacks_its_location_once() -> None:
    s = ok(encounter(companions="1"), "status 1 consumed head", "next", "set seat1.animus 1")
    assert "consumed" in no(s, "move 1 1")
    assert "only attack head" in no(s, "attack 1 body")
    ok(s, "attack 1 head white=1 = Y2 W1", "resolve")
    assert v(s, "seat1.animus") == 0
    assert "already attacked" in no(s, "attack 1 head")


@pytest.mark.rule("OS-FX-13")
def test_os_fx_13_released_after_six_hp() -> None:
    s = ok(encounter(), "status 2 consumed head", "next", "attack 1 head white=2 = Y3 W2 W2", "resolve")
    assert seat(s, 2)["consumed"] == "head" and v(s, "boss.head") == 4  # 2 HP removed so far
    ok(s, "next", "next", "attack 3 head white=2 = R4* Y3 W1 W1 R3", "resolve")
    assert v(s, "boss.head") == 0 and seat(s, 2)["consumed"] is None


@pytest.mark.rule("OS-FX-4")
def test_os_fx_4_escape_attempt() -> None:
    s = ok(to_turns(encounter()), "status 1 caged", "escape 1 8 4 friends=2 = W2 W1 W1 W0", "resolve")
    assert seat(s, 1)["caged_until"] is None and v(s, "seat1.animus") == 0
    s = ok(to_turns(encounter()), "status 1 caged", "escape 1 8 4 = W2 W1 W1 W0", "resolve")
    assert seat(s, 1)["caged_until"] == 2
    assert "already tried" in no(s, "escape 1 8 1")


@pytest.mark.rule("OS-TOK-8")
def test_os_tok_8_companion_spends_a_defense_token() -> None:
    s = ok(encounter(companions="4", classes="Warden,Huntress,Priest,Witch"), "token 4 defense")
    assert v(s, "seat4.defense") == 3
    ok(s, "enemy 4 R R def=1 = R3 R3")
    assert last(s)["losses"] == {"4": 1} and seat(s, 4)["tokens"]["defense"] == 0


@pytest.mark.rule("OS-STAGE-3")
def test_os_stage_3_cards_drawn_while_a_card_resolves_wait() -> None:
    s = pass_all(to_turns(encounter()))
    current = rec(s.state).stage_current
    ok(s, "set boss.head 1", "break head 2")  # the stage card's effect breaks a location
    assert not rec(s.state).reactions
    assert current and any("waits until a stage 1 card has resolved" in n for n in s.notices)
    ok(s, "next")  # the stage card has resolved; the reaction comes next
    reactions = rec(s.state).reactions
    assert len(reactions) == 1 and reactions[0].target == 2


@pytest.mark.rule("OS-STAGE-7")
def test_os_stage_7_boss_on_fire_draws_an_extra_card() -> None:
    s = pass_all(to_turns(encounter()))
    ok(s, "set boss.claws 1", "bossfire claws")
    assert v(s, "boss.claws") == 0 and not rec(s.state).reactions
    ok(s, "next")
    reaction = rec(s.state).reactions[0]
    assert reaction.target is None and any("closest Oathsworn" in n for n in s.notices)
    ok(s, "bossfire head")
    assert v(s, "boss.head") == 5


@pytest.mark.rule("OS-MOVE-3")
def test_os_move_3_facing_not_while_resolving() -> None:
    s = ok(to_turns(encounter()), "attack 1 head white=1 = Y2 W1")
    assert "resolving" in no(s, "face 1 NE")
    ok(s, "resolve", "face 1 NE")
    assert seat(s, 1)["facing"] == "NE" and v(s, "seat1.animus") == 3


@pytest.mark.rule("OS-DMG-7")
def test_os_dmg_7_location_bonus_survives_the_break() -> None:
    s = ok(encounter(), "break head", "next", "attack 1 head>body white=1 bonus=2 = Y2 W2", "resolve")
    assert last(s)["damage"] == 6 and v(s, "boss.body") == 6 - 6 // 2
    assert "still has its die" in no(ok(s, "next"), "attack 2 body>claws")


HAND = "Jab:0 Slash:1 Guard:1 Cleave:2 Parry:2 Roar:3 Rush:3"


@pytest.mark.rule("OS-ESET-5")
def test_os_eset_5_declared_hand() -> None:
    s = ok(encounter(), f"hand 1 {HAND}")
    assert seat(s, 1)["hand"] == ["Jab", "Slash", "Guard", "Cleave", "Parry", "Roar", "Rush"]
    assert "two each" in no(s, "hand 2 A:0 B:0 C:1 D:2 E:2 F:3 G:3")
    ok(s, "next", "play 1 Cleave 1")  # the cooldown comes from the hand; 1 animus
    assert seat(s, 1)["positions"][2] == ["Cleave"] and "Cleave" not in seat(s, 1)["hand"]
    assert v(s, "seat1.animus") == 2
    assert "not one of" in no(s, "play 1 Smash 1 interrupt")
    ok(s, "next", "pass 2", "pass 3", "pass 4")
    assert "not in seat 1's hand" in no(s, "play 1 Cleave 1 interrupt")


@pytest.mark.rule("OS-ESET-8")
def test_os_eset_8_one_archetype_side() -> None:
    s = ok(encounter(companions="2"), "archetype 2 Guardian B", "next", "next")
    assert seat(s, 2)["archetype"] == {"card": "Guardian", "side": "B"}
    assert "side A is not usable" in no(s, "ability 2 A1")
    ok(s, "ability 2 B1")
    assert "archetype cards belong to companions" in no(s, "archetype 1 Guardian A")


@pytest.mark.rule("OS-COMP-2")
def test_archetype_cards_from_the_data_name_their_abilities(tmp_path: Path) -> None:
    """An archetype card typed into the data file (none is public) is checked by name; its abilities
    are named when used, and one the card marks as an interrupt is usable off turn (OS-COMP-2)."""
    path = custom_data(tmp_path, "# [archetype.\"CARD NAME\"]", '[archetype.Bulwark]\nverified = true\n'
                       'A = [{ name = "Brace" }, { name = "Cover", interrupt = true }]\n'
                       'B = [{ name = "Charge" }, { name = "Rally" }]\n# [archetype.\"CARD NAME\"]')
    s = encounter(data=path, companions="2")
    assert "no archetype card 'Guardian'" in no(s, "archetype 2 Guardian A")
    ok(s, "archetype 2 Bulwark A")
    assert "seat 2: Bulwark side A: Brace and Cover" in s.notices
    ok(s, "next")  # seat 1's turn
    assert "only an interrupt" in no(s, "ability 2 A1")
    ok(s, "ability 2 A2")  # Cover is an interrupt on the card
    assert "seat 2: Cover (interrupt)" in s.notices and seat(s, 2)["cubes"] == ["2"]


@pytest.mark.rule("OS-ESET-6")
def test_os_eset_6_chapter_one_plays_the_star_cards(tmp_path: Path) -> None:
    stars = '["Jab", "Slash", "Guard", "Cleave", "Parry", "Roar", "Rush"]'
    path = custom_data(tmp_path, '[class.Warden]\nitems = ["Short Sword", "Pig Iron Coat", "Buckler"]',
                       f'[class.Warden]\nitems = ["Short Sword", "Pig Iron Coat", "Buckler"]\nstar_cards = {stars}')
    s = encounter(data=path)
    assert "starting cards" in no(s, "hand 1 Jab:0 Slash:1 Guard:1 Cleave:2 Parry:2 Roar:3 Smash:3")
    ok(s, f"hand 1 {HAND}")
    ok(encounter(data=path, chapter="2"), "hand 1 Jab:0 Slash:1 Guard:1 Cleave:2 Parry:2 Roar:3 Smash:3")


@pytest.mark.rule("OS-DMG-6")
def test_os_dmg_6_damage_aimed_at_a_broken_location_goes_to_the_next_with_a_die() -> None:
    s = ok(encounter(), "next", "set boss.head 0")
    assert "broken" in no(s, "attack 1 head white=2 = Y3 W2 W2")
    body = v(s, "boss.body")
    ok(s, "attack 1 head>body white=2 = Y3 W2 W2", "resolve")
    assert v(s, "boss.body") == body - 7 // 2  # body's DEFENSE 2 takes the hit


@pytest.mark.rule("OS-STAGE-5")
def test_os_stage_5_a_special_rule_changes_the_stage_without_a_break(tmp_path: Path) -> None:
    from .helpers import reloaded, stored

    save = str(tmp_path / "s.db")
    s = ok(stored(save, part="encounter"), "next")
    assert str(rec(s.state).stage_faceup).startswith("S1.")
    ok(s, "stage 2")
    d = deck(s, "stage")
    assert rec(s.state).stage_now == 2 and d.stages[0].total == 0
    assert str(rec(s.state).stage_faceup).startswith("S2.")
    assert rec(s.state).breaks == 0 and not rec(s.state).reactions  # no break, no reaction
    assert "later stage" in no(s, "stage 2")
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-END-2")
def test_after_the_victory_a_pass_no_longer_moves_the_round_on() -> None:
    """The last location breaks on seat 1's turn: the encounter is over, so the passes that would
    carry the round into the stage card are refused (the tally is next), as next is."""
    s = ok(encounter(), "next", "break head", "break body", "break claws")
    assert rec(s.state).part == "epilogue" and (s.state.phase, s.state.step) == ("oathsworn", "turns")
    assert no(s, "pass 1") == "the encounter is over: tally"
    ok(s, "tally")


@pytest.mark.rule("OS-ATK-14")
def test_a_pass_waits_for_the_open_draw() -> None:
    s = ok(encounter(), "next", "attack 1 head white=2")
    assert no(s, "pass 1") == "finish the open draw first (redraw N or resolve)"
