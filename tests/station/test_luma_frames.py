"""The drivers open their chips and send a whole frame exactly as luma.oled's own do (every SSD1306
mode luma knows), without Pillow's deprecated ``Image.getdata`` (luma.oled issue #404; Pillow 14
removes it) and without luma's per-pixel tables."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from luma.oled import device as oled
from PIL import Image

from tablekeeper.hw.chip_writes import SH1106_COLUMN_OFFSET
from tablekeeper.hw.displays import PartialUpdate, make_device, native_pages
from tablekeeper.hw.luma_devices import SH1106, SSD1306, SSD1309
from tablekeeper.hw.taken_over import TakenOver
from tablekeeper.sim.oled import RecordingSerial
from tablekeeper.station.remembered import Track

CASES = [(ours, luma, size, rotate)
         for ours, luma in ((SSD1306, oled.ssd1306), (SSD1309, oled.ssd1309), (SH1106, oled.sh1106))
         for size in ((128, 64), (128, 32)) for rotate in (0, 2)
         if not (luma is oled.ssd1309 and size == (128, 32))]
CASES += [(SSD1306, oled.ssd1306, size, 0) for size in ((64, 48), (64, 32), (96, 16))]  # 64 wide: RAM column 32 on


def noisy(size: tuple[int, int], seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("1", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] // 8)))


def frame_calls(cls: Any, size: tuple[int, int], rotate: int, image: Image.Image,
                **extra: Any) -> list[tuple[str, bytes]]:
    serial = RecordingSerial()
    device = cls(serial_interface=serial, width=size[0], height=size[1], rotate=rotate, **extra)
    init = serial.take()
    device.display(image)
    return [*init, ("frame", b""), *serial.take()]


@pytest.mark.parametrize(("ours", "luma", "size", "rotate"), CASES,
                         ids=[f"{o.__name__}-{s[0]}x{s[1]}-r{r}" for o, _, s, r in CASES])
def test_a_whole_frame_is_what_lumas_own_display_sends(ours: Any, luma: Any, size: tuple[int, int],
                                                       rotate: int) -> None:
    image = noisy(size if rotate % 2 == 0 else size[::-1], seed=size[1] + rotate)
    extra = {"page_address_offset": SH1106_COLUMN_OFFSET} if luma is oled.sh1106 else {}
    with warnings.catch_warnings():  # luma's own packing is the reference here; only this call may warn
        warnings.filterwarnings("ignore", r"Image\.Image\.getdata is deprecated", DeprecationWarning)
        expected = frame_calls(luma, size, rotate, image, **extra)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert frame_calls(ours, size, rotate, image) == expected


def test_a_frame_of_the_wrong_size_is_refused() -> None:
    device = SSD1306(serial_interface=RecordingSerial())
    with pytest.raises(ValueError, match=r"\(128, 32\) for a 1 display of \(128, 64\)"):
        device.display(Image.new("1", (128, 32)))


DRIVER_NAMES = {oled.ssd1306: "ssd1306", oled.ssd1309: "ssd1309", oled.sh1106: "sh1106"}


@pytest.mark.parametrize(("ours", "luma", "size", "rotate"), CASES,
                         ids=[f"{o.__name__}-{s[0]}x{s[1]}-r{r}" for o, _, s, r in CASES])
def test_a_display_taken_over_from_the_splash_is_what_the_luma_driver_is(ours: Any, luma: Any,
                                                                       size: tuple[int, int], rotate: int) -> None:
    """``hw.taken_over`` drives a chip the splash opened dark, as ``make_device`` leaves one: the same size,
    column offset and addressing, the same pages for any picture, the same bytes for a whole frame, a
    partial update and a close."""
    image = noisy(size if rotate % 2 == 0 else size[::-1], seed=size[1] + rotate)
    later = noisy(image.size, seed=7)
    geometry = Track(DRIVER_NAMES[luma], size[0], size[1], rotate, 1, 0x3C)
    sent = []
    for device in (make_device(geometry, RecordingSerial()), TakenOver(geometry, RecordingSerial(), dark=True)):
        serial = device.interface
        serial.take()
        facts = (device.size, device.mode, device.column_offset, device.page_addressing,
                 native_pages(device, image))
        device.display(image)
        update = PartialUpdate(device)
        update.assume_shown(native_pages(device, image))
        update.display(later)
        device.cleanup()
        sent.append((facts, serial.take()))
    assert sent[0] == sent[1]
