"""Displays: the partial-update adapter's exact bytes, and a failing display that recovers."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

import luma.core.error
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from tablekeeper.config import DisplayConfig
from tablekeeper.hw.displays import DisplayBank, PartialUpdate, make_device, pack_pages
from tablekeeper.hw.luma_devices import DRIVERS, SH1106, SSD1306, SSD1309
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.oled import OledChip, RecordingSerial


def picture(size: tuple[int, int], boxes: list[tuple[int, int, int, int]]) -> Image.Image:
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    for box in boxes:
        draw.rectangle(box, fill=1)
    return image


def noisy(size: tuple[int, int], seed: int) -> Image.Image:
    import random

    rng = random.Random(seed)
    return Image.frombytes("1", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] // 8)))


def test_pages_are_packed_exactly_as_luma_packs_them() -> None:
    for cls, size in [(SSD1306, (128, 64)), (SSD1306, (128, 32)), (SH1106, (128, 64))]:
        serial = RecordingSerial()
        device = cls(serial_interface=serial, width=size[0], height=size[1])
        image = noisy(size, seed=size[1])
        serial.take()
        device.display(image)
        luma_data = b"".join(payload for kind, payload in serial.take() if kind == "data")
        assert luma_data == b"".join(pack_pages(image, size[1] // 8))


def test_ssd1306_partial_update_sends_one_small_window() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1306(serial_interface=serial))
    serial.take()
    sent = adapter.display(picture((128, 64), [(10, 10, 12, 11)]))  # rows 10-11: page 1, bits 2-3
    assert serial.take() == [("command", bytes([0x21, 10, 12, 0x22, 1, 1])), ("data", bytes([0x0C] * 3))]
    assert sent == 9


def test_identical_frame_sends_nothing() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1306(serial_interface=serial))
    image = picture((128, 64), [(0, 0, 20, 20)])
    adapter.display(image)
    serial.take()
    assert adapter.display(image.copy()) == 0
    assert serial.take() == []


def test_neighbouring_pages_share_one_window_when_cheaper() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1309(serial_interface=serial))
    serial.take()
    adapter.display(picture((128, 64), [(40, 6, 41, 9)]))  # rows 6-7 on page 0, 8-9 on page 1
    assert serial.take() == [("command", bytes([0x21, 40, 41, 0x22, 0, 1])),
                             ("data", bytes([0xC0, 0xC0, 0x03, 0x03]))]


def test_far_apart_changes_on_one_page_use_separate_windows_on_separate_pages() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1306(serial_interface=serial))
    serial.take()
    adapter.display(picture((128, 64), [(0, 0, 0, 0), (127, 63, 127, 63)]))
    assert serial.take() == [("command", bytes([0x21, 0, 0, 0x22, 0, 0])), ("data", b"\x01"),
                             ("command", bytes([0x21, 127, 127, 0x22, 7, 7])), ("data", b"\x80")]


def test_sh1106_partial_update_uses_page_addressing_with_column_offset() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SH1106(serial_interface=serial))
    serial.take()
    adapter.display(picture((128, 64), [(30, 16, 31, 16)]))  # page 2, row bit 0, RAM columns 32-33
    assert serial.take() == [("command", bytes([0xB2, 0x00, 0x12])), ("data", b"\x01\x01")]


def test_one_counter_change_costs_a_small_fraction_of_a_full_frame() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1306(serial_interface=serial))
    before = Image.new("1", (128, 64))
    ImageDraw.Draw(before).text((4, 20), "doom 3", fill=1)
    adapter.display(before)
    after = Image.new("1", (128, 64))
    ImageDraw.Draw(after).text((4, 20), "doom 4", fill=1)
    assert adapter.display(after) < 1030 // 10


@settings(max_examples=25, deadline=None)
@given(driver=st.sampled_from(["ssd1306", "sh1106", "ssd1309"]), height=st.sampled_from([64, 32]),
       rotation=st.sampled_from([0, 2]),
       frames=st.lists(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 30),
                                          st.integers(0, 20)), max_size=4), min_size=1, max_size=5))
def test_chip_ram_always_matches_the_last_frame(driver: str, height: int, rotation: int,
                                                frames: list[list[tuple[int, int, int, int]]]) -> None:
    if driver == "ssd1309":
        height = 64
    chip = OledChip(driver, 128, height)
    config = DisplayConfig(role="track", driver=driver, width=128, height=height, bus="main", address=0x3C,
                           rotation=rotation)
    device = make_device(config, chip)
    adapter = PartialUpdate(device)
    for boxes in frames:
        image = picture((128, height), [(x, y % height, x + w, (y % height) + h) for x, y, w, h in boxes])
        adapter.display(image)
        assert chip.image().tobytes() == device.preprocess(image).tobytes()


class FlakyBus:
    """Opens OledChips; ``down`` makes the bus fail like a display that was unplugged."""

    def __init__(self) -> None:
        self.down: set[str] = set()
        self.chips: dict[str, OledChip] = {}
        self.opened: list[str] = []

    def open(self, config: DisplayConfig) -> Any:
        self.opened.append(config.role)
        if config.role in self.down:
            raise luma.core.error.DeviceNotFoundError(f"I2C device not found on address: {config.address:#04X}")
        chip = OledChip(config.driver, config.width, config.height)
        self.chips[config.role] = chip
        return make_device(config, chip)

    def openers(self, configs: list[DisplayConfig]) -> dict[str, Callable[[], Any]]:
        """Each display's opener, as ``DisplayBank`` takes them (role -> open it)."""
        return {c.role: functools.partial(self.open, c) for c in configs}


