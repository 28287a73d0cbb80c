"""The USB CDC transport: non-blocking reads, 0x03 is data, Ctrl-C restored on release."""

import micropython
from counter.usb import UsbCdcTransport


class _Buffer:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.written = bytearray()

    def readinto(self, buf):
        if not self.data:
            return 0
        buf[0] = self.data[0]
        self.data = self.data[1:]
        return 1

    def write(self, data):
        self.written.extend(data)
        return len(data)


class _Stream:
    def __init__(self, data=b""):
        self.buffer = _Buffer(data)


class _Poller:
    """Readable while the stream has bytes, like select.poll on USB CDC."""

    def __init__(self):
        self.stream = None

    def register(self, stream, mask):
        self.stream = stream

    def poll(self, timeout_ms):
        return [(self.stream, 1)] if self.stream.buffer.data else []


def test_reads_only_what_is_waiting_and_keeps_ctrl_c_as_data():
    stdin = _Stream(b"\x00\x03\x03\x41")
    stdout = _Stream()
    transport = UsbCdcTransport(stdin, stdout, _Poller(), 1)
    if hasattr(micropython, "kbd_intr_char"):  # the CPython fake records it
        assert micropython.kbd_intr_char() == -1
    buf = bytearray(8)
    assert transport.read_into(buf) == 4
    assert bytes(buf[:4]) == b"\x00\x03\x03\x41"
    assert transport.read_into(buf) == 0
    transport.write(b"\x00\x01\x00")
    assert bytes(stdout.buffer.written) == b"\x00\x01\x00"
    transport.release()
    if hasattr(micropython, "kbd_intr_char"):
        assert micropython.kbd_intr_char() == 3


def test_a_full_buffer_stops_the_read():
    stdin = _Stream(bytes(range(1, 20)))
    transport = UsbCdcTransport(stdin, _Stream(), _Poller(), 1)
    buf = bytearray(5)
    assert transport.read_into(buf) == 5
    assert bytes(buf) == b"\x01\x02\x03\x04\x05"
    transport.release()
