"""Debounced buttons and a quadrature rotary encoder, sampled from a polling task.

Pins are passed in (anything with ``value()``); buttons are active-low with the pull-up on.
Polling with an injected tick keeps the logic testable and free of interrupt races.
"""

from micropython import const

from counter.ticks import ticks_diff

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin

DEBOUNCE_MS = const(20)

# Quadrature transitions: index (previous << 2) | current -> step (-1, 0, +1).
_QUAD_STEPS = (0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0)


class Button:
    """Reports one press per stable low level held for ``debounce_ms``; bounces are ignored."""

    def __init__(self, pin: "Pin", event: int, now_ms: int, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.pin = pin
        self.event = event
        self._debounce_ms = debounce_ms
        self._raw = pin.value()
        self._stable = self._raw
        self._changed_ms = now_ms

    @property
    def is_down(self) -> bool:
        """The debounced state (what the app believes)."""
        return self._stable == 0

    def settled(self) -> bool:
        """The pin reads what the debouncer already believes: polling it now would change nothing."""
        return self.pin.value() == self._raw == self._stable

    def poll(self, now_ms: int) -> bool:
        """True exactly once for each debounced press."""
        raw = self.pin.value()
        if raw != self._raw:
            self._raw = raw
            self._changed_ms = now_ms
            return False
        if raw != self._stable and ticks_diff(now_ms, self._changed_ms) >= self._debounce_ms:
            self._stable = raw
            return raw == 0
        return False


class Encoder:
    """Counts detents of a quadrature encoder; ``steps_per_detent`` transitions make one step."""

    def __init__(self, pin_a: "Pin", pin_b: "Pin", steps_per_detent: int = 4) -> None:
        self._pin_a = pin_a
        self._pin_b = pin_b
        self._state = (pin_a.value() << 1) | pin_b.value()
        self._steps_per_detent = steps_per_detent
        self._accumulated = 0

    def poll(self) -> int:
        """Whole detents turned since the last call: positive clockwise."""
        current = (self._pin_a.value() << 1) | self._pin_b.value()
        if current != self._state:
            self._accumulated += _QUAD_STEPS[(self._state << 2) | current]
            self._state = current
        detents = 0
        while self._accumulated >= self._steps_per_detent:
            self._accumulated -= self._steps_per_detent
            detents += 1
        while self._accumulated <= -self._steps_per_detent:
            self._accumulated += self._steps_per_detent
            detents -= 1
        return detents
