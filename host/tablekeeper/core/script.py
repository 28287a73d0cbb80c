"""Script lines -> commands. Blank lines and ``#`` comments are ignored; verbs are lower case."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator

import msgspec

from tablekeeper.core.events import Command
from tablekeeper.errors import ScriptError

SESSION_VERBS = ("undo", "redo", "rewind")
BUTTON_VERBS = ("press", "hold")
MAX_LINE_CHARS = 4096
"""Longer lines are refused before ``shlex`` sees them (its tokenizer is quadratic in a token's length)."""


class ScriptLine(msgspec.Struct, frozen=True):
    number: int
    text: str
    command: Command


def parse_line(text: str, number: int = 1, origin: str = "script") -> ScriptLine | None:
    """One line -> a command, or None for a blank/comment line."""
    if len(text) > MAX_LINE_CHARS:
        raise ScriptError(f"line {number}: {len(text)} characters is too long (at most {MAX_LINE_CHARS})")
    stripped = text.split("#", 1)[0].strip()
    if not stripped:
        return None
    try:
        words = shlex.split(stripped)
    except ValueError as exc:
        raise ScriptError(f"line {number}: {exc}") from None
    verb, args = words[0].lower(), tuple(words[1:])
    return ScriptLine(number, stripped, Command(verb, args, origin))


def parse_lines(lines: Iterable[str], origin: str = "script") -> Iterator[ScriptLine]:
    for number, text in enumerate(lines, 1):
        line = parse_line(text, number, origin)
        if line is not None:
            yield line
