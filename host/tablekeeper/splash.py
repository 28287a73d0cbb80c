"""The station's first frame before the rest of it loads: on the Pi, ``tablekeeper run`` draws
"starting..." on the track display before argparse, logging, msgspec and the config's checks load
(at a Pi Zero's CPU budget they take longer than the whole splash). It reads only the track display's
entry, with the standard library's TOML parser. Best effort: anything unexpected and there is no
splash; the full config check runs next and reports errors as it always does."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from PIL import Image

    from tablekeeper.config import StationConfig

INSTALLED_CONFIG = "/etc/tablekeeper/station.toml"  # as config.default_config_path
REFERENCE_CONFIG = os.path.join(os.path.dirname(__file__), "data", "station.toml")
MAX_CONFIG_BYTES = 1 << 20
TITLE, TEXT = "Tablekeeper", "starting..."  # the panel station_cli.show_starting draws
# The face ui.render picks for that panel at each size it draws at scale 1 (a test compares the frames).
FACES = {(128, 64): "10x20"}
DRIVERS = ("ssd1306", "sh1106", "ssd1309")
SIMULATED = ("--sim", "--script", "--display", "-h", "--help")  # these runs never drive the Pi's displays


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


class Splash(NamedTuple):
    """The opened track display, the frame it shows, and the interface it was opened on."""

    track: Track
    device: Any
    image: Image.Image
    interface: Any

    def hand_over(self, station: StationConfig) -> tuple[Any, Image.Image] | None:
        """The device and its frame for ``DisplayBank(ready=)`` when the checked config wires the track
        display as the splash did; otherwise the device is released (blanked) and None returned."""
        if Track.of(station) == self.track:
            return self.device, self.image
        from tablekeeper.hw.displays import display_errors

        try:
            self.device.cleanup()
        except display_errors():
            pass  # the display is opened afresh from the checked config next
        return None


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
    with open(path, "rb") as file:
        raw = file.read(MAX_CONFIG_BYTES + 1)
    if len(raw) > MAX_CONFIG_BYTES:
        return None
    data = tomllib.loads(raw.decode("utf-8"))
    display = next((d for d in data.get("displays", ()) if isinstance(d, dict) and d.get("role") == "track"), None)
    if display is None:
        return None
    bus = data.get("buses", {}).get(display.get("bus"))
    if not isinstance(bus, dict) or bus.get("kind") != "i2c":
        return None  # an SPI display is opened by the station, after the config check
    driver, port, address, rotation = display.get("driver"), bus.get("port"), display.get("address"), \
        display.get("rotation", 0)
    size = tuple(int(n) for n in str(display.get("size", "")).split("x"))
    if driver not in DRIVERS or size not in FACES or rotation not in (0, 2) \
            or not (type(port) is int and type(address) is int and 0x03 <= address <= 0x77):
        return None
    return Track(str(driver), size[0], size[1], int(rotation), port, address)


def starting_image(size: tuple[int, int]) -> Image.Image:
    """The "starting" panel as ``ui.render.render_panel`` draws it (title bar, one row), from PIL alone."""
    from PIL import Image, ImageDraw, ImageFont

    face = FACES[size]
    row_h = int(face.rstrip("B").split("x")[1])
    font = ImageFont.load(os.path.join(os.path.dirname(__file__), "ui", "fonts", f"{face}.pil"))
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0] - 1, row_h - 1), fill=1)
    draw.text((1, 0), TITLE, font=font, fill=0)
    draw.text((0, row_h), TEXT, font=font, fill=1)
    return image


def i2c_interface(track: Track) -> Any:
    """The Pi's I2C bus to the track display (luma's interface, as ``hw.displays.hardware_opener``)."""
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
    (default: the Pi's I2C) and ``on_pi`` (default: ``gpio_present``) let the simulator stand in."""
    path = config_path(argv)
    if path is None or not (on_pi or gpio_present)():
        return None
    try:
        track = read_track(path)
    except (OSError, ValueError, TypeError, AttributeError):  # unreadable or odd: the real check reports it
        return None
    if track is None:
        return None
    from tablekeeper.hw.displays import PartialUpdate, display_errors, make_device

    try:
        interface = (open_interface or i2c_interface)(track)
        device = make_device(track, interface)
        image = starting_image((track.width, track.height))
        PartialUpdate(device).display(image)
    except display_errors():
        return None  # the station opens it again, with its retries and back-off
    return Splash(track, device, image, interface)
