"""A display the start-up splash opened and drew on, driven in the chip's plain bytes (``hw.chip_writes``)
rather than through a luma device: its chip is set up and showing a frame already, so nothing of luma's
opening is needed, and the station's first frame goes out before luma loads (its imports are about a
sixth of a cold start's CPU at a Pi Zero's speed). luma opens every display the splash did not, and any
display the station reopens after a fault (``hw.displays.make_device``).

The device has the public attributes ``hw.displays.PartialUpdate`` and ``StationDisplay`` use, as the
drivers of ``hw.luma_devices`` have them; tests/station/test_luma_frames.py checks that it turns, packs
and sends every frame as they do."""

from __future__ import annotations

from typing import Any, Final

from PIL import Image

from tablekeeper.hw.chip_writes import DISPLAY_OFF, DISPLAY_ON, column_offset, page_addressing, send, whole_frame
from tablekeeper.hw.displays import Geometry, RetryingInterface, native_pages


class TakenOver:
    """The chip ``geometry`` names, set up by the splash, written through ``serial_interface`` (its
    writes retried as ``make_device``'s are); ``dark``: opened only, switched off with its RAM unknown,
    as ``make_device`` leaves a display it opens (``PartialUpdate`` sends the first frame whole, then
    switches it on)."""

    mode: Final = "1"
    persist: Final = False

    def __init__(self, geometry: Geometry, serial_interface: Any, *, dark: bool = False) -> None:
        self.driver = geometry.driver
        self._w, self._h = geometry.width, geometry.height
        self.rotate = geometry.rotation
        self.width, self.height = (self._w, self._h) if self.rotate % 2 == 0 else (self._h, self._w)
        self.size = (self.width, self.height)
        self.page_addressing = page_addressing(self.driver)
        self.column_offset = column_offset(self.driver, self._w, self._h)
        self.interface = RetryingInterface(serial_interface)
        self.interface.retry_data = False  # ``PartialUpdate`` retries whole windows
        self.interface.dark = dark

    def preprocess(self, image: Image.Image) -> Image.Image:
        """``image`` turned as the chip holds it (as luma's ``preprocess``)."""
        if self.rotate == 0:
            return image
        return image.rotate(self.rotate * -90, expand=True).crop((0, 0, self._w, self._h))

    def command(self, *cmd: int) -> None:
        self.interface.command(*cmd)

    def data(self, data: Any) -> None:
        self.interface.data(data)

    def show(self) -> None:
        self.command(DISPLAY_ON)

    def hide(self) -> None:
        self.command(DISPLAY_OFF)

    def display(self, image: Image.Image) -> None:
        """The whole frame, as the luma drivers send it."""
        send(self, whole_frame(self.driver, self._w, self._h, native_pages(self, image)))

    def cleanup(self) -> None:
        """As luma's: the display switched off and blanked, then the bus let go."""
        self.hide()
        self.display(Image.new(self.mode, self.size))
        self.interface.cleanup()
