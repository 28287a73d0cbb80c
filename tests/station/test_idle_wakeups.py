"""The idle station sleeps until something happens: over a minute of a fake clock with nothing plugged
in and nobody touching it, the loop makes no periodic passes; a pending change or a systemd watchdog
wakes it exactly when their deadline comes."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from tablekeeper.appliance.watchdog import Watchdog
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.intents import ButtonIntent, Gesture, Intent, Quit
from tests.station.test_station import Rig

MINUTE_S = 60.0


class FakeClockQueue(queue.SimpleQueue[Intent]):
    """The loop's queue on a fake clock: a wait with a timeout lets that much fake time pass; a wait
    without one would sleep forever, so it ends the run (as the stop request would)."""

    def __init__(self, rig: Rig, until_s: float) -> None:
        self.rig, self.until_s = rig, until_s
        self.waits: list[float | None] = []
        self.queued: list[Intent] = []

    def put(self, item: Intent, block: bool = True, timeout: float | None = None) -> None:
        self.queued.append(item)

    def get(self, block: bool = True, timeout: float | None = None) -> Intent:
        if self.queued:
            return self.queued.pop(0)
        self.waits.append(timeout)
        clock = self.rig.clock
        if timeout is None or clock() + timeout >= self.until_s:
            clock.now_s = max(clock.now_s, self.until_s)
            return Quit("end of the fake minute")
        clock.advance(timeout)
        raise queue.Empty


def idle_rig(tmp_path: Path) -> tuple[Rig, FakeClockQueue]:
    rig = Rig(load_config(REFERENCE_CONFIG), tmp_path)
    fake = FakeClockQueue(rig, until_s=rig.clock() + MINUTE_S)
    rig.station.intents = fake
    return rig, fake


@pytest.mark.parametrize("bounded_wait", [None, 0.5], ids=["event-driven", "polling-every-0.5s"])
def test_idle_station_makes_no_periodic_wakeups(tmp_path: Path, bounded_wait: float | None) -> None:
    rig, fake = idle_rig(tmp_path)
    passes: list[float] = []
    rig.station.run(on_pass=passes.append, idle_wait_s=bounded_wait)
    if bounded_wait is None:
        assert fake.waits == [None] and len(passes) == 1  # one sleep until the stop request
    else:
        assert len(passes) >= MINUTE_S / bounded_wait - 1  # the check sees a polling loop


def test_a_pending_change_wakes_the_loop_once_at_its_deadline(tmp_path: Path) -> None:
    rig, fake = idle_rig(tmp_path)
    window_s = rig.station.config.timing.pending_window_s
    fake.put(ButtonIntent("up", Gesture.PRESS))
    rig.station.run()
    timed = [w for w in fake.waits if w is not None]
    assert len(timed) == 1 and timed[0] == pytest.approx(window_s, abs=0.01)
    assert fake.waits[-1] is None and rig.station.stats.commands == 1  # entered, then asleep again


def test_the_watchdog_is_a_deadline_only_under_systemd(tmp_path: Path) -> None:
    sent: list[str] = []

    class Notifier:
        def notify(self, state: str) -> None:
            sent.append(state)

    rig, fake = idle_rig(tmp_path)
    watchdog = Watchdog(env={"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "20000000"},
                        notifier_factory=Notifier)
    rig.station.timed.append(watchdog)
    rig.station.run()
    assert sent.count("WATCHDOG=1") == 7  # at 0, 10, ... 60 s: half the 20 s period, and no more
    assert all(w == pytest.approx(10.0, abs=1e-6) for w in fake.waits[1:])
    rig2, fake2 = idle_rig(tmp_path / "plain")
    rig2.station.timed.append(Watchdog(env={}))
    rig2.station.run()
    assert fake2.waits == [None]
