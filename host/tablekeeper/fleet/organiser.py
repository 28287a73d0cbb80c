"""The organiser's MQTT client: it reads every station's status and events into a ``Board`` and
delivers commands. paho-mqtt runs the network loop, reconnects with back-off and keeps the
subscriptions (a fresh session re-subscribes on every connect).

A command counts as delivered only when its station answers it (an ``ack`` or a ``refused`` event
carrying the command's id): a station the board shows offline is not sent anything, a station with
``MAX_PENDING`` commands unanswered is not sent more, and one that stays silent is reported so.
A retained message on a command topic (the organiser's tools never send one) is cleared, so no
station can find a stale command at its next start.
"""

from __future__ import annotations

import secrets
import socket
import ssl
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Final, Literal

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tablekeeper.errors import ConfigError
from tablekeeper.fleet.board import Board
from tablekeeper.fleet.link import RECONNECT_MAX_S, RECONNECT_MIN_S
from tablekeeper.fleet.messages import (
    ROOT,
    RemoteCommand,
    command_name,
    command_topic,
    decode_event,
    encode,
    station_of,
)

MAX_PENDING: Final = 4
"""Unanswered commands one station may have at once; more are refused as "queue full"."""
ANSWER_S: Final = 5.0
MAX_OUTGOING: Final = 64  # paho's own queue of unsent publishes while the broker is slow

Outcome = Literal["done", "refused", "offline", "queue_full", "no_answer", "no_broker"]


class Delivery(msgspec.Struct, frozen=True, kw_only=True):
    """What became of one command: ``done`` (the station acknowledged it), ``refused`` (it said why not,
    in ``reason``), or one of the ways it was not delivered."""

    outcome: Outcome
    station: str
    cmd: str
    id: str
    reason: str | None = None

    @property
    def delivered(self) -> bool:
        return self.outcome in ("done", "refused")


@dataclass(frozen=True, slots=True)
class BrokerLogin:
    """How the organiser reaches the broker (``tablekeeper fleet serve|status --broker ...``)."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None
    keepalive_s: int = 30


def check_resolvable(host: str, port: int) -> None:
    """One ``ConfigError`` line when the broker's name does not resolve: a typo cannot heal by waiting."""
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConfigError(f"--broker {host}: no such host ({exc.strerror}); check the name") from None
    except UnicodeError:
        raise ConfigError(f"--broker {host}: not a host name") from None


