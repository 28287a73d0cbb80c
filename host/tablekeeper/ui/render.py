"""Fit a ``Panel`` to one display and draw it: the screen model the OLEDs and the terminal view share.

The text size is chosen from the display's pixel pitch and reading distance (``Viewing``): the
smallest face whose capital letters reach 16 arcmin, else the largest the panel has rows for. Lines
are word-wrapped (``textwrap``), never cut; what does not fit is paged. A banner (a pending change, a
prompt's pointed option, a message) is pinned to the bottom rows in full. Lines the game ranks KEY
come first; DETAIL lines fill spare rows and are dropped rather than paged, so a small panel shows
fewer, bigger items. A panel's legend for its short forms is its own page (``Panel.legend_page``),
which the station shows while SELECT asks for it.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from tablekeeper.core.view import Panel, Priority
from tablekeeper.ui.fonts import BIG, cell, font
from tablekeeper.ui.legibility import FLOOR_ARCMIN, KNOWN_PANELS, Viewing
from tablekeeper.ui.model import names_track
from tablekeeper.ui.state import PAGE_S

MARKER: Final = ">"  # drawn before the selected track's line

# The bitmap fonts cover ISO 8859-1; common typography outside it gets a plain stand-in.
STAND_INS = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2192": "->", "\u2190": "<-",
                           "\u2026": "...", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                           "\u2022": "*", "\u2713": "v", "\u2717": "x", "\u2264": "<=", "\u2265": ">="})

# Height of a capital letter in each bundled font, in pixels (measured from the glyph for 'H').
CAP_PX: Final = {"5x8": 6, "6x10": 7, "6x13B": 9, "10x20": 13}


@dataclass(frozen=True, slots=True)
class Face:
    """A bundled bitmap font drawn at a whole-number scale (pixels doubled for a bigger face)."""

    name: str
    scale: int = 1

    @property
    def cell(self) -> tuple[int, int]:
        width, height = cell(self.name)
        return width * self.scale, height * self.scale

    @property
    def cap_px(self) -> int:
        return CAP_PX[self.name] * self.scale

    def __str__(self) -> str:
        return self.name if self.scale == 1 else f"{self.name}x{self.scale}"


# Smallest to largest capital letter.
FACES: Final = (Face("6x10"), Face("6x13B"), Face("5x8", 2), Face("10x20"), Face("6x13B", 2))


def default_viewing(size: tuple[int, int]) -> Viewing:
    """The small module a size usually comes as, read from a seat: for callers that know no better."""
    return Viewing.of(size, "0.91in" if size[1] <= 32 else "0.96in", 50.0)


def choose_face(viewing: Viewing) -> Face:
    """The smallest face that reaches the legibility floor and leaves the panel enough rows; else the
    largest that does leave them (the compact modules: fewer, bigger items)."""
    height = viewing.pixels[1]
    min_rows = 3 if height >= 64 else 2  # the title and at least one (two) rows of body
    usable = [f for f in FACES if height // f.cell[1] >= min_rows and viewing.pixels[0] // f.cell[0] >= 10]
    if not usable:
        raise ValueError(f"no text face fits a {viewing.pixels[0]}x{height} display")
    for face in usable:
        if viewing.arcmin(face.cap_px) >= FLOOR_ARCMIN:
            return face
    return usable[-1]


def printable(text: str) -> str:
    """``text`` in the fonts' character set: stand-ins for dashes, arrows, quotes; '?' for the rest."""
    return text.translate(STAND_INS).encode("latin-1", errors="replace").decode("latin-1")


def wrap(text: str, columns: int) -> list[str]:
    """Word-wrapped rows, continuation rows indented; a word longer than a row (a long name on a big
    face) is hyphenated across rows rather than cut. Parts joined by " | " (a seat's status and what
    its buttons do) start rows of their own when the whole does not fit."""
    return list(_wrapped(text, columns))


@functools.lru_cache(maxsize=512)
def _wrapped(text: str, columns: int) -> tuple[str, ...]:
    """``wrap``'s rows, kept: a press changes one line of a screen, and the others wrap as before."""
    parts = text.split(" | ")
    if len(parts) > 1 and len(printable(text)) > columns:
        return tuple(row for part in parts for row in _wrap_one(part, columns))
    return tuple(_wrap_one(text, columns))


