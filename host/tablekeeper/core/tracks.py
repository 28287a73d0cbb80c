"""Counters with bounds and thresholds, cards holding two kinds of tokens, and time tracks whose
numbered slots fill in a declared order."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from tablekeeper.core.numbers import is_number
from tablekeeper.errors import Rejected

MAX_TRACK_VALUE = 9_999
"""No cardboard track goes near this; a track without its own bound stops here, so a typo like
``set fear 1000000000`` is refused rather than kept."""
MAX_TOKENS = 999
"""The most tokens of one kind a card can hold."""


class SeatTrack(msgspec.Struct, frozen=True, order=True):
    """Something one seat owns (its damage track, its hand, its ``a`` button), held as a value.

    ``name`` is the one place its written form (``seat2.damage``) is made and ``parse`` the one place it
    is read, so the console, the configs and the saves keep their words while code passes values.
    """

    seat: int
    track: str

    @property
    def name(self) -> str:
        return f"seat{self.seat}.{self.track}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, name: str) -> SeatTrack | None:
        """``seat2.damage`` as SeatTrack(2, "damage"); None for a table track (``doom``) or any other word."""
        word, dot, track = name.partition(".")
        digits = word.removeprefix("seat")
        if not (dot and track and word.startswith("seat") and is_number(digits, signed=False)):
            return None
        return cls(int(digits), track)


def seat_track(seat: int, track: str) -> str:
    """The written name of one seat's track (``seat2.damage``): the key the state and the saves use."""
    return SeatTrack(seat, track).name


class Counter(msgspec.Struct, frozen=True):
    """A bounded integer track. ``thresholds`` are values whose reaching is announced."""

    value: int = 0
    lo: int | None = 0
    hi: int | None = None
    thresholds: tuple[int, ...] = ()

    def check(self, name: str, value: int) -> int:
        """Return ``value`` if it is within bounds, else reject naming the track."""
        lo = -MAX_TRACK_VALUE if self.lo is None else max(self.lo, -MAX_TRACK_VALUE)
        hi = MAX_TRACK_VALUE if self.hi is None else min(self.hi, MAX_TRACK_VALUE)
        if value < lo:
            raise Rejected(f"{name} cannot go below {lo} (asked for {value})")
        if value > hi:
            raise Rejected(f"{name} cannot go above {hi} (asked for {value})")
        return value

    def with_value(self, value: int) -> Counter:
        return replace(self, value=value)

    def crossed(self, new_value: int) -> tuple[int, ...]:
        """Thresholds reached by moving from the current value up to ``new_value`` (equal counts)."""
        old = self.value
        return tuple(t for t in self.thresholds if old < t <= new_value)


class TokenCard(msgspec.Struct, frozen=True):
    """A card that collects two kinds of tokens, each with its own optional threshold.

    A kind without a threshold (``None``) never triggers from that kind, however many tokens it holds.
    """

    name: str
    progress: int = 0
    harm: int = 0
    progress_threshold: int | None = None
    harm_threshold: int | None = None

    def reached(self) -> tuple[str, ...]:
        """Token kinds whose threshold is met (equal or more)."""
        kinds = []
        if self.progress_threshold is not None and self.progress >= self.progress_threshold:
            kinds.append("progress")
        if self.harm_threshold is not None and self.harm >= self.harm_threshold:
            kinds.append("harm")
        return tuple(kinds)

    def add(self, kind: str, amount: int) -> TokenCard:
        if kind not in ("progress", "harm"):
            raise Rejected(f"unknown token kind {kind!r} (progress or harm)")
        current = getattr(self, kind)
        if current + amount < 0:
            raise Rejected(f"{self.name} has only {current} {kind}")
        if current + amount > MAX_TOKENS:
            raise Rejected(f"{self.name} cannot hold more than {MAX_TOKENS} {kind} (asked for {current + amount})")
        return replace(self, **{kind: current + amount})


class Slot(msgspec.Struct, frozen=True):
    """One numbered space on a time track; ``on_place`` fires when a token lands here,
    ``if_empty`` effects are checked at named later points (for example ``end_of_story``)."""

    number: int
    on_place: str | None = None
    if_empty: tuple[tuple[str, str], ...] = ()  # (check point, effect)


class TimeTrack(msgspec.Struct, frozen=True):
    """Slots filled one token at a time in ``order`` (slot numbers)."""

    slots: tuple[Slot, ...]
    order: tuple[int, ...]
    filled: int = 0

    @classmethod
    def rows(cls, rows: Sequence[Sequence[Slot]]) -> TimeTrack:
        """Fill the top row left to right, then the next row, and so on."""
        slots = tuple(s for row in rows for s in row)
        return cls(slots=slots, order=tuple(s.number for s in slots))

    def slot(self, number: int) -> Slot:
        for s in self.slots:
            if s.number == number:
                return s
        raise Rejected(f"no slot {number} on this track")

    @property
    def full(self) -> bool:
        return self.filled >= len(self.order)

    def place(self) -> tuple[TimeTrack, Slot]:
        """Place the next token; returns the new track and the slot it landed in."""
        if self.full:
            raise Rejected("the time track is full")
        slot = self.slot(self.order[self.filled])
        return replace(self, filled=self.filled + 1), slot

    def remove(self) -> TimeTrack:
        if self.filled == 0:
            raise Rejected("the time track is empty")
        return replace(self, filled=self.filled - 1)

    def empty_slots(self) -> tuple[Slot, ...]:
        return tuple(self.slot(n) for n in self.order[self.filled :])

    def effects_if_empty(self, point: str) -> tuple[tuple[int, str], ...]:
        """Effects for check point ``point`` from slots still empty, in fill order."""
        return tuple((s.number, eff) for s in self.empty_slots() for p, eff in s.if_empty if p == point)
