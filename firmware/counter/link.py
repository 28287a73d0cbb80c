"""The counter's end of the protocol: validation, acknowledgement, retransmission, heartbeat.

Reliable messages wait in an outbox keyed by what they describe (one entry per slot, one roll,
one claim), so a newer value replaces an unsent older one and the outbox never grows past a
handful of entries. Values are absolute, so a retransmitted duplicate is harmless.
"""

from micropython import const

from counter import messages as m
from counter.framing import MAX_PAYLOAD, FrameCodec, FrameReader
from counter.ticks import ticks_diff

TYPE_CHECKING = False
if TYPE_CHECKING:
    from counter.interfaces import HostRequests, Transport

RETRANSMIT_MS = const(120)
RETRANSMIT_MAX_MS = const(1000)
# An idle link is quiet: a HEARTBEAT only after 4 s with nothing sent; the host answers it at once, so
# an untouched counter wakes about 30 times a minute and the host's thread 15. A pulled cable is seen
# at once by the host (the port closes) and unpowers the counter; the timeout catches a hung end, and
# outlasts one lost beat.
HEARTBEAT_MS = const(4000)
HOST_TIMEOUT_MS = const(10000)
_SEQ_WINDOW = const(24)  # executed seqs remembered behind the newest (a bit mask: a small int, no allocation)
_SEQ_MASK = const(0xFFFFFF)
_SEQ_HALF = const(127)  # of the 255 seqs (1..255), this many ahead of the newest are new, the rest are behind
_READ_CHUNK = const(64)
_MAX_READS = const(4)  # chunks per poll: a port that never stops sending cannot keep poll from returning


class Identity:
    """What a counter says about itself in IDENT."""

    def __init__(self, uid: bytes, role: int, version: tuple, caps: int, boot_id: int, slots: int) -> None:
        if len(uid) < 1 or len(uid) > m.MAX_UID:
            raise ValueError("uid must be 1..16 bytes")
        self.uid = uid
        self.role = role
        self.version = version
        self.caps = caps
        self.boot_id = boot_id & 0xFFFF
        self.slots = slots


