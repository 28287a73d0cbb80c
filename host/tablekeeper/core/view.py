"""What one display shows, as plain data; ``ui`` turns it into pixels."""

from __future__ import annotations

from enum import IntEnum

import msgspec


class Priority(IntEnum):
    """How much a line matters when the panel is small: the renderer keeps KEY lines on the first page,
    pages NORMAL ones, and drops DETAIL lines rather than give them a page of their own."""

    KEY = 0
    NORMAL = 1
    DETAIL = 2


class Panel(msgspec.Struct, frozen=True):
    """A title line, a few text lines (most important first: a small display pages the rest), optionally
    one big value (an HP die, the doom count), and a legend for any short forms the lines use (SELECT
    held shows it; the renderer uses a short form only where the plain words do not fit).
    ``priorities`` optionally ranks the lines by index; a line without one is NORMAL, so the order of
    the lines stays the default priority. ``focus`` names a line the screen must show, and then holds
    still on it instead of turning pages."""

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    legend: tuple[tuple[str, str], ...] = ()  # (short form, plain words), shown on a page of its own
    priorities: tuple[Priority, ...] = ()
    focus: int | None = None  # a line that must be on screen (the menu's cursor): the screen holds still on it

    def priority(self, index: int) -> Priority:
        return self.priorities[index] if index < len(self.priorities) else Priority.NORMAL

    @classmethod
    def ranked(cls, title: str, items: tuple[tuple[str, Priority], ...], *, big: str | None = None,
               legend: tuple[tuple[str, str], ...] = ()) -> Panel:
        """A panel from (line, priority) items, in the order they should appear."""
        return cls(title, tuple(text for text, _ in items), big, legend, tuple(p for _, p in items))

    @classmethod
    def question(cls, title: str, text: str, answers: tuple[str, ...]) -> Panel:
        """An open question: the question is the key line, its answers details. The banner already
        shows the answer pointed at and each seat's last line what A and B mean, so a small display
        shows the question whole instead of paging through a list that repeats them."""
        return cls.ranked(title, ((text, Priority.KEY), *((a, Priority.DETAIL) for a in answers)))

    def legend_page(self) -> Panel:
        """The page SELECT shows: each short form in plain words."""
        return Panel("Key to short forms", tuple(f"{short} = {meaning}" for short, meaning in self.legend))
