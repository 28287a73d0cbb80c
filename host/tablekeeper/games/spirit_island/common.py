"""Small helpers every Spirit Island module shares: the table data of a game, seat track names,
and the game's own keys in the state's data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tablekeeper.core import packs as packlib
from tablekeeper.core.chance import Deck
from tablekeeper.core.frozen import thaw
from tablekeeper.core.packs import Pack
from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island.data import BlightCard, TableData
from tablekeeper.games.spirit_island.data_files import PACKAGE

if TYPE_CHECKING:
    from tablekeeper.core.game import Txn

SLOTS = ("ravage", "build", "explore")


def table(state: GameState) -> TableData:
    """The table data this game was set up with (packaged, or the user's copy)."""
    path = state.get("data_path")
    return datamod.load(str(path) if path else None, packs_of(state))


def packs_of(state: GameState) -> tuple[Pack, ...]:
    """The packs the game was set up with (checked against their hashes)."""
    return packlib.active({packlib.PACKS_OPTION: str(state.get("packs") or "")}, "spirit_island", PACKAGE)


def blight_card(state: GameState) -> BlightCard | None:
    name = state.get("blight_card")
    return table(state).blight_card(str(name)) if name else None


def get(state: GameState, key: str, default: Any = None) -> Any:
    """Game data as plain (thawed) JSON, safe to modify and put back."""
    return thaw(state.get(key, default))


@dataclass(frozen=True, slots=True)
class Slots:
    """The Invader Action cards: Ravage, Build and Explore slots (SI-INV-7)."""

    ravage: tuple[str, ...] = ()
    build: tuple[str, ...] = ()
    explore: tuple[str, ...] = ()

    def as_mapping(self) -> dict[str, list[str]]:
        return {"ravage": list(self.ravage), "build": list(self.build), "explore": list(self.explore)}

    @staticmethod
    def of(raw: Mapping[str, Sequence[str]]) -> Slots:
        return Slots(*(tuple(raw.get(name, ())) for name in SLOTS))


def slots(state: GameState) -> Slots:
    return Slots.of(get(state, "invader.slots", {}))


def put_slots(txn: Txn, new: Slots) -> None:
    txn.put("invader.slots", new.as_mapping())


def adversary(state: GameState) -> tuple[str, int]:
    raw = state.get("adversary")
    if not raw:
        return "", 0
    return str(raw[0]), int(raw[1])


def deck_of(state: GameState, name: str) -> Deck:
    src = state.sources[name]
    if not isinstance(src, Deck):
        raise TypeError(f"source {name!r} is not a deck")
    return src
