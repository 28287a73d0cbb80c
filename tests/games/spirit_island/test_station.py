"""Spirit Island on the station: panels fit the OLEDs, the seat buttons follow the moment, the
button-driven Blight questions keep the FAQ's order, and four turns run on the simulated
station by keys alone."""

from __future__ import annotations

import argparse
from pathlib import Path

from tablekeeper.commands.run import build_simulated
from tablekeeper.config import load_config
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.view import Panel
from tablekeeper.sim.clock import FakeClock
from tablekeeper.station.controls import Controls
from tablekeeper.station.script import ScriptedRun, parse_script

from .helpers import record, run, session, to_step, tracks

ROOT = Path(__file__).resolve().parents[3]


def press(s: Session, controls: Controls, role: str) -> None:
    for cmd in controls.press(role, s.state) + controls.flush():
        outcome = s.perform(cmd)
        assert outcome.accepted, f"{role}: {outcome.reason}"


def test_panels_show_every_word_on_the_reference_and_compact_displays() -> None:
    from tablekeeper.core.view import Priority
    from tablekeeper.ui.legibility import Viewing
    from tests.station.sentences import lines_read

    s = session(seats=4)
    to_step(s, "spirit", "growth")
    run(s, "play 1 0 fast sun fire water earth plant animal")
    for state in (session(seats=4).state, s.state):
        panels = s.game.panels(state)
        assert set(panels) == {"track", "tokens", "seat1", "seat2", "seat3", "seat4"}
        for viewing in (Viewing.of((128, 64), "1.54in", 50), Viewing.of((128, 32), "0.91in", 50)):
            for panel in panels.values():
                # DETAIL lines (the seat's rotating reminder, an empty Invader slot) follow the others
                # where there is room, whole, and are left out rather than paged
                kept = tuple(line for i, line in enumerate(panel.lines) if panel.priority(i) is not Priority.DETAIL)
                shown = lines_read(panel, viewing)
                assert set(kept) <= set(shown), (viewing, panel)
    panels = s.game.panels(s.state)
    assert panels["tokens"].lines[0] == "Fear 0 of 16, cards earned 0"
    assert panels["seat1"].big == "1" and panels["seat1"].lines[:3] == ("Energy:", "Cards played 1 of 1", "Presence 2")
    assert panels["track"].lines[1:3] == ("Ravage: no card", "Build: " + record(s).slots.as_mapping()["build"][0])


def test_seat_buttons_follow_the_moment() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    game = s.game
    assert game.button(s.state, "seat2.a", False) == Command("done", ("2",), origin="button")
    assert game.button(s.state, "seat2.b", False) == Command("seat-menu", ("2",), origin="button")
    assert game.button(s.state, "seat2.b", True) is None  # the press already happened
    run(s, "done 2")
    assert game.button(s.state, "seat2.a", False) is None
    run(s, "blight")
    assert game.button(s.state, "seat1.a", False) == Command("choose", ("1",), origin="button")
    assert game.button(s.state, "seat1.b", False) == Command("choose", ("2",), origin="button")
    refused = s.perform(Command("done", ("1",)))  # the last seat done would end the step
    assert not refused.accepted and "answer the prompt" in str(refused.reason)
    run(s, "choose 1", "choose 2")  # no Blight there, but Vitality
    run(s, "done 1")
    assert (s.state.step, s.state.prompt is not None) == ("build", True)  # the Build's question
    assert game.button(s.state, "seat1.b", False) == Command("choose", ("2",), origin="button")
    assert game.button(s.state, "seat1.a", False) == Command("choose", ("1",), origin="button")
    to_step(s, "invader", "explore")
    to_step(s, "invader", "advance")
    # "done" pressed by every seat in an Invader step adds nothing (no Blight, no Fear)
    assert all(game.button(s.state, f"seat{n}.a", False) is None for n in (1, 2))


def test_seat_menu_changes_another_seats_presence_in_a_few_presses() -> None:
    s = session(seats=4)
    to_step(s, "spirit", "growth")
    controls = Controls(s.game, clock=lambda: 0.0)
    presses = ["seat1.b", "seat1.b", "seat1.b", "seat1.b", "seat1.a", "seat1.b", "seat1.b", "seat1.a"]
    for role in presses[:5]:
        press(s, controls, role)
    # the seat display's last line, so a 128x32 display shows it too
    assert s.game.legend(s.state, 1) == "A: seat 1 loses 1 Presence, B: next choice"
    for role in presses[5:]:
        press(s, controls, role)
    assert tracks(s)["seat3.presence"] == 1 and tracks(s)["seat1.presence"] == 2
    assert len(presses) <= 8 and s.state.prompt is None


def test_adjustable_puts_the_current_seat_first() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "done 1")
    names = s.game.adjustable(s.state)
    assert names[0] == "seat2.energy" and "fear.generated" in names and "blight.card" in names
    controls = Controls(s.game, clock=lambda: 0.0)
    for cmd in controls.press("up", s.state) + controls.press("up", s.state) + controls.flush():
        assert s.perform(cmd).accepted
    assert tracks(s)["seat2.energy"] == 3  # 0 at setup, 1 gained as the Spirit Phase began, 2 pressed