class Organiser:
    """Subscribes to every station's status and events (and command topics, to clear retained ones)."""

    def __init__(self, login: BrokerLogin, board: Board, *, answer_s: float = ANSWER_S) -> None:
        self.login = login
        self.board = board
        self.answer_s = answer_s
        self.connected = threading.Event()
        self.refused: str | None = None
        self.cleared_retained = 0
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}  # by command id
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"tablekeeper-organiser-{secrets.token_hex(3)}",
                                  protocol=MQTTProtocolVersion.MQTTv311)
        if login.username is not None:
            self.client.username_pw_set(login.username, login.password)
        if login.tls:
            self.client.tls_set(ca_certs=login.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
        self.client.max_queued_messages_set(MAX_OUTGOING)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> None:
        self.client.connect_async(self.login.host, self.login.port, self.login.keepalive_s)
        self.client.loop_start()

    def wait_connected(self, timeout_s: float) -> None:
        """Block until connected; a refused login or an unreachable broker is one ``ConfigError`` line."""
        if not self.connected.wait(timeout_s):
            why = self.refused or f"no answer from {self.login.host}:{self.login.port} within {timeout_s:g} s"
            raise ConfigError(f"fleet broker: {why}")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        with self._lock:
            pending, self._pending = self._pending, {}
        for command_id in pending:
            self._settle_entry(pending[command_id], command_id, "no_broker")

    def send(self, station: str, command: RemoteCommand) -> None:
        """Publish without waiting for the answer (the tests' and scripts' way)."""
        self.client.publish(command_topic(station), encode(command), qos=1)

    def deliver(self, station: str, command: RemoteCommand) -> Future[Delivery]:
        """Send ``command`` to ``station``; the future holds what became of it within ``answer_s``."""
        if not command.id:
            command = msgspec.structs.replace(command, id=secrets.token_hex(6))
        name = command_name(command)
        future: Future[Delivery] = Future()

        def answer(outcome: Outcome, reason: str | None = None) -> Future[Delivery]:
            future.set_result(Delivery(outcome=outcome, station=station, cmd=name, id=command.id, reason=reason))
            return future

        if not self.connected.is_set():
            return answer("no_broker")
        tile = next((t for t in self.board.snapshot().tiles if t.station == station), None)
        if tile is None or not tile.online:
            return answer("offline")
        with self._lock:
            if sum(1 for p in self._pending.values() if p.station == station) >= MAX_PENDING:
                return answer("queue_full")
            self._pending[command.id] = _Pending(station, name, future)
        info = self.client.publish(command_topic(station), encode(command), qos=1)
        if info.rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
            self._settle(command.id, "queue_full" if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE else "no_broker")
            return future
        timer = threading.Timer(self.answer_s, self._settle, args=(command.id, "no_answer"))
        timer.daemon = True
        timer.start()
        future.add_done_callback(lambda _f: timer.cancel())
        return future

    def _settle(self, command_id: str, outcome: Outcome, reason: str | None = None) -> None:
        with self._lock:
            entry = self._pending.pop(command_id, None)
        if entry is not None:
            self._settle_entry(entry, command_id, outcome, reason)

    @staticmethod
    def _settle_entry(entry: _Pending, command_id: str, outcome: Outcome, reason: str | None = None) -> None:
        if not entry.future.done():
            entry.future.set_result(Delivery(outcome=outcome, station=entry.station, cmd=entry.cmd, id=command_id,
                                             reason=reason))

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: ReasonCode,
                    _properties: Properties | None) -> None:
        if reason.is_failure:
            self.refused = f"the broker refused the login: {reason}"
            return
        client.subscribe([(f"{ROOT}/+/status", 1), (f"{ROOT}/+/events", 1), (f"{ROOT}/+/cmd", 1)])
        self.connected.set()

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, _reason: ReasonCode,
                       _properties: Properties | None) -> None:
        self.connected.clear()

    def _on_message(self, client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = station_of(message.topic)
        if where is not None and where[1] == "cmd":
            if message.retain and message.payload:
                client.publish(message.topic, b"", qos=1, retain=True)  # an empty retained message clears it
                self.cleared_retained += 1
            return
        payload = bytes(message.payload)
        if self.board.receive(message.topic, payload) and where is not None and where[1] == "events":
            event = decode_event(payload)
            if event is not None and event.id and event.kind in ("ack", "refused"):
                self._answered(event.station, event.id, "done" if event.kind == "ack" else "refused", event.reason)

    def _answered(self, station: str, command_id: str, outcome: Outcome, reason: str | None) -> None:
        with self._lock:
            entry = self._pending.get(command_id)
            if entry is None or entry.station != station:
                return  # not ours, or another station answering for this one
            del self._pending[command_id]
        self._settle_entry(entry, command_id, outcome, reason)


@dataclass(frozen=True, slots=True)
class _Pending:
    station: str
    cmd: str
    future: Future[Delivery]


def settle(board: Board, *, quiet_s: float = 0.5, at_most_s: float = 3.0) -> None:
    """Wait until the retained messages have arrived: no change for ``quiet_s``, never past ``at_most_s``."""
    deadline = time.monotonic() + at_most_s
    version = board.version
    while time.monotonic() < deadline:
        now = board.wait_changed(version, min(quiet_s, max(0.0, deadline - time.monotonic())))
        if now == version:
            return
        version = now
