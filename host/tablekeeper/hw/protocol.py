"""The counter wire protocol, host side (version 2; docs/protocol.md is the contract).

A frame is ``0x00, COBS(payload + CRC-16/GENIBUS big-endian), 0x00``; a payload is
``version, type, seq, body``. The firmware implements the same rules in
``firmware/counter/framing.py`` and ``messages.py``; both are checked against one set of vectors.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from cobs import cobs

from tablekeeper.errors import ProtocolError

PROTOCOL_VERSION: Final = 2
LEGACY_VERSION: Final = 1  # framed with CRC-16/CCITT-FALSE; recognised only to be refused by version
MAX_PAYLOAD: Final = 40
MAX_ENCODED: Final = 44  # payload + CRC + one COBS code byte, plus one spare
MAX_UID: Final = 16
MAX_DICE: Final = 16
MAX_SIDES: Final = 100
NO_LIMIT: Final = 0xFFFF
CHECK_CRC = True  # the fault tests turn it off to show that they catch what it protects against
# Version 2's final XOR: without it a frame whose trailing delimiter became 0x01 decodes with one
# extra zero and still checks out (the fault tests set it to 0 to show they catch that).
CRC_XOROUT = 0xFFFF


class MsgType(IntEnum):
    HELLO = 0x01
    IDENT = 0x02
    CHANGE = 0x03
    SET = 0x04
    ROLL_REQUEST = 0x05
    ROLL = 0x06
    SEAT = 0x07
    CLAIM = 0x08
    ACK = 0x09
    HEARTBEAT = 0x0A
    ERROR = 0x0B
    REPL = 0x0C
    LABEL = 0x0D


class ErrorCode(IntEnum):
    UNKNOWN_TYPE = 1
    BAD_LENGTH = 2
    BAD_VERSION = 3
    BAD_VALUE = 4


RELIABLE: Final = frozenset(
    {MsgType.CHANGE, MsgType.SET, MsgType.ROLL_REQUEST, MsgType.ROLL, MsgType.SEAT, MsgType.CLAIM, MsgType.REPL,
     MsgType.LABEL}
)
MAX_LABEL: Final = 10  # characters of a LABEL's name (printable ASCII)
_FIXED_BODY: Final = {
    MsgType.CHANGE: 5,
    MsgType.SET: 7,
    MsgType.ROLL_REQUEST: 2,
    MsgType.SEAT: 1,
    MsgType.CLAIM: 0,
    MsgType.ACK: 1,
    MsgType.HEARTBEAT: 0,
    MsgType.ERROR: 3,
    MsgType.REPL: 0,
}
ROLE_NAMES: Final = {1: "hp", 2: "dial", 3: "dice"}
# The value slots of each role, in wire order (a CHANGE's slot number indexes this; docs/protocol.md).
ROLE_SLOTS: Final[Mapping[str, tuple[str, ...]]] = {
    "hp": ("hp",),
    "dial": ("damage", "horror", "clues", "resources"),
    "dice": (),
}
CAPABILITIES: Final = {0x01: "display", 0x02: "buttons", 0x04: "encoder", 0x08: "dice", 0x10: "repl"}


class FrameRejected(ProtocolError):
    """A payload arrived intact but breaks the rules; ``code`` is what the sender is told."""

    def __init__(self, message: str, code: ErrorCode, msg_type: int, seq: int) -> None:
        super().__init__(message)
        self.code = code
        self.msg_type = msg_type
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Message:
    type: MsgType
    seq: int
    body: bytes


@dataclass(frozen=True, slots=True)
class Ident:
    uid: bytes
    role: str
    firmware: tuple[int, int, int]
    capabilities: frozenset[str]
    boot_id: int
    slots: int

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()


@dataclass(frozen=True, slots=True)
class Change:
    slot: int
    value: int
    rev: int


@dataclass(frozen=True, slots=True)
class Roll:
    roll_id: int
    sides: int
    faces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ErrorReport:
    code: int
    msg_type: int
    seq: int


# -- frames -------------------------------------------------------------------------------------
def crc16(data: bytes) -> int:
    """CRC-16/GENIBUS: CCITT-FALSE (``binascii.crc_hqx`` from 0xFFFF) with a final XOR of 0xFFFF,
    so zero bytes after the CRC do not leave the check satisfied (see ``CRC_XOROUT``)."""
    return binascii.crc_hqx(data, 0xFFFF) ^ CRC_XOROUT


def _legacy_frame(payload: bytes, crc: int) -> bool:
    """A version-1 frame (CRC-16/CCITT-FALSE, version byte 1): an old board or host. It is passed
    on only so ``parse`` refuses it by version and the station can say which firmware is old."""
    return payload[0] == LEGACY_VERSION and binascii.crc_hqx(payload, 0xFFFF) == crc


def encode_frame(payload: bytes) -> bytes:
    if not 3 <= len(payload) <= MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes is outside 3..{MAX_PAYLOAD}")
    return b"\x00" + bytes(cobs.encode(payload + crc16(payload).to_bytes(2, "big"))) + b"\x00"


def decode_frame(encoded: bytes) -> bytes:
    """Payload of one frame body (between delimiters); ProtocolError if it is not a frame."""
    if len(encoded) > MAX_ENCODED:
        raise ProtocolError(f"frame of {len(encoded)} bytes exceeds {MAX_ENCODED}")
    try:
        plain = bytes(cobs.decode(encoded))
    except cobs.DecodeError as exc:
        raise ProtocolError(f"bad COBS: {exc}") from None
    if not 5 <= len(plain) <= MAX_PAYLOAD + 2:
        raise ProtocolError(f"frame of {len(plain)} decoded bytes is outside 5..{MAX_PAYLOAD + 2}")
    payload, crc = plain[:-2], int.from_bytes(plain[-2:], "big")
    if CHECK_CRC and crc16(payload) != crc and not _legacy_frame(payload, crc):
        raise ProtocolError("CRC mismatch")
    return payload


class FrameSplitter:
    """Cuts a byte stream at 0x00 into frame payloads; noise and broken frames are counted, not
    raised, and a run longer than a frame is dropped up to the next delimiter."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.dropped = 0

    def feed(self, data: bytes) -> Iterator[bytes]:
        for chunk_end in _split_points(data):
            piece, ended = chunk_end
            if not self._overflow:
                self._buf += piece
                if len(self._buf) > MAX_ENCODED:
                    self._overflow = True
                    self._buf.clear()
            if not ended:
                continue
            body = bytes(self._buf)
            overflow = self._overflow
            self._buf.clear()
            self._overflow = False
            if overflow:
                self.dropped += 1
                continue
            if not body:
                continue
            try:
                yield decode_frame(body)
            except ProtocolError:
                self.dropped += 1

    def reset(self) -> None:
        self._buf.clear()
        self._overflow = False


