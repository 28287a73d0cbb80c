"""Finding counters: which serial ports hold one (their USB IDs), when to look (pyudev's events where udev
runs, inotify on /dev where it does not, else a slow scan gated by the mtime of /dev), opening a port
exclusively, and the back-off for a port that fails to open or is dropped."""

from __future__ import annotations

import contextlib
import logging
import os
import weakref
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tablekeeper.errors import HardwareError

if TYPE_CHECKING:
    from inotify_simple import INotify

log = logging.getLogger("tablekeeper.hw.counters")

MICROPYTHON_RP2040: tuple[int, int] = (0x2E8A, 0x0005)


class PortInfo(Protocol):
    """What ``serial.tools.list_ports.comports()`` yields (only these fields are read)."""

    @property
    def device(self) -> str: ...

    @property
    def vid(self) -> int | None: ...

    @property
    def pid(self) -> int | None: ...

    @property
    def serial_number(self) -> str | None: ...


class SerialPort(Protocol):
    """The slice of ``serial.Serial`` the link uses."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...

    def fileno(self) -> int: ...


def list_usb_ports() -> list[PortInfo]:
    from serial.tools import list_ports

    return list(list_ports.comports())


FALLBACK_SCAN_S = 2.0  # without udev: how often /dev is looked at (a full port listing only when it changed)
UDEV_CONTROL = Path("/run/udev/control")  # exists while udevd runs (what libudev itself checks)


class Hotplug(Protocol):
    """A source of "the port list may have changed" events, waited on with ``select``."""

    def fileno(self) -> int: ...

    def changed(self) -> bool: ...


class UdevHotplug:
    """pyudev's ``Monitor`` on the tty subsystem (``ttyACM*`` appear and go with USB counters)."""

    def __init__(self, monitor: Any) -> None:
        self._monitor = monitor

    @classmethod
    def open(cls, control: Path = UDEV_CONTROL) -> UdevHotplug | None:
        """The monitor, or None where udev is not running or libudev is missing (a container)."""
        if not control.exists():
            return None
        try:
            import pyudev

            monitor = pyudev.Monitor.from_netlink(pyudev.Context())
            monitor.filter_by("tty")
            monitor.start()
        except (ImportError, OSError, ValueError) as exc:
            log.info("counter hot-plug: no udev monitor (%s); scanning every %.0f s", exc, FALLBACK_SCAN_S)
            return None
        return cls(monitor)

    def fileno(self) -> int:
        return int(self._monitor.fileno())

    def changed(self) -> bool:
        """Drain the pending events (``poll(0)`` never blocks); True if there were any."""
        seen = False
        try:
            while self._monitor.poll(0) is not None:
                seen = True
        except OSError as exc:  # e.g. ENOBUFS: events were lost while a hub re-enumerated; list the ports
            log.info("counter hot-plug: udev events lost (%s); listing the ports", exc)
            return True
        return seen


class DevWatch:
    """Where udev does not run (a container): the kernel's inotify on /dev (``inotify_simple``), so a
    device node created or removed wakes the thread."""

    def __init__(self, watch: INotify) -> None:
        self._watch = watch
        self._closer = weakref.finalize(self, watch.close)  # the manager that waits on it may just drop it

    @classmethod
    def open(cls, directory: str = "/dev") -> DevWatch | None:
        """The watch, or None where inotify is unavailable (then the slow scan stands in)."""
        from inotify_simple import INotify, flags

        try:
            watch = INotify(nonblocking=True)
        except OSError as exc:
            log.info("counter hot-plug: no inotify (%s); scanning every %.0f s", exc, FALLBACK_SCAN_S)
            return None
        try:
            watch.add_watch(directory, flags.CREATE | flags.DELETE | flags.MOVED_FROM | flags.MOVED_TO)
        except OSError as exc:
            log.info("counter hot-plug: cannot watch %s (%s); scanning every %.0f s", directory, exc,
                     FALLBACK_SCAN_S)
            watch.close()
            return None
        return cls(watch)

    def fileno(self) -> int:
        return int(self._watch.fileno())

    def changed(self) -> bool:
        """Drain the pending events; True if there were any (an overflow is one too)."""
        seen = False
        with contextlib.suppress(OSError):  # BlockingIOError once drained
            while self._watch.read(timeout=0):
                seen = True
        return seen

    def close(self) -> None:
        self._closer()


def dev_mtime() -> int:
    """Changes when a device node is created or removed (a cheap gate for the fallback scan)."""
    return os.stat("/dev").st_mtime_ns


def open_serial(device: str) -> SerialPort:
    """Open ``device`` non-blocking and exclusively (a second station or mpremote cannot share it)."""
    import serial

    try:
        port: SerialPort = serial.Serial(device, baudrate=115200, timeout=0, write_timeout=0.5, exclusive=True)
    except (serial.SerialException, OSError) as exc:
        raise HardwareError(f"counter {device}: cannot open: {exc}") from exc
    return port


@dataclass(slots=True)
class _Backoff:
    failures: int = 0
    retry_at_s: float = 0.0


