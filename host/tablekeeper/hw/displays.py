"""OLED displays on luma.oled, sending only what changed, and surviving a display that stops answering.

luma's ssd1306/sh1106 ``display()`` pushes the whole frame (1,024 bytes for 128x64) on every call;
over 400 kHz I2C that is ~25 ms per screen. The chips address their RAM in 8-pixel-high pages and
columns, so ``PartialUpdate`` packs each frame into pages exactly as luma does, compares it with
what the chip already holds, and writes only the changed column windows:

* SSD1306/SSD1309 (horizontal addressing, set up by luma's init): ``COLUMNADDR c0 c1``,
  ``PAGEADDR p0 p1``, then the window's bytes; neighbouring pages share one window when cheaper.
* SH1106 (page addressing only): per page ``0xB0+page``, low and high column nibbles (offset by
  the chip's 132-column RAM, as luma does), then that page's changed columns.

The devices are ``hw.luma_devices``' drivers, which say where the columns start and which of the two
schemes the chip takes, so nothing here reads luma's private attributes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from PIL import Image

from tablekeeper.hw.chip_writes import (
    DISPLAY_ON,
    SET_COLUMN_HIGH,
    SET_COLUMN_LOW,
    SET_COLUMN_WINDOW,
    SET_PAGE,
    SET_PAGE_WINDOW,
)

Clock = Callable[[], float]
OpenDevice = Callable[[], Any]  # opens one display: a luma device (``make_device``), or raises a display error

_CHANGED = re.compile(rb"[^\x00]+")
WINDOW_COMMAND_BYTES = 6
PAGE_COMMAND_BYTES = 3
_INVERTED = bytes(b ^ 0xFF for b in range(256))  # a byte table: every page inverted in C, not byte by byte


def pack_pages(image: Image.Image, pages: int) -> list[bytes]:
    """The chip's RAM image: per page, one byte per column, bit n = row 8*page+n (as luma packs it)."""
    # Rotating 270 degrees turns each column into a row whose packed bytes run bottom page first,
    # most significant bit = lowest row of the page, which is the chip's byte order reversed by page.
    raw = image.convert("1").transpose(Image.Transpose.ROTATE_270).tobytes()
    return [raw[pages - 1 - page::pages] for page in range(pages)]