def test_failing_display_is_retried_with_backoff_and_redrawn_when_it_answers() -> None:
    clock = FakeClock()
    bus = FlakyBus()
    configs = [DisplayConfig(role=r, driver="ssd1306", width=128, height=64, bus="main", address=a)
               for r, a in (("track", 0x3C), ("tokens", 0x3D))]
    bank = DisplayBank(bus.openers(configs), clock=clock, retry_s=1.0, retry_max_s=4.0)
    first = {r: picture((128, 64), [(i, 0, i + 3, 3)]) for i, r in enumerate(("track", "tokens"))}
    bank.show(first)

    bus.chips["tokens"].fail_with = OSError(121, "Remote I/O error")
    second = {"track": picture((128, 64), [(50, 50, 60, 60)]), "tokens": picture((128, 64), [(70, 10, 90, 20)])}
    bank.show(second)
    assert [d.role for d in bank.failed()] == ["tokens"]
    assert bank.displays["tokens"].last_error == "tokens display: [Errno 121] Remote I/O error"
    assert bus.chips["track"].image().tobytes() == second["track"].tobytes()  # the other one carried on

    bus.down.add("tokens")
    for now_s, expected_deadline in [(1.0, 3.0), (3.0, 7.0), (7.0, 11.0)]:  # 1 s, 2 s, 4 s, capped at 4 s
        assert bank.next_deadline_s() == now_s
        clock.now_s = now_s
        bank.poll(now_s)
        assert bank.next_deadline_s() == expected_deadline
    assert bus.opened.count("tokens") == 4

    bus.down.clear()
    clock.now_s = 11.0
    bank.poll(11.0)
    assert bank.failed() == [] and bank.next_deadline_s() is None
    assert bus.chips["tokens"].image().tobytes() == second["tokens"].tobytes()


def test_display_missing_at_start_does_not_stop_the_bank() -> None:
    bus = FlakyBus()
    bus.down.add("seat1")
    configs = [DisplayConfig(role=r, driver="ssd1306", width=128, height=32, bus="main", address=a)
               for r, a in (("seat1", 0x3C), ("seat2", 0x3D))]
    bank = DisplayBank(bus.openers(configs), clock=FakeClock(), retry_s=1.0, retry_max_s=30.0)
    assert [d.role for d in bank.failed()] == ["seat1"]
    image = picture((128, 32), [(0, 0, 5, 5)])
    bank.show({"seat1": image, "seat2": image})
    assert bus.chips["seat2"].image().tobytes() == image.tobytes()
    bank.close()
    assert bus.chips["seat2"].cleaned_up and not bus.chips["seat2"].on


