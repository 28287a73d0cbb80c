"""Arkham on the station: the panels fit the OLEDs, the seat buttons mean the right thing, and a
two-investigator scenario of three rounds runs on the simulated station by keys alone."""

from __future__ import annotations

import argparse
from pathlib import Path

from tablekeeper.commands.run import build_simulated
from tablekeeper.config import load_config
from tablekeeper.sim.clock import FakeClock
from tablekeeper.station.controls import Controls
from tablekeeper.station.script import ScriptedRun, parse_script

from .helpers import do, new, start_turn, to_step, track

ROOT = Path(__file__).resolve().parents[3]


def test_panels_fit_a_small_oled() -> None:
    s = new(seats=4)
    do(s, "enemy seat1 Ghoul Minion", "token add bless 2")
    start_turn(s, 1)
    do(s, "act seat1 fight Ghoul Minion", "reveal chaos bless")
    for state in (new(seats=4).state, s.state):
        panels = s.game.panels(state)
        assert set(panels) == {"track", "tokens", "seat1", "seat2", "seat3", "seat4"}
        for panel in panels.values():  # a line may wrap on a small display; a title may not
            assert len(panel.title) <= 21 and len(panel.lines) <= 4
            assert all(len(line) <= 21 for line in panel.lines)
    panels = s.game.panels(s.state)
    assert panels["track"].lines == ("II. Investigation", "2.2 Turns", "Doom 0 of 3",
                                     "Act 1 needs 8 clues")
    assert panels["seat1"].title == "Roland (lead)"
    assert panels["tokens"].title == "Roland: combat"  # the investigator, in the table's words
    assert panels["tokens"].lines == ("skill 4 vs 2", "drew bless", "A: draw a token")
    custom = new(scenario_id="custom")  # a scenario made at the table: its reference card is unverified
    do(custom, "enemy seat1 Thing fight=1 health=1 evade=1 damage=1 horror=0", "test seat1 willpower 3 2")
    assert custom.game.panels(custom.state)["tokens"].lines[-1] == "unverified ref card"
    assert panels["seat1"].lines == ("Health 9 Sanity 5", "2 actions, 5 cards", "Clues 0 Resources 5",
                                     "Engaged: Ghoul Minion")


def test_idle_tokens_display_shows_odds_by_margin() -> None:
    s = new()
    # Standard bag, Roland (elder sign +1): a margin of 0 needs a token >= 0: +1, 0, 0, elder sign and
    # the two skulls (The Gathering: -1 per Ghoul at his location; none there) = 6/16.
    tokens = s.game.panels(s.state)["tokens"]
    assert tokens.title == "Standard bag: 16"
    assert tokens.lines == ("Skill over test: pass", "+0: 38%  +1: 63%", "+2: 81%  +3: 88%")
    assert tokens.legend[0][0] == "+1: 63%"  # the short form explained on the legend page


def test_a_dial_counter_sets_the_seat_tracks() -> None:
    """A MicroPython dial reports damage, horror, clues and resources; each is a seat track here."""
    from tablekeeper.core.events import Command
    from tablekeeper.hw.counters import SLOT_TRACKS

    s = new()
    for slot, name in enumerate(SLOT_TRACKS["dial"], 1):
        assert s.perform(Command("set", (f"seat2.{name}", str(slot)), origin="counter")).accepted
        assert track(s, f"seat2.{name}") == slot
    outcome = s.perform(Command("set", ("seat2.damage", "6"), origin="counter"))
    assert not outcome.accepted and outcome.reason == "seat2.damage 6 is beyond health 5"


