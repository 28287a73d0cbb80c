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
        f"{len(cfg.displays)} displays",
        f"{len(cfg.buttons)} buttons",
        f"{len(cfg.leds)} LEDs",
        "a buzzer" if cfg.buzzer is not None else "no buzzer",
        f"{len(cfg.counters)} counters",
    ]
    print(f"{args.file}: ok ({', '.join(parts)}; {len(cfg.pin_map())} pins in use)")
    return 0
