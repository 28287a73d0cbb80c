"""``tablekeeper config check FILE``: validate a station config before wiring or running it."""

from __future__ import annotations

import argparse
from typing import Any

from tablekeeper.config import load_config


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
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
