"""Frames with a valid CRC that break the rules: each once crashed the counters thread or was
applied wrongly; now each is refused, and the link and the game go on."""

from __future__ import annotations

import queue

import pytest

from tablekeeper.config import REFERENCE_CONFIG, CounterConfig, load_config
from tablekeeper.core.session import Session
from tablekeeper.hw import protocol as p
from tablekeeper.intents import CounterConnected, CounterMissing, Typed
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_displays
from tests.counters.test_manager import HP_SEAT_2, make_rig, values
from tests.station.station_game import GAME

DIAL_SEAT_2 = CounterConfig(vid=0x2E8A, pid=0x0005, seat=2, role="dial")


def inject(rig: object, payload: bytes) -> None:
    """A frame with a valid CRC arrives from the board's side of the cable."""
    link = rig.manager.link("/dev/ttyACM0")  # type: ignore[attr-defined]
    link.port.inbound.extend(p.encode_frame(payload))


def ident(uid: bytes, role: str) -> bytes:
    body = p.ident_body(p.Ident(uid, role, (1, 0, 0), frozenset({"display"}), 0x1234, 1 if role == "hp" else 4))
    return p.build(p.MsgType.IDENT, 0, body)


def change(slot: int, value: int, rev: int, seq: int = 200) -> bytes:
    return p.build(p.MsgType.CHANGE, seq, p.change_body(p.Change(slot, value, rev)))


def test_a_second_ident_from_another_board_closes_the_link_and_the_station_keeps_publishing(
        tmp_path: object) -> None:
    """Once: KeyError in CounterManager.changed on the counters thread, then in publish on the station's."""
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    config = load_config(REFERENCE_CONFIG)
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path)  # type: ignore[arg-type]
    station = Station(session=Session(GAME, seats=2, seed=1), config=config, clock=rig.clock,
                      displays=make_displays(config, parts.open_device, clock=rig.clock),
                      intents=queue.SimpleQueue(), counters=rig.manager)
    station.start()
    inject(rig, ident(b"\x01\x02\x03\x04\x05\x06\x07\x08", "hp"))
    inject(rig, change(0, 3, 1))
    rig.run(0.05)
    station.put(Typed(text="set seat2.hp 4", line=1))
    station.drain()  # the seat-track publish that once raised on the station thread
    assert values(intents) == []  # the impostor's change was not applied
    assert any(isinstance(i, CounterMissing) and i.reason == "identity changed" for i in intents)
    rig.run(2.0)  # the real board is greeted again and shows the game's value
    assert sum(isinstance(i, CounterConnected) for i in intents) == 2
    assert rig.boards[0].display.text == "4 | HP /9 | SEAT 2"
    station.close()
    parts.close()


def test_a_second_ident_with_another_role_does_not_remap_the_next_change() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    rig.manager.publish(2, "hp", 11, 16)
    rig.run(0.05)
    uid = rig.boards[0].uid
    inject(rig, ident(uid, "dial"))
    inject(rig, change(1, 5, 1))  # would be seat 2 horror under the dial role
    rig.run(0.05)
    assert values(intents) == []
    rig.run(2.0)
    rig.boards[0].press("down", rig)
    rig.run(0.5)
    assert values(intents) == [(2, "hp", 10)]


@pytest.mark.parametrize("rev", [0x7FFF, 0x8000, 0xC000, 0x1001])
def test_a_change_leaping_ahead_is_refused_and_the_next_real_press_arrives(rev: int) -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    rig.manager.publish(2, "hp", 11, 16)
    rig.run(0.05)
    inject(rig, change(0, 3, rev))
    rig.run(0.1)
    assert values(intents) == []
    assert rig.manager.refused_changes == 1
    assert rig.boards[0].display.text.startswith("11 ")
    rig.boards[0].press("down", rig)
    rig.run(0.5)
    assert values(intents) == [(2, "hp", 10)]


def test_a_change_past_the_track_bound_is_refused_and_the_counter_shows_the_game_value() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.run(0.1)
    rig.manager.publish(2, "hp", 11, 16)
    rig.run(0.05)
    inject(rig, change(0, 60000, 1))
    rig.run(0.1)
    assert values(intents) == []
    assert rig.boards[0].display.text.startswith("11 ")
    rig.boards[0].press("up", rig)
    rig.run(0.5)
    assert values(intents) == [(2, "hp", 12)]


def test_a_station_restarted_under_a_busy_board_resynchronises_instead_of_refusing_forever() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.boards[0].app.role.revs[0] = 0x9000  # the board counted far while an earlier station ran
    rig.run(0.1)
    rig.manager.publish(2, "hp", 11, 16)
    rig.run(0.05)
    assert rig.boards[0].app.role.revs[0] == 0  # the greeting's SET put the board back on the host's count
    rig.boards[0].press("down", rig)
    rig.run(0.5)
    assert values(intents) == [(2, "hp", 10)]


def test_rev_window_uses_wrap_around_arithmetic() -> None:
    assert p.rev_is_within(1, 0)
    assert p.rev_is_within(0, 0xFFFF)
    assert p.rev_is_within(p.REV_WINDOW - 1, 0xFFFF)
    assert not p.rev_is_within(5, 5)
    assert not p.rev_is_within(4, 5)
    assert not p.rev_is_within(0x7FFF, 0)
    assert not p.rev_is_within(p.REV_WINDOW + 1, 0)


def test_hello_names_the_session_and_a_reconnected_link_continues_its_seqs() -> None:
    rig, intents, _ = make_rig({"role": "hp"}, counters=(HP_SEAT_2,))
    rig.manager.boards.session_id = 0x4B21
    rig.run(0.1)
    hellos = [f for f in p.FrameSplitter().feed(bytes(rig.manager.link("/dev/ttyACM0").port.written))
              if f[1] == p.MsgType.HELLO]
    assert hellos and all(f[3:] == b"\x4b\x21" for f in hellos)
    for value in range(11, 16):
        rig.manager.publish(2, "hp", value, 16)
        rig.run(0.05)
    last = rig.manager.link("/dev/ttyACM0").outbox_seq
    rig.boards[0].cable = False
    rig.run(0.3)
    rig.boards[0].cable = True
    rig.run(3.0)
    assert sum(isinstance(i, CounterConnected) for i in intents) == 2
    assert rig.manager.link("/dev/ttyACM0").outbox_seq > last  # not 1 again: the board would take it for a replay
    rig.manager.publish(2, "hp", 3, 16)
    rig.run(0.2)
    assert rig.boards[0].display.text.startswith("3 ")


def test_hello_body_is_empty_or_a_session_id() -> None:
    assert p.parse(p.build(p.MsgType.HELLO, 0, b"\x00\x07")).body == b"\x00\x07"
    assert p.parse(p.build(p.MsgType.HELLO, 0)).body == b""
    with pytest.raises(p.FrameRejected):
        p.parse(p.build(p.MsgType.HELLO, 0, b"\x07"))
