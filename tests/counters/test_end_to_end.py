"""End to end over real pseudo-terminals: pyserial on the host, the firmware in its own process."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import serial

from tablekeeper.config import CounterConfig
from tablekeeper.errors import HardwareError
from tablekeeper.hw.counters import CounterMatch, PortDiscovery, open_serial
from tablekeeper.intents import CounterConnected, CounterValue
from tablekeeper.sim.counters import VirtualCounter, VirtualCounterBank
from tablekeeper.station.parts import counter_matches
from tests.counters.pty_rig import PtyRig

HP_SEAT_2 = CounterMatch(vid=0x2E8A, pid=0x0005, seat=2, role="hp")


def test_counter_press_reaches_the_track_and_host_change_reaches_the_display(
        pty_rig: Callable[..., PtyRig]) -> None:
    rig = pty_rig(HP_SEAT_2)
    counter = rig.add(VirtualCounter("hp"))
    rig.spin_until(lambda: any(isinstance(i, CounterConnected) for i in rig.intents))
    first = rig.intents[0]
    assert isinstance(first, CounterConnected)
    assert first == CounterConnected(seat=2, port=counter.device, role="hp", at_s=first.at_s)
    rig.manager.publish(2, "hp", 7, 12)
    rig.spin_until(lambda: counter.display == "7 | HP /12 | SEAT 2")
    counter.press("down")
    rig.spin_until(lambda: rig.values() == [(2, "hp", 6)])
    rig.manager.publish(2, "hp", 6, 12)
    rig.spin_until(lambda: counter.display == "6 | HP /12 | SEAT 2")
    rig.spin_for(0.3)
    assert rig.values() == [(2, "hp", 6)]


def test_dial_and_dice_over_the_pty(pty_rig: Callable[..., PtyRig]) -> None:
    rig = pty_rig(CounterMatch(vid=0x2E8A, pid=5, seat=1, role="dial"),
                  CounterMatch(vid=0x2E8A, pid=5, seat=1, role="dice"))
    dial = rig.add(VirtualCounter("dial", uid="E6614104033300D1"))
    rig.add(VirtualCounter("dice", uid="E6614104033300D2", config={"dice": {"count": 2, "sides": 6}}))
    rig.spin_until(lambda: len([i for i in rig.intents if isinstance(i, CounterConnected)]) == 2)
    rig.manager.publish(1, "horror", 2)
    rig.spin_until(lambda: "HOR 2" in dial.display)
    dial.press("select")
    dial.press("up")
    rig.spin_until(lambda: rig.values() == [(1, "horror", 3)])
    assert rig.manager.request_roll(1, 5, 10)
    rig.spin_until(lambda: len(rig.rolls) == 1)
    assert rig.rolls[0].sides == 10 and len(rig.rolls[0].faces) == 5
    assert all(1 <= face <= 10 for face in rig.rolls[0].faces)


def test_port_is_opened_exclusively(pty_rig: Callable[..., PtyRig]) -> None:
    rig = pty_rig(HP_SEAT_2)
    counter = rig.add(VirtualCounter("hp"))
    rig.spin_until(lambda: bool(rig.intents))
    with pytest.raises(HardwareError, match="cannot open"):
        open_serial(counter.device)
    with pytest.raises(serial.SerialException):
        serial.Serial(counter.device, exclusive=True)


def test_repl_request_stops_the_app(pty_rig: Callable[..., PtyRig]) -> None:
    rig = pty_rig(HP_SEAT_2)
    counter = rig.add(VirtualCounter("hp"))
    rig.spin_until(lambda: bool(rig.intents))
    rig.manager.request_repl(counter.device)
    counter.wait_for_display(lambda text: text.startswith("REPL? HOLD"))
    assert counter.running  # asked, not granted: nobody held a button yet
    counter.hold("select", 2.3)
    rig.spin_until(lambda: not counter.running)


def test_bank_for_a_station_config_seats_every_counter(pty_rig: Callable[..., PtyRig]) -> None:
    entries = (CounterConfig(vid=0x2E8A, pid=5, seat=1, role="hp", serial="E661410403330A01"),
               CounterConfig(vid=0x1209, pid=0xC0DE, seat=2, role="dial"))
    rig = pty_rig(*counter_matches(entries), bank=VirtualCounterBank.for_config(entries))
    for counter in rig.bank.counters:
        counter.plug()
    rig.spin_until(lambda: len([i for i in rig.intents if isinstance(i, CounterConnected)]) == 2)
    seats = {(i.seat, i.role) for i in rig.intents if isinstance(i, CounterConnected)}
    assert seats == {(1, "hp"), (2, "dial")}


def test_run_loop_on_its_own_thread_delivers_to_a_queue() -> None:
    """The way the station uses it: ``run`` on a thread, intents on a queue, publish from outside."""
    import queue
    import threading

    from tablekeeper.hw.counters import CounterManager

    bank = VirtualCounterBank()
    intents: queue.Queue[object] = queue.Queue()
    manager = CounterManager(emit=intents.put, counters=(HP_SEAT_2,),
                             discovery=PortDiscovery(list_ports=bank.list_ports, scan_interval_s=0.05))
    counter = bank.add(VirtualCounter("hp"))
    stop = threading.Event()
    thread = threading.Thread(target=manager.run, args=(stop,), daemon=True)
    try:
        counter.plug()
        thread.start()
        assert isinstance(intents.get(timeout=10), CounterConnected)
        manager.publish(2, "hp", 5, 9)
        counter.wait_for_display(lambda text: text == "5 | HP /9 | SEAT 2")
        counter.press("up")
        value = intents.get(timeout=10)
        assert isinstance(value, CounterValue)
        assert (value.seat, value.track, value.value) == (2, "hp", 6)
    finally:
        stop.set()
        manager.wake()  # the thread sleeps in select until something happens
        thread.join(timeout=5)
        manager.close()
        bank.close()
    assert not thread.is_alive()
