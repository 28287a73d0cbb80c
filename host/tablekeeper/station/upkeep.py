"""Work the station owes the save but not the table: done once the game's first frame is out and the
presses waiting by then are handled, so neither waits for it."""

from __future__ import annotations

from collections.abc import Callable


class OnceWhenIdle:
    """A timed part of the station loop: ``work()`` once, at the first pass with no intent waiting
    (``busy()``); a burst of presses at the start is handled first."""

    def __init__(self, work: Callable[[], object], *, now_s: float, busy: Callable[[], bool]) -> None:
        self._work, self._busy = work, busy
        self._due: float | None = now_s

    def poll(self, now_s: float) -> None:
        if self._due is not None and now_s >= self._due and not self._busy():
            self._due = None
            self._work()

    def next_deadline_s(self) -> float | None:
        return self._due