def native_pages(device: Any, image: Image.Image) -> list[bytes]:
    """``image`` turned as the chip holds it (luma's ``preprocess``), packed into the chip's pages."""
    if image.mode != device.mode or image.size != device.size:
        raise ValueError(f"a {image.mode} image of {image.size} for a {device.mode} display of {device.size}")
    native = device.preprocess(image)
    return pack_pages(native, native.height // 8)


class Window(NamedTuple):
    """Pages ``page0..page1`` and columns ``col0..col1`` (inclusive) to rewrite."""

    page0: int
    page1: int
    col0: int
    col1: int

    @property
    def data_bytes(self) -> int:
        return (self.page1 - self.page0 + 1) * (self.col1 - self.col0 + 1)


def changed_runs(old: bytes, new: bytes, *, gap: int) -> list[tuple[int, int]]:
    """Runs (first, last column) where a page differs; runs fewer than ``gap`` columns apart are
    joined, since re-sending a few unchanged bytes is cheaper than addressing a new window."""
    if old == new:
        return []
    if len(old) != len(new):
        raise ValueError(f"pages differ in width: {len(old)} and {len(new)} columns")
    # XOR the pages as big integers, then let the regex engine find the non-zero stretches
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    runs: list[tuple[int, int]] = []
    for match in _CHANGED.finditer(diff):
        first, last = match.start(), match.end() - 1
        if runs and first - runs[-1][1] - 1 <= gap:
            runs[-1] = (runs[-1][0], last)
        else:
            runs.append((first, last))
    return runs


def plan_windows(old: list[bytes], new: list[bytes], *, merge_pages: bool) -> list[Window]:
    """The windows to rewrite so the chip shows ``new``.

    With ``merge_pages`` (SSD1306 horizontal addressing) a run extends the window on the page
    above it when their columns overlap and that costs fewer bytes than a window of its own.
    """
    gap = WINDOW_COMMAND_BYTES if merge_pages else PAGE_COMMAND_BYTES
    windows: list[Window] = []
    for page, (a, b) in enumerate(zip(old, new, strict=True)):
        for col0, col1 in changed_runs(a, b, gap=gap):
            single = Window(page, page, col0, col1)
            if merge_pages and _extend_above(windows, single):
                continue
            windows.append(single)
    return windows


def _extend_above(windows: list[Window], run: Window) -> bool:
    for i, window in enumerate(windows):
        if window.page1 == run.page0 - 1 and window.col0 <= run.col1 and run.col0 <= window.col1:
            merged = Window(window.page0, run.page1, min(window.col0, run.col0), max(window.col1, run.col1))
            if merged.data_bytes < window.data_bytes + WINDOW_COMMAND_BYTES + run.data_bytes:
                windows[i] = merged
                return True
    return False


class PartialUpdate:
    """Wraps an SSD1306/SH1106/SSD1309 device (``hw.luma_devices``); ``display`` sends only the changed
    windows."""

    def __init__(self, device: Any, on_retry: Callable[[], None] | None = None) -> None:
        self.device = device
        self._on_retry = on_retry
        self.width, self.height = int(device.width), int(device.height)
        self.pages = self.height // 8
        self._shown = [bytes(self.width)] * self.pages
        self._page_addressing = bool(device.page_addressing)
        self._column_offset = int(device.column_offset)
        # ``make_device`` holds back luma's clear and switch-on: the chip RAM is unknown (the first frame
        # is sent whole) and the glass stays dark until that frame is in
        self._dark = bool(getattr(device.interface, "dark", False))
        self._ram_unknown = self._dark

    def assume_shown(self, pages: list[bytes]) -> None:
        """The chip already holds these pages (drawn through this device, or by the start-up splash,
        before it was wrapped)."""
        if len(pages) != self.pages or any(len(page) != self.width for page in pages):
            raise ValueError(f"{len(pages)} pages for a display of {self.pages} pages of {self.width} columns")
        self._shown = list(pages)

    def display(self, image: Image.Image) -> int:
        """Send what differs from the chip's RAM; returns the bytes handed to the interface (0 if same)."""
        if image.size != (self.device.size):
            raise ValueError(f"image is {image.size}, the display is {self.device.size}")
        pages = pack_pages(self.device.preprocess(image), self.pages)
        # after a failed write the chip's RAM is unknown: compare against the inverse, so all is sent
        old = [page.translate(_INVERTED) for page in pages] if self._ram_unknown else self._shown
        windows = plan_windows(old, pages, merge_pages=not self._page_addressing)
        sent = 0
        self._ram_unknown = True
        for window in windows:
            sent += self._send(window, pages)
        self._shown = pages
        self._ram_unknown = False
        if self._dark:  # the first frame is in: switch the glass on
            self.device.show()
            self._dark = self.device.interface.dark = False
            sent += 1
        return sent


    def _send(self, window: Window, pages: list[bytes]) -> int:
        """One window, addressed then written; a failed write is retried as a whole window (its
        address first), since a data write cut short has moved the chip's column pointer."""
        for attempt in range(BUS_ATTEMPTS):
            try:
                return self._send_once(window, pages)
            except display_errors():
                if self._on_retry is not None:
                    self._on_retry()
                if attempt + 1 == BUS_ATTEMPTS:
                    raise
        return 0

    def _send_once(self, window: Window, pages: list[bytes]) -> int:
        col0, col1 = window.col0 + self._column_offset, window.col1 + self._column_offset
        if self._page_addressing:
            self.device.command(SET_PAGE | window.page0, SET_COLUMN_LOW | (col0 & 0x0F),
                                SET_COLUMN_HIGH | (col0 >> 4))
            payload = pages[window.page0][window.col0:window.col1 + 1]
            self.device.data(list(payload))
            return PAGE_COMMAND_BYTES + len(payload)
        self.device.command(SET_COLUMN_WINDOW, col0, col1, SET_PAGE_WINDOW, window.page0, window.page1)
        payload = b"".join(pages[p][window.col0:window.col1 + 1] for p in range(window.page0, window.page1 + 1))
        self.device.data(list(payload))
        return WINDOW_COMMAND_BYTES + len(payload)


def display_errors() -> tuple[type[BaseException], ...]:
    """What a display that stopped answering raises: OSError from the bus, or luma's own errors."""
    import luma.core.error

    return (OSError, luma.core.error.Error)


BUS_ATTEMPTS = 3  # tries per bus write: a NACK on a long I2C cable is usually gone on the next try


class RetryingInterface:
    """A luma serial interface whose writes are retried a few times. Commands set registers, so a
    repeat is harmless; data is retried only while ``retry_data``. Afterwards ``PartialUpdate``
    retries whole addressed windows instead. The SH1106 needs this most: luma opens it with 11
    writes (its settings and 8 page addresses), against 4 for an SSD1306, so with 10 % of writes
    failing an open without retries would succeed a third of the time.

    While ``holding`` (luma's init) the RAM clear and the switch-on are not sent: the first frame
    overwrites every byte anyway, so sending zeros first only doubles the bus time of an open (about
    23 ms a display at 400 kHz), and the glass stays dark (``dark``) rather than showing the RAM's
    power-on noise until that frame is in."""

    def __init__(self, interface: Any) -> None:
        self._interface = interface
        self.retry_data = True
        self.muted = False  # writes dropped: the chip is already set up and showing a frame
        self.holding = False
        self.dark = False  # set up, not switched on: ``PartialUpdate`` switches it on with the first frame

    def command(self, *cmd: int) -> None:
        if self.muted:
            return
        if self.holding and cmd == (DISPLAY_ON,):
            self.dark = True
            return
        self._retry(lambda: self._interface.command(*cmd), BUS_ATTEMPTS)

    def data(self, data: Any) -> None:
        payload = list(data)
        if not (self.muted or self.holding):
            self._retry(lambda: self._interface.data(payload), BUS_ATTEMPTS if self.retry_data else 1)

    @staticmethod
    def _retry(write: Callable[[], None], attempts: int) -> None:
        for attempt in range(attempts):
            try:
                write()
                return
            except display_errors():
                if attempt + 1 >= attempts:
                    raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._interface, name)


