"""The simulated station's face: every configured display, button and LED drawn as one picture.

Displays are laid out as on the reference box (track and tokens on top, the seats in a row
below), each with the picture its emulated chip RAM holds; buttons are drawn under them with
their label and the keyboard key that presses them, lit while held; seat LEDs glow for the
active seat. The virtual counters stand in a column to the right, each with its little display and
its three buttons (and their keys).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from tablekeeper.config import CounterConfig, DisplayConfig, StationConfig
from tablekeeper.core.tracks import SeatTrack
from tablekeeper.ui.fonts import BODY, SMALL, cell, font

if TYPE_CHECKING:
    from tablekeeper.sim.counter_table import CounterView

MARGIN = 8
GAP = 8
BUTTON_H = 24
CASE = (28, 30, 36)
BEZEL = (8, 8, 10)
PIXEL_ON = (150, 220, 255)
PIXEL_OFF = (12, 14, 20)
KEYCAP = (70, 74, 84)
KEYCAP_DOWN = (240, 200, 80)
TEXT = (220, 220, 220)
LED_OFF = (60, 30, 30)
LED_ON = (255, 60, 60)
FAILED = (120, 30, 30)

COUNTER_W = 128
COUNTER_SCREEN_H = 34  # three lines of the body font
COUNTER_BUTTON_W = 40
UNPLUGGED = (60, 60, 66)

KEY_NAMES = {"space": "spc", "enter": "ent", "backspace": "bksp", "escape": "esc", "tab": "tab",
             "left": "<-", "right": "->", "up": "up", "down": "dn"}


@dataclass(frozen=True, slots=True)
class Placed:
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True, slots=True)
class CounterPlace:
    screen: Placed
    buttons: tuple[Placed, ...]


class PanelLayout:
    """Where each display and button of ``config`` sits on the simulated panel, and ``counters``
    (default: the config's) beside it."""

    def __init__(self, config: StationConfig, counters: Sequence[CounterConfig] | None = None) -> None:
        self.config = config
        self.counters: list[CounterPlace] = []
        self.displays: dict[str, Placed] = {}
        self.buttons: dict[str, Placed] = {}
        self.leds: dict[int, tuple[int, int]] = {}
        top = [d for d in config.displays if not d.role.startswith("seat")]
        seats = sorted((d for d in config.displays if d.role.startswith("seat")), key=lambda d: d.role)
        panel_buttons = [b for b in config.buttons if not b.role.startswith("seat")]
        y = MARGIN
        x = MARGIN
        for d in top:
            self.displays[d.role] = Placed(x, y + 12, d.width, d.height)
            x += d.width + GAP
        row_w = max(x, MARGIN)
        y += (max((d.height for d in top), default=0) + 12 + GAP) if top else 0
        x = MARGIN
        for b in panel_buttons:
            self.buttons[b.role] = Placed(x, y, 40, BUTTON_H)
            x += 40 + 4
        row_w = max(row_w, x)
        y += BUTTON_H + GAP if panel_buttons else 0
        seat_numbers = sorted({int(d.role[4:]) for d in seats}
                              | {owner.seat for b in config.buttons if (owner := SeatTrack.parse(b.role)) is not None})
        x = MARGIN
        for seat in seat_numbers:
            display = next((d for d in seats if d.role == f"seat{seat}"), None)
            width = display.width if display is not None else 128
            if display is not None:
                self.displays[display.role] = Placed(x, y + 12, display.width, display.height)
            bx = x
            by = y + 12 + (display.height if display is not None else 0) + 4
            own = (b for b in config.buttons if (owner := SeatTrack.parse(b.role)) is not None and owner.seat == seat)
            for button in own:
                self.buttons[button.role] = Placed(bx, by, 40, BUTTON_H)
                bx += 44
            self.leds[seat] = (x + width - 10, by + BUTTON_H // 2)
            x += width + GAP
        row_w = max(row_w, x)
        if seat_numbers:
            y += 12 + max((d.height for d in seats), default=0) + 4 + BUTTON_H + GAP
        cx, cy = row_w, MARGIN
        for _entry in config.counters if counters is None else counters:
            screen = Placed(cx, cy + 12, COUNTER_W, COUNTER_SCREEN_H)
            by = screen.y + screen.h + 4
            buttons = tuple(Placed(cx + i * (COUNTER_BUTTON_W + 4), by, COUNTER_BUTTON_W, BUTTON_H) for i in range(3))
            self.counters.append(CounterPlace(screen, buttons))
            cy = by + BUTTON_H + GAP
        if self.counters:
            row_w = cx + COUNTER_W + GAP
            y = max(y, cy)
        self.size = (row_w + MARGIN - GAP, y + MARGIN - GAP)



def _paste_lit(picture: Image.Image, screen: Image.Image, place: Placed) -> None:
    """A 1-bit OLED picture in the glass's colours: its dark pixels, then its lit ones through it as a mask."""
    box = (place.x, place.y, place.x + screen.width, place.y + screen.height)
    picture.paste(PIXEL_OFF, box)
    picture.paste(PIXEL_ON, box, mask=screen.convert("1"))


def compose(layout: PanelLayout, screens: Mapping[str, Image.Image], *, pressed: frozenset[str] = frozenset(),
            lit_seat: int | None = None, failed: frozenset[str] = frozenset(),
            counters: Sequence[CounterView] = ()) -> Image.Image:
    """The whole panel as one RGB picture."""
    picture = Image.new("RGB", layout.size, CASE)
    draw = ImageDraw.Draw(picture)
    small = font(SMALL)
    for d in layout.config.displays:
        place = layout.displays[d.role]
        draw.text((place.x, place.y - 10), _display_caption(d), font=small, fill=TEXT)
        draw.rectangle((place.x - 2, place.y - 2, place.x + place.w + 1, place.y + place.h + 1), fill=BEZEL)
        if d.role in failed:
            draw.rectangle((place.x, place.y, place.x + place.w - 1, place.y + place.h - 1), fill=FAILED)
            draw.text((place.x + 4, place.y + 4), "not answering", font=font(BODY), fill=TEXT)
        elif d.role in screens:
            _paste_lit(picture, screens[d.role], place)
    for b in layout.config.buttons:
        place = layout.buttons[b.role]
        down = b.role in pressed
        draw.rounded_rectangle((place.x, place.y, place.x + place.w - 1, place.y + place.h - 1), radius=5,
                               fill=KEYCAP_DOWN if down else KEYCAP)
        ink = (0, 0, 0) if down else TEXT
        _centred(draw, place, place.y + 3, b.label or b.role, ink)
        if b.key:
            _centred(draw, place, place.y + 13, KEY_NAMES.get(b.key, b.key), ink)
    for seat, (cx, cy) in layout.leds.items():
        if layout.config.led(seat) is None:
            continue
        colour = LED_ON if seat == lit_seat else LED_OFF
        draw.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=colour)
    for spot, view in zip(layout.counters, counters, strict=False):
        _draw_counter(draw, spot, view)
    return picture


def _draw_counter(draw: ImageDraw.ImageDraw, place: CounterPlace, view: CounterView) -> None:
    """A virtual counter: its caption, its display's text lines, its buttons with their keys."""
    screen = place.screen
    draw.text((screen.x, screen.y - 10), view.caption + ("" if view.plugged else " (unplugged)"),
              font=font(SMALL), fill=TEXT)
    draw.rectangle((screen.x - 2, screen.y - 2, screen.x + screen.w + 1, screen.y + screen.h + 1), fill=BEZEL)
    draw.rectangle((screen.x, screen.y, screen.x + screen.w - 1, screen.y + screen.h - 1),
                   fill=PIXEL_OFF if view.plugged else UNPLUGGED)
    body = font(BODY)
    for row, line in enumerate(view.lines[:3]):
        draw.text((screen.x + 2, screen.y + 2 + row * 10), line, font=body, fill=PIXEL_ON)
    for button_place, (button, key) in zip(place.buttons, view.keys, strict=False):
        down = view.pressed == button
        draw.rounded_rectangle((button_place.x, button_place.y, button_place.x + button_place.w - 1,
                                button_place.y + button_place.h - 1), radius=5, fill=KEYCAP_DOWN if down else KEYCAP)
        ink = (0, 0, 0) if down else TEXT
        _centred(draw, button_place, button_place.y + 3, {"select": "sel", "down": "dn"}.get(button, button), ink)
        _centred(draw, button_place, button_place.y + 13, key, ink)


def _display_caption(d: DisplayConfig) -> str:
    where = f"{d.address:#04x}" if d.address is not None else f"cs{d.device}"
    return f"{d.role} {d.driver} {where}"


def _centred(draw: ImageDraw.ImageDraw, place: Placed, y: int, text: str, ink: tuple[int, int, int]) -> None:
    w = cell(SMALL)[0] * len(text)
    draw.text((place.x + (place.w - w) // 2, y), text, font=font(SMALL), fill=ink)
