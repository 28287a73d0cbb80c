"""The one reading of a number a person types (a script word, a console line, a command-line value):
ASCII digits 0-9 with an optional leading sign, and nothing else.

``str.isdigit()`` and ``int()`` each accept more, and not the same more: ``'³'.isdigit()`` is true
but ``int('³')`` fails; ``int()`` reads ``'١٢'``, ``'１'``, ``'1_0'`` and ``' 3 '``. Every verb reads its
numbers here, so a word is a number everywhere or nowhere.
"""

from __future__ import annotations

import re
from typing import Final

from tablekeeper.errors import NotANumber

MAX_DIGITS: Final = 12
"""More digits than any count at a table (the tracks stop at 9,999); longer is refused unread."""
OPTION_MAX_DIGITS: Final = 100
"""A command-line value may be long (a seed); its own check then says what is too large."""

_NUMBER: Final = re.compile(r"[+-]?[0-9]+")  # [0-9], not \d: \d matches every script's digits
_UNSIGNED: Final = re.compile(r"[0-9]+")


def is_number(word: str, *, signed: bool = True, max_digits: int = MAX_DIGITS) -> bool:
    """Whether ``word`` reads as a number (for verbs whose word may be a number or a name)."""
    pattern = _NUMBER if signed else _UNSIGNED
    return pattern.fullmatch(word) is not None and len(word.lstrip("+-")) <= max_digits


def parse_number(word: str, what: str, *, signed: bool = True, max_digits: int = MAX_DIGITS) -> int:
    """``word`` as an int, or ``NotANumber`` naming ``what`` and the word."""
    if is_number(word, signed=signed, max_digits=max_digits):
        return int(word)
    if _NUMBER.fullmatch(word) and not signed and word[0] in "+-":
        raise NotANumber(f"{what} must be a whole number without a sign, not {_shown(word)}")
    if _NUMBER.fullmatch(word):
        raise NotANumber(f"{what} must be a whole number of at most {max_digits} digits, not {_shown(word)}")
    hint = "" if word.isascii() and "_" not in word else " (digits 0-9 only)"
    raise NotANumber(f"{what} must be a whole number, not {_shown(word)}{hint}")


def option_number(text: str) -> int:
    """``type=`` for a command-line option that takes a whole number: argparse prints the refusal."""
    import argparse

    try:
        return parse_number(text, "the value", max_digits=OPTION_MAX_DIGITS)
    except NotANumber:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number (digits 0-9, optional sign)") from None


def _shown(word: str) -> str:
    """The word as a refusal quotes it: whole when short, its start and length when not."""
    return repr(word) if len(word) <= 24 else f"{word[:20]!r}... ({len(word)} characters)"
