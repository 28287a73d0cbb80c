"""The simulated station as text, for a terminal with no window (SSH, a Pi console, CI).

Each display's screen comes from the same ``Screens`` the OLEDs draw (``ui.compose``), laid out as on
the glass (``ui.render.layout``), one character per glyph, in a box per display laid out like the
panel: seats 1-2 on the left, the track and tokens in the middle, seats 3-4 on the right, and the
virtual counters in a row below (each with its seat, role, what its own display shows and its keys).
Scaled pixels are unreadable at 80 columns; this reads at 80x24. A status line names the keys and how to quit.
A smaller terminal gets one line naming the size the view needs, and the view again once it is resized.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final, TextIO

from tablekeeper.config import ButtonConfig, DisplayConfig, StationConfig
from tablekeeper.core.view import Panel
from tablekeeper.ui.model import DisplayScreen, Screens
from tablekeeper.ui.render import Fitted, Pacing, Screen, fit

if TYPE_CHECKING:
    from tablekeeper.sim.counter_table import CounterView

COLUMNS: Final = (("seat1", "seat2"), ("track", "tokens"), ("seat3", "seat4"))
COUNTER_WIDTH: Final = 24  # a counter box's inner width: three fit under the panel at 80 columns
COUNTER_ROWS: Final = 3  # lines of a counter's own display (value, role and limit, seat)
COUNTER_KEYS: Final = {"up": "+", "down": "-", "select": "sel"}
KEY_NAMES: Final = {"space": "Space", "enter": "Enter", "backspace": "Bksp", "escape": "Esc", "tab": "Tab",
                    "left": "Left", "right": "Right", "up": "Up", "down": "Down"}
QUIT_HELP: Final = "Esc or Ctrl-C quits"
MIN_SIZE: Final = (80, 24)  # the terminal the view is laid out for


def fitted(display: DisplayConfig, content: DisplayScreen) -> Fitted:
    """The frames of what ``display`` shows, as the OLED painter fits them (the phones' join code, which
    the glass draws as a QR code, as its words)."""
    if content.join is not None:
        return fit(Panel("Phones join", (f"PIN {content.join.pin}", content.join.address)), display.viewing)
    if content.cover is not None:
        return fit(content.cover.panel, display.viewing, banner=content.cover.banner)
    return fit(content.panel, display.viewing, banner=content.banner_text, selected=content.selected)


def display_box(display: DisplayConfig, content: DisplayScreen | None, page: int = 0, *, lit: bool = False,
                failed: bool = False, frame: Screen | None = None) -> list[str]:
    """One display as text rows: a frame naming the role, the title (between '#'), the body rows, and
    the banner (between '>' and '<', inverted on the glass). ``frame``: the frame to show (default:
    page ``page`` as it first shows)."""
    screen: Screen | None = frame
    if screen is None and content is not None:
        wanted = page % (pages := fitted(display, content).pages)
        screen = next(f for f in fitted(display, content).frames if f.page == wanted) if pages else None
    columns = screen.columns if screen is not None else 21
    body_rows = (display.height // (screen.face.pitch if screen is not None else 12)) - 1
    name = display.role + (" *" if lit else "") + (" (no answer)" if failed else "")
    top = f"+-{name}-".ljust(columns + 1, "-")[: columns + 1] + "+"
    rows: list[tuple[str, str]] = []  # (border, text): '#' the title bar, '>' the inverted banner
    if screen is None:
        rows = [("|", "") for _ in range(body_rows + 1)]
    else:
        title = screen.title
        if screen.mark:
            title = f"{title[: columns - len(screen.mark) - 1]:<{columns - len(screen.mark) - 1}} {screen.mark}"
        rows.append(("#", title))
        body = [*screen.title_rest, *screen.rows]
        if screen.big:
            first = body[0] if body else ""
            # the glass keeps the big value's columns free of text (``layout`` wraps around it), so the
            # value always fits beside the first row; brackets mark it where the row leaves room for them
            big = f"[{screen.big}]" if len(first) + len(screen.big) + 2 <= columns else screen.big
            body[:1] = [f"{first[: columns - len(big)]:<{columns - len(big)}}{big}"]
        free = body_rows - len(screen.banner)
        rows += [("|", row) for row in (body + [""] * free)[:free]]
        rows += [(">", row) for row in screen.banner]
    closing = {"#": "#", "|": "|", ">": "<"}
    return [top] + [f"{b}{row[:columns]:<{columns}}{closing[b]}" for b, row in rows] + ["+" + "-" * columns + "+"]


def status_lines(config: StationConfig, width: int = 80) -> list[str]:
    """The keys, by button label, wrapped to the terminal, ending with how to quit."""
    words = [f"{_key(b)}={b.label or b.role}" for b in config.buttons if b.key]
    if any(b.role == "select" for b in config.buttons) and not any(b.key == "?" for b in config.buttons):
        words.append("?=hold SEL (key to short forms)")
    words.append(QUIT_HELP)
    lines: list[str] = []
    current = "Keys:"
    for word in words:
        if len(current) + 1 + len(word) > width:
            lines.append(current)
            current = " "
        current = f"{current} {word}"
    lines.append(current)
    return lines


def _key(button: ButtonConfig) -> str:
    return KEY_NAMES.get(button.key, button.key)


def counter_box(view: CounterView) -> list[str]:
    """One virtual counter: its seat and role on the frame, its display's lines, the keys that press it."""
    width = COUNTER_WIDTH
    caption = view.caption.removeprefix("counter ").replace("seat", "seat ", 1)
    top = f"+-counter {caption}-".ljust(width + 1, "-")[: width + 1] + "+"
    shown = list(view.lines[:COUNTER_ROWS]) if view.plugged else ["(unplugged)"]
    if view.plugged and not shown:
        shown = ["(starting)"]
    rows = (shown + [""] * COUNTER_ROWS)[:COUNTER_ROWS]
    keys = " ".join(f"{key}={COUNTER_KEYS.get(button, button)}" for button, key in view.keys)
    body = [f"|{row[:width]:<{width}}|" for row in rows]
    return [top, *body, f"|{keys[:width]:<{width}}|", "+" + "-" * width + "+"]