def _wrap_one(text: str, columns: int) -> list[str]:
    indent = " " if columns > 12 else ""
    room = columns - len(indent)
    words = [part for word in printable(text).split() for part in _hyphenate(word, room)]
    rows = textwrap.wrap(" ".join(words), columns, subsequent_indent=indent, break_long_words=True,
                         break_on_hyphens=False)
    return rows or [""]


def _hyphenate(word: str, room: int) -> list[str]:
    if len(word) <= room or room < 4:
        return [word]
    step = room - 1
    parts = [word[i:i + step] + "-" for i in range(0, len(word) - 1, step)]
    parts[-1] = parts[-1][:-1]
    if len(parts) > 1 and len(parts[-1]) + len(parts[-2]) - 1 <= room:  # no one-letter tail
        parts[-2:] = [parts[-2][:-1] + parts[-1]]
    return parts


@dataclass(frozen=True, slots=True)
class Screen:
    """One page of a panel fitted to a display: what to draw, row by row, in one face."""

    face: Face
    columns: int
    title: str
    rows: tuple[str, ...]  # body rows, top to bottom (the marked row starts with MARKER)
    banner: tuple[str, ...]  # inverted rows pinned at the bottom
    big: str | None
    page: int  # 0-based
    pages: int
    title_rest: tuple[str, ...] = ()  # a long title's rows after the bar's, above the body on the first page


def layout(panel: Panel, viewing: Viewing, *, banner: str | None = None, selected: str | None = None,
           page: int = 0, title_room: int | None = None) -> Screen:
    """Fit ``panel`` to the display: wrap every line, pin the banner, and pick page ``page`` (modulo
    the number of pages, so a caller may count pages by time)."""
    face = choose_face(viewing)
    width, height = viewing.pixels
    cw, ch = face.cell
    columns = width // cw
    body_rows = (height - ch) // ch  # the title bar takes one row
    big = panel.big
    big_cols = 0
    if big:
        big_face = _big_face(face)
        big_cols = -(-(len(big) * big_face.cell[0] + 2) // cw)  # whole text columns the value covers
    body_cols = columns - big_cols

    wrapped: list[list[str]] = []  # each line's rows, kept on one page where they fit
    title = printable(panel.title)
    title_rest: list[str] = []
    title_room = columns if title_room is None else title_room
    if len(title) > title_room:  # a long title (a prompt's question) is never cut: its first row
        title_rows = wrap(title, title_room)  # is the bar, the rest opens the first page
        title, title_rest = title_rows[0], [row.strip() for row in title_rows[1:]]
    details: list[list[str]] = []  # DETAIL lines, each kept whole, shown only where there is room
    for index in sorted(range(len(panel.lines)), key=panel.priority):  # stable: order within a priority
        line = panel.lines[index]
        marked = selected is not None and names_track(line, selected)
        rows = wrap(f"{MARKER}{line}" if marked else line, body_cols)
        if panel.priority(index) is Priority.DETAIL and not marked:
            details.append(rows)
        else:
            wrapped.append(rows)

    banner_all = wrap(banner, columns) if banner is not None else []
    has_body = bool(wrapped or details or title_rest)
    banner_room = body_rows - 1 if has_body and body_rows > 1 else body_rows
    banner_pages = _chunks(banner_all, banner_room) if banner_all else [[]]
    most_banner = max(len(chunk) for chunk in banner_pages)
    room = max(1, body_rows - most_banner) if has_body else 0
    body_pages = _pages(wrapped, room, first_room=room - len(title_rest))
    for rows in details:  # lower priority goes first: a detail never costs a page of its own
        if len(body_pages[-1]) + len(rows) > room - (len(title_rest) if len(body_pages) == 1 else 0):
            break
        body_pages[-1] = body_pages[-1] + rows
    pages = max(len(body_pages), len(banner_pages))
    if pages > 1 and len(title) + len(f" {pages}/{pages}") > columns and title_room == columns:
        # the bar needs room for the page mark: wrap the title narrower
        return layout(panel, viewing, banner=banner, selected=selected, page=page,
                      title_room=columns - len(f" {pages}/{pages}"))
    page %= pages
    rows_now = body_pages[page % len(body_pages)]
    return Screen(face, columns, title, tuple(rows_now), tuple(banner_pages[page % len(banner_pages)]), big, page,
                  pages, tuple(title_rest) if page % len(body_pages) == 0 else ())


def _pages(lines: Sequence[list[str]], room: int, *, first_room: int | None = None) -> list[list[str]]:
    """Lines' rows in pages of ``room`` rows (``first_room`` on the first, under a long title's rest);
    a line that fits on a page is not split across two."""
    room = max(1, room)
    limits = [room if first_room is None else max(0, first_room)]
    pages: list[list[str]] = [[]]
    for rows in lines:
        if len(pages[-1]) + len(rows) > limits[-1] and len(rows) <= room and (pages[-1] or limits[-1] < room):
            pages.append([])
            limits.append(room)
        for row in rows:
            if len(pages[-1]) >= limits[-1]:
                pages.append([])
                limits.append(room)
            pages[-1].append(row)
    return pages


def _chunks(rows: Sequence[str], size: int) -> list[list[str]]:
    size = max(1, size)
    return [list(rows[i:i + size]) for i in range(0, len(rows), size)] or [[]]


def _big_face(face: Face) -> Face:
    return Face(BIG) if Face(BIG).cap_px > face.cap_px else Face(face.name, face.scale * 2)


def page_count(panel: Panel, viewing: Viewing, *, banner: str | None = None, selected: str | None = None) -> int:
    """How many pages ``panel`` needs on this display (1 when it fits)."""
    return layout(panel, viewing, banner=banner, selected=selected).pages


def draw_screen(screen: Screen, size: tuple[int, int]) -> Image.Image:
    """The 1-bit picture of a fitted screen."""
    width, height = size
    ch = screen.face.cell[1]
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, ch - 1), fill=1)
    title = screen.title
    if screen.pages > 1:
        mark = f"{screen.page + 1}/{screen.pages}"
        room = screen.columns - len(mark) - 1
        title = f"{_clip(title, room):<{room}} {mark}"
    _text(image, (1, 0), _clip(title, screen.columns), screen.face, ink=0)
    if screen.big:
        big_face = _big_face(screen.face)
        big_w = len(screen.big) * big_face.cell[0]
        _text(image, (width - big_w, ch), screen.big, big_face, ink=1)
    for i, row in enumerate((*screen.title_rest, *screen.rows)):
        _text(image, (0, ch * (i + 1)), row, screen.face, ink=1)
    top = height - ch * len(screen.banner)
    if screen.banner:
        draw.rectangle((0, top - 1, width - 1, height - 1), fill=1)
    for i, row in enumerate(screen.banner):
        _text(image, (1, top + ch * i), row, screen.face, ink=0)
    return image


