"""Fit a ``Panel`` to one display and draw it: the screen model the OLEDs and the terminal view share.

The text size is chosen from the display's pixel pitch and reading distance (``Viewing``): the
smallest face whose capital letters reach 16 arcmin, else the largest the panel has rows for.

Every line of a panel, every part of a banner and the title is a sentence, and a sentence is shown
whole: it breaks across rows only between its phrases (``ui.phrases``; inside a phrase only when the
phrase is wider than a row, a word only at a hyphenation point) and never across pages. Lines the
game ranks KEY come first; what does not fit one page goes on the next, a line at a time, and the
page turns every ``PAGE_S``; DETAIL lines fill spare rows and are dropped rather than paged. A banner
(a pending change, a prompt's question and the answer pointed at, a notice, a seat's status and what
its buttons do) is pinned to the bottom rows of every page. A sentence too long for the room it has
is first written with the panel's short forms (its legend, which SELECT shows); the face is already
the smallest that meets the legibility floor, so a smaller one is never the next step; what still
does not fit scrolls along one row, as one unit, a character every tick. A panel with a ``focus``
(the menu's cursor) holds still on the page that shows it.

``fit`` gives a panel's frames and how many ticks (``TICKS_PER_S``) each stays; ``layout`` one page.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Final

import msgspec
from PIL import Image, ImageDraw

from tablekeeper.core.view import Panel, Priority
from tablekeeper.ui.fonts import BIG, cell, font
from tablekeeper.ui.legibility import FLOOR_ARCMIN, KNOWN_PANELS, Viewing
from tablekeeper.ui.model import names_track
from tablekeeper.ui.phrases import wrap_rows
from tablekeeper.ui.state import PAGE_S, TICKS_PER_S, tick_at

MARKER: Final = ">"  # drawn before the selected track's line
PAGE_TICKS: Final = round(PAGE_S * TICKS_PER_S)  # how long a page stays, in ticks
HOLD_TICKS: Final = TICKS_PER_S  # a scrolling sentence rests this long at its start and at its end
PART: Final = " | "  # joins a banner's parts (a seat's status, what its buttons do)

# The bitmap fonts cover ISO 8859-1; common typography outside it gets a plain stand-in.
STAND_INS = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2192": "->", "\u2190": "<-",
                           "\u2026": "...", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                           "\u2022": "*", "\u2713": "v", "\u2717": "x", "\u2264": "<=", "\u2265": ">="})

# Height of a capital letter in each bundled font, in pixels (measured from the glyph for 'H').
CAP_PX: Final = {"5x8": 6, "6x10": 7, "6x13B": 9, "10x20": 13}
# Rows at the top of each font's cell that no glyph inks (measured over ISO 8859-1): a row of text
# takes the cell less these, so 6x13B sets five rows on 64 pixels, not four.
BLANK_TOP: Final = {"5x8": 0, "6x10": 0, "6x13B": 1, "10x20": 1}


class Face(msgspec.Struct, frozen=True):
    """A bundled bitmap font drawn at a whole-number scale (pixels doubled for a bigger face)."""

    name: str
    scale: int = 1

    @property
    def cell(self) -> tuple[int, int]:
        width, height = cell(self.name)
        return width * self.scale, height * self.scale

    @property
    def pitch(self) -> int:
        """The height of a row of text: the cell less the rows no glyph inks."""
        return (cell(self.name)[1] - BLANK_TOP[self.name]) * self.scale

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
    usable = [f for f in FACES if height // f.pitch >= min_rows and viewing.pixels[0] // f.cell[0] >= 10]
    if not usable:
        raise ValueError(f"no text face fits a {viewing.pixels[0]}x{height} display")
    for face in usable:
        if viewing.arcmin(face.cap_px) >= FLOOR_ARCMIN:
            return face
    return usable[-1]


def printable(text: str) -> str:
    """``text`` in the fonts' character set: stand-ins for dashes, arrows, quotes; '?' for the rest."""
    return text.translate(STAND_INS).encode("latin-1", errors="replace").decode("latin-1")


def indent_for(columns: int) -> str:
    """Rows after a sentence's first start one column in, where a row has room to spare for it."""
    return " " if columns > 12 else ""


