"""Panels for display roles a game leaves empty, built from the session's JSON view.

A game draws what it knows best; a station with more displays than the game fills still shows
something useful: the tracks on ``tokens`` and each seat's own tracks on ``seatN``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablekeeper.core.view import Panel


def fallback_panel(role: str, view: Mapping[str, Any]) -> Panel:
    """What ``role`` shows when the game's ``panels`` has nothing for it."""
    tracks: Mapping[str, int | None] = view.get("tracks", {})
    if role.startswith("seat") and role[4:].isdigit():
        seat = int(role[4:])
        if seat > int(view.get("seats", seat)):
            return Panel(f"Seat {seat}", ("(empty seat)",))
        prefix = f"{role}."
        lines = tuple(f"{name.removeprefix(prefix)} {_value(v)}" for name, v in tracks.items()
                      if name.startswith(prefix))
        turn = " *" if view.get("active_seat") == seat else ""
        return Panel(f"Seat {seat}{turn}", lines)
    if role == "tokens":
        lines = tuple(f"{name} {_value(v)}" for name, v in tracks.items() if not name.startswith("seat"))
        return Panel("Tokens", lines)
    step = str(view.get("step_label") or view.get("step") or "")
    phase = str(view.get("phase") or "").replace("_", " ").title()
    return Panel(f"Round {view.get('round', '')}", (phase, step))


def _value(value: int | None) -> str:
    return "-" if value is None else str(value)
