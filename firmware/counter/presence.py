"""Physical presence before the REPL is handed back.

A REPL request can come from any process that opens the serial port, so the counter only hands
its REPL back when someone at the table holds one of its buttons for ``HOLD_MS`` while the
display asks; unanswered after ``ASK_MS``, the request lapses and the counter plays on.
"""

from micropython import const

from counter.ticks import ticks_diff

HOLD_MS = const(2000)
ASK_MS = const(30000)

WAITING = const(0)
GRANTED = const(1)
LAPSED = const(2)


class PresenceCheck:
    """Started by a REPL request; ``poll`` with whether any button is down, every input pass."""

    def __init__(self, now_ms: int) -> None:
        self.started_ms = now_ms
        self.held_since_ms = -1  # -1: no button down (yet, or released before the hold was long enough)

    def poll(self, held: bool, now_ms: int) -> int:
        if held:
            if self.held_since_ms < 0:
                self.held_since_ms = now_ms
            elif ticks_diff(now_ms, self.held_since_ms) >= HOLD_MS:
                return GRANTED
        else:
            self.held_since_ms = -1
        if ticks_diff(now_ms, self.started_ms) >= ASK_MS:
            return LAPSED
        return WAITING

    def screen(self, now_ms: int) -> tuple:
        """What the counter's display shows while it asks: the prompt and the seconds still to hold."""
        if self.held_since_ms < 0:
            return ("REPL? HOLD", "A BUTTON 2 S")
        left_ms = HOLD_MS - ticks_diff(now_ms, self.held_since_ms)
        return ("REPL: KEEP", "HOLDING " + str(max(0, left_ms + 999) // 1000) + " S")
