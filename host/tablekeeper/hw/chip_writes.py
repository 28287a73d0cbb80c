"""How the SSD1306, SSD1309 and SH1106 are addressed, in plain bytes: what ``hw.luma_devices``' drivers
and ``hw.displays.PartialUpdate`` send, and what the start-up splash sends before luma and Pillow load.
Standard library only, for that splash."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

SET_COLUMN_WINDOW: Final = 0x21  # SSD1306 COLUMNADDR start end
SET_PAGE_WINDOW: Final = 0x22  # SSD1306 PAGEADDR start end
SET_PAGE: Final = 0xB0  # SH1106: | page
SET_COLUMN_LOW: Final = 0x00  # SH1106: | low nibble
SET_COLUMN_HIGH: Final = 0x10  # SH1106: | high nibble
DISPLAY_ON: Final = 0xAF  # the SSD1306, SSD1309 and SH1106 alike
DISPLAY_OFF: Final = 0xAE

# The SH1106 has 132 columns of RAM for a 128-pixel glass: the visible ones start at column 2
# (luma's default ``page_address_offset``, which ``hw.luma_devices`` passes explicitly).
SH1106_COLUMN_OFFSET: Final = 2
# luma.oled's SSD1306 modes by glass size: multiplex ratio, clock divide, COM pins, first visible RAM column
SSD1306_MODES: Final = {(128, 64): (0x3F, 0x80, 0x12, 0), (128, 32): (0x1F, 0x80, 0x02, 0),
                        (96, 16): (0x0F, 0x60, 0x02, 0), (64, 48): (0x2F, 0x80, 0x12, 32),
                        (64, 32): (0x1F, 0x80, 0x12, 32)}

Stream = tuple[tuple[bool, bytes], ...]  # writes in order: (a command?, its bytes)


def page_addressing(driver: str) -> bool:
    """Whether the chip takes page addressing only (the SH1106), not column and page windows."""
    return driver == "sh1106"


def column_offset(driver: str, width: int, height: int) -> int:
    """The chip RAM column of the glass's first column."""
    if page_addressing(driver):
        return SH1106_COLUMN_OFFSET
    mode = SSD1306_MODES.get((width, height))
    return 0 if mode is None else mode[3]


def whole_frame(driver: str, width: int, height: int, pages: Sequence[bytes]) -> Stream:
    """The writes that put ``pages`` (the chip's RAM image, one byte per column) on the glass, as luma
    sends a whole frame: SSD1306/SSD1309 one column and page window, then every page; SH1106 each
    page addressed, then its columns."""
    first = column_offset(driver, width, height)
    if page_addressing(driver):
        writes: list[tuple[bool, bytes]] = []
        for page, columns in enumerate(pages):
            address = (SET_PAGE | page, SET_COLUMN_LOW | (first & 0x0F), SET_COLUMN_HIGH | (first >> 4))
            writes += [(True, bytes(address)), (False, bytes(columns))]
        return tuple(writes)
    window = bytes((SET_COLUMN_WINDOW, first, first + len(pages[0]) - 1, SET_PAGE_WINDOW, 0, len(pages) - 1))
    return (True, window), (False, b"".join(pages))


def send(device: Any, writes: Stream) -> None:
    """``writes`` through a device's (or a serial interface's) own ``command`` and ``data``."""
    for is_command, payload in writes:
        if is_command:
            device.command(*payload)
        else:
            device.data(list(payload))
