"""Seed rulings about Powers, triggers, counting, Incarna, Isolate and Reminder cards."""

from __future__ import annotations

import pytest

from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import incarna as inc
from tablekeeper.games.spirit_island import invader_rules as ir
from tablekeeper.games.spirit_island import powers as pw
from tablekeeper.games.spirit_island import table_actions
from tablekeeper.games.spirit_island.actions import Engine, Watcher

from .helpers import answer_counts, attempt, run, session, to_step, tracks


@pytest.mark.rule("SI-REPEAT-1")
def test_si_repeat_1_a_repeat_is_another_power_use() -> None:
    s = session()
    to_step(s, "spirit", "cards")
    run(s, "play 1 1 fast sun")
    to_step(s, "fast")
    run(s, "whenever 1 gain 1 Energy", "use 1 1")
    assert s.state.get("seat1.power_uses") == 1
    run(s, "repeat 1 1")
    assert s.state.get("seat1.power_uses") == 2
    assert any("Whenever seat 1 uses a Power" in n for n in s.notices)


@pytest.mark.rule("SI-REPEAT-2")
def test_si_repeat_2_named_land_ignores_range_and_targeting() -> None:
    assert pw.repeat_target_allowed(named_land="B", land="B", in_range=True, target_ok=False)
    assert pw.repeat_origin("B", original_origin="A", new_origin="B") == "A"
    assert not pw.repeat_target_allowed(named_land=None, land="Z", in_range=False, target_ok=True)


@pytest.mark.rule("SI-REPEAT-3")
def test_si_repeat_3_repeat_may_choose_again_unless_told_not_to() -> None:
    assert pw.repeat_choice("Push 1 Explorer", "Gather 1 Dahan", same_choice_required=False) == "Gather 1 Dahan"
    assert pw.repeat_choice("Push 1 Explorer", "Gather 1 Dahan", same_choice_required=True) == "Push 1 Explorer"


@pytest.mark.rule("SI-ERRATA-1")
def test_si_errata_1_bringer_turns_destroy_into_its_fear() -> None:
    out = pw.bringer_destroy("town", 1, {"explorer": 0, "town": 2, "city": 5}, pushes=True)
    assert out.destroyed == 0 and out.fear == 2 and out.push
    assert pw.bringer_destroy("town", 1, {"explorer": 0, "town": 2, "city": 5}, pushes=False).push is False


@pytest.mark.rule("SI-ERRATA-2")
def test_si_errata_2_france_6_fires_per_explore_card() -> None:
    assert [pw.france6_explorers(n) for n in (0, 1, 2)] == [0, 1, 2]
    s = session(adversary="france:6")
    to_step(s, "invader", "explore")
    answer_counts(s)
    run(s, "next")
    assert sum("France 6" in n for n in s.notices) == 1
    assert s.state.get("invader.explore_cards") == 1


@pytest.mark.rule("SI-ERRATA-3")
def test_si_errata_3_fortification_offers_unshown_terrains() -> None:
    slots = {"ravage": ["Jungle"], "build": ["Wetland"], "explore": []}
    assert ir.unshown_terrains(slots, ["Jungle", "Mountain", "Sands", "Wetland"]) == ["Mountain", "Sands"]
    s = session(seats=1, events="on")
    to_step(s, "invader", "event")  # turn 2: Ravage and Build slots hold the first two cards
    answer_counts(s)
    run(s, "event fortification")
    assert s.state.prompt is None  # typed during the Event, it waits for the cards to advance
    to_step(s, "invader", "advance")
    slots = s.state.get("invader.slots")
    shown = {*slots["ravage"], *slots["build"]}
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in which terrain?"
    options = list(prompt.options)
    assert not shown & set(options) and len(options) == 4 - len(shown)
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == f"Build {options[0][:3]}: added?"
    assert s.view()["spirit_island"]["actions"] == [f"Build (Fortification) in {options[0]}"]
    towns = tracks(s)["island.towns"]
    run(s, "choose 2")  # nothing was built there
    assert tracks(s)["island.towns"] == towns and s.view()["spirit_island"]["actions"] == []


@pytest.mark.rule("SI-ERRATA-4")
def test_si_errata_4_cash_crops_only_unshown_terrain() -> None:
    slots = {"ravage": ["Sands"], "build": ["Mountain+Wetland"], "explore": []}
    assert ir.unshown_terrains(slots, ["Jungle", "Mountain", "Sands", "Wetland"]) == ["Jungle"]
    s = session(seats=1, events="on")
    to_step(s, "invader", "event")
    answer_counts(s)
    slots = s.state.get("invader.slots")
    run(s, "event cash crops take hold")  # a Ravage at once, in a terrain no card shows
    prompt = s.state.prompt
    assert prompt is not None and not {*slots["ravage"], *slots["build"]} & set(prompt.options)
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_blight"


