"""The immutable game state every game shares: flow position, tracks, chance sources, prompt, data."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Any, TypeVar

import msgspec

from tablekeeper.core.chance import Source
from tablekeeper.core.tracks import Counter

EMPTY: Mapping[str, Any] = MappingProxyType({})
R = TypeVar("R")


class Prompt(msgspec.Struct, frozen=True):
    """A choice with labelled options; ``next`` waits until it is answered with ``choose N``."""

    id: str
    text: str
    options: tuple[str, ...]
    seat: int | None = None
    context: Mapping[str, Any] = msgspec.field(default_factory=lambda: EMPTY)


class Result(Enum):
    """How a game ended, as data: the station picks its sound and lights from this, not from words."""

    VICTORY = "victory"
    DEFEAT = "defeat"
    DRAW = "draw"


class GameState(msgspec.Struct, frozen=True):
    """Everything a game needs to know; changed only by ``Game.apply``.

    ``done`` lists seats whose turn in the current step is over; ``passes`` the seats that passed in
    a row (for "until every seat passes" turn orders); ``owing`` the seats that still have to act,
    pass or say done before the current step can end (derived after every event). ``auto`` is the
    session's flow mode: steps with nothing to decide run by themselves (off: every step waits for
    ``next``, as a teaching group wants). ``over`` is the ending's reason, ``result`` its kind.

    ``record`` is the game's typed record (``Game.record_type``, a frozen msgspec Struct), the state
    its modules share, converted from the log's JSON once when an event is applied; ``data`` keeps
    what a game has not typed (read by one module only).
    """

    game: str
    seats: int
    seed: int
    round: int = 1
    phase: str = ""
    step: str = ""
    active_seat: int | None = None
    lead: int = 1
    done: tuple[int, ...] = ()
    passes: tuple[int, ...] = ()
    owing: tuple[int, ...] = ()
    auto: bool = False
    auto_runs: int = 0  # steps the station ran by itself so far (each a press it saved)
    tracks: Mapping[str, Counter] = msgspec.field(default_factory=lambda: EMPTY)
    sources: Mapping[str, Source] = msgspec.field(default_factory=lambda: EMPTY)
    prompt: Prompt | None = None
    over: str | None = None
    result: Result | None = None
    data: Mapping[str, Any] = msgspec.field(default_factory=lambda: EMPTY)
    record: Any = None

    def typed(self, kind: type[R]) -> R:
        """The game's typed record, as its own type (a state of another game is a programming error)."""
        if not isinstance(self.record, kind):
            raise TypeError(f"{self.game}: its record is {type(self.record).__name__}, not {kind.__name__}")
        return self.record

    def value(self, track: str) -> int:
        return self.tracks[track].value

    def get(self, key: str, default: Any = None) -> Any:
        """Game-specific data a game has not typed (deep-frozen JSON values). A key of the game's
        typed record is read from ``record``: asking for it here is a reader left behind."""
        if self.record is not None and key in self.record.__struct_encode_fields__:
            raise KeyError(f"{self.game}: {key!r} is a field of the typed record; read state.record")
        return self.data.get(key, default)

    def seat_numbers(self) -> range:
        return range(1, self.seats + 1)
