"""Story part through the real session: setup, map and time track, events, items, iron, trade,
checks, story combat, secret decisions, MIGHT deck resets."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.chance import Deck
from tablekeeper.core.session import Session
from tablekeeper.games.oathsworn.data import load
from tablekeeper.games.oathsworn.record import rec

from .helpers import encounter, last, new, no, ok, seat, v


def deck(s: Session, name: str) -> Deck:
    src = s.state.sources[name]
    assert isinstance(src, Deck)
    return src


@pytest.mark.rule("OS-GEN-3")
def test_os_gen_3_always_four_oathsworn() -> None:
    for players in (1, 3):
        s = new(seats=players)
        assert s.state.seats == 4
        assert rec(s.state).players == players
        assert all(f"seat{n}.hp" in s.state.tracks for n in (1, 2, 3, 4))


@pytest.mark.rule("OS-SETUP-1")
def test_os_setup_1_hp_die_at_start() -> None:
    assert v(new(), "seat1.hp") == 6
    assert v(encounter(hp="4,6,6,6"), "seat1.hp") == 4


@pytest.mark.rule("OS-SETUP-2")
def test_os_setup_2_regen_tracker() -> None:
    s = new()
    assert v(s, "seat1.regen") == 3
    assert seat(s, 1)["max_animus"] == 6


@pytest.mark.rule("OS-SETUP-3")
def test_os_setup_3_all_gems_on_reserve() -> None:
    s = new()
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (6, 0)


@pytest.mark.rule("OS-SETUP-4")
def test_os_setup_4_iron_and_starting_items() -> None:
    s = new(classes="Cur,Warden,Priest,Witch")
    assert v(s, "iron") == 3 * 4
    assert sorted(seat(s, 1)["items"]) == ["Bone Knife", "Bone Knife", "Tattered Rawhide Wrappings"]


@pytest.mark.rule("OS-SETUP-7")
def test_os_setup_7_companion_max_animus() -> None:
    s = new(companions="2", chapter="5")
    assert seat(s, 2)["level"] == 5
    assert seat(s, 2)["max_animus"] == 2
    assert s.state.tracks["seat2.animus_reserve"].hi == 2


@pytest.mark.rule("OS-SETUP-9")
def test_os_setup_9_allies_and_player_aids() -> None:
    s = new(seats=3)
    assert list(rec(s.state).allies) == ["men-at-arms"] * 4
    assert rec(s.state).player_aids == 6


@pytest.mark.rule("OS-SETUP-11")
def test_os_setup_11_event_decks() -> None:
    s = new()
    assert deck(s, "events.city").remaining == 6
    assert deck(s, "events.deepwood").remaining == 6


@pytest.mark.rule("OS-NAV-2")
def test_os_nav_2_place_token() -> None:
    s = ok(new(), "place 12")
    assert list(rec(s.state).map) == [12]


@pytest.mark.rule("OS-NAV-3")
def test_os_nav_3_travel() -> None:
    s = ok(new(), "place 4", "place 7", "travel 7")
    assert rec(s.state).marker == 7
    assert list(rec(s.state).track_tokens) == [7]
    assert list(rec(s.state).map) == [4]
    assert "no location token" in no(s, "travel 9")


@pytest.mark.rule("OS-NAV-4")
def test_os_nav_4_goto() -> None:
    s = ok(new(), "goto 5")
    assert rec(s.state).marker == 5 and v(s, "time.used") == 1


@pytest.mark.rule("OS-TIME-1")
def test_os_time_1_one_unit_per_move() -> None:
    s = ok(new(), "goto 3", "place 28")
    before = v(s, "time.used")
    ok(s, "travel 28")
    assert v(s, "time.used") == before + 1


@pytest.mark.rule("OS-TIME-2")
def test_os_time_2_fill_order() -> None:
    s = ok(new(), "time 9")
    chapter = load().chapter(1)
    filled = [chapter.slot_position(k) for k in range(1, v(s, "time.used") + 1)]
    assert filled == [(0, c) for c in range(8)] + [(1, 0)]
    assert chapter.slot_position(v(s, "time.used") + 1) == (1, 1)


@pytest.mark.rule("OS-TIME-3")
def test_os_time_3_immediate_effect_before_location() -> None:
    s = ok(new(), "goto 1", "goto 2", "goto 3")
    notices = list(s.notices)
    assert notices[0].startswith("time slot 3")
    assert notices[1].startswith("city event ")  # the card as it is printed: the deck and its number
    assert notices[-1] == "read location 3"
    assert deck(s, "events.city").remaining == 5


@pytest.mark.rule("OS-TIME-3")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_effects_of_a_time_track_not_checked_are_marked_on_the_screen_and_in_the_notices(
        tmp_path: Path, protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in time tracks are a reading (M12): the slot effects the device fires (an event card
    drawn at slot 3, tokens handed out for empty slots at the story's end) carry the "?" of a number
    not checked, and so does the track display, whose key says what "?" means. A copy of the data
    with the track checked shows none. With the marking removed, the notices read as printed facts."""
    from tablekeeper.games.oathsworn import story
    from tablekeeper.games.oathsworn.table import UNCHECKED_LEGEND

    if protection == "protection-removed":
        monkeypatch.setattr(story, "_slot", lambda chapter, number: str(number))
    s = ok(new(), "goto 1", "goto 2", "goto 3")
    if protection == "protection-removed":
        assert next(iter(s.notices)).startswith("time slot 3:")
        return
    assert next(iter(s.notices)).startswith("time slot 3?: draw a city event")
    track = s.game.panels(s.state)["track"]
    assert track.lines[0] == "time used 3 of 16?" and UNCHECKED_LEGEND in track.legend
    ok(s, "next")
    assert any(n.startswith("empty slot 11?: each Oathsworn gains 1 redraw token") for n in s.notices)
    text = Path(load.__code__.co_filename).with_name("data").joinpath("oathsworn.toml").read_text(encoding="utf-8")
    head, _, tail = text.partition("[chapter.1]")
    checked = tmp_path / "checked.toml"
    checked.write_text(head + "[chapter.1]" + tail.replace("verified = false", "verified = true", 1), encoding="utf-8")
    s = ok(new(data=str(checked)), "goto 1", "goto 2", "goto 3")
    assert next(iter(s.notices)).startswith("time slot 3: draw a city event")
    assert s.game.panels(s.state)["track"].lines[0] == "time used 3 of 16"


