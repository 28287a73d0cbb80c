"""Render a ``Panel`` (title, lines, optional big value) to a 1-bit image for a 128x64 or 128x32 OLED.

Layout, top to bottom: an inverted title bar; the big value right-aligned beside the first lines;
the remaining lines; and an optional inverted banner on the bottom row for a pending change
("doom 2 -> 5 (+3)") or a short message, drawn over whatever line was there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from tablekeeper.core.view import Panel
from tablekeeper.ui.fonts import BIG, BODY, SMALL, TITLE, cell, font

SIZES = ((128, 64), (128, 32))
MARKER = ">"  # drawn before the selected track's line


@dataclass(frozen=True, slots=True)
class Layout:
    """Fonts and rows for one screen height."""

    title_font: str
    body_font: str
    title_h: int
    row_h: int


LAYOUTS = {64: Layout(TITLE, BODY, title_h=14, row_h=10), 32: Layout(BODY, SMALL, title_h=10, row_h=8)}


# The bitmap fonts cover ISO 8859-1; common typography outside it gets a plain stand-in.
STAND_INS = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2192": "->", "\u2190": "<-",
                           "\u2026": "...", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                           "\u2022": "*", "\u2713": "v", "\u2717": "x", "\u2264": "<=", "\u2265": ">="})


def printable(text: str) -> str:
    """``text`` in the fonts' character set: stand-ins for dashes, arrows, quotes; '?' for the rest."""
    return text.translate(STAND_INS).encode("latin-1", errors="replace").decode("latin-1")


def fit(text: str, width_px: int, font_name: str) -> str:
    """``text`` cut to fit ``width_px`` in a fixed-width font ('~' marks a cut)."""
    text = printable(text)
    per_char = cell(font_name)[0]
    room = max(0, width_px // per_char)
    if len(text) <= room:
        return text
    return text[: max(0, room - 1)] + "~" if room else ""


def render_panel(panel: Panel, size: tuple[int, int], *, banner: str | None = None,
                 selected: str | None = None) -> Image.Image:
    """Draw ``panel`` for a display of ``size``; ``selected`` marks the line that names that track."""
    if size not in SIZES:
        raise ValueError(f"no layout for a {size[0]}x{size[1]} display (128x64 or 128x32)")
    width, height = size
    layout = LAYOUTS[height]
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)

    draw.rectangle((0, 0, width - 1, layout.title_h - 2), fill=1)
    title_top = (layout.title_h - 1 - cell(layout.title_font)[1]) // 2
    draw.text((2, title_top), fit(panel.title, width - 4, layout.title_font), font=font(layout.title_font), fill=0)

    top = layout.title_h
    big_w = 0
    if panel.big:
        big_text = fit(panel.big, width // 2, BIG)
        big_w = len(big_text) * cell(BIG)[0] + 2
        draw.text((width - big_w + 1, top), big_text, font=font(BIG), fill=1)
    big_bottom = top + cell(BIG)[1] if panel.big else top

    rows = _rows(panel.lines, layout, height, has_banner=banner is not None)
    for i, line in enumerate(rows):
        y = top + i * layout.row_h
        room = width - (big_w + 2 if y < big_bottom else 0)
        marked = selected is not None and _names(line, selected)
        x = 0
        if marked:
            draw.text((0, y), MARKER, font=font(layout.body_font), fill=1)
            x = cell(layout.body_font)[0]
        draw.text((x, y), fit(line, room - x, layout.body_font), font=font(layout.body_font), fill=1)

    if banner is not None:
        _banner(draw, banner, width, height, layout)
    return image


def _rows(lines: Sequence[str], layout: Layout, height: int, *, has_banner: bool) -> Sequence[str]:
    free = height - layout.title_h - (layout.row_h if has_banner else 0)
    return lines[: max(0, free // layout.row_h)]


def _names(line: str, track: str) -> bool:
    words = line.strip().lower().split()
    return bool(words) and words[0].rstrip(":") == track.lower()


def _banner(draw: ImageDraw.ImageDraw, text: str, width: int, height: int, layout: Layout) -> None:
    body_h = cell(layout.body_font)[1]
    top = height - body_h - 1
    draw.rectangle((0, top, width - 1, height - 1), fill=1)
    # a long track name still fits whole in the narrower font ("seat1.damage 0 -> 2 (+2)")
    text = printable(text)
    face = layout.body_font if len(text) * cell(layout.body_font)[0] <= width - 2 else SMALL
    y = top + 1 + (body_h - cell(face)[1]) // 2
    draw.text((1, y), fit(text, width - 2, face), font=font(face), fill=0)


def render_message(title: str, text: str, size: tuple[int, int]) -> Image.Image:
    """A plain message screen (start-up, a display reporting an error on another)."""
    return render_panel(Panel(title=title, lines=tuple(_wrap(text, size[0] // cell(BODY)[0]))), size)


def _wrap(text: str, columns: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if len(candidate) <= columns:
            current = candidate
        else:
            if current:
                lines.append(current)
            current = word[:columns]
    if current:
        lines.append(current)
    return lines
