"""The phones' pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright) against
the real station loop on simulated parts: a four-seat Arkham round played from four seat pages and
the table page (a card's name typed in the console with completion), a page that loses its socket
mid-press and loses no press, two phones pressing at once, and a page or socket without the secret
refused and the PIN that lets it join. Skips without Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablekeeper.intents import ButtonIntent, FromPage, Intent, Typed
from tablekeeper.web import phones
from tablekeeper.web.hub import Client, Hub
from tests.web.phones import PAGE_WAIT_MS, PhoneStation, agree, caught_up, needs_chromium, wait_until

pytestmark = needs_chromium

# A tap: the button's pointerdown and pointerup in one task of the page's, as a finger's quick tap.
TAP = ("b => { for (const type of ['pointerdown', 'pointerup']) "
       "b.dispatchEvent(new PointerEvent(type, {bubbles: true})); }")


def press(page: Any, selector: str) -> None:
    """Tap a button of the page's: Playwright checks it can be tapped (visible, enabled, not covered),
    then the page gets the tap. Not Playwright's click, whose mouse down and up are two round trips: on a
    loaded machine they can come further apart than the hold time, and the page sends a HOLD too."""
    page.bring_to_front()  # the phone in hand: a page in the background has its frames throttled
    button = page.locator(selector)
    button.click(trial=True)
    button.evaluate(TAP)


def answer(table: Any, text: str) -> None:
    table.bring_to_front()
    table.locator("#answers button.answer", has_text=text).first.click()


def test_four_seats_play_an_arkham_round_from_their_phones(tmp_path: Path, context: Any) -> None:
    """Round 1 of The Gathering with four investigators, as docs/games/arkham.keys plays it on the
    panel, but from phones: each seat's A and B on its own page, NEXT and the questions' answers on
    the table page, and Daisy's ally typed in the table's console by its completed name."""
    ps = PhoneStation(tmp_path, "arkham", seats=4, options={"flow": "walk"})
    try:
        table = context.new_page()
        table.goto(ps.url("/"))
        seats = {}
        for seat in range(1, 5):
            seats[seat] = context.new_page()
            seats[seat].goto(ps.url(f"/seat/{seat}"))
        pages = [table, *seats.values()]
        caught_up(ps, *pages)
        assert not ps.on_station(lambda st: st.ui.join_shown)  # a phone joined: the game is back on the glass

        def step(page: Any, selector: str) -> None:
            press(page, selector)
            caught_up(ps, *pages)  # every page acknowledged and up to date ...
            for each in {table, page}:  # ... and the one pressed, and the table's, read against the glass
                agree(ps, each)  # (every page at every screen: test_page_agrees_with_glass.py)

        step(table, "#next")  # 2.1 -> 2.2: every investigator owes a turn
        assert ps.on_station(lambda st: st.session.state.step) == "2.2"
        step(seats[1], "#button-b")  # Roland's action menu: his turn begins
        answer(table, "Beat Cop")
        caught_up(ps, *pages)
        step(seats[1], "#button-b")
        step(seats[1], "#button-b")  # investigate the Study
        step(seats[1], "#button-a")  # draw a token
        step(seats[1], "#button-a")  # resolve the test
        step(seats[1], "#button-a")  # end of Roland's turn
        # Daisy's turn: her ally by name in the console, the name completed from what the box knows
        table.bring_to_front()
        line = table.locator("#line")
        line.fill("ally seat2 dr. mil")
        table.locator(".choice", has_text="Dr. Milan Christopher").click()
        assert line.input_value() == 'ally seat2 "Dr. Milan Christopher" '
        line.press("Enter")
        table.locator('#said[data-outcome="done"]').wait_for(timeout=PAGE_WAIT_MS)
        caught_up(ps, *pages)
        allies = ps.on_station(lambda st: st.session.game.view(st.session.state))
        assert "Dr. Milan Christopher" in str(allies)
        step(seats[2], "#button-a")  # end of Daisy's turn
        step(seats[3], "#button-a")  # Skids passes
        step(seats[4], "#button-a")  # Agnes, the last one left, ends hers -> 2.3
        for _ in range(11):  # through the enemy and upkeep phases, to round 2
            step(table, "#next")
        state = ps.on_station(lambda st: st.session.state)
        assert state.round == 2
        assert ps.on_station(lambda st: st.stats.refusals) == 0
        log = table.locator("#log li").all_inner_texts()
        assert log and all(not line.startswith("refused") for line in log)
    finally:
        ps.stop()


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_page_that_loses_its_socket_mid_press_loses_no_press(tmp_path: Path, context: Any, protection: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket drops after the station took a press but before its ack reached the phone, and a
    press is made while the phone is offline: after reconnecting, each press counted exactly once.
    With the hub's "taken once" taken out, the line sent again is put on the station's queue twice."""
    ps = PhoneStation(tmp_path, "earthborne", seats=2, seed=7)
    try:
        if protection != "on":
            submit = Hub.submit

            def forgetful(self: Hub, client: Client, seq: int, intent: ButtonIntent | Typed) -> bytes | None:
                client.last_put = min(client.last_put, seq - 1)  # every number is new to it
                return submit(self, client, seq, intent)

            monkeypatch.setattr(Hub, "submit", forgetful)
        put: list[Intent] = []  # what the page server puts on the station's queue
        station_put = ps.pages.hub.put

        def watched(intent: Intent) -> None:
            put.append(intent)
            station_put(intent)

        monkeypatch.setattr(ps.pages.hub, "put", watched)
        table = context.new_page()
        table.goto(ps.url("/"))
        caught_up(ps, table)
        before = ps.on_station(lambda st: st.session.log_length)
        # 1. the ack is lost: the station took the line, but the phone's network drops before the ack
        acked = ps.pages.hub._acked
        dropped: list[int] = []

        def lose_the_ack(client: Any, seq: int, refusal: str | None) -> None:
            if not dropped:
                dropped.append(seq)
                client.outbox = None  # the socket it came on is gone: the ack is only kept
            acked(client, seq, refusal)

        with monkeypatch.context() as lost:
            lost.setattr(ps.pages.hub, "_acked", lose_the_ack)
            table.locator("#line").fill("pathdeck mountain_pass lone_tree_station")
            table.locator("#line").press("Enter")
            wait_until(lambda: dropped, "the station to take the line")
            assert table.evaluate("document.body.dataset.pending") == "1"
            table.evaluate("state.socket.close()")
            caught_up(ps, table)  # reconnected, sent again, acknowledged from what was kept
        taken = [i for i in put if isinstance(i, FromPage)]
        assert (len(taken) == 1) is (protection == "on"), taken  # taken once, not twice
        if protection != "on":
            return
        assert ps.on_station(lambda st: st.session.log_length) == before + 1
        # 2. a press while the phone is offline: kept, sent once it is back online, taken once. The page
        # is held offline by state, not by speed: its next retry a minute away, its socket closed (the
        # page says "reconnecting"), the network off; back online, it reconnects at once (on the
        # browser's "online" event: without it the wait below runs out, the retry being a minute away).
        context.set_offline(True)
        table.evaluate("state.retryMs = 60000; state.socket.close()")
        table.locator("#link.down").wait_for(timeout=PAGE_WAIT_MS)
        table.locator("#line").fill('reveal path "Agitated Meadowlarks"')
        table.locator("#line").press("Enter")
        assert table.evaluate("document.body.dataset.pending") == "1"
        assert ps.on_station(lambda st: st.session.log_length) == before + 1
        context.set_offline(False)
        caught_up(ps, table)
        assert ps.on_station(lambda st: st.session.log_length) == before + 2
        assert "Agitated Meadowlarks" in table.locator("#displays").inner_text()
        # 3. a reload (the phone's browser dropped the page): the page keeps its name and outbox
        table.reload()
        caught_up(ps, table)
        assert ps.on_station(lambda st: st.session.log_length) == before + 2
    finally:
        ps.stop()


