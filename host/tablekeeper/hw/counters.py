"""MicroPython counters over USB serial: discovery, hot-plug, pairing, and mapping to game tracks.

One ``CounterManager`` supervises the links: ``PortDiscovery`` (``hw.counter_ports``) says which
ports hold boards (MicroPython's RP2040 2E8A:0005 plus configured IDs) and when to look, each open
port gets a ``CounterLink`` (``hw.counter_link``), and ``CounterBoards`` (``hw.counter_boards``)
knows the boards, their seats and pairing, and turns what they report into station intents. The
station publishes track values back with ``publish``. All timing runs on an injected clock, so
tests drive hot-plug, back-off and retransmission without sleeping.

Its thread sleeps in the kernel until something happens: ``select`` on the open ports, on pyudev's
netlink monitor (a tty appeared or went; where udev does not run, e.g. in a container, a slow scan
gated by the mtime of /dev stands in) and on a self-pipe that ``publish``, pairing and ``close``
write to. Its timeout is the nearest deadline (greeting, retransmission, heartbeat, silence,
back-off): with nothing plugged in there is none, and the thread does not wake at all.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from tablekeeper.errors import HardwareError
from tablekeeper.hw import protocol as p
from tablekeeper.hw.counter_boards import SLOT_TRACKS as SLOT_TRACKS
from tablekeeper.hw.counter_boards import CounterBoards as CounterBoards
from tablekeeper.hw.counter_boards import CounterMatch as CounterMatch
from tablekeeper.hw.counter_boards import CounterRoll as CounterRoll
from tablekeeper.hw.counter_boards import CounterStatus as CounterStatus
from tablekeeper.hw.counter_link import CounterLink as CounterLink
from tablekeeper.hw.counter_link import LinkTiming as LinkTiming
from tablekeeper.hw.counter_ports import FALLBACK_SCAN_S as FALLBACK_SCAN_S
from tablekeeper.hw.counter_ports import MICROPYTHON_RP2040 as MICROPYTHON_RP2040
from tablekeeper.hw.counter_ports import DevWatch as DevWatch
from tablekeeper.hw.counter_ports import PortDiscovery as PortDiscovery
from tablekeeper.hw.counter_ports import PortInfo as PortInfo
from tablekeeper.hw.counter_ports import UdevHotplug as UdevHotplug
from tablekeeper.hw.counter_ports import dev_mtime as dev_mtime
from tablekeeper.hw.counter_ports import list_usb_ports as list_usb_ports
from tablekeeper.hw.counter_ports import open_serial as open_serial
from tablekeeper.hw.counter_ports import usb_discovery as usb_discovery
from tablekeeper.intents import Intent


class Beat(Protocol):
    """``supervisor.Liveness.beat``: not wedged; ``waiting``: about to block for events."""

    def __call__(self, *, waiting: bool = False) -> None: ...


BAD_FD_PAUSE_S = 0.05  # after a failed select: a descriptor that stays bad must not spin the thread


def select_wait(fds: list[int], timeout_s: float | None) -> list[int]:
    """Block in the kernel until one of ``fds`` is readable or ``timeout_s`` (None: no timeout) passes."""
    try:
        return list(select.select(fds, [], [], timeout_s)[0])
    except (OSError, ValueError):  # a port closed under us: the next pump notices and drops it
        time.sleep(BAD_FD_PAUSE_S if timeout_s is None else min(timeout_s, BAD_FD_PAUSE_S))  # never a busy loop
        return []


class CounterManager:
    """Keeps one ``CounterLink`` per counter port and the thread that serves them.

    ``emit`` receives ``CounterValue``/``CounterConnected``/``CounterMissing`` intents (put them on
    the station queue); ``on_roll`` receives ``CounterRoll``. ``discovery`` finds the ports (default:
    list them every half second), ``timing`` paces each link. Thread-safe: ``run`` polls on its own
    thread while the station calls ``publish``, ``start_pairing`` and ``request_roll``.
    """

    def __init__(self, *, emit: Callable[[Intent], None], counters: Sequence[CounterMatch] = (),
                 discovery: PortDiscovery | None = None, timing: LinkTiming | None = None,
                 clock: Callable[[], float] = time.monotonic, on_roll: Callable[[CounterRoll], None] | None = None,
                 wait: Callable[[list[int], float | None], list[int]] = select_wait,
                 session_id: int | None = None) -> None:
        self.discovery = discovery if discovery is not None else PortDiscovery()
        self._ids = {MICROPYTHON_RP2040} | {(c.vid, c.pid) for c in counters}
        self._clock = clock
        self._wait = wait
        self._lock = threading.RLock()
        self._links: dict[str, CounterLink] = {}
        self.boards = CounterBoards(links=self._links, emit=emit, configured=counters, on_roll=on_roll,
                                    timing=timing, session_id=int.from_bytes(os.urandom(2), "big")
                                    if session_id is None else session_id & 0xFFFF, on_ready=self.discovery.succeeded)
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
            if not self.boards.publish(seat, track, value, bound, self._clock()):
                return
        self.wake()  # a retransmission timer may now be due sooner than the thread's sleep

    def label(self, seat: int, track: str, text: str) -> None:
        """Name ``seat``'s ``track`` slot on the counters showing it, in the game's words ("damage")."""
        with self._lock:
            if not self.boards.label(seat, track, text, self._clock()):
                return
        self.wake()

    def start_pairing(self, seat: int) -> None:
        """The next counter whose button is pressed while unseated takes ``seat``."""
        if not 1 <= seat <= 8:
            raise HardwareError(f"counter pairing: seat {seat} is not 1..8")
        with self._lock:
            self.boards.start_pairing(seat, self._clock())
        self.wake()

    def cancel_pairing(self) -> None:
        with self._lock:
            self.boards.pairing_seat = 0

    @property
    def pairing_seat(self) -> int:
        return self.boards.pairing_seat

    @property
    def refused_changes(self) -> int:
        """CHANGEs not applied: revision leaps or values past the track's bound."""
        return self.boards.refused_changes

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
            return self.boards.status()

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
        self.discovery.rescan()
        self.wake()

    def next_deadline_s(self) -> float | None:
        """When ``poll`` next has timed work; None when it has none (nothing plugged in, udev watching)."""
        with self._lock:
            due = [link.next_deadline_s() for link in self._links.values()]
            scan = self.discovery.due_s(self._links)
            if scan is not None:
                due.append(scan)
            return min(due, default=None)

    # -- polling ----------------------------------------------------------------------------
    def poll(self) -> None:
        """One round: scan for ports when due, then pump every open link."""
        with self._lock:
            now_s = self._clock()
            if self.discovery.scan_now(now_s, self._links):
                found = self.discovery.scan(now_s, self._ids, self._links)
                if found is not None:
                    listed, opened = found
                    for device in [d for d in self._links if d not in listed]:
                        self._drop(device, "unplugged", now_s, "port disappeared")
                    for device, port in opened.items():
                        self._links[device] = CounterLink(device, port, self.boards, now_s)
            timing = self.boards.timing
            for device, link in list(self._links.items()):
                try:
                    link.pump(now_s)
                except HardwareError as exc:
                    self._drop(device, link.drop_reason, now_s, str(exc))
                    continue
                if not link.ready and now_s - link.opened_at_s >= timing.greeting_timeout_s:
                    self._drop(device, "no answer", now_s, "did not identify")
                elif link.ready and now_s - link.last_rx_s >= timing.silence_timeout_s:
                    self._drop(device, "not answering", now_s, "went silent")

    @property
    def clock(self) -> Callable[[], float]:
        return self._clock

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
            hotplug = self.discovery.hotplug
            fds = [*self.filenos(), self._wake_r, *([hotplug.fileno()] if hotplug is not None else [])]
            if stop.is_set():
                return
            if beat is not None:
                beat(waiting=True)
            ready = self._wait(fds, timeout_s)
            if self._wake_r in ready:
                with contextlib.suppress(OSError):  # BlockingIOError once empty
                    while os.read(self._wake_r, 512):
                        pass
            if hotplug is not None and hotplug.fileno() in ready and hotplug.changed():
                self.discovery.rescan()

    def close(self) -> None:
        with self._lock:
            for link in self._links.values():
                link.close()
            self._links.clear()
            wake_r, wake_w, self._wake_r, self._wake_w = self._wake_r, self._wake_w, -1, -1
        for fd in (wake_r, wake_w):
            if fd >= 0:
                os.close(fd)

    def _drop(self, device: str, reason: str, now_s: float, why: str) -> None:
        link = self._links.pop(device, None)
        if link is None:
            return
        link.close()
        self.discovery.fail(device, now_s, why)
        self.boards.dropped(link, reason, now_s)
