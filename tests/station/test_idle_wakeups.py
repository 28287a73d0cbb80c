"""An idle station makes no periodic wake-ups: the station loop and the counters thread each sleep
until an event or a deadline. Counted over a fake clock for a simulated minute (nothing timed here):
a wait with a timeout moves the clock on by it; a wait without one would last for ever, which ends
the count (nothing left could wake the thread)."""

from __future__ import annotations

import itertools
import os
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablekeeper.appliance.watchdog import Notifier, Watchdog
from tablekeeper.commands.run import run_station_loop
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.session import Session
from tablekeeper.games import load
from tablekeeper.hw.counters import CounterManager, PortDiscovery, PortInfo
from tablekeeper.hw.outputs import BLINK_OFF_S, BLINK_ON_S
from tablekeeper.intents import Intent, Quit
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.counters import SimPortInfo
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_buttons, make_displays, make_outputs
from tablekeeper.supervisor import Liveness, Supervisor, Worker
from tablekeeper.ui.render import PAGE_S, TICKS_PER_S

MINUTE_S = 60.0


class ClockedQueue(queue.SimpleQueue[Intent]):
    """The station's queue over a fake clock; ``waits`` holds the timeout of every wait. At the first
    wait for ever, ``on_idle`` (if set) runs and the queue waits a real second for what it sends."""

    def __init__(self, clock: FakeClock, until_s: float) -> None:
        super().__init__()
        self.clock = clock
        self.until_s = until_s
        self.waits: list[float | None] = []
        self.on_idle: Callable[[], None] | None = None

    def get(self, block: bool = True, timeout: float | None = None) -> Intent:
        try:
            return super().get(block=False)
        except queue.Empty:
            if not block:
                raise
        self.waits.append(timeout)
        if timeout is None and self.on_idle is not None:
            idle, self.on_idle = self.on_idle, None
            idle()
            try:
                return super().get(timeout=1.0)
            except queue.Empty:
                return Quit("nothing came")
        if timeout is None or self.clock() + timeout > self.until_s:
            return Quit("the count is over")
        self.clock.advance(timeout)
        raise queue.Empty


class Recorder:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def notify(self, state: str) -> None:
        self.sent.append(state)


def make_station(tmp_path: Path, game_name: str, *, seats: int | None = None, flow: str | None = None,
                 ) -> tuple[Station, ClockedQueue, FakeClock, SimulatedParts]:
    """The reference build on simulated parts (gpiozero mock pins, emulated OLEDs), nothing plugged in."""
    clock = FakeClock(100.0)
    config = load_config(REFERENCE_CONFIG)
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path)
    intents = ClockedQueue(clock, 100.0 + MINUTE_S)
    game = load(game_name)
    options = {"flow": flow} if flow is not None else {}
    session = Session(game, seats=seats or game.seats_default, seed=1, options=options)
    station = Station(session=session, config=config, clock=clock,
                      displays=make_displays(config, parts.open_device, clock=clock), intents=intents)
    station.buttons = make_buttons(config, emit=station.put, clock=clock, pin_factory=parts.pin_factory)
    station.sink.outputs = make_outputs(config, clock=clock, pin_factory=parts.pin_factory)
    return station, intents, clock, parts


@pytest.fixture
def idle_station(tmp_path: Path) -> Iterator[tuple[Station, ClockedQueue, FakeClock]]:
    """Oathsworn's first screens fit their displays (no page to turn)."""
    station, intents, clock, parts = make_station(tmp_path, "oathsworn")
    yield station, intents, clock
    station.close()
    parts.close()


def parked(liveness: Liveness) -> None:
    """A supervised thread with nothing to do: it blocks until asked to stop."""
    liveness.beat(waiting=True)
    liveness.stop.wait()


