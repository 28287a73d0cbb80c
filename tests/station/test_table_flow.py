"""The table flow on the simulated station (real games, automatic mode, four seats, gpiozero mock
pins, the fake clock): NEXT twice to cut a shared step short, seat LEDs steady and blinking, seat
display lines saying who owes a move, the line saying what the station did, and a four-seat round
of each game by the buttons alone."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper import cli, games
from tablekeeper.config import REFERENCE_CONFIG, StationConfig, load_config, parse_config
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_buttons, make_displays, make_outputs
from tablekeeper.ui import flow_lines
from tablekeeper.ui.compose import seat_line
from tests.station import fake_time

START = {"oathsworn": {"part": "encounter"}}
DONE_BUTTON = {"arkham": "a", "spirit_island": "a", "oathsworn": "b", "earthborne": "a"}  # today's mappings


class Table:
    """A station with a real game on simulated parts."""

    def __init__(self, config: StationConfig, game: str, tmp: object, seats: int = 4) -> None:
        self.config = config
        self.clock = FakeClock()
        self.parts = SimulatedParts(config, display_mode=None, capture_dir=tmp)  # type: ignore[arg-type]
        self.session = Session(games.load(game), seats=seats, seed=3, options={"flow": "auto", **START.get(game, {})})
        displays = make_displays(config, self.parts.open_device, clock=self.clock)
        self.station = Station(session=self.session, config=config, displays=displays, clock=self.clock)
        self.station.buttons = make_buttons(config, emit=self.station.put, clock=self.clock,
                                            pin_factory=self.parts.pin_factory)
        self.station.sink.outputs = make_outputs(config, clock=self.clock, pin_factory=self.parts.pin_factory)
        self.station.start()
        self.presses = 0

    def tap(self, role: str) -> None:
        button = self.parts.button(role)
        assert button is not None, role
        self.presses += 1
        self.parts.set_button(button, True)
        self.station.drain()
        self.pass_time(0.1)
        self.parts.set_button(button, False)
        self.station.drain()
        self.pass_time(0.05)

    def pass_time(self, seconds: float) -> None:
        fake_time.pass_time(self.station, self.clock, seconds)

    def led_pin(self, seat: int) -> object:
        config = next(c for c in self.config.leds if c.name == f"seat{seat}")
        return self.parts.pin_factory.pin(config.pin)

    def close(self) -> None:
        self.station.close()
        self.parts.close()


@pytest.fixture
def table(tmp_path: object, request: pytest.FixtureRequest) -> Iterator[Table]:
    t = Table(load_config(REFERENCE_CONFIG), request.param, tmp_path)
    yield t
    t.close()


def to_step(t: Table, phase: str, step: str) -> None:
    for _ in range(60):
        state = t.session.state
        if (state.phase, state.step) == (phase, step):
            return
        by_buttons(t)
    pytest.fail(f"never reached {phase}.{step}")


def by_buttons(t: Table) -> None:
    """What a group does with the buttons alone: NEXT answers a question with the option shown (the
    first); a seat that still owes a move (else the active seat) presses its done/pass button; a seat
    whose display offers a choice outside any turn (an Oathsworn stage card's attack: "A: hits me")
    presses A; else NEXT."""
    state = t.session.state
    if state.prompt is not None:
        t.tap("next")
        return
    seat = state.owing[0] if state.owing else state.active_seat
    if seat is not None:
        t.tap(f"seat{seat}.{DONE_BUTTON[t.session.game.name]}")
    elif (asked := next((n for n in state.seat_numbers() if t.session.game.legend(state, n)), None)) is not None:
        t.tap(f"seat{asked}.a")  # a question put to the seats outside a turn: the first answers (A)
    else:
        t.tap("next")


def led_states(t: Table, seats: tuple[int, ...], seconds: float) -> list[tuple[bool, ...]]:
    """The seats' LEDs after each toggle of the blink over ``seconds`` of the station clock (the other
    deadlines on the way met as they come)."""
    assert t.station.sink.outputs is not None
    lights = t.station.sink.outputs.lights
    states = []
    target = t.clock() + seconds
    while (deadline := lights.next_deadline_s()) is not None and deadline <= target:
        t.pass_time(max(0.0, deadline - t.clock()) + 1e-6)
        states.append(tuple(bool(t.led_pin(seat).state) for seat in seats))  # type: ignore[attr-defined]
    return states


@pytest.mark.parametrize("table", ["spirit_island"], indirect=True)
def test_next_in_a_shared_step_asks_first_and_a_second_next_ends_it_for_all(table: Table) -> None:
    to_step(table, "spirit", "growth")
    table.tap("seat2.a")
    assert table.session.state.owing == (1, 3, 4)
    entries = table.session.log_length
    table.tap("next")
    assert table.session.state.step == "growth" and table.session.log_length == entries
    assert table.station.ui.message is not None
    assert table.station.ui.message.text == "3 seats still playing - NEXT again to end for all"
    table.pass_time(flow_lines.CONFIRM_S + 1)  # too late: the next NEXT asks again
    table.tap("next")
    assert table.session.state.step == "growth"
    table.tap("next")
    assert table.session.state.phase == "invader"  # no card played: no Power step
    assert table.session.line[-1].command is not None and table.session.line[-1].command.verb == "next!"


@pytest.mark.parametrize("table", ["spirit_island"], indirect=True)
def test_leds_blink_for_seats_owing_in_a_shared_step_and_seat_lines_say_so(table: Table) -> None:
    to_step(table, "spirit", "growth")
    table.tap("seat2.a")
    owing = (1, 3, 4)
    states = led_states(table, (*owing, 2), 4.0)
    assert {s[:3] for s in states} == {(True,) * 3, (False,) * 3}  # the three owing seats blink in step
    assert all(a != b for a, b in itertools.pairwise(states))  # each deadline toggles them
    assert not any(s[3] for s in states)  # seat 2 is done: off
    assert seat_line(table.session.state, table.session.game, 1) == "still to play"
    assert seat_line(table.session.state, table.session.game, 2) == "done"
    assert flow_lines.waiting_line(table.session.state, table.session.game.flow) == "waiting: 1, 3, 4"


@pytest.mark.parametrize("table", ["arkham"], indirect=True)
def test_the_active_seat_led_is_steady_in_a_turn_step(table: Table) -> None:
    table.tap("seat3.b")  # seat 3 opens its action menu: its turn begins (turns go in any order)
    table.tap("seat3.a")  # back from the menu
    assert table.session.state.active_seat == 3 and table.session.state.prompt is None
    pin = table.led_pin(3)
    pin.clear_states()  # type: ignore[attr-defined]
    table.pass_time(3.0)
    assert pin.state is True and [s.state for s in pin.states] == [True]  # type: ignore[attr-defined]
    assert all(table.led_pin(s).state is False for s in (1, 2, 4))  # type: ignore[attr-defined]
    assert seat_line(table.session.state, table.session.game, 3) == "your turn"


@pytest.mark.parametrize("table", ["oathsworn"], indirect=True)
def test_oathsworn_seat_displays_show_who_has_passed(table: Table) -> None:
    to_step(table, "oathsworn", "turns")
    lead = table.session.state.active_seat
    assert lead is not None
    table.tap(f"seat{lead}.b")
    assert seat_line(table.session.state, table.session.game, lead) == "passed"
    others = [s for s in range(1, 5) if s != lead and s != table.session.state.active_seat]
    assert all(seat_line(table.session.state, table.session.game, s) == "not passed yet" for s in others)


@pytest.mark.parametrize("table", ["arkham"], indirect=True)
def test_the_track_display_says_what_the_station_did_until_the_next_press(table: Table) -> None:
    for seat in (1, 2, 3):
        table.tap(f"seat{seat}.a")  # pass my turn (turns go in any order)
    table.tap("seat4.a")  # the last turn ends: Enemy and Upkeep with no enemy run by themselves; the lead draws
    message = table.station.ui.message
    assert message is not None
    assert message.text == "seat 1 draws an encounter card (agenda 1) | done 14 steps: 2.3 Phase ends .. 1.3 Check doom"
    assert table.session.state.round == 2
    now = table.station.clock()
    # too long for the display's rows: it stays until it has scrolled through once, longer than AUTO_LINE_S
    assert message.until_s > now + flow_lines.AUTO_LINE_S
    table.pass_time(message.until_s - now + 1)
    assert table.station.ui.message is None


@pytest.mark.parametrize("table", ["arkham", "spirit_island", "oathsworn", "earthborne"], indirect=True)
def test_a_four_seat_round_by_the_buttons_alone(table: Table) -> None:
    for _ in range(80):
        if table.session.state.round >= 2:
            break
        by_buttons(table)
    table.presses = 0
    refusals = table.station.stats.refusals
    for _ in range(80):
        if table.session.state.round >= 3:
            break
        by_buttons(table)
    assert table.session.state.round == 3 and table.session.state.over is None
    assert table.station.stats.refusals == refusals  # no press was refused
    assert all(c.origin == "button" for e in table.session.line if (c := e.command) is not None)
    print(f"{table.session.game.name}: {table.presses} presses for a quiet four-seat round")


def test_the_walk_setting_starts_a_game_step_by_step(tmp_path: Path) -> None:
    text = Path(REFERENCE_CONFIG).read_text(encoding="utf-8")
    assert "\nquiet = false" in text
    config = parse_config(text.replace("\nquiet = false", "\nquiet = false\nwalk = true", 1), source="walk.toml")
    assert config.walk and not load_config(REFERENCE_CONFIG).walk
    script = tmp_path / "keys.txt"
    script.write_text("press next\n", encoding="utf-8")
    save = tmp_path / "s.sqlite"
    config_file = tmp_path / "walk.toml"
    config_file.write_text(text.replace("\nquiet = false", "\nquiet = false\nwalk = true", 1), encoding="utf-8")
    assert cli.main(["run", "--config", str(config_file), "--game", "arkham", "--seats", "2", "--save", str(save),
                     "--script", str(script), "--display", "capture", "--capture-dir", str(tmp_path / "f"),
                     "--no-counters"]) == 0
    with Store.open(str(save)) as store:
        saved = store.load("main")
    assert saved is not None and saved.setup.options["flow"] == "walk"
    assert Session(games.load("arkham"), seats=2, seed=saved.setup.seed, options=saved.setup.options,
                   entries=saved.entries).state.step == "2.2"  # the one NEXT moved 2.1 -> 2.2 by hand


@pytest.mark.rule("ER-PATH-1")
@pytest.mark.parametrize("table", ["earthborne"], indirect=True)
def test_earthborne_phase_1_opens_on_the_track_display_naming_the_seat_a_button(table: Table) -> None:
    """A group on the buttons alone: as round 2's Phase 1 opens (Refresh run by the station itself) the
    track display says each Ranger draws with their seat's A, and that button is the draw."""
    table.station.perform([Command("pathdeck", ("12",))])  # typed once: the group's own deck of 12
    for _ in range(40):
        if table.session.state.round == 2:
            break
        by_buttons(table)
    assert (table.session.state.round, table.session.state.phase) == (2, "path")
    message = table.station.ui.message
    assert message is not None
    assert message.text == ("each Ranger, seat 1 first: draw a path card, press your seat's A (or reveal path NAME)"
                            " | done 3 steps: Ranger turns .. Refresh")  # Travel had nothing to decide
    assert table.station.screens is not None
    track = next(d for d in table.station.screens.displays if d.role == "track")
    assert track.banner_text == message.text  # on the track display, not only in the station's state
    table.tap("seat1.a")
    assert table.session.state.owing == (2, 3, 4)  # the button the line named drew seat 1's card


