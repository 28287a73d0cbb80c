"""What one display shows, as plain data; ``ui`` turns it into pixels."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Panel:
    """A title line, a few text lines, and optionally one big value (an HP die, the doom count)."""

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
