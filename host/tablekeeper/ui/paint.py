"""The OLEDs' surface: ``Screens`` turned into 1-bit pictures, one per display. Laying a screen out and
drawing it is the costly part of a frame, so each display keeps the pages it drew while its screen
stands: a page turn redraws nothing when that page was drawn before, and a press that leaves a display
alone costs a comparison."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from tablekeeper.ui.join_card import render_join
from tablekeeper.ui.legibility import Viewing
from tablekeeper.ui.model import Cover, JoinCard, Screens
from tablekeeper.ui.render import draw_screen, layout, render_panel


@dataclass(frozen=True, slots=True)
class Glass:
    """One display as the painter needs it: its role, its pixels, and how it is read."""

    role: str
    size: tuple[int, int]
    viewing: Viewing


class Painter:
    """Draws the displays of ``glasses`` (in their order); ``paged``: those whose screen has several pages."""

    def __init__(self, glasses: Sequence[Glass]) -> None:
        self.glasses = tuple(glasses)
        self.paged: frozenset[str] = frozenset()
        # role -> (what was drawn, its number of pages, the pages drawn so far)
        self._drawn: dict[str, tuple[tuple[Any, ...], int, dict[int, Image.Image]]] = {}
        self._covers: dict[str, tuple[Cover, Image.Image]] = {}
        self._joins: dict[str, tuple[JoinCard, Image.Image]] = {}

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(glass.role for glass in self.glasses)

    def paint(self, screens: Screens) -> dict[str, Image.Image]:
        """The picture of each display with a screen, at the screens' page (modulo each screen's pages)."""
        out: dict[str, Image.Image] = {}
        paged = set(self.paged)
        by_role = {screen.role: screen for screen in screens.displays}
        for glass in self.glasses:
            screen = by_role.get(glass.role)
            if screen is None:
                continue
            banner = screen.banner_text
            key = (screen.panel, glass.size, banner, screen.selected)
            cached = self._drawn.get(glass.role)
            if cached is None or cached[0] != key:
                cached = (key, 0, {})
            pages, drawn = cached[1], cached[2]
            image = drawn.get(screens.page % pages) if pages else None
            if image is None:
                fitted = layout(screen.panel, glass.viewing, banner=banner, selected=screen.selected,
                                page=screens.page)
                image = draw_screen(fitted, glass.size)
                drawn[fitted.page] = image
                if fitted.pages > 1:
                    paged.add(glass.role)
                else:
                    paged.discard(glass.role)
                self._drawn[glass.role] = (key, fitted.pages, drawn)
            if screen.join is not None:
                out[glass.role] = self._join(glass, screen.join)
            else:
                out[glass.role] = image if screen.cover is None else self._cover(glass, screen.cover)
        self.paged = frozenset(paged)
        return out

    def _join(self, glass: Glass, card: JoinCard) -> Image.Image:
        kept = self._joins.get(glass.role)
        if kept is None or kept[0] != card:
            kept = (card, render_join(card, glass.size))
            self._joins[glass.role] = kept
        return kept[1]

    def _cover(self, glass: Glass, cover: Cover) -> Image.Image:
        kept = self._covers.get(glass.role)
        if kept is None or kept[0] != cover:
            kept = (cover, render_panel(cover.panel, glass.size, banner=cover.banner))
            self._covers[glass.role] = kept
        return kept[1]