def wrap(text: str, columns: int) -> list[str]:
    """``text`` in rows of ``columns``, broken between phrases (``ui.phrases``), continuation rows
    indented; parts joined by " | " start rows of their own when the whole does not fit. Text that
    cannot be wrapped (a word with no hyphenation point wider than a row) is one row, too long."""
    text = printable(text)
    parts = text.split(PART) if len(text) > columns else [text]
    return [row for part in parts for row in (wrap_rows(part, [columns], indent_for(columns)) or (part,))]


def short_form(text: str, legend: Sequence[tuple[str, str]]) -> str:
    """``text`` with each plain wording the legend gives a short form for replaced by it (whole words)."""
    for short, plain in sorted(legend, key=lambda pair: -len(pair[1])):
        if plain and plain in text:
            text = re.sub(rf"(?<!\w){re.escape(plain)}(?!\w)", short.replace("\\", "\\\\"), text)
    return text


class Shown(msgspec.Struct, frozen=True):
    """One sentence as a frame shows it: where it comes from (``title``, ``line`` N of the panel,
    ``banner`` part N), its text as laid out (short forms applied where they were needed, the selected
    track's marker before it), its rows, the narrowest row it was wrapped to, and whether it scrolls
    (then ``rows`` is the one row's window on ``text`` now, from character ``offset``)."""

    kind: str
    index: int
    text: str
    rows: tuple[str, ...]
    width: int
    scrolling: bool = False
    offset: int = 0


class Screen(msgspec.Struct, frozen=True):
    """One frame of a panel fitted to a display: what to draw, row by row, in one face."""

    face: Face
    columns: int
    title: str
    rows: tuple[str, ...]  # body rows, top to bottom (the marked row starts with MARKER)
    banner: tuple[str, ...]  # inverted rows pinned at the bottom
    big: str | None
    page: int  # 0-based
    pages: int
    title_rest: tuple[str, ...] = ()  # a long title's rows after the bar's, above the body on every page
    mark: str = ""  # the page mark at the bar's right end ("2/3"), when the title leaves room for it
    units: tuple[Shown, ...] = ()  # the sentences this frame shows
    big_face: Face | None = None  # the big value's face (None: drawn in the body's)


class Fitted(msgspec.Struct, frozen=True):
    """A panel's frames on one display, each with the ticks it stays, in order; the last is followed
    by the first. One frame stays for good."""

    frames: tuple[Screen, ...]
    ticks: tuple[int, ...]

    @property
    def cycle(self) -> int:
        return sum(self.ticks)

    @property
    def pages(self) -> int:
        return self.frames[0].pages

    @property
    def moving(self) -> bool:
        """Whether the display changes with the clock (pages turn or a sentence scrolls)."""
        return len(self.frames) > 1

    def index_at(self, tick: int) -> int:
        if len(self.frames) == 1:
            return 0
        left = tick % self.cycle
        for index, ticks in enumerate(self.ticks):
            if left < ticks:
                return index
            left -= ticks
        return len(self.frames) - 1

    def at(self, tick: int) -> Screen:
        """The frame ``tick`` ticks into the cycle (which repeats)."""
        return self.frames[self.index_at(tick)]

    def ticks_left(self, tick: int) -> int | None:
        """Ticks from ``tick`` until the next frame (None: the screen holds still)."""
        if len(self.frames) == 1:
            return None
        left = tick % self.cycle
        for ticks in self.ticks:
            if left < ticks:
                return ticks - left
            left -= ticks
        return 1


class _Unit(msgspec.Struct):
    """A sentence to place: where it comes from, its plain text and its short form."""

    kind: str
    index: int
    text: str
    short: str
    priority: Priority = Priority.NORMAL


class _Placed(msgspec.Struct):
    unit: _Unit
    text: str  # as shown (plain or short)
    rows: tuple[str, ...]
    width: int
    scrolling: bool = False


class _Page(msgspec.Struct):
    placed: list[_Placed] = msgspec.field(default_factory=list)
    used: int = 0
    banner: bool = True  # whether the banner is pinned on this page (a one-row display gives it a page)


class _Geometry(msgspec.Struct, frozen=True):
    face: Face
    columns: int
    body_rows: int
    big_cols: int
    big_rows: int
    big_face: Face | None

    def width(self, row: int) -> int:
        """The columns body row ``row`` has (the big value takes the right of the first rows)."""
        return self.columns - self.big_cols if row < self.big_rows else self.columns

    def widths(self, start: int, count: int) -> list[int]:
        return [self.width(start + i) for i in range(max(1, count))]