@pytest.mark.rule("SI-PUSH-1")
def test_si_push_1_pushed_pieces_may_split() -> None:
    assert pw.push_results(2, ["B", "C"]) == {("B", "B"), ("B", "C"), ("C", "C")}


@pytest.mark.rule("SI-TRIGGER-1")
def test_si_trigger_1_vengeance_runs_after_the_power() -> None:
    engine = Engine()
    engine.watch(Watcher("destroyed", "*", "Vengeance of the Dead", "dahan"))
    engine.begin("Power")
    engine.piece("destroyed", "dahan", "A")
    engine.ran.append("second instruction")
    assert engine.queue == ["Vengeance of the Dead"]
    engine.end()
    assert engine.ran == ["begin Power", "second instruction", "end Power",
                          "begin Vengeance of the Dead", "end Vengeance of the Dead"]


@pytest.mark.rule("SI-TRIGGER-2")
def test_si_trigger_2_forbidden_ground_and_blazing_presence() -> None:
    assert pw.forbidden_ground_fires({"X": 1, "Y": 1}, {"X": 2, "Y": 2}) == (1, ["X", "Y"])
    assert pw.forbidden_ground_fires({"Z": 3}, {"Z": 4}) == (0, [])
    assert not pw.blazing_presence_fires(during_setup=True, presence_added_or_moved=True)
    assert pw.blazing_presence_fires(during_setup=False, presence_added_or_moved=True)


@pytest.mark.rule("SI-TRIGGER-3")
def test_si_trigger_3_after_setup_rule_ignores_setup_blight() -> None:
    from tablekeeper.games.spirit_island import blight as bl
    setup = bl.BlightRun(bl.Pool(10, 2), {"L": bl.Land("L")}, when_added=["X"], during_setup=True)
    setup.add("L")
    play = bl.BlightRun(bl.Pool(10, 2), {"L": bl.Land("L")}, when_added=["X"])
    play.add("L")
    assert not any(e[0] == "when" for e in setup.log)
    assert ("when", "X", "L") in play.log
    assert pw.post_setup_rule_applies(during_setup=False) and not pw.post_setup_rule_applies(during_setup=True)


@pytest.mark.rule("SI-TRIGGER-3")
def test_si_trigger_3_tracker_setup_blight_does_not_fire_post_setup_rules() -> None:
    s = session(adversary="sweden:5")
    run(s, "blight A1")  # during setup
    assert not any("Mining Rush" in n for n in s.notices)
    to_step(s, "spirit", "growth")
    run(s, "blight A2")
    assert any("Mining Rush" in n for n in s.notices)


@pytest.mark.rule("SI-TRIGGER-4")
def test_si_trigger_4_trigger_set_up_by_the_same_action_runs_once_after_it() -> None:
    fired: list[str] = []
    engine = Engine(on_run=fired.append)
    engine.begin("Innate")
    engine.watch(Watcher("moved", "*", "Y", "explorer"))
    engine.piece("moved", "explorer", "B")
    assert fired == []
    engine.end()
    assert fired == ["Y"]


@pytest.mark.rule("SI-COUNTS-1")
def test_si_counts_1_choice_fixed_for_the_whole_action() -> None:
    s = session()
    to_step(s, "fast", "powers")
    run(s, "begin Many Minds Move as One", "counts-as S yes")
    refused = attempt(s, "counts-as S no")
    assert not refused.accepted and "whole action" in str(refused.reason)
    run(s, "counts-as S yes")  # the same choice again is fine
    assert table_actions.counts(s.state, "S") is True
    run(s, "end")
    assert table_actions.counts(s.state, "S") is None


@pytest.mark.rule("SI-COUNTS-2")
def test_si_counts_2_nested_action_has_its_own_choices() -> None:
    s = session()
    to_step(s, "fast", "powers")
    run(s, "begin Insatiable Hunger", "counts-as S yes", "begin Blight card Immediately", "counts-as S no")
    assert table_actions.counts(s.state, "S") is False
    run(s, "end")
    assert table_actions.counts(s.state, "S") is True


@pytest.mark.rule("SI-COUNTS-3")
def test_si_counts_3_a_piece_in_two_categories_counts_once() -> None:
    pieces = [("site", frozenset({"presence", "beasts"}))]
    assert pw.count_distinct(pieces, {"beasts", "presence"}) == 1


