"""The station's parts, simulated: gpiozero ``MockFactory`` pins, emulated OLED chips, and the whole
panel shown as readable ``text`` in the terminal, through luma.emulator (``pygame`` window,
``asciiblock`` pixel view) or written by Pillow (``capture`` PNGs, ``gifanim`` GIF), with keyboard
keys pressing the virtual buttons.

The displays run the real luma.oled drivers and the real partial-update adapter; only the bus is
replaced by ``OledChip``, so the simulator shows exactly what the bytes would put on the glass.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from PIL import Image

from tablekeeper.config import ButtonConfig, DisplayConfig, StationConfig
from tablekeeper.errors import HardwareError
from tablekeeper.hw.displays import make_device
from tablekeeper.sim.modes import DISPLAY_MODES
from tablekeeper.sim.oled import OledChip

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from tablekeeper.sim.counter_table import CounterTable
    from tablekeeper.sim.panel import PanelLayout

__all__ = ["DISPLAY_MODES", "SimulatedParts", "choose_display_mode", "has_graphical_screen", "make_emulator"]

SCALE: Final = 2


def has_graphical_screen(env: dict[str, str] | None = None) -> bool:
    """Whether a pygame window can open: a desktop session, not SSH or CI."""
    env = dict(os.environ) if env is None else env
    if env.get("SDL_VIDEODRIVER", "") in ("dummy", "offscreen"):
        return False
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def choose_display_mode(requested: str | None, *, stdout_is_tty: bool, env: dict[str, str] | None = None) -> str:
    """The ``--display`` asked for, else a window, else the terminal, else PNG files."""
    if requested is not None:
        return requested
    if has_graphical_screen(env):
        return "pygame"
    return "text" if stdout_is_tty else "capture"


def import_pygame() -> Any:
    """pygame, imported without ``pkg_resources``: pygame only asks it where its own data files are
    (and falls back to its package directory), but importing it costs a third of the simulator's
    start-up. Where something else has already loaded it, it is used as it is."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    hidden = "pkg_resources" not in sys.modules
    if hidden:
        sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # makes its import fail fast
    try:
        import pygame
    finally:
        if hidden:
            del sys.modules["pkg_resources"]
    return pygame


INVISIBLE_DRIVERS: Final = ("offscreen", "dummy")
"""SDL's video drivers that draw nowhere: its fallback when no screen can be opened."""


def _window(emulators: Any, common: dict[str, Any]) -> Any:
    """luma.emulator's pygame window, or one line saying why none can open. On Linux SDL may try only
    the screens there are (the desktop session's, the console's own: kmsdrm on a Pi without a
    desktop): its fallback would draw nowhere. An ``SDL_VIDEODRIVER`` the user set is theirs."""
    pygame = import_pygame()
    chosen = os.environ.get("SDL_VIDEODRIVER", "")
    tried = chosen
    if not chosen and sys.platform.startswith("linux"):
        sessions = [name for name, var in (("wayland", "WAYLAND_DISPLAY"), ("x11", "DISPLAY")) if os.environ.get(var)]
        tried = os.environ["SDL_VIDEODRIVER"] = ",".join([*sessions, "kmsdrm"])
    try:
        emulator = emulators.pygame(frame_rate=30, **common)
    except pygame.error as exc:
        raise HardwareError(f"--display pygame: no screen to open a window on (SDL tried {tried}: {exc}); "
                            "try --display text or capture") from None
    finally:
        if not chosen:
            os.environ.pop("SDL_VIDEODRIVER", None)
    driver = pygame.display.get_driver()
    if driver in INVISIBLE_DRIVERS and driver != chosen:
        emulator.cleanup()
        raise HardwareError(f"--display pygame: no screen to open a window on (SDL fell back to its {driver} "
                            "driver); try --display text or capture")
    emulator._pygame.display.set_caption("Tablekeeper station (simulated)")
    return emulator


def make_emulator(mode: str, size: tuple[int, int], capture_dir: Path) -> Any:
    """A luma device of ``mode`` for the composed panel: for ``capture`` and ``gifanim`` files made by
    Pillow, else luma.emulator's, which draw through pygame (imported only now)."""
    width, height = size
    common: dict[str, Any] = {"width": width, "height": height, "mode": "RGB", "transform": "identity",
                              "scale": SCALE}
    if mode in ("capture", "gifanim"):
        capture_dir.mkdir(exist_ok=True)
    if mode == "gifanim":
        from tablekeeper.sim.gifstream import GifStream

        return GifStream(filename=str(capture_dir / "panel.gif"), duration=0.5, **common)
    if mode == "capture":
        from tablekeeper.sim.pngframes import PngFrames

        return PngFrames(file_template=str(capture_dir / "panel_{0:06}.png"), **common)
    try:
        import_pygame()
        from luma.emulator import device as emulators
    except ImportError as exc:
        raise HardwareError(f"the simulator needs luma.emulator (pip install -e '.[sim]'): {exc}") from None
    if mode == "asciiblock":
        if not hasattr(emulators, "asciiblock"):
            raise HardwareError("--display asciiblock needs a POSIX terminal")
        try:
            columns = os.get_terminal_size(sys.stdout.fileno()).columns
        except OSError:
            columns = 0
        if columns <= 0:
            raise HardwareError("--display asciiblock: standard output is not a terminal with a width; "
                                "try --display capture")
        return emulators.asciiblock(**common)
    if mode == "pygame":
        return _window(emulators, common)
    if mode == "text":
        raise HardwareError("--display text draws the panel in a terminal as the station runs; "
                            "a --script run keeps frames: use --display capture or gifanim")
    raise HardwareError(f"--display {mode!r}: choose one of {', '.join(DISPLAY_MODES)}")


