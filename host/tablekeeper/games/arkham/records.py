"""Typed records of Arkham's pending work, kept in game data as JSON: a misspelt field is a type
error, and ``load``/``save`` are the one place that converts between the record and the state."""

from __future__ import annotations

from typing import TypeVar

import msgspec

from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState

R = TypeVar("R", bound=msgspec.Struct)


class Provoked(msgspec.Struct, frozen=True):
    """An action whose attacks of opportunity are being made (AH-AOO-2/5): who acted, the ready
    engaged enemies still to attack, and the action's effect to resolve afterwards."""

    seat: int
    left: tuple[str, ...]
    kind: str = "other"
    target: str | None = None
    skill: int | None = None
    ordered: bool = False  # ``left`` is the order the investigator named beforehand


class Soak(msgspec.Struct, frozen=True):
    """An enemy attack's damage and horror being assigned (AH-DMG-3/4): what is still to place and
    what each asset was given so far; it all lands together at the end (AH-DMG-8)."""

    seat: int
    damage: int
    horror: int
    assigned: dict[str, tuple[int, int]] = msgspec.field(default_factory=dict)


class Draws(msgspec.Struct, frozen=True):
    """1.4: the encounter cards drawn this Mythos phase whose fate is not yet told, by seat."""

    seats: tuple[int, ...]
    asking: int | None = None  # the seat whose card is being described
    kind: str | None = None  # "enemy" once the card is said to be an enemy


class Treachery(msgspec.Struct, frozen=True):
    """A treachery that stayed in play: in its drawer's threat area or at a location."""

    seat: int
    location: str | None = None


def load(state: GameState, key: str, kind: type[R]) -> R | None:
    raw = state.get(key)
    return None if raw is None else msgspec.convert(thaw(raw), type=kind)


def save(txn: Txn, key: str, record: msgspec.Struct | None) -> None:
    txn.put(key, None if record is None else msgspec.to_builtins(record))


def treacheries(state: GameState) -> dict[str, Treachery]:
    return msgspec.convert(thaw(state.get("treacheries", {})), type=dict[str, Treachery])


def save_treacheries(txn: Txn, cards: dict[str, Treachery]) -> None:
    txn.put("treacheries", msgspec.to_builtins(cards))
