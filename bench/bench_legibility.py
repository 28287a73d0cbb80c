"""Legibility benchmark: for each game and each screen of the reference build (hardware/station.toml)
and the compact variant (hardware/compact.toml), the smallest glyph drawn (capital height in pixels,
millimetres, and arcminutes at the display's reading distance) and how many pages the screen needs.

Target: at least 16 arcmin on every screen of the reference build. Each game's screens come from its
own start (4 seats where the game allows) through the station's screen model, as the displays draw
them. Run: ``.venv/bin/python bench/bench_legibility.py`` (``--markdown`` for docs/legibility.md).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tablekeeper.cli import build_parser
from tablekeeper.commands.run import build_simulated
from tablekeeper.config import load_config
from tablekeeper.sim.clock import FakeClock
from tablekeeper.ui.legibility import FLOOR_ARCMIN
from tablekeeper.ui.render import layout

ROOT = Path(__file__).resolve().parents[1]
BUILDS = {"reference": ROOT / "hardware" / "station.toml", "compact": ROOT / "hardware" / "compact.toml"}
GAMES = {"arkham": 4, "spirit_island": 4, "oathsworn": 4, "earthborne": 4}


def rows() -> list[tuple[str, str, str, str, int, float, float, int]]:
    out = []
    reference = load_config(BUILDS["reference"])
    for game, seats in GAMES.items():
        with tempfile.TemporaryDirectory() as tmp:
            args = build_parser().parse_args(["run", "--sim", "--no-counters", "--game", game, "--seats", str(seats),
                                              "--capture-dir", tmp])
            station, parts, _store = build_simulated(reference, args, display_mode=None, clock=FakeClock())
            try:
                station.start()
                assert station.screens is not None
                contents = {screen.role: screen for screen in station.screens.displays}
            finally:
                station.close()
                parts.close()
        for build, path in BUILDS.items():
            for display in load_config(path).displays:
                shown = contents[display.role]
                screen = layout(shown.panel, display.viewing, banner=shown.banner_text, selected=shown.selected)
                px = screen.face.cap_px
                viewing = display.viewing
                out.append((game, build, display.role, display.panel, px, viewing.mm(px), viewing.arcmin(px),
                            screen.pages))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    table = rows()
    if args.markdown:
        print("| game | build | display | panel | smallest glyph px | mm | arcmin | pages |")
        print("|---|---|---|---|---:|---:|---:|---:|")
        for game, build, role, panel, px, mm, arcmin, pages in table:
            flag = "" if arcmin >= FLOOR_ARCMIN else " (under 16)"
            print(f"| {game} | {build} | {role} | {panel} | {px} | {mm:.1f} | {arcmin:.1f}{flag} | {pages} |")
    else:
        for game, build, role, panel, px, mm, arcmin, pages in table:
            print(f"legibility {game} {build} {role} ({panel}): smallest glyph {px} px = {mm:.1f} mm = "
                  f"{arcmin:.1f} arcmin; {pages} page(s)")
    for build in BUILDS:
        worst = min(r[6] for r in table if r[1] == build)
        print(f"legibility {build} build: smallest text anywhere {worst:.1f} arcmin "
              f"({'meets' if worst >= FLOOR_ARCMIN else 'under'} the {FLOOR_ARCMIN:g} arcmin floor)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
