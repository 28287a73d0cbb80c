"""``python -m tablekeeper.appliance``: the installer without the rest of the CLI. The install script
runs it on the venv it builds; its dry run runs it from the clone (``PYTHONPATH``) on any Python that
has the project's dependencies, and says what is missing where none has."""

from __future__ import annotations

import argparse
import sys

from tablekeeper.appliance import commands
from tablekeeper.errors import TablekeeperError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tablekeeper.appliance")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    commands.register(subparsers)
    args = parser.parse_args(["appliance", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.func(args))
    except TablekeeperError as exc:
        print(f"tablekeeper: {exc}", file=sys.stderr)
        return 2


raise SystemExit(main())
