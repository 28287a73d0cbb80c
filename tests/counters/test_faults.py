"""Faults on a real pty: noise, broken frames, bit flips, 0x03, a REPL banner, unplug mid-frame,
replug. Neither side crashes, and no change is lost or applied twice."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tablekeeper.hw import protocol as p
from tablekeeper.hw.counters import CounterMatch
from tablekeeper.intents import CounterConnected, CounterMissing
from tablekeeper.sim.counters import VirtualCounter
from tests.counters.pty_rig import PtyRig

HP_SEAT_1 = CounterMatch(vid=0x2E8A, pid=0x0005, seat=1, role="hp")
BANNER = b"MPY: soft reboot\r\nMicroPython v1.27.0 on 2025-12-09; Raspberry Pi Pico with RP2040\r\n>>> "


def _connected(rig: PtyRig) -> int:
    return len([i for i in rig.intents if isinstance(i, CounterConnected)])


def _start(pty_rig: Callable[..., PtyRig]) -> tuple[PtyRig, VirtualCounter]:
    rig = pty_rig(HP_SEAT_1)
    counter = rig.add(VirtualCounter("hp"))
    rig.spin_until(lambda: _connected(rig) == 1)
    rig.manager.publish(1, "hp", 10, 20)
    rig.spin_until(lambda: counter.display.startswith("10 |"))
    return rig, counter


def _noise(rng: random.Random) -> bytes:
    good = p.encode_frame(p.build(p.MsgType.CHANGE, 9, p.change_body(p.Change(0, 3, 999))))
    flipped = bytearray(good)
    flipped[rng.randrange(1, len(good) - 1)] ^= 1 << rng.randrange(8)
    return b"".join((
        bytes(rng.randrange(256) for _ in range(64)),
        BANNER,
        good[: len(good) // 2],  # truncated: the rest never comes
        b"\x03\x03\x03",
        bytes(flipped) if 0 in flipped[1:-1] else bytes(flipped) + b"\x00",
    ))


def test_counter_side_noise_is_dropped_and_the_next_press_arrives_once(pty_rig: Callable[..., PtyRig]) -> None:
    rig, counter = _start(pty_rig)
    counter.raw(_noise(random.Random(1)))
    counter.press("down")
    rig.spin_until(lambda: rig.values() == [(1, "hp", 9)])
    rig.spin_for(0.3)
    assert rig.values() == [(1, "hp", 9)]
    link = rig.manager.link(counter.device)
    assert link is not None and link.ready
    assert link.dropped_frames >= 2


def test_host_side_noise_does_not_reach_the_display(pty_rig: Callable[..., PtyRig]) -> None:
    rig, counter = _start(pty_rig)
    link = rig.manager.link(counter.device)
    assert link is not None
    bad_set = bytearray(p.encode_frame(p.build(p.MsgType.SET, 77, p.set_body(0, 3, 20, 0))))
    bad_set[5] ^= 0x04
    link.port.write(_noise(random.Random(2)) + bytes(bad_set) + b"\x03" * 8)
    rig.spin_for(0.3)
    assert counter.running
    assert counter.display.startswith("10 |")
    rig.manager.publish(1, "hp", 12, 20)
    rig.spin_until(lambda: counter.display.startswith("12 |"))
    assert rig.values() == []


def test_unplug_mid_frame_then_replug(pty_rig: Callable[..., PtyRig]) -> None:
    rig, counter = _start(pty_rig)
    half = p.encode_frame(p.build(p.MsgType.CHANGE, 5, p.change_body(p.Change(0, 1, 1))))[:6]
    counter.raw(half)
    counter.unplug()
    rig.spin_until(lambda: any(isinstance(i, CounterMissing) for i in rig.intents))
    assert [s.state for s in rig.manager.status()] == ["missing"]
    counter.plug()  # powered up again: a fresh boot on a new port
    rig.spin_until(lambda: _connected(rig) == 2)
    rig.spin_until(lambda: counter.display == "10 | HP /20 | SEAT 1")
    assert rig.values() == []


def test_cable_pulled_mid_frame_keeps_offline_presses_exactly_once(pty_rig: Callable[..., PtyRig]) -> None:
    rig, counter = _start(pty_rig)
    counter.raw(p.encode_frame(p.build(p.MsgType.CHANGE, 5, p.change_body(p.Change(0, 1, 1))))[:5])
    counter.cable(False)
    rig.spin_until(lambda: any(isinstance(i, CounterMissing) for i in rig.intents))
    counter.press("down")
    counter.press("down")
    counter.press("down")
    counter.wait_for_display(lambda text: text.startswith("7 |"))
    counter.cable(True)
    rig.spin_until(lambda: _connected(rig) == 2)
    rig.spin_until(lambda: rig.values() == [(1, "hp", 7)])
    rig.manager.publish(1, "hp", 7, 20)
    rig.spin_for(0.5)
    assert rig.values() == [(1, "hp", 7)]
    assert counter.display == "7 | HP /20 | SEAT 1"


def _last_value_is(rig: PtyRig, value: int) -> Callable[[], bool]:
    return lambda: bool(rig.values()) and rig.values()[-1] == (1, "hp", value)


@pytest.mark.stress
def test_many_rounds_of_random_faults(pty_rig: Callable[..., PtyRig]) -> None:
    rig, counter = _start(pty_rig)
    rng = random.Random(7)
    expected = 10
    for _ in range(40):
        fault = rng.choice(("counter-noise", "host-noise", "cable", "press"))
        link = rig.manager.link(counter.device)
        if fault == "counter-noise":
            counter.raw(_noise(rng))
        elif fault == "host-noise" and link is not None:
            link.port.write(_noise(rng))
        elif fault == "cable":
            counter.cable(False)
            rig.spin_for(0.3)
            counter.cable(True)
        if expected > 0:
            counter.press("down")
            expected -= 1
        rig.spin_until(_last_value_is(rig, expected), 15)
        rig.manager.publish(1, "hp", expected, 20)
    values = [v for _, _, v in rig.values()]
    assert values == sorted(set(values), reverse=True)  # each value once, never back
