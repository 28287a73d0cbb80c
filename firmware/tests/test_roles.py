"""What presses and host values do to each role, including the revision rule."""

from counter import messages as m
from support import Entropy, HostSide, connect, make_app, press, take


def _set(host, slot, value, limit, rev_seen):
    body = bytes((slot, value >> 8, value & 0xFF, limit >> 8, limit & 0xFF, rev_seen >> 8, rev_seen & 0xFF))
    return host.frame(m.SET, body)


def test_hp_stays_within_zero_and_max():
    app, transport, _, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = 10
    now = press(app, pins["up"], now)
    assert app.role.values == [20]
    for _ in range(22):
        now = press(app, pins["down"], now)
    assert app.role.values == [0]
    assert app.role.revs == [20]


def test_host_value_shows_on_display():
    app, transport, display, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0, seat=2)
    transport.incoming.extend(_set(host, 0, 7, 12, 0))
    app.step(1)
    assert display.text == "7 | HP /12 | SEAT 2"


def test_host_value_older_than_a_player_change_is_ignored():
    app, transport, display, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = press(app, pins["down"], 10)  # rev 1, value 19
    transport.incoming.extend(_set(host, 0, 15, 20, 0))
    app.step(now + 1)
    assert app.role.values == [19]
    transport.incoming.extend(_set(host, 0, 18, 20, 1))
    app.step(now + 2)
    assert app.role.values == [18]
    assert display.text.startswith("18 |")


def test_dial_select_moves_cursor_and_changes_that_value():
    app, transport, display, pins = make_app("dial")
    host = HostSide()
    connect(app, transport, host, 0)
    take(transport)
    now = press(app, pins["select"], 10)
    now = press(app, pins["up"], now)
    now = press(app, pins["up"], now)
    assert app.role.values == [0, 2, 0, 0]
    changes = [f[2] for f in host.parse(take(transport)) if f[0] == m.CHANGE]
    assert changes[-1] == bytes((1, 0, 2, 0, 2))
    assert display.text == " DMG 0 >HOR 2 |  CLU 0  RES 0 | SEAT 1"


def test_unseated_counter_claims_instead_of_changing():
    app, transport, display, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0, seat=0)
    assert "PRESS: CLAIM" in display.text
    take(transport)
    press(app, pins["down"], 10)
    kinds = [f[0] for f in host.parse(take(transport))]
    assert m.CLAIM in kinds and m.CHANGE not in kinds
    assert app.role.values == [20]


def test_offline_presses_change_the_value_and_stay_pending():
    app, _transport, display, pins = make_app("hp")
    now = press(app, pins["down"], 10)
    now = press(app, pins["down"], now)
    assert app.role.values == [18]
    assert app.link.pending() == 1
    assert display.text == "18 | HP /20 | NO HOST"


def test_dice_are_unbiased_by_rejection():
    # 0xFF and 0xFC are rejected for d6 (>= 252); the rest map by value % 6 + 1.
    app, transport, display, _pins = make_app("dice", entropy=Entropy(b"\x00\x00\xff\xfc\x05\x0b\x06\x07"))
    host = HostSide()
    connect(app, transport, host, 0)
    take(transport)
    transport.incoming.extend(host.frame(m.ROLL_REQUEST, bytes((4, 6))))
    app.step(1)
    rolls = [f[2] for f in host.parse(take(transport)) if f[0] == m.ROLL]
    assert rolls == [bytes((0, 1, 6, 4, 6, 6, 1, 2))]
    assert display.text.startswith("6 6 1 2 | 4d6")


def test_dice_button_rolls_and_up_adds_a_die():
    app, transport, display, pins = make_app("dice", entropy=Entropy(b"\x01\x02\x03"))
    host = HostSide()
    connect(app, transport, host, 0)
    take(transport)
    now = press(app, pins["up"], 10)
    now = press(app, pins["select"], now)
    rolls = [f[2] for f in host.parse(take(transport)) if f[0] == m.ROLL]
    assert len(rolls) == 1 and rolls[0][3] == 3
    assert display.text.startswith("4 2 3 | 3d6")


def test_bad_roll_request_is_refused():
    app, transport, _, _ = make_app("dice")
    host = HostSide()
    connect(app, transport, host, 0)
    take(transport)
    transport.incoming.extend(host.frame(m.ROLL_REQUEST, bytes((0, 6))))
    app.step(1)
    kinds = [f[0] for f in host.parse(take(transport))]
    assert kinds == [m.ERROR]


def test_the_host_names_each_slot_in_the_games_words():
    app, transport, display, _ = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0, seat=1)
    transport.incoming.extend(host.frame(m.LABEL, bytes((0,)) + b"damage"))
    transport.incoming.extend(_set(host, 0, 2, 9, 0))
    app.step(1)
    assert display.text == "2 | damage /9 | SEAT 1"
    dial, dial_transport, dial_display, _ = make_app("dial")
    connect(dial, dial_transport, host, 0, seat=1)
    dial_transport.incoming.extend(host.frame(m.LABEL, bytes((3,)) + b"ANI"))
    dial_transport.incoming.extend(host.frame(m.LABEL, bytes((9,)) + b"ANI"))  # no such slot: refused
    dial_transport.incoming.extend(host.frame(m.LABEL, bytes((1,)) + b"\x01x"))  # not printable: refused
    dial.step(1)
    errors = [f[2][0] for f in host.parse(take(dial_transport)) if f[0] == m.ERROR]
    assert errors == [m.ERR_BAD_VALUE, m.ERR_BAD_VALUE]
    assert dial.role.labels == ["DMG", "HOR", "CLU", "ANI"] and "ANI 0" in dial_display.text