class HostLink:
    """Talks to the host over a byte transport with ``read_into(buf) -> n`` and ``write(bytes)``.

    ``handler`` receives validated host requests: ``on_set(slot, value, limit, rev_seen)``,
    ``on_roll_request(count, sides)``, ``on_seat(seat)`` and ``on_repl()``; each returns True
    when the request was acceptable. ``now_ms`` is always passed in.
    """

    def __init__(self, transport: "Transport", identity: Identity, handler: "HostRequests", now_ms: int) -> None:
        self._transport = transport
        self._identity = identity
        self._handler = handler
        self._codec = FrameCodec()
        self._reader = FrameReader(self._codec)
        self._rx = bytearray(_READ_CHUNK)
        self._tx = bytearray(MAX_PAYLOAD)
        self._last_seq = 0  # newest executed seq (0: none yet)
        self._seen_bits = 0  # bit i: seq ``_last_seq - i - 1`` (on the 1..255 circle) was executed
        self._host_id = -1  # the session id of the host whose HELLO we answered last
        self._seq = 0
        self._outbox: dict = {}
        self._last_rx_ms = now_ms
        self._last_tx_ms = now_ms
        self.host_present = False
        self.errors_sent = 0

    # -- sending -----------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self._seq = self._seq % 255 + 1
        return self._seq

    def _emit(self, length: int, now_ms: int) -> bytes:
        frame = self._codec.encode(self._tx, length)
        self._transport.write(frame)
        self._last_tx_ms = now_ms
        return frame

    def _header(self, msg_type: int, seq: int) -> None:
        tx = self._tx
        tx[0] = m.PROTOCOL_VERSION
        tx[1] = msg_type
        tx[2] = seq

    def _send_reliable(self, key: int, length: int, now_ms: int) -> None:
        frame = self._emit(length, now_ms)
        self._outbox[key] = [self._tx[2], frame, now_ms, RETRANSMIT_MS]

    def send_change(self, slot: int, value: int, rev: int, now_ms: int) -> None:
        self._header(m.CHANGE, self._next_seq())
        tx = self._tx
        tx[3] = slot
        m.put_u16(tx, 4, value)
        m.put_u16(tx, 6, rev)
        self._send_reliable((m.CHANGE << 8) | slot, 8, now_ms)

    def send_roll(self, roll_id: int, sides: int, faces: bytearray, count: int, now_ms: int) -> None:
        self._header(m.ROLL, self._next_seq())
        tx = self._tx
        m.put_u16(tx, 3, roll_id)
        tx[5] = sides
        tx[6] = count
        for index in range(count):
            tx[7 + index] = faces[index]
        self._send_reliable(m.ROLL << 8, 7 + count, now_ms)

    def send_claim(self, now_ms: int) -> None:
        self._header(m.CLAIM, self._next_seq())
        self._send_reliable(m.CLAIM << 8, 3, now_ms)

    def _send_ack(self, seq: int, now_ms: int) -> None:
        self._header(m.ACK, 0)
        self._tx[3] = seq
        self._emit(4, now_ms)

    def _send_error(self, code: int, msg_type: int, seq: int, now_ms: int) -> None:
        self._header(m.ERROR, 0)
        tx = self._tx
        tx[3] = code
        tx[4] = msg_type
        tx[5] = seq
        self._emit(6, now_ms)
        self.errors_sent += 1

    def _send_ident(self, now_ms: int) -> None:
        ident = self._identity
        self._header(m.IDENT, 0)
        tx = self._tx
        uid = ident.uid
        tx[3] = len(uid)
        pos = 4
        for byte in uid:
            tx[pos] = byte
            pos += 1
        tx[pos] = ident.role
        tx[pos + 1] = ident.version[0]
        tx[pos + 2] = ident.version[1]
        tx[pos + 3] = ident.version[2]
        tx[pos + 4] = ident.caps
        m.put_u16(tx, pos + 5, ident.boot_id)
        tx[pos + 7] = ident.slots
        self._emit(pos + 8, now_ms)

    def pending(self) -> int:
        """How many reliable messages still wait for an acknowledgement."""
        return len(self._outbox)

    # -- receiving ---------------------------------------------------------------------------
    def poll(self, now_ms: int) -> int:
        """Read what the transport has (at most a few chunks, so a flood cannot starve the buttons
        or the watchdog), handle whole frames, then retransmit and heartbeat. Returns bytes read."""
        total = 0
        for _ in range(_MAX_READS):
            count = self._transport.read_into(self._rx)
            if not count:
                break
            total += count
            reader = self._reader
            rx = self._rx
            for index in range(count):
                length = reader.feed_byte(rx[index])
                if length > 0:
                    self._handle(reader.payload, length, now_ms)
            if count < len(rx):
                break
        self._service(now_ms)
        return total

    def _handle(self, payload: bytearray, length: int, now_ms: int) -> None:
        version = payload[0]
        msg_type = payload[1]
        seq = payload[2]
        self._last_rx_ms = now_ms
        self.host_present = True
        if msg_type == m.ERROR:
            return  # never answered, whatever its version: two mismatched ends must not ping-pong
        if version != m.PROTOCOL_VERSION:
            self._send_error(m.ERR_BAD_VERSION, msg_type, seq, now_ms)
            return
        if not m.is_known(msg_type):
            self._send_error(m.ERR_UNKNOWN_TYPE, msg_type, seq, now_ms)
            return
        if not m.body_length_ok(msg_type, length - 3):
            self._send_error(m.ERR_BAD_LENGTH, msg_type, seq, now_ms)
            return
        if msg_type == m.ACK:
            self._acknowledged(payload[3])
            return
        if msg_type == m.HEARTBEAT:
            return
        if msg_type == m.HELLO:
            # A new host session starts its seqs again; the same session's HELLO (a reconnect, or a
            # replayed frame) keeps the window, so nothing it already executed runs twice.
            host_id = m.get_u16(payload, 3) if length == 5 else -1
            if host_id < 0 or host_id != self._host_id:
                self._last_seq = 0
                self._seen_bits = 0
            self._host_id = host_id
            self._send_ident(now_ms)
            for entry in self._outbox.values():
                entry[2] = now_ms - RETRANSMIT_MAX_MS
                entry[3] = RETRANSMIT_MS
            return
        if msg_type not in m.TO_COUNTER or seq == 0:
            self._send_error(m.ERR_UNKNOWN_TYPE, msg_type, seq, now_ms)
            return
        if self._already_seen(seq):
            self._send_ack(seq, now_ms)  # executed before (or too old to tell): acknowledged, not run again
            return
        if not self._dispatch(msg_type, payload, length, now_ms):
            self._send_error(m.ERR_BAD_VALUE, msg_type, seq, now_ms)
            return
        self._record_seq(seq)
        self._send_ack(seq, now_ms)
        if msg_type == m.REPL:
            self._handler.on_repl()

    def _seq_ahead(self, seq: int) -> int:
        """Steps from the newest executed seq to ``seq`` on the 1..255 circle (0..254)."""
        return (seq - self._last_seq) % 255

    def _already_seen(self, seq: int) -> bool:
        """Serial-number arithmetic on the seq circle: up to half ahead of the newest is new;
        behind it, the window's bit says, and anything older than the window counts as seen."""
        if self._last_seq == 0:
            return False
        ahead = self._seq_ahead(seq)
        if ahead == 0:
            return True
        if ahead <= _SEQ_HALF:
            return False
        behind = 255 - ahead
        if behind > _SEQ_WINDOW:
            return True
        return bool(self._seen_bits & (1 << (behind - 1)))

    def _record_seq(self, seq: int) -> None:
        if self._last_seq == 0:
            self._last_seq = seq
            self._seen_bits = 0
            return
        ahead = self._seq_ahead(seq)
        if 0 < ahead <= _SEQ_HALF:
            if ahead > _SEQ_WINDOW:
                self._seen_bits = 0
            else:
                self._seen_bits = ((self._seen_bits << ahead) | (1 << (ahead - 1))) & _SEQ_MASK
            self._last_seq = seq
        elif ahead:
            self._seen_bits |= 1 << (255 - ahead - 1)

    def _dispatch(self, msg_type: int, payload: bytearray, length: int, now_ms: int) -> bool:
        handler = self._handler
        if msg_type == m.SET:
            return handler.on_set(
                payload[3], m.get_u16(payload, 4), m.get_u16(payload, 6), m.get_u16(payload, 8), now_ms
            )
        if msg_type == m.ROLL_REQUEST:
            return handler.on_roll_request(payload[3], payload[4], now_ms)
        if msg_type == m.SEAT:
            return handler.on_seat(payload[3], now_ms)
        if msg_type == m.LABEL:
            text = payload[4:length]
            if any(byte < 0x20 or byte > 0x7E for byte in text):
                return False  # printable ASCII only: the counter's font has nothing else
            return handler.on_label(payload[3], text.decode())
        return msg_type == m.REPL

    def _acknowledged(self, seq: int) -> None:
        for key in list(self._outbox):
            if self._outbox[key][0] == seq:
                del self._outbox[key]

    def next_wake_ms(self, now_ms: int) -> int:
        """Milliseconds until ``poll`` has timed work (a retransmission, the heartbeat, the host's
        timeout), for a scheduler that sleeps until then or until a byte arrives."""
        wait = HEARTBEAT_MS - ticks_diff(now_ms, self._last_tx_ms)
        if self.host_present:
            wait = min(wait, HOST_TIMEOUT_MS + 1 - ticks_diff(now_ms, self._last_rx_ms))
        for entry in self._outbox.values():
            wait = min(wait, entry[3] - ticks_diff(now_ms, entry[2]))
        return max(0, wait)

    def _service(self, now_ms: int) -> None:
        if self.host_present and ticks_diff(now_ms, self._last_rx_ms) > HOST_TIMEOUT_MS:
            self.host_present = False
        for entry in self._outbox.values():
            if ticks_diff(now_ms, entry[2]) >= entry[3]:
                self._transport.write(entry[1])
                self._last_tx_ms = now_ms
                entry[2] = now_ms
                entry[3] = min(entry[3] * 2, RETRANSMIT_MAX_MS)
        if ticks_diff(now_ms, self._last_tx_ms) >= HEARTBEAT_MS:
            self._header(m.HEARTBEAT, 0)
            self._emit(3, now_ms)
