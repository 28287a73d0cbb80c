"""1.4 Encounter draws answered from the panel: what stayed in play (AH-ENEMY-2, AH-ENCDECK-2,
AH-DMG-10), and smaller things a table meets: an objective act's view, the chaos bag's bounds, the
notices of a refused line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core.session import Session

from .helpers import data, do, new, rejects, to_step, track


def at_draws(seats: int = 2, **options: str) -> Session:
    s = new(seats=seats, **options)
    to_step(s, "mythos", "1.4")
    return s


def test_nothing_answers_for_every_investigator_at_once() -> None:
    s = at_draws(seats=4)
    assert s.state.prompt is not None and s.state.prompt.options[0] == "nothing"
    assert rejects(s, "next") == "answer the prompt first: What stayed in play?"
    do(s, "choose 1")
    assert s.state.prompt is None
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (22, 4)


@pytest.mark.rule("AH-ENEMY-2")
def test_a_spawned_enemy_is_picked_from_the_scenarios_encounter_sets() -> None:
    s = at_draws()
    do(s, "choose 3")  # seat 2's card
    assert s.state.prompt.options == ("discarded", "enemy spawned", "treachery: threat area", "treachery: location")
    do(s, "choose 2")
    assert s.state.prompt.options[:3] == ("Ghoul Minion", "Ravenous Ghoul", "Swarm of Rats")
    do(s, "choose 2")
    foe = data(s, "enemies")["Ravenous Ghoul"]
    assert foe["engaged"] == 2 and (foe["fight"], foe["health"], foe["evade"]) == (3, 3, 3)
    assert (foe["attack_damage"], foe["attack_horror"]) == (1, 1)
    assert s.state.prompt.options == ("nothing", "seat 1's card")  # seat 1's card is still to tell
    do(s, "choose 1")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (24, 1)  # the Ghoul stays out


def test_a_second_copy_of_an_enemy_gets_its_own_name() -> None:
    s = at_draws()
    do(s, "choose 2", "choose 2", "choose 1", "choose 2", "choose 2", "choose 1")
    assert sorted(data(s, "enemies")) == ["Ghoul Minion", "Ghoul Minion 2"]


def test_an_enemy_the_data_does_not_list_is_typed() -> None:
    s = at_draws(scenario_id="custom")
    do(s, "choose 2", "choose 2")
    assert s.state.prompt.options == ("not listed (type it)",)
    do(s, "choose 1")
    assert any("enemy seat1 NAME" in n for n in s.notices)
    do(s, "enemy seat1 Thing fight=3 health=2 evade=1 damage=1 horror=1", "choose 1")
    assert data(s, "enemies")["Thing"]["engaged"] == 1
    assert track(s, "encounter.discard") == 1  # only seat 2's card was discarded


def test_treacheries_stay_in_a_threat_area_or_at_a_location_until_discarded() -> None:
    s = new()
    do(s, "location Study 2 2", "enter seat2 Study")
    to_step(s, "mythos", "1.4")
    do(s, "choose 2", "choose 3", "choose 2", "choose 4")
    assert data(s, "treacheries") == {"Treachery 2.1": {"seat": 1, "location": None},
                                      "Treachery 2.2": {"seat": 2, "location": "Study"}}
    assert track(s, "encounter.discard") == 0
    do(s, "discard-treachery 'Treachery 2.2'")
    assert list(data(s, "treacheries")) == ["Treachery 2.1"] and track(s, "encounter.discard") == 1


def test_a_treachery_at_a_location_needs_the_drawer_placed() -> None:
    s = at_draws()
    do(s, "choose 2")
    assert "is at no known location" in rejects(s, "choose 4")


@pytest.mark.rule("AH-ENCDECK-2")
def test_deck_and_discard_stay_true_across_a_reshuffle() -> None:
    s = at_draws(encounter="3")
    do(s, "choose 2", "choose 2", "choose 3")  # seat 1's Swarm of Rats stays; seat 2's card discarded
    do(s, "choose 1")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (1, 1)
    do(s, "harm-enemy 'Swarm of Rats' 1")  # AH-DMG-10: a defeated enemy reaches the discard pile
    assert track(s, "encounter.discard") == 2
    to_step(s, "upkeep", "4.6")
    to_step(s, "mythos", "1.4")  # seat 1 empties the deck, the discard pile is the new deck
    assert track(s, "encounter.deck") + track(s, "encounter.discard") == 1
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
