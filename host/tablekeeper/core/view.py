"""What one display shows, as plain data; ``ui`` turns it into pixels."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Panel:
    """A title line, a few text lines (most important first: a small display pages the rest), optionally
    one big value (an HP die, the doom count), and a legend for any short forms the lines use."""

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    legend: tuple[tuple[str, str], ...] = ()  # (short form, plain words), shown on a page of its own
