"""What one station's password, a foreign web page or a stale message can do to the fleet, on a real
broker: each reproduction from a review, and each protection shown failing with it taken out."""

from __future__ import annotations

import http.client
import ssl
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from tablekeeper.fleet.link import FleetLink
from tablekeeper.fleet.messages import Identify, Lock, NextGame, Status, encode, status_topic
from tablekeeper.fleet.organiser import Delivery, Organiser
from tablekeeper.fleet.tls import tls_paths, write_authority
from tests.fleet.brokers import Broker, poll, wait_until
from tests.fleet.pages import page_server
from tests.fleet.stations import LiveStation, fleet_config, organiser


def tile(board, name):  # type: ignore[no-untyped-def]
    return next((t for t in board.snapshot().tiles if t.station == name), None)


def _client(broker: Broker, account: str | None, client_id: str) -> mqtt.Client:
    """A plain paho client logged in as ``account`` (what mosquitto_sub -u -P -i does)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTProtocolVersion.MQTTv311)
    if broker.secure and account is not None:
        client.username_pw_set(account, broker.password(account))
    client.connect("127.0.0.1", broker.port, 5)
    client.loop_start()
    return client


def _needs_mosquitto(broker: Broker) -> None:
    if not broker.secure:
        pytest.skip("needs Mosquitto with the generated config (the fallback broker has no accounts)")


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_another_stations_password_cannot_knock_a_station_off(make_broker: Callable[..., Broker], tmp_path: Path,
                                                              protection: str) -> None:
    """``mosquitto_sub -u t2 -P <t2's> -i tablekeeper-t1``: with client IDs bound to accounts the intruder
    gets the ID ``t2`` and t1 stays connected; without the binding it takes t1's ID and the broker
    drops t1."""
    broker = make_broker(drop=() if protection == "on" else ("use_username_as_clientid",))
    _needs_mosquitto(broker)
    one = LiveStation(broker, "t1", tmp_path).start()
    intruder = None
    try:
        wait_until(lambda: one.reporter.link.connected, "t1 connected")
        link = one.reporter.link
        before = link.stats().connects
        intruder = _client(broker, "t2", "tablekeeper-t1")
        intruder.subscribe("tablekeeper/t2/cmd")
        kicked = poll(lambda: not link.connected or link.stats().connects > before, 3.0)
        assert kicked is (protection != "on")
    finally:
        if intruder is not None:
            intruder.loop_stop()
            intruder.disconnect()
        one.stop()


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_an_oversized_status_never_reaches_the_organiser(make_broker: Callable[..., Broker],
                                                         protection: str) -> None:
    """Five 6 MB statuses from one station once took the page from 27 to 129 MB: the broker now refuses
    any packet past ``max_packet_size`` (and drops its sender), and the board ignores a payload past
    16 kB even if one arrives."""
    broker = make_broker(drop=() if protection == "on" else ("max_packet_size",))
    _needs_mosquitto(broker)
    client, board = organiser(broker)
    sizes: list[int] = []
    passed_on = client.client.on_message

    def record(c: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        sizes.append(len(message.payload))
        passed_on(c, userdata, message)

    client.client.on_message = record
    station = _client(broker, "t1", "tablekeeper-t1")
    try:
        big = encode(Status(station="t1", mode="playing", last_error="x" * 6_000_000))
        station.publish(status_topic("t1"), big, qos=1, retain=True)
        arrived = poll(lambda: any(size > 1_000_000 for size in sizes), 5.0)
        assert arrived is (protection != "on")
        assert tile(board, "t1") is None  # the board's own bound, either way
    finally:
        station.loop_stop()
        station.disconnect()
        client.close()


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_retained_command_does_not_run_at_the_next_start(broker: Broker, tmp_path: Path, protection: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A retained ``lock`` once ran again at every start of the station: the station now ignores a
    retained command (and the organiser clears any it finds: the next test)."""
    if protection != "on":
        monkeypatch.setattr(FleetLink, "_stale", staticmethod(lambda message: False))
    sender = _client(broker, "organiser", "tablekeeper-sender")
    sender.publish("tablekeeper/t1/cmd", encode(Lock(id="old")), qos=1, retain=True).wait_for_publish(5)
    sender.loop_stop()
    sender.disconnect()
    one = LiveStation(broker, "t1", tmp_path).start()
    try:
        wait_until(lambda: one.reporter.link.connected, "t1 connected")
        locked = poll(lambda: one.station.ui.locked, 2.0)
        assert locked is (protection != "on")
        assert one.reporter.link.retained_ignored == (1 if protection == "on" else 0)
    finally:
        one.stop()


def test_the_organiser_clears_a_retained_command(broker: Broker) -> None:
    """No command topic keeps a retained message once the organiser has seen it (an empty retained
    message deletes it), so a station that missed the check above would still find none."""
    sender = _client(broker, "organiser", "tablekeeper-sender")
    sender.publish("tablekeeper/t1/cmd", encode(Lock(id="old")), qos=1, retain=True).wait_for_publish(5)
    sender.loop_stop()
    sender.disconnect()
    client, _board = organiser(broker)
    try:
        wait_until(lambda: client.cleared_retained == 1, "the organiser clearing the retained command")
    finally:
        client.close()
    seen: list[bytes] = []
    checker = _client(broker, "organiser", "tablekeeper-checker")
    try:
        checker.on_message = lambda _c, _u, message: seen.append(bytes(message.payload))
        checker.subscribe("tablekeeper/t1/cmd", qos=1)
        assert not poll(lambda: seen, 1.0), seen
    finally:
        checker.loop_stop()
        checker.disconnect()


