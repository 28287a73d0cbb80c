"""1.4 Encounter draws answered from the panel: what stayed in play (AH-ENEMY-2, AH-ENCDECK-2,
AH-DMG-10), and smaller things a table meets: an objective act's view, the chaos bag's bounds, the
notices of a refused line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core.session import Session
from tablekeeper.games.arkham import mythos

from .helpers import answer, data, do, new, rejects, to_step, track


def at_draws(seats: int = 2, **options: str) -> Session:
    s = new(seats=seats, **options)
    to_step(s, "mythos", "1.4")
    return s


def prompt_seat(s: Session) -> int | None:
    assert s.state.prompt is not None
    return s.state.prompt.seat


@pytest.mark.rule("AH-DRAW-2")
def test_encounter_draws_go_one_investigator_at_a_time() -> None:
    """1.4: the lead draws and names the card; only then does the next investigator draw."""
    s = at_draws(seats=4)
    assert prompt_seat(s) == 1 and track(s, "encounter.deck") == 25  # only the lead has drawn
    assert s.state.prompt.options[0] == "discarded (it resolved and left play)"
    assert rejects(s, "next").startswith("answer the prompt first: Seat 1 draws an encounter card")
    for seat in (1, 2, 3, 4):
        assert prompt_seat(s) == seat and track(s, "encounter.deck") == 26 - seat
        do(s, "choose 1")
    assert s.state.prompt is None and (track(s, "encounter.deck"), track(s, "encounter.discard")) == (22, 4)
    do(s, "next")  # 1.4 is over (without --walk the station goes on by itself)
    assert s.state.step == "1.5"


@pytest.mark.rule("AH-ENEMY-2")
def test_a_spawned_enemy_is_resolved_before_the_next_investigator_draws() -> None:
    s = at_draws()
    assert s.state.prompt.options[1:6] == ("Ghoul Minion", "Swarm of Rats", "Flesh-Eater", "Icy Ghoul",
                                           "Ravenous Ghoul")
    answer(s, "Ravenous Ghoul")  # seat 1's card
    foe = data(s, "enemies")["Ravenous Ghoul"]
    assert foe["engaged"] == 1 and (foe["fight"], foe["health"], foe["evade"]) == (3, 3, 3)
    assert (foe["attack_damage"], foe["attack_horror"]) == (1, 1)
    assert prompt_seat(s) == 2 and track(s, "encounter.deck") == 24  # now seat 2 draws
    do(s, "choose 1")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (24, 1)  # the Ghoul stays out


def test_a_second_copy_of_an_enemy_gets_its_own_name() -> None:
    s = at_draws()
    answer(s, "Ghoul Minion")
    answer(s, "Ghoul Minion")
    assert sorted(data(s, "enemies")) == ["Ghoul Minion", "Ghoul Minion 2"]


def test_an_enemy_whose_spawn_location_is_not_in_play_is_discarded() -> None:
    """Icy Ghoul spawns in the Cellar, which is set aside until act 1 advances (outside the seeds)."""
    s = at_draws()
    answer(s, "Icy Ghoul")
    assert data(s, "enemies") == {} and track(s, "encounter.discard") == 1
    assert any("Cellar is not in play" in n for n in s.notices)


def test_an_enemy_the_data_does_not_list_is_typed_and_the_draws_wait_for_it() -> None:
    s = at_draws(scenario_id="custom")
    answer(s, "an enemy not listed (type it)")
    assert any("enemy seat1 NAME" in n for n in s.notices)
    assert s.state.prompt is None and track(s, "encounter.deck") == 25  # seat 2 waits for the typed enemy
    do(s, "enemy seat1 Thing fight=3 health=2 evade=1 damage=1 horror=1")
    assert data(s, "enemies")["Thing"]["engaged"] == 1
    assert prompt_seat(s) == 2
    do(s, "choose 1")
    assert track(s, "encounter.discard") == 1  # only seat 2's card was discarded


def test_an_enemy_line_answers_the_drawers_question() -> None:
    """The documented `enemy` verb answers the open 1.4 question for that investigator's card."""
    s = at_draws()
    do(s, "enemy seat1 Swarm of Rats")
    assert data(s, "enemies")["Swarm of Rats"]["engaged"] == 1 and prompt_seat(s) == 2


def test_treacheries_stay_in_a_threat_area_or_at_a_location_until_discarded() -> None:
    s = at_draws()
    answer(s, "stays in my threat area")
    answer(s, "Obscuring Fog")  # stays at seat 2's location, the Study: +2 shroud
    treacheries = data(s, "treacheries")
    assert treacheries["Treachery 2.1"] == {"seat": 1, "location": None, "card": None, "shroud": 0,
                                            "no_investigate": False, "leaves_on_investigate": False,
                                            "costs_more": [], "text": "", "no_play": [], "discard": None}
    assert treacheries["Obscuring Fog"]["location"] == "Study"
    assert track(s, "encounter.discard") == 0
    do(s, "discard-treachery Treachery 2.1")
    assert list(data(s, "treacheries")) == ["Obscuring Fog"] and track(s, "encounter.discard") == 1


