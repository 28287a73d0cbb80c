"""argparse with a "did you mean" for a mistyped choice (a subcommand, an action, ``--display``'s modes),
its help sized to the terminal without ``shutil``."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def columns() -> int:
    """As ``shutil.get_terminal_size().columns``: $COLUMNS, else the terminal's width, else 80."""
    try:
        width = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        width = 0
    if width <= 0:
        try:
            width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            width = 0
    return width if width > 0 else 80


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, sized without importing ``shutil`` (argparse imports it, and with it
    the compression modules, for every parser it makes: a tenth of a second at a Pi Zero's budget
    before the first frame)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, columns() - 2 if width is None else width)


class SuggestingParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose invalid-choice error names the nearest choice; its subcommands'
    parsers are of the same class (argparse makes them with the parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            import difflib  # only on the way to an error: the station's start-up does not pay for it

            close = difflib.get_close_matches(str(value), [str(c) for c in action.choices], n=1)
            if close:
                raise argparse.ArgumentError(action, f"invalid choice: {value!r} (did you mean {close[0]!r}?)")
        super()._check_value(action, value)