def _naive_deliver(self: Organiser, station: str, command: Any) -> Future[Delivery]:
    """The organiser as it was: publish and call it sent."""
    self.send(station, command)
    future: Future[Delivery] = Future()
    future.set_result(Delivery(outcome="done", station=station, cmd="lock", id=""))
    return future


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_command_is_done_only_when_its_station_answers(broker: Broker, tmp_path: Path, protection: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """"Sent" used to mean published; a command to an offline station, or past the broker's queue,
    vanished. Now: done or refused as the station says, else not delivered (offline, queue full, no
    answer)."""
    if protection != "on":
        monkeypatch.setattr(Organiser, "deliver", _naive_deliver)
    client, board = organiser(broker, answer_s=1.0)
    try:
        offline = client.deliver("t1", Lock()).result(5)
        assert (offline.outcome == "offline") is (protection == "on")
        if protection != "on":
            return  # the page would have said "sent" to a station that is not there
        one = LiveStation(broker, "t1", tmp_path).start()
        try:
            wait_until(lambda: (t := tile(board, "t1")) is not None and t.online, "t1 online")
            done = client.deliver("t1", Lock()).result(5)
            assert done.outcome == "done" and done.cmd == "lock" and one.station.ui.locked
            refused = client.deliver("t1", NextGame(game="arkham")).result(5)
            assert (refused.outcome, refused.reason) == ("refused", "not in demo mode")
            one.reporter.link.on_command = lambda command: None  # the station hears nothing more
            futures = [client.deliver("t1", Identify(seconds=1)) for _ in range(5)]
            assert futures[4].result(1).outcome == "queue_full"
            assert {f.result(5).outcome for f in futures[:4]} == {"no_answer"}
        finally:
            one.stop()
    finally:
        client.close()


def test_the_reproduced_rebinding_request_does_not_reach_the_station(broker: Broker, tmp_path: Path) -> None:
    """``curl -H 'Host: evil.example:PORT' -d '{"station":"t1","cmd":"lock"}' .../command`` once
    returned 202 and the station obeyed; now it is refused and the station never hears of it. The same
    request naming the page's own host is answered only once t1 has acknowledged it."""
    client, board = organiser(broker)
    server = page_server(board, client)
    one = LiveStation(broker, "t1", tmp_path).start()
    try:
        wait_until(lambda: (t := tile(board, "t1")) is not None and t.online, "t1 online")
        for host, expected in ((f"evil.example:{server.port}", 400), (f"127.0.0.1:{server.port}", 200)):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("POST", "/command", body=b'{"station": "t1", "cmd": "lock"}',
                         headers={"Host": host, "Content-Type": "application/json"})
            answer = conn.getresponse()
            body = answer.read()
            conn.close()
            assert answer.status == expected, body
            if expected == 400:
                time.sleep(0.5)
                assert not one.station.ui.locked
            else:
                assert b'"outcome":"done"' in body and one.station.ui.locked
    finally:
        server.stop()
        client.close()
        one.stop()


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_station_accepts_only_the_broker_its_ca_signed(make_broker: Callable[..., Broker], tmp_path: Path,
                                                         protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``broker-config --tls`` the broker speaks only TLS; a station holding the fleet's CA connects
    and reports; one holding another CA (an impostor's broker, as far as it can tell) does not. With
    the certificate check taken out it would talk to anyone."""
    broker = make_broker(tls_names=("127.0.0.1", "localhost"))
    _needs_mosquitto(broker)
    impostor = tls_paths(tmp_path / "impostor")
    write_authority(impostor, ["127.0.0.1"])
    if protection != "on":
        monkeypatch.setattr(FleetLink, "_secure", lambda self: (
            self.client.tls_set(ca_certs=None, cert_reqs=ssl.CERT_NONE), self.client.tls_insecure_set(True)))
    client, board = organiser(broker)
    good = FleetLink(fleet_config(broker, "t1"), on_command=lambda c: None, will=Status(station="t1"))
    wrong = FleetLink(fleet_config(broker, "t2", ca_file=str(impostor.ca_certificate)), on_command=lambda c: None,
                      will=Status(station="t2"))
    try:
        good.start()
        assert good.wait_connected(10)
        good.offer(Status(station="t1", mode="attract"))
        wait_until(lambda: tile(board, "t1") is not None, "t1's status over TLS")
        wrong.start()
        assert wrong.wait_connected(3) is (protection != "on")
    finally:
        good.close()
        wrong.close()
        client.close()


def test_the_status_command_runs_beside_the_page(broker: Broker, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """With client IDs bound to accounts, two connections of one account take turns knocking each other
    off; ``fleet status`` therefore logs in as the read-only observer, and the page's link stays up."""
    from tablekeeper import cli

    _needs_mosquitto(broker)
    client, _board = organiser(broker)
    one = LiveStation(broker, "t1", tmp_path).start()
    try:
        wait_until(lambda: one.reporter.link.connected, "t1 connected")
        password_file = broker.password_file("observer")
        assert password_file is not None
        code = cli.main(["fleet", "status", "--broker", "127.0.0.1", "--port", str(broker.port),
                         "--password-file", password_file])
        out = capsys.readouterr().out
        assert code == 0 and "t1 " in out and "table 1" in out
        assert client.connected.is_set() and not poll(lambda: not client.connected.is_set(), 1.0)
    finally:
        one.stop()
        client.close()