def _written_by(emulator: Any) -> int:
    """Bytes the frame just shown added to the capture files (a PNG per frame, or the GIF's new frame)."""
    if isinstance(getattr(emulator, "bytes_written", None), int):
        before = getattr(emulator, "_reported", 0)
        emulator._reported = emulator.bytes_written
        return int(emulator.bytes_written - before)
    return 0  # a window or a terminal writes no file


def write_rate(bytes_written: int, seconds: float) -> str:
    """What a capture run wrote, and that pace as megabytes per hour, for the line at the end."""
    per_hour = bytes_written / seconds * 3600 if seconds > 0 else 0.0
    return f"{bytes_written / 1e6:.2f} MB in {seconds:.0f} s, about {per_hour / 1e6:.0f} MB per hour at this pace"


class SimulatedParts:
    """Mock pins and emulated chips for one station config, the virtual counters beside it (if any),
    and the picture of the panel."""

    def __init__(self, config: StationConfig, *, display_mode: str | None, capture_dir: Path,
                 emulator_factory: Callable[[str, tuple[int, int], Path], Any] = make_emulator,
                 counters: CounterTable | None = None) -> None:
        self.config = config
        self.chips: dict[str, OledChip] = {}
        self.unplugged: set[str] = set()
        self.counters = counters
        self.display_mode = display_mode
        self.capture_dir = capture_dir
        self.emulator = None if display_mode is None else emulator_factory(display_mode, self.layout.size,
                                                                             capture_dir)
        self.frames_shown = 0
        self.bytes_written = 0  # what capture and gifanim wrote to their files
        self.picture: Image.Image | None = None
        self._last: bytes | None = None
        self._signature: object = None
        self._keys = {b.key: b for b in config.buttons if b.key}
        self._by_role = {b.role: b for b in config.buttons}

    @cached_property
    def layout(self) -> PanelLayout:
        """Where each display, button and counter sits in the panel's picture (made when first drawn)."""
        from tablekeeper.sim.panel import PanelLayout

        return PanelLayout(self.config, self.counters.entries if self.counters is not None else ())

    @cached_property
    def pin_factory(self) -> MockFactory:
        """The mock pins, made when the buttons and LEDs are (gpiozero loads after the first frame)."""
        from gpiozero.pins.mock import MockFactory

        return MockFactory()

    # --- displays ---------------------------------------------------------------------------------
    def unplug(self, role: str) -> None:
        """Make a display stop answering, as a loose wire would (errno 121, like the I2C driver)."""
        self.unplugged.add(role)
        chip = self.chips.get(role)
        if chip is not None:
            chip.fail_with = OSError(121, "Remote I/O error")

    def plug(self, role: str) -> None:
        self.unplugged.discard(role)

    def open_device(self, config: DisplayConfig) -> Any:
        if config.role in self.unplugged:
            raise OSError(121, "Remote I/O error")
        chip = OledChip(config.driver, config.width, config.height, record=False)
        self.chips[config.role] = chip
        return make_device(config, chip)

    def screens(self) -> dict[str, Image.Image]:
        """What each glass shows, turned the way the player sees it."""
        out = {}
        for display in self.config.displays:
            chip = self.chips.get(display.role)
            if chip is not None:
                image = chip.image()
                out[display.role] = image.rotate(180) if display.rotation == 2 else image
        return out

    # --- buttons ----------------------------------------------------------------------------------
    def button_for_key(self, key: str) -> ButtonConfig | None:
        return self._keys.get(key)

    def counter_for_key(self, key: str) -> tuple[int, str] | None:
        """The virtual counter and its button (``up``, ``down``, ``select``) that ``key`` presses."""
        return self.counters.counter_for_key(key) if self.counters is not None else None

    def button(self, role: str) -> ButtonConfig | None:
        return self._by_role.get(role)

    def set_button(self, button: ButtonConfig, down: bool) -> None:
        """Drive the button's mock pin as the switch would (to ground for a pull-up)."""
        pin = self.pin_factory.pin(button.pin)
        if down == button.pull_up:
            pin.drive_low()
        else:
            pin.drive_high()

    # --- the picture ------------------------------------------------------------------------------
    def refresh(self, *, pressed: frozenset[str], lit_seat: int | None, failed: frozenset[str]) -> bool:
        """Compose the panel; show it if it changed. Returns whether a frame was shown."""
        counters = tuple(self.counters.views()) if self.counters is not None else ()
        signature = (tuple((role, id(chip), chip.transfers) for role, chip in self.chips.items()), pressed, lit_seat,
                     failed, counters)
        if signature == self._signature:
            return False  # nothing reached a chip, a button or an LED: skip composing
        self._signature = signature
        from tablekeeper.sim.panel import compose

        picture = compose(self.layout, self.screens(), pressed=pressed, lit_seat=lit_seat, failed=failed,
                          counters=counters)
        raw = picture.tobytes()
        if raw == self._last:
            return False
        self._last = raw
        self.picture = picture
        if self.emulator is not None:
            self.emulator.display(picture)
            self.bytes_written += _written_by(self.emulator)
        self.frames_shown += 1
        return True

    def close(self) -> None:
        emulator, self.emulator = self.emulator, None
        if emulator is not None:
            if hasattr(emulator, "write_animation"):
                emulator.write_animation()
            emulator.cleanup()
        if "pin_factory" in self.__dict__:
            self.pin_factory.reset()
        if self.counters is not None:
            self.counters.close()