def _split_points(data: bytes) -> Iterator[tuple[bytes, bool]]:
    start = 0
    while True:
        end = data.find(b"\x00", start)
        if end < 0:
            if start < len(data):
                yield data[start:], False
            return
        yield data[start:end], True
        start = end + 1


# -- messages -----------------------------------------------------------------------------------
def build(msg_type: MsgType | int, seq: int, body: bytes = b"", version: int = PROTOCOL_VERSION) -> bytes:
    """The payload for one message (encode it with ``encode_frame``)."""
    return bytes((version, int(msg_type), seq)) + body


def parse(payload: bytes) -> Message:
    """Check version, type and body length; a known, well-formed message or FrameRejected."""
    version, raw_type, seq = payload[0], payload[1], payload[2]
    body = payload[3:]
    if version != PROTOCOL_VERSION:
        raise FrameRejected(f"protocol version {version}, expected {PROTOCOL_VERSION}",
                            ErrorCode.BAD_VERSION, raw_type, seq)
    try:
        msg_type = MsgType(raw_type)
    except ValueError:
        raise FrameRejected(f"unknown message type 0x{raw_type:02X}", ErrorCode.UNKNOWN_TYPE, raw_type, seq) from None
    if not _body_length_ok(msg_type, len(body)):
        raise FrameRejected(f"{msg_type.name} with a {len(body)}-byte body", ErrorCode.BAD_LENGTH, raw_type, seq)
    return Message(msg_type, seq, bytes(body))


def _body_length_ok(msg_type: MsgType, length: int) -> bool:
    fixed = _FIXED_BODY.get(msg_type)
    if fixed is not None:
        return length == fixed
    if msg_type is MsgType.HELLO:
        return length in (0, 2)  # the host's session id; a counter also accepts none
    if msg_type is MsgType.IDENT:
        return 10 <= length <= 9 + MAX_UID
    if msg_type is MsgType.LABEL:
        return 2 <= length <= 1 + MAX_LABEL
    return 5 <= length <= 4 + MAX_DICE  # ROLL


def label_body(slot: int, text: str) -> bytes:
    """A LABEL names a slot on the counter's screen in the game's words ("damage"): printable ASCII,
    cut to ``MAX_LABEL`` characters."""
    name = "".join(c if " " <= c <= "~" else "?" for c in text)[:MAX_LABEL] or "?"
    return bytes((slot,)) + name.encode("ascii")


def hello_body(session_id: int) -> bytes:
    """A HELLO names the host's session, so a counter keeps its seen-seq window across a reconnect
    (or a replayed HELLO) and starts a fresh one only for a new station process."""
    return (session_id & 0xFFFF).to_bytes(2, "big")


def ident_body(ident: Ident) -> bytes:
    role_code = {name: code for code, name in ROLE_NAMES.items()}[ident.role]
    caps = sum(bit for bit, name in CAPABILITIES.items() if name in ident.capabilities)
    return (bytes((len(ident.uid),)) + ident.uid + bytes((role_code, *ident.firmware, caps))
            + ident.boot_id.to_bytes(2, "big") + bytes((ident.slots,)))