def fit(panel: Panel, viewing: Viewing, *, banner: str | None = None, selected: str | None = None) -> Fitted:
    """Every frame of ``panel`` on this display, each with the ticks it stays."""
    return _fit(panel, viewing, banner, selected)


@functools.lru_cache(maxsize=32)  # the painter keeps each display's own; this serves the view's re-reads
def _fit(panel: Panel, viewing: Viewing, banner: str | None, selected: str | None) -> Fitted:
    plain = _pages(panel, viewing, banner, selected, shorten=False)
    if panel.legend and len(plain[1]) > 1:  # the short forms may keep the whole screen on one page
        short = _pages(panel, viewing, banner, selected, shorten=True)
        if len(short[1]) < len(plain[1]):
            plain = short
    if len(plain[1]) > 1 and _status_parts(banner, plain[0].columns):
        # a seat's status and what its buttons do share one scrolling row rather than turn the
        # numbers above them away every few seconds
        one_row = _pages(panel, viewing, banner, selected, shorten=False, banner_room=1)
        if len(one_row[1]) == 1:
            plain = one_row
    return _frames(panel, *plain)


def _status_parts(banner: str | None, columns: int) -> bool:
    """Whether ``banner`` is short parts (each fits a row) that take more than one row together."""
    parts = banner.split(PART) if banner else []
    return len(parts) > 1 and len(printable(banner or "")) > columns \
        and all(len(printable(part)) <= columns for part in parts)


def layout(panel: Panel, viewing: Viewing, *, banner: str | None = None, selected: str | None = None,
           page: int = 0) -> Screen:
    """Page ``page`` of ``panel`` on the display (modulo the number of pages), as it first shows."""
    fitted = fit(panel, viewing, banner=banner, selected=selected)
    wanted = page % fitted.pages
    return next(frame for frame in fitted.frames if frame.page == wanted)


def page_count(panel: Panel, viewing: Viewing, *, banner: str | None = None, selected: str | None = None) -> int:
    """How many pages ``panel`` needs on this display (1 when it fits)."""
    return fit(panel, viewing, banner=banner, selected=selected).pages


