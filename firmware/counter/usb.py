"""USB CDC transport on the board: non-blocking binary reads from ``sys.stdin.buffer``.

``micropython.kbd_intr(-1)`` is set while the app runs so a 0x03 byte inside a frame does not
raise KeyboardInterrupt; ``release()`` restores Ctrl-C for the REPL.
"""

import micropython

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class UsbCdcTransport:
    def __init__(self, stdin: "Any", stdout: "Any", poller: "Any", pollin: int) -> None:
        self._in = stdin.buffer
        self._out = stdout.buffer
        self._poller = poller
        self._one = bytearray(1)
        poller.register(stdin, pollin)
        micropython.kbd_intr(-1)

    def read_into(self, buf: bytearray) -> int:
        """Copy the bytes waiting right now into ``buf``; never blocks."""
        count = 0
        one = self._one
        while count < len(buf) and self._poller.poll(0):
            if not self._in.readinto(one):
                break
            buf[count] = one[0]
            count += 1
        return count

    def write(self, frame: bytes) -> None:
        self._out.write(frame)

    def release(self) -> None:
        micropython.kbd_intr(3)
