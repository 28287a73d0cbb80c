"""The station's menu (the ``menu`` button): sound on/off, pairing a counter to a seat, the counters' state.

It is shown on the track display. up/down move, next (or select) chooses, back or menu leaves,
and it closes by itself after an idle time on the injected clock, so no run of presses can leave
the station stuck in it. Choosing an item returns what to do; the station does it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tablekeeper.core.view import Panel

MENU_IDLE_S = 15.0  # leave the menu (and give up pairing) after this long without a press
VISIBLE_ITEMS = 4  # rows of a 128x64 display under the title


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One line of the menu; ``action`` is "sound", "pair" (with ``seat``) or "counters"."""

    label: str
    action: str
    seat: int = 0


def menu_items(*, quiet: bool, seats: Sequence[int]) -> tuple[MenuItem, ...]:
    return (MenuItem("Sound on" if quiet else "Sound off", "sound"),
            *(MenuItem(f"Pair counter seat {seat}", "pair", seat) for seat in seats),
            MenuItem("Counters", "counters"))


class StationMenu:
    """Which page is open (the item list, a pairing prompt, the counter list) and where the cursor is."""

    def __init__(self, *, idle_s: float = MENU_IDLE_S) -> None:
        self.idle_s = idle_s
        self.items: tuple[MenuItem, ...] = ()
        self.cursor = 0
        self.page: str | None = None  # None (closed), "items", "pairing", "counters"
        self.pairing_seat = 0
        self.counter_lines: tuple[str, ...] = ()
        self.last_press_s = 0.0

    @property
    def is_open(self) -> bool:
        return self.page is not None

    def open(self, items: tuple[MenuItem, ...], now_s: float) -> None:
        self.items = items
        self.cursor = 0
        self.page = "items"
        self.last_press_s = now_s

    def close(self) -> None:
        self.page = None
        self.pairing_seat = 0

    def touch(self, now_s: float) -> None:
        self.last_press_s = now_s

    def move(self, step: int) -> None:
        if self.page == "items" and self.items:
            self.cursor = (self.cursor + step) % len(self.items)

    def chosen(self) -> MenuItem | None:
        return self.items[self.cursor] if self.page == "items" and self.items else None

    def show_pairing(self, seat: int) -> None:
        self.page = "pairing"
        self.pairing_seat = seat

    def show_counters(self, lines: tuple[str, ...]) -> None:
        self.page = "counters"
        self.counter_lines = lines or ("no counters found",)

    def deadline_s(self) -> float | None:
        return self.last_press_s + self.idle_s if self.is_open else None

    def expired(self, now_s: float) -> bool:
        deadline = self.deadline_s()
        return deadline is not None and now_s >= deadline

    def panel(self) -> Panel:
        """What the track display shows while the menu is open."""
        if self.page == "pairing":
            return Panel(f"Pair seat {self.pairing_seat}",
                         ("Press a button on", "the counter for", f"seat {self.pairing_seat}", "back: cancel"))
        if self.page == "counters":
            return Panel("Counters", self.counter_lines[:VISIBLE_ITEMS])
        first = min(max(0, self.cursor - VISIBLE_ITEMS + 1), max(0, len(self.items) - VISIBLE_ITEMS))
        shown = self.items[first:first + VISIBLE_ITEMS]
        return Panel("Menu", tuple(("> " if first + i == self.cursor else "  ") + item.label
                                   for i, item in enumerate(shown)))
