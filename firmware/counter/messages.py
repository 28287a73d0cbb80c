"""Message types and field layouts of protocol version 2 (see docs/protocol.md).

A payload is ``version, type, seq, body...``; multi-byte integers are big-endian unsigned.
"""

from micropython import const

PROTOCOL_VERSION = const(2)  # 2: the frame CRC gained a final XOR (docs/protocol.md)

HELLO = const(0x01)  # host -> counter: identify yourself and resend anything pending
IDENT = const(0x02)  # counter -> host: uid, role, firmware, capabilities, boot id, slots
CHANGE = const(0x03)  # counter -> host, reliable: slot, value, rev (a player's change)
SET = const(0x04)  # host -> counter, reliable: slot, value, limit, rev_seen
ROLL_REQUEST = const(0x05)  # host -> counter, reliable: count, sides
ROLL = const(0x06)  # counter -> host, reliable: roll id, sides, count, faces
SEAT = const(0x07)  # host -> counter, reliable: seat number (0 = not paired)
CLAIM = const(0x08)  # counter -> host, reliable: a button press on an unpaired counter
ACK = const(0x09)  # either way: the seq being acknowledged
HEARTBEAT = const(0x0A)  # either way, unreliable: still here
ERROR = const(0x0B)  # either way: code, offending type, offending seq
REPL = const(0x0C)  # host -> counter, reliable: hand the REPL back for deployment
LABEL = const(0x0D)  # host -> counter, reliable: slot, the slot's name in this game (ASCII, 1..MAX_LABEL)

ERR_UNKNOWN_TYPE = const(1)
ERR_BAD_LENGTH = const(2)
ERR_BAD_VERSION = const(3)
ERR_BAD_VALUE = const(4)

ROLE_HP = const(1)
ROLE_DIAL = const(2)
ROLE_DICE = const(3)

CAP_DISPLAY = const(0x01)
CAP_BUTTONS = const(0x02)
CAP_ENCODER = const(0x04)
CAP_DICE = const(0x08)
CAP_REPL = const(0x10)

MAX_UID = const(16)
MAX_DICE = const(16)
MAX_SIDES = const(100)
MAX_SLOTS = const(8)
MAX_LABEL = const(10)

# Body length per type: exact, or (minimum, maximum) for the variable ones.
FIXED_BODY = {
    CHANGE: 5,
    SET: 7,
    ROLL_REQUEST: 2,
    SEAT: 1,
    CLAIM: 0,
    ACK: 1,
    HEARTBEAT: 0,
    ERROR: 3,
    REPL: 0,
}
RELIABLE = (CHANGE, SET, ROLL_REQUEST, ROLL, SEAT, CLAIM, REPL, LABEL)
TO_COUNTER = (SET, ROLL_REQUEST, SEAT, REPL, LABEL)  # reliable types a counter accepts


def put_u16(buf: bytearray, offset: int, value: int) -> None:
    buf[offset] = (value >> 8) & 0xFF
    buf[offset + 1] = value & 0xFF


def get_u16(buf: bytes | bytearray, offset: int) -> int:
    return (buf[offset] << 8) | buf[offset + 1]


def body_length_ok(msg_type: int, body_len: int) -> bool:
    """Whether a body of ``body_len`` bytes is valid for ``msg_type`` (known types only)."""
    fixed = FIXED_BODY.get(msg_type)
    if fixed is not None:
        return body_len == fixed
    if msg_type == HELLO:
        return body_len == 0 or body_len == 2  # the host's session id (2 bytes; older hosts send none)
    if msg_type == IDENT:
        return body_len >= 10 and body_len <= 9 + MAX_UID
    if msg_type == ROLL:
        return body_len >= 5 and body_len <= 4 + MAX_DICE
    if msg_type == LABEL:
        return body_len >= 2 and body_len <= 1 + MAX_LABEL
    return False


def is_known(msg_type: int) -> bool:
    return msg_type in FIXED_BODY or msg_type in (HELLO, IDENT, ROLL, LABEL)
