"""The phones' pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright) against
the real station loop on simulated parts: a four-seat Arkham round played from four seat pages and
the table page (a card's name typed in the console with completion), a page that loses its socket
mid-press and loses no press, two phones pressing at once, a page without the secret refused and the
PIN that lets it join, and the page and the glass showing the same text for every screen of each
game's example script. Skips without Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.intents import Typed
from tablekeeper.web import phones
from tests.station.frames import DOCS, SCRIPT_ARGS
from tests.web.phones import PhoneStation, browser, glass_rows, needs_chromium, page_texts, squash, wait_until

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    yield from browser()


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport=PHONE, has_touch=False)
    try:
        yield context
    finally:
        context.close()


def settled(ps: PhoneStation) -> int:
    """The version of the view the station publishes once everything queued is carried out."""
    return int(ps.on_station(lambda _st: ps.pages.publisher.version))


def caught_up(ps: PhoneStation, *pages: Any) -> int:
    """Wait until each page has every press acknowledged and shows the station's settled view."""
    for page in pages:
        page.wait_for_function("() => document.body.dataset.pending === '0'", timeout=10_000, polling=20)
    version = settled(ps)
    for page in pages:
        page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}", timeout=10_000, polling=20)
    return version


def shown_on(page: Any) -> dict[str, str]:
    """Each display box's text on ``page``, by role."""
    texts: dict[str, str] = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('article.display')]"
        ".map(a => [a.dataset.role, a.innerText]))")
    return texts


def agree(ps: PhoneStation, page: Any) -> list[str]:
    """The displays ``page`` shows hold the same text as the glass draws from the same screens: every
    line the glass keeps is on the page, every row of the glass is in the page's text. Returns the roles."""
    version = int(page.evaluate("document.body.dataset.version"))
    screens = ps.snapshots[version].screens
    checked = []
    for role, text in shown_on(page).items():
        screen = screens.display(role)
        assert screen is not None, role
        on_page = squash(text)
        if ps.config.display(role) is not None:
            body, foot = glass_rows(screen, ps.station)
            must, banner = page_texts(screen) if screen.join is None else ([f"PIN {screen.join.pin}"], None)
            for line in must:
                assert squash(line) in squash("".join(body)), (role, line, body)
                assert squash(line) in on_page, (role, line, text)
            if banner is not None:
                assert squash(banner) == squash("".join(foot)), (role, banner, foot)
                assert squash(banner) in on_page, (role, banner, text)
            for row in [*body, *foot]:
                assert squash(row) in on_page, (role, row, text)
        checked.append(role)
    return checked


def press(page: Any, selector: str) -> None:
    page.bring_to_front()  # the phone in hand: a page in the background has its frames throttled
    page.locator(selector).click()


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
            caught_up(ps, *pages)
            for each in pages:
                agree(ps, each)

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
        table.locator('#said[data-outcome="done"]').wait_for(timeout=10_000)
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


def test_a_page_that_loses_its_socket_mid_press_loses_no_press(tmp_path: Path, context: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket drops after the station took a press but before its ack reached the phone, and a
    press is made while the phone is offline: after reconnecting, each press counted exactly once."""
    ps = PhoneStation(tmp_path, "earthborne", seats=2, seed=7)
    try:
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

        monkeypatch.setattr(ps.pages.hub, "_acked", lose_the_ack)
        table.locator("#line").fill("pathdeck mountain_pass lone_tree_station")
        table.locator("#line").press("Enter")
        wait_until(lambda: dropped, "the station to take the line")
        assert table.evaluate("document.body.dataset.pending") == "1"
        table.evaluate("state.socket.close()")
        caught_up(ps, table)  # reconnected, sent again, acknowledged from what was kept
        assert ps.on_station(lambda st: st.session.log_length) == before + 1  # taken once, not twice
        monkeypatch.undo()
        # 2. a press while the socket is down: kept, sent on reconnecting, taken once
        table.evaluate("state.socket.close(); state.retryMs = 600")
        table.locator("#line").fill('reveal path "Agitated Meadowlarks"')
        table.locator("#line").press("Enter")
        assert table.evaluate("document.body.dataset.pending") == "1"
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
        page.fill("#pin", "000000" if ps.invitation.pin != "000000" else "111111")
        page.click("button[type=submit]")
        assert "not the PIN" in page.locator(".problem").inner_text()
        page.wait_for_timeout(phones.PIN_WAIT_S * 1000 + 100)
        page.fill("#pin", ps.invitation.pin)
        page.click("button[type=submit]")
        page.locator('article[data-role="seat2"]').wait_for(timeout=10_000)
        assert f"k={ps.invitation.secret}" in page.url and "/seat/2" in page.url
    finally:
        ps.stop()


def _script_lines(game: str) -> list[str]:
    lines = (DOCS / f"{game}.script").read_text(encoding="utf-8").splitlines()
    return [text for line in lines if (text := line.split("#", 1)[0].strip())]


def _session_args(game: str) -> dict[str, Any]:
    args = SCRIPT_ARGS[game]
    out: dict[str, Any] = {"options": {"flow": "auto"}}  # as `tablekeeper play` and `run` start a game
    for flag, value in zip(args[::2], args[1::2], strict=True):
        if flag == "--seats":
            out["seats"] = int(value)
        elif flag == "--seed":
            out["seed"] = int(value)
        else:
            key, _, val = value.partition("=")
            out["options"][key] = val
    return out


@pytest.mark.parametrize("game", sorted(SCRIPT_ARGS))
def test_the_page_and_the_glass_show_the_same_text_for_every_screen(game: str, tmp_path: Path, context: Any) -> None:
    """Each line of the game's example script typed at the station; after each, the table page and
    every seat page show what the track, tokens and seat displays show, from the same screens."""
    args = _session_args(game)
    ps = PhoneStation(tmp_path, game, seats=args.get("seats", 2), seed=args.get("seed", 1),
                      options=args["options"])
    try:
        seats = ps.on_station(lambda st: st.session.state.seats)
        pages = [context.new_page() for _ in range(seats + 1)]
        pages[0].goto(ps.url("/"))
        for seat in range(1, seats + 1):
            pages[seat].goto(ps.url(f"/seat/{seat}"))
        caught_up(ps, *pages)
        roles: set[str] = set()
        for line in _script_lines(game):
            ps.put(Typed(line))
            caught_up(ps, *pages)
            for page in pages:
                roles.update(agree(ps, page))
        assert {"track", "tokens", *(f"seat{s}" for s in range(1, seats + 1))} <= roles
        assert ps.on_station(lambda st: st.stats.refusals) == 0
    finally:
        ps.stop()