@pytest.mark.rule("OS-TIME-4")
def test_os_time_4_end_of_story_only_if_empty() -> None:
    s = ok(new(), "time 10", "next")
    assert any(n.startswith("empty slot 11") for n in s.notices)
    s = ok(new(), "time 11", "next")
    assert not any(n.startswith("empty slot 11") for n in s.notices)


@pytest.mark.rule("OS-TIME-5")
def test_os_time_5_extra_unique_box() -> None:
    s = ok(new(), "time 3", "next")
    assert rec(s.state).extra_unique is True
    full = ok(new(), "time 16", "next")
    assert rec(full.state).extra_unique is False


@pytest.mark.rule("OS-EVT-1")
def test_os_evt_1_event_archived() -> None:
    s = ok(new(), "event city")
    assert deck(s, "events.city").remaining == 5


@pytest.mark.rule("OS-EVT-2")
def test_os_evt_2_new_event_shuffled_in() -> None:
    s = ok(new(), "event city", "event city", "event city")
    assert deck(s, "events.city").remaining == 3
    ok(s, "addevent city city9")
    assert deck(s, "events.city").remaining == 4


@pytest.mark.rule("OS-ITEM-4")
def test_os_item_4_backpack_capacity() -> None:
    s = ok(new(), "gain " + ", ".join(["Cudgel"] * 12))
    assert s.state.prompt is None
    ok(s, "gain Hatchet")
    assert s.state.prompt is not None and s.state.prompt.id == "archive"
    ok(s, "choose 13")
    assert len(rec(s.state).backpack) == 12 and "Hatchet" not in rec(s.state).backpack


