"""Replays and floods: an executed request never runs twice, however many newer ones came between,
across a reconnect's HELLO and across the seq wrap; a poll does bounded work."""

from counter import messages as m
from support import HostSide, connect, make_app, take


def _set(host, slot, value, seq=None):
    return host.frame(m.SET, bytes((slot, 0, value, 0, 20, 0, 0)), seq=seq)


def test_old_set_replayed_after_nine_newer_is_not_applied_again():
    app, transport, _, _ = make_app("dial")
    host = HostSide()
    connect(app, transport, host, 0)
    old = _set(host, 0, 5)
    transport.incoming.extend(old)
    app.step(1)
    for value in range(9):
        transport.incoming.extend(_set(host, 1 + value % 3, value))
    transport.incoming.extend(_set(host, 0, 7))
    app.step(2)
    assert app.role.values[0] == 7
    take(transport)
    transport.incoming.extend(old)
    app.step(3)
    assert app.role.values[0] == 7
    acks = [f for f in host.parse(take(transport)) if f[0] == m.ACK]
    assert len(acks) == 1  # acknowledged, so the sender stops; not executed


def test_a_replayed_hello_keeps_the_window_so_a_replayed_roll_request_rolls_once():
    app, transport, _, _ = make_app("dice")
    host = HostSide()
    hello = host.frame(m.HELLO, b"\x4b\x21")
    transport.incoming.extend(hello)
    app.step(0)
    roll = host.frame(m.ROLL_REQUEST, bytes((3, 6)))
    transport.incoming.extend(roll)
    app.step(5)
    assert app.role.roll_id == 1
    transport.incoming.extend(hello + roll)
    app.step(10)
    assert app.role.roll_id == 1


def test_a_new_host_session_starts_a_fresh_window():
    app, transport, _, _ = make_app("dice")
    first = HostSide()
    transport.incoming.extend(first.frame(m.HELLO, b"\x00\x01") + first.frame(m.ROLL_REQUEST, bytes((2, 6))))
    app.step(0)
    second = HostSide()  # a restarted station: its seqs start at 1 again
    transport.incoming.extend(second.frame(m.HELLO, b"\x00\x02") + second.frame(m.ROLL_REQUEST, bytes((2, 6))))
    app.step(5)
    assert app.role.roll_id == 2


def test_a_late_retransmission_not_yet_executed_is_executed_once():
    app, transport, _, _ = make_app("dial")
    host = HostSide()
    connect(app, transport, host, 0)
    lost = _set(host, 0, 4)  # lost on the way; newer requests overtake it
    transport.incoming.extend(_set(host, 1, 6) + _set(host, 2, 8))
    app.step(1)
    transport.incoming.extend(lost + lost)
    app.step(2)
    assert app.role.values[:3] == [4, 6, 8]


def test_seqs_wrap_around_and_a_replay_across_the_wrap_is_refused():
    app, transport, _, _ = make_app("dial")
    host = HostSide()
    connect(app, transport, host, 0)
    host.seq = 250
    frames = {}
    for value in range(8):  # seqs 251..255, then 1..3
        frames[value] = _set(host, 0, value)
        transport.incoming.extend(frames[value])
        app.step(1 + value)
    assert app.role.values[0] == 7
    transport.incoming.extend(frames[3])  # seq 254, replayed after the wrap
    app.step(20)
    assert app.role.values[0] == 7


class Flood:
    """A port that always has a full buffer of noise waiting."""

    def __init__(self) -> None:
        self.reads = 0

    def read_into(self, buf) -> int:
        self.reads += 1
        for index in range(len(buf)):
            buf[index] = 0x55
        return len(buf)

    def write(self, frame) -> None:
        pass


def test_poll_returns_while_input_keeps_arriving():
    from counter.link import HostLink, Identity

    flood = Flood()
    link = HostLink(flood, Identity(b"\x01", m.ROLE_HP, (1, 0, 0), 0, 7, 1), None, 0)
    read = link.poll(0)
    assert flood.reads <= 4
    assert read == flood.reads * 64
