"""Buttons on gpiozero mock pins: press, hold, auto-repeat and software debounce on a fake clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from tablekeeper.hw.buttons import ButtonPanel, ButtonPin, ButtonTiming, DebouncedButton
from tablekeeper.intents import ButtonIntent, Gesture
from tablekeeper.sim.clock import FakeClock

# Binary fractions, so the fake clock's sums are exact and boundaries are hit on the dot.
TIMING = ButtonTiming(debounce_s=1 / 64, hold_s=0.5, repeat_interval_s=0.125)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def make(factory: MockFactory, role: str = "next", pin: int = 5, pull_up: bool = True
         ) -> tuple[DebouncedButton, FakeClock, list[ButtonIntent]]:
    clock = FakeClock(64.0)
    seen: list[ButtonIntent] = []
    button = DebouncedButton(role, pin, pull_up=pull_up, emit=seen.append, clock=clock, timing=TIMING,
                             pin_factory=factory)
    return button, clock, seen


def gestures(seen: list[ButtonIntent]) -> list[tuple[str, float]]:
    return [(i.gesture.value, i.at_s - 64.0) for i in seen]


def test_press_and_release_on_a_pull_up_pin(factory: MockFactory) -> None:
    button, clock, seen = make(factory)
    pin = factory.pin(5)
    pin.drive_low()  # the switch shorts the pin to ground
    assert gestures(seen) == [("press", 0.0)] and button.is_down
    clock.advance(0.125)
    pin.drive_high()
    assert gestures(seen) == [("press", 0.0), ("release", 0.125)] and not button.is_down


def test_pull_down_wiring_presses_on_high(factory: MockFactory) -> None:
    _button, _clock, seen = make(factory, pull_up=False)
    factory.pin(5).drive_high()
    assert gestures(seen) == [("press", 0.0)]


def test_contact_bounce_gives_one_press_and_one_release(factory: MockFactory) -> None:
    button, clock, seen = make(factory)
    pin = factory.pin(5)
    for step_s, level in [(0, 0), (1 / 1024, 1), (2 / 1024, 0), (1 / 1024, 1), (3 / 1024, 0)]:  # closing
        clock.advance(step_s)
        pin.drive_high() if level else pin.drive_low()
    assert gestures(seen) == [("press", 0.0)]
    clock.advance(0.25)
    for step_s, level in [(0, 1), (2 / 1024, 0), (2 / 1024, 1)]:  # opening bounce
        clock.advance(step_s)
        pin.drive_high() if level else pin.drive_low()
    button.poll(clock())
    assert gestures(seen) == [("press", 0.0), ("release", (7 + 256) / 1024)]
    clock.advance(0.0625)
    button.poll(clock())
    assert len(seen) == 2 and not button.is_down


def test_level_that_settles_inside_the_lockout_is_reported_when_it_ends(factory: MockFactory) -> None:
    button, clock, seen = make(factory)
    pin = factory.pin(5)
    pin.drive_low()
    clock.advance(4 / 1024)
    pin.drive_high()  # a real release 4 ms after the press: inside the ~16 ms lock-out
    assert gestures(seen) == [("press", 0.0)]
    assert button.next_deadline_s() == 64 + 1 / 64
    clock.advance(8 / 1024)
    button.poll(clock())
    assert len(seen) == 1  # still locked out
    clock.advance(4 / 1024)
    button.poll(clock())
    assert gestures(seen) == [("press", 0.0), ("release", 1 / 64)]


def test_hold_then_no_repeat_for_next(factory: MockFactory) -> None:
    button, clock, seen = make(factory)
    factory.pin(5).drive_low()
    assert button.next_deadline_s() == 64.5
    clock.advance(0.5 - 1 / 64)
    button.poll(clock())
    assert gestures(seen) == [("press", 0.0)]
    clock.advance(1 / 64)
    button.poll(clock())
    assert gestures(seen) == [("press", 0.0), ("hold", 0.5)]
    clock.advance(2.0)
    button.poll(clock())
    assert len(seen) == 2 and button.next_deadline_s() is None


def test_up_auto_repeats_while_held_and_stops_on_release(factory: MockFactory) -> None:
    button, clock, seen = make(factory, role="up", pin=19)
    pin = factory.pin(19)
    pin.drive_low()
    while clock() < 64.0 + 0.8:
        clock.advance(1 / 32)
        button.poll(clock())
    assert gestures(seen) == [("press", 0.0), ("hold", 0.5), ("repeat", 0.625), ("repeat", 0.75)]
    pin.drive_high()
    clock.advance(1.0)
    button.poll(clock())
    assert [i.gesture for i in seen[-1:]] == [Gesture.RELEASE] and len(seen) == 5


def test_repeats_catch_up_after_a_stall_but_are_bounded(factory: MockFactory) -> None:
    button, clock, seen = make(factory, role="down", pin=26)
    factory.pin(26).drive_low()
    clock.advance(0.5 + 0.125 * 3)
    button.poll(clock())
    assert [i.gesture.value for i in seen] == ["press", "hold", "repeat", "repeat", "repeat"]
    clock.advance(60)
    button.poll(clock())
    assert sum(i.gesture is Gesture.REPEAT for i in seen) == 3 + 20
    assert button.next_deadline_s() == clock() + 0.125


def test_panel_routes_every_button_and_closes_its_pins(factory: MockFactory) -> None:
    clock = FakeClock()
    seen: list[ButtonIntent] = []
    pins = [ButtonPin("next", 5), ButtonPin("seat2.a", 4)]
    panel = ButtonPanel(pins, emit=seen.append, clock=clock, timing=TIMING, pin_factory=factory)
    factory.pin(4).drive_low()
    factory.pin(5).drive_low()
    assert [(i.role, i.gesture) for i in seen] == [("seat2.a", Gesture.PRESS), ("next", Gesture.PRESS)]
    assert panel.next_deadline_s() == 0.5
    panel.close()
    factory.pin(4).drive_high()
    assert len(seen) == 2
    assert factory.pin(5).function == "input" and not panel.buttons
