"""The station's menu (the ``menu`` button): sound on/off, pairing a counter to a seat, the counters' state.

It is shown on the track display. up/down move, next (or select) chooses, back or menu leaves,
and it closes by itself after an idle time on the injected clock, so no run of presses can leave
the station stuck in it. A frozen value: each update returns a new menu; the station does what a
chosen item asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec
from msgspec.structs import replace

from tablekeeper.core.view import Panel

MENU_IDLE_S = 15.0  # leave the menu (and give up pairing) after this long without a press
MenuPage = Literal["items", "pairing", "counters"]


class MenuItem(msgspec.Struct, frozen=True):
    """One line of the menu; ``action`` is "sound", "pair" (with ``seat``), "counters" or "phones"."""

    label: str
    action: str
    seat: int = 0


def menu_items(*, quiet: bool, seats: Sequence[int], phones: bool = False) -> tuple[MenuItem, ...]:
    """The items; ``phones``: the station serves the phones' page, so its join card can be shown again."""
    return (MenuItem("Sound on" if quiet else "Sound off", "sound"),
            *(MenuItem(f"Pair counter seat {seat}", "pair", seat) for seat in seats),
            MenuItem("Counters", "counters"), *((MenuItem("Phones: join code", "phones"),) if phones else ()))


class Menu(msgspec.Struct, frozen=True):
    """Which page is open (None: closed; the item list, a pairing prompt, the counter list), where the
    cursor is, and when it was last pressed."""

    page: MenuPage | None = None
    items: tuple[MenuItem, ...] = ()
    cursor: int = 0
    pairing_seat: int = 0
    counter_lines: tuple[str, ...] = ()
    last_press_s: float = 0.0
    idle_s: float = MENU_IDLE_S

    @property
    def is_open(self) -> bool:
        return self.page is not None

    def opened(self, items: tuple[MenuItem, ...], now_s: float) -> Menu:
        return replace(self, items=items, cursor=0, page="items", last_press_s=now_s)

    def closed(self) -> Menu:
        return replace(self, page=None, pairing_seat=0)

    def touched(self, now_s: float) -> Menu:
        return replace(self, last_press_s=now_s)

    def moved(self, step: int) -> Menu:
        if self.page == "items" and self.items:
            return replace(self, cursor=(self.cursor + step) % len(self.items))
        return self

    def chosen(self) -> MenuItem | None:
        return self.items[self.cursor] if self.page == "items" and self.items else None

    def pairing(self, seat: int) -> Menu:
        return replace(self, page="pairing", pairing_seat=seat)

    def counters(self, lines: tuple[str, ...]) -> Menu:
        return replace(self, page="counters", counter_lines=lines or ("no counters found",))

    def deadline_s(self) -> float | None:
        return self.last_press_s + self.idle_s if self.is_open else None

    def expired(self, now_s: float) -> bool:
        deadline = self.deadline_s()
        return deadline is not None and now_s >= deadline

    def panel(self) -> Panel:
        """What the track display shows while the menu is open: the items with the cursor's marked and
        in focus, so the display holds still on the rows that show it (however few it has)."""
        if self.page == "pairing":
            return Panel(f"Pair seat {self.pairing_seat}",
                         (f"Press a button on the counter for seat {self.pairing_seat}.", "BACK cancels."))
        if self.page == "counters":
            return Panel("Counters", self.counter_lines)
        return Panel("Menu", tuple(("> " if i == self.cursor else "  ") + item.label
                                   for i, item in enumerate(self.items)), focus=self.cursor)
