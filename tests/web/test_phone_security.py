"""The phones' pages as a LAN service, on the real station loop and a real socket: the socket checks
Origin, a message and a console line are bounded in size and a socket in rate, a line from a page is
parsed as a console line (nothing evaluated, one line only), and a page reaches neither another
station's session nor the fleet (no organiser route, no message kind of its own, the organiser's lock
holds). Each protection is also shown failing with it taken out."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tablekeeper.intents import FromPage, Intent, Remote, Typed
from tablekeeper.station import intake
from tablekeeper.web import hub, phones
from tablekeeper.web.guard import Allowed
from tablekeeper.web.server import DEFAULT_LIMITS, Limits
from tests.web.phones import WAIT_S, PhoneStation

PROTECTION = pytest.mark.parametrize("protection", ["on", "protection-removed"])


@pytest.fixture
def station(tmp_path: Path) -> Iterator[PhoneStation]:
    ps = PhoneStation(tmp_path, "earthborne", seats=2, seed=7)
    try:
        yield ps
    finally:
        ps.stop()


def _socket(ps: PhoneStation, *, origin: str | None = None, secret: str | None = None,
            client: str = "phone-test-1") -> ClientConnection:
    """A page's socket, greeted: ``origin`` defaults to the page's own, ``secret`` to this run's."""
    k = ps.invitation.secret if secret is None else secret
    ws = connect(f"ws://127.0.0.1:{ps.port}/live?k={k}", max_size=None,
                 origin=origin or f"http://127.0.0.1:{ps.port}")  # type: ignore[arg-type]
    ws.send(json.dumps({"t": "hello", "client": client}))
    while (message := json.loads(ws.recv(timeout=WAIT_S)))["t"] != "hello":
        assert message["t"] == "view", message
    return ws


def _acks(ws: ClientConnection, count: int) -> dict[int, dict[str, Any]]:
    """The next ``count`` acknowledgements, by the number of the press or line each answers."""
    acks: dict[int, dict[str, Any]] = {}
    while len(acks) < count:
        message = json.loads(ws.recv(timeout=WAIT_S))
        if message["t"] == "ack":
            acks[message["seq"]] = message
    return acks


def _opens(ps: PhoneStation, **given: Any) -> bool:
    try:
        with _socket(ps, **given):
            return True
    except InvalidStatus as exc:
        assert exc.response.status_code == 403
        return False


def _lines_put(ps: PhoneStation, monkeypatch: pytest.MonkeyPatch) -> list[Intent]:
    """Every intent the page server puts on the station's queue, from now on."""
    put: list[Intent] = []
    station_put = ps.pages.hub.put

    def watched(intent: Intent) -> None:
        put.append(intent)
        station_put(intent)

    monkeypatch.setattr(ps.pages.hub, "put", watched)
    return put


