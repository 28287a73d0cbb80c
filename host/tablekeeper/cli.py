"""The ``tablekeeper`` command line: each subcommand lives in its own module and registers itself."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tablekeeper import __version__
from tablekeeper.errors import TablekeeperError

# Modules that define ``register(subparsers)``; each adds one or more subcommands whose
# parser sets ``func`` (args -> exit code). Imported lazily so ``--help`` stays fast.
COMMAND_MODULES: tuple[str, ...] = (
    "tablekeeper.play",
    "tablekeeper.config_cli",
    "tablekeeper.station_cli",
    "tablekeeper.appliance.commands",
    "tablekeeper.doctor",
    "tablekeeper.hw.counters_cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablekeeper",
        description="Keep the bookkeeping of a cardboard co-op game: rounds, tokens, odds and counters.",
    )
    parser.add_argument("--version", action="version", version=f"tablekeeper {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
