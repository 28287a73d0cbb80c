"""One open counter port: greeting, acknowledgements, retransmission, heartbeat and liveness, on the
counter wire protocol (``hw.protocol``). What the board reports goes to the link's host
(``hw.counter_boards.CounterBoards``), which knows the boards across unplugs."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from tablekeeper.errors import HardwareError, ProtocolError
from tablekeeper.hw import protocol as p
from tablekeeper.hw.counter_ports import SerialPort

log = logging.getLogger("tablekeeper.hw.counters")

# An idle link beats once per heartbeat period, not once from each end: the host answers each of the
# counter's heartbeats as it arrives, in the same wake, and sends one of its own only after 1.5 periods
# of silence (the counter stopped beating), still well inside the counter's timeout.
OWN_BEAT = 1.5


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """How often an unidentified board is greeted, how long it has to answer, the heartbeat (as the
    firmware's HEARTBEAT_MS and HOST_TIMEOUT_MS: a quiet idle link) and the silence that drops a link."""

    hello_interval_s: float = 0.25
    greeting_timeout_s: float = 3.0
    heartbeat_s: float = 4.0
    silence_timeout_s: float = 10.0


class LinkHost(Protocol):
    """Where a link reports what its board said (``CounterBoards``), and the timing it keeps."""

    timing: LinkTiming
    session_id: int

    def wrong_version(self, device: str, version: int) -> None: ...

    def identified(self, link: CounterLink, now_s: float) -> None: ...

    def changed(self, link: CounterLink, change: p.Change, now_s: float) -> None: ...

    def rolled(self, link: CounterLink, roll: p.Roll, now_s: float) -> None: ...

    def claimed(self, link: CounterLink, now_s: float) -> None: ...


class CounterLink:
    """One open port: greeting, acknowledgements, retransmission, heartbeat and liveness."""

    def __init__(self, device: str, port: SerialPort, host: LinkHost, now_s: float) -> None:
        self.device = device
        self.port = port
        self._host = host
        self._splitter = p.FrameSplitter()
        self._outbox = p.Outbox()
        self.ident: p.Ident | None = None
        self.seat = 0
        self.opened_at_s = now_s
        self.last_rx_s = now_s
        self._last_tx_s = -1e9
        self._last_hello_s = -1e9
        self.errors_received = 0
        self.broken = ""
        self.drop_reason = "unplugged"
        self.reliable_sent = 0  # messages that need an acknowledgement, ever (the simulator waits on them)

    @property
    def ready(self) -> bool:
        return self.ident is not None

    def _send(self, frame: bytes, now_s: float) -> None:
        if self.broken:
            return
        try:
            self.port.write(frame)
        except (OSError, ValueError) as exc:  # noticed by the next pump, on the polling thread
            self.broken = f"write failed: {exc}"
            return
        self._last_tx_s = now_s

    def send_reliable(self, key: tuple[int, int], msg_type: p.MsgType, body: bytes, now_s: float) -> None:
        self.reliable_sent += 1
        self._send(self._outbox.add(key, msg_type, body, now_s), now_s)

    def send_set(self, slot: int, value: int, limit: int, rev_seen: int, now_s: float) -> None:
        self.send_reliable((p.MsgType.SET, slot), p.MsgType.SET, p.set_body(slot, value, limit, rev_seen), now_s)

    def send_seat(self, seat: int, now_s: float) -> None:
        self.seat = seat
        self.send_reliable((p.MsgType.SEAT, 0), p.MsgType.SEAT, bytes((seat,)), now_s)

    def pending(self) -> int:
        return len(self._outbox)

    @property
    def outbox_seq(self) -> int:
        return self._outbox.last_seq

    def continue_seq(self, seq: int) -> None:
        self._outbox.continue_from(seq)

    @property
    def dropped_frames(self) -> int:
        """Frames that failed COBS, CRC or length checks (noise, truncation, bit flips)."""
        return self._splitter.dropped

    def pump(self, now_s: float) -> None:
        """Read what has arrived, handle it, then greet, retransmit and heartbeat as due.
        Raises HardwareError when the port has gone away."""
        if self.broken:
            raise HardwareError(f"counter {self.device}: {self.broken}")
        try:
            data = self.port.read(4096)
        except (OSError, ValueError) as exc:  # serial.SerialException is an OSError
            raise HardwareError(f"counter {self.device}: read failed: {exc}") from exc
        if data:
            for payload in self._splitter.feed(data):
                self._receive(payload, now_s)
        self._service(now_s)

    def _receive(self, payload: bytes, now_s: float) -> None:
        if self.broken:
            return
        self.last_rx_s = now_s
        if payload[1] == p.MsgType.ERROR and payload[0] != p.PROTOCOL_VERSION:
            return  # never answer an error: two mismatched ends must not ping-pong
        try:
            message = p.parse(payload)
        except p.FrameRejected as exc:
            self._rejected(exc, payload[0], now_s)
            return
        kind = message.type
        if kind is p.MsgType.ACK:
            self._outbox.acknowledge(message.body[0])
        elif kind is p.MsgType.IDENT:
            self._identify(message.body, now_s)
        elif kind is p.MsgType.HEARTBEAT:
            if self.ident is not None and now_s - self._last_tx_s >= self._host.timing.heartbeat_s / 2:
                self._heartbeat(now_s)  # answered in this wake: the host's own beat is then never due
        elif kind is p.MsgType.ERROR:
            self.errors_received += 1
            log.warning("counter %s reported %s", self.device, p.parse_error(message.body))
        else:
            self._host_bound(message, now_s)

    def _rejected(self, exc: p.FrameRejected, version: int, now_s: float) -> None:
        """A frame that does not parse is answered with an error (never executed)."""
        log.debug("counter %s: %s", self.device, exc)
        self._send(p.encode_frame(p.build(p.MsgType.ERROR, 0, p.error_body(exc.code, exc.msg_type, exc.seq))), now_s)
        if exc.code is p.ErrorCode.BAD_VERSION and self.ident is None:
            # An old (or newer) board: said once, and the link closed (retried with back-off).
            self._host.wrong_version(self.device, version)
            self.broken = f"counter protocol version {version}"
            self.drop_reason = "old firmware"

    def _identify(self, body: bytes, now_s: float) -> None:
        try:
            ident = p.parse_ident(body)
        except ProtocolError as exc:
            log.warning("counter %s: %s", self.device, exc)
            return
        if self.ident is None:
            self.ident = ident
            self._host.identified(self, now_s)
        elif ident != self.ident:
            # Another board, role or boot answering on a greeted link: nothing it sends can be
            # mapped safely, so the link is closed and greeted afresh.
            self.broken = "a different identity answered on an open link"
            self.drop_reason = "identity changed"

    def _host_bound(self, message: p.Message, now_s: float) -> None:
        """A change, roll or claim: acknowledged, then reported to the host."""
        kind = message.type
        if kind not in (p.MsgType.CHANGE, p.MsgType.ROLL, p.MsgType.CLAIM) or message.seq == 0:
            # Host-bound types only; anything else is answered, never executed.
            self._send(p.encode_frame(p.build(p.MsgType.ERROR, 0,
                                              p.error_body(p.ErrorCode.UNKNOWN_TYPE, kind, message.seq))), now_s)
            return
        if self.ident is None:
            # Not greeted yet: leave it unacknowledged, so the board still holds it and resends
            # it right after its IDENT (acknowledging it here would lose the change).
            return
        self._send(p.encode_frame(p.build(p.MsgType.ACK, 0, bytes((message.seq,)))), now_s)
        if kind is p.MsgType.CHANGE:
            self._host.changed(self, p.parse_change(message.body), now_s)
        elif kind is p.MsgType.ROLL:
            try:
                roll = p.parse_roll(message.body)
            except ProtocolError as exc:
                log.warning("counter %s: %s", self.device, exc)
                return
            self._host.rolled(self, roll, now_s)
        else:
            self._host.claimed(self, now_s)

    def _service(self, now_s: float) -> None:
        timing = self._host.timing
        if self.ident is None:
            if now_s - self._last_hello_s >= timing.hello_interval_s:
                self._last_hello_s = now_s
                self._send(p.encode_frame(p.build(p.MsgType.HELLO, 0, p.hello_body(self._host.session_id))), now_s)
            return
        for frame in self._outbox.due(now_s):
            self._send(frame, now_s)
        if now_s - self._last_tx_s >= timing.heartbeat_s * OWN_BEAT:
            self._heartbeat(now_s)

    def _heartbeat(self, now_s: float) -> None:
        self._send(p.encode_frame(p.build(p.MsgType.HEARTBEAT, 0)), now_s)

    def next_deadline_s(self) -> float:
        """When ``pump`` next has timed work: a HELLO or the greeting timeout while greeting, else
        a retransmission, the heartbeat or the silence timeout."""
        timing = self._host.timing
        if self.broken:
            return float("-inf")
        if self.ident is None:
            return min(self._last_hello_s + timing.hello_interval_s, self.opened_at_s + timing.greeting_timeout_s)
        due = [self._last_tx_s + timing.heartbeat_s * OWN_BEAT, self.last_rx_s + timing.silence_timeout_s]
        resend = self._outbox.next_due_s()
        return min(due if resend is None else [*due, resend])

    def resend_pending(self, now_s: float) -> None:
        for frame in self._outbox.resend_all(now_s):
            self._send(frame, now_s)

    def close(self) -> None:
        try:
            self.port.close()
        except OSError as exc:
            log.debug("counter %s: close: %s", self.device, exc)