def test_seat_buttons_follow_the_moment() -> None:
    """A = done (end my turn, reveal/resolve my test); B = my menu (the named actions)."""
    s = to_step(new(), "investigation", "2.2")
    game, state = s.game, s.state
    assert state.prompt is None and state.owing == (1, 2)  # no "who goes next?": any seat may go first
    assert game.button(state, "seat2.a", False).text() == "pass seat2"  # pass my whole turn
    assert game.button(state, "seat2.b", False).text() == "actions seat2"  # my menu: my turn begins
    s.perform(game.button(state, "seat2.b", False))
    assert s.state.active_seat == 2
    do(s, "choose 1")  # back
    assert s.game.button(s.state, "seat2.a", False).text() == "next"
    assert s.game.button(s.state, "seat2.b", False).text() == "actions seat2"
    assert s.game.button(s.state, "seat1.a", False) is None
    do(s, "test seat2 intellect 5 2")
    assert s.game.button(s.state, "seat2.a", False).text() == "draw chaos"
    assert s.game.legend(s.state, 2) == "A: draw a token" and s.game.legend(s.state, 1) is None
    do(s, "draw chaos")
    assert s.game.button(s.state, "seat2.a", False).text() == "resolve"
    assert s.game.legend(s.state, 2) == "A: resolve the test"
    assert s.game.button(s.state, "seat2.b", False) is None


def test_the_action_menu_names_the_action_it_spends() -> None:
    """The B button's menu: a resource or a draw taken from it changes resources or hand."""
    s = start_turn(new(), 1)
    do(s, "enemy seat2 Rat fight=1 health=1 evade=3 damage=1 horror=0")  # the investigators begin in the Study
    s.perform(s.game.button(s.state, "seat1.b", False))
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[:4] == ("back", "investigate", "resource", "draw")
    assert "play Guard Dog" in prompt.options and "play Leo De Luca" not in prompt.options  # 5 resources
    assert s.game.legend(s.state, 1) == "A: back, B: investigate"  # the seat line names both answers
    do(s, f"choose {prompt.options.index('resource') + 1}")
    assert track(s, "seat1.resources") == 6 and track(s, "seat1.actions") == 2
    do(s, "actions seat1")
    do(s, f"choose {s.state.prompt.options.index('draw') + 1}")
    assert track(s, "seat1.hand") == 6 and track(s, "seat1.actions") == 1
    do(s, "actions seat1", "choose 1")  # back: nothing spent
    assert track(s, "seat1.actions") == 1 and s.state.prompt is None
    do(s, "actions seat1")
    do(s, f"choose {s.state.prompt.options.index('play Guard Dog') + 1}")
    assert track(s, "seat1.resources") == 3 and s.view()["assets"]["1"]["Guard Dog"]["health"] == 3


def test_seat_buttons_answer_prompts() -> None:
    s = new(seats=3)
    do(s, "defeat seat1")  # the lead is out: the others pick a new lead
    assert s.game.button(s.state, "seat3.a", False).text() == "choose 2"
    assert s.game.legend(s.state, 3) == "A: me" and s.game.legend(s.state, 1) is None
    assert s.game.button(s.state, "seat1.a", False) is None
    s = new()
    do(s, "enemy seat1 A fight=2 health=3 evade=2 damage=1 horror=0",
       "enemy seat1 B fight=2 health=3 evade=2 damage=1 horror=0")
    to_step(s, "enemy", "3.3")
    assert s.game.button(s.state, "seat2.a", False) is None  # seat 1's question
    assert s.game.button(s.state, "seat1.b", False).text() == "choose 2"  # option 2: B attacks first
    assert s.game.legend(s.state, 1) == "A: A, B: B"  # which enemy attacks first
    s.perform(s.game.button(s.state, "seat1.b", False))
    assert s.state.prompt is None and track(s, "seat1.damage") == 2


def test_adjustable_puts_the_current_seat_first() -> None:
    s = start_turn(new(), 2)
    names = s.game.adjustable(s.state)
    assert names[0] == "seat2.damage" and "agenda.doom" in names and "seat1.clues" in names
    controls = Controls(s.game, clock=lambda: 0.0)
    for cmd in controls.press("up", s.state) + controls.press("up", s.state) + controls.flush():
        assert s.perform(cmd).accepted
    assert track(s, "seat2.damage") == 2


