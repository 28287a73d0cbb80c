"""The ``tablekeeper`` command line: each subcommand lives in its own module and registers itself."""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

from tablekeeper import __version__
from tablekeeper.errors import TablekeeperError

if TYPE_CHECKING:  # argparse and logging load after the Pi's start-up splash (tablekeeper.station.splash)
    import argparse
    from collections.abc import Sequence

# Which module defines each subcommand (through ``register(subparsers)``, whose parsers set
# ``func``: args -> exit code). Only the module of the command being run is imported, so
# ``tablekeeper run`` does not pay for the installer or the doctor before its first frame.
COMMANDS: dict[str, str] = {
    "play": "tablekeeper.commands.play",
    "saves": "tablekeeper.commands.play",
    "campaign": "tablekeeper.commands.campaign",
    "run": "tablekeeper.commands.run",
    "config": "tablekeeper.commands.config",
    "appliance": "tablekeeper.appliance.commands",
    "hardware": "tablekeeper.appliance.commands",
    "doctor": "tablekeeper.commands.doctor",
    "counters": "tablekeeper.commands.counters",
    "fleet": "tablekeeper.commands.fleet",
    "packs": "tablekeeper.commands.packs",
    "completion": "tablekeeper.commands.completion",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or just the module behind ``only`` when it names one."""
    import importlib

    from tablekeeper.commands.suggest import SuggestingParser
    from tablekeeper.logs import LEVELS

    parser = SuggestingParser(
        prog="tablekeeper",
        description="Keep the bookkeeping of a cardboard co-op game: rounds, tokens, odds and counters.",
    )
    parser.add_argument("--version", action="version", version=f"tablekeeper {__version__}")
    parser.add_argument("--log-level", choices=LEVELS, default=None,
                        help="what reaches the log (default: info under systemd, else warning)")
    parser.add_argument("-v", "--verbose", action="store_const", const="info", dest="log_level",
                        help="same as --log-level info")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [COMMANDS[only]] if only in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(name).register(subparsers)
    return parser


def _command_word(argv: Sequence[str]) -> str | None:
    return next((word for word in argv if not word.startswith("-")), None)


def _default_save() -> str:
    """The save a ``tablekeeper run`` on the Pi keeps without ``--save`` (``commands.run.run_hardware``)."""
    from tablekeeper.appliance.paths import store_path

    return str(store_path())


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    splash = None
    if argv is None:  # the process's own command line: on the Pi, "starting..." before the rest loads
        if _command_word(words) == "run":
            # nothing built before the game's first frame is garbage: the collector would only walk
            # the modules as they load (a tenth of the start-up); the station collects and freezes
            # once, then turns it back on (``commands.run.settle_heap``)
            gc.disable()
        from tablekeeper.station.splash import show

        splash = show(words, default_save=_default_save)
    parser = build_parser(_command_word(words))
    args = parser.parse_args(words)
    if splash is not None:
        args.splash = splash
    if getattr(args, "wants_full_parser", False):  # `completion` describes every subcommand
        args.full_parser = build_parser()
    from tablekeeper.logs import configure, under_journal

    configure(args.log_level or ("info" if under_journal() else "warning"))
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args))
    except TablekeeperError as exc:
        print(f"tablekeeper: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