def test_two_phones_pressing_at_once_both_count(tmp_path: Path, context: Any) -> None:
    ps = PhoneStation(tmp_path, "earthborne", seats=2, seed=7)
    try:
        ps.put(Typed("pathdeck mountain_pass lone_tree_station"))
        one, two = context.new_page(), context.new_page()
        one.goto(ps.url("/seat/1"))
        two.goto(ps.url("/seat/2"))
        caught_up(ps, one, two)
        before = ps.on_station(lambda st: st.session.log_length)
        assert "draw" in one.locator("#a-does").inner_text()
        # both A buttons go down in the same instant (one script dispatches both pointer events)
        for page in (one, two):
            page.evaluate("window.__a = document.getElementById('button-a')")
        one.evaluate("""() => { for (const type of ['pointerdown', 'pointerup'])
            window.__a.dispatchEvent(new PointerEvent(type, {bubbles: true})); }""")
        two.evaluate("""() => { for (const type of ['pointerdown', 'pointerup'])
            window.__a.dispatchEvent(new PointerEvent(type, {bubbles: true})); }""")
        caught_up(ps, one, two)
        # both were carried out, one after the other, each as its seat's A meant when it came (the
        # second may resolve what the first drew): two entries, no refusal, both pages acknowledged
        assert ps.on_station(lambda st: st.session.log_length) == before + 2
        assert ps.on_station(lambda st: st.stats.refused_all) == 0
        origins = ps.on_station(lambda st: [e.command.origin for e in st.session.entries[-2:] if e.command])
        assert origins == ["button", "button"]
    finally:
        ps.stop()


