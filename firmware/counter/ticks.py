"""Millisecond tick arithmetic that wraps like MicroPython's ``time.ticks_*``.

The clock is always passed in as a number, so the same logic runs on the board, under CPython
and under a fake clock in tests.
"""

from micropython import const

_PERIOD = const(1 << 30)
_HALF = const(1 << 29)
_MASK = const((1 << 30) - 1)


def ticks_diff(later: int, earlier: int) -> int:
    """Signed difference ``later - earlier`` on the wrapping 30-bit tick circle."""
    return ((later - earlier + _HALF) & _MASK) - _HALF


def ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) & _MASK
