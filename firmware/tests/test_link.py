"""The counter's protocol end: acks, retransmits, resync, errors for what it does not know."""

from counter import messages as m
from counter.app import INPUT_POLL_MS
from counter.link import HEARTBEAT_MS, HOST_TIMEOUT_MS, RETRANSMIT_MS
from support import HostSide, connect, make_app, press, take


def test_hello_is_answered_with_ident():
    app, transport, _, _ = make_app("dial")
    host = HostSide()
    replies = connect(app, transport, host, 0)
    ident = next(body for kind, _, body in replies if kind == m.IDENT)
    uid_len = ident[0]
    assert ident[1 : 1 + uid_len] == b"\xe6\x61\x41\x04\x03\x33\x2a\x2b"
    assert ident[1 + uid_len] == m.ROLE_DIAL
    assert ident[-1] == 4
    assert ident[2 + uid_len : 5 + uid_len] == bytes((1, 0, 0))
    assert app.seat == 1


def test_change_is_retransmitted_with_backoff_until_acked():
    app, transport, _, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = press(app, pins["down"], 10)
    changes = [f for f in host.parse(take(transport)) if f[0] == m.CHANGE]
    assert len(changes) == 1
    seq = changes[0][1]
    assert changes[0][2] == bytes((0, 0, 19, 0, 1))
    app.step(now + RETRANSMIT_MS)
    assert [f[1] for f in host.parse(take(transport)) if f[0] == m.CHANGE] == [seq]
    app.step(now + RETRANSMIT_MS + RETRANSMIT_MS)  # back-off doubled: not yet
    assert [f for f in host.parse(take(transport)) if f[0] == m.CHANGE] == []
    app.step(now + 3 * RETRANSMIT_MS)
    assert [f[1] for f in host.parse(take(transport)) if f[0] == m.CHANGE] == [seq]
    transport.incoming.extend(host.frame(m.ACK, bytes([seq])))
    app.step(now + 3 * RETRANSMIT_MS + 1)
    assert app.link.pending() == 0
    app.step(now + 100 * RETRANSMIT_MS)
    assert [f for f in host.parse(take(transport)) if f[0] == m.CHANGE] == []


def test_newer_value_replaces_an_unacked_one():
    app, transport, _, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = press(app, pins["down"], 10)
    now = press(app, pins["down"], now)
    assert app.link.pending() == 1
    take(transport)
    app.step(now + 5 * RETRANSMIT_MS)
    changes = [f[2] for f in host.parse(take(transport)) if f[0] == m.CHANGE]
    assert changes == [bytes((0, 0, 18, 0, 2))]


def test_repeated_roll_request_rolls_once():
    app, transport, _, _ = make_app("dice")
    host = HostSide()
    connect(app, transport, host, 0)
    frame = host.frame(m.ROLL_REQUEST, bytes((3, 6)))
    transport.incoming.extend(frame + frame)
    app.step(5)
    frames = host.parse(take(transport))
    assert len([f for f in frames if f[0] == m.ROLL]) == 1
    assert len([f for f in frames if f[0] == m.ACK]) == 2
    assert app.role.roll_id == 1


def test_unknown_type_is_answered_with_error_not_executed():
    app, transport, _, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    transport.incoming.extend(host.frame(0x7E, b"\x01\x02", seq=9))
    app.step(1)
    frames = host.parse(take(transport))
    assert (m.ERROR, 0, bytes((m.ERR_UNKNOWN_TYPE, 0x7E, 9))) in frames
    assert app.role.values == [20]


def test_bad_length_and_bad_version_are_errors():
    app, transport, _, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    transport.incoming.extend(host.frame(m.SET, b"\x00\x00\x05", seq=4))
    transport.incoming.extend(host.frame(m.SET, b"\x00\x00\x05\x00\x14\x00\x00", seq=5, version=2))
    app.step(1)
    errors = [f[2] for f in host.parse(take(transport)) if f[0] == m.ERROR]
    assert errors == [bytes((m.ERR_BAD_LENGTH, m.SET, 4)), bytes((m.ERR_BAD_VERSION, m.SET, 5))]
    assert app.role.values == [20]


def test_out_of_range_set_is_refused():
    app, transport, _, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    transport.incoming.extend(host.frame(m.SET, b"\x00\x00\x30\x00\x14\x00\x00", seq=7))
    app.step(1)
    errors = [f[2] for f in host.parse(take(transport)) if f[0] == m.ERROR]
    assert errors == [bytes((m.ERR_BAD_VALUE, m.SET, 7))]
    assert app.role.values == [20]


def test_heartbeat_when_idle_and_host_timeout():
    app, transport, display, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    assert app.link.host_present
    app.step(HEARTBEAT_MS)
    assert [f[0] for f in host.parse(take(transport))] == [m.HEARTBEAT]
    app.step(HOST_TIMEOUT_MS + 1)
    assert not app.link.host_present
    assert "NO HOST" in display.text


def test_next_wake_is_the_nearest_timer_and_inputs_only_while_a_button_settles():
    app, transport, _, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    take(transport)
    assert app.next_wake_ms(0) == HEARTBEAT_MS  # idle: the heartbeat is the only timer
    assert app.next_wake_ms(200) == HEARTBEAT_MS - 200
    pins["down"].set_level(0)
    assert app.next_wake_ms(200) == INPUT_POLL_MS  # the debouncer needs looking at
    now = press(app, pins["down"], 200)
    assert [f[0] for f in host.parse(take(transport))] == [m.CHANGE]
    assert 0 < app.next_wake_ms(now) <= RETRANSMIT_MS  # the CHANGE waits for its ACK
    app.step(HEARTBEAT_MS + HOST_TIMEOUT_MS)
    assert not app.link.host_present


def test_reconnect_resends_pending_change_at_once():
    app, transport, _, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = press(app, pins["up"], 10)  # at max: refused, nothing pending
    assert app.link.pending() == 0
    now = press(app, pins["down"], now)
    take(transport)
    transport.incoming.extend(host.frame(m.HELLO))
    app.step(now + 1)
    kinds = [f[0] for f in host.parse(take(transport))]
    assert kinds == [m.IDENT, m.CHANGE]


def test_repl_request_is_acked_then_flagged():
    app, transport, _, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    transport.incoming.extend(host.frame(m.REPL, seq=33))
    app.step(1)
    assert (m.ACK, 0, bytes((33,))) in host.parse(take(transport))
    app.step(2)
    assert app.presence is not None and not app.repl_requested  # granted after a hold: test_presence.py


def test_message_meant_for_the_host_is_refused_as_unknown():
    app, transport, _, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    transport.incoming.extend(host.frame(m.CHANGE, b"\x00\x00\x05\x00\x09", seq=12))
    app.step(1)
    errors = [f[2] for f in host.parse(take(transport)) if f[0] == m.ERROR]
    assert errors == [bytes((m.ERR_UNKNOWN_TYPE, m.CHANGE, 12))]
    assert app.role.values == [20]