@pytest.mark.rule("OS-ITEM-5")
def test_os_item_5_no_trading_in_encounter() -> None:
    s = ok(encounter(), "gain Cudgel")
    assert "story" in no(s, "equip 1 Cudgel")


@pytest.mark.rule("OS-ITEM-7")
def test_os_item_7_unequip_updates_defense() -> None:
    s = new(classes="Warden,Huntress,Priest,Witch")
    assert v(s, "seat1.defense") == 3
    ok(s, "unequip 1 Pig Iron Coat")
    assert v(s, "seat1.defense") == 1


@pytest.mark.rule("OS-ITEM-8")
def test_os_item_8_petition_marks_knockouts() -> None:
    s = ok(new(), "petition Cudgel, Hatchet, Buckler")
    assert v(s, "knockouts") == 3


@pytest.mark.rule("OS-IRON-3")
def test_os_iron_3_verb_pays_with_backpack_items() -> None:
    s = ok(new(), "set iron 3", "gain Great Maul, Pig Iron Coat")
    ok(s, "loseiron 7 Great Maul, Pig Iron Coat")  # values 5 and 4 (data): 3 iron, then 3, then 2
    assert v(s, "iron") == 0
    assert last(s)["items_lost"] == ["Great Maul", "Pig Iron Coat"]
    assert last(s)["unpaid"] == 0


@pytest.mark.rule("OS-IRON-4")
def test_os_iron_4_verb_never_takes_equipped() -> None:
    s = ok(new(), "set iron 2")
    items = seat(s, 1)["items"]
    ok(s, "loseiron 10")
    assert v(s, "iron") == 0 and seat(s, 1)["items"] == items and last(s)["unpaid"] == 8


@pytest.mark.rule("OS-HP-2")
def test_os_hp_2_hp_carries_into_the_encounter() -> None:
    s = ok(new(), "set seat1.hp 3", "next")
    assert rec(s.state).part == "encounter" and v(s, "seat1.hp") == 3
    assert v(new(chapter="2"), "seat1.hp") == 6


@pytest.mark.rule("OS-MIGHT-3")
def test_os_might_3_reshuffle_when_empty() -> None:
    s = new()
    for _ in range(17):
        ok(s, "draw might.white")
    assert deck(s, "might.white").remaining == 1
    ok(s, "check company 1 3")
    assert any("reshuffled" in n for n in s.notices)
    white = deck(s, "might.white")
    drawn = len(rec(s.state).draws[0].cards)
    assert white.remaining == 18 - drawn and white.discard.total == drawn


@pytest.mark.rule("OS-MIGHT-5")
def test_os_might_5_story_token_reset() -> None:
    s = ok(new(), "token 1 defense", "draw might.white", "draw might.red")
    ok(s, "reset 1 defense white red")
    assert deck(s, "might.white").discard.total == 0 and deck(s, "might.red").discard.total == 0
    e = ok(encounter(), "token 1 defense")
    assert "story" in no(e, "reset 1 defense white")


@pytest.mark.rule("OS-MIGHT-6")
def test_os_might_6_refresh_chosen_piles_whole() -> None:
    s = new()
    for _ in range(5):
        ok(s, "draw might.white")
    for _ in range(3):
        ok(s, "draw might.red")
    ok(s, "refresh white")
    assert deck(s, "might.white").discard.total == 0 and deck(s, "might.white").remaining == 18
    assert deck(s, "might.red").discard.total == 3
    assert "not a MIGHT colour" in no(s, "refresh red 2")  # a pile goes back whole: only colours are named


@pytest.mark.rule("OS-MIGHT-7")
def test_os_might_7_reset_at_end_of_part() -> None:
    story_end = ok(new(), "draw might.white", "draw might.black", "draw enemy.red", "next")
    encounter_end = ok(encounter(), "draw might.white", "enemy 1 R B", "choose 1", "break head", "break body",
                       "break claws")
    for s in (story_end, encounter_end):
        for side in ("might", "enemy"):
            for colour in ("white", "yellow", "red", "black"):
                d = deck(s, f"{side}.{colour}")
                assert d.remaining == 18 and d.discard.total == 0


