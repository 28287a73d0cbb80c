"""Shared helpers for the firmware tests; run under MicroPython and CPython alike."""

import machine
from counter import config as counter_config
from counter import messages as m
from counter.app import CounterApp, button_event
from counter.framing import FrameCodec, FrameReader
from counter.inputs import Button
from counter.text_display import TextDisplay


class PipeTransport:
    """Bytes the test queues for the counter to read, and everything the counter wrote."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.written = bytearray()

    def read_into(self, buf) -> int:
        count = min(len(buf), len(self.incoming))
        buf[:count] = self.incoming[:count]
        self.incoming = self.incoming[count:]
        return count

    def write(self, frame) -> None:
        self.written.extend(frame)


class Entropy:
    """Deterministic stand-in for ``os.urandom``: cycles through the given bytes."""

    def __init__(self, data=b"\x12\x34\x05\x02\xff\x00\x07\x03") -> None:
        self._data = bytes(data)
        self._pos = 0

    def __call__(self, count: int) -> bytes:
        out = bytearray(count)
        for index in range(count):
            out[index] = self._data[self._pos % len(self._data)]
            self._pos += 1
        return bytes(out)


class HostSide:
    """Builds host frames with the firmware codec and parses what the counter sent."""

    def __init__(self) -> None:
        self.codec = FrameCodec()
        self.reader = FrameReader(FrameCodec())
        self.seq = 0

    def frame(self, msg_type: int, body=b"", seq=None, version=m.PROTOCOL_VERSION) -> bytes:
        if seq is None:
            self.seq = self.seq % 255 + 1
            seq = self.seq if msg_type in m.RELIABLE else 0
        payload = bytes([version, msg_type, seq]) + bytes(body)
        return self.codec.encode(payload, len(payload))

    def parse(self, data) -> list:
        """Every good frame in ``data`` as ``(type, seq, body)``."""
        out = []
        for byte in data:
            length = self.reader.feed_byte(byte)
            if length > 0:
                payload = self.reader.payload
                out.append((payload[1], payload[2], bytes(payload[3:length])))
        return out


def make_app(role="hp", extra="", now_ms=0, entropy=None):
    """A counter app with fake pins, a pipe transport and a text display."""
    text = '{"role": "' + role + '", "max": 20, "display": {"kind": "none"}' + extra + "}"
    cfg = counter_config.parse(text)
    pins = {}
    buttons = []
    for name in ("up", "down", "select"):
        pin = machine.Pin(cfg.buttons[name], machine.Pin.IN, machine.Pin.PULL_UP)
        pins[name] = pin
        buttons.append(Button(pin, button_event(name), now_ms))
    transport = PipeTransport()
    display = TextDisplay()
    app = CounterApp(
        cfg,
        transport=transport,
        display=display,
        buttons=buttons,
        encoder=None,
        uid=machine.unique_id(),
        entropy=entropy or Entropy(),
        now_ms=now_ms,
    )
    return app, transport, display, pins


def press(app, pin, now_ms: int) -> int:
    """Hold ``pin`` low long enough to debounce, then release; returns the time afterwards."""
    pin.set_level(0)
    app.step(now_ms)
    now_ms += 25
    app.step(now_ms)
    pin.set_level(1)
    now_ms += 1
    app.step(now_ms)
    now_ms += 25
    app.step(now_ms)
    return now_ms


def connect(app, transport, host, now_ms: int, seat: int = 1):
    """HELLO then SEAT, as the host does after opening the port; returns the counter's replies."""
    transport.incoming.extend(host.frame(m.HELLO))
    transport.incoming.extend(host.frame(m.SEAT, bytes([seat])))
    app.step(now_ms)
    return host.parse(_take(transport))


def _take(transport) -> bytes:
    data = bytes(transport.written)
    transport.written = bytearray()
    return data


def take(transport) -> bytes:
    return _take(transport)