@pytest.mark.parametrize("watchdog_s", [None, 30])
def test_the_idle_station_loop_wakes_only_for_the_watchdog(
        idle_station: tuple[Station, ClockedQueue, FakeClock], watchdog_s: int | None) -> None:
    station, intents, clock = idle_station
    recorder = Recorder()

    def notifier() -> Notifier:
        return recorder

    env = {} if watchdog_s is None else {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": str(watchdog_s * 1_000_000)}
    watchdog = Watchdog(env=env, notifier_factory=notifier)
    supervisor = Supervisor(clock=clock)
    supervisor.add(Worker("counters", parked))
    station.start()
    try:
        run_station_loop(station, supervisor, watchdog, clock=clock, sleep=lambda s: None)
    finally:
        supervisor.stop()
    if watchdog_s is None:
        assert intents.waits == [None]  # one wait, for ever: no pass at all in the minute
        assert recorder.sent == []
    else:
        # a feed at the start, then one every half period: the only passes of the minute
        assert intents.waits == [0.0, 15.0, 15.0, 15.0, 15.0, 15.0]
        assert recorder.sent.count("WATCHDOG=1") == 5
    assert station.stats.redraws == 1  # the first frame only


@pytest.mark.parametrize("game_name", ["arkham", "earthborne", "oathsworn"])
def test_the_first_screens_fit_their_displays_so_the_idle_loop_turns_no_page(tmp_path: Path, game_name: str) -> None:
    """Lines that matter less are ranked DETAIL (shown only where there is room), so no display of the
    reference build pages at the start of these games, and the idle loop has no timer at all."""
    station, intents, clock, parts = make_station(tmp_path, game_name)
    supervisor = Supervisor(clock=clock)
    station.start()
    assert station.ui.paged == set()
    try:
        run_station_loop(station, supervisor, None, clock=clock, sleep=lambda s: None)
    finally:
        supervisor.stop()
        station.close()
        parts.close()
    assert intents.waits == [None]


def test_a_screen_too_long_for_its_display_wakes_the_loop_only_to_move_it(tmp_path: Path) -> None:
    """Spirit Island's first question (its setup, with both answers and the one pointed at) does not
    fit the tokens display: a sentence scrolls a character a tick, resting at its ends, and pages turn
    every PAGE_S. The loop passes only when the display shows another frame, and each of those passes
    sends one (a change on the display, not a look for work)."""
    station, intents, clock, parts = make_station(tmp_path, "spirit_island")
    redraws: list[tuple[float | None, int]] = []  # each wait's timeout, with the frames sent before it
    get = intents.get

    def get_and_count(block: bool = True, timeout: float | None = None) -> Intent:
        redraws.append((timeout, station.stats.redraws))
        return get(block, timeout)

    intents.get = get_and_count  # type: ignore[method-assign]
    supervisor = Supervisor(clock=clock)
    station.start()
    assert station.ui.paged == {"tokens"}
    try:
        run_station_loop(station, supervisor, None, clock=clock, sleep=lambda s: None)
    finally:
        supervisor.stop()
        station.close()
        parts.close()
    timed = [w for w in intents.waits if w]
    tick = 1 / TICKS_PER_S
    assert min(timed) >= tick - 1e-6 and max(timed) <= PAGE_S and len(timed) <= MINUTE_S / tick + 1
    # every timed pass turned a page and sent one frame (the last wait runs past the minute; whether the
    # first, untimed pass sends one depends on which page the clock's start falls on)
    after_timed = [later - sent for (wait, sent), (_, later) in itertools.pairwise(redraws) if wait]
    assert len(after_timed) == len(timed) - 1 and set(after_timed) == {1}


def test_seat_leds_blinking_in_step_wake_the_idle_loop_only_at_their_toggles(tmp_path: Path) -> None:
    """Arkham's investigation with four seats owing a move: their LEDs flash together on the station
    clock. The loop passes once per toggle for all four (a flash of BLINK_ON_S every BLINK_ON_S +
    BLINK_OFF_S), not once per LED, sends no frame, has no other pass in the minute, and a toggle's
    pass polls nothing else (buttons, displays, timers)."""
    station, intents, clock, parts = make_station(tmp_path, "arkham", seats=4, flow="auto")
    pins = [parts.pin_factory.pin(led.pin) for led in station.config.leds]
    seen: list[tuple[float, tuple[bool, ...]]] = []
    get = intents.get

    def get_and_look(block: bool = True, timeout: float | None = None) -> Intent:
        seen.append((clock(), tuple(bool(pin.state) for pin in pins)))  # the LEDs as each wait begins
        return get(block, timeout)

    intents.get = get_and_look  # type: ignore[method-assign]
    polled: list[float] = []
    poll = station.poll

    def counted_poll(now_s: float) -> None:
        polled.append(now_s)
        poll(now_s)

    station.poll = counted_poll  # type: ignore[method-assign]
    supervisor = Supervisor(clock=clock)
    station.start()
    assert station.sink.outputs is not None and station.sink.outputs.lights.blinking == {1, 2, 3, 4}
    first = station.stats.redraws
    try:
        run_station_loop(station, supervisor, None, clock=clock, sleep=lambda s: None)
    finally:
        supervisor.stop()
        station.close()
        parts.close()
    cycles = int(MINUTE_S // (BLINK_ON_S + BLINK_OFF_S))
    assert intents.waits[:2 * cycles] == pytest.approx([BLINK_ON_S, BLINK_OFF_S] * cycles)
    assert len(intents.waits) == 2 * cycles + 1  # the last wait runs past the minute
    assert station.stats.redraws == first  # toggling an LED draws nothing
    assert polled == [pytest.approx(100.0 + MINUTE_S, abs=1.5)]  # a toggle looks at nothing else (one poll: Quit)
    assert all(len(set(leds)) == 1 for _, leds in seen)  # all four in step at every pass
    lit = [leds[0] for _, leds in seen]
    assert lit[:4] == [True, False, True, False]  # lit at once, then each pass toggles them
    assert all(a != b for a, b in itertools.pairwise(lit))
    toggles = [at for at, _ in seen]
    assert toggles[:3] == pytest.approx([100.0, 100.0 + BLINK_ON_S, 100.0 + BLINK_ON_S + BLINK_OFF_S])


@pytest.mark.parametrize("told", [True, False], ids=["dying-thread-wakes-the-loop", "protection-off"])
def test_a_thread_that_dies_wakes_the_idle_loop_which_restarts_it_after_its_back_off(
        idle_station: tuple[Station, ClockedQueue, FakeClock], told: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """No polling for dead threads: the death itself wakes the loop. With the report switched off the
    same loop never learns of it (the test fails without the protection)."""
    station, intents, clock = idle_station
    if not told:
        monkeypatch.setattr(Supervisor, "_changed", lambda self: None)
    runs: list[float] = []
    fail = threading.Event()

    def breaks_while_the_loop_sleeps(liveness: Liveness) -> None:
        runs.append(clock())
        if len(runs) == 1:
            liveness.beat(waiting=True)
            fail.wait()
            raise OSError("counter driver fell over")
        parked(liveness)

    def break_it() -> None:
        fail.set()
        for thread in threading.enumerate():
            if thread.name == "w-once":
                thread.join(timeout=5.0)

    intents.on_idle = break_it
    supervisor = Supervisor(clock=clock)
    supervisor.add(Worker("w-once", breaks_while_the_loop_sleeps, backoff_first_s=0.5))
    station.start()
    try:
        run_station_loop(station, supervisor, None, clock=clock, sleep=lambda s: None)
    finally:
        supervisor.stop()
    if told:
        assert runs == [100.0, 100.5]  # restarted exactly when its back-off ended
        assert intents.waits == [None, 0.5, None]
    else:
        assert runs == [100.0]
        assert intents.waits == [None]


class FakeHotplug:
    """Stands in for pyudev's monitor: a pipe the test writes an "event" to."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)

    def fileno(self) -> int:
        return self._read

    def changed(self) -> bool:
        try:
            return bool(os.read(self._read, 64))
        except BlockingIOError:
            return False

    def event(self) -> None:
        os.write(self._write, b"x")

    def close(self) -> None:
        os.close(self._read)
        os.close(self._write)


class CountedWaits:
    """The counters thread's ``select`` over a fake clock, for a simulated minute."""

    def __init__(self, clock: FakeClock, stop: threading.Event, until_s: float) -> None:
        self.clock = clock
        self.stop = stop
        self.until_s = until_s
        self.timeouts: list[float | None] = []

    def __call__(self, fds: list[int], timeout_s: float | None) -> list[int]:
        self.timeouts.append(timeout_s)
        if timeout_s is None or self.clock() + timeout_s > self.until_s:
            self.stop.set()
            return []
        self.clock.advance(timeout_s)
        return []


def test_the_counters_thread_with_udev_and_nothing_plugged_in_sleeps_for_the_whole_minute() -> None:
    clock = FakeClock(100.0)
    stop = threading.Event()
    waits = CountedWaits(clock, stop, 100.0 + MINUTE_S)
    hotplug = FakeHotplug()
    listed: list[float] = []

    def no_ports() -> list[PortInfo]:
        listed.append(clock())
        return []

    manager = CounterManager(emit=lambda intent: None, clock=clock, wait=waits,
                             discovery=PortDiscovery(list_ports=no_ports, hotplug=hotplug, scan_interval_s=None))
    beats: list[bool] = []

    def beat(*, waiting: bool = False) -> None:
        beats.append(waiting)

    try:
        manager.run(stop, beat=beat)
    finally:
        manager.close()
        hotplug.close()
    assert manager.passes == 1 and waits.timeouts == [None]  # one look at the ports, then no timer at all
    assert listed == [100.0]
    assert beats == [False, True]  # it told the supervisor it waits for events (idle, not wedged)


def test_a_udev_event_wakes_the_counters_thread_which_lists_the_ports_again() -> None:
    clock = FakeClock(100.0)
    stop = threading.Event()
    hotplug = FakeHotplug()
    ports: list[PortInfo] = []
    listed: list[float] = []

    def list_ports() -> list[PortInfo]:
        listed.append(clock())
        return list(ports)

    opened: list[str] = []

    def open_port(device: str) -> object:
        opened.append(device)
        raise_after = stop  # the thread ends once it has tried the new port
        raise_after.set()
        from tablekeeper.errors import HardwareError

        raise HardwareError(f"counter {device}: busy")

    calls = 0

    def wait(fds: list[int], timeout_s: float | None) -> list[int]:
        nonlocal calls
        calls += 1
        if calls == 1:  # asleep with no timer: a board is plugged in and udev says so
            assert timeout_s is None and hotplug.fileno() in fds
            ports.append(SimPortInfo("/dev/ttyACM0"))
            hotplug.event()
            clock.advance(7.0)
            return [hotplug.fileno()]
        stop.set()
        return []

    manager = CounterManager(emit=lambda intent: None, clock=clock, wait=wait,
                             discovery=PortDiscovery(list_ports=list_ports, open_port=open_port, hotplug=hotplug,
                                                     scan_interval_s=None))
    try:
        manager.run(stop)
    finally:
        manager.close()
        hotplug.close()
    assert listed == [100.0, 107.0]
    assert opened == ["/dev/ttyACM0"]


def test_without_udev_the_fallback_scan_lists_ports_only_when_dev_changed() -> None:
    clock = FakeClock(100.0)
    stop = threading.Event()
    waits = CountedWaits(clock, stop, 100.0 + MINUTE_S)
    listed: list[float] = []

    def no_ports() -> list[PortInfo]:
        listed.append(clock())
        return []

    def dev_changed() -> int:
        return 1 if clock() < 130.0 else 2  # a device node came or went at 130 s

    manager = CounterManager(emit=lambda intent: None, clock=clock, wait=waits,
                             discovery=PortDiscovery(list_ports=no_ports, scan_interval_s=2.0, scan_gate=dev_changed))
    try:
        manager.run(stop)
    finally:
        manager.close()
    assert set(waits.timeouts) == {2.0}  # the slow scan's timer, nothing else
    assert manager.passes == 31  # one every 2 s
    assert listed == [100.0, 102.0, 130.0]  # the first look, the gate's first reading, then when /dev changed


def test_a_publish_from_the_station_wakes_the_sleeping_counters_thread() -> None:
    """The self-pipe: a value sent from the station thread ends the counters thread's sleep, so a
    retransmission timer it started is honoured (and a stop is seen at once)."""
    stop = threading.Event()
    manager = CounterManager(emit=lambda intent: None, discovery=PortDiscovery(list_ports=list, scan_interval_s=None))
    thread = threading.Thread(target=manager.run, args=(stop,), name="counters-test", daemon=True)
    thread.start()
    try:
        while manager.passes < 1:
            threading.Event().wait(0.001)
        threading.Event().wait(0.05)
        passes = manager.passes
        assert passes == 1  # asleep, no timer
        manager.publish(1, "hp", 5, 10)
        while manager.passes == passes:
            threading.Event().wait(0.001)
        stop.set()
        manager.wake()
        thread.join(timeout=5.0)
        assert not thread.is_alive()
    finally:
        stop.set()
        manager.wake()
        manager.close()


def test_the_idle_demo_loop_wakes_for_the_attract_loop_and_its_timeouts_only(tmp_path: Path) -> None:
    """Convention demo mode: with no visitor the loop passes only when the attract loop shows its next
    game; a visitor who walks away is sent back to it after ``idle_reset_s`` with no intent at all."""
    from tablekeeper import games
    from tablekeeper.demo.mode import DemoMode, DemoSettings, MemoryCounts, Mode, load_scripts
    from tablekeeper.demo.station import DemoStation

    clock = FakeClock(100.0)
    config = load_config(REFERENCE_CONFIG)
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path)
    settings = DemoSettings(idle_reset_s=20.0, attract_frame_s=8.0, finished_show_s=10.0, operator_timeout_s=30.0)
    demo = DemoMode(load_scripts(), counters=MemoryCounts(), now_s=clock(), settings=settings)
    intents = ClockedQueue(clock, 100.0 + MINUTE_S)
    station = DemoStation(demo=demo, new_session=lambda game: Session(games.load(game), seats=2, seed=1),
                          session=Session(games.load("oathsworn"), seats=4, seed=1), config=config, clock=clock,
                          displays=make_displays(config, parts.open_device, clock=clock), intents=intents)
    station.start()
    supervisor = Supervisor(clock=clock)
    try:
        run_station_loop(station, supervisor, None, clock=clock, sleep=lambda s: None)
        assert intents.waits[:-1] == [8.0] * 7  # the attract loop's next game every 8 s, nothing else
        assert demo.mode is Mode.ATTRACT
        out = demo.on_button("next", "press", clock())  # a visitor starts a demo, then leaves
        assert out.mode is Mode.GUIDED
        intents.waits.clear()
        intents.until_s = clock() + MINUTE_S
        station.running = True
        station.run()
        assert demo.mode is Mode.ATTRACT  # sent back by the idle timeout alone
        assert intents.waits[0] == 20.0
    finally:
        supervisor.stop()
        station.close()
        parts.close()
