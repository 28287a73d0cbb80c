"""Framing: CRC check value, COBS, and a reader that survives noise."""

from counter.framing import Crc16, FrameCodec, FrameReader, cobs_decode, cobs_encode
from support import HostSide


def _frames(reader, data):
    out = []
    for byte in data:
        length = reader.feed_byte(byte)
        if length > 0:
            out.append(bytes(reader.payload[:length]))
    return out


def test_crc_check_value():
    assert Crc16().compute(b"123456789", 9) == 0xD64E  # CRC-16/GENIBUS
    assert Crc16().compute_legacy(b"123456789", 9) == 0x29B1  # CRC-16/CCITT-FALSE (version 1)


def test_cobs_known_examples():
    cases = (
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    )
    for plain, encoded in cases:
        out = bytearray(16)
        length = cobs_encode(plain, len(plain), out)
        assert bytes(out[:length]) == encoded, (plain, bytes(out[:length]))
        buf = bytearray(encoded)
        decoded = cobs_decode(buf, len(buf))
        assert bytes(buf[:decoded]) == plain


def test_cobs_rejects_a_code_past_the_end():
    buf = bytearray(b"\x05\x11\x22")
    assert cobs_decode(buf, 3) == -1


def test_frame_roundtrip_has_no_zero_inside():
    codec = FrameCodec()
    payload = b"\x02\x03\x07\x00\x00\x0c\x00\x01"
    wire = codec.encode(payload, len(payload))
    assert wire[0] == 0 and wire[-1] == 0
    assert 0 not in wire[1:-1]
    assert _frames(FrameReader(FrameCodec()), wire) == [payload]


def test_reader_skips_a_repl_banner_and_garbage_before_a_frame():
    codec = FrameCodec()
    payload = b"\x02\x0a\x00"
    banner = b"MicroPython v1.27.0 on 2025-01-01; Raspberry Pi Pico with RP2040\r\nType \"help()\"\r\n>>> "
    data = banner + b"\x03\x03\xff\xfe" + codec.encode(payload, len(payload))
    reader = FrameReader(FrameCodec())
    assert _frames(reader, data) == [payload]


def test_every_single_bit_flip_is_rejected():
    codec = FrameCodec()
    payload = b"\x02\x03\x05\x00\x00\x0c\x00\x02"
    wire = codec.encode(payload, len(payload))
    for index in range(1, len(wire) - 1):
        for bit in range(8):
            bad = bytearray(wire)
            bad[index] ^= 1 << bit
            reader = FrameReader(FrameCodec())
            assert _frames(reader, bad) == [], (index, bit)


def test_a_flipped_trailing_delimiter_merges_nothing():
    """Flipping the closing 0x00 to 0x01 makes COBS restore one extra zero; version 1's CRC had no
    final XOR and let every such frame through. Each bit of the delimiter, any payload length."""
    codec = FrameCodec()
    for length in range(3, 41):
        payload = bytes([2, 3] + [(7 * i + 1) & 0xFF for i in range(length - 2)])
        wire = codec.encode(payload, length)
        for bit in range(8):
            bad = bytearray(wire)
            bad[-1] ^= 1 << bit
            bad.append(0)
            assert _frames(FrameReader(FrameCodec()), bad) == [], (length, bit)


def test_truncated_frame_is_dropped_and_the_next_one_is_read():
    codec = FrameCodec()
    first = b"\x02\x03\x01\x00\x00\x05\x00\x01"
    second = b"\x02\x03\x02\x00\x00\x06\x00\x02"
    wire_first = codec.encode(first, len(first))
    wire_second = codec.encode(second, len(second))
    reader = FrameReader(FrameCodec())
    data = wire_first[:5] + wire_second
    assert _frames(reader, data) == [second]
    assert reader.dropped == 1


def test_overlong_run_is_dropped_without_growing():
    reader = FrameReader(FrameCodec())
    data = bytes([0x41] * 500) + b"\x00"
    assert _frames(reader, data) == []
    assert reader.dropped == 1
    host = HostSide()
    assert _frames(reader, host.frame(0x0A)) == [b"\x02\x0a\x00"]


def test_encode_refuses_an_overlong_payload():
    codec = FrameCodec()
    try:
        codec.encode(bytes(41), 41)
    except ValueError:
        return
    raise AssertionError("encode accepted 41 bytes")
