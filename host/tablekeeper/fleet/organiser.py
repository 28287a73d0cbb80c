"""The organiser's MQTT client: it reads every station's status and events into a ``Board`` and
sends commands. paho-mqtt runs the network loop, reconnects with back-off and keeps the
subscriptions (a fresh session re-subscribes on every connect)."""

from __future__ import annotations

import secrets
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tablekeeper.errors import ConfigError
from tablekeeper.fleet.board import Board
from tablekeeper.fleet.link import RECONNECT_MAX_S, RECONNECT_MIN_S
from tablekeeper.fleet.messages import ROOT, RemoteCommand, command_topic, encode


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


class Organiser:
    """Subscribes to ``tablekeeper/+/status`` and ``tablekeeper/+/events``; ``send`` publishes a command."""

    def __init__(self, login: BrokerLogin, board: Board) -> None:
        self.login = login
        self.board = board
        self.connected = threading.Event()
        self.refused: str | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"tablekeeper-organiser-{secrets.token_hex(3)}",
                                  protocol=MQTTProtocolVersion.MQTTv311)
        if login.username is not None:
            self.client.username_pw_set(login.username, login.password)
        if login.tls:
            self.client.tls_set(ca_certs=login.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
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

    def send(self, station: str, command: RemoteCommand) -> None:
        self.client.publish(command_topic(station), encode(command), qos=1)

    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: ReasonCode,
                    _properties: Properties | None) -> None:
        if reason.is_failure:
            self.refused = f"the broker refused the login: {reason}"
            return
        client.subscribe([(f"{ROOT}/+/status", 1), (f"{ROOT}/+/events", 1)])
        self.connected.set()

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, _reason: ReasonCode,
                       _properties: Properties | None) -> None:
        self.connected.clear()

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.board.receive(message.topic, bytes(message.payload))


def settle(board: Board, *, quiet_s: float = 0.5, at_most_s: float = 3.0) -> None:
    """Wait until the retained messages have arrived: no change for ``quiet_s``, never past ``at_most_s``."""
    deadline = time.monotonic() + at_most_s
    version = board.version
    while time.monotonic() < deadline:
        now = board.wait_changed(version, min(quiet_s, max(0.0, deadline - time.monotonic())))
        if now == version:
            return
        version = now
