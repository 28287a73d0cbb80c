"""The station's first frame before the rest of it loads: on the Pi, ``tablekeeper run`` draws
"starting..." on the track display before argparse, logging, msgspec, PIL, luma and the config's checks
load (at a Pi Zero's CPU budget they take longer than the whole splash). It reads only the track
display's entry, with the standard library's TOML parser, and writes the bytes luma.oled would send to
open that chip and draw the frame (``splash_stream``, recorded from luma and ``ui.render``; a test
keeps them equal) straight to Linux's i2c-dev. Best effort: anything unexpected and there is no splash;
the full config check runs next and reports errors as it always does."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from tablekeeper.parsed_toml import hand_on

if TYPE_CHECKING:
    from PIL import Image

    from tablekeeper.config import StationConfig

INSTALLED_CONFIG = "/etc/tablekeeper/station.toml"  # as config.default_config_path
REFERENCE_CONFIG = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "station.toml")
MAX_CONFIG_BYTES = 1 << 20
TITLE, TEXT = "Tablekeeper", "starting..."  # the panel commands.run.show_starting draws
DRIVERS = ("ssd1306", "sh1106", "ssd1309")
SIZES = ((128, 64), (128, 32))  # the sizes a station config names
ROTATIONS = (0, 2)  # the ones that keep the panel's width and height
SIMULATED = ("--sim", "--script", "--display", "-h", "--help")  # these runs never drive the Pi's displays
I2C_SLAVE = 0x0703  # linux/i2c-dev.h: the address this descriptor's writes go to
COMMAND_MODE, DATA_MODE = 0x00, 0x40  # the control byte luma's i2c interface puts before commands, data
MAX_WRITE = 4096  # luma's i2c sends data in messages of at most this many bytes
BUS_ATTEMPTS = 3  # as hw.displays: a NACK on a long I2C cable is usually gone on the next try
DISPLAY_OFF = 0xAE
Stream = tuple[tuple[bool, bytes], ...]  # the writes in order: (a command?, its bytes)


class Track(NamedTuple):
    """The track display's chip and wiring, as the config file names them."""

    driver: str
    width: int
    height: int
    rotation: int
    port: int
    address: int

    @classmethod
    def of(cls, station: StationConfig) -> Track | None:
        """The same, from the checked config (None when the track display is not on I2C)."""
        display = station.display("track")
        if display is None or display.address is None:
            return None
        bus = station.bus(display.bus)
        if bus.kind != "i2c":
            return None
        return cls(display.driver, display.width, display.height, display.rotation, bus.port, display.address)

    @property
    def chip(self) -> tuple[str, int, int, int]:
        """The key of its stream in ``splash_stream.STREAMS``: driver, width, height, rotation."""
        return self.driver, self.width, self.height, self.rotation