@pytest.mark.rule("SI-COUNTS-4")
def test_si_counts_4_incarna_may_count_for_defeat_only() -> None:
    from tablekeeper.games.spirit_island.damage import counts_for_victory
    assert counts_for_victory({"presence": 0, "incarna": 1}, incarna_counts_as_presence=True) == 1
    assert counts_for_victory({"presence": 0, "incarna": 1}, incarna_counts_as_presence=False) == 0


@pytest.mark.rule("SI-COUNTS-5")
def test_si_counts_5_players_choose_which_piece_is_destroyed() -> None:
    assert pw.destroy_choices(["presence", "incarna"]) == ["presence", "incarna"]
    assert pw.destroy_choices(["presence", "presence"]) is None


@pytest.mark.rule("SI-REPLACE-1")
def test_si_replace_1_two_instructions_may_downgrade_the_same_piece() -> None:
    engine = Engine()
    engine.begin("Lost in the Endless Dark")
    engine.replace_piece("threshold 1", "city#1")
    engine.replace_piece("threshold 2", "city#1")
    with pytest.raises(Rejected):
        engine.replace_piece("threshold 2", "city#1")


@pytest.mark.rule("SI-REPLACE-2")
def test_si_replace_2_replacing_is_neither_adding_nor_moving() -> None:
    fired: list[str] = []
    engine = Engine(on_run=fired.append)
    engine.watch(Watcher("added", "L", "on-add"))
    engine.watch(Watcher("moved", "L", "on-move"))
    engine.piece("replaced", "town", "L")
    assert fired == []


@pytest.mark.rule("SI-MOVE-1")
def test_si_move_1_pushed_is_moved_explored_is_added() -> None:
    fired: list[str] = []
    engine = Engine(on_run=fired.append)
    engine.watch(Watcher("added", "L", "on-add"))
    engine.watch(Watcher("moved", "L", "on-move"))
    engine.piece("moved", "explorer", "L", source="Push")
    assert fired == ["on-move"]
    engine.piece("added", "explorer", "L", source="Explore")
    assert fired == ["on-move", "on-add"]


@pytest.mark.rule("SI-ADD-1")
def test_si_add_1_event_additions_count_as_added() -> None:
    fired: list[str] = []
    engine = Engine(on_run=fired.append)
    engine.watch(Watcher("added", "L", "Confounding Mists"))
    engine.piece("added", "town", "L", source="Event")
    assert fired == ["Confounding Mists"]


@pytest.mark.rule("SI-INCARNA-1")
def test_si_incarna_1_growth_cannot_leave_incarna_in_supply() -> None:
    with pytest.raises(Rejected):
        inc.finish_growth_action(inc.Incarna("S"))
    inc.finish_growth_action(inc.Incarna("S", land="A", status="island"))


@pytest.mark.rule("SI-INCARNA-2")
def test_si_incarna_2_its_own_land_is_a_move_target() -> None:
    assert inc.move_targets(inc.Incarna("WVKD", land="A", status="island"), []) == ["A"]


@pytest.mark.rule("SI-INCARNA-3")
def test_si_incarna_3_add_presence_may_reposition_incarna_as_added() -> None:
    on = inc.Incarna("S", land="A", status="island")
    assert "incarna" in inc.add_presence_pieces(on)
    assert inc.add_incarna_as_presence(on, "A")[1] == "added"
    off = inc.Incarna("S")
    assert inc.add_presence_pieces(off) == ["presence"]
    with pytest.raises(Rejected):
        inc.add_incarna_as_presence(off, "A")


@pytest.mark.rule("SI-INCARNA-4")
def test_si_incarna_4_lair_incarna_is_gone_for_good() -> None:
    gone = inc.destroyed(inc.Incarna("S", land="A", status="island", aspect="Lair"))
    assert gone.status == "supply_unrecoverable"
    assert not inc.can_add_by_growth(gone)
    assert inc.can_add_by_growth(gone, fragments_high_tracking=True)
    assert inc.destroyed(inc.Incarna("S", land="A", status="island", aspect="Other")).status == "supply"


@pytest.mark.rule("SI-INCARNA-5")
def test_si_incarna_5_counts_only_as_itself() -> None:
    only = inc.Incarna("S", land="A", status="island", only_itself=True)
    assert not inc.destroy_eligible(only, "destroy 1 Presence")
    assert inc.destroy_eligible(only, "Cast Down Into the Briny Deep", threshold_met=True)
    assert not inc.destroy_eligible(only, "Cast Down Into the Briny Deep", threshold_met=False)


