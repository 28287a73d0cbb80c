"""Protocol conformance, host side, on the vectors the firmware also passes
(firmware/tests/test_conformance.py runs them under MicroPython and CPython)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cobs import cobs
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tablekeeper.hw import protocol as p
from tablekeeper.hw.counters import CounterBoards, CounterLink, LinkTiming
from tests.counters.firmware_env import VECTORS, load_firmware_module

DOC: dict[str, Any] = json.loads(VECTORS.read_text())


@pytest.mark.parametrize("case", DOC["crc16"], ids=lambda c: c["data"][:12] or "empty")
def test_crc16(case: dict[str, Any]) -> None:
    assert p.crc16(bytes.fromhex(case["data"])) == case["crc"]


@pytest.mark.parametrize("case", DOC["cobs"], ids=lambda c: c["plain"][:12])
def test_cobs(case: dict[str, Any]) -> None:
    assert cobs.encode(bytes.fromhex(case["plain"])) == bytes.fromhex(case["encoded"])
    assert cobs.decode(bytes.fromhex(case["encoded"])) == bytes.fromhex(case["plain"])


@pytest.mark.parametrize("case", DOC["frames"], ids=lambda c: c["name"])
def test_frames_encode_and_decode(case: dict[str, Any]) -> None:
    payload, wire = bytes.fromhex(case["payload"]), bytes.fromhex(case["wire"])
    assert p.encode_frame(payload) == wire
    assert list(p.FrameSplitter().feed(wire)) == [payload]
    p.parse(payload)  # every vector is a well-formed message


@pytest.mark.parametrize("case", DOC["rejected"], ids=lambda c: c["name"])
def test_rejected_frames_yield_nothing(case: dict[str, Any]) -> None:
    splitter = p.FrameSplitter()
    assert list(splitter.feed(bytes.fromhex(case["wire"]))) == []


class _Port:
    def __init__(self) -> None:
        self.written = bytearray()

    def read(self, size: int = 1) -> bytes:
        return b""

    def write(self, data: bytes, /) -> int:
        self.written.extend(data)
        return len(data)

    def close(self) -> None:
        pass

    def fileno(self) -> int:
        return -1


def _Manager() -> CounterBoards:
    return CounterBoards(links={}, emit=lambda intent: None, timing=LinkTiming(hello_interval_s=1e9, heartbeat_s=1e9))


@pytest.mark.parametrize("case", DOC["replies"], ids=lambda c: c["name"])
def test_host_replies(case: dict[str, Any]) -> None:
    port = _Port()
    link = CounterLink("/dev/ttyACM0", port, _Manager(), 0.0)
    link._receive(bytes.fromhex(case["payload"]), 0.0)
    replies = [p.parse(payload) for payload in p.FrameSplitter().feed(bytes(port.written))]
    expected = [] if case["error"] is None else [p.Message(p.MsgType.ERROR, 0, bytes(case["error"]))]
    assert replies == expected


@pytest.mark.parametrize("case", DOC["legacy"], ids=lambda c: c["name"])
def test_an_old_board_is_named_in_one_line_and_its_link_closed(case: dict[str, Any],
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A version-1 board (version-1 CRC) is answered "bad version", reported once, and its link is
    closed (so the manager retries it with back-off) instead of greeting it forever in silence."""
    port = _Port()
    link = CounterLink("/dev/ttyACM0", port, _Manager(), 0.0)
    wire = bytes.fromhex(case["wire"])
    with caplog.at_level("WARNING", logger="tablekeeper"):
        for payload in p.FrameSplitter().feed(wire + wire):
            link._receive(payload, 0.0)
    replies = [p.parse(payload) for payload in p.FrameSplitter().feed(bytes(port.written))]
    assert replies == [p.Message(p.MsgType.ERROR, 0, bytes(case["error"]))]
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["counter /dev/ttyACM0 speaks counter protocol version 1, this station version 2: "
                     "update the counter's firmware"]
    assert link.broken and not link.ready


def test_firmware_and_host_build_identical_frames_for_what_the_counter_sends() -> None:
    """The firmware's own message builders (not just its codec) agree with the host's parser."""
    support: Any = load_firmware_module("support")
    messages: Any = load_firmware_module("counter.messages")
    app, transport, _, pins = support.make_app("hp")
    host = support.HostSide()
    transport.incoming.extend(host.frame(messages.HELLO) + host.frame(messages.SEAT, b"\x01"))
    app.step(0)
    support.press(app, pins["down"], 10)
    frames = [p.parse(payload) for payload in p.FrameSplitter().feed(bytes(transport.written))]
    ident = next(f for f in frames if f.type is p.MsgType.IDENT)
    parsed = p.parse_ident(ident.body)
    assert parsed.uid_hex == "E661410403332A2B" and parsed.role == "hp" and parsed.slots == 1
    assert parsed.capabilities == frozenset({"buttons", "repl"})
    change = next(f for f in frames if f.type is p.MsgType.CHANGE)
    assert p.parse_change(change.body) == p.Change(slot=0, value=19, rev=1)
    assert messages.CHANGE == p.MsgType.CHANGE and messages.PROTOCOL_VERSION == p.PROTOCOL_VERSION


def _frame_of(payload: bytes) -> bytes:
    """A well-formed frame around any payload, even one longer than the protocol allows."""
    return b"\x00" + bytes(cobs.encode(payload + p.crc16(payload).to_bytes(2, "big"))) + b"\x00"


@settings(max_examples=300)
@example([_frame_of(bytes(range(1, 42)))])  # a 41-byte payload still fits 44 encoded bytes
@example([_frame_of(bytes(range(1, 41))), b"\x01" * 50, _frame_of(b"\x01\x0a\x00")])
@given(st.lists(st.one_of(st.binary(max_size=60),
                          st.binary(min_size=3, max_size=p.MAX_PAYLOAD + 3).map(_frame_of)), max_size=8))
def test_host_and_firmware_readers_agree_on_any_stream(pieces: list[bytes]) -> None:
    """Differential check: noise and frames (some one byte too long) read the same on both sides."""
    framing: Any = load_firmware_module("counter.framing")
    stream = b"".join(pieces)
    reader = framing.FrameReader(framing.FrameCodec())
    firmware_out = []
    for byte in stream:
        length = reader.feed_byte(byte)
        if length > 0:
            firmware_out.append(bytes(reader.payload[:length]))
    assert list(p.FrameSplitter().feed(stream)) == firmware_out