class I2CDevice:
    """The track display's address on the Pi's I2C bus, through Linux's i2c-dev: the same messages
    luma's i2c interface sends through smbus2 (a command: 0x00 then its bytes; data: 0x40 then up to
    4,096 bytes), without loading smbus2 (ctypes) or luma before the first frame."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    @classmethod
    def open(cls, track: Track) -> I2CDevice:
        import fcntl

        fd = os.open(f"/dev/i2c-{track.port}", os.O_RDWR | os.O_CLOEXEC)
        try:
            fcntl.ioctl(fd, I2C_SLAVE, track.address)
        except OSError:
            os.close(fd)
            raise
        return cls(fd)

    def command(self, *cmd: int) -> None:
        self._write(bytes((COMMAND_MODE, *cmd)))

    def data(self, data: Iterable[int]) -> None:
        payload = bytes(data)
        for start in range(0, len(payload), MAX_WRITE):
            self._write(bytes((DATA_MODE,)) + payload[start:start + MAX_WRITE])

    def _write(self, message: bytes) -> None:
        if os.write(self.fd, message) != len(message):
            raise OSError(f"I2C write cut short ({len(message)} bytes)")

    def cleanup(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class Splash(NamedTuple):
    """The track display showing "starting...", and the interface it was drawn through."""

    track: Track
    interface: Any
    reopen: Callable[[Track], Any] | None = None  # the station's own interface to it (None: ``interface``)

    def hand_over(self, station: StationConfig) -> tuple[Any, Image.Image] | None:
        """A luma device for the track display and the frame it shows, for ``DisplayBank(ready=)``, when
        the checked config wires it as the splash did: luma's init and blanking are not sent, so the
        glass keeps "starting..." until the game's first frame replaces it. Otherwise (or if luma cannot
        open it) the display is turned off and released, and None returned: the station opens it afresh."""
        if Track.of(station) != self.track:
            self.release()
            return None
        from tablekeeper.hw.displays import display_errors, make_device

        try:
            interface = self.interface
            if self.reopen is not None:
                self.interface.cleanup()
                interface = self.reopen(self.track)
            device = make_device(self.track, interface, initialised=True)
        except display_errors():
            return None
        return device, starting_frame((self.track.width, self.track.height))

    def release(self) -> None:
        """Turn the display off (as luma's cleanup does) and let go of the bus."""
        try:
            self.interface.command(DISPLAY_OFF)
        except OSError:
            pass  # the display is opened afresh from the checked config next
        finally:
            self.interface.cleanup()


def config_path(argv: Sequence[str]) -> str | None:
    """The config a ``tablekeeper run`` on the Pi's own parts reads, or None for any other command."""
    words = list(argv)
    while words and (words[0] in ("-v", "--verbose", "--log-level") or words[0].startswith("--log-level=")):
        words = words[2:] if words[0] == "--log-level" else words[1:]  # the options before the command
    if not words or words[0] != "run":
        return None
    path = None
    for i, word in enumerate(words):
        if word.split("=", 1)[0] in SIMULATED:
            return None
        if word == "--config" and i + 1 < len(words):
            path = words[i + 1]
        elif word.startswith("--config="):
            path = word.removeprefix("--config=")
    if path is None:
        path = INSTALLED_CONFIG if os.path.isfile(INSTALLED_CONFIG) else REFERENCE_CONFIG
    return path


def read_track(path: str) -> Track | None:
    """The track display's entry, if the file has a plain one this splash can draw on (I2C)."""
    from tablekeeper.station.splash_stream import STREAMS

    with open(path, "rb") as file:
        raw = file.read(MAX_CONFIG_BYTES + 1)
    if len(raw) > MAX_CONFIG_BYTES:
        return None
    text = raw.decode("utf-8")
    data = tomllib.loads(text)
    hand_on(text, data)  # the config's checks read the same file next: they take this parse
    display = next((d for d in data.get("displays", ()) if isinstance(d, dict) and d.get("role") == "track"), None)
    if display is None:
        return None
    bus = data.get("buses", {}).get(display.get("bus"))
    if not isinstance(bus, dict) or bus.get("kind") != "i2c":
        return None  # an SPI display is opened by the station, after the config check
    driver, port, address, rotation = display.get("driver"), bus.get("port"), display.get("address"), \
        display.get("rotation", 0)
    size = tuple(int(n) for n in str(display.get("size", "")).split("x"))
    if len(size) != 2 or (driver, *size, rotation) not in STREAMS \
            or not (type(port) is int and type(address) is int and 0x03 <= address <= 0x77):
        return None
    return Track(str(driver), size[0], size[1], int(rotation), port, address)


def starting_frame(size: tuple[int, int]) -> Image.Image:
    """The "starting" panel as the station draws it (``ui.render``): what the splash's bytes show."""
    from tablekeeper.core.view import Panel
    from tablekeeper.ui.render import render_panel

    return render_panel(Panel(TITLE, (TEXT,)), size)


def draw(interface: Any, stream: Stream) -> None:
    """Send ``stream`` through ``interface`` (``command``/``data``, as luma's serial interfaces). A write
    the bus refuses is tried again, a data write with the command that addressed it, since one cut
    short has moved the chip's column pointer."""
    units: list[list[tuple[bool, bytes]]] = []
    for is_command, payload in stream:
        if is_command or not units:
            units.append([])
        units[-1].append((is_command, payload))
    for unit in units:
        for attempt in range(BUS_ATTEMPTS):
            try:
                for is_command, payload in unit:
                    if is_command:
                        interface.command(*payload)
                    else:
                        interface.data(payload)
                break
            except OSError:
                if attempt + 1 == BUS_ATTEMPTS:
                    raise


def luma_i2c(track: Track) -> Any:
    """luma's I2C interface to the track display (as ``station.parts.hardware_opener``), for the station."""
    from luma.core.interface.serial import i2c

    return i2c(port=track.port, address=track.address)


def gpio_present() -> bool:
    """A Raspberry Pi with its GPIO character device (what gpiozero's default pin factory needs)."""
    try:
        with open("/proc/device-tree/model", encoding="ascii", errors="replace") as model:
            is_pi = "raspberry pi" in model.read().lower()
    except OSError:
        return False
    return is_pi and any(name.startswith("gpiochip") for name in os.listdir("/dev"))


def show(argv: Sequence[str], *, open_interface: Callable[[Track], Any] | None = None,
         on_pi: Callable[[], bool] | None = None) -> Splash | None:
    """Draw "starting..." on the track display for a ``tablekeeper run`` on the Pi; None when this is
    another command, not a Pi, or the config or the display gives any trouble. ``open_interface``
    (default: the Pi's I2C through i2c-dev) and ``on_pi`` (default: ``gpio_present``) let the
    simulator stand in."""
    path = config_path(argv)
    if path is None or not (on_pi or gpio_present)():
        return None
    try:
        track = read_track(path)
    except (OSError, ValueError, TypeError, AttributeError):  # unreadable or odd: the real check reports it
        return None
    if track is None:
        return None
    from tablekeeper.station.splash_stream import STREAMS

    try:
        interface = (open_interface or I2CDevice.open)(track)
    except OSError:
        return None  # the station opens it, with its retries and back-off
    try:
        draw(interface, STREAMS[track.chip])
    except OSError:
        interface.cleanup()
        return None
    return Splash(track, interface, luma_i2c if isinstance(interface, I2CDevice) else None)


def recorded_streams() -> dict[tuple[str, int, int, int], Stream]:
    """What luma.oled sends to open each chip and ``hw.displays.PartialUpdate`` to draw the "starting"
    panel on it as ``ui.render`` draws it today: the source of ``splash_stream``."""
    from tablekeeper.hw.displays import PartialUpdate, make_device
    from tablekeeper.sim.oled import RecordingSerial

    streams: dict[tuple[str, int, int, int], Stream] = {}
    for driver in DRIVERS:
        for width, height in SIZES:
            for rotation in ROTATIONS:
                track = Track(driver, width, height, rotation, 1, 0x3C)
                wire = RecordingSerial()
                PartialUpdate(make_device(track, wire)).display(starting_frame((width, height)))
                streams[track.chip] = tuple((kind == "command", payload) for kind, payload in wire.calls)
    return streams


def stream_module(streams: dict[tuple[str, int, int, int], Stream]) -> str:
    """The text of ``splash_stream.py`` for ``streams``."""
    lines = ['"""The bytes luma.oled sends to open the track display and ``hw.displays.PartialUpdate`` to draw',
             '"starting..." on it as ``ui.render`` draws it, per chip: (driver, width, height, rotation) ->',
             "the writes in order, (a command?, its bytes). Written by ``python -m tablekeeper.station.splash``;",
             'tests/station/test_splash.py checks it against luma and ui.render."""', "",
             "from __future__ import annotations", "",
             "STREAMS: dict[tuple[str, int, int, int], tuple[tuple[bool, bytes], ...]] = {"]
    for chip, stream in streams.items():
        lines.append(f"    {chip!r}: (")
        for is_command, payload in stream:
            pieces = [repr(payload[i:i + 24]) for i in range(0, len(payload), 24)]
            if not any(payload):
                pieces = [f"bytes({len(payload)})"]
            lines.append(f"        ({is_command}, " + "\n                 ".join(pieces) + "),")
        lines.append("    ),")
    lines += ["}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    with open(os.path.join(os.path.dirname(__file__), "splash_stream.py"), "w", encoding="utf-8") as out:
        out.write(stream_module(recorded_streams()))