@pytest.mark.rule("OS-CHECK-1")
def test_os_check_1_each_oathsworn() -> None:
    s = ok(new(), "check each 5 3,4,2,10 type=survival")
    draws = rec(s.state).draws
    assert len(draws) == 4
    assert [sum(1 for _, extra in d.cards if not extra) for d in draws] == [3, 4, 2, 10]
    assert [d.seat for d in draws] == [1, 2, 3, 4]


@pytest.mark.rule("OS-CHECK-3")
def test_os_check_3_session_check() -> None:
    s = ok(new(), "check company 4 4 = W2 W1 W0 W1", "resolve")
    assert last(s)["success"] is True
    s = ok(new(), "check company 3 4 = W2 W2 W0 W0", "resolve")
    assert last(s)["success"] is False


@pytest.mark.rule("OS-CHECK-4")
def test_os_check_4_session_critical_chain() -> None:
    s = ok(new(), "check company 5 3 = W2* W1 W0 W2* W0", "resolve")
    assert last(s) == {"kind": "check", "seat": None, "success": True, "total": 5, "blanks": 1, "successes": 1}
    assert "extra" in no(new(), "check company 5 3 = W2* W1 W0")


@pytest.mark.rule("OS-CHECK-5")
def test_os_check_5_session_redraw() -> None:
    s = ok(new(), "token 1 redraw", "check 1 3 3 = W1 W0 W0", "redraw 3 = W2", "resolve")
    assert last(s)["success"] is True and last(s)["total"] == 3
    assert seat(s, 1)["tokens"]["redraw"] == 0


@pytest.mark.rule("OS-CHECK-6")
def test_os_check_6_session_empowered() -> None:
    s = ok(new(), "token 1 empowered")
    assert "MIGHT check" in no(s, "check 1 3 2 type=survival emp=1")
    ok(s, "check 1 3 2 type=might emp=1")
    colours = sorted(c[0] for c, _ in rec(s.state).draws[0].cards[:2])
    assert colours != ["W", "W"]


@pytest.mark.rule("OS-CHECK-8")
def test_os_check_8_free_trait_redraws() -> None:
    s = ok(new(traits="keen-eyed:2"), "check each 3 2,2,2,2 type=spot")
    assert [d.free for d in rec(s.state).draws] == [2, 2, 2, 2]
    s = ok(new(traits="keen-eyed:4"), "check 1 3 2 type=spot")
    assert rec(s.state).draws[0].free == 3


@pytest.mark.rule("OS-CHECK-9")
def test_os_check_9_secret_decision() -> None:
    s = ok(new(seats=3), "set seat2.hp 4", "secret open", "set seat1.hp 2", "set seat2.hp 2", "set seat3.hp 5")
    assert s.game.panels(s.state)["seat1"].big == "?"
    ok(s, "secret reveal")
    assert last(s)["choices"] == [2, 2, 5]
    assert [v(s, f"seat{n}.hp") for n in (1, 2, 3)] == [6, 4, 6]


@pytest.mark.rule("OS-SCOMBAT-1")
def test_os_scombat_1_tokens_yes_abilities_no() -> None:
    s = ok(new(), "token 1 redraw")
    assert "item abilities" in no(s, "attack 1 6 item")
    ok(s, "attack 1 6 white=1 = Y0 W1", "redraw 1 = Y2", "resolve")
    assert last(s)["damage"] == 3


@pytest.mark.rule("OS-SCOMBAT-2")
def test_os_scombat_2_cubes_plus_whites() -> None:
    s = ok(new(classes="Thracian Blade,Warden,Priest,Witch"), "attack 1 6 white=10")
    assert sum(1 for _, extra in rec(s.state).draws[0].cards if not extra) == 11
    assert "0 to 10" in no(new(classes="Thracian Blade,Warden,Priest,Witch"), "attack 1 6 white=11")


