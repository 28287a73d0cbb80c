"""Protocol conformance, firmware side: the shared vectors in protocol_vectors.json.

The host runs the same file in tests/counters/test_conformance.py.
"""

import json
from binascii import unhexlify

from counter.framing import Crc16, FrameCodec, FrameReader, cobs_decode, cobs_encode
from support import HostSide, connect, make_app, take

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."


def _vectors():
    with open(_HERE + "/protocol_vectors.json") as handle:
        return json.loads(handle.read())


def _unhex(text):
    return unhexlify(text) if text else b""


def test_crc_vectors():
    crc = Crc16()
    for case in _vectors()["crc16"]:
        data = _unhex(case["data"])
        assert crc.compute(data, len(data)) == case["crc"], case


def test_cobs_vectors():
    for case in _vectors()["cobs"]:
        plain = _unhex(case["plain"])
        out = bytearray(len(plain) + 8)
        length = cobs_encode(plain, len(plain), out)
        assert bytes(out[:length]) == _unhex(case["encoded"])
        buf = bytearray(_unhex(case["encoded"]))
        assert bytes(buf[: cobs_decode(buf, len(buf))]) == plain


def test_frame_vectors_encode_and_decode():
    codec = FrameCodec()
    for case in _vectors()["frames"]:
        payload = _unhex(case["payload"])
        wire = _unhex(case["wire"])
        assert codec.encode(payload, len(payload)) == wire, case["name"]
        reader = FrameReader(FrameCodec())
        got = []
        for byte in wire:
            length = reader.feed_byte(byte)
            if length > 0:
                got.append(bytes(reader.payload[:length]))
        assert got == [payload], case["name"]


def test_rejected_vectors_yield_nothing():
    for case in _vectors()["rejected"]:
        reader = FrameReader(FrameCodec())
        for byte in _unhex(case["wire"]):
            assert reader.feed_byte(byte) <= 0, case["name"]


def test_reply_vectors():
    for case in _vectors()["replies"]:
        app, transport, _, _ = make_app("hp")
        host = HostSide()
        connect(app, transport, host, 0)
        payload = _unhex(case["payload"])
        transport.incoming.extend(host.codec.encode(payload, len(payload)))
        app.step(1)
        errors = [list(body) for kind, _, body in host.parse(take(transport)) if kind == 0x0B]
        expected = [case["error"]] if case["error"] is not None else []
        assert errors == expected, (case["name"], errors)


def test_legacy_vectors_are_answered_bad_version():
    """An old host's version-1 frame (version-1 CRC) is recognised and refused by version, once."""
    for case in _vectors()["legacy"]:
        app, transport, _, _ = make_app("hp")
        host = HostSide()
        connect(app, transport, host, 0)
        transport.incoming.extend(_unhex(case["wire"]))
        app.step(1)
        errors = [list(body) for kind, _, body in host.parse(take(transport)) if kind == 0x0B]
        assert errors == [case["error"]], (case["name"], errors)


def test_the_merged_frame_vector_fails_without_the_final_xor():
    """The merged-frame vector is refused because of the CRC's final XOR: with it patched out, the
    same kind of frame passes the reader (so the vector proves the protection, not a length check)."""
    from counter import framing

    merged = next(c for c in _vectors()["rejected"] if c["name"].startswith("trailing delimiter"))
    wire = _unhex(merged["wire"])
    assert wire[-2:] == b"\x01\x00"
    payload = _unhex(next(c for c in _vectors()["frames"] if c["name"].startswith("change"))["payload"])
    saved = framing.CRC_XOROUT
    framing.CRC_XOROUT = 0
    try:
        codec = FrameCodec()
        frame = codec.encode(payload, len(payload))
        reader = FrameReader(codec)
        lengths = [reader.feed_byte(byte) for byte in frame[:-1] + b"\x01\x00"]
        assert max(lengths) == len(payload) + 1  # taken as a payload with one extra byte
    finally:
        framing.CRC_XOROUT = saved