def test_a_page_without_the_secret_is_refused_and_the_pin_lets_it_join(tmp_path: Path, context: Any) -> None:
    ps = PhoneStation(tmp_path, "earthborne", seats=2, seed=7)
    try:
        page = context.new_page()
        answer_ = page.goto(f"http://127.0.0.1:{ps.port}/seat/2")
        assert answer_ is not None and answer_.status == 401
        assert page.locator("#displays").count() == 0  # nothing of the game
        for k in ("", "?k=", f"?k={ps.invitation.secret[:-1]}"):  # the socket, from the page's own origin
            opened = page.evaluate("""(url) => new Promise((done) => {
                const socket = new WebSocket(url);
                socket.onopen = () => { socket.close(); done(true); };
                socket.onerror = () => done(false); })""", f"ws://127.0.0.1:{ps.port}/live{k}")
            assert opened is False, k
        assert ps.pages.hub.viewers == 0
        for path in ("/qr/table.svg", "/qr/seat1.svg"):  # nor the codes that carry the secret
            assert context.request.get(f"http://127.0.0.1:{ps.port}{path}").status == 403
        page.fill("#pin", "000000" if ps.invitation.pin != "000000" else "111111")
        page.click("button[type=submit]")
        assert "not the PIN" in page.locator(".problem").inner_text()
        page.wait_for_timeout(phones.PIN_WAIT_S * 1000 + 100)
        page.fill("#pin", ps.invitation.pin)
        page.click("button[type=submit]")
        page.locator('article[data-role="seat2"]').wait_for(timeout=PAGE_WAIT_MS)
        assert f"k={ps.invitation.secret}" in page.url and "/seat/2" in page.url
    finally:
        ps.stop()


EARTHBORNE_ROUND = [  # (page, what): "table" types a line or presses NEXT; "seatN" presses a or b
    ("table", "pathdeck mountain_pass lone_tree_station"),
    ("table", "reveal path agit"), ("table", "reveal path pounc"), ("table", "reveal path spider"),
    ("table", "reveal path circl"), ("table", "#next"),
    ("seat1", "b"), ("table", "test 1 awa 2 energy=2 target=card1"), ("table", "reveal challenge sun7"),
    ("table", "progress card1 3"), ("table", "resolve"), ("table", "resolve"), ("seat1", "a"),
    ("seat2", "b"), ("table", "test 2 fit 1 target=card2"), ("table", "reveal challenge mountain1"),
    ("table", "harm card2 2"), ("table", "resolve"), ("seat2", "a"),
    ("seat3", "a"), ("seat4", "a"), ("seat1", "a"), ("seat2", "a"), ("table", "#next"),
]


@pytest.mark.stress
def test_four_rangers_play_an_earthborne_round_from_phones_alone(tmp_path: Path, context: Any) -> None:
    """No buttons: the path cards' names typed in the table's console (each completed from a few
    letters and picked), turns and rests on the seats' pages, NEXT on the table page; the pages and
    the glass agree at every step, and round 2 begins with nothing refused."""
    ps = PhoneStation(tmp_path, "earthborne", seats=4, seed=7, options={"flow": "auto"})  # as `run` starts it
    try:
        table = context.new_page()
        table.goto(ps.url("/"))
        seats = {}
        for seat in range(1, 5):
            seats[seat] = context.new_page()
            seats[seat].goto(ps.url(f"/seat/{seat}"))
        pages = [table, *seats.values()]
        caught_up(ps, *pages)
        for where, what in EARTHBORNE_ROUND:
            if where.startswith("seat"):
                press(seats[int(where[4:])], f"#button-{what}")
            elif what.startswith("#"):
                press(table, what)
            else:
                table.bring_to_front()
                line = table.locator("#line")
                line.fill(what)
                if what.startswith("reveal path"):  # a few letters, and the name the box offers
                    table.locator(".choice").first.click()
                    assert line.input_value().startswith('reveal path "')
                line.press("Enter")
            caught_up(ps, *pages)
            for page in pages:
                agree(ps, page)
        state = ps.on_station(lambda st: st.session.state)
        assert state.round == 2 and "Draw path cards" in table.locator("#displays").inner_text()
        assert ps.on_station(lambda st: st.stats.refused_all) == 0
    finally:
        ps.stop()
