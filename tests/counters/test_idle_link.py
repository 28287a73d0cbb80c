"""An idle link with a counter plugged in is quiet: the counter wakes for its own heartbeat and the
host's answer, the host's counters thread only for the counter's heartbeat (answered in the same wake),
a few times a minute. Both ends are the real code
(the host's CounterManager and the firmware app in process) on one fake clock, and each sleeps until
its next deadline or a frame from the other end, as their real loops do; nothing here is timed."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper.hw.counters import CounterManager, LinkTiming, PortDiscovery
from tablekeeper.sim.clock import FakeClock
from tests.counters.boards import InProcessBoard, Rig
from tests.counters.firmware_env import load_firmware_module

MINUTE_S = 60.0
MAX_WAKES_A_MINUTE = 40  # per end; a 500 ms heartbeat each way made about 240


def idle_minute(rig: Rig, board: InProcessBoard) -> tuple[int, int]:
    """Wake-ups of the host thread and of the counter over a simulated minute of nobody touching anything."""
    clock, manager = rig.clock, rig.manager
    port = board.transport.host
    assert port is not None
    end_s = clock() + MINUTE_S
    host_wakes = board_wakes = 0
    while True:
        host_due = manager.next_deadline_s()
        board_due = clock() + board.app.next_wake_ms(board.now_ms()) / 1000
        due = board_due if host_due is None else min(host_due, board_due)
        if due > end_s:
            return host_wakes, board_wakes
        clock.advance(max(0.0, due - clock()) + 0.0005)  # past the deadline, on the board's ms ticks too
        busy = True
        while busy:  # a frame one end sends wakes the other at the same instant
            busy = False
            host_due = manager.next_deadline_s()
            if port.inbound or (host_due is not None and clock() >= host_due):
                manager.poll()
                host_wakes += 1
                busy = True
            if board.transport.incoming or board.app.next_wake_ms(board.now_ms()) == 0:
                board.step()
                board_wakes += 1
                busy = True


@pytest.mark.parametrize("quiet", [True, False], ids=["quiet-link", "protection-off-500ms-heartbeat"])
def test_an_idle_link_with_a_counter_plugged_wakes_each_end_a_few_times_a_minute(
        quiet: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    link: Any = load_firmware_module("counter.link")
    if not quiet:  # the previous timing: a heartbeat after 500 ms of silence, a 2 s timeout
        monkeypatch.setattr(link, "HEARTBEAT_MS", 500)
        monkeypatch.setattr(link, "HOST_TIMEOUT_MS", 2000)
    clock = FakeClock(100.0)
    board = InProcessBoard(clock)
    rig = Rig(clock, [board])
    timing = {} if quiet else {"heartbeat_s": 0.5, "silence_timeout_s": 2.0}
    rig.manager = CounterManager(emit=lambda intent: None, clock=clock,
                                 discovery=PortDiscovery(list_ports=rig.list_ports, open_port=rig.open_port,
                                                         scan_interval_s=None),
                                 timing=LinkTiming(**timing))
    rig.run(0.5)  # plugged in, greeted, identified
    assert [s.state for s in rig.manager.status()] == ["ready"]
    host_wakes, board_wakes = idle_minute(rig, board)
    assert [s.state for s in rig.manager.status()] == ["ready"]  # quiet, yet neither end timed out
    assert board.app.link.host_present
    if quiet:
        assert host_wakes <= MAX_WAKES_A_MINUTE and board_wakes <= MAX_WAKES_A_MINUTE, (host_wakes, board_wakes)
    else:
        assert host_wakes > MAX_WAKES_A_MINUTE and board_wakes > MAX_WAKES_A_MINUTE


@pytest.mark.parametrize("answered", [True, False], ids=["host-answers-beats", "protection-off-own-timer"])
def test_the_host_answers_the_counters_heartbeat_so_its_thread_wakes_once_a_beat(
        answered: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each end beating on its own timer woke the host twice per period (its beat, the counter's); the
    host now answers the counter's beat and its own timer never falls due while the counter beats."""
    from tablekeeper.hw import counter_link

    if not answered:  # the host's own beat due as soon as the counter's: both timers run
        monkeypatch.setattr(counter_link, "OWN_BEAT", 1.0)
    link: Any = load_firmware_module("counter.link")
    clock = FakeClock(100.0)
    board = InProcessBoard(clock)
    rig = Rig(clock, [board])
    rig.manager = CounterManager(emit=lambda intent: None, clock=clock,
                                 discovery=PortDiscovery(list_ports=rig.list_ports, open_port=rig.open_port,
                                                         scan_interval_s=None))
    rig.run(0.5)
    host_wakes, board_wakes = idle_minute(rig, board)
    assert [s.state for s in rig.manager.status()] == ["ready"] and board.app.link.host_present
    beats = MINUTE_S / (link.HEARTBEAT_MS / 1000)
    if answered:
        assert host_wakes <= beats + 1, host_wakes
    else:
        assert host_wakes > 1.5 * beats
    assert board_wakes <= 2 * beats + 1
