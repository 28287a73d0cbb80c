"""The games the station knows, loaded lazily by name so a broken or missing one never stops the rest."""

from __future__ import annotations

import importlib
import importlib.util

from tablekeeper.core.game import Game
from tablekeeper.core.packs import Schema
from tablekeeper.errors import TablekeeperError

GAMES: dict[str, str] = {
    "arkham": "tablekeeper.games.arkham",
    "spirit_island": "tablekeeper.games.spirit_island",
    "oathsworn": "tablekeeper.games.oathsworn",
    "earthborne": "tablekeeper.games.earthborne",
}


class UnknownGame(TablekeeperError, LookupError):
    """The named game does not exist (or its package is not installed)."""


def names() -> list[str]:
    """Games whose package is present."""
    return [name for name in GAMES if importlib.util.find_spec(GAMES[name]) is not None]


def load(name: str) -> Game:
    module_name = GAMES.get(name)
    if module_name is None or importlib.util.find_spec(module_name) is None:
        raise UnknownGame(f"unknown game {name!r} (games: {', '.join(names()) or 'none'})")
    module = importlib.import_module(module_name)
    game: Game = module.GAME
    return game



def pack_schemas() -> dict[str, Schema]:
    """What a pack of each game may hold (the game package's module ``pack``), for the games that take packs."""
    out = {}
    for name in names():
        module_name = f"{GAMES[name]}.pack"
        if importlib.util.find_spec(module_name) is not None:
            out[name] = importlib.import_module(module_name).SCHEMA
    return out
