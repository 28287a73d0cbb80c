"""CounterManager against the real firmware app (in process), on one fake clock."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tablekeeper.errors import HardwareError
from tablekeeper.hw import protocol as p
from tablekeeper.hw.counters import (
    FALLBACK_SCAN_S,
    CounterLink,
    CounterManager,
    CounterMatch,
    CounterRoll,
    PortDiscovery,
)
from tablekeeper.intents import CounterConnected, CounterMissing, CounterValue, Intent
from tablekeeper.sim.clock import FakeClock
from tests.counters.boards import FakePortInfo, InProcessBoard, Rig
from tests.counters.firmware_env import load_firmware_module

UID_A = b"\xe6\x61\x41\x04\x03\x33\x2a\x2b"
UID_B = b"\xe6\x61\x41\x04\x03\x33\x2a\x99"


def make_rig(*boards_spec: dict[str, Any], counters: tuple[CounterMatch, ...] = ()) -> tuple[Rig, list[Intent],
                                                                                                list[CounterRoll]]:
    clock = FakeClock(100.0)
    boards = [InProcessBoard(clock, **spec) for spec in boards_spec]
    rig = Rig(clock, boards)
    intents: list[Intent] = []
    rolls: list[CounterRoll] = []
    rig.manager = CounterManager(emit=intents.append, counters=counters, clock=clock, on_roll=rolls.append,
                                 discovery=PortDiscovery(list_ports=rig.list_ports, open_port=rig.open_port))
    return rig, intents, rolls


def values(intents: list[Intent]) -> list[tuple[int, str, int]]:
    return [(i.seat, i.track, i.value) for i in intents if isinstance(i, CounterValue)]


HP_SEAT_2 = CounterMatch(vid=0x2E8A, pid=0x0005, seat=2, role="hp")
HOST_TIMEOUT_S = load_firmware_module("counter.link").HOST_TIMEOUT_MS / 1000


def test_configured_counter_is_seated_and_shows_the_game_value() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    assert [type(i) for i in intents] == [CounterConnected]
    first = intents[0]
    assert isinstance(first, CounterConnected)
    assert first == CounterConnected(seat=2, port="/dev/ttyACM0", role="hp", at_s=first.at_s)
    rig.manager.publish(2, "hp", 11, 16)
    rig.run(0.05)
    assert rig.boards[0].display.text == "11 | HP /16 | SEAT 2"


def test_press_on_counter_reaches_the_track_once() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    rig.manager.publish(2, "hp", 11, 16)
    rig.run(0.05)
    rig.boards[0].press("down", rig)
    rig.run(1.0)
    assert values(intents) == [(2, "hp", 10)]
    assert rig.manager.link("/dev/ttyACM0").pending() == 0


def test_only_micropython_and_configured_ids_are_opened() -> None:
    clock = FakeClock()
    opened: list[str] = []
    ports = [FakePortInfo("/dev/ttyUSB0", 0x0403, 0x6001), FakePortInfo("/dev/ttyACM0"),
             FakePortInfo("/dev/ttyACM1", 0x1209, 0xC0DE), FakePortInfo("/dev/ttyS0", None, None)]

    def open_port(device: str) -> Any:
        opened.append(device)
        raise HardwareError(f"counter {device}: busy")

    manager = CounterManager(emit=lambda intent: None, clock=clock,
                             counters=(CounterMatch(vid=0x1209, pid=0xC0DE, seat=1, role="dial"),),
                             discovery=PortDiscovery(list_ports=lambda: ports, open_port=open_port))
    manager.poll()
    assert sorted(opened) == ["/dev/ttyACM0", "/dev/ttyACM1"]


def test_busy_port_is_retried_with_growing_back_off() -> None:
    clock = FakeClock()
    attempts: list[float] = []

    def open_port(device: str) -> Any:
        attempts.append(clock())
        raise HardwareError(f"counter {device}: Could not exclusively lock port")

    manager = CounterManager(emit=lambda intent: None, clock=clock,
                             discovery=PortDiscovery(list_ports=lambda: [FakePortInfo("/dev/ttyACM0")],
                                                     open_port=open_port, scan_interval_s=0.1, backoff_first_s=0.5,
                                                     backoff_max_s=4.0))
    while clock() < 20:
        manager.poll()
        clock.advance(0.05)
    gaps = [round(b - a, 1) for a, b in itertools.pairwise(attempts)]
    assert gaps[:4] == [0.5, 1.0, 2.0, 4.0]
    assert all(gap == 4.0 for gap in gaps[4:])


def test_unseated_counter_claims_the_seat_being_paired() -> None:
    rig, intents, _ = make_rig({"role": "hp"})
    rig.run(0.1)
    assert intents == []
    assert rig.boards[0].display.text.endswith("PRESS: CLAIM")
    rig.manager.publish(3, "hp", 9, 12)
    rig.manager.start_pairing(3)
    rig.boards[0].press("select", rig)
    rig.run(0.2)
    assert next(i for i in intents if isinstance(i, CounterConnected)).seat == 3
    assert rig.boards[0].display.text == "9 | HP /12 | SEAT 3"
    assert rig.manager.pairing_seat == 0
    assert values(intents) == []


def test_pairing_rejects_a_seat_out_of_range() -> None:
    rig, _, _ = make_rig({"role": "hp"})
    with pytest.raises(HardwareError, match=r"seat 9 is not 1\.\.8"):
        rig.manager.start_pairing(9)


def test_dial_slots_map_to_the_seat_tracks() -> None:
    rig, intents, _ = make_rig({"role": "dial"}, counters=(CounterMatch(vid=0x2E8A, pid=5, seat=1, role="dial"),))
    rig.run(0.1)
    for track, value in (("damage", 1), ("horror", 2), ("clues", 3), ("resources", 5)):
        rig.manager.publish(1, track, value)
    rig.run(0.1)
    assert rig.boards[0].display.text == ">DMG 1  HOR 2 |  CLU 3  RES 5 | SEAT 1"
    board = rig.boards[0]
    board.press("select", rig)
    board.press("select", rig)
    board.press("up", rig)
    rig.run(0.2)
    assert values(intents) == [(1, "clues", 4)]


def test_lost_ack_retransmission_is_not_applied_twice() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    link = rig.manager.link("/dev/ttyACM0")
    real_write = link.port.write
    dropped: list[bytes] = []

    def lossy_write(data: bytes, /) -> int:
        kinds = [payload[1] for payload in p.FrameSplitter().feed(data)]
        if kinds == [p.MsgType.ACK]:
            dropped.append(data)
            return len(data)
        return int(real_write(data))

    link.port.write = lossy_write
    rig.boards[0].press("down", rig)
    rig.run(0.5)
    link.port.write = real_write
    rig.run(2.0)
    assert dropped, "no ACK was lost; the test did not exercise retransmission"
    assert values(intents) == [(2, "hp", 19)]


def test_silent_counter_is_reported_missing_and_comes_back() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    board = rig.boards[0]
    board.listed = False
    rig.run(1.0)
    missing = [i for i in intents if isinstance(i, CounterMissing)]
    assert missing == [CounterMissing(seat=2, reason="unplugged", at_s=missing[0].at_s)]
    assert [s.state for s in rig.manager.status()] == ["missing"]
    board.listed = True
    rig.run(2.0)
    assert [type(i) for i in intents] == [CounterConnected, CounterMissing, CounterConnected]


def test_change_made_while_unplugged_arrives_once_after_replug() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    rig.manager.publish(2, "hp", 15, 20)
    rig.run(0.1)
    board = rig.boards[0]
    board.cable = False
    board.listed = False
    rig.run(3.0)
    board.press("down", rig)
    board.press("down", rig)
    rig.run(HOST_TIMEOUT_S)  # a board left powered notices the host's silence after the timeout
    assert board.display.text == "13 | HP /20 | NO HOST"
    board.cable = True
    board.listed = True
    rig.run(3.0)
    assert values(intents) == [(2, "hp", 13)]
    rig.manager.publish(2, "hp", 13, 20)
    rig.run(3.0)
    assert values(intents) == [(2, "hp", 13)]
    assert board.display.text == "13 | HP /20 | SEAT 2"


def test_host_value_from_before_a_reconnect_does_not_undo_the_player() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    rig.manager.publish(2, "hp", 15, 20)
    rig.run(0.1)
    board = rig.boards[0]
    board.cable = False
    board.listed = False
    rig.run(1.0)
    board.press("up", rig)  # 16 while away
    board.cable = True
    board.listed = True
    rig.run(0.5)  # the host resends 15 with the revision it knew; the board keeps 16
    assert values(intents) == [(2, "hp", 16)]
    assert board.display.text.startswith("16 |")


def test_dice_roll_on_request_is_reported_once() -> None:
    rig, _, rolls = make_rig({"role": "dice"}, counters=(CounterMatch(vid=0x2E8A, pid=5, seat=4, role="dice"),))
    rig.run(0.1)
    assert rig.manager.request_roll(4, 3, 6)
    rig.run(1.0)
    assert len(rolls) == 1
    assert rolls[0].seat == 4 and rolls[0].sides == 6 and len(rolls[0].faces) == 3
    assert all(1 <= face <= 6 for face in rolls[0].faces)
    assert not rig.manager.request_roll(1, 3, 6)


def test_two_boards_on_two_seats() -> None:
    rig, intents, _ = make_rig({"role": "hp", "device": "/dev/ttyACM0", "uid": UID_A},
                               {"role": "hp", "device": "/dev/ttyACM1", "uid": UID_B},
                               counters=(CounterMatch(vid=0x2E8A, pid=5, seat=1, role="hp", serial=UID_B.hex()),
                                         CounterMatch(vid=0x2E8A, pid=5, seat=2, role="hp")))
    rig.run(0.2)
    seats = {i.port: i.seat for i in intents if isinstance(i, CounterConnected)}
    assert seats == {"/dev/ttyACM1": 1, "/dev/ttyACM0": 2}


def test_unknown_message_from_a_counter_is_answered_with_an_error() -> None:
    rig, _, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    link = rig.manager.link("/dev/ttyACM0")
    link.port.inbound.extend(p.encode_frame(p.build(0x55, 4, b"\x00")))
    link.port.written.clear()
    rig.manager.poll()
    splitter = p.FrameSplitter()
    replies = [p.parse(payload) for payload in splitter.feed(bytes(link.port.written))]
    assert p.Message(p.MsgType.ERROR, 0, bytes((p.ErrorCode.UNKNOWN_TYPE, 0x55, 4))) in replies


def test_publish_sends_only_what_changed_but_always_answers_a_counter_change() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    link = rig.manager.link("/dev/ttyACM0")
    rig.manager.publish(2, "hp", 11, 12)
    rig.run(0.05)

    def sets_sent() -> int:
        return sum(1 for payload in p.FrameSplitter().feed(bytes(link.port.written)) if payload[1] == p.MsgType.SET)

    link.port.written.clear()
    for _ in range(5):
        rig.manager.publish(2, "hp", 11, 12)  # the station republishes every track after each command
    rig.run(0.05)
    assert sets_sent() == 0
    rig.boards[0].press("up", rig)  # 12: suppose the game refuses it and keeps 11
    rig.run(0.1)
    assert values(intents) == [(2, "hp", 12)]
    rig.manager.publish(2, "hp", 11, 12)
    rig.run(0.1)
    assert sets_sent() == 1
    assert rig.boards[0].display.text == "11 | HP /12 | SEAT 2"


def test_change_arriving_before_ident_is_not_acknowledged_and_arrives_after() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    board = rig.boards[0]
    board.cable = False
    board.listed = False
    board.press("down", rig)  # 19 while nobody listens; pending on the board
    board.cable = True
    rig.manager.poll()  # not listed yet: nothing opened
    port = rig.open_port(board.device)  # the board's retransmission reaches a fresh link first
    link = rig.manager._links.setdefault(board.device, CounterLink(board.device, port, rig.manager.boards, rig.clock()))
    board.app.link.poll(board.now_ms() + 5000)  # retransmit timer fires before HELLO arrives
    link.pump(rig.clock())
    assert board.app.link.pending() == 1  # not acknowledged: still held by the board
    board.listed = True
    rig.run(1.0)
    assert values(intents) == [(2, "hp", 19)]


def test_a_version_1_board_is_named_in_one_line_and_never_seated(monkeypatch: pytest.MonkeyPatch,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    """The real firmware made to speak protocol version 1 (its version byte, and a CRC without the
    final XOR): the station says so in one line however often it retries, and seats nothing."""
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    monkeypatch.setattr(load_firmware_module("counter.messages"), "PROTOCOL_VERSION", 1)
    monkeypatch.setattr(load_firmware_module("counter.framing"), "CRC_XOROUT", 0)
    with caplog.at_level("INFO", logger="tablekeeper"):
        rig.run(8.0, step_s=0.01)
    assert intents == []
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == ["counter /dev/ttyACM0 speaks counter protocol version 1, this station version 2: "
                        "update the counter's firmware"]
    retries = [r.getMessage() for r in caplog.records if "retry in" in r.getMessage()]
    assert len(retries) >= 2  # it was closed and tried again, with back-off


def test_a_port_listing_that_fails_is_tried_again_later_not_at_once() -> None:
    """With udev (no periodic scan), a busy port left in back-off and then a listing that fails: the
    next deadline must be a later retry, never one already past (the thread would spin)."""
    clock = FakeClock()
    failing = {"now": False}

    def list_ports() -> list[Any]:
        if failing["now"]:
            raise OSError("sysfs went away")
        return [FakePortInfo("/dev/ttyACM0")]

    def open_port(device: str) -> Any:
        raise HardwareError(f"counter {device}: busy")

    manager = CounterManager(emit=lambda intent: None, clock=clock,
                             discovery=PortDiscovery(list_ports=list_ports, open_port=open_port, scan_interval_s=None,
                                                     backoff_first_s=0.5))
    manager.poll()  # listed, failed to open: a retry after the back-off
    failing["now"] = True
    clock.advance(1.0)
    passes = 0
    while clock() < 30:
        manager.poll()  # the work that was due is done ...
        passes += 1
        due = manager.next_deadline_s()
        assert due is not None and due > clock()  # ... and the next is later, never already past
        clock.now_s = due
    assert passes <= 30 / FALLBACK_SCAN_S + 2  # one listing every FALLBACK_SCAN_S, not one per pass
