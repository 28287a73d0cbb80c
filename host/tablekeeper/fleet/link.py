"""The station's MQTT link: paho-mqtt does the protocol, this thread feeds it from a bounded queue.

The station thread only ever calls ``offer`` (a non-blocking put; when the queue is full the
newest status replaces nothing and the offer is counted as dropped), so a broker that is down or
slow cannot hold up the table. paho's own network thread connects, keeps alive, reconnects with
back-off and hands the broker the retained Last Will; this module's thread re-publishes the latest
status after every reconnect and as a heartbeat.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import msgspec
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tablekeeper.fleet.config import FleetConfig, read_password
from tablekeeper.fleet.messages import (
    Event,
    Refusal,
    RemoteCommand,
    Status,
    command_topic,
    decode_command,
    encode,
    events_topic,
    status_topic,
)
from tablekeeper.supervisor import Liveness, Supervisor, Worker

log = logging.getLogger(__name__)

QUEUE_SIZE: Final = 64
"""Pending events and statuses; a station produces a handful a minute, so a full queue means a dead link."""
RECONNECT_MIN_S: Final = 1
RECONNECT_MAX_S: Final = 30
MAX_OFFLINE_MESSAGES: Final = 100  # paho's own queue of QoS 1 messages while disconnected
BEAT_S: Final = 2.0  # the publishing loop wakes at least this often to say it is alive
WEDGED_AFTER_S: Final = 10.0
BACKLOG: Final = 32  # events kept while the broker is away (the oldest go first); statuses need only the latest


class _QuietClient(mqtt.Client):
    """paho's client, its network thread waking for keepalive checks every ``loop_s`` instead of every
    second (paho's default), which is most of an idle station's fleet cost on a Pi Zero; a publish
    still wakes the thread at once through paho's own socket pair."""

    loop_s = 1.0

    def _thread_main(self) -> None:
        try:
            self.loop_forever(timeout=self.loop_s, retry_first_connection=True)
        finally:
            self._thread = None


@dataclass(frozen=True, slots=True)
class LinkStats:
    """What the link did; the status and the benchmark read it."""

    connected: bool
    connects: int
    published: int
    dropped: int
    refused_by_broker: int
    last_refusal: str | None


class FleetLink:
    """One station's connection to the fleet broker.

    ``on_command(command)`` runs on paho's thread for each well-formed command (the station turns
    it into an intent on its own queue); malformed ones are refused on the events topic here.
    """

    def __init__(self, config: FleetConfig, *, on_command: Callable[[RemoteCommand], None],
                 will: Status, password: str | None = None, wall_clock: Callable[[], float] = time.time,
                 monotonic: Callable[[], float] = time.monotonic, queue_size: int = QUEUE_SIZE) -> None:
        self.config = config
        self.on_command = on_command
        self.on_link_change: Callable[[], None] | None = None  # paho's thread: connected or lost (wake the station)
        self.wall_clock = wall_clock
        self.monotonic = monotonic
        self.started_s = monotonic()  # uptime counts from here, on a clock no time step moves
        self.retained_ignored = 0
        self._queue: queue.Queue[Status | Event | None] = queue.Queue(maxsize=queue_size)
        self._latest: Status | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = False
        self._drained = threading.Event()
        self.network_restarts = 0
        self._connected = threading.Event()
        self._connects = 0
        self._published = 0
        self._dropped = 0
        self._refused = 0
        self._last_refusal: str | None = None
        self._backlog: deque[Event] = deque(maxlen=BACKLOG)  # only the fleet thread touches it
        self._resend = threading.Event()  # set on (re)connect: the thread re-publishes the latest status
        self._next_beat_s = 0.0
        protocol = MQTTProtocolVersion.MQTTv5 if config.mqtt == "5" else MQTTProtocolVersion.MQTTv311
        self.client = _QuietClient(CallbackAPIVersion.VERSION2, client_id=f"tablekeeper-{config.station}",
                                   protocol=protocol)
        self.client.loop_s = min(5.0, config.keepalive_s / 3)  # a keepalive ping is never late
        if config.username is not None:
            if password is None and config.password_file is not None:
                password = read_password(config.password_file)
            self.client.username_pw_set(config.username, password)
        if config.tls:
            self._secure()
        self.client.will_set(status_topic(config.station), encode(will), qos=1, retain=True)
        self.client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
        self.client.max_queued_messages_set(MAX_OFFLINE_MESSAGES)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish

    def _secure(self) -> None:
        """TLS that checks the broker: its certificate must chain to ``ca_file`` (or the system's CAs)
        and name the host the station dials (``PROTOCOL_TLS_CLIENT`` checks both)."""
        self.client.tls_set(ca_certs=self.config.ca_file, tls_version=ssl.PROTOCOL_TLS_CLIENT)

    # --- the station thread's side ------------------------------------------------------------
    def offer(self, record: Status | Event) -> bool:
        """Queue a status or event without blocking; False (and counted) when the queue is full."""
        if isinstance(record, Status):
            with self._lock:
                self._latest = record
        try:
            self._queue.put_nowait(record)
        except queue.Full:
            with self._lock:
                self._dropped += 1
            return False
        return True

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout_s: float) -> bool:
        """Block until the first connection (a scripted run waits so its events reach the broker)."""
        return self._connected.wait(timeout_s)

    def stats(self) -> LinkStats:
        with self._lock:
            return LinkStats(self.connected, self._connects, self._published, self._dropped, self._refused,
                             self._last_refusal)

    def start(self, supervisor: Supervisor | None = None) -> None:
        """Connect in the background (a broker that is not there yet is retried with back-off).

        The publishing loop runs as the ``fleet`` worker of ``supervisor`` (restarted with back-off if
        it fails, counted in the watchdog's health), or on a thread of its own without one.
        """
        if self._started:
            return
        self._started = True
        keepalive = self.config.keepalive_s
        if self.config.mqtt == "5":
            self.client.connect_async(self.config.broker, self.config.port, keepalive, clean_start=True)
        else:
            self.client.connect_async(self.config.broker, self.config.port, keepalive)
        self.client.loop_start()
        if supervisor is not None:
            supervisor.add(Worker("fleet", self.run, wedged_after_s=WEDGED_AFTER_S))
        else:
            self._thread = threading.Thread(target=self.run, args=(Liveness(time.monotonic, self._stop),),
                                            name="fleet", daemon=True)
            self._thread.start()

    def close(self, timeout_s: float = 2.0) -> None:
        """Say goodbye: the retained status becomes the offline record (a clean exit sends no Will)."""
        self._stop.set()
        with contextlib.suppress(queue.Full):
            self._queue.put_nowait(None)
        self._drained.wait(timeout_s)
        if self.connected:
            offline = self.client.will_payload
            info = self.client.publish(status_topic(self.config.station), offline, qos=1, retain=True)
            deadline = time.monotonic() + timeout_s
            while not info.is_published() and self.connected and time.monotonic() < deadline:
                time.sleep(0.01)
        self.client.disconnect()
        self.client.loop_stop()

    # --- this module's thread -----------------------------------------------------------------
    def run(self, liveness: Liveness) -> None:
        """Publish what the station offers; restart paho's network thread if it ended (an exception in
        a callback ends it); once ``close`` asked and the queue is drained, wait to be stopped."""
        beat = self.config.heartbeat_s
        self._next_beat_s = time.monotonic() + beat
        while not liveness.stop.is_set():
            liveness.beat()
            self._keep_network_thread()
            wait_s = min(BEAT_S, max(0.0, self._next_beat_s - time.monotonic()))
            try:
                record = self._queue.get(timeout=wait_s)
            except queue.Empty:
                record = None
            if self._resend.is_set():
                self._resend.clear()
                self._send_latest()
                while self._backlog and self.connected:
                    self._send(self._backlog.popleft())
            if record is not None:
                self._send(record)
            elif self._stop.is_set():
                self._drained.set()  # what was queued before close() has gone out
                liveness.stop.wait()
                return
            if time.monotonic() >= self._next_beat_s:
                self._send_latest()

    def _keep_network_thread(self) -> None:
        thread = getattr(self.client, "_thread", None)
        if not self._stop.is_set() and (thread is None or not thread.is_alive()):
            log.warning("fleet: the MQTT network thread had ended; starting it again")
            self.network_restarts += 1
            self.client.loop_start()

    def _send_latest(self) -> None:
        with self._lock:
            latest = self._latest
        if latest is not None:
            self._send(latest)

    def _send(self, record: Status | Event) -> None:
        if not self.connected:
            self._next_beat_s = time.monotonic() + self.config.heartbeat_s
            if isinstance(record, Event):
                if len(self._backlog) == self._backlog.maxlen:
                    with self._lock:
                        self._dropped += 1
                self._backlog.append(record)
            return  # the latest status goes out on reconnect, then the backlog of events
        if isinstance(record, Status):
            topic, retain = status_topic(self.config.station), True
            record = _restamp(record, self.wall_clock(), self.monotonic() - self.started_s)
            self._next_beat_s = time.monotonic() + self.config.heartbeat_s
        else:
            topic, retain = events_topic(self.config.station), False
        self.client.publish(topic, encode(record), qos=1, retain=retain)
        with self._lock:
            self._published += 1

    # --- paho's thread ------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, _userdata: Any, _flags: Any, reason: ReasonCode,
                    _properties: Properties | None) -> None:
        if reason.is_failure:
            with self._lock:
                self._last_refusal = f"broker refused the connection: {reason}"
            return
        client.subscribe(command_topic(self.config.station), qos=1)
        with self._lock:
            self._connects += 1
        self._connected.set()
        self._resend.set()
        with contextlib.suppress(queue.Full):
            self._queue.put_nowait(None)  # wake the thread to re-publish the status now
        if self.on_link_change is not None:
            self.on_link_change()

    def _on_disconnect(self, _client: mqtt.Client, _userdata: Any, _flags: Any, _reason: ReasonCode,
                       _properties: Properties | None) -> None:
        self._connected.clear()
        if self.on_link_change is not None:
            self.on_link_change()

    def _on_publish(self, _client: mqtt.Client, _userdata: Any, _mid: int, reason: ReasonCode,
                    _properties: Properties | None) -> None:
        if reason.is_failure:  # MQTT 5: e.g. "Not authorized" when the ACL refuses the topic
            with self._lock:
                self._refused += 1
                self._last_refusal = f"broker refused a publish: {reason}"

    @staticmethod
    def _stale(message: mqtt.MQTTMessage) -> bool:
        """A retained command was kept by the broker from before this connection: meant for another moment."""
        return bool(message.retain)

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic != command_topic(self.config.station):
            return
        if self._stale(message):
            with self._lock:
                self.retained_ignored += 1
            log.warning("fleet: ignored a retained command on %s (commands are never retained)", message.topic)
            return
        command = decode_command(message.payload)
        if isinstance(command, Refusal):
            self.offer(Event(station=self.config.station, kind="refused", at=self.wall_clock(),
                             cmd=command.cmd or None, id=command.id or None, reason=command.reason))
            return
        self.on_command(command)


def _restamp(status: Status, at: float, uptime_s: float) -> Status:
    """The status as sent now: the wall-clock time (for reading only) and the monotonic uptime."""
    return msgspec.structs.replace(status, at=round(at, 3), uptime_s=max(0, int(uptime_s)))
