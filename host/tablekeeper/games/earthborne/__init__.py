"""Earthborne Rangers: progress and harm, clearing in order, travel, rounds and days, challenge odds."""

from tablekeeper.games.earthborne.game import Earthborne

GAME = Earthborne()

__all__ = ["GAME", "Earthborne"]
