"""A clock that only moves when told to, shared by the scripted simulator and the tests."""

from __future__ import annotations


class FakeClock:
    """Call it for the time in seconds; ``advance`` moves it. Never reads the wall clock."""

    def __init__(self, start_s: float = 0.0) -> None:
        self.now_s = start_s

    def __call__(self) -> float:
        return self.now_s

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self.now_s += seconds
        return self.now_s