def test_obscuring_fog_raises_the_shroud_until_the_location_is_investigated() -> None:
    s = at_draws()
    do(s, "choose 1")
    answer(s, "Obscuring Fog")
    to_step(s, "investigation", "2.2")
    do(s, "act seat1 investigate")
    assert data(s, "test")["difficulty"] == 4  # the Study's shroud 2, +2
    do(s, "commit seat1 2", "reveal chaos 0", "resolve")
    assert data(s, "treacheries") == {} and any("Obscuring Fog leaves Study" in n for n in s.notices)


def test_a_treachery_at_a_location_needs_the_drawer_placed() -> None:
    s = at_draws(scenario_id="custom")
    options = s.state.prompt.options
    assert "is at no known location" in rejects(s, f"choose {options.index(mythos.AT_LOCATION) + 1}")


@pytest.mark.rule("AH-ENCDECK-2")
def test_deck_and_discard_stay_true_across_a_reshuffle() -> None:
    s = at_draws(encounter="3")
    answer(s, "Swarm of Rats")  # seat 1's Swarm of Rats stays
    do(s, "choose 1")  # seat 2's card is discarded
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (1, 1)
    do(s, "harm-enemy Swarm of Rats 1")  # AH-DMG-10: a defeated enemy reaches the discard pile
    assert track(s, "encounter.discard") == 2
    to_step(s, "upkeep", "4.6")
    to_step(s, "mythos", "1.4")  # seat 1 empties the deck, the discard pile is the new deck
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (2, 0)
    do(s, "choose 1")  # seat 1's card is discarded; seat 2 draws
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (1, 1)
    do(s, "choose 1")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (1, 2)


@pytest.mark.rule("AH-ACTAG-5")
def test_an_act_with_an_objective_shows_no_clue_requirement() -> None:
    s = new(scenario_id="midnight_masks")
    assert "act.clues_required" not in s.view()["tracks"]
    assert "act.clues_required" not in s.game.adjustable(s.state)
    assert "act.clues_required" in new().view()["tracks"]


def test_chaos_bag_amounts_are_bounded() -> None:
    s = new()
    assert rejects(s, "token add skull 1000000000") == "token add skull: at most 20 tokens at a time, not 1000000000"
    do(s, "token add bless 20", "token add bless 20")
    assert rejects(s, "token add bless 1") == "token add bless: the bag would hold 41; at most 40 of a kind"
    assert rejects(s, "token seal skull 21") == "token seal skull: at most 20 tokens at a time, not 21"


def test_a_refused_lines_trace_repeats_no_earlier_notices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "t.script"
    script.write_text("grim the Ghoul went left\nhit seat9 1\n", encoding="utf-8")
    cli.main(["play", "arkham", "--script", str(script), "--trace"])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["state"]["notices"] == ["Grim Rule: the Ghoul went left"]
    assert records[1]["accepted"] is False and records[1]["state"]["notices"] == []


def test_frozen_in_fear_makes_the_first_move_fight_or_evade_of_each_round_cost_an_action_more() -> None:
    from tests.games.played import ok, opened

    play = opened("arkham", seats=2)
    ok(play, "turn seat1", "set seat1.clues 4", "spend-clues seat1:4", "next", "next")  # round 2's draws
    state = play.session.state
    assert state.prompt is not None and state.prompt.id == "encounter_card"
    ok(play, f"choose {state.prompt.options.index('Frozen in Fear') + 1}")
    assert any(n.endswith("the first move, fight or evade each round costs 1 more action; test willpower (3) at "
                          "the end of your turn to discard it") for n in play.session.view()["notices"])
    ok(play, "choose 1", "turn seat1", "act seat1 move Attic")  # seat 2's card discarded; 2 actions
    assert play.session.state.value("seat1.actions") == 1
    ok(play, "act seat1 move Hallway")  # the second move costs 1
    assert play.session.state.value("seat1.actions") == 0


def test_crypt_chill_failed_asks_for_an_asset_or_takes_the_two_damage() -> None:
    from tests.games.played import ok, opened

    play = opened("arkham", seats=1)
    ok(play, "next")  # round 2: the encounter draw
    state = play.session.state
    assert state.prompt is not None
    ok(play, f"choose {state.prompt.options.index('Crypt Chill') + 1}", "reveal chaos -2", "resolve")
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.options == ("discard an asset I control", "no asset to discard: take 2 damage")
    ok(play, "choose 2")
    assert play.session.state.value("seat1.damage") == 2