class PortDiscovery:
    """Which ports to open and when: a scan when asked (``rescan``, a hot-plug event), every
    ``scan_interval_s`` (None: never by the clock; ``scan_gate``: only when its value moved), and per
    port a back-off after it failed, doubling from ``backoff_first_s`` up to ``backoff_max_s``."""

    def __init__(self, *, list_ports: Callable[[], Iterable[PortInfo]] = list_usb_ports,
                 open_port: Callable[[str], SerialPort] = open_serial, scan_interval_s: float | None = 0.5,
                 hotplug: Hotplug | None = None, scan_gate: Callable[[], object] | None = None,
                 backoff_first_s: float = 0.5, backoff_max_s: float = 30.0) -> None:
        self._list_ports = list_ports
        self._open_port = open_port
        self.scan_interval_s = scan_interval_s
        self.hotplug = hotplug
        self._scan_gate = scan_gate
        self._gate_value: object = None
        self._backoff_first_s = backoff_first_s
        self._backoff_max_s = backoff_max_s
        self._scan_wanted = True  # the first poll scans
        self._next_scan_s = -1e9
        self._retry_scan_s: float | None = None  # after a port listing failed: try again then
        self._listed: set[str] = set()  # ports of counters the last scan saw
        self._backoff: dict[str, _Backoff] = {}

    def rescan(self) -> None:
        """List the ports on the next round (a hot-plug event, a virtual counter plugged or pulled)."""
        self._scan_wanted = True

    def due_s(self, open_devices: Collection[str]) -> float | None:
        """When a scan is next due (None: only when asked)."""
        if self._scan_wanted:
            return float("-inf")
        due = [self._next_scan_s] if self.scan_interval_s is not None else []
        if self._retry_scan_s is not None:
            due.append(self._retry_scan_s)
        due += [b.retry_at_s for device, b in self._backoff.items() if device in self._listed
                and device not in open_devices]
        return min(due, default=None)

    def scan_now(self, now_s: float, open_devices: Collection[str]) -> bool:
        """Whether to list the ports this round (a due scan whose gate has not moved is skipped)."""
        scan_s = self.due_s(open_devices)
        if scan_s is None or now_s < scan_s:
            return False
        forced = self._scan_wanted or (self._retry_scan_s is not None and now_s >= self._retry_scan_s) or any(
            now_s >= b.retry_at_s for device, b in self._backoff.items()
            if device in self._listed and device not in open_devices)
        if self.scan_interval_s is not None:
            self._next_scan_s = now_s + self.scan_interval_s
        self._scan_wanted = False
        return forced or not self._gate_unchanged()

    def _gate_unchanged(self) -> bool:
        """For the fallback scan: True when the gate (the mtime of /dev) has not moved since the last look."""
        if self._scan_gate is None:
            return False
        try:
            value = self._scan_gate()
        except OSError:
            return False
        unchanged = value == self._gate_value
        self._gate_value = value
        return unchanged

    def scan(self, now_s: float, ids: Collection[tuple[int, int]],
             open_devices: Collection[str]) -> tuple[set[str], dict[str, SerialPort]] | None:
        """The counters' ports listed now, and those of them newly opened (not open yet, not backing
        off); None when the listing failed (tried again in ``FALLBACK_SCAN_S``)."""
        self._retry_scan_s = None
        try:
            ports = [info for info in self._list_ports() if (info.vid, info.pid) in ids]
        except OSError as exc:
            log.warning("counter scan failed: %s; trying again in %.0f s", exc, FALLBACK_SCAN_S)
            self._listed = set()  # no back-off falls due on the strength of an old listing
            self._retry_scan_s = now_s + FALLBACK_SCAN_S
            return None
        self._listed = {info.device for info in ports}
        opened: dict[str, SerialPort] = {}
        for info in ports:
            device = info.device
            backoff = self._backoff.get(device)
            if device in open_devices or (backoff is not None and now_s < backoff.retry_at_s):
                continue
            try:
                opened[device] = self._open_port(device)
            except HardwareError as exc:
                self.fail(device, now_s, str(exc))
        return self._listed, opened

    def fail(self, device: str, now_s: float, why: str) -> None:
        """``device`` failed (to open, or its link was dropped): retry it after the next back-off."""
        backoff = self._backoff.setdefault(device, _Backoff())
        delay_s = min(self._backoff_first_s * (2**backoff.failures), self._backoff_max_s)
        backoff.failures += 1
        backoff.retry_at_s = now_s + delay_s
        log.info("counter %s: %s; retry in %.1f s", device, why, delay_s)

    def succeeded(self, device: str) -> None:
        """A counter identified itself on ``device``: its back-off starts afresh."""
        self._backoff.pop(device, None)


def usb_discovery(list_ports: Callable[[], Iterable[PortInfo]] = list_usb_ports) -> PortDiscovery:
    """How a manager listing real USB ports learns of hot-plug: udev events where udev runs, else
    inotify on /dev, else a slow scan that lists ports only when /dev changed."""
    hotplug: Hotplug | None = UdevHotplug.open() or DevWatch.open()
    if hotplug is not None:
        return PortDiscovery(list_ports=list_ports, hotplug=hotplug, scan_interval_s=None)
    return PortDiscovery(list_ports=list_ports, scan_interval_s=FALLBACK_SCAN_S, scan_gate=dev_mtime)
