"""The simulated station's counters: one virtual counter (the real firmware, in its own process on a
pty) per ``[[counters]]`` entry, found by the station's ``CounterManager`` like USB boards.

Each counter's three buttons get keyboard keys that no station button uses; its little display is
read from the firmware process and drawn beside the panel. The scripted simulator waits here for
the other processes (a counter's answer, an acknowledgement), bounded by real time, so a script
gives the same frames on every run; nothing waits on a timer for logic.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import msgspec

from tablekeeper.config import CounterConfig
from tablekeeper.errors import HardwareError

if TYPE_CHECKING:  # the counters, their link and the intents load after the station's first frame
    from tablekeeper.hw.counters import CounterLink, CounterManager, CounterRoll, PortInfo
    from tablekeeper.intents import CounterRolled, Intent
    from tablekeeper.sim.counters import VirtualCounterBank

log = logging.getLogger(__name__)

COUNTER_BUTTONS = ("up", "down", "select")
KEY_POOL = "asdfghjklzxcvbnm"  # letters a counter's buttons may take, three per counter, in config order
ANSWER_TIMEOUT_S = 10.0  # longest wait for a counter process (a loaded machine starts Python slowly)
DISPLAY_QUIET_S = 0.2  # the firmware redraws within 20 ms of a change: ten times that without a line means it has


class CounterView(msgspec.Struct, frozen=True):
    """What the panel picture shows of one counter."""

    caption: str
    lines: tuple[str, ...]
    keys: tuple[tuple[str, str], ...]  # (button, key)
    pressed: str | None
    plugged: bool


def roll_intent(roll: CounterRoll) -> CounterRolled:
    """A dice counter's roll, as the station's queue takes it."""
    from tablekeeper.intents import CounterRolled

    return CounterRolled(seat=roll.seat, sides=roll.sides, faces=roll.faces, at_s=roll.at_s)


class CounterTable:
    """The virtual counters beside one simulated station."""

    def __init__(self, entries: Sequence[CounterConfig], *, taken_keys: Iterable[str] = (),
                 bank: VirtualCounterBank | None = None) -> None:
        self.entries = tuple(entries)
        self._bank = bank
        self._bank_lock = threading.Lock()
        free = [key for key in KEY_POOL if key not in set(taken_keys)]
        self.key_names: list[tuple[tuple[str, str], ...]] = []
        self._keys: dict[str, tuple[int, str]] = {}
        for index in range(len(self.entries)):
            trio = free[3 * index:3 * index + 3]
            keys = tuple(zip(COUNTER_BUTTONS, trio, strict=False)) if len(trio) == 3 else ()
            self.key_names.append(keys)
            for button, key in keys:
                self._keys[key] = (index, button)
        self.manager: CounterManager | None = None
        self.emitted: list[Intent] = []
        self._emitted_lock = threading.Lock()
        self._pressing: dict[int, str] = {}
        self._synced: dict[str, int] = {}  # messages sent per port when the counters last caught up

    @property
    def bank(self) -> VirtualCounterBank:
        """The virtual counters, made on first use (after the station's first frame); none runs until plugged."""
        with self._bank_lock:
            if self._bank is None:
                from tablekeeper.sim.counters import VirtualCounterBank

                self._bank = VirtualCounterBank.for_config(self.entries)
            return self._bank

    # --- wiring ------------------------------------------------------------------------------------
    def manager_for(self, emit: Callable[[Intent], None], *,
                    extra_ports: Callable[[], Iterable[PortInfo]] | None = None) -> CounterManager:
        """A ``CounterManager`` that finds these counters (and, with ``extra_ports``, real ones too);
        what it reports is kept in ``emitted`` before it goes to ``emit``."""
        from tablekeeper.hw.counters import CounterManager, CounterMatch, PortDiscovery, usb_discovery
        from tablekeeper.intents import Tick

        def record(intent: Intent) -> None:
            with self._emitted_lock:
                self.emitted.append(intent)
            emit(intent)

        def ports() -> list[PortInfo]:
            found: list[PortInfo] = list(self.bank.list_ports())
            if extra_ports is not None:
                found += list(extra_ports())
            return found

        # virtual counters are listed again when one is plugged or pulled here (``rescan``); real ones
        # plugged into this computer as the station finds them (udev events, else a slow scan)
        discovery = usb_discovery(ports) if extra_ports is not None else PortDiscovery(list_ports=ports,
                                                                                        scan_interval_s=None)
        for counter in self.bank.counters:  # the panel picture shows the counters' displays
            counter.on_display = lambda: emit(Tick())
        matches = [CounterMatch(e.vid, e.pid, e.seat, e.role, e.serial) for e in self.entries]
        self.manager = CounterManager(emit=record, counters=matches, discovery=discovery,
                                      on_roll=lambda roll: record(roll_intent(roll)))
        return self.manager

    def _rescan(self) -> None:
        if self.manager is not None:
            self.manager.rescan()

    def plug_all(self, stop: threading.Event | None = None) -> None:
        """Power every counter up (about 0.15 s each: a Python process starting the firmware);
        ``stop`` set meanwhile leaves the rest unplugged."""
        for counter in self.bank.counters:
            if stop is not None and stop.is_set():
                return
            if not counter.running:
                counter.plug()
                self._rescan()

    def close(self) -> None:
        self.bank.close()

    # --- hands ------------------------------------------------------------------------------------
    def counter_for_key(self, key: str) -> tuple[int, str] | None:
        return self._keys.get(key)

    def find(self, seat: int, button: str) -> int | None:
        """The counter of ``seat`` that ``button`` is for: ``roll`` wants a dice counter; the others
        prefer the seat's hp or dial counter."""
        on_seat = [i for i, entry in enumerate(self.entries) if entry.seat == seat]
        if button == "roll":
            on_seat = [i for i in on_seat if self.entries[i].role == "dice"]
        else:
            on_seat.sort(key=lambda i: self.entries[i].role == "dice")
        return on_seat[0] if on_seat else None

    def press(self, index: int, button: str) -> None:
        """Press and release one of a counter's buttons; returns once the firmware has seen both."""
        counter = self.bank.counters[index]
        self._pressing[index] = button
        try:
            counter.press(button)
        except HardwareError as exc:  # unplugged meanwhile: a press on a dead board does nothing
            log.info("%s", exc)
        finally:
            self._pressing.pop(index, None)

    def press_later(self, index: int, button: str) -> None:
        """Press on a thread of its own (a window's event loop must not wait for the firmware)."""
        if index in self._pressing:
            return
        threading.Thread(target=self.press, args=(index, button), name="counter-press", daemon=True).start()

    def unplug(self, index: int) -> None:
        self.bank.counters[index].unplug()
        self._rescan()

    def plug(self, index: int) -> None:
        counter = self.bank.counters[index]
        if not counter.running:
            counter.plug()
            self._rescan()

    # --- eyes -------------------------------------------------------------------------------------
    def views(self) -> list[CounterView]:
        out = []
        for index, (entry, counter) in enumerate(zip(self.entries, self.bank.counters, strict=True)):
            plugged = counter.running
            lines = tuple(counter.display.split(" | ")) if plugged and counter.display else ()
            out.append(CounterView(f"counter seat{entry.seat} {entry.role}", lines, self.key_names[index],
                                   self._pressing.get(index), plugged))
        return out

    # --- waiting for the other processes (scripted runs) --------------------------------------------
    def emitted_since(self, start: int) -> list[Intent]:
        with self._emitted_lock:
            return self.emitted[start:]

    def read_now(self) -> None:
        """Read what the counters have sent: a press's message is on the pty before its press returns."""
        if self.manager is not None:
            self.manager.poll()

    def wait_until(self, condition: Callable[[], bool], what: str, timeout_s: float = ANSWER_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() >= deadline:
                raise HardwareError(f"virtual counters: timed out waiting for {what}")
            self.read_now()
            time.sleep(0.002)  # another process is working; this only paces the polling

    def sync(self) -> None:
        """Wait until every message the station sent is acknowledged and the counters have redrawn."""
        manager = self.manager
        if manager is None:
            return
        live = [c for c in self.bank.counters if c.running and c.device]

        def links() -> list[CounterLink]:
            found = [manager.link(c.device) for c in live]
            return [link for link in found if link is not None and link.ready]

        sent = {link.device: link.reliable_sent for link in links()}
        if sent == self._synced:
            return
        self.wait_until(lambda: sum(link.pending() for link in links()) == 0, "the counters to acknowledge")
        self._synced = sent
        acknowledged_s = time.monotonic()
        self.wait_until(lambda: all(time.monotonic() - max(acknowledged_s, c.last_line_s) >= DISPLAY_QUIET_S
                                    for c in live), "the counters to redraw")