def parse_ident(body: bytes) -> Ident:
    uid_len = body[0]
    if uid_len < 1 or len(body) != 9 + uid_len:
        raise ProtocolError(f"IDENT uid length {uid_len} does not match a {len(body)}-byte body")
    uid = body[1 : 1 + uid_len]
    rest = body[1 + uid_len :]
    role = ROLE_NAMES.get(rest[0])
    if role is None:
        raise ProtocolError(f"IDENT with unknown role code {rest[0]}")
    caps = frozenset(name for bit, name in CAPABILITIES.items() if rest[4] & bit)
    return Ident(uid, role, (rest[1], rest[2], rest[3]), caps, int.from_bytes(rest[5:7], "big"), rest[7])


def change_body(change: Change) -> bytes:
    return bytes((change.slot,)) + change.value.to_bytes(2, "big") + change.rev.to_bytes(2, "big")


def parse_change(body: bytes) -> Change:
    return Change(body[0], int.from_bytes(body[1:3], "big"), int.from_bytes(body[3:5], "big"))


def set_body(slot: int, value: int, limit: int, rev_seen: int) -> bytes:
    if not (0 <= value <= limit <= 0xFFFF):
        raise ProtocolError(f"SET value {value} with limit {limit} is outside 0..65535")
    return bytes((slot,)) + value.to_bytes(2, "big") + limit.to_bytes(2, "big") + (rev_seen & 0xFFFF).to_bytes(2, "big")


def roll_request_body(count: int, sides: int) -> bytes:
    if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        raise ProtocolError(f"cannot roll {count}d{sides}: 1..{MAX_DICE} dice of 2..{MAX_SIDES} sides")
    return bytes((count, sides))


def roll_body(roll: Roll) -> bytes:
    return roll.roll_id.to_bytes(2, "big") + bytes((roll.sides, len(roll.faces), *roll.faces))


def parse_roll(body: bytes) -> Roll:
    count = body[3]
    if len(body) != 4 + count:
        raise ProtocolError(f"ROLL of {count} dice in a {len(body)}-byte body")
    return Roll(int.from_bytes(body[0:2], "big"), body[2], tuple(body[4:]))


def error_body(code: int, msg_type: int, seq: int) -> bytes:
    return bytes((code, msg_type, seq))


def parse_error(body: bytes) -> ErrorReport:
    return ErrorReport(body[0], body[1], body[2])


REV_WINDOW: Final = 0x1000  # the furthest a counter's revision may run ahead of the host's between CHANGEs


def rev_is_within(candidate: int, last: int) -> bool:
    """True when ``candidate`` is 1..REV_WINDOW steps after ``last`` on the wrapping 16-bit circle
    (serial-number arithmetic): a counter bumps its revision by one per press, so a frame that leaps
    further, even with a valid CRC, is not a press."""
    return 0 < ((candidate - last) & 0xFFFF) <= REV_WINDOW


# -- reliability --------------------------------------------------------------------------------
@dataclass(slots=True)
class _Pending:
    seq: int
    frame: bytes
    sent_at_s: float
    interval_s: float


class Outbox:
    """Reliable messages awaiting an ACK, one per key (a newer value replaces an older one),
    retransmitted with doubling intervals. Times are seconds from an injected clock."""

    def __init__(self, first_retry_s: float = 0.12, max_retry_s: float = 1.0) -> None:
        self._first_retry_s = first_retry_s
        self._max_retry_s = max_retry_s
        self._pending: dict[tuple[int, int], _Pending] = {}
        self._seq = 0

    def next_seq(self) -> int:
        self._seq = self._seq % 255 + 1
        return self._seq

    @property
    def last_seq(self) -> int:
        """The last seq used: a new link to the same board continues from it (the counter keeps its
        seen-seq window for the same host session, so starting again at 1 would look like replays)."""
        return self._seq

    def continue_from(self, seq: int) -> None:
        self._seq = seq % 256

    def add(self, key: tuple[int, int], msg_type: MsgType, body: bytes, now_s: float) -> bytes:
        """Frame a reliable message, remember it under ``key`` and return the bytes to send."""
        seq = self.next_seq()
        frame = encode_frame(build(msg_type, seq, body))
        self._pending[key] = _Pending(seq, frame, now_s, self._first_retry_s)
        return frame

    def acknowledge(self, seq: int) -> bool:
        for key, entry in list(self._pending.items()):
            if entry.seq == seq:
                del self._pending[key]
                return True
        return False

    def due(self, now_s: float) -> list[bytes]:
        frames = []
        for entry in self._pending.values():
            if now_s - entry.sent_at_s >= entry.interval_s:
                frames.append(entry.frame)
                entry.sent_at_s = now_s
                entry.interval_s = min(entry.interval_s * 2, self._max_retry_s)
        return frames

    def next_due_s(self) -> float | None:
        """When ``due`` next has a frame to resend, or None when nothing awaits an ACK."""
        return min((e.sent_at_s + e.interval_s for e in self._pending.values()), default=None)

    def resend_all(self, now_s: float) -> list[bytes]:
        """Everything pending, now (after a reconnect), with the back-off restarted."""
        for entry in self._pending.values():
            entry.sent_at_s = now_s
            entry.interval_s = self._first_retry_s
        return [entry.frame for entry in self._pending.values()]

    def __len__(self) -> int:
        return len(self._pending)