def _geometry(panel: Panel, viewing: Viewing, banner_rows: int) -> _Geometry:
    face = choose_face(viewing)
    width, height = viewing.pixels
    columns = width // face.cell[0]
    body_rows = height // face.pitch - 1  # the title bar takes one row
    if not panel.big:
        return _Geometry(face, columns, body_rows, 0, 0, None)
    big_face = _big_face(face)
    big_rows = -(-big_face.pitch // face.pitch)
    if big_rows > body_rows - banner_rows or big_rows > body_rows - 1:
        big_face, big_rows = face, 1  # no room for the big face above the banner: the body's face
    big_cols = -(-(len(panel.big) * big_face.cell[0] + 2) // face.cell[0])  # whole text columns it covers
    return _Geometry(face, columns, body_rows, big_cols, big_rows, big_face)


def _pages(panel: Panel, viewing: Viewing, banner: str | None, selected: str | None, *,
           shorten: bool, banner_room: int | None = None) -> tuple[_Geometry, list[_Page], list[_Placed],
                                                                 _Placed | None, int]:
    """The panel's sentences placed on pages: (geometry, pages, banner parts, the title (None: it fits
    the bar), header rows); ``banner_room``: the most rows the banner may take."""
    legend = panel.legend
    columns = viewing.pixels[0] // choose_face(viewing).cell[0]
    indent = indent_for(columns)
    banner_units = _banner_units(banner, legend, columns)
    geometry = _geometry(panel, viewing, 0)
    placed_banner = _place_banner(banner_units, geometry, indent, shorten, banner_room)
    banner_rows = sum(len(p.rows) for p in placed_banner)
    geometry = _geometry(panel, viewing, banner_rows)
    placed_banner = _place_banner(banner_units, geometry, indent, shorten, banner_room)
    banner_rows = sum(len(p.rows) for p in placed_banner)
    lone_banner = bool(placed_banner) and banner_rows >= geometry.body_rows and bool(panel.lines)
    area = geometry.body_rows if lone_banner else geometry.body_rows - banner_rows

    title = printable(panel.title)
    title_unit = _Unit("title", 0, title, printable(short_form(panel.title, legend)))
    title_placed: _Placed | None = None
    header = 0
    if len(title) > columns:
        text = title_unit.short if len(title_unit.short) <= columns else title
        rows = wrap_rows(text, [columns, *geometry.widths(0, 2)], indent) if len(text) > columns else (text,)
        if rows is not None and len(rows) - 1 <= min(2, area - 2):
            title_placed = _Placed(title_unit, text, rows,
                                   _room([columns, *geometry.widths(0, len(rows) - 1)], len(rows), indent))
            header = len(rows) - 1
        else:
            shown = min(title, title_unit.short, key=len)
            title_placed = _Placed(title_unit, shown, (shown,), columns, scrolling=len(shown) > columns)

    units = []
    for index in sorted(range(len(panel.lines)), key=panel.priority):  # stable: order within a priority
        line = printable(panel.lines[index])
        marked = selected is not None and names_track(line, selected)
        short = printable(short_form(panel.lines[index], legend))
        if marked:
            line, short = MARKER + line, MARKER + short
        priority = Priority.KEY if marked and panel.priority(index) is Priority.DETAIL else panel.priority(index)
        units.append(_Unit("line", index, line, short, priority))
    details = [u for u in units if u.priority is Priority.DETAIL]
    main = [u for u in units if u.priority is not Priority.DETAIL]

    pages = [_Page(banner=not lone_banner)] if not lone_banner else [_Page(banner=True), _Page(banner=False)]
    if lone_banner and not main:
        pages = [_Page(banner=True)]
    room = area - header
    for unit in main:
        page = pages[-1]
        placed = _place(unit, geometry, header + page.used, room - page.used, indent, shorten)
        if placed is None and page.used:
            page = _Page(banner=not lone_banner)
            pages.append(page)
            placed = _place(unit, geometry, header, room, indent, shorten)
        if placed is None:  # longer than a page even alone: it scrolls along one row
            placed = _ticker(unit, geometry.width(header + page.used), shorten)
        page.placed.append(placed)
        page.used += len(placed.rows)
    for unit in details:  # lower priority goes first: a detail never costs a page of its own
        page = pages[-1]
        placed = _place(unit, geometry, header + page.used, room - page.used, indent, shorten)
        if placed is None or (lone_banner and page is pages[0]):
            break
        page.placed.append(placed)
        page.used += len(placed.rows)
    if panel.focus is not None:  # the page that shows the focused line, and only that one
        held = [p for p in pages if any(x.unit.kind == "line" and x.unit.index == panel.focus for x in p.placed)]
        pages = held[:1] or pages[:1]
    return geometry, pages, placed_banner, title_placed, header


def _banner_units(banner: str | None, legend: Sequence[tuple[str, str]], columns: int) -> list[_Unit]:
    """The banner's parts as sentences, each part after the first on the row of the one before it
    where both fit one row ("done | A: x"), so a seat's status and its buttons cost one row."""
    units: list[_Unit] = []
    for index, part in enumerate(banner.split(PART) if banner else []):
        if units and len(joined := units[-1].text + PART + printable(part)) <= columns:
            units[-1] = _Unit("banner", units[-1].index, joined, printable(short_form(joined, legend)))
            continue
        units.append(_Unit("banner", index, printable(part), printable(short_form(part, legend))))
    return units


def _place(unit: _Unit, geometry: _Geometry, start: int, room: int, indent: str, shorten: bool) -> _Placed | None:
    """``unit`` wrapped from body row ``start`` in at most ``room`` rows (its short form when only that
    fits, or when ``shorten``); None when neither fits."""
    if room <= 0:
        return None
    widths = geometry.widths(start, room)
    for text in ((unit.short,) if shorten else (unit.text, unit.short)):
        rows = wrap_rows(text, widths, indent)
        if rows is not None and len(rows) <= room:
            return _Placed(unit, text, rows, _room(widths, len(rows), indent))
    return None


def _room(widths: Sequence[int], rows: int, indent: str) -> int:
    """The narrowest room ``rows`` rows wrapped to ``widths`` had for text (rows after the first
    start with ``indent``)."""
    return min(w - (len(indent) if i else 0) for i, w in enumerate([*widths, widths[-1]][:max(1, rows)]))


def _ticker(unit: _Unit, width: int, shorten: bool) -> _Placed:
    text = unit.short if shorten or len(unit.short) < len(unit.text) else unit.text
    return _Placed(unit, text, (text,), width, scrolling=len(text) > width)


def _place_banner(units: list[_Unit], geometry: _Geometry, indent: str, shorten: bool,
                  room: int | None = None) -> list[_Placed]:
    """The banner's parts, each whole, in the rows the body leaves (all but one where there is a body
    row to spare, else all of them: the banner then has a page of its own; at most ``room``); a part
    too long even so scrolls along one row, and parts beyond the rows share a scrolling row."""
    if not units:
        return []
    if room is not None:
        return _banner_rows(units, geometry, indent, shorten, room)
    spare = _banner_rows(units, geometry, indent, shorten, max(1, geometry.body_rows - 1))
    if not any(p.scrolling for p in spare) or geometry.body_rows <= 1:
        return spare
    whole = _banner_rows(units, geometry, indent, shorten, geometry.body_rows)
    return spare if any(p.scrolling for p in whole) else whole


def _banner_rows(units: list[_Unit], geometry: _Geometry, indent: str, shorten: bool, limit: int) -> list[_Placed]:
    width = geometry.columns
    placed = []
    for unit in units:
        for text in ((unit.short,) if shorten else (unit.text, unit.short)):
            rows = wrap_rows(text, [width], indent)
            if rows is not None and len(rows) <= limit:
                placed.append(_Placed(unit, text, rows, _room([width], len(rows), indent)))
                break
        else:
            placed.append(_ticker(unit, width, shorten))
    while sum(len(p.rows) for p in placed) > limit:
        tallest = max(range(len(placed)), key=lambda i: (len(placed[i].rows), i))
        if len(placed[tallest].rows) > 1:
            placed[tallest] = _ticker(placed[tallest].unit, width, shorten)
            continue
        first, second = placed[-2], placed[-1]  # more parts than rows: the last two share one
        joined = first.text + PART + second.text
        placed[-2:] = [_ticker(_Unit("banner", first.unit.index, joined, joined), width, shorten=False)]
    return placed


def _frames(panel: Panel, geometry: _Geometry, pages: list[_Page], banner: list[_Placed],
            title: _Placed | None, header: int) -> Fitted:
    columns = geometry.columns
    bar = printable(panel.title) if title is None else title.text
    count = len(pages)
    mark = ""
    if panel.focus is not None and len(panel.lines) > 1:
        mark = f"{panel.focus + 1}/{len(panel.lines)}"
    elif count > 1:
        mark = f"{count}/{count}"
    title_rows = title.rows if title is not None and not title.scrolling else (bar,)
    # a title ending in a number keeps two columns from the mark: "agenda 1 1/2" reads as one and a half
    gap = 2 if title_rows[0][-1:].isdigit() else 1
    if mark and len(title_rows[0]) + gap + len(mark) > columns:
        mark = ""  # the title comes first; the pages still turn
    frames: list[Screen] = []
    ticks: list[int] = []
    for number, page in enumerate(pages):
        shown_banner = banner if page.banner else []
        movers = [p for p in (*page.placed, *shown_banner, *([title] if title is not None else [])) if p.scrolling]
        longest = max((_scroll_ticks(p) for p in movers), default=0)
        span = max(PAGE_TICKS, longest) if count > 1 else max(1, longest)
        page_mark = mark if not mark or panel.focus is not None else f"{number + 1}/{count}"
        last: Screen | None = None
        for tick in range(span):
            screen = _screen(geometry, page, shown_banner, title, title_rows, header, tick, page_mark, number, count,
                             panel.big)
            if last is not None and screen == last:
                ticks[-1] += 1
                continue
            frames.append(screen)
            ticks.append(1)
            last = screen
        if count == 1 and not movers:
            break
    return Fitted(tuple(frames), tuple(ticks))


def _scroll_ticks(placed: _Placed) -> int:
    return 2 * HOLD_TICKS + max(0, len(placed.text) - placed.width)


def _offset(placed: _Placed, tick: int) -> int:
    """How far a scrolling sentence has moved ``tick`` ticks into its page."""
    span = len(placed.text) - placed.width
    return min(span, max(0, min(tick, _scroll_ticks(placed) - 1) - HOLD_TICKS))


def _shown(placed: _Placed, tick: int) -> Shown:
    if not placed.scrolling:
        return Shown(placed.unit.kind, placed.unit.index, placed.text, placed.rows, placed.width)
    step = _offset(placed, tick)
    return Shown(placed.unit.kind, placed.unit.index, placed.text, (placed.text[step:step + placed.width],),
                 placed.width, True, step)


def _screen(geometry: _Geometry, page: _Page, banner: list[_Placed], title: _Placed | None,
            title_rows: tuple[str, ...], header: int, tick: int, mark: str, number: int, count: int,
            big: str | None) -> Screen:
    units = [_shown(p, tick) for p in page.placed]
    banner_units = [_shown(p, tick) for p in banner]
    title_shown = _shown(title, tick) if title is not None else None
    bar = title_shown.rows[0] if title_shown is not None and title_shown.scrolling else title_rows[0]
    rest = () if title_shown is not None and title_shown.scrolling else title_rows[1:]
    shown = (*([title_shown] if title_shown is not None else []), *units, *banner_units)
    return Screen(geometry.face, geometry.columns, bar, tuple(row for u in units for row in u.rows),
                  tuple(row for u in banner_units for row in u.rows), big, number, count, rest[:header], mark,
                  shown, geometry.big_face)


def _big_face(face: Face) -> Face:
    return Face(BIG) if Face(BIG).cap_px > face.cap_px else Face(face.name, face.scale * 2)


def bar_text(screen: Screen) -> str:
    """The title bar's text: the title, and the page mark at the right end when there is one."""
    title = screen.title
    if screen.mark:
        room = screen.columns - len(screen.mark) - 1
        title = f"{title:<{room}} {screen.mark}"
    return title[: screen.columns]


def draw_screen(screen: Screen, size: tuple[int, int]) -> Image.Image:
    """The 1-bit picture of a fitted screen."""
    width, height = size
    pitch = screen.face.pitch
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, pitch - 1), fill=1)
    _text(image, (1, 0), bar_text(screen), screen.face, ink=0)
    if screen.big:
        big_face = screen.big_face or screen.face
        big_w = len(screen.big) * big_face.cell[0]
        _text(image, (width - big_w, pitch), screen.big, big_face, ink=1)
    for i, row in enumerate((*screen.title_rest, *screen.rows)):
        _text(image, (0, pitch * (i + 1)), row, screen.face, ink=1)
    top = height - pitch * len(screen.banner)
    if screen.banner:
        draw.rectangle((0, top - 1, width - 1, height - 1), fill=1)
    for i, row in enumerate(screen.banner):
        _text(image, (1, top + pitch * i), row, screen.face, ink=0)
    return image


