"""MicroPython counters over USB serial: discovery, hot-plug, pairing, and mapping to game tracks.

One ``CounterManager`` lists ``serial.tools.list_ports`` for boards (MicroPython's RP2040
2E8A:0005 plus configured IDs), opens each exclusively, greets it, and turns what it reports
into station intents. The station publishes track values back with ``publish``. All timing
runs on an injected clock, so tests drive hot-plug, back-off and retransmission without sleeping.

Its thread sleeps in the kernel until something happens: ``select`` on the open ports, on pyudev's
netlink monitor (a tty appeared or went; where udev does not run, e.g. in a container, a slow scan
gated by the mtime of /dev stands in) and on a self-pipe that ``publish``, pairing and ``close``
write to. Its timeout is the nearest deadline (greeting, retransmission, heartbeat, silence,
back-off): with nothing plugged in there is none, and the thread does not wake at all.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tablekeeper.errors import HardwareError, ProtocolError
from tablekeeper.hw import protocol as p
from tablekeeper.intents import CounterConnected, CounterMissing, CounterValue, Intent

if TYPE_CHECKING:
    from inotify_simple import INotify

log = logging.getLogger(__name__)

MICROPYTHON_RP2040: tuple[int, int] = (0x2E8A, 0x0005)
SLOT_TRACKS = p.ROLE_SLOTS  # the slots go out as CounterValue.track; the station maps them to game tracks


class Beat(Protocol):
    """``supervisor.Liveness.beat``: not wedged; ``waiting``: about to block for events."""

    def __call__(self, *, waiting: bool = False) -> None: ...


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


def _default_list_ports() -> list[PortInfo]:
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


def usb_discovery() -> dict[str, Any]:
    """How a manager listing real USB ports learns of hot-plug: udev events where udev runs, else
    inotify on /dev, else a slow scan that lists ports only when /dev changed (keyword arguments for
    ``CounterManager``)."""
    hotplug: Hotplug | None = UdevHotplug.open() or DevWatch.open()
    if hotplug is not None:
        return {"hotplug": hotplug, "scan_interval_s": None}
    return {"hotplug": None, "scan_interval_s": FALLBACK_SCAN_S, "scan_gate": dev_mtime}


# An idle link beats once per heartbeat period, not once from each end: the host answers each of the
# counter's heartbeats as it arrives, in the same wake, and sends one of its own only after 1.5 periods
# of silence (the counter stopped beating), still well inside the counter's timeout.
OWN_BEAT = 1.5
BAD_FD_PAUSE_S = 0.05  # after a failed select: a descriptor that stays bad must not spin the thread


def select_wait(fds: list[int], timeout_s: float | None) -> list[int]:
    """Block in the kernel until one of ``fds`` is readable or ``timeout_s`` (None: no timeout) passes."""
    try:
        return list(select.select(fds, [], [], timeout_s)[0])
    except (OSError, ValueError):  # a port closed under us: the next pump notices and drops it
        time.sleep(BAD_FD_PAUSE_S if timeout_s is None else min(timeout_s, BAD_FD_PAUSE_S))  # never a busy loop
        return []


def open_serial(device: str) -> SerialPort:
    """Open ``device`` non-blocking and exclusively (a second station or mpremote cannot share it)."""
    import serial

    try:
        port: SerialPort = serial.Serial(device, baudrate=115200, timeout=0, write_timeout=0.5, exclusive=True)
    except (serial.SerialException, OSError) as exc:
        raise HardwareError(f"counter {device}: cannot open: {exc}") from exc
    return port


@dataclass(frozen=True, slots=True)
class CounterMatch:
    """A counter the station expects: its USB IDs and role, and, if given, its board's serial. The first
    unseated counter that matches takes ``seat``."""

    vid: int
    pid: int
    seat: int
    role: str
    serial: str | None = None


@dataclass(frozen=True, slots=True)
class CounterRoll:
    """A dice counter on ``seat`` rolled ``faces`` (``sides``-sided dice)."""

    seat: int
    sides: int
    faces: tuple[int, ...]
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class CounterStatus:
    """One counter as the station shows it."""

    device: str
    uid: str | None
    role: str | None
    seat: int
    state: str  # "greeting", "ready", "missing"


@dataclass(slots=True)
class _Backoff:
    failures: int = 0
    retry_at_s: float = 0.0


class CounterLink:
    """One open port: greeting, acknowledgements, retransmission, heartbeat and liveness."""

    def __init__(self, device: str, port: SerialPort, manager: CounterManager, now_s: float) -> None:
        self.device = device
        self.port = port
        self._manager = manager
        self._splitter = p.FrameSplitter()
        self._outbox = p.Outbox()
        self.ident: p.Ident | None = None
        self.seat = 0
        self.opened_at_s = now_s
        self.last_rx_s = now_s
        self._last_tx_s = -1e9
        self._last_hello_s = -1e9
        self.errors_received = 0
        self.broken = ""
        self.drop_reason = "unplugged"
        self.reliable_sent = 0  # messages that need an acknowledgement, ever (the simulator waits on them)

    @property
    def ready(self) -> bool:
        return self.ident is not None

    def _send(self, frame: bytes, now_s: float) -> None:
        if self.broken:
            return
        try:
            self.port.write(frame)
        except (OSError, ValueError) as exc:  # noticed by the next pump, on the polling thread
            self.broken = f"write failed: {exc}"
            return
        self._last_tx_s = now_s

    def send_reliable(self, key: tuple[int, int], msg_type: p.MsgType, body: bytes, now_s: float) -> None:
        self.reliable_sent += 1
        self._send(self._outbox.add(key, msg_type, body, now_s), now_s)

    def send_set(self, slot: int, value: int, limit: int, rev_seen: int, now_s: float) -> None:
        self.send_reliable((p.MsgType.SET, slot), p.MsgType.SET, p.set_body(slot, value, limit, rev_seen), now_s)

    def send_seat(self, seat: int, now_s: float) -> None:
        self.seat = seat
        self.send_reliable((p.MsgType.SEAT, 0), p.MsgType.SEAT, bytes((seat,)), now_s)

    def pending(self) -> int:
        return len(self._outbox)

    @property
    def outbox_seq(self) -> int:
        return self._outbox.last_seq

    def continue_seq(self, seq: int) -> None:
        self._outbox.continue_from(seq)

    @property
    def dropped_frames(self) -> int:
        """Frames that failed COBS, CRC or length checks (noise, truncation, bit flips)."""
        return self._splitter.dropped

    def pump(self, now_s: float) -> None:
        """Read what has arrived, handle it, then greet, retransmit and heartbeat as due.
        Raises HardwareError when the port has gone away."""
        if self.broken:
            raise HardwareError(f"counter {self.device}: {self.broken}")
        try:
            data = self.port.read(4096)
        except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
            raise HardwareError(f"counter {self.device}: read failed: {exc}") from exc
        if data:
            for payload in self._splitter.feed(data):
                self._receive(payload, now_s)
        self._service(now_s)

    def _receive(self, payload: bytes, now_s: float) -> None:
        if self.broken:
            return
        self.last_rx_s = now_s
        if payload[1] == p.MsgType.ERROR and payload[0] != p.PROTOCOL_VERSION:
            return  # never answer an error: two mismatched ends must not ping-pong
        try:
            message = p.parse(payload)
        except p.FrameRejected as exc:
            log.debug("counter %s: %s", self.device, exc)
            self._send(p.encode_frame(p.build(p.MsgType.ERROR, 0, p.error_body(exc.code, exc.msg_type, exc.seq))),
                       now_s)
            if exc.code is p.ErrorCode.BAD_VERSION and self.ident is None:
                # An old (or newer) board: said once, and the link closed (retried with back-off).
                self._manager.wrong_version(self.device, payload[0])
                self.broken = f"counter protocol version {payload[0]}"
                self.drop_reason = "old firmware"
            return
        kind = message.type
        if kind is p.MsgType.ACK:
            self._outbox.acknowledge(message.body[0])
            return
        if kind is p.MsgType.IDENT:
            try:
                ident = p.parse_ident(message.body)
            except ProtocolError as exc:
                log.warning("counter %s: %s", self.device, exc)
                return
            if self.ident is None:
                self.ident = ident
                self._manager.identified(self, now_s)
            elif ident != self.ident:
                # Another board, role or boot answering on a greeted link: nothing it sends can be
                # mapped safely, so the link is closed and greeted afresh.
                self.broken = "a different identity answered on an open link"
                self.drop_reason = "identity changed"
            return
        if kind is p.MsgType.HEARTBEAT:
            if self.ident is not None and now_s - self._last_tx_s >= self._manager.heartbeat_s / 2:
                self._heartbeat(now_s)  # answered in this wake: the host's own beat is then never due
            return
        if kind is p.MsgType.ERROR:
            self.errors_received += 1
            log.warning("counter %s reported %s", self.device, p.parse_error(message.body))
            return
        if kind not in (p.MsgType.CHANGE, p.MsgType.ROLL, p.MsgType.CLAIM) or message.seq == 0:
            # Host-bound types only; anything else is answered, never executed.
            self._send(p.encode_frame(p.build(p.MsgType.ERROR, 0,
                                              p.error_body(p.ErrorCode.UNKNOWN_TYPE, kind, message.seq))), now_s)
            return
        if self.ident is None:
            # Not greeted yet: leave it unacknowledged, so the board still holds it and resends
            # it right after its IDENT (acknowledging it here would lose the change).
            return
        self._send(p.encode_frame(p.build(p.MsgType.ACK, 0, bytes((message.seq,)))), now_s)
        if kind is p.MsgType.CHANGE:
            self._manager.changed(self, p.parse_change(message.body), now_s)
        elif kind is p.MsgType.ROLL:
            try:
                roll = p.parse_roll(message.body)
            except ProtocolError as exc:
                log.warning("counter %s: %s", self.device, exc)
                return
            self._manager.rolled(self, roll, now_s)
        else:
            self._manager.claimed(self, now_s)

    def _service(self, now_s: float) -> None:
        manager = self._manager
        if self.ident is None:
            if now_s - self._last_hello_s >= manager.hello_interval_s:
                self._last_hello_s = now_s
                self._send(p.encode_frame(p.build(p.MsgType.HELLO, 0, p.hello_body(manager.session_id))), now_s)
            return
        for frame in self._outbox.due(now_s):
            self._send(frame, now_s)
        if now_s - self._last_tx_s >= manager.heartbeat_s * OWN_BEAT:
            self._heartbeat(now_s)

    def _heartbeat(self, now_s: float) -> None:
        self._send(p.encode_frame(p.build(p.MsgType.HEARTBEAT, 0)), now_s)

    def next_deadline_s(self) -> float:
        """When ``pump`` next has timed work: a HELLO or the greeting timeout while greeting, else
        a retransmission, the heartbeat or the silence timeout."""
        manager = self._manager
        if self.broken:
            return float("-inf")
        if self.ident is None:
            return min(self._last_hello_s + manager.hello_interval_s, self.opened_at_s + manager.greeting_timeout_s)
        due = [self._last_tx_s + manager.heartbeat_s * OWN_BEAT, self.last_rx_s + manager.silence_timeout_s]
        resend = self._outbox.next_due_s()
        return min(due if resend is None else [*due, resend])

    def resend_pending(self, now_s: float) -> None:
        for frame in self._outbox.resend_all(now_s):
            self._send(frame, now_s)

    def close(self) -> None:
        try:
            self.port.close()
        except OSError as exc:
            log.debug("counter %s: close: %s", self.device, exc)


@dataclass(slots=True)
class _Known:
    """What the manager remembers about one board across unplugs (keyed by its unique id)."""

    boot_id: int = -1
    revs: dict[int, int] = field(default_factory=dict)
    roll_id: int = -1
    seat: int = 0
    role: str = ""
    present: bool = False
    last_seq: int = 0  # the host's last reliable seq to this board, continued by its next link


class CounterManager:
    """Finds counters, keeps one ``CounterLink`` per port, and maps them to seats and tracks.

    ``emit`` receives ``CounterValue``/``CounterConnected``/``CounterMissing`` intents (put them on
    the station queue); ``on_roll`` receives ``CounterRoll``. Thread-safe: ``run`` polls on its own
    thread while the station calls ``publish``, ``start_pairing`` and ``request_roll``.
    """

    def __init__(
        self,
        *,
        emit: Callable[[Intent], None],
        counters: Sequence[CounterMatch] = (),
        list_ports: Callable[[], Iterable[PortInfo]] = _default_list_ports,
        open_port: Callable[[str], SerialPort] = open_serial,
        clock: Callable[[], float] = time.monotonic,
        on_roll: Callable[[CounterRoll], None] | None = None,
        scan_interval_s: float | None = 0.5,
        hotplug: Hotplug | None = None,
        scan_gate: Callable[[], object] | None = None,
        wait: Callable[[list[int], float | None], list[int]] = select_wait,
        hello_interval_s: float = 0.25,
        greeting_timeout_s: float = 3.0,
        heartbeat_s: float = 4.0,  # as the firmware's HEARTBEAT_MS and HOST_TIMEOUT_MS: a quiet idle link
        silence_timeout_s: float = 10.0,
        backoff_first_s: float = 0.5,
        backoff_max_s: float = 30.0,
        session_id: int | None = None,
    ) -> None:
        self._emit = emit
        # Names this station process in HELLO: counters keep their replay window for the same session.
        self.session_id = int.from_bytes(os.urandom(2), "big") if session_id is None else session_id & 0xFFFF
        self._on_roll = on_roll
        self._configured = tuple(counters)
        self._ids = {MICROPYTHON_RP2040} | {(c.vid, c.pid) for c in counters}
        self._list_ports = list_ports
        self._open_port = open_port
        self._clock = clock
        self.scan_interval_s = scan_interval_s  # None: scan only on hot-plug events, ``rescan`` and back-off
        self._hotplug = hotplug
        self._scan_gate = scan_gate  # a periodic scan lists ports only when this value moved
        self._gate_value: object = None
        self._wait = wait
        self._scan_wanted = True  # the first poll scans
        self.hello_interval_s = hello_interval_s
        self.greeting_timeout_s = greeting_timeout_s
        self.heartbeat_s = heartbeat_s
        self.silence_timeout_s = silence_timeout_s
        self._backoff_first_s = backoff_first_s
        self._backoff_max_s = backoff_max_s
        self._lock = threading.RLock()
        self._links: dict[str, CounterLink] = {}
        self._backoff: dict[str, _Backoff] = {}
        self._wrong_versions: set[tuple[str, int]] = set()
        self._known: dict[str, _Known] = {}
        self._track_values: dict[tuple[int, str], tuple[int, int]] = {}
        self._reported: set[tuple[int, str]] = set()  # tracks a counter changed since the last publish
        self._pairing_seat = 0
        self._next_scan_s = -1e9
        self._retry_scan_s: float | None = None  # after a port listing failed: try again then
        self._listed: set[str] = set()  # ports of counters the last scan saw
        self.refused_changes = 0  # CHANGEs not applied: revision leaps or values past the track's bound
        self._wake_r, self._wake_w = os.pipe()  # written to wake the thread from its select
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self.passes = 0  # rounds of ``run`` (the idle tests count them)

    # -- station-facing ---------------------------------------------------------------------
    def publish(self, seat: int, track: str, value: int | None, limit: int | None = None) -> None:
        """The game's value for ``seat``'s ``track``; counters showing it are updated. Cheap to call
        for every track after every command: an unchanged value is not sent again, unless a
        counter reported a change to that track since (the game may have refused it)."""
        if value is None:
            return
        value = max(0, min(value, 0xFFFF))
        bound = p.NO_LIMIT if limit is None else max(value, min(limit, 0xFFFF))
        with self._lock:
            key = (seat, track)
            if self._track_values.get(key) == (value, bound) and key not in self._reported:
                return
            self._reported.discard(key)
            self._track_values[key] = (value, bound)
            now_s = self._clock()
            for link in self._links.values():
                self._push_track(link, seat, track, now_s)
        self.wake()  # a retransmission timer may now be due sooner than the thread's sleep

    def start_pairing(self, seat: int) -> None:
        """The next counter whose button is pressed while unseated takes ``seat``."""
        if not 1 <= seat <= 8:
            raise HardwareError(f"counter pairing: seat {seat} is not 1..8")
        with self._lock:
            self._pairing_seat = seat
            now_s = self._clock()
            for link in self._links.values():
                if link.ready and link.seat == 0:
                    link.send_seat(0, now_s)  # shows "press to claim"
        self.wake()

    def cancel_pairing(self) -> None:
        with self._lock:
            self._pairing_seat = 0

    @property
    def pairing_seat(self) -> int:
        return self._pairing_seat

    def request_roll(self, seat: int, count: int, sides: int) -> bool:
        """Ask the dice counter on ``seat`` to roll; False when there is none."""
        body = p.roll_request_body(count, sides)
        with self._lock:
            now_s = self._clock()
            for link in self._links.values():
                if link.ready and link.seat == seat and link.ident is not None and link.ident.role == "dice":
                    link.send_reliable((p.MsgType.ROLL_REQUEST, 0), p.MsgType.ROLL_REQUEST, body, now_s)
                    self.wake()
                    return True
        return False

    def request_repl(self, device: str) -> None:
        """Ask the counter on ``device`` to hand its REPL back (for mpremote)."""
        with self._lock:
            link = self._links.get(device)
            if link is None or not link.ready:
                raise HardwareError(f"counter {device}: not connected")
            link.send_reliable((p.MsgType.REPL, 0), p.MsgType.REPL, b"", self._clock())
        self.wake()

    def status(self) -> list[CounterStatus]:
        with self._lock:
            out = []
            for device, link in sorted(self._links.items()):
                ident = link.ident
                out.append(CounterStatus(device, ident.uid_hex if ident else None, ident.role if ident else None,
                                         link.seat, "ready" if ident else "greeting"))
            for uid, known in sorted(self._known.items()):
                if not known.present and known.seat:
                    out.append(CounterStatus("", uid, known.role, known.seat, "missing"))
            return out

    def link(self, device: str) -> CounterLink | None:
        with self._lock:
            return self._links.get(device)

    def filenos(self) -> list[int]:
        """File descriptors of the open ports, to wait on with ``select``."""
        with self._lock:
            return [link.port.fileno() for link in self._links.values()]

    # -- waking -----------------------------------------------------------------------------
    def wake(self) -> None:
        """Any thread: end the run thread's sleep, so it looks at its deadlines (and ``stop``) again."""
        with self._lock:  # close() swaps the descriptors out under it: never write to a reused number
            if self._wake_w < 0:
                return
            with contextlib.suppress(OSError):  # full: a wake is already pending
                os.write(self._wake_w, b"w")

    def rescan(self) -> None:
        """Any thread: list the ports on the next round (a virtual counter was plugged or pulled)."""
        self._scan_wanted = True
        self.wake()

    def _scan_due_s(self) -> float | None:
        if self._scan_wanted:
            return float("-inf")
        due = [self._next_scan_s] if self.scan_interval_s is not None else []
        if self._retry_scan_s is not None:
            due.append(self._retry_scan_s)
        due += [b.retry_at_s for device, b in self._backoff.items() if device in self._listed
                and device not in self._links]
        return min(due, default=None)

    def next_deadline_s(self) -> float | None:
        """When ``poll`` next has timed work; None when it has none (nothing plugged in, udev watching)."""
        with self._lock:
            due = [link.next_deadline_s() for link in self._links.values()]
            scan = self._scan_due_s()
            if scan is not None:
                due.append(scan)
            return min(due, default=None)

    # -- polling ----------------------------------------------------------------------------
    def poll(self) -> None:
        """One round: scan for ports when due, then pump every open link."""
        with self._lock:
            now_s = self._clock()
            scan_s = self._scan_due_s()
            if scan_s is not None and now_s >= scan_s:
                forced = self._scan_wanted or (self._retry_scan_s is not None and now_s >= self._retry_scan_s) or any(
                    now_s >= b.retry_at_s for device, b in self._backoff.items()
                    if device in self._listed and device not in self._links)
                if self.scan_interval_s is not None:
                    self._next_scan_s = now_s + self.scan_interval_s
                self._scan_wanted = False
                if forced or not self._gate_unchanged():
                    self._scan(now_s)
            for device, link in list(self._links.items()):
                try:
                    link.pump(now_s)
                except HardwareError as exc:
                    self._drop(device, link.drop_reason, now_s, str(exc))
                    continue
                if not link.ready and now_s - link.opened_at_s >= self.greeting_timeout_s:
                    self._drop(device, "no answer", now_s, "did not identify")
                elif link.ready and now_s - link.last_rx_s >= self.silence_timeout_s:
                    self._drop(device, "not answering", now_s, "went silent")

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

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

    def run(self, stop: threading.Event, beat: Beat | None = None) -> None:
        """Handle the counters until ``stop`` is set (``wake`` after setting it), sleeping in the
        kernel between rounds: until a port or the hot-plug monitor has something to read, a thread
        wakes it, or the nearest deadline; with none, indefinitely. ``beat`` tells the supervisor
        this thread is not wedged (``waiting=True`` right before it blocks)."""
        while not stop.is_set():
            if beat is not None:
                beat()
            self.passes += 1
            self.poll()
            deadline = self.next_deadline_s()
            timeout_s = None if deadline is None else max(0.0, deadline - self._clock())
            hotplug = self._hotplug
            fds = [*self.filenos(), self._wake_r, *([hotplug.fileno()] if hotplug is not None else [])]
            if stop.is_set():
                return
            if beat is not None:
                beat(waiting=True)
            ready = self._wait(fds, timeout_s)
            if self._wake_r in ready:
                self._drain_wakes()
            if hotplug is not None and hotplug.fileno() in ready and hotplug.changed():
                self._scan_wanted = True

    def _drain_wakes(self) -> None:
        with contextlib.suppress(OSError):  # BlockingIOError once empty
            while os.read(self._wake_r, 512):
                pass

    def close(self) -> None:
        with self._lock:
            for link in self._links.values():
                link.close()
            self._links.clear()
            wake_r, wake_w, self._wake_r, self._wake_w = self._wake_r, self._wake_w, -1, -1
        for fd in (wake_r, wake_w):
            if fd >= 0:
                os.close(fd)

    def _scan(self, now_s: float) -> None:
        self._retry_scan_s = None
        try:
            ports = [info for info in self._list_ports() if (info.vid, info.pid) in self._ids]
        except OSError as exc:
            log.warning("counter scan failed: %s; trying again in %.0f s", exc, FALLBACK_SCAN_S)
            self._listed = set()  # no back-off falls due on the strength of an old listing
            self._retry_scan_s = now_s + FALLBACK_SCAN_S
            return
        listed = {info.device for info in ports}
        self._listed = listed
        for device in list(self._links):
            if device not in listed:
                self._drop(device, "unplugged", now_s, "port disappeared")
        for info in ports:
            device = info.device
            if device in self._links:
                continue
            backoff = self._backoff.get(device)
            if backoff is not None and now_s < backoff.retry_at_s:
                continue
            try:
                port = self._open_port(device)
            except HardwareError as exc:
                self._fail(device, now_s, str(exc))
                continue
            self._links[device] = CounterLink(device, port, self, now_s)

    def _fail(self, device: str, now_s: float, why: str) -> None:
        backoff = self._backoff.setdefault(device, _Backoff())
        delay_s = min(self._backoff_first_s * (2**backoff.failures), self._backoff_max_s)
        backoff.failures += 1
        backoff.retry_at_s = now_s + delay_s
        log.info("counter %s: %s; retry in %.1f s", device, why, delay_s)

    def _drop(self, device: str, reason: str, now_s: float, why: str) -> None:
        link = self._links.pop(device, None)
        if link is None:
            return
        link.close()
        self._fail(device, now_s, why)
        if link.ident is not None:
            known = self._known.get(link.ident.uid_hex)
            if known is not None:
                known.present = False
                known.last_seq = link.outbox_seq
                if link.seat:
                    self._emit(CounterMissing(seat=link.seat, reason=reason, at_s=now_s))

    # -- called by links --------------------------------------------------------------------
    def wrong_version(self, device: str, version: int) -> None:
        """One line per port and version, however often the back-off retries it."""
        if (device, version) in self._wrong_versions:
            return
        self._wrong_versions.add((device, version))
        log.warning("counter %s speaks counter protocol version %d, this station version %d: "
                    "update the counter's firmware", device, version, p.PROTOCOL_VERSION)

    def identified(self, link: CounterLink, now_s: float) -> None:
        ident = link.ident
        if ident is None:
            return
        self._backoff.pop(link.device, None)
        known = self._known.setdefault(ident.uid_hex, _Known())
        if known.boot_id != ident.boot_id:
            # A fresh boot starts its revisions and roll ids again.
            known.boot_id = ident.boot_id
            known.revs = {}
            known.roll_id = -1
        if known.last_seq:
            link.continue_seq(known.last_seq)
        known.present = True
        known.role = ident.role
        if not known.seat:
            known.seat = self._configured_seat(ident, link.device)
        link.send_seat(known.seat, now_s)
        for slot, track in enumerate(SLOT_TRACKS[ident.role]):
            self._push_track(link, known.seat, track, now_s, slot)
        link.resend_pending(now_s)
        if known.seat:
            self._emit(CounterConnected(seat=known.seat, port=link.device, role=ident.role, at_s=now_s))

    def _configured_seat(self, ident: p.Ident, device: str) -> int:
        taken = {(k.seat, k.role) for uid, k in self._known.items() if k.present and uid != ident.uid_hex}
        for entry in self._configured:
            if entry.role != ident.role or (entry.seat, entry.role) in taken:
                continue
            if entry.serial is not None and entry.serial.upper() != ident.uid_hex:
                continue
            return entry.seat
        return 0

    def changed(self, link: CounterLink, change: p.Change, now_s: float) -> None:
        ident = link.ident
        if ident is None:
            return
        known = self._known[ident.uid_hex]
        tracks = SLOT_TRACKS[ident.role]
        if change.slot >= len(tracks):
            return
        last = known.revs.get(change.slot, 0)  # a board counts its revisions from 0 at boot
        track = tracks[change.slot]
        if change.rev == last or p.rev_is_within(last, change.rev):
            return  # a retransmission of something already applied, or overtaken by a newer change
        stored = self._track_values.get((link.seat, track)) if link.seat else None
        implausible = not p.rev_is_within(change.rev, last)
        if implausible or (stored is not None and change.value > stored[1]):
            # A revision leaping ahead or a value past the track's bound is not applied. When the game's
            # value is known the counter is resynchronised to it at that revision, so a board that
            # really counted that far (the station restarted under it) is not refused forever.
            log.warning("counter %s: CHANGE slot %d value %d rev %d (last %d) refused", link.device, change.slot,
                        change.value, change.rev, last)
            self.refused_changes += 1
            if stored is not None:
                if implausible:
                    known.revs[change.slot] = change.rev
                link.send_set(change.slot, stored[0], stored[1], known.revs.get(change.slot, 0), now_s)
            return
        known.revs[change.slot] = change.rev
        if link.seat:
            self._reported.add((link.seat, track))
            self._emit(CounterValue(seat=link.seat, track=track, value=change.value, at_s=now_s))

    def rolled(self, link: CounterLink, roll: p.Roll, now_s: float) -> None:
        ident = link.ident
        if ident is None:
            return
        known = self._known[ident.uid_hex]
        if roll.roll_id == known.roll_id:
            return
        known.roll_id = roll.roll_id
        if link.seat and self._on_roll is not None:
            self._on_roll(CounterRoll(seat=link.seat, sides=roll.sides, faces=roll.faces, at_s=now_s))

    def claimed(self, link: CounterLink, now_s: float) -> None:
        ident = link.ident
        seat = self._pairing_seat
        if ident is None or not seat or link.seat:
            return
        self._pairing_seat = 0
        for other in self._links.values():
            if other is not link and other.seat == seat and other.ident is not None and other.ident.role == ident.role:
                other.send_seat(0, now_s)
                self._known[other.ident.uid_hex].seat = 0
        self._known[ident.uid_hex].seat = seat
        link.send_seat(seat, now_s)
        for slot, track in enumerate(SLOT_TRACKS[ident.role]):
            self._push_track(link, seat, track, now_s, slot)
        self._emit(CounterConnected(seat=seat, port=link.device, role=ident.role, at_s=now_s))

    def _push_track(self, link: CounterLink, seat: int, track: str, now_s: float, slot: int | None = None) -> None:
        ident = link.ident
        if ident is None or not seat or link.seat != seat:
            return
        tracks = SLOT_TRACKS[ident.role]
        if slot is None:
            if track not in tracks:
                return
            slot = tracks.index(track)
        stored = self._track_values.get((seat, track))
        if stored is None:
            return
        value, limit = stored
        rev_seen = self._known[ident.uid_hex].revs.get(slot, 0)
        link.send_set(slot, value, limit, rev_seen, now_s)
