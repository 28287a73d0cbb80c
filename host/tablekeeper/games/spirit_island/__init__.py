"""Spirit Island: turn order, Invader track, Fear and Terror, Blight, per-Spirit bookkeeping."""

from tablekeeper.games.spirit_island.game import SpiritIsland

GAME = SpiritIsland()

__all__ = ["GAME", "SpiritIsland"]
