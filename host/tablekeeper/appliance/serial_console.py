"""The Pi's serial console against buttons on BCM 14/15.

Raspberry Pi OS may put a login console on the UART pins (``console=serial0,115200`` in
``cmdline.txt``, ``enable_uart=1``); the reference pin map uses those pins for buttons, so the
installer takes the console off them and ``doctor`` checks that it stayed off.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from tablekeeper.config import UART_PINS, StationConfig

if TYPE_CHECKING:
    from tablekeeper.appliance.install import Context

CMDLINE_CANDIDATES: Final = (Path("/boot/firmware/cmdline.txt"), Path("/boot/cmdline.txt"))
BACKUP_SUFFIX: Final = ".tablekeeper-backup"
_SERIAL_CONSOLE: Final = re.compile(r"^console=(serial[01]|ttyAMA[0-9]|ttyS[0-9])(,\S*)?$")


def uart_pins_in_use(cfg: StationConfig) -> list[int]:
    """The UART pins (BCM 14/15) the config gives to something other than the UART itself."""
    if cfg.uart:
        return []
    used = cfg.pin_map()
    return [pin for pin in UART_PINS.values() if pin in used]


def serial_consoles(cmdline: str) -> list[str]:
    """The ``console=`` arguments of a kernel command line that put a console on the UART."""
    return [word for word in cmdline.split() if _SERIAL_CONSOLE.match(word)]


def without_serial_console(cmdline: str) -> str:
    """``cmdline.txt`` without its serial consoles: still one line, every other argument kept in order."""
    kept = [word for word in cmdline.split() if not _SERIAL_CONSOLE.match(word)]
    return " ".join(kept) + "\n"


def find_cmdline(root: Path) -> Path:
    for candidate in CMDLINE_CANDIDATES:
        if (root / candidate.relative_to("/")).exists():
            return candidate
    return CMDLINE_CANDIDATES[0]


@dataclass(frozen=True, slots=True)
class DisableSerialConsole:
    """Drop the serial console from cmdline.txt, keeping the original once as ``*.tablekeeper-backup``."""

    path: Path

    def describe(self) -> str:
        return f"edit: {self.path}: remove console=serial0,... (the buttons use BCM 14/15)"

    def apply(self, ctx: Context) -> None:
        target = ctx.path(self.path)
        if not target.exists():
            print(f"    {self.path} does not exist; no serial console to remove")
            return
        old = target.read_text(encoding="utf-8")
        if not serial_consoles(old):
            return
        backup = target.with_name(target.name + BACKUP_SUFFIX)
        if not backup.exists():
            shutil.copy2(target, backup)
        temporary = target.with_name(target.name + ".new")
        temporary.write_text(without_serial_console(old), encoding="utf-8")
        shutil.copymode(target, temporary)
        temporary.replace(target)
