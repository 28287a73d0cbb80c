"""Seat LEDs and the buzzer on gpiozero; both optional, the buzzer silenced by the ``quiet`` setting.

Beep patterns are timed by the station's injected clock (``poll``) rather than gpiozero's
``blink`` thread, so they are testable without sleeping and stop cleanly with the station. A seat LED
that blinks (a seat still owing a move in a shared step) runs for minutes, with no pattern to end, so
it uses gpiozero's own ``LED.blink`` background thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from gpiozero import LED, Buzzer

from tablekeeper.config import OutputConfig

Clock = Callable[[], float]

# (on seconds, off seconds) steps.
PATTERNS: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    "turn": ((0.05, 0.0),),
    "alert": ((0.1, 0.1), (0.1, 0.1), (0.1, 0.0)),  # a threshold was reached
    "defeat": ((0.8, 0.0),),
    "victory": ((0.1, 0.05), (0.1, 0.05), (0.4, 0.0)),
}


# a seat that owes a move flashes briefly every 1.5 s: as easy to see across a table as an even
# blink, and each toggle is a wake-up of gpiozero's blink thread (two a cycle), so fewer of them
BLINK_ON_S = 0.3
BLINK_OFF_S = 1.2


class SeatLights:
    """One LED per seat: steady for whose turn it is, blinking for seats that still owe a move in a
    step played together, off otherwise."""

    def __init__(self, configs: Iterable[OutputConfig], *, pin_factory: Any = None) -> None:
        self.leds: dict[int, Any] = {}
        for config in configs:
            seat = int(config.name.removeprefix("seat"))
            self.leds[seat] = LED(config.pin, active_high=config.active_high, initial_value=False,
                                  pin_factory=pin_factory)
        self.lit: int | None = None
        self.blinking: frozenset[int] = frozenset()

    def light(self, seat: int | None) -> None:
        """Only ``seat`` lit, steady."""
        self.show(seat, frozenset())

    def show(self, steady: int | None, blinking: frozenset[int]) -> None:
        """``steady`` lit, ``blinking`` blinking, the rest off; an LED already doing that is left alone
        (restarting a blink on every redraw would make it stutter)."""
        for number, led in self.leds.items():
            if number in blinking and number != steady:
                if number not in self.blinking or self.lit == number:
                    led.blink(on_time=BLINK_ON_S, off_time=BLINK_OFF_S, background=True)
            elif number == steady:
                led.on()
            else:
                led.off()
        self.lit = steady
        self.blinking = frozenset(s for s in blinking if s != steady and s in self.leds)

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        self.leds.clear()


class Beeper:
    """An active buzzer playing short patterns on the station clock."""

    def __init__(self, config: OutputConfig | None, *, clock: Clock, quiet: bool = False,
                 pin_factory: Any = None) -> None:
        self.quiet = quiet
        self._clock = clock
        self.device = None if config is None else Buzzer(config.pin, active_high=config.active_high,
                                                         initial_value=False, pin_factory=pin_factory)
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

    def __init__(self, leds: Iterable[OutputConfig], buzzer: OutputConfig | None, *, clock: Clock,
                 quiet: bool = False, pin_factory: Any = None) -> None:
        self.lights = SeatLights(leds, pin_factory=pin_factory)
        try:
            self.beeper = Beeper(buzzer, clock=clock, quiet=quiet, pin_factory=pin_factory)
        except BaseException:
            self.lights.close()
            raise

    def poll(self, now_s: float) -> None:
        self.beeper.poll(now_s)

    def next_deadline_s(self) -> float | None:
        return self.beeper.next_deadline_s()

    def close(self) -> None:
        self.lights.close()
        self.beeper.close()
