"""Host manager + virtual counters (separate processes on real pseudo-terminals).

Waiting here is bounded by real time because the other end is another process; nothing
sleeps for logic: every wait polls the manager until a condition holds.
"""

from __future__ import annotations

import select
import time
from collections.abc import Callable, Iterator

import pytest

from tablekeeper.hw.counters import CounterManager, CounterMatch, CounterRoll, PortDiscovery
from tablekeeper.intents import CounterValue, Intent
from tablekeeper.sim.counters import VirtualCounter, VirtualCounterBank


class PtyRig:
    def __init__(self, counters: tuple[CounterMatch, ...], bank: VirtualCounterBank | None = None) -> None:
        self.bank = bank or VirtualCounterBank()
        self.intents: list[Intent] = []
        self.rolls: list[CounterRoll] = []
        self.manager = CounterManager(emit=self.intents.append, counters=counters, on_roll=self.rolls.append,
                                      discovery=PortDiscovery(list_ports=self.bank.list_ports, scan_interval_s=0.05,
                                                              backoff_first_s=0.05, backoff_max_s=0.2))

    def add(self, counter: VirtualCounter) -> VirtualCounter:
        self.bank.add(counter)
        counter.plug()
        return counter

    def spin_until(self, condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.manager.poll()
            if condition():
                return
            fds = self.manager.filenos()
            if fds:
                select.select(fds, [], [], 0.005)
            else:
                time.sleep(0.005)
        raise AssertionError(f"timed out; intents so far: {self.intents}; status {self.manager.status()}")

    def spin_for(self, seconds: float) -> None:
        """Keep both ends talking for a while (to show nothing more arrives)."""
        deadline = time.monotonic() + seconds
        self.spin_until(lambda: time.monotonic() >= deadline, seconds + 5)

    def values(self) -> list[tuple[int, str, int]]:
        return [(i.seat, i.track, i.value) for i in self.intents if isinstance(i, CounterValue)]

    def close(self) -> None:
        self.manager.close()
        self.bank.close()


@pytest.fixture
def pty_rig() -> Iterator[Callable[..., PtyRig]]:
    rigs: list[PtyRig] = []

    def make(*counters: CounterMatch, bank: VirtualCounterBank | None = None) -> PtyRig:
        rig = PtyRig(counters, bank)
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()