@PROTECTION
def test_a_socket_from_another_sites_page_is_refused(station: PhoneStation, protection: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A page on any other site may open a socket to the box (it knows the LAN address, not the
    secret, but a leaked link must not be usable from a foreign page either): its Origin is refused."""
    if protection != "on":
        monkeypatch.setattr(Allowed, "origin_ok", lambda _self, _origin: True)
    assert _opens(station)
    assert _opens(station, origin="http://evil.example") is (protection != "on")
    assert _opens(station, origin=f"http://127.0.0.1.evil.example:{station.port}") is (protection != "on")


@PROTECTION
def test_a_socket_message_past_the_bound_closes_the_socket(tmp_path: Path, protection: str) -> None:
    limits = DEFAULT_LIMITS if protection == "on" else Limits(max_socket_message_bytes=2**24)
    ps = PhoneStation(tmp_path, "earthborne", seats=2, seed=7, limits=limits)
    try:
        with _socket(ps) as ws:
            ws.send(json.dumps({"t": "line", "seq": 1, "text": "x" * (DEFAULT_LIMITS.max_socket_message_bytes + 1)}))
            try:
                answer = _acks(ws, 1)[1]
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1009  # message too big
                answer = None
        assert (answer is None) is (protection == "on")
    finally:
        ps.stop()


@PROTECTION
def test_a_console_line_past_the_bound_never_reaches_the_station(station: PhoneStation, protection: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    long_line = "undo " + "x" * hub.MAX_LINE_CHARS  # within a socket message's bound, past a line's
    if protection != "on":
        monkeypatch.setattr(hub, "MAX_LINE_CHARS", 10**6)
    put = _lines_put(station, monkeypatch)
    with _socket(station) as ws:
        ws.send(json.dumps({"t": "line", "seq": 1, "text": long_line}))
        ack = _acks(ws, 1)[1]
    assert (not ack["kept"] and "at most" in ack["refused"]) is (protection == "on")
    assert bool([i for i in put if isinstance(i, FromPage)]) is (protection != "on")


@PROTECTION
def test_a_socket_sending_too_fast_is_told_to_slow_down(station: PhoneStation, protection: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A hundred lines at once (a stuck key, a script): past the burst each is answered "slow down"
    and not put on the station's queue, so one phone cannot starve the panel's buttons."""
    monkeypatch.setattr(hub, "MAX_IN_FLIGHT", 10**6)  # the queue's own bound apart: this is the rate's
    monkeypatch.setattr(hub, "RATE_PER_S", 0.0)  # no refill while the hundred are read, however long that takes
    if protection != "on":
        monkeypatch.setattr(hub.Bucket, "take", lambda _self, _now: True)
    put = _lines_put(station, monkeypatch)
    with _socket(station) as ws:
        for seq in range(1, 101):
            ws.send(json.dumps({"t": "line", "seq": seq, "text": "undo"}))
        acks = _acks(ws, 100)
    slowed = [seq for seq, ack in acks.items() if ack["refused"] == hub.SLOW_DOWN and not ack["kept"]]
    taken = [i for i in put if isinstance(i, FromPage)]
    assert len(taken) + len(slowed) == 100
    if protection == "on":
        assert len(taken) == hub.BURST - 1 and len(slowed) == 100 - len(taken)  # the hello took one
        with _socket(station, client="phone-test-2") as later:  # the bucket refills: a calm page is heard
            later.send(json.dumps({"t": "line", "seq": 1, "text": "undo"}))
            assert _acks(later, 1)[1]["kept"]
    else:
        assert slowed == []


@PROTECTION
def test_a_line_is_parsed_as_a_console_line_and_nothing_is_evaluated(station: PhoneStation, protection: str,
                                                                     tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Code and shell in a line are a verb the game does not know (the console's own refusal); a line
    holding a line break or a control character is refused whole, so it can never forge a second
    line in the log the players read."""
    if protection != "on":
        monkeypatch.setattr(hub, "MAX_LINE_CHARS", 10**6)
        monkeypatch.setattr(hub.Hub, "intent_of", lambda _self, message: Typed(message.text))
    marker = tmp_path / "evaluated"
    hostile = [f"__import__('os').system('touch {marker}')", f"$(touch {marker})", f"next; touch {marker}",
               "{{7*7}}"]
    forged = "reveal path \"Agitated Meadowlarks\"\nundo"
    before = station.on_station(lambda st: (st.session.log_length, st.session.state))
    put = _lines_put(station, monkeypatch)
    with _socket(station) as ws:
        for seq, text in enumerate([*hostile, forged], 1):
            ws.send(json.dumps({"t": "line", "seq": seq, "text": text}))
        acks = _acks(ws, len(hostile) + 1)
    assert not marker.exists()
    for seq in range(1, len(hostile) + 1):
        assert acks[seq]["kept"] and acks[seq]["refused"], acks[seq]  # refused by the game, as `play` would
    assert station.on_station(lambda st: (st.session.log_length, st.session.state)) == before
    refused_whole = not acks[len(hostile) + 1]["kept"]
    assert refused_whole is (protection == "on")
    assert any(isinstance(i, FromPage) and "\n" in getattr(i.intent, "text", "") for i in put) is (protection != "on")


@PROTECTION
def test_another_stations_link_does_not_open_this_ones_session(station: PhoneStation, tmp_path: Path,
                                                                protection: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Two boxes at one convention: a phone with the other table's link gets nothing of this one."""
    other = PhoneStation(tmp_path / "other", "arkham", seats=2)
    try:
        if protection != "on":
            monkeypatch.setattr(phones.PhoneApp, "allowed", lambda _self, given: given is not None)
        assert other.invitation.secret != station.invitation.secret
        assert other.invitation.pin != station.invitation.pin or other.invitation.secret != station.invitation.secret
        page = http.client.HTTPConnection("127.0.0.1", station.port, timeout=WAIT_S)
        page.request("GET", f"/seat/1?k={other.invitation.secret}")
        status = page.getresponse().status
        assert (status == 401) is (protection == "on")
        assert _opens(station, secret=other.invitation.secret) is (protection != "on")
    finally:
        other.stop()


@PROTECTION
def test_a_page_reaches_nothing_of_the_fleet(station: PhoneStation, protection: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The page server has no organiser route and no message kind but a page's; and when the organiser
    locks the panel from the fleet, a page's presses and lines are refused like the panel's buttons."""
    secret = station.invitation.secret
    for method, path in (("GET", "/state"), ("POST", "/command"), ("GET", "/fleet"), ("GET", "/status")):
        page = http.client.HTTPConnection("127.0.0.1", station.port, timeout=WAIT_S)
        page.request(method, f"{path}?k={secret}", body=b"{}" if method == "POST" else None,
                     headers={"Origin": f"http://127.0.0.1:{station.port}"})
        assert page.getresponse().status in (404, 405), path
    if protection != "on":
        def unlocked(st: Any, intent: FromPage) -> None:
            intake.take(st, intent.intent)
            intent.done(None)

        monkeypatch.setattr(intake, "from_page", unlocked)
    put = _lines_put(station, monkeypatch)
    station.on_station(lambda st: setattr(st, "ui", replace(st.ui, locked=True)))  # as the fleet's lock
    before = station.on_station(lambda st: st.session.log_length)
    with _socket(station) as ws:
        for kind in ("command", "remote", "lock", "status"):
            ws.send(json.dumps({"t": kind, "seq": 1, "verb": "unlock"}))
            while (message := json.loads(ws.recv(timeout=WAIT_S)))["t"] == "view":
                pass
            assert message["t"] == "error", message
        ws.send(json.dumps({"t": "line", "seq": 1, "text": "pathdeck mountain_pass lone_tree_station"}))
        ws.send(json.dumps({"t": "press", "seq": 2, "role": "next"}))
        acks = _acks(ws, 2)
    assert all(isinstance(i, FromPage | Remote) and not (isinstance(i, Remote) and i.name != "page joined")
               for i in put)
    locked_out = all(ack["refused"] == "panel locked" for ack in acks.values())
    assert locked_out is (protection == "on")
    assert (station.on_station(lambda st: st.session.log_length) == before) is (protection == "on")