def compose_text(config: StationConfig, screens: Screens | None, page: int = 0, *,
                 lit_seat: int | None = None, failed: frozenset[str] = frozenset(), width: int = 80,
                 counters: Sequence[CounterView] = (), frames: Mapping[str, Screen] | None = None) -> str:
    """The whole panel as text: the display boxes in three columns, the counters below, then the
    status lines. ``frames``: the frame each display shows now (default: page ``page`` of each)."""
    by_role = {d.role: d for d in config.displays}
    contents: Mapping[str, DisplayScreen] = {d.role: d for d in screens.displays} if screens is not None else {}
    frames = frames or {}
    columns: list[list[str]] = []
    placed: set[str] = set()
    for roles in COLUMNS:
        column: list[str] = []
        for role in roles:
            if role in by_role:
                column += display_box(by_role[role], contents.get(role), page, lit=role == f"seat{lit_seat}",
                                      failed=role in failed, frame=frames.get(role))
                placed.add(role)
        if column:
            columns.append(column)
    height = max((len(c) for c in columns), default=0)
    widths = [max(len(row) for row in c) for c in columns]
    lines = [" ".join(f"{(c[i] if i < len(c) else ''):<{w}}" for c, w in zip(columns, widths, strict=True)).rstrip()
             for i in range(height)]
    per_row = max(1, (width + 1) // (COUNTER_WIDTH + 3))
    for start in range(0, len(counters), per_row):
        boxes = [counter_box(view) for view in counters[start:start + per_row]]
        lines += [" ".join(rows).rstrip() for rows in zip(*boxes, strict=True)]
    return "\n".join([*lines, "", *status_lines(config, width)]) + "\n"


def too_small(size: tuple[int, int], needed: tuple[int, int]) -> str:
    """The one line a terminal smaller than the panel shows instead (cut to the terminal's width)."""
    columns, rows = size
    wide, tall = needed
    for text in (f"tablekeeper: the panel needs a terminal of {wide}x{tall}; this one is {columns}x{rows} "
                 "(make it bigger, or Esc quits)",
                 f"tablekeeper needs {wide}x{tall}, this is {columns}x{rows}",
                 f"needs {wide}x{tall}"):
        if len(text) <= columns:
            return text
    return f"{wide}x{tall}"[:max(1, columns)]


def terminal_size(out: TextIO) -> tuple[int, int]:
    """The terminal's columns and rows, asked anew each time (a resize changes them); where the
    terminal does not say (no terminal, or a size of 0), what ``COLUMNS``/``LINES`` say, else 80x24."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        size = os.terminal_size((0, 0))
    if size.columns > 0 and size.lines > 0:
        return size.columns, size.lines
    fallback = shutil.get_terminal_size(MIN_SIZE)
    return fallback.columns, fallback.lines


class TextView:
    """Redraws the terminal when the text changes (the whole screen, from the top-left corner); in a
    terminal smaller than the panel needs (at least 80x24), one line saying the size it needs, until
    the terminal is resized (``resized``, from SIGWINCH)."""

    def __init__(self, config: StationConfig, out: TextIO = sys.stdout,
                 size: Callable[[], tuple[int, int]] | None = None) -> None:
        self._config = config
        self._out = out
        self._size = size if size is not None else lambda: terminal_size(out)
        self._last = ""
        self._pacing = Pacing()
        out.write("\x1b[?25l")  # hide the cursor while the view is up

    def frames(self, screens: Screens | None, tick: int) -> dict[str, Screen]:
        """The frame each display shows at ``tick``, paced as the OLEDs are."""
        if screens is None:
            return {}
        out = {}
        by_role = {d.role: d for d in self._config.displays}
        for content in screens.displays:
            display = by_role.get(content.role)
            if display is None:
                continue
            key = (content.join, content.cover, content.panel, content.banner_text, content.selected)
            out[content.role] = fitted(display, content).at(self._pacing.local(content.role, key, tick))
        return out

    def show(self, screens: Screens | None, *, lit_seat: int | None, failed: frozenset[str],
             counters: Sequence[CounterView] = (), tick: int | None = None) -> bool:
        frames = self.frames(screens, screens.page if tick is None and screens is not None else tick or 0)
        text = compose_text(self._config, screens, lit_seat=lit_seat, failed=failed, counters=counters,
                            frames=frames)
        size = self._size()
        lines = text.splitlines()
        needed = (max(MIN_SIZE[0], *(len(line) for line in lines)), max(MIN_SIZE[1], len(lines)))
        if size[0] < needed[0] or size[1] < needed[1]:
            text = too_small(size, needed)
        screen = f"{size} {text}"
        if screen == self._last:
            return False
        self._last = screen
        try:
            self._out.write("\x1b[H\x1b[2J" + text.replace("\n", "\r\n"))
            self._out.flush()
        except OSError:  # the terminal hung up; the station is told by SIGHUP and closes
            return False
        return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._out.write("\x1b[?25h")
            self._out.flush()
