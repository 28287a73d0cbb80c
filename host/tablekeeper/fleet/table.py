"""The board as a plain-text table for ``tablekeeper fleet status``."""

from __future__ import annotations

from datetime import datetime

from tablekeeper.fleet.board import BoardView

COLUMNS = ("STATION", "TABLE", "MODE", "GAME", "ROUND", "DEMOS", "ALERTS")


def board_table(view: BoardView) -> str:
    rows = [COLUMNS]
    for tile in view.tiles:
        rows.append((tile.station, tile.table, tile.mode, tile.game or "-",
                     "-" if tile.round is None else str(tile.round), str(tile.demos_today),
                     "; ".join(tile.alerts) or "ok"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS) - 1)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True)) + "  " + row[-1]
             for row in rows]
    if not view.tiles:
        lines.append("(no station has reported to this broker)")
    average = "-" if view.average_demo_s is None else f"{view.average_demo_s:.0f} s"
    lines.append(f"demos today ({view.day}): {view.demos_today}, average length {average}; "
                 f"as of {datetime.now().strftime('%H:%M:%S')}")
    return "\n".join(lines)
