"""The station loop on simulated parts and a fake clock: intents in, commands applied, displays redrawn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec.structs
import pytest

from tablekeeper.config import REFERENCE_CONFIG, StationConfig, load_config
from tablekeeper.core.session import Session
from tablekeeper.intents import ButtonIntent, CounterConnected, CounterValue, Gesture, Quit
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_buttons, make_displays, make_outputs
from tests.station import fake_time
from tests.station.station_game import GAME


class Rig:
    """A station on simulated parts, with helpers to press buttons and let time pass."""

    def __init__(self, config: StationConfig, tmp_capture: object) -> None:
        self.clock = FakeClock()
        self.parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_capture)  # type: ignore[arg-type]
        self.session = Session(GAME, seats=2, seed=1)
        displays = make_displays(config, self.parts.open_device, clock=self.clock)
        self.station = Station(session=self.session, config=config, displays=displays, clock=self.clock)
        self.station.buttons = make_buttons(config, emit=self.station.put, clock=self.clock,
                                            pin_factory=self.parts.pin_factory)
        self.station.sink.outputs = make_outputs(config, clock=self.clock, pin_factory=self.parts.pin_factory)
        self.station.start()

    def tap(self, role: str) -> None:
        button = self.parts.button(role)
        assert button is not None
        self.parts.set_button(button, True)
        self.station.drain()
        self.pass_time(0.1)
        self.parts.set_button(button, False)
        self.station.drain()
        self.pass_time(0.05)

    def pass_time(self, seconds: float) -> None:
        fake_time.pass_time(self.station, self.clock, seconds)

    def bytes_sent(self) -> dict[str, int]:
        return {role: chip.byte_count for role, chip in self.parts.chips.items()}


@pytest.fixture
def rig(tmp_path: object) -> Iterator[Rig]:
    rig = Rig(load_config(REFERENCE_CONFIG), tmp_path)
    yield rig
    rig.station.close()
    rig.parts.close()


def test_start_draws_every_display_as_its_chip_shows_it(rig: Rig) -> None:
    screens = rig.parts.screens()
    for role, image in rig.station.images.items():
        assert screens[role].tobytes() == image.tobytes(), role
    assert rig.station.sink.outputs is not None and rig.station.sink.outputs.lights.lit == 1


def test_next_button_moves_the_turn_and_redraws_only_what_changed(rig: Rig) -> None:
    before = rig.bytes_sent()
    rig.tap("next")
    assert rig.session.view()["active_seat"] == 2
    after = rig.bytes_sent()
    changed = {role for role in after if after[role] != before[role]}
    assert changed == {"seat1", "seat2"}  # the turn marker moved; track/tokens/seat3/seat4 untouched
    assert rig.parts.pin_factory.pin(8).state is True and rig.parts.pin_factory.pin(7).state is False
    assert rig.station.sink.outputs is not None and rig.station.sink.outputs.beeper.played == ["turn"]


def test_repeated_plus_presses_enter_the_game_as_one_command(rig: Rig) -> None:
    for _ in range(3):
        rig.tap("up")
    assert rig.station.controls.pending is not None
    assert rig.station.controls.pending.text() == "doom 0 -> 3 (+3)"
    tokens_with_banner = rig.parts.screens()["tokens"].tobytes()
    rig.pass_time(2.0)
    assert rig.session.view()["tracks"]["doom"] == 3  # type: ignore[index]
    assert [e.command.text() for e in rig.session.line if e.command] == ["add doom +3"]
    assert rig.parts.screens()["tokens"].tobytes() != tokens_with_banner


def test_holding_up_repeats_and_back_cancels_nothing_entered(rig: Rig) -> None:
    button = rig.parts.button("up")
    assert button is not None
    rig.parts.set_button(button, True)
    rig.pass_time(1.0)  # hold at 0.6 s (+5), then repeats every 0.15 s
    rig.parts.set_button(button, False)
    rig.station.drain()
    pending = rig.station.controls.pending
    assert pending is not None and pending.delta == 1 + 5 + 2
    rig.tap("back")  # cancels the count before it entered the game
    rig.pass_time(2.0)
    assert rig.session.view()["tracks"]["doom"] == 0  # type: ignore[index]
    assert rig.session.log_length == 0


def test_a_failing_display_does_not_stop_the_loop_and_comes_back(rig: Rig) -> None:
    rig.parts.unplug("tokens")
    rig.tap("up")
    rig.pass_time(2.0)
    assert rig.session.view()["tracks"]["doom"] == 1  # type: ignore[index]
    assert [d.role for d in rig.station.displays.failed()] == ["tokens"]
    rig.tap("next")  # the loop goes on; the other displays still update
    assert rig.session.view()["active_seat"] == 2
    assert rig.parts.screens()["seat2"].tobytes() == rig.station.images["seat2"].tobytes()

    rig.pass_time(10.0)
    assert [d.role for d in rig.station.displays.failed()] == ["tokens"]  # retried with back-off
    assert rig.station.displays.displays["tokens"].failures >= 3
    rig.parts.plug("tokens")  # it answers again: the next retry reopens it (a fresh chip) and redraws
    rig.pass_time(40.0)
    assert rig.station.displays.failed() == []
    assert rig.parts.screens()["tokens"].tobytes() == rig.station.images["tokens"].tobytes()


def test_counter_value_sets_the_seat_track(rig: Rig) -> None:
    rig.station.put(CounterValue(seat=2, track="hp", value=4))
    rig.station.drain()
    assert rig.session.view()["tracks"]["seat2.hp"] == 4  # type: ignore[index]


def test_refused_command_is_shown_not_raised(rig: Rig) -> None:
    track_before = rig.parts.screens()["track"].tobytes()
    rig.station.put(ButtonIntent("seat1.a", Gesture.PRESS))
    rig.station.drain()
    assert rig.station.stats.rejected == ["seat 1's A button does nothing now; waiting for seat 1"]
    assert rig.parts.screens()["track"].tobytes() != track_before
    rig.pass_time(3.5)  # past MESSAGE_S, but its three rows page the track's lines: up until both were seen
    assert rig.station.ui.message is not None
    rig.pass_time(5.0)  # the message times out
    assert rig.parts.screens()["track"].tobytes() == track_before


def test_menu_toggles_the_buzzer(rig: Rig) -> None:
    rig.tap("menu")
    rig.tap("next")  # "Sound off" is the first item
    assert rig.station.ui.quiet and rig.station.sink.outputs is not None and rig.station.sink.outputs.beeper.quiet
    rig.tap("next")
    assert rig.station.sink.outputs.beeper.played == []


def test_quit_ends_run_and_close_releases_the_parts(rig: Rig) -> None:
    rig.station.put(Quit("test"))
    rig.station.run()
    assert not rig.station.running
    rig.station.close()
    assert all(chip.cleaned_up for chip in rig.parts.chips.values())
    assert rig.station.buttons is not None and rig.station.buttons.buttons == {}


def test_players_are_told_when_a_display_stops_answering(rig: Rig) -> None:
    rig.parts.unplug("seat1")
    rig.tap("next")
    assert rig.station.ui.message is not None and rig.station.ui.message.text == "seat1 display not answering"


class Published:
    def __init__(self) -> None:
        self.values: list[tuple[int, str, int | None, int | None]] = []
        self.labels: dict[tuple[int, str], str] = {}

    def publish(self, seat: int, track: str, value: int | None, limit: int | None = None) -> None:
        self.values.append((seat, track, value, limit))

    def label(self, seat: int, track: str, text: str) -> None:
        self.labels[(seat, track)] = text


def test_seat_tracks_go_back_to_the_counters(rig: Rig) -> None:
    sink = Published()
    rig.station.sink.counters = sink
    rig.station.start()
    assert sink.values == [(1, "hp", 9, 9), (2, "hp", 9, 9)]
    # each slot named in the game's words: this game's HP die is its HP, its dial is not used
    assert sink.labels[(1, "hp")] == "HP" and sink.labels[(2, "damage")] == "--"
    sink.values.clear()
    rig.station.put(CounterValue(seat=1, track="hp", value=4))
    rig.station.put(CounterValue(seat=2, track="hp", value=20))  # refused: above 9
    rig.station.drain()
    assert sink.values == [(1, "hp", 4, 9), (2, "hp", 9, 9)]
    assert rig.station.stats.rejected and "seat2.hp" in rig.station.stats.rejected[-1]
    sink.values.clear()
    rig.station.put(CounterConnected(seat=2, port="/dev/ttyACM1"))
    rig.station.drain()
    assert sink.values == [(2, "hp", 9, 9)]


def test_plus_presses_send_bytes_only_to_the_display_showing_the_pending_change(rig: Rig) -> None:
    before = rig.bytes_sent()
    rig.tap("up")
    rig.tap("up")
    after = rig.bytes_sent()
    assert {role for role in after if after[role] != before[role]} == {"tokens"}  # the banner's display only


@pytest.mark.parametrize("skip_view", [True, False], ids=["as built", "outputs told every press"])
def test_a_press_that_only_opens_a_pending_change_tells_the_outputs_nothing(rig: Rig, monkeypatch: pytest.MonkeyPatch,
                                                                            skip_view: bool) -> None:
    """What changed (lights, sound, counters) is worked out again only when the state changed."""
    from tablekeeper.station import loop
    from tablekeeper.station.outputs import Changes

    taken: list[Changes] = []
    real = loop.changes

    def counted(*args: Any) -> Changes:
        taken.append(real(*args))
        return taken[-1]

    monkeypatch.setattr(loop, "changes", counted)
    if not skip_view:  # the protection taken out: every press looks at an unchanged state again
        monkeypatch.setattr(rig.station, "_shown", msgspec.structs.replace(rig.session.state))
    for _ in range(3):
        rig.tap("up")
    assert (len(taken) == 0) is skip_view
    rig.pass_time(2.0)  # the window closes: the change is entered and the outputs follow it
    assert len(taken) >= 1 and taken[-1].tracks == frozenset({"doom"})
    assert rig.session.state.tracks["doom"].value == 3