class Geometry(Protocol):
    """The chip and its size and rotation, as ``make_device`` reads them (a config's display entry, or
    the splash's ``Track``)."""

    @property
    def driver(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def rotation(self) -> int: ...


def make_device(geometry: Geometry, serial_interface: Any, *, initialised: bool = False) -> Any:
    """A luma.oled device for ``geometry`` on the given serial interface (runs the chip's init but
    its RAM clear, and leaves it dark until ``PartialUpdate`` draws the first frame), its writes
    retried (``RetryingInterface``). ``initialised``: the chip was set up and drawn on already (the
    start-up splash did it), so luma's init and blanking are not sent."""
    from tablekeeper.hw.luma_devices import DRIVERS

    driver = DRIVERS[geometry.driver]
    interface = RetryingInterface(serial_interface)
    interface.muted = initialised
    interface.holding = True
    device = driver(serial_interface=interface, width=geometry.width, height=geometry.height,
                    rotate=geometry.rotation)
    interface.muted = interface.holding = False
    interface.retry_data = False  # from here on PartialUpdate retries whole windows
    return device


def open_i2c(geometry: Geometry, *, port: int, address: int) -> Any:
    """A display on the Pi's I2C bus ``port`` (luma's i2c interface) at ``address``."""
    from luma.core.interface import serial

    return make_device(geometry, serial.i2c(port=port, address=address))


def open_spi(geometry: Geometry, *, port: int, device: int, dc_pin: int, reset_pin: int | None = None,
             speed_hz: int | None = None) -> Any:
    """A display on the Pi's SPI bus ``port``, chip select ``device``, data/command on BCM ``dc_pin``."""
    from luma.core.interface import serial

    kwargs: dict[str, Any] = {"port": port, "device": device, "gpio_DC": dc_pin}
    if reset_pin is not None:
        kwargs["gpio_RST"] = reset_pin
    if speed_hz is not None:
        kwargs["bus_speed_hz"] = speed_hz
    return make_device(geometry, serial.spi(**kwargs))


WRITE_ATTEMPTS = 3  # one write and two retries of the whole frame before a display counts as failed


class StationDisplay:
    """One display. A failure marks it failed; it is reopened with back-off and redrawn."""

    def __init__(self, role: str, *, open_device: OpenDevice, clock: Clock, retry_s: float, retry_max_s: float,
                 ready: tuple[Any, list[bytes]] | None = None) -> None:
        """``retry_s``: the first wait before reopening a failed display, doubled up to ``retry_max_s``.
        ``ready``: a device already opened and what its chip holds (the start-up splash's frame), used
        as it is, so the chip is not initialised and blanked a second time."""
        self.role = role
        self._open_device = open_device
        self._clock = clock
        self._retry_s, self._retry_max_s = retry_s, retry_max_s
        self._adapter: PartialUpdate | None = None
        self._wanted: Image.Image | None = None
        self._retry_at_s: float | None = None
        self._backoff_s = retry_s
        self.last_error = ""
        self.failures = 0
        self.write_errors = 0
        self.bytes_sent = 0
        if ready is None:
            self._reopen(self._clock())
        else:
            device, pages = ready
            self._adapter = PartialUpdate(device, on_retry=self._count_write_error)
            self._adapter.assume_shown(pages)

    @property
    def failed(self) -> bool:
        return self._adapter is None

    @property
    def device(self) -> Any:
        return None if self._adapter is None else self._adapter.device

    def show(self, image: Image.Image) -> int:
        """Draw ``image`` now if the display works, else keep it for when it answers again."""
        self._wanted = image
        if self._adapter is None:
            return 0
        for attempt in range(WRITE_ATTEMPTS):  # a glitch on a long I2C cable should not blank the display
            try:
                sent = self._adapter.display(image)
            except display_errors() as exc:
                if attempt + 1 == WRITE_ATTEMPTS:
                    self._fail(exc, self._clock())
                    return 0
            else:
                self.bytes_sent += sent
                return sent
        return 0

    def _count_write_error(self) -> None:
        self.write_errors += 1

    def poll(self, now_s: float) -> None:
        if self._adapter is None and self._retry_at_s is not None and now_s >= self._retry_at_s:
            self._reopen(now_s)

    def next_deadline_s(self) -> float | None:
        return self._retry_at_s if self._adapter is None else None

    def _reopen(self, now_s: float) -> None:
        try:
            self._adapter = PartialUpdate(self._open_device(), on_retry=self._count_write_error)
        except display_errors() as exc:
            self._fail(exc, now_s)
            return
        self._retry_at_s = None
        self._backoff_s = self._retry_s
        if self._wanted is not None:
            self.show(self._wanted)

    def _fail(self, exc: BaseException, now_s: float) -> None:
        self._close_device()
        self.failures += 1
        self.last_error = f"{self.role} display: {exc or type(exc).__name__}"
        self._retry_at_s = now_s + self._backoff_s
        self._backoff_s = min(self._backoff_s * 2, self._retry_max_s)

    def _close_device(self) -> None:
        adapter, self._adapter = self._adapter, None
        if adapter is None:
            return
        try:
            adapter.device.interface.cleanup()  # release the bus handle without luma's blanking, which would fail
        except display_errors():
            pass  # the bus is already gone; nothing left to release

    def close(self) -> None:
        """Blank and release the display (luma's cleanup), tolerating one that is gone."""
        adapter, self._adapter = self._adapter, None
        self._retry_at_s = None
        if adapter is None:
            return
        try:
            adapter.device.cleanup()
        except display_errors():
            pass


class DisplayBank:
    """The station's displays by role; one failing never stops the others."""

    def __init__(self, openers: Mapping[str, OpenDevice], *, clock: Clock, retry_s: float, retry_max_s: float,
                 first: str | None = None, ready: Mapping[str, tuple[Any, list[bytes]]] | None = None) -> None:
        """``openers``: how to open each role's display, in the order they open. ``first``: open only
        that role's display now (the start-up frame goes out on it before the others' init and blanking
        take the bus), and those ``ready``; ``open_rest`` opens the others. ``ready``: displays already
        opened and drawn on (the splash's), by role: each device and what its chip holds."""
        self._openers = dict(openers)
        self._clock, self._retry_s, self._retry_max_s = clock, retry_s, retry_max_s
        ready = ready or {}
        self.displays: dict[str, StationDisplay] = {
            role: self._open(role, ready.get(role))
            for role in self._openers if first is None or role == first or role in ready
        }

    def _open(self, role: str, ready: tuple[Any, list[bytes]] | None = None) -> StationDisplay:
        return StationDisplay(role, open_device=self._openers[role], clock=self._clock, retry_s=self._retry_s,
                              retry_max_s=self._retry_max_s, ready=ready)

    def open_rest(self) -> None:
        """Open the displays ``first`` left closed, in the openers' order."""
        opened = self.displays
        self.displays = {role: opened[role] if role in opened else self._open(role) for role in self._openers}

    def show(self, images: Mapping[str, Image.Image]) -> int:
        return sum(self.displays[role].show(image) for role, image in images.items() if role in self.displays)

    def poll(self, now_s: float) -> None:
        for display in self.displays.values():
            display.poll(now_s)

    def next_deadline_s(self) -> float | None:
        return min((d for s in self.displays.values() if (d := s.next_deadline_s()) is not None), default=None)

    def failed(self) -> list[StationDisplay]:
        return [d for d in self.displays.values() if d.failed]

    def close(self) -> None:
        for display in self.displays.values():
            display.close()