@pytest.mark.parametrize("table", ["earthborne"], indirect=True)
def test_earthborne_path_cards_by_seat_a_and_next_twice_goes_on_without_the_rest(table: Table) -> None:
    """ER-PATH-1 by the buttons alone: the Rangers still to draw blink; the lead's A says its card was
    drawn (the group's own deck, not named); NEXT asks first, a second NEXT goes on without seat 2..4's
    cards, which the log says. In the Ranger turns NEXT twice ends them for the Rangers not rested."""
    table.station.perform([Command("pathdeck", ("12",))])  # typed once: the group's own deck of 12
    assert table.session.state.owing == (1, 2, 3, 4)
    assert seat_line(table.session.state, table.session.game, 1) == "still to play | A: drew my path card"
    table.tap("seat1.a")
    after = table.session.state
    assert after.owing == (2, 3, 4) and table.session.line[-1].command.text() == "pass 1"  # type: ignore[union-attr]
    table.tap("next")
    assert table.session.state.phase == "path"
    assert table.station.ui.message is not None
    assert table.station.ui.message.text == "3 seats still playing - NEXT again to end for all"
    table.tap("next")
    assert table.session.state.phase == "turns"
    assert table.session.view()["log"][-1] == "path: no card drawn for seat(s) 2, 3, 4 this round (next!)"
    table.tap("seat1.a")  # seat 1 rests; NEXT twice ends the Ranger turns for the others (ER-ROUND-1)
    table.tap("next")
    table.tap("next")
    assert (table.session.state.round, table.session.state.phase) == (2, "path")  # no travel to decide
    assert "turns: seat(s) 2, 3, 4 did not rest this round (next!)" in table.session.view()["log"]
