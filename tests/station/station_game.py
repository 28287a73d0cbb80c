"""A tiny game for the station tests: a doom track with a threshold, HP per seat, turns in order."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from tablekeeper.core.flow import Flow, Phase, Step, Turns
from tablekeeper.core.game import Game, Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter


def _doom(txn: Txn) -> None:
    txn.add("doom", 1)


class StationGame(Game):
    name = "station_game"
    title = "Station test game"
    flow = Flow(phases=(
        Phase("mythos", "Mythos", (Step("doom", enter=_doom),), skip=lambda s: s.round == 1),
        Phase("action", "Action", (Step("turns", turns=Turns.CLOCKWISE),)),
    ))

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        tracks = {"doom": Counter(0, 0, 12, thresholds=(5,))}
        for seat in state.seat_numbers():
            tracks[f"seat{seat}.hp"] = Counter(9, 0, 9)
        return replace(state, tracks=tracks)


GAME = StationGame()
