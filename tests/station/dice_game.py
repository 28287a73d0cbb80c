"""The station test game with a pair of six-sided dice as a chance source (rolls report into it)."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from tablekeeper.core.chance import Dice
from tablekeeper.core.state import GameState
from tests.station.station_game import StationGame


class DiceGame(StationGame):
    name = "dice_game"
    title = "Station test game with dice"

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        state = super().setup(state, options)
        faces = tuple(str(face) for face in range(1, 7))
        return replace(state, sources={"attack": Dice("attack", faces, count=2),
                                       "d4": Dice("d4", ("1", "2", "3", "4"), count=2)})


GAME = DiceGame()