def _clip(text: str, columns: int) -> str:
    """A title longer than its bar ends in '~' (titles are short labels; bodies are wrapped)."""
    return text if len(text) <= columns else text[: max(0, columns - 1)] + "~"


def _text(image: Image.Image, xy: tuple[int, int], text: str, face: Face, *, ink: int) -> None:
    if face.scale == 1:
        ImageDraw.Draw(image).text(xy, text, font=font(face.name), fill=ink)
        return
    w, h = cell(face.name)
    small = Image.new("1", (max(1, len(text) * w), h), 0)
    ImageDraw.Draw(small).text((0, 0), text, font=font(face.name), fill=1)
    big = small.resize((small.width * face.scale, h * face.scale), Image.Resampling.NEAREST)
    if ink:
        image.paste(1, xy, big)
    else:
        image.paste(0, xy, big)


def render_panel(panel: Panel, size: tuple[int, int], *, banner: str | None = None, selected: str | None = None,
                 viewing: Viewing | None = None, page: int = 0) -> Image.Image:
    """Draw ``panel`` for a display of ``size``; ``selected`` marks the line that names that track."""
    view = viewing if viewing is not None else default_viewing(size)
    if view.pixels != size:
        raise ValueError(f"viewing is for {view.pixels}, not {size}")
    return draw_screen(layout(panel, view, banner=banner, selected=selected, page=page), size)


def render_message(title: str, text: str, size: tuple[int, int], *, viewing: Viewing | None = None) -> Image.Image:
    """A plain message screen (start-up, a display reporting an error on another)."""
    return render_panel(Panel(title=title, lines=(text,)), size, viewing=viewing)


__all__ = ["FACES", "KNOWN_PANELS", "MARKER", "PAGE_S", "Face", "Screen", "choose_face", "default_viewing",
           "draw_screen", "layout", "page_count", "printable", "render_message", "render_panel", "wrap"]
