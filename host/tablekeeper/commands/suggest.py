"""argparse with a "did you mean" for a mistyped choice: a subcommand, an action, ``--display``'s modes."""

from __future__ import annotations

import argparse
from typing import Any


class SuggestingParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose invalid-choice error names the nearest choice; its subcommands'
    parsers are of the same class (argparse makes them with the parent's class)."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            import difflib  # only on the way to an error: the station's start-up does not pay for it

            close = difflib.get_close_matches(str(value), [str(c) for c in action.choices], n=1)
            if close:
                raise argparse.ArgumentError(action, f"invalid choice: {value!r} (did you mean {close[0]!r}?)")
        super()._check_value(action, value)
