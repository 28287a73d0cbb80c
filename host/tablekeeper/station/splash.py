"""The station's first frame before the rest of it loads: on the Pi, ``tablekeeper run`` draws on its
displays before argparse, logging, msgspec, PIL, luma and the config's checks load (at a Pi Zero's CPU
budget they take longer than the whole splash). It reads only the displays' entries, with the standard
library's TOML parser, and writes the bytes luma.oled would send to open each chip and draw a frame
straight to Linux's i2c-dev: the screens the last run remembered for this very start
(``station.remembered``) on every I2C display, or else "starting..." on the track display
(``splash_stream``, recorded from luma and ``ui.render``; a test keeps them equal). Best effort:
anything unexpected and there is no splash; the full config check runs next and reports errors as it
always does."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from tablekeeper.hw.chip_writes import DISPLAY_OFF, DISPLAY_ON, Stream, whole_frame
from tablekeeper.parsed_toml import hand_on, kept_path, load_kept
from tablekeeper.station import remembered
from tablekeeper.station.remembered import Track

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


class Drawn(NamedTuple):
    """One display the splash opened: its chip and wiring, the interface it wrote through, and what
    the chip holds now (its RAM image; None: the "starting" panel); ``dark``: opened only, switched
    off, its RAM unknown (the station's first frame goes out whole and switches it on)."""

    track: Track
    interface: Any
    pages: tuple[bytes, ...] | None = None
    dark: bool = False


class Splash(NamedTuple):
    """The displays the splash drew on, by role; ``remembered``: with the screens the last run left for
    this start (else "starting..." on the track display); ``key``: what the station remembers its
    screens under when it closes (None: it does not)."""

    drawn: dict[str, Drawn]
    key: remembered.Key | None = None
    remembered: bool = False

    @property
    def interfaces(self) -> list[Any]:
        return [drawn.interface for drawn in self.drawn.values()]

    def hand_over(self, station: StationConfig) -> dict[str, tuple[Any, list[bytes]]]:
        """A device for each display the checked config wires as the splash did (``hw.taken_over``: the
        chip is set up already, so neither luma's opening nor luma itself is needed for it), and what its
        chip holds, for ``DisplayBank(ready=)``: the glass keeps the splash's frame until the station's
        first frame replaces what differs. Any other display is turned off and released (the station
        opens it afresh with luma)."""
        from tablekeeper.hw.displays import native_pages
        from tablekeeper.hw.taken_over import TakenOver

        wired, handed = Track.wired(station), {}
        for role, drawn in self.drawn.items():
            if wired.get(role) != drawn.track:
                release(drawn.interface)
                continue
            device = TakenOver(drawn.track, drawn.interface, dark=drawn.dark)
            if drawn.dark:
                pages = [bytes(drawn.track.width)] * (drawn.track.height // 8)  # unknown: the first frame goes whole
            elif drawn.pages is not None:
                pages = list(drawn.pages)
            else:
                pages = native_pages(device, starting_frame((drawn.track.width, drawn.track.height)))
            handed[role] = (device, pages)
        return handed


def release(interface: Any) -> None:
    """Turn a display off (as luma's cleanup does) and let go of the bus."""
    try:
        interface.command(DISPLAY_OFF)
    except OSError:
        pass  # the display is opened afresh from the checked config next
    finally:
        interface.cleanup()


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


def read_displays(path: str) -> tuple[str, dict[str, Track]]:
    """The config's text and each display on I2C this splash can draw on, by role."""
    from tablekeeper.station.splash_stream import STREAMS

    with open(path, "rb") as file:
        raw = file.read(MAX_CONFIG_BYTES + 1)
    if len(raw) > MAX_CONFIG_BYTES:
        return "", {}
    text = raw.decode("utf-8")
    data = load_kept(text, kept_path(path, _cache()))  # as parsed last time, when the text is the same
    hand_on(text, data)  # the config's checks read the same file next: they take this parse
    found = {}
    for display in data.get("displays", ()):
        track = _i2c_display(display, data.get("buses", {}))
        if track is not None and track.chip in STREAMS and isinstance(display.get("role"), str):
            found[display["role"]] = track
    return text, found


def _i2c_display(display: Any, buses: Any) -> Track | None:
    if not isinstance(display, dict) or not isinstance(buses, dict):
        return None
    bus = buses.get(display.get("bus"))
    if not isinstance(bus, dict) or bus.get("kind") != "i2c":
        return None  # an SPI display is opened by the station, after the config check
    driver, port, address, rotation = display.get("driver"), bus.get("port"), display.get("address"), \
        display.get("rotation", 0)
    size = tuple(int(n) for n in str(display.get("size", "")).split("x"))
    if len(size) != 2 or not (type(port) is int and type(address) is int and 0x03 <= address <= 0x77) \
            or type(rotation) is not int or not isinstance(driver, str):
        return None
    return Track(driver, size[0], size[1], rotation, port, address)


def starting_frame(size: tuple[int, int]) -> Image.Image:
    """The "starting" panel as the station draws it (``ui.render``): what the splash's bytes show."""
    from tablekeeper.core.view import Panel
    from tablekeeper.ui.render import render_panel

    return render_panel(Panel(TITLE, (TEXT,)), size)


def save_of(argv: Sequence[str]) -> str | None:
    """The ``--save`` a command line names, if any."""
    words = list(argv)
    for i, word in enumerate(words):
        if word == "--save" and i + 1 < len(words):
            return words[i + 1]
        if word.startswith("--save="):
            return word.removeprefix("--save=")
    return None


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


def gpio_present() -> bool:
    """A Raspberry Pi with its GPIO character device (what gpiozero's default pin factory needs)."""
    try:
        with open("/proc/device-tree/model", encoding="ascii", errors="replace") as model:
            is_pi = "raspberry pi" in model.read().lower()
    except OSError:
        return False
    return is_pi and any(name.startswith("gpiochip") for name in os.listdir("/dev"))


def show(argv: Sequence[str], *, open_interface: Callable[[Track], Any] | None = None,
         on_pi: Callable[[], bool] | None = None, default_save: Callable[[], str] | None = None) -> Splash | None:
    """Draw the remembered screens, or "starting..." on the track display, for a ``tablekeeper run`` on
    the Pi; None when this is another command, not a Pi, or the config or the displays give any
    trouble. ``open_interface`` (default: the Pi's I2C through i2c-dev) and ``on_pi`` (default:
    ``gpio_present``) let the simulator stand in; ``default_save``: the save a run without ``--save``
    keeps (none: nothing is remembered)."""
    path = config_path(argv)
    if path is None or not (on_pi or gpio_present)():
        return None
    try:
        text, wired = read_displays(path)
    except (OSError, ValueError, TypeError, AttributeError):  # unreadable or odd: the real check reports it
        return None
    opener = open_interface or I2CDevice.open
    save = save_of(argv) or (default_save() if default_save is not None else None)
    key = remembered.Key(tuple(argv), text, save) if save else None
    shown = remembered.recall(key, _cache()) if key is not None else None
    drawn = draw_remembered(shown, wired, opener) if shown else {}
    if "track" not in drawn and "track" in wired:
        starting = _draw_starting(wired["track"], opener)
        if starting is not None:
            drawn["track"] = starting
    if not drawn:
        return None
    remembered_all = shown is not None and len(drawn) == len(shown)
    # the track display the station draws "starting..." on itself when the splash could not
    drawn.update(open_dark({role: track for role, track in wired.items() if role not in drawn and role != "track"},
                           opener))
    return Splash(drawn, key, remembered=remembered_all)


def _cache() -> str:
    """The user's cache folder (``user_paths.cache_dir``), where ``remembered`` keeps its screens."""
    from tablekeeper.user_paths import cache_dir

    return str(cache_dir())


def draw_remembered(shown: Sequence[remembered.Shown], wired: dict[str, Track],
                    opener: Callable[[Track], Any]) -> dict[str, Drawn]:
    """Each remembered screen on its display, opened as ``hw.displays.make_device`` opens it and the
    frame sent whole; a display wired otherwise now, or that does not answer, is left to the station."""
    from tablekeeper.station.splash_stream import OPENINGS

    drawn = {}
    for frame in shown:
        track = frame.track
        if wired.get(frame.role) != track or track.chip not in OPENINGS:
            continue
        stream = OPENINGS[track.chip] + whole_frame(track.driver, track.width, track.height, frame.pages) \
            + ((True, bytes((DISPLAY_ON,))),)
        interface = _drawn_on(track, opener, stream)
        if interface is not None:
            drawn[frame.role] = Drawn(track, interface, frame.pages)
    return drawn


def open_dark(wired: dict[str, Track], opener: Callable[[Track], Any]) -> dict[str, Drawn]:
    """The other displays opened as ``hw.displays.make_device`` opens them (dark, the RAM clear held back):
    the station draws its first frame on them without luma's opening, or luma itself, loading first."""
    from tablekeeper.station.splash_stream import OPENINGS

    opened = {}
    for role, track in wired.items():
        if track.chip in OPENINGS:
            interface = _drawn_on(track, opener, OPENINGS[track.chip])
            if interface is not None:
                opened[role] = Drawn(track, interface, dark=True)
    return opened


def _draw_starting(track: Track, opener: Callable[[Track], Any]) -> Drawn | None:
    from tablekeeper.station.splash_stream import STREAMS

    interface = _drawn_on(track, opener, STREAMS[track.chip])
    return None if interface is None else Drawn(track, interface)


def _drawn_on(track: Track, opener: Callable[[Track], Any], stream: Stream) -> Any:
    """The interface ``stream`` went out on, or None when the display could not be opened or written."""
    try:
        interface = opener(track)
    except OSError:
        return None  # the station opens it, with its retries and back-off
    try:
        draw(interface, stream)
    except OSError:
        interface.cleanup()
        return None
    return interface


Chip = tuple[str, int, int, int]  # driver, width, height, rotation


def recorded_streams() -> dict[Chip, Stream]:
    """What luma.oled sends to open each chip and ``hw.displays.PartialUpdate`` to draw the "starting"
    panel on it as ``ui.render`` draws it today: the source of ``splash_stream.STREAMS``."""
    from tablekeeper.hw.displays import PartialUpdate, make_device
    from tablekeeper.sim.oled import RecordingSerial

    streams: dict[Chip, Stream] = {}
    for track in _chips():
        wire = RecordingSerial()
        PartialUpdate(make_device(track, wire)).display(starting_frame((track.width, track.height)))
        streams[track.chip] = tuple((kind == "command", payload) for kind, payload in wire.calls)
    return streams


def recorded_openings() -> dict[Chip, Stream]:
    """What luma.oled sends to open each chip, without its RAM clear and switch-on (as ``hw.displays.make_device``
    opens it: the first frame comes next): the source of ``splash_stream.OPENINGS``."""
    from tablekeeper.hw.displays import make_device
    from tablekeeper.sim.oled import RecordingSerial

    openings: dict[Chip, Stream] = {}
    for track in _chips():
        wire = RecordingSerial()
        make_device(track, wire)
        openings[track.chip] = tuple((kind == "command", payload) for kind, payload in wire.calls)
    return openings


def _chips() -> list[Track]:
    return [Track(driver, width, height, rotation, 1, 0x3C)
            for driver in DRIVERS for width, height in SIZES for rotation in ROTATIONS]


def stream_module(streams: dict[Chip, Stream], openings: dict[Chip, Stream]) -> str:
    """The text of ``splash_stream.py`` for ``streams`` and ``openings``."""
    lines = ['"""The bytes luma.oled sends to open a display, per chip: (driver, width, height, rotation) -> the',
             "writes in order, (a command?, its bytes). ``STREAMS``: the track display opened and",
             '"starting..." drawn on it by ``hw.displays.PartialUpdate`` as ``ui.render`` draws it; ``OPENINGS``:',
             "the opening alone, the RAM clear and switch-on held back (``station.remembered`` draws a frame",
             "next). Written by ``python -m tablekeeper.station.splash``; tests/station/test_splash.py checks",
             'them against luma and ui.render."""', "",
             "from __future__ import annotations", ""]
    for name, table in (("STREAMS", streams), ("OPENINGS", openings)):
        lines.append(f"{name}: dict[tuple[str, int, int, int], tuple[tuple[bool, bytes], ...]] = {{")
        for chip, stream in table.items():
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
        out.write(stream_module(recorded_streams(), recorded_openings()))
