"""Wire framing: payload + CRC-16/GENIBUS, COBS-encoded, between 0x00 delimiters.

Every frame starts and ends with 0x00, so a REPL banner, line noise or half a frame before it
is flushed at the next delimiter and fails its CRC instead of being read as data. The CRC's final
XOR (protocol version 2) catches a frame whose trailing delimiter was flipped to 0x01, which
COBS decodes with one extra zero that version 1's CRC-16/CCITT-FALSE let through.
"""

from array import array

from micropython import const

MAX_PAYLOAD = const(40)  # version + type + seq + body; bounded so buffers are fixed
MAX_ENCODED = const(44)  # payload + 2 CRC bytes + 1 COBS overhead byte (+1 spare)
WIRE_MAX = const(46)  # leading and trailing delimiters around the encoded frame
CRC_XOROUT = 0xFFFF  # version 2; a test sets it to 0 to show the merged-frame test catches its absence
_LEGACY_VERSION = const(1)


class Crc16:
    """CRC-16/GENIBUS (poly 0x1021, init 0xFFFF, final XOR 0xFFFF), table-driven; check value
    0xD64E. ``compute_legacy`` leaves out the XOR (CRC-16/CCITT-FALSE, protocol version 1)."""

    def __init__(self) -> None:
        table = array("H", bytes(512))
        for byte in range(256):
            crc = byte << 8
            for _ in range(8):
                crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            table[byte] = crc & 0xFFFF
        self._table = table

    def compute(self, data: bytes | bytearray | memoryview, length: int) -> int:
        return self.compute_legacy(data, length) ^ CRC_XOROUT

    def compute_legacy(self, data: bytes | bytearray | memoryview, length: int) -> int:
        table = self._table
        crc = 0xFFFF
        for index in range(length):
            crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[index]) & 0xFF]
        return crc


def cobs_encode(src: bytes | bytearray | memoryview, length: int, dst: bytearray | memoryview) -> int:
    """COBS-encode ``src[:length]`` into ``dst``; returns the encoded length (no delimiter)."""
    code_index = 0
    out = 1
    code = 1
    after_full_block = False
    for index in range(length):
        byte = src[index]
        after_full_block = False
        if byte == 0:
            dst[code_index] = code
            code_index = out
            out += 1
            code = 1
        else:
            dst[out] = byte
            out += 1
            code += 1
            if code == 0xFF:
                dst[code_index] = code
                code_index = out
                out += 1
                code = 1
                after_full_block = True
    if after_full_block:
        return out - 1  # a full block at the very end needs no empty block after it
    dst[code_index] = code
    return out


def cobs_decode(buf: bytearray, length: int) -> int:
    """Decode ``buf[:length]`` in place; returns the decoded length or -1 if malformed."""
    read = 0
    write = 0
    while read < length:
        code = buf[read]
        if code == 0 or read + code > length:
            return -1
        read += 1
        for _ in range(code - 1):
            buf[write] = buf[read]
            write += 1
            read += 1
        if code != 0xFF and read < length:
            buf[write] = 0
            write += 1
    return write


class FrameCodec:
    """Builds outgoing frames and checks incoming ones, reusing preallocated buffers."""

    def __init__(self) -> None:
        self.crc = Crc16()
        self._plain = bytearray(MAX_PAYLOAD + 2)
        self._wire = bytearray(WIRE_MAX)

    def encode(self, payload: bytes | bytearray, length: int) -> bytes:
        """Return the wire bytes for ``payload[:length]`` (a fresh ``bytes`` the caller may keep)."""
        if length > MAX_PAYLOAD:
            raise ValueError("payload too long")
        plain = self._plain
        plain[:length] = payload[:length]
        crc = self.crc.compute(plain, length)
        plain[length] = crc >> 8
        plain[length + 1] = crc & 0xFF
        wire = self._wire
        wire[0] = 0
        encoded = cobs_encode(plain, length + 2, memoryview(wire)[1:])
        wire[encoded + 1] = 0
        return bytes(wire[: encoded + 2])

    def check(self, buf: bytearray, length: int) -> int:
        """Decode one delimited frame body in place; payload length, or -1 if it is not a frame."""
        decoded = cobs_decode(buf, length)
        if decoded < 5:
            return -1
        payload_len = decoded - 2
        if payload_len > MAX_PAYLOAD:
            return -1
        crc = (buf[payload_len] << 8) | buf[payload_len + 1]
        # A version-1 frame (an old host) is passed on only to be answered "bad version".
        legacy = buf[0] == _LEGACY_VERSION and self.crc.compute_legacy(buf, payload_len) == crc
        if self.crc.compute(buf, payload_len) != crc and not legacy:
            return -1
        return payload_len


class FrameReader:
    """Splits a byte stream at 0x00 delimiters into bounded frame bodies.

    Over-long runs are discarded up to the next delimiter, so one lost delimiter costs at most
    the frame it belonged to.
    """

    def __init__(self, codec: FrameCodec) -> None:
        self._codec = codec
        self._buf = bytearray(MAX_ENCODED)
        self._len = 0
        self._overflow = False
        self.dropped = 0

    def feed_byte(self, byte: int) -> int:
        """Take one byte; returns a payload length when a good frame ended, 0 otherwise, -1 if
        a frame was dropped. The payload is then in ``self.payload`` until the next call."""
        if byte == 0:
            length = self._len
            overflow = self._overflow
            self._len = 0
            self._overflow = False
            if length == 0 and not overflow:
                return 0
            if overflow:
                self.dropped += 1
                return -1
            result = self._codec.check(self._buf, length)
            if result < 0:
                self.dropped += 1
            return result
        if self._overflow:
            return 0
        if self._len >= MAX_ENCODED:
            self._overflow = True
            return 0
        self._buf[self._len] = byte
        self._len += 1
        return 0

    def reset(self) -> None:
        self._len = 0
        self._overflow = False

    @property
    def payload(self) -> bytearray:
        return self._buf