def test_blight_questions_keep_the_faq_order_and_cascade() -> None:
    """SI-BLIGHT-1 by buttons: flip before placing, Presence asked per seat, cascade asks again."""
    s = session(blight="Erosion of Will")
    to_step(s, "spirit", "growth")
    run(s, "set blight.card 1", "set seat1.presence 4", "set seat2.presence 4")
    controls = Controls(s.game, clock=lambda: 0.0)
    to_step(s, "fast", "powers")
    for role in ("seat1.b", "seat1.b", "seat1.b", "seat1.b", "seat1.b", "seat1.b"):
        press(s, controls, role)  # seat 1's menu: "Blight +1" (Blight from a Power)
    assert s.game.legend(s.state, 1) == "A: add 1 Blight, B: next choice"
    press(s, controls, "seat1.a")
    assert s.state.prompt is not None and s.state.prompt.id == "si.blight.had"
    press(s, controls, "seat2.b")  # yes: the land had Blight
    assert tracks(s)["blight.flipped"] == 1 and tracks(s)["blight.card"] == 6
    # Immediately (step 1, a nested action): 2 Fear per player; each Spirit destroys 1 Presence
    # and loses 1 Energy
    assert (tracks(s)["seat1.presence"], tracks(s)["seat2.presence"]) == (3, 3)
    assert s.state.prompt is not None and s.state.prompt.seat == 1
    assert s.game.panels(s.state)["tokens"] == Panel.question("Seat 1's question", (
        "Does seat 1 have Presence in the land?"), ("A: no", "B: yes", "(seat 1's buttons)"))
    assert s.game.button(s.state, "seat2.a", False) is None  # the question is seat 1's
    press(s, controls, "seat1.b")
    assert tracks(s)["seat1.presence"] == 2
    press(s, controls, "seat2.a")
    assert s.state.prompt is not None and s.state.prompt.text == 'Did the land it cascades into already have Blight?'
    press(s, controls, "seat1.a")  # no Blight there
    press(s, controls, "seat1.b")  # but Vitality: prevented, nothing else happens
    assert s.state.prompt is None and tracks(s)["blight.card"] == 6


def test_three_turns_on_the_simulated_station_by_buttons_only(tmp_path: Path) -> None:
    """Buttons only, two Spirits: every Build and Explore confirmed, a Ravage adding Blight, a
    Fear card, an Innate refused below its threshold and then used; the display's Invader counts
    are the ones the players confirmed."""
    config = load_config(ROOT / "hardware" / "station.toml")
    args = argparse.Namespace(game="spirit_island", seats=2, seed=1, save=None, slot="main", capture_dir=tmp_path,
                              option=["spirits=river,lightning"],
                              walk=True)  # the walkthrough presses NEXT at every step, as a teaching group
    clock = FakeClock()
    station, parts, _ = build_simulated(config, args, display_mode=None, clock=clock)
    try:
        lines = (ROOT / "docs" / "games" / "spirit_island.keys").read_text(encoding="utf-8").splitlines()
        steps = parse_script(lines, parts, source="spirit_island.keys", hold_s=config.timing.hold_s)
        station.start()
        ScriptedRun(station, parts, clock, lambda: None).run(steps)
        session = station.session
        view = session.view()
        frames = dict(station.images)
        tokens = session.game.panels(session.state)["tokens"]
        notices = [str(e["text"]) for entry in session.line for e in entry.events if e.kind == "notice"]
    finally:
        station.close()
        parts.close()
    assert (view["round"], view["phase"], view["step"]) == (4, "spirit", "growth")
    assert all(line.startswith("press ") or not line.strip() or line.startswith("#") for line in lines)
    t = view["tracks"]
    assert t["fear.cards_left"] == 8 and len(view["spirit_island"]["fear_resolved"]) == 1
    # 5 at setup; turn 2's Ravage adds Blight in four Wetland lands, turn 3's first flips the card
    # (Downward Spiral: 5 per player) and three more follow
    assert (t["blight.card"], t["blight.flipped"]) == (7, 1)
    assert any(n.startswith("Innate refused: seat 2") for n in notices)
    assert any(n.startswith("Seat 1 uses Massive Flooding") for n in notices)
    assert "Seat 1 uncovers '2' on its Energy track" in notices
    assert t["seat1.presence"] == 1  # the River grew one Presence and lost the one in A5 to Blight
    # four Explores of four lands each; Towns: 2 printed, 3 + 4 + 3 built; Cities: 2 printed, B6, A8
    explorers, towns, cities = 16, 12, 4
    assert (t["island.explorers"], t["island.towns"], t["island.cities"]) == (explorers, towns, cities)
    assert tokens.lines[3] == f"Explorers {explorers} Towns {towns} Cities {cities}"
    assert view["over"] is None
    assert {"track", "tokens", "seat1", "seat2"} <= set(frames)