def test_four_investigators_three_rounds_on_the_simulated_station_by_buttons_only(tmp_path: Path) -> None:
    """docs/games/arkham.keys: an ally played from the action menu, investigations of the Study the
    scenario put everyone in, encounter cards named one investigator at a time at 1.4 (two Ghoul
    Minions from the scenario's encounter deck), an enemy fought down from the menu, Enemy-phase
    attacks; no console line."""
    config = load_config(ROOT / "hardware" / "station.toml")
    args = argparse.Namespace(game="arkham", seats=4, seed=1, save=None, slot="main", capture_dir=tmp_path,
                              walk=True)  # the walkthrough presses NEXT at every step, as a teaching group
    clock = FakeClock()
    station, parts, _ = build_simulated(config, args, display_mode=None, clock=clock)
    try:
        lines = (ROOT / "docs" / "games" / "arkham.keys").read_text(encoding="utf-8").splitlines()
        steps = parse_script(lines, parts, source="arkham.keys", hold_s=config.timing.hold_s)
        assert all(step.action == "tap" for step in steps)  # buttons only
        station.start()
        ScriptedRun(station, parts, clock, lambda: None).run(steps)
        view = station.session.view()
        origins = {e.command.origin for e in station.session.line if e.command is not None}
        refused = list(station.stats.rejected)
        frames = dict(station.images)
    finally:
        station.close()
        parts.close()
    assert origins == {"button"} and refused == []
    assert (view["round"], view["phase"], view["step"]) == (4, "mythos", "1.1")
    tracks = view["tracks"]
    assert view["assets"]["1"] == {"Beat Cop": {"health": 2, "sanity": 2, "damage": 0, "horror": 0,
                                                "exhausted": False}}
    assert set(view["enemies"]) == {"Ghoul Minion 2"}  # Roland's Ghoul Minion fell to his two fights
    assert view["enemies"]["Ghoul Minion 2"]["engaged"] == 2
    assert (tracks["seat2.damage"], tracks["seat2.horror"]) == (2, 2)  # 3.3 of rounds 2 and 3
    assert tracks["seat2.clues"] == 3 and view["locations"]["Study"]["clues"] == 5  # 2 per investigator: 8
    assert (tracks["encounter.deck"], tracks["encounter.discard"]) == (18, 7)  # 8 drawn, 1 still in play
    assert tracks["agenda.doom"] == 2
    assert {"track", "tokens", "seat1", "seat2", "seat3", "seat4"} <= set(frames)


def test_the_seat_display_shows_the_games_legend_for_its_buttons(tmp_path: Path) -> None:
    """``Game.legend`` is what the station puts on the seat display's last line: both answers in full."""
    config = load_config(ROOT / "hardware" / "station.toml")
    args = argparse.Namespace(game="arkham", seats=2, seed=1, save=None, slot="main", capture_dir=tmp_path)
    clock = FakeClock()
    station, parts, _ = build_simulated(config, args, display_mode=None, clock=clock)
    try:
        station.start()
        run = ScriptedRun(station, parts, clock, lambda: None)
        run.run(parse_script(["press seat1.b", "wait 1"], parts, source="keys", hold_s=config.timing.hold_s))
        state = station.session.state
        assert state.prompt is not None and state.prompt.id == "action" and state.active_seat == 1
        assert station.screens is not None
        seat1, seat2 = station.screens.display("seat1"), station.screens.display("seat2")
        assert seat1 is not None and seat1.banner_text == "your answer | A: back, B: investigate"
        assert seat2 is not None and seat2.banner_text == "still to play"
    finally:
        station.close()
        parts.close()


def test_plus_minus_and_undo_name_the_track_in_the_players_words() -> None:
    """The +/- buttons say whose track they change before the first press and while it is counted, and
    undoing it says what was taken back the same way (not ``seat1.horror``)."""
    s = new(seats=2)
    controls = Controls(s.game, clock=lambda: 0.0)
    pointing = controls.pointing(s.state)
    assert pointing.selected == "seat1.damage" and pointing.ready == "+/- Roland damage: 0"
    assert controls.press("up", s.state) == []  # counted, not entered yet
    assert controls.pointing(s.state).pending == "Roland damage 0 -> 1 (+1)"
    do(s, "add seat1.horror 1")
    assert s.undo().accepted and s.notices == ("undone: Roland horror +1",)
