"""Panels for display roles a game leaves empty, built from the game's state.

A game draws what it knows best; a station with more displays than the game fills still shows
something useful: the tracks on ``tokens`` and each seat's own tracks on ``seatN``.
"""

from __future__ import annotations

from tablekeeper.core.game import Game
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel


def fallback_panel(role: str, state: GameState, game: Game) -> Panel:
    """What ``role`` shows when the game's ``panels`` has nothing for it."""
    if role.startswith("seat") and role[4:].isdigit():
        seat = int(role[4:])
        if seat > state.seats:
            return Panel(f"Seat {seat}", ("(empty seat)",))
        prefix = f"{role}."
        lines = tuple(f"{name.removeprefix(prefix)} {_value(v)}" for name, v in game.view_tracks(state).items()
                      if name.startswith(prefix))
        turn = " *" if state.active_seat == seat else ""
        return Panel(f"Seat {seat}{turn}", lines)
    if role == "tokens":
        lines = tuple(f"{name} {_value(v)}" for name, v in game.view_tracks(state).items()
                      if not name.startswith("seat"))
        return Panel("Tokens", lines)
    label = game.flow.step(state.phase, state.step).title if state.step else ""
    step = str(label or state.step or "")
    phase = str(state.phase or "").replace("_", " ").title()
    return Panel(f"Round {state.round}", (phase, step))


def _value(value: int | None) -> str:
    return "-" if value is None else str(value)
