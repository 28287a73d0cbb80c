"""luma.oled's SSD1306, SSD1309 and SH1106 drivers with what ``PartialUpdate`` needs made public.

Sending only the changed windows needs three things luma keeps private: where the visible columns
start in the chip's RAM, whether the chip has page addressing only (the SH1106), and the serial
interface (to let go of a bus whose display is gone without luma's blanking). Each class keeps what
it was given and reads nothing private of luma's.

The SSD1306 (and SSD1309) class opens its chip with luma's command sequence sent from here: luma's
constructor also builds two tables of one entry per pixel for its own ``display``, which this class
replaces (about 15 M CPU instructions a display, before the first frame). tests/station/test_luma_frames.py
compares every byte an open and a frame send with luma's own, so a luma release that changes them
fails there.

Each class also draws a whole frame itself (luma's ``clear()`` at construction, the start-up
splash): luma.oled 3.16 packs frames with Pillow's ``Image.getdata``, deprecated and removed in
Pillow 14 (luma.oled issue #404), so ``display`` here packs them with ``tobytes`` and sends the same
commands and bytes (the tests compare them with luma's own).
"""

from __future__ import annotations

from typing import Any, Final

import luma.oled.const
from luma.core.device import device as luma_device
from luma.core.error import DeviceDisplayModeError
from luma.oled import device as oled
from PIL import Image

from tablekeeper.hw.chip_writes import SH1106_COLUMN_OFFSET, SSD1306_MODES, send, whole_frame
from tablekeeper.hw.displays import native_pages


def held(interface: Any) -> bool:
    """Whether the interface drops luma's RAM clear (``hw.displays.RetryingInterface.holding``): then the
    blank frame is not even packed."""
    return bool(getattr(interface, "holding", False))


class SSD1306(oled.ssd1306):  # type: ignore[misc]  # luma has no type hints
    """luma's SSD1306 driver, opened as luma opens it; ``column_offset``: the chip RAM column of the
    glass's first column."""

    page_addressing: Final = False

    def __init__(self, serial_interface: Any, width: int = 128, height: int = 64, rotate: int = 0) -> None:
        self.interface = serial_interface
        mode = SSD1306_MODES.get((width, height))
        if mode is None:
            raise DeviceDisplayModeError(f"Unsupported display mode: {width} x {height}")
        multiplex, clock_divide, com_pins, self.column_offset = mode
        const = luma.oled.const.ssd1306
        luma_device.__init__(self, const, serial_interface)
        self.capabilities(width, height, rotate)
        self.command(const.DISPLAYOFF, const.SETDISPLAYCLOCKDIV, clock_divide, const.SETMULTIPLEX, multiplex,
                     const.SETDISPLAYOFFSET, 0x00, const.SETSTARTLINE, const.CHARGEPUMP, 0x14,
                     const.MEMORYMODE, 0x00, const.SETSEGMENTREMAP, const.COMSCANDEC, const.SETCOMPINS, com_pins,
                     const.SETPRECHARGE, 0xF1, const.SETVCOMDETECT, 0x40, const.DISPLAYALLON_RESUME,
                     const.NORMALDISPLAY)
        self.contrast(0xCF)
        self.clear()
        self.show()

    def clear(self) -> None:
        if not held(self.interface):
            super().clear()

    def display(self, image: Image.Image) -> None:
        """The whole frame, as luma sends it: one column and page window, then every page."""
        send(self, whole_frame("ssd1306", self.width, self.height, native_pages(self, image)))


class SSD1309(SSD1306, oled.ssd1309):  # type: ignore[misc]  # luma has no type hints
    """luma's SSD1309 driver (an SSD1306 to luma), with the same public attributes."""


class SH1106(oled.sh1106):  # type: ignore[misc]  # luma has no type hints
    """luma's SH1106 driver, told the RAM column offset rather than asked for it."""

    page_addressing: Final = True

    def __init__(self, serial_interface: Any, width: int = 128, height: int = 64, rotate: int = 0) -> None:
        self.interface = serial_interface
        super().__init__(serial_interface=serial_interface, width=width, height=height, rotate=rotate,
                         page_address_offset=SH1106_COLUMN_OFFSET)
        self.column_offset = SH1106_COLUMN_OFFSET

    def clear(self) -> None:
        if not held(self.interface):
            super().clear()

    def display(self, image: Image.Image) -> None:
        """The whole frame, as luma sends it: each page addressed, then its columns."""
        send(self, whole_frame("sh1106", self.width, self.height, native_pages(self, image)))


DRIVERS: Final[dict[str, type[SSD1306] | type[SH1106]]] = {"ssd1306": SSD1306, "ssd1309": SSD1309, "sh1106": SH1106}
