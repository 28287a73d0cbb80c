"""Supervision: a thread that fails is logged and restarted with back-off, and systemd's watchdog is
fed only while every thread is alive and beating (a dead or wedged thread means no feeding)."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from tablekeeper.appliance.watchdog import Notifier, Watchdog
from tablekeeper.commands.run import run_station_loop
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.session import Session
from tablekeeper.intents import Quit, Typed
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_displays
from tablekeeper.supervisor import Liveness, Supervisor, Worker
from tests.station.station_game import GAME


class Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, state: str) -> None:
        self.sent.append(state)


def watchdog() -> tuple[Watchdog, Recorder]:
    recorder = Recorder()

    def factory() -> Notifier:
        return recorder

    return Watchdog(env={"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "2000000"}, notifier_factory=factory), recorder


def quiesce(done: threading.Event | None = None) -> None:
    """Wait (in real time) for every test worker thread to fail, unless ``done`` says one runs on."""
    for thread in threading.enumerate():
        if thread.name.startswith("w-"):
            while thread.is_alive() and not (done is not None and done.is_set()):
                thread.join(timeout=0.01)


def test_a_thread_that_raises_is_logged_and_restarted_with_growing_back_off(
        caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(10.0)
    runs: list[float] = []
    done = threading.Event()

    def flaky(liveness: Liveness) -> None:
        runs.append(clock())
        if len(runs) <= 3:
            raise KeyError("E661410403332A2B")
        done.set()
        liveness.stop.wait()

    supervisor = Supervisor(clock=clock)
    supervisor.add(Worker("w-flaky", flaky, backoff_first_s=0.5, backoff_max_s=30.0))
    try:
        while not done.is_set() and clock() < 30:
            quiesce(done)
            supervisor.check()
            clock.advance(0.25)
        # each failure is noticed at the next check (every 0.25 s), then waits 0.5, 1, 2 s
        assert runs == [10.0, 10.5, 11.75, 14.0]
        assert supervisor.check()
        assert supervisor.status()[0].restarts == 3
        assert caplog.text.count("thread w-flaky failed") == 3
        assert "KeyError" in caplog.text
    finally:
        supervisor.stop()


def test_watchdog_is_not_fed_while_a_thread_stays_dead() -> None:
    clock = FakeClock()
    died = threading.Event()

    def always_fails(_: Liveness) -> None:
        died.set()
        raise RuntimeError("broken serial driver")

    wd, recorder = watchdog()
    supervisor = Supervisor(clock=clock)
    supervisor.add(Worker("w-dead", always_fails, backoff_first_s=1.0, backoff_max_s=60.0))
    try:
        assert died.wait(2.0)
        fed = []
        while clock() < 120:
            quiesce()
            if wd.feed(clock(), healthy=supervisor.check()):
                fed.append(clock())
            clock.advance(0.5)
        assert fed == []
        assert recorder.sent == []
        assert supervisor.status()[0].restarts >= 5
    finally:
        supervisor.stop()


def test_watchdog_stops_being_fed_when_a_thread_wedges_and_resumes_when_it_beats() -> None:
    clock = FakeClock()
    wedge = threading.Event()
    unwedge = threading.Event()
    steps = threading.Semaphore(0)
    beats = threading.Semaphore(0)

    def worker(liveness: Liveness) -> None:
        while True:
            steps.acquire()
            if liveness.stop.is_set():
                return
            if wedge.is_set():
                unwedge.wait()  # stuck in a driver call, not beating
                wedge.clear()
            liveness.beat()
            beats.release()

    def step() -> None:
        """One beat of the worker at the fake clock's present time. In lock step, as a beat every
        millisecond was not: beats piled up while the test waited for the CPU, and the clock then ran
        on past them, so a loaded machine saw a beating worker's last beat 6 s old."""
        steps.release()
        assert beats.acquire(timeout=2.0)

    wd, _ = watchdog()
    supervisor = Supervisor(clock=clock)
    supervisor.add(Worker("w-wedge", worker, wedged_after_s=5.0, wake=steps.release))
    try:
        fed = 0
        for _ in range(10):
            step()
            clock.advance(1.0)
            fed += wd.feed(clock(), healthy=supervisor.check())
        assert fed == 10
        wedge.set()
        steps.release()  # the next step blocks instead of beating
        wedged_at = clock()  # the last beat was 1 s before
        fed_at = []
        for _ in range(20):
            clock.advance(1.0)
            if wd.feed(clock(), healthy=supervisor.check()):
                fed_at.append(clock() - wedged_at)
        assert fed_at == [1.0, 2.0, 3.0, 4.0]  # fed until the last beat is 5 s old, then never
        assert supervisor.unhealthy() == ["w-wedge"]
        unwedge.set()
        assert beats.acquire(timeout=2.0)
        clock.advance(1.0)
        assert wd.feed(clock(), healthy=supervisor.check())
    finally:
        unwedge.set()
        supervisor.stop()


def test_the_station_loop_that_raises_is_restarted_after_its_back_off(tmp_path: Path) -> None:
    """The station thread: a publish that raises (as the counters' KeyError once did) does not end
    the loop; it is logged, resumed after its back-off, and the next intents are handled."""
    clock = FakeClock()
    config = load_config(REFERENCE_CONFIG)
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path)

    class Exploding:
        raised = False

        def publish(self, seat: int, track: str, value: int | None, limit: int | None = None) -> None:
            if value == 4 and not Exploding.raised:
                Exploding.raised = True
                raise KeyError("E661410403332A2B")

        def label(self, seat: int, track: str, text: str) -> None:
            pass

    station = Station(session=Session(GAME, seats=2, seed=1), config=config, clock=clock,
                      displays=make_displays(config, parts.open_device, clock=clock),
                      intents=queue.SimpleQueue(), counters=Exploding())
    station.start()
    wd, recorder = watchdog()
    supervisor = Supervisor(clock=clock)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    station.put(Typed("set seat1.hp 5"))
    station.put(Typed("set seat1.hp 4"))
    station.put(Typed("set seat1.hp 3"))
    station.put(Quit("test"))
    restarts = run_station_loop(station, supervisor, wd, clock=clock, sleep=sleep, idle_wait_s=0.0)
    assert restarts == 1
    assert slept == [0.5]
    assert station.session.state.tracks["seat1.hp"].value == 3
    assert "WATCHDOG=1" in recorder.sent  # fed by the loop's passes: nothing else is supervised here
    station.close()
    parts.close()
