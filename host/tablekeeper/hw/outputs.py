"""Seat LEDs and the buzzer on gpiozero; both optional, the buzzer silenced by the ``quiet`` setting.

Beep patterns and seat LED blinks are timed by the station's injected clock (``poll`` at
``next_deadline_s``) rather than gpiozero's ``blink`` threads, so they are testable without sleeping
and stop cleanly with the station. All blinking seat LEDs share one schedule: the station loop wakes
once per toggle for every seat together (a thread per LED woke once per toggle per seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, NamedTuple

from gpiozero import LED, Buzzer

Clock = Callable[[], float]


class OutputPin(NamedTuple):
    """An LED or buzzer on a BCM pin; ``active_high`` False: the pin sinks the current."""

    pin: int
    active_high: bool = True


# (on seconds, off seconds) steps.
PATTERNS: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    "turn": ((0.05, 0.0),),
    "alert": ((0.1, 0.1), (0.1, 0.1), (0.1, 0.0)),  # a threshold was reached
    "defeat": ((0.8, 0.0),),
    "victory": ((0.1, 0.05), (0.1, 0.05), (0.4, 0.0)),
}


# a seat that owes a move flashes briefly every 2.5 s: a flash catches the eye across a table as an
# even blink does, and each toggle wakes the station loop (two a cycle, for all blinking seats at
# once), about 190 us of a core here each; at 1.5 s the blink alone took 0.3 % of a Pi Zero's core
BLINK_ON_S = 0.3
BLINK_OFF_S = 2.2


class SeatLights:
    """One LED per seat: steady for whose turn it is, blinking for seats that still owe a move in a
    step played together, off otherwise. Blinking LEDs flash in step, on the station clock."""

    def __init__(self, pins: Mapping[int, OutputPin], *, clock: Clock, pin_factory: Any = None) -> None:
        """``pins``: each seat's LED."""
        self._clock = clock
        self.leds: dict[int, Any] = {}
        for seat, (pin, active_high) in pins.items():
            self.leds[seat] = LED(pin, active_high=active_high, initial_value=False, pin_factory=pin_factory)
        self.lit: int | None = None
        self.blinking: frozenset[int] = frozenset()
        self.blink_on = False  # the blinking LEDs' shared state
        self._toggle_s: float | None = None  # when they next change; None while none blinks

    def light(self, seat: int | None) -> None:
        """Only ``seat`` lit, steady."""
        self.show(seat, frozenset())

    def show(self, steady: int | None, blinking: frozenset[int]) -> None:
        """``steady`` lit, ``blinking`` blinking, the rest off. A blink already running goes on in its
        rhythm (restarting it on every redraw would make it stutter); a seat that starts to blink joins
        it in step; the first seat to blink starts it, lit at once."""
        blinking = frozenset(s for s in blinking if s != steady and s in self.leds)
        if not blinking:
            self._toggle_s = None
        elif self._toggle_s is None:
            self.blink_on = True
            self._toggle_s = self._clock() + BLINK_ON_S
        for number, led in self.leds.items():
            if number == steady:
                led.on()
            elif number in blinking:
                led.value = self.blink_on
            else:
                led.off()
        self.lit = steady
        self.blinking = blinking

    def poll(self, now_s: float) -> None:
        """Toggle every blinking LED together when the blink's deadline has come."""
        if self._toggle_s is None or now_s < self._toggle_s:
            return
        self.blink_on = not self.blink_on
        step_s = BLINK_ON_S if self.blink_on else BLINK_OFF_S
        # the next toggle keeps the rhythm; after a late pass (a busy loop) it counts from now
        self._toggle_s = self._toggle_s + step_s if now_s < self._toggle_s + step_s else now_s + step_s
        for number in self.blinking:
            self.leds[number].value = self.blink_on

    def next_deadline_s(self) -> float | None:
        return self._toggle_s

    def close(self) -> None:
        self._toggle_s = None
        for led in self.leds.values():
            led.close()
        self.leds.clear()


class Beeper:
    """An active buzzer playing short patterns on the station clock."""

    def __init__(self, pin: OutputPin | None, *, clock: Clock, quiet: bool = False,
                 pin_factory: Any = None) -> None:
        self.quiet = quiet
        self._clock = clock
        self.device = None if pin is None else Buzzer(pin.pin, active_high=pin.active_high, initial_value=False,
                                                      pin_factory=pin_factory)
        self._steps: list[tuple[bool, float]] = []  # (sounding, until_s)
        self.played: list[str] = []

    def play(self, pattern: str) -> None:
        """Start ``pattern`` (replacing one in progress) unless quiet or there is no buzzer."""
        if self.device is None or self.quiet:
            return
        now_s = self._clock()
        steps: list[tuple[bool, float]] = []
        for on_s, off_s in PATTERNS[pattern]:
            now_s += on_s
            steps.append((True, now_s))
            if off_s:
                now_s += off_s
                steps.append((False, now_s))
        self._steps = steps
        self.played.append(pattern)
        self.device.on()

    def poll(self, now_s: float) -> None:
        if self.device is None:
            return
        while self._steps and now_s >= self._steps[0][1]:
            self._steps.pop(0)
            if self._steps and self._steps[0][0]:
                self.device.on()
            else:
                self.device.off()

    def next_deadline_s(self) -> float | None:
        return self._steps[0][1] if self._steps else None

    def close(self) -> None:
        self._steps.clear()
        if self.device is not None:
            self.device.off()
            self.device.close()
            self.device = None


class Outputs:
    """The LEDs and the buzzer together, as the station drives them."""

    def __init__(self, leds: Mapping[int, OutputPin], buzzer: OutputPin | None, *, clock: Clock,
                 quiet: bool = False, pin_factory: Any = None) -> None:
        self.lights = SeatLights(leds, clock=clock, pin_factory=pin_factory)
        try:
            self.beeper = Beeper(buzzer, clock=clock, quiet=quiet, pin_factory=pin_factory)
        except BaseException:
            self.lights.close()
            raise

    def poll(self, now_s: float) -> None:
        self.lights.poll(now_s)
        self.beeper.poll(now_s)

    def next_deadline_s(self, *, blink: bool = True) -> float | None:
        blink_s = self.lights.next_deadline_s() if blink else None
        deadlines = [d for d in (blink_s, self.beeper.next_deadline_s()) if d is not None]
        return min(deadlines, default=None)

    def close(self) -> None:
        self.lights.close()
        self.beeper.close()
