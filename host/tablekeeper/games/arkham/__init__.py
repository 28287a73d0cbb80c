"""Arkham Horror: The Card Game (rule IDs from the catalogue's AH-* entries)."""

from tablekeeper.games.arkham.game import GAME, Arkham

__all__ = ["GAME", "Arkham"]
