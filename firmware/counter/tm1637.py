"""TM1637 four-digit 7-segment display on two bit-banged pins; shows the big text only."""

from micropython import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import Pin

    from counter.interfaces import DelayUs

# TM1637 segment patterns for 0-9, then '-' and blank.
_DIGITS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f"
_MINUS = const(0x40)
_TM_DATA_AUTO = const(0x40)
_TM_ADDRESS = const(0xC0)
_TM_DISPLAY_ON = const(0x88)


class Tm1637:
    """Four-digit 7-segment display on two bit-banged pins (clock and data); shows ``big``."""

    def __init__(self, clk: "Pin", dio: "Pin", delay_us: "DelayUs", brightness: int = 7) -> None:
        self._clk = clk
        self._dio = dio
        self._delay_us = delay_us
        self._brightness = brightness & 7
        self.segments = bytearray(4)

    def init_display(self) -> None:
        self._clk.init(self._clk.OUT, value=1)
        self._dio.init(self._dio.OUT, value=1)
        self._write_segments()

    def encode(self, text: str | None) -> None:
        """Right-align the digits of ``text`` in four cells; anything else shows as dashes."""
        segments = self.segments
        for index in range(4):
            segments[index] = 0
        if text is None:
            return
        digits = text.strip()
        if len(digits) > 4 or not all("0" <= ch <= "9" for ch in digits):
            for index in range(4):
                segments[index] = _MINUS
            return
        offset = 4 - len(digits)
        for index in range(len(digits)):
            segments[offset + index] = _DIGITS[ord(digits[index]) - 48]

    def show(self, big: str | None, lines: tuple[str, ...]) -> None:
        self.encode(big)
        self._write_segments()

    def _start(self) -> None:
        self._dio.value(0)
        self._delay_us(2)
        self._clk.value(0)
        self._delay_us(2)

    def _stop(self) -> None:
        self._dio.value(0)
        self._delay_us(2)
        self._clk.value(1)
        self._delay_us(2)
        self._dio.value(1)

    def _write_byte(self, byte: int) -> None:
        for bit in range(8):
            self._dio.value((byte >> bit) & 1)
            self._delay_us(2)
            self._clk.value(1)
            self._delay_us(2)
            self._clk.value(0)
            self._delay_us(2)
        # Ninth clock for the chip's acknowledge bit.
        self._clk.value(0)
        self._dio.value(1)
        self._delay_us(2)
        self._clk.value(1)
        self._delay_us(2)
        self._clk.value(0)

    def _write_segments(self) -> None:
        self._start()
        self._write_byte(_TM_DATA_AUTO)
        self._stop()
        self._start()
        self._write_byte(_TM_ADDRESS)
        for byte in self.segments:
            self._write_byte(byte)
        self._stop()
        self._start()
        self._write_byte(_TM_DISPLAY_ON | self._brightness)
        self._stop()