def test_two_changes_far_apart_on_the_same_pages_get_two_windows() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1306(serial_interface=serial, width=128, height=32))
    serial.take()
    adapter.display(picture((128, 32), [(20, 8, 21, 15), (110, 8, 111, 15)]))  # page 1, far apart
    assert serial.take() == [("command", bytes([0x21, 20, 21, 0x22, 1, 1])), ("data", b"\xff\xff"),
                             ("command", bytes([0x21, 110, 111, 0x22, 1, 1])), ("data", b"\xff\xff")]


def test_changes_a_few_columns_apart_share_a_window() -> None:
    serial = RecordingSerial()
    adapter = PartialUpdate(SSD1306(serial_interface=serial))
    serial.take()
    adapter.display(picture((128, 64), [(20, 0, 20, 0), (24, 0, 24, 0)]))  # 3 unchanged columns between
    assert serial.take() == [("command", bytes([0x21, 20, 24, 0x22, 0, 0])), ("data", b"\x01\x00\x00\x00\x01")]


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=40),
       gap=st.integers(0, 8))
def test_changed_runs_cover_exactly_the_changed_columns(pairs: list[tuple[int, int]], gap: int) -> None:
    from tablekeeper.hw.displays import changed_runs

    old, new = bytes(a for a, _b in pairs), bytes(b for _a, b in pairs)
    runs = changed_runs(old, new, gap=gap)
    changed = {i for i, (a, b) in enumerate(pairs) if a != b}
    covered = {i for first, last in runs for i in range(first, last + 1)}
    assert changed <= covered
    assert all(old[first] != new[first] and old[last] != new[last] for first, last in runs)
    assert all(b[0] - a[1] - 1 > gap for a, b in itertools.pairwise(runs))  # joined when close


def test_a_single_failed_write_is_retried_and_the_frame_completes() -> None:
    bus = FlakyBus()
    configs = [DisplayConfig(role="track", driver="ssd1306", width=128, height=64, bus="main", address=0x3C)]
    bank = DisplayBank(bus.openers(configs), clock=FakeClock(), retry_s=1.0, retry_max_s=30.0)
    bank.show({"track": picture((128, 64), [(0, 0, 10, 10)])})
    chip = bus.chips["track"]
    glitch = OSError(121, "Remote I/O error")
    original_check = chip._check
    calls = {"n": 0}

    def fail_once() -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the data half of the first window
            raise glitch
        original_check()

    chip._check = fail_once  # type: ignore[method-assign]
    second = picture((128, 64), [(60, 30, 70, 40)])
    bank.show({"track": second})
    display = bank.displays["track"]
    assert not display.failed and display.write_errors == 1 and display.failures == 0
    assert chip.image().tobytes() == second.tobytes()


@pytest.mark.parametrize(("driver", "size", "offset"), [("ssd1306", (128, 64), 0), ("ssd1306", (64, 48), 32),
                                                         ("ssd1309", (128, 64), 0), ("sh1106", (128, 64), 2)])
def test_each_driver_says_where_its_columns_start(driver: str, size: tuple[int, int], offset: int) -> None:
    device = DRIVERS[driver](serial_interface=RecordingSerial(), width=size[0], height=size[1])
    assert (device.column_offset, device.page_addressing) == (offset, driver == "sh1106")


@pytest.mark.parametrize("driver", sorted(DRIVERS))
def test_an_opened_display_stays_dark_until_its_first_frame_which_is_sent_whole(driver: str) -> None:
    """luma's init runs but its RAM clear is not sent: the first frame overwrites every byte, so the
    clear only doubled the bus time of an open. The glass is switched on once that frame is in."""
    chip = OledChip(driver, 128, 64)
    geometry = DisplayConfig(role="seat1", driver=driver, width=128, height=64, bus="main", address=0x3C)
    adapter = PartialUpdate(make_device(geometry, chip))
    opened = chip.byte_count
    assert not chip.on and opened < 64  # the chip's settings only: no 1024 zeros
    frame = picture((128, 64), [(3, 5, 40, 12)])
    sent = adapter.display(frame)
    assert chip.on and chip.image().tobytes() == frame.tobytes()
    assert chip.byte_count - opened == sent and 128 * 8 < sent < 128 * 8 + 40  # the whole frame, once
    assert adapter.display(picture((128, 64), [(3, 5, 41, 12)])) < 20  # from then on, only what changed
