"""The screens a restart shows first, remembered when the station closes and whenever the table has been
quiet a moment (``KeepWhenQuiet``): on the Pi the splash draws them on every I2C display before
argparse, msgspec, Pillow, luma or the game load, and the station, once it has loaded, draws its own
first frame over them, sending only what differs (nothing, when the memory was right). A box that is
switched off and on again shows its game in well under a second instead of "starting..." for two.

The memory is only a shortcut, like ``.pyc``: it is used only for the same command line, the same config
text, the same software (version and install) and the save file exactly as the station left it (size,
modification time and inode of the file and its write-ahead log); a power cut within ``QUIET_S`` of a
press, another save, a new config or an update means "starting..." as before. Anything missing, damaged
or unwritable means no memory, never an error. Standard library only (``marshal``), for the splash."""

from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import tablekeeper
from tablekeeper.cache_files import entry_path, write_whole

if TYPE_CHECKING:
    from tablekeeper.config import StationConfig

FORMAT: Final = 1  # bump when the file's layout or what it holds changes
MAX_BYTES: Final = 1 << 16  # six 128x64 displays are 6 KiB of pages
QUIET_S: Final = 2.0  # a table this long without a press or a change has its game remembered as it stands


class Track(NamedTuple):
    """A display's chip and its place on the Pi's I2C buses, as the config file names them."""

    driver: str
    width: int
    height: int
    rotation: int
    port: int
    address: int

    @classmethod
    def wired(cls, station: StationConfig) -> dict[str, Track]:
        """Each display on I2C by role, from the checked config."""
        found = {}
        for display in station.displays:
            bus = station.bus(display.bus)
            if display.address is not None and bus.kind == "i2c":
                found[display.role] = cls(display.driver, display.width, display.height, display.rotation,
                                          bus.port, display.address)
        return found

    @property
    def chip(self) -> tuple[str, int, int, int]:
        """The key of its stream in ``splash_stream.STREAMS``: driver, width, height, rotation."""
        return self.driver, self.width, self.height, self.rotation


class Shown(NamedTuple):
    """One display's first frame: its chip and wiring, and the chip's RAM image (a byte per column, a
    row of bytes per 8-pixel page: ``hw.displays.pack_pages`` after rotation)."""

    role: str
    track: Track
    pages: tuple[bytes, ...]


class Key(NamedTuple):
    """What the remembered frames hold for: a ``tablekeeper run`` command line, its config's text and
    its save file as the station left it."""

    argv: tuple[str, ...]
    config_text: str
    save: str

    def stamp(self) -> tuple[Any, ...]:
        return (FORMAT, software_stamp(), self.argv, self.config_text, os.path.abspath(self.save),
                file_stamp(self.save), file_stamp(self.save + "-wal"))


def file_stamp(path: str) -> tuple[int, int, int] | None:
    """Size, modification time and inode: a save written since, or replaced, has another."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino


def software_stamp() -> tuple[str, tuple[int, int, int] | None]:
    """The version and the installed package's own file: an update or a reinstall rewrites it."""
    return tablekeeper.__version__, file_stamp(tablekeeper.__file__ or "")


def memory_path(save: str, cache: str) -> str | None:
    """Where the frames remembered for ``save`` live under ``cache``: the save's absolute path
    escaped into one file name (None when too long)."""
    return entry_path(cache, "screens", save, ".screens")


def recall(key: Key, cache: str) -> tuple[Shown, ...] | None:
    """The frames remembered for exactly this key, or None."""
    path = memory_path(key.save, cache)
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
        stamp, displays = marshal.loads(raw) if len(raw) <= MAX_BYTES else (None, ())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if stamp != key.stamp():
        return None
    try:
        shown = tuple(Shown(role, Track(*track), pages) for role, track, pages in displays)
    except (TypeError, ValueError):
        return None
    return shown if shown and all(_whole(s) for s in shown) else None


def _whole(shown: Shown) -> bool:
    track = shown.track
    return (type(shown.role) is str and type(track.driver) is str and all(type(n) is int for n in track[1:])
            and type(shown.pages) is tuple and len(shown.pages) * 8 == track.height
            and all(type(p) is bytes and len(p) == track.width for p in shown.pages))


def remember(key: Key, cache: str, shown: Sequence[Shown]) -> bool:
    """Keep ``shown`` for the next start with this key (after the save is closed: its stamp is part of
    the key); best effort: False when nothing could be kept. No frames: any old memory is dropped."""
    path = memory_path(key.save, cache)
    if path is None:
        return False
    if not shown:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return False
    return write_whole(path, marshal.dumps((key.stamp(), [(s.role, tuple(s.track), s.pages) for s in shown])))


class KeepWhenQuiet:
    """A timed part of the station loop: ``keep()`` once the table has been quiet for ``quiet_s`` (no
    press handled and no change to the game: ``mark()`` moves with either), and once after the start
    (opening the save changed its files), so a box whose power is cut mid-game shows its game at once
    too. Never inside a burst of presses: one waiting (``busy()``) holds the keep back until it is
    handled, which starts the quiet time again."""

    def __init__(self, mark: Callable[[], object], keep: Callable[[], object], *, now_s: float,
                 busy: Callable[[], bool] = lambda: False, quiet_s: float = QUIET_S) -> None:
        self._mark, self._keep, self._busy, self._quiet_s = mark, keep, busy, quiet_s
        self._seen = mark()
        self._due: float | None = now_s + quiet_s

    def poll(self, now_s: float) -> None:
        mark = self._mark()
        if mark != self._seen:
            self._seen, self._due = mark, now_s + self._quiet_s
        elif self._due is not None and now_s >= self._due and not self._busy():
            self._due = None
            self._keep()

    def next_deadline_s(self) -> float | None:
        return self._due
