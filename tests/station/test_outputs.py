"""Seat LEDs and buzzer on gpiozero mock pins, timed by a fake clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from tablekeeper.hw.outputs import OutputPin, Outputs
from tablekeeper.sim.clock import FakeClock


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def make(factory: MockFactory, quiet: bool = False) -> tuple[Outputs, FakeClock]:
    clock = FakeClock()
    leds = {1: OutputPin(7), 2: OutputPin(8, active_high=False)}
    return Outputs(leds, OutputPin(18), clock=clock, quiet=quiet, pin_factory=factory), clock


def test_only_the_active_seat_is_lit(factory: MockFactory) -> None:
    outputs, _clock = make(factory)
    outputs.lights.light(2)
    assert factory.pin(7).state is False and factory.pin(8).state is False  # seat 2 sinks: low = lit
    outputs.lights.light(1)
    assert factory.pin(7).state is True and factory.pin(8).state is True
    outputs.lights.light(None)
    assert factory.pin(7).state is False and factory.pin(8).state is True


def test_alert_pattern_follows_the_clock(factory: MockFactory) -> None:
    outputs, clock = make(factory)
    buzzer = factory.pin(18)
    outputs.beeper.play("alert")
    levels = [buzzer.state]
    while outputs.next_deadline_s() is not None:
        clock.now_s = outputs.next_deadline_s()  # type: ignore[assignment]
        outputs.poll(clock())
        levels.append(buzzer.state)
    assert levels == [True, False, True, False, True, False]
    assert clock() == pytest.approx(0.5)


def test_quiet_setting_silences_the_buzzer_but_not_the_lights(factory: MockFactory) -> None:
    outputs, _clock = make(factory, quiet=True)
    outputs.beeper.play("defeat")
    outputs.lights.light(1)
    assert factory.pin(18).state is False and outputs.next_deadline_s() is None
    assert factory.pin(7).state is True


def test_no_outputs_configured_is_fine(factory: MockFactory) -> None:
    outputs = Outputs({}, None, clock=FakeClock(), pin_factory=factory)
    outputs.beeper.play("turn")
    outputs.lights.light(3)
    outputs.poll(1.0)
    assert outputs.beeper.played == [] and outputs.next_deadline_s() is None
    outputs.close()


def test_close_turns_everything_off_and_releases_pins(factory: MockFactory) -> None:
    outputs, _clock = make(factory)
    outputs.lights.light(1)
    outputs.beeper.play("defeat")
    outputs.close()
    assert factory.pin(18).state is False and factory.pin(7).function == "input"
