"""Small helpers every Spirit Island module shares: the table data of a game, seat track names,
and the game's own keys in the state's data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablekeeper.core import packs as packlib
from tablekeeper.core.chance import Deck
from tablekeeper.core.frozen import thaw
from tablekeeper.core.packs import Pack
from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island.data import BlightCard, TableData
from tablekeeper.games.spirit_island.data_files import PACKAGE
from tablekeeper.games.spirit_island.record import Slots, shared

if TYPE_CHECKING:
    from tablekeeper.core.game import Txn

SLOTS = ("ravage", "build", "explore")


def table(state: GameState) -> TableData:
    """The table data this game was set up with (packaged, or the user's copy)."""
    return datamod.load(shared(state).data_path, packs_of(state))


def packs_of(state: GameState) -> tuple[Pack, ...]:
    """The packs the game was set up with (checked against their hashes)."""
    return packlib.active({packlib.PACKS_OPTION: shared(state).packs or ""}, "spirit_island", PACKAGE)


def blight_card(state: GameState) -> BlightCard | None:
    name = shared(state).blight_card
    return table(state).blight_card(name) if name else None


def get(state: GameState, key: str, default: Any = None) -> Any:
    """Game data as plain (thawed) JSON, safe to modify and put back."""
    return thaw(state.get(key, default))


def slots(state: GameState) -> Slots:
    return shared(state).slots


def put_slots(txn: Txn, new: Slots) -> None:
    txn.put("invader.slots", new)


def adversary(state: GameState) -> tuple[str, int]:
    return shared(state).adversary or ("", 0)


def deck_of(state: GameState, name: str) -> Deck:
    src = state.sources[name]
    if not isinstance(src, Deck):
        raise TypeError(f"source {name!r} is not a deck")
    return src