@pytest.mark.rule("OS-SCOMBAT-4")
def test_os_scombat_4_session_fail_loses_hp() -> None:
    s = ok(new(), "attack 1 6 white=1 = Y3 W2", "resolve")
    assert last(s)["success"] is False and v(s, "seat1.hp") == 5
    s = ok(new(), "attack 1 6 white=2 = Y3 W0 W2* W1", "resolve")
    assert last(s)["success"] is True and last(s)["damage"] == 6 and v(s, "seat1.hp") == 6
    s = ok(new(), "attack 1 6 white=3 = Y3 W0 W0 W2* W2* W2", "resolve")
    assert last(s)["success"] is False and v(s, "seat1.hp") == 5


@pytest.mark.rule("OS-SCOMBAT-5")
def test_os_scombat_5_fight_always_won() -> None:
    s = new()
    for n in (1, 2, 3, 4):
        ok(s, f"attack {n} 20", "resolve")
    assert "the fight is won (OS-SCOMBAT-5)" in s.notices
    assert all(v(s, f"seat{n}.hp") == 5 for n in (1, 2, 3, 4))


@pytest.mark.rule("OS-SCOMBAT-1")
def test_an_open_round_of_combat_holds_the_story_until_every_oathsworn_attacked() -> None:
    """Each Oathsworn must draw an attack: until the last one has, travel, checks, time and the story's
    end are refused, naming who still attacks; that last attack closes the fight, won. (It stayed
    open across travel and checks, and only undo closed it.)"""
    s = ok(new(), "place 4", "attack 1 6 white=2 = Y3 W2 W1", "resolve")
    for line in ("travel 4", "goto 5", "check company 4 4", "time 1", "next"):
        assert "seats 2, 3, 4 must draw an attack first" in no(s, line)
    assert "against DEFENSE 6" in no(s, "attack 2 5")  # one round of combat, one enemy
    ok(s, "token 2 redraw", "plan 2 6 white=2")  # what serves the fight goes on
    ok(s, "attack 2 6 white=2", "resolve", "attack 3 6", "resolve")
    assert "seat 4 must draw an attack first" in no(s, "travel 4")
    ok(s, "attack 4 6", "resolve")
    assert "the fight is won (OS-SCOMBAT-5)" in s.notices and rec(s.state).fight is None
    ok(s, "travel 4", "attack 1 3", "resolve")  # the story goes on; a new fight may meet another DEFENSE
    assert rec(s.state).fight_defense == 3


@pytest.mark.rule("OS-TRADE-1")
def test_os_trade_1_runner_keeps_marker() -> None:
    s = ok(new(), "goto 5", "runner")
    assert rec(s.state).marker == 5 and v(s, "time.used") == 1 and v(s, "iron") == 11


@pytest.mark.rule("OS-TRADE-2")
def test_os_trade_2_session_runners() -> None:
    s = ok(new(chapter="3"), "runner", "runner")
    assert v(s, "iron") == 12 - 6
    s = ok(new(chapter="3", traits="well-connected"), "runner", "runner")
    assert v(s, "iron") == 12


@pytest.mark.rule("OS-TRADE-3")
def test_os_trade_3_session_apothecary() -> None:
    s = ok(new(chapter="2"), "runner", "curatives 3")
    assert v(s, "iron") == 12 - 8 and rec(s.state).curatives == 3
    s = ok(new(chapter="2", traits="herbalist"), "runner", "curatives 3")
    assert v(s, "iron") == 12 - 8 and rec(s.state).curatives == 6


@pytest.mark.rule("OS-TRADE-4")
def test_os_trade_4_session_banksmith() -> None:
    s = ok(new(), "gain Great Maul", "sell Great Maul")  # value 5 in the data
    assert v(s, "iron") == 12 + 3
    ok(s, "buy Pig Iron Coat")  # value 4
    assert v(s, "iron") == 12 + 3 - 4