@pytest.mark.rule("SI-INCARNA-6")
def test_si_incarna_6_other_spirit_gets_fear_not_strife() -> None:
    assert inc.keening_push("B", "WVKD", into_invaders=True) == (1, 0)
    assert inc.keening_push("WVKD", "WVKD", into_invaders=True) == (1, 1)


@pytest.mark.rule("SI-REMINDER-1")
def test_si_reminder_1_reminder_waits_and_acceleration_goes_on() -> None:
    accelerated, waiting = ir.accelerate(["a", "R", "b", "c"], 3, frozenset({"R"}))
    assert accelerated == ["a", "b", "c"] and waiting == ["R"]


@pytest.mark.rule("SI-REMINDER-2")
def test_si_reminder_2_all_thieves_accelerate_before_the_reminder() -> None:
    # Thieves #1 and #2 escape from one land: one action accelerating 1 card each.
    accelerated, waiting = ir.accelerate(["R", "x", "y"], 2, frozenset({"R"}))
    assert accelerated == ["x", "y"] and waiting == ["R"]


@pytest.mark.rule("SI-ISOLATE-1")
def test_si_isolate_1_moving_dahan_out_is_not_blocked() -> None:
    assert not pw.isolate_blocks("dahan_move", dahan_involved=True)


@pytest.mark.rule("SI-ISOLATE-2")
def test_si_isolate_2_players_may_rule_out_isolated_pairs() -> None:
    pairs = [("A", "B")]
    assert pw.cultural_assimilation_pairs(pairs, {"A"}, players_split=True) == []
    assert pw.cultural_assimilation_pairs(pairs, {"A"}, players_split=False) == pairs


@pytest.mark.rule("SI-ISOLATE-3")
def test_si_isolate_3_explore_blocked_plain_add_is_not() -> None:
    lands = {"W": ir.Land("W", "Wetland", isolated=True, adjacent=("T",)), "T": ir.Land("T", "Sands", towns=1)}
    assert ir.explore_adds(lands["W"], lands) == 0
    assert pw.isolate_blocks("explore") and not pw.isolate_blocks("add")


@pytest.mark.rule("SI-FEAR-2")
def test_si_fear_2_every_card_with_the_fear_icon_generates_fear() -> None:
    cards = pw.load_powers()
    with_icon = [c for c in cards.values() if c.fear_icon]
    assert with_icon and all(c.generates_fear for c in with_icon)
    assert not any(c.generates_fear for c in cards.values() if not c.fear_icon)


@pytest.mark.rule("SI-ASPECT-1")
def test_si_aspect_1_violence_needs_a_damage_or_destroy_card() -> None:
    cards = pw.load_powers()
    pw.violence_bonus_play(cards["instruments of their own ruin"])
    for name in ("concealing shadows", "flame's fury", "birds cry warning", "portents of disaster",
                 "vanish softly away", "dread apparitions", "stubborn solidity"):
        with pytest.raises(Rejected):
            pw.violence_bonus_play(cards[name])


@pytest.mark.rule("SI-ASPECT-2")
def test_si_aspect_2_might_damage_qualifies() -> None:
    pw.violence_bonus_play(pw.load_powers()["veil the night's hunt"])


@pytest.mark.rule("SI-DAMAGE-3")
def test_si_damage_3_a_push_behind_a_threshold_still_counts() -> None:
    card = pw.PowerCard("Thresholded", 1, "fast", False, frozenset({"push", "damage"}))
    assert "push" in card.instructions and card.violence_qualifies


@pytest.mark.rule("SI-TURN-1")
def test_si_turn_1_slow_power_in_fast_phase_is_refused_and_stays_pending() -> None:
    s = session()
    to_step(s, "spirit", "cards")
    run(s, "play 1 1 slow water")
    to_step(s, "fast")
    out = attempt(s, "use 1 1")
    assert not out.accepted and "Slow" in str(out.reason)
    to_step(s, "slow")
    run(s, "use 1 1")


@pytest.mark.rule("SI-ERRATA-2")
@pytest.mark.parametrize(("how", "fired"), [("skip", 0), ("more", 2)])
def test_si_errata_2_explore_with_zero_or_two_cards_is_recorded(how: str, fired: int) -> None:
    s = session(adversary="france:6")
    to_step(s, "invader", "explore")
    left = s.state.value("invader.cards_left")
    run(s, f"explore {how}")
    answer_counts(s)
    run(s, "next")
    assert sum("France 6" in n for n in s.notices) == fired
    assert s.state.value("invader.cards_left") == left - (1 if how == "more" else 0)
    assert len(s.state.get("invader.slots")["build"]) == (2 if how == "more" else 1)