def _text(image: Image.Image, xy: tuple[int, int], text: str, face: Face, *, ink: int) -> None:
    """``text`` with its row's top at ``xy`` (the face's blank top rows above it, off the row)."""
    x, y = xy[0], xy[1] - BLANK_TOP[face.name] * face.scale
    if face.scale == 1:
        ImageDraw.Draw(image).text((x, y), text, font=font(face.name), fill=ink)
        return
    w, h = cell(face.name)
    small = Image.new("1", (max(1, len(text) * w), h), 0)
    ImageDraw.Draw(small).text((0, 0), text, font=font(face.name), fill=1)
    big = small.resize((small.width * face.scale, h * face.scale), Image.Resampling.NEAREST)
    image.paste(ink, (x, y), big)


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


class Pacing:
    """Where each display stands in its own cycle of frames: a cycle starts again when what the display
    shows changes, so a new notice scrolls from its start and a new screen opens on its first page."""

    def __init__(self) -> None:
        self._start: dict[str, tuple[object, int]] = {}

    def local(self, role: str, key: object, tick: int) -> int:
        """Ticks since ``role`` began showing ``key`` (0 when it begins now)."""
        kept = self._start.get(role)
        if kept is None or kept[0] != key:
            self._start[role] = (key, tick)
            return 0
        return tick - kept[1]


def reading_s(text: str, viewing: Viewing, panel: Panel | None = None) -> float:
    """How long a notice of ``text`` at the foot of ``panel`` on this display needs to be read once
    (scrolled through, every page seen): 0 when it all fits still."""
    fitted = fit(panel if panel is not None else Panel(""), viewing, banner=text)
    return 0.0 if not fitted.moving else fitted.cycle / TICKS_PER_S


__all__ = ["FACES", "KNOWN_PANELS", "MARKER", "PAGE_S", "PAGE_TICKS", "TICKS_PER_S", "Face", "Fitted", "Pacing",
           "Screen", "Shown", "choose_face", "default_viewing", "draw_screen", "fit", "layout", "page_count",
           "printable", "reading_s", "render_message", "render_panel", "short_form", "tick_at", "wrap"]

