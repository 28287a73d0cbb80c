"""The station's own UI state beside the game's: the menu, the key to short forms, the NEXT that must
be pressed twice, the notice on the track display, the page long screens show, and what the table
was told about its counters. A frozen value; every update returns a new one, so ``ui.compose`` can
draw any surface from it and a test can build one by hand."""

from __future__ import annotations

import math
from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from tablekeeper.core.view import Panel
from tablekeeper.ui.menu import Menu
from tablekeeper.ui.model import JoinCard

MESSAGE_S = 3.0  # how long a refusal or notice stays on the track display
LEGEND_S = 10.0  # how long SELECT's key to short forms stays up without another press
PAGE_S = 3.0  # how long each page of a long screen stays up
TICKS_PER_S = 5  # the displays' clock: a scrolling sentence moves a character a tick


def tick_at(now_s: float) -> int:
    """The displays' tick at ``now_s`` on the station clock."""
    return math.floor(now_s * TICKS_PER_S + 1e-9)


class Message(msgspec.Struct, frozen=True):
    """A line on the track display until ``until_s`` on the station clock."""

    text: str
    until_s: float


class UiState(msgspec.Struct, frozen=True):
    menu: Menu = msgspec.field(default_factory=Menu)
    message: Message | None = None
    save_problem: str | None = None  # shown on the track display until a save succeeds
    not_saving: bool = False  # the save could not be opened for writing: the game plays on, unsaved
    legend_until_s: float | None = None  # SELECT held: displays with short forms show their key
    select_stepped: bool = False  # whether the last SELECT press stepped the selection (a hold undoes it)
    confirm_until_s: float | None = None  # a second NEXT before this ends a step for seats still playing
    page: int = 0  # the displays' tick (``tick_at``): which page long screens show, how far text scrolled
    paged: frozenset[str] = frozenset()  # displays whose screen moves (pages turn, a sentence scrolls)
    turn: int | None = None  # the tick at which one of those displays next shows another frame
    missing_counters: frozenset[int] = frozenset()  # seats whose counter went away (their display says so)
    unused_counters: frozenset[tuple[int, str]] = frozenset()  # (seat, slot) the game has no track for, said once
    locked: bool = False  # the organiser locked the panel: buttons are ignored
    quiet: bool = False
    cover: tuple[tuple[str, Panel], ...] = ()  # panels drawn over the game's (the demo's), by role
    cover_call: str | None = None  # the line pinned at the foot of each of them (the demo's call to action)
    join: JoinCard | None = None  # how phones join (the station serves their page), when it does
    join_shown: bool = False  # the track display shows the join card (until a press or a phone joins)

    # --- notices -------------------------------------------------------------------------------
    def say(self, text: str, now_s: float, seconds: float = MESSAGE_S) -> UiState:
        return replace(self, message=Message(text, now_s + seconds))

    def showing(self, text: str) -> bool:
        return self.message is not None and self.message.text == text

    # --- time ----------------------------------------------------------------------------------
    def expired(self, now_s: float) -> UiState:
        """The notice and the key to short forms gone once their time is up (the menu is closed by the
        station, which also gives up a pairing), and the page turned when long screens show."""
        out = self
        if out.message is not None and now_s >= out.message.until_s:
            out = replace(out, message=None)
        if out.legend_until_s is not None and now_s >= out.legend_until_s:
            out = replace(out, legend_until_s=None)
        if out.paged and tick_at(now_s) != out.page:
            out = replace(out, page=tick_at(now_s))
        return out

    def deadline_s(self) -> float | None:
        due = [self.message.until_s if self.message is not None else None, self.legend_until_s,
               self.menu.deadline_s(), self._turn_s()]
        return min((d for d in due if d is not None), default=None)

    def _turn_s(self) -> float | None:
        if not self.paged:
            return None
        turn = self.turn if self.turn is not None and self.turn > self.page else self.page + 1
        return turn / TICKS_PER_S

    # --- what is drawn over the game -------------------------------------------------------------
    def covered(self, panels: Mapping[str, Panel], call: str | None = None) -> UiState:
        return replace(self, cover=tuple(panels.items()), cover_call=call)

    def cover_for(self, role: str) -> Panel | None:
        return next((panel for name, panel in self.cover if name == role), None)
