"""``tablekeeper completion bash|zsh``: tab completion for every subcommand, option and choice.

shtab writes it from the same argparse parser the command runs, as a static script: a Tab press
starts no Python. (argcomplete would build the whole parser on every press, importing every
subcommand's module: about 2 s at a Pi Zero 2 W's speed.) Game names, files and directories are
completed too.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

from tablekeeper.errors import PathError

SHELLS: Final = ("bash", "zsh")
FILE_METAVARS: Final = frozenset({"FILE", "PATH", "SAVE"})
FILE_DESTS: Final = frozenset({"path", "file", "save", "script", "config", "out", "venv_dir"})
DIRECTORY_METAVARS: Final = frozenset({"DIR"})


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "completion", help="print the shell completion script (bash or zsh)",
        description="Print tab completion for tablekeeper. bash: save it as "
                    "/usr/share/bash-completion/completions/tablekeeper (or source it from ~/.bashrc); zsh: save "
                    "it as _tablekeeper in a directory on $fpath. The Pi installer puts both in place.")
    p.add_argument("shell", choices=SHELLS)
    p.add_argument("--output", type=Path, metavar="FILE",
                   help="write the script to this file (its directory must exist) instead of standard output")
    p.set_defaults(func=completion_command, wants_full_parser=True)


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``parser`` (the full ``tablekeeper`` parser) in ``shell``."""
    import shtab

    from tablekeeper import games

    for action in _all_actions(parser):
        metavar = action.metavar if isinstance(action.metavar, str) else ""
        if action.dest == "game" and action.choices is None:
            action.choices = games.names()
        elif metavar in DIRECTORY_METAVARS:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]  # shtab reads this attribute
        elif metavar in FILE_METAVARS or action.dest in FILE_DESTS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
    return str(shtab.complete(parser, shell=shell))


def _all_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += _all_actions(sub)
        else:
            found.append(action)
    return found


def completion_command(args: argparse.Namespace) -> int:
    script = completion_script(args.full_parser, args.shell)
    if args.output is None:
        print(script, end="")
        return 0
    if not args.output.parent.is_dir():
        raise PathError(f"completion --output {args.output}: no such directory {args.output.parent}")
    temporary = args.output.with_name(args.output.name + ".new")
    temporary.write_text(script, encoding="utf-8")
    temporary.replace(args.output)
    return 0