@pytest.mark.rule("OS-DIFF-1")
def test_os_diff_1_change_only_between_chapters() -> None:
    s = ok(new(), "difficulty grim")
    assert v(s, "seat1.hp") == 5
    assert "between chapters" in no(encounter(), "difficulty grim")


@pytest.mark.rule("OS-DIFF-2")
def test_os_diff_2_difficulty_levels() -> None:
    s = new(difficulty="pilgrim", classes="Priest,Warden,Cur,Witch")
    assert v(s, "seat1.defense") == 2 + 1
    assert v(new(difficulty="dread"), "seat1.hp") == 4
    assert load().difficulties["grim"].extra_items == 1


@pytest.mark.rule("OS-LVL-12")
def test_os_lvl_12_tough_as_nails_once() -> None:
    s = ok(new(traits="tough as nails"), "set seat1.hp 4", "tough 1")
    assert v(s, "seat1.hp") == 5 and v(s, "time.used") == 1
    assert "already used" in no(s, "tough 1")
    s = ok(new(traits="tough as nails"), "tough 2")
    assert v(s, "seat2.hp") == 6


@pytest.mark.rule("OS-SAVE-1")
def test_os_save_1_saved_story_keeps_hp_and_tokens() -> None:
    s = ok(new(), "set seat1.hp 4", "token 1 redraw 2", "next")
    resumed = Session(s.game, seats=4, seed=7, entries=s.entries)
    # 2 kept, and 1 more: the story's end left slot 11 empty, whose reward is a redraw token (OS-TIME-4)
    assert v(resumed, "seat1.hp") == 4 and seat(resumed, 1)["tokens"]["redraw"] == 3


@pytest.mark.rule("OS-LVL-2")
def test_os_lvl_2_quick_level_to_the_chapter() -> None:
    s = ok(new(chapter="4"), "swap 1 Cur")
    assert seat(s, 1)["class"] == "Cur" and seat(s, 1)["level"] == 4


@pytest.mark.rule("OS-LVL-3")
def test_os_lvl_3_swap_only_at_chapter_start() -> None:
    s = ok(new(), "goto 4")
    assert "start of a chapter" in no(s, "swap 1 Cur")


@pytest.mark.rule("OS-LVL-6")
def test_os_lvl_6_full_to_companion() -> None:
    s = ok(new(classes="Penitent,Warden,Priest,Witch"), "injure 1", "switch 1")
    record = seat(s, 1)
    assert record["kind"] == "companion" and record["injuries"] == 1
    assert sorted(record["items"]) == ["Buckler", "Cudgel", "Pig Iron Coat"]
    assert record["max_animus"] == 2 and v(s, "seat1.defense") == 2 + 1 + 2


@pytest.mark.rule("OS-LVL-5")
def test_os_lvl_5_swap_back_in() -> None:
    s = ok(new(chapter="6", roster="Huntress:3", classes="Warden,Cur,Priest,Witch"), "swap 2 Huntress")
    assert seat(s, 2)["class"] == "Huntress" and seat(s, 2)["level"] == 6 and seat(s, 2)["items"] == []
    assert any("from 3 to 6" in n for n in s.notices)
    assert "Cur" in rec(s.state).roster


@pytest.mark.rule("OS-EVT-1")
def test_a_time_slot_event_is_reported_from_the_physical_card(tmp_path: Path) -> None:
    from .helpers import reloaded, stored

    save = str(tmp_path / "s.db")
    s = ok(stored(save), "place 4", "place 7")
    assert "no time slot" in no(s, "travel 7 = city2")  # slot 1 draws no event
    ok(s, "travel 7", "goto 12")
    assert "holds no" in no(s, "goto 3 = city99")  # slot 3 draws a city event
    ok(s, "goto 3 = city4")
    assert rec(s.state).last_event == "city4" and rec(s.state).event_report is None
    assert deck(s, "events.city").remaining == 5
    ok(s, "event city city2")
    assert rec(s.state).last_event == "city2"
    assert reloaded(save).state == s.state
