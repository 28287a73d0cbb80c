"""Host protocol codec: round trips, bounds, and noise that never becomes data."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.errors import ProtocolError
from tablekeeper.hw import protocol as p


@settings(max_examples=200)
@given(st.binary(min_size=3, max_size=p.MAX_PAYLOAD))
def test_any_payload_round_trips(payload: bytes) -> None:
    wire = p.encode_frame(payload)
    assert b"\x00" not in wire[1:-1]
    assert len(wire) <= p.MAX_ENCODED + 2
    assert list(p.FrameSplitter().feed(wire)) == [payload]


@settings(max_examples=200)
@given(st.binary(max_size=200), st.binary(min_size=3, max_size=p.MAX_PAYLOAD), st.integers(1, 7))
def test_frame_after_noise_is_read_whatever_the_chunking(noise: bytes, payload: bytes, chunk: int) -> None:
    data = noise + p.encode_frame(payload)
    splitter = p.FrameSplitter()
    got: list[bytes] = []
    for start in range(0, len(data), chunk):
        got.extend(splitter.feed(data[start : start + chunk]))
    assert got[-1:] == [payload]


@settings(max_examples=100)
@given(st.binary(min_size=3, max_size=p.MAX_PAYLOAD), st.data())
def test_single_bit_flip_is_always_caught(payload: bytes, data: st.DataObject) -> None:
    wire = bytearray(p.encode_frame(payload))
    index = data.draw(st.integers(1, len(wire) - 2))
    bit = data.draw(st.integers(0, 7))
    wire[index] ^= 1 << bit
    assert list(p.FrameSplitter().feed(bytes(wire))) == [] or wire[index] == 0


def test_payload_bounds() -> None:
    with pytest.raises(ProtocolError, match=r"outside 3\.\.40"):
        p.encode_frame(bytes(41))
    with pytest.raises(ProtocolError, match="exceeds"):
        p.decode_frame(bytes(range(1, 50)))


def test_parse_rejects_with_the_code_the_sender_is_told() -> None:
    with pytest.raises(p.FrameRejected) as caught:
        p.parse(p.build(0x7F, 3, b""))
    assert caught.value.code is p.ErrorCode.UNKNOWN_TYPE and caught.value.seq == 3
    with pytest.raises(p.FrameRejected) as caught:
        p.parse(p.build(p.MsgType.SET, 3, b"\x00"))
    assert caught.value.code is p.ErrorCode.BAD_LENGTH
    with pytest.raises(p.FrameRejected) as caught:
        p.parse(p.build(p.MsgType.SET, 3, bytes(7), version=9))
    assert caught.value.code is p.ErrorCode.BAD_VERSION


def test_ident_round_trip_and_bad_uid_length() -> None:
    ident = p.Ident(b"\x01\x02", "dial", (1, 2, 3), frozenset({"buttons", "encoder"}), 0xBEEF, 4)
    assert p.parse_ident(p.ident_body(ident)) == ident
    body = bytearray(p.ident_body(ident))
    body[0] = 5
    with pytest.raises(ProtocolError, match="uid length 5"):
        p.parse_ident(bytes(body))


def test_set_and_roll_request_refuse_values_off_the_wire_range() -> None:
    with pytest.raises(ProtocolError, match=r"outside 0\.\.65535"):
        p.set_body(0, 21, 20, 0)
    with pytest.raises(ProtocolError, match="cannot roll 17d6"):
        p.roll_request_body(17, 6)


def test_outbox_replaces_by_key_and_backs_off() -> None:
    outbox = p.Outbox(first_retry_s=0.1, max_retry_s=0.4)
    outbox.add((p.MsgType.SET, 0), p.MsgType.SET, p.set_body(0, 1, 9, 0), 0.0)
    second = outbox.add((p.MsgType.SET, 0), p.MsgType.SET, p.set_body(0, 2, 9, 0), 0.0)
    assert len(outbox) == 1
    assert outbox.due(0.05) == []
    assert outbox.due(0.1) == [second]
    assert outbox.due(0.25) == []
    assert outbox.due(0.31) == [second]
    assert outbox.due(0.7) == []
    assert outbox.due(0.72) == [second]
    assert outbox.due(1.1) == []
    assert outbox.due(1.13) == [second]  # capped at 0.4 s
    assert outbox.acknowledge(2)
    assert len(outbox) == 0
