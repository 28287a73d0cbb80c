"""The OLEDs' surface: ``Screens`` turned into 1-bit pictures, one per display. Laying a screen out and
drawing it is the costly part of a frame, so each display keeps the frames it drew while its screen
stands: a page turn or a scroll step redraws nothing when that frame was drawn before, and a press
that leaves a display alone costs a comparison. A cover (the demo's) is laid out on the display it
covers, like any panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from PIL import Image

from tablekeeper.ui.join_card import render_join
from tablekeeper.ui.legibility import Viewing
from tablekeeper.ui.model import DisplayScreen, JoinCard, Screens
from tablekeeper.ui.render import Fitted, Pacing, draw_screen, fit


class Glass(msgspec.Struct, frozen=True):
    """One display as the painter needs it: its role, its pixels, and how it is read."""

    role: str
    size: tuple[int, int]
    viewing: Viewing


class Painter:
    """Draws the displays of ``glasses`` (in their order); ``paged``: those whose screen moves with the
    clock (pages turn, a sentence scrolls), ``turn``: the tick at which one of them next changes."""

    def __init__(self, glasses: Sequence[Glass]) -> None:
        self.glasses = tuple(glasses)
        self.paged: frozenset[str] = frozenset()
        self.turn: int | None = None
        self.pacing = Pacing()
        # role -> (what was drawn, its frames, the frames drawn so far by index)
        self._drawn: dict[str, tuple[tuple[Any, ...], Fitted, dict[int, Image.Image]]] = {}
        self._joins: dict[str, tuple[JoinCard, Image.Image]] = {}

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(glass.role for glass in self.glasses)

    def paint(self, screens: Screens, tick: int | None = None) -> dict[str, Image.Image]:
        """The picture of each display with a screen at ``tick`` (default: the screens'), each display's
        frames counted from the tick it began showing what it shows."""
        now = screens.page if tick is None else tick
        out: dict[str, Image.Image] = {}
        paged: set[str] = set()
        turns: list[int] = []
        by_role = {screen.role: screen for screen in screens.displays}
        for glass in self.glasses:
            screen = by_role.get(glass.role)
            if screen is None:
                continue
            if screen.join is not None:  # the phones' join card: a picture of its own, which holds still
                out[glass.role] = self._join(glass, screen.join)
                continue
            key = self._key(glass, screen)
            cached = self._drawn.get(glass.role)
            if cached is None or cached[0] != key:
                cached = (key, self._fit(glass, screen), {})
                self._drawn[glass.role] = cached
            fitted = cached[1]
            local = self.pacing.local(glass.role, key, now)
            index = fitted.index_at(local)
            image = cached[2].get(index)
            if image is None:
                image = cached[2][index] = draw_screen(fitted.frames[index], glass.size)
            left = fitted.ticks_left(local)
            if left is not None:
                paged.add(glass.role)
                turns.append(now + left)
            out[glass.role] = image
        self.paged = frozenset(paged)
        self.turn = min(turns, default=None)
        return out

    def _join(self, glass: Glass, card: JoinCard) -> Image.Image:
        kept = self._joins.get(glass.role)
        if kept is None or kept[0] != card:
            kept = (card, render_join(card, glass.size))
            self._joins[glass.role] = kept
        return kept[1]

    @staticmethod
    def _key(glass: Glass, screen: DisplayScreen) -> tuple[Any, ...]:
        if screen.cover is not None:
            return ("cover", screen.cover, glass.size)
        return (screen.panel, glass.size, screen.banner_text, screen.selected)

    @staticmethod
    def _fit(glass: Glass, screen: DisplayScreen) -> Fitted:
        cover = screen.cover
        if cover is not None:
            return fit(cover.panel, glass.viewing, banner=cover.banner)
        return fit(screen.panel, glass.viewing, banner=screen.banner_text, selected=screen.selected)
