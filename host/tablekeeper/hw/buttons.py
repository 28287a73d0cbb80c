"""Push buttons on gpiozero, debounced in software on an injected clock.

gpiozero's ``bounce_time`` lives in the pin driver (and mock pins ignore it), so debouncing, hold
and auto-repeat are done here against a clock passed in: tests drive a fake clock and never sleep.
Each switch is a gpiozero ``DigitalInputDevice``, the input half of its ``Button``: ``Button`` adds
``HoldMixin``, whose thread per button wakes ten times a second to time holds; with holds timed
here, fourteen such threads would only cost an idle station (and a Pi Zero) CPU.

Debouncing is leading-edge: the first edge after a quiet spell counts at once (no added latency),
then edges are ignored for ``debounce_s``; if the contact settled on the other level meanwhile,
``poll`` reports it when the lock-out ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from gpiozero import DigitalInputDevice

from tablekeeper.intents import ButtonIntent, Gesture

Clock = Callable[[], float]
Emit = Callable[[ButtonIntent], None]

REPEAT_ROLES = frozenset({"up", "down"})
MAX_REPEATS_PER_POLL = 20  # after a stall, catch up a little but never flood the queue


class ButtonPin(NamedTuple):
    """A push button: the role its gestures carry, its BCM pin, and whether the pin pulls up (a switch
    to ground) or down (a switch to 3V3)."""

    role: str
    pin: int
    pull_up: bool = True


class ButtonTiming(NamedTuple):
    """Seconds: the lock-out after an edge, how long a press must last to be a hold, and the
    auto-repeat interval once held."""

    debounce_s: float
    hold_s: float
    repeat_interval_s: float


class DebouncedButton:
    """One push button on a gpiozero input; edges arrive on gpiozero's thread, gestures go to ``emit``."""

    def __init__(self, role: str, pin: int, *, pull_up: bool = True, emit: Emit, clock: Clock,
                 timing: ButtonTiming, pin_factory: Any = None, repeats: bool | None = None) -> None:
        self.role = role
        self._emit = emit
        self._clock = clock
        self._timing = timing
        self._repeats = role in REPEAT_ROLES if repeats is None else repeats
        self._lock = threading.Lock()
        self._raw_down = False
        self._down = False
        self._last_change_s = float("-inf")
        self._pressed_s = 0.0
        self._held = False
        self._next_repeat_s = 0.0
        self.device = DigitalInputDevice(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory)
        self._raw_down = bool(self.device.is_active)
        self.device.when_activated = self._on_pressed
        self.device.when_deactivated = self._on_released

    def _on_pressed(self) -> None:
        self.edge(True, self._clock())

    def _on_released(self) -> None:
        self.edge(False, self._clock())

    @property
    def is_down(self) -> bool:
        """The debounced state."""
        return self._down

    def edge(self, down: bool, now_s: float) -> None:
        """A raw level change seen at ``now_s``; counts at once unless inside the lock-out."""
        with self._lock:
            self._raw_down = down
            if down != self._down and now_s >= self._last_change_s + self._timing.debounce_s:
                self._change(down, now_s)

    def poll(self, now_s: float) -> None:
        """Settle a level that changed during the lock-out; fire hold and repeats that are due."""
        with self._lock:
            if self._raw_down != self._down and now_s >= self._last_change_s + self._timing.debounce_s:
                self._change(self._raw_down, now_s)
            if not self._down:
                return
            if not self._held and now_s >= self._pressed_s + self._timing.hold_s:
                self._held = True
                self._next_repeat_s = self._pressed_s + self._timing.hold_s + self._timing.repeat_interval_s
                self._emit(ButtonIntent(self.role, Gesture.HOLD, now_s))
            if self._held and self._repeats:
                fired = 0
                while now_s >= self._next_repeat_s and fired < MAX_REPEATS_PER_POLL:
                    self._emit(ButtonIntent(self.role, Gesture.REPEAT, now_s))
                    self._next_repeat_s += self._timing.repeat_interval_s
                    fired += 1
                if now_s >= self._next_repeat_s:  # skip what could not be caught up
                    self._next_repeat_s = now_s + self._timing.repeat_interval_s

    def next_deadline_s(self) -> float | None:
        """When ``poll`` next has something to do, or None while idle."""
        with self._lock:
            if self._raw_down != self._down:
                return self._last_change_s + self._timing.debounce_s
            if self._down and not self._held:
                return self._pressed_s + self._timing.hold_s
            if self._down and self._repeats:
                return self._next_repeat_s
            return None

    def _change(self, down: bool, now_s: float) -> None:
        self._down = down
        self._last_change_s = now_s
        if down:
            self._pressed_s = now_s
            self._held = False
        self._emit(ButtonIntent(self.role, Gesture.PRESS if down else Gesture.RELEASE, now_s))

    def close(self) -> None:
        self.device.when_activated = None
        self.device.when_deactivated = None
        self.device.close()


class ButtonPanel:
    """The station's buttons by role; the station loop calls ``poll`` when ``next_deadline_s`` comes."""

    def __init__(self, pins: Iterable[ButtonPin], *, emit: Emit, clock: Clock, timing: ButtonTiming,
                 pin_factory: Any = None) -> None:
        self.buttons: dict[str, DebouncedButton] = {}
        try:
            for role, pin, pull_up in pins:
                self.buttons[role] = DebouncedButton(role, pin, pull_up=pull_up, emit=emit, clock=clock,
                                                     timing=timing, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def poll(self, now_s: float) -> None:
        for button in self.buttons.values():
            button.poll(now_s)

    def next_deadline_s(self) -> float | None:
        deadlines = [d for b in self.buttons.values() if (d := b.next_deadline_s()) is not None]
        return min(deadlines, default=None)

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
