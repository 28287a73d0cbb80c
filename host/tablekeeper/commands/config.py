"""``tablekeeper config check FILE``: validate a station config before wiring or running it, and say how
small the text on each display will look from where it is read."""

from __future__ import annotations

import argparse
from typing import Any

from tablekeeper.config import DisplayConfig, load_config
from tablekeeper.ui.legibility import FLOOR_ARCMIN, Viewing
from tablekeeper.ui.render import choose_face


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("config", help="work with station config files")
    actions = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate a station config (TOML); exit 2 on the first error")
    check.add_argument("file", metavar="FILE", help="the station config, e.g. hardware/station.toml")
    check.set_defaults(func=check_command)


def check_command(args: argparse.Namespace) -> int:
    cfg = load_config(args.file)
    parts = [
        _count(len(cfg.displays), "display"),
        _count(len(cfg.buttons), "button"),
        _count(len(cfg.leds), "LED"),
        "a buzzer" if cfg.buzzer is not None else "no buzzer",
        _count(len(cfg.counters), "counter"),
    ]
    print(f"{args.file}: ok ({', '.join(parts)}; {len(cfg.pin_map())} pins in use)")
    for display in cfg.displays:
        print(size_line(display))
    return 0


def size_line(display: DisplayConfig) -> str:
    """One display's smallest text: pixels, millimetres and arcminutes at its reading distance; a
    warning when that is under the legibility floor."""
    viewing = display.viewing
    face = choose_face(viewing)
    arcmin = viewing.arcmin(face.cap_px)
    line = (f"  {display.role:<6} {display.panel:>12} {viewing.pitch_mm:.3f} mm/px at {display.distance_cm:g} cm: "
            f"smallest text {face.cap_px} px = {viewing.mm(face.cap_px):.1f} mm = {arcmin:.1f} arcmin")
    if arcmin < FLOOR_ARCMIN - 0.05:
        line += (f"  WARNING: under {FLOOR_ARCMIN:g} arcmin, hard to read; a bigger panel or "
                 f"distance_cm <= {_distance_for(display, face.cap_px):g}")
    return line


def _distance_for(display: DisplayConfig, px: int) -> int:
    viewing = display.viewing
    distance = int(display.distance_cm)
    while distance > 10 and Viewing(viewing.pixels, viewing.pitch_mm, distance).arcmin(px) < FLOOR_ARCMIN:
        distance -= 1
    return distance


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
