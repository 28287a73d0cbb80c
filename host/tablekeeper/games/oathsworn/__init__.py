"""Oathsworn: Into the Deepwood on the station (rule IDs ``OS-...`` from the rule catalogue)."""

from tablekeeper.games.oathsworn.game import Oathsworn

GAME = Oathsworn()

__all__ = ["GAME", "Oathsworn"]
