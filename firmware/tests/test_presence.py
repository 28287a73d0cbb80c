"""A REPL request is granted only after a button is held 2 s while the display asks."""

from counter import messages as m
from counter.presence import ASK_MS, HOLD_MS
from support import HostSide, connect, make_app, press, take


def _ask_for_repl(app, transport, host, now):
    transport.incoming.extend(host.frame(m.REPL, seq=40))
    app.step(now)
    replies = host.parse(take(transport))
    assert (m.ACK, 0, bytes((40,))) in replies  # the request is acknowledged at once...
    assert not app.repl_requested  # ...but not granted
    app.step(now)
    assert app.presence is not None
    return now + 1


def _hold(app, pin, now, duration_ms):
    pin.set_level(0)
    end = now + duration_ms
    while now < end:
        app.step(now)
        now += 50
    app.step(now)
    return now


def test_the_repl_is_handed_back_only_after_a_two_second_hold():
    app, transport, display, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = _ask_for_repl(app, transport, host, 10)
    app.step(now)
    assert display.text == "REPL? HOLD | A BUTTON 2 S"
    now = _hold(app, pins["select"], now, HOLD_MS - 200)
    assert not app.repl_requested
    assert display.text.startswith("REPL: KEEP | HOLDING ")
    now = _hold(app, pins["select"], now, 300)
    assert app.repl_requested


def test_short_presses_do_not_add_up_and_do_not_reach_the_game():
    app, transport, _, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = _ask_for_repl(app, transport, host, 10)
    for _ in range(40):
        now = press(app, pins["down"], now)  # 40 short presses: far more than 2 s in total
    assert not app.repl_requested
    assert app.role.values == [20]  # the presses answered the question, not the game


def test_an_unanswered_request_lapses_and_the_counter_plays_on():
    app, transport, display, pins = make_app("hp")
    host = HostSide()
    connect(app, transport, host, 0)
    now = _ask_for_repl(app, transport, host, 10)
    app.step(now + ASK_MS + 1)
    assert app.presence is None and not app.repl_requested
    now = press(app, pins["down"], now + ASK_MS + 2)
    assert app.role.values == [19]
    assert display.text.startswith("19 | HP /20 | ")  # the game screen (the host went quiet for 30 s)
