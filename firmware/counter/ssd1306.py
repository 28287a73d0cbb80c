"""SSD1306 OLED (128x32 or 128x64) on I2C, drawn with ``framebuf``.

The bus is passed in; a screen is ``(big, lines)``: an optional large text and short lines.
"""

import framebuf
from micropython import const

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import I2C

_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)

_LINE_HEIGHT = const(8)
_GLYPH = const(8)


class Ssd1306:
    """128x32 or 128x64 SSD1306 on I2C; the whole frame goes out in one write per refresh."""

    def __init__(self, i2c: "I2C", width: int = 128, height: int = 32, address: int = 0x3C) -> None:
        if height not in (32, 64):
            raise ValueError("SSD1306 height must be 32 or 64")
        self._i2c = i2c
        self._address = address
        self.width = width
        self.height = height
        self._pages = height // 8
        # One command/data prefix byte, then the frame: a single bus write per refresh.
        self._tx = bytearray(1 + width * self._pages)
        self._tx[0] = 0x40
        self.buffer = memoryview(self._tx)[1:]
        self.framebuf = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self._glyph_buf = bytearray(_GLYPH)
        self._glyph = framebuf.FrameBuffer(self._glyph_buf, _GLYPH, _GLYPH, framebuf.MONO_VLSB)
        self._cmd = bytearray(2)
        self.painter = ScreenPainter(self.framebuf, width, height, self._glyph)

    def init_display(self) -> None:
        for command in (
            _SET_DISP,
            _SET_MEM_ADDR, 0x00,
            _SET_DISP_START_LINE,
            _SET_SEG_REMAP | 0x01,
            _SET_MUX_RATIO, self.height - 1,
            _SET_COM_OUT_DIR | 0x08,
            _SET_DISP_OFFSET, 0x00,
            _SET_COM_PIN_CFG, 0x02 if self.height == 32 else 0x12,
            _SET_DISP_CLK_DIV, 0x80,
            _SET_PRECHARGE, 0xF1,
            _SET_VCOM_DESEL, 0x30,
            _SET_CONTRAST, 0xFF,
            _SET_ENTIRE_ON,
            _SET_NORM_INV,
            _SET_CHARGE_PUMP, 0x14,
            _SET_DISP | 0x01,
        ):  # fmt: skip
            self._command(command)
        self.framebuf.fill(0)
        self._flush()

    def _command(self, command: int) -> None:
        self._cmd[0] = 0x80
        self._cmd[1] = command
        self._i2c.writeto(self._address, self._cmd)

    def _flush(self) -> None:
        for command in (_SET_COL_ADDR, 0, self.width - 1, _SET_PAGE_ADDR, 0, self._pages - 1):
            self._command(command)
        self._i2c.writeto(self._address, self._tx)

    def show(self, big: str | None, lines: tuple[str, ...]) -> None:
        self.painter.paint(big, lines)
        self._flush()


class ScreenPainter:
    """Lays out ``(big, lines)`` on a framebuf: big text scaled up on the left, lines beside it."""

    def __init__(self, fb: framebuf.FrameBuffer, width: int, height: int, glyph: framebuf.FrameBuffer) -> None:
        self._fb = fb
        self._width = width
        self._height = height
        self._glyph = glyph

    def _big_text(self, text: str, x: int, scale: int) -> None:
        fb = self._fb
        glyph = self._glyph
        for char in text:
            glyph.fill(0)
            glyph.text(char, 0, 0, 1)
            for gy in range(_GLYPH):
                for gx in range(_GLYPH):
                    if glyph.pixel(gx, gy):
                        fb.fill_rect(x + gx * scale, gy * scale, scale, scale, 1)
            x += _GLYPH * scale

    def paint(self, big: str | None, lines: tuple[str, ...]) -> None:
        fb = self._fb
        fb.fill(0)
        x = 0
        if big:
            scale = max(1, min(self._height // _GLYPH, self._width // (len(big) * _GLYPH + _GLYPH)))
            scale = min(scale, 3)
            self._big_text(big, 0, scale)
            x = len(big) * _GLYPH * scale + 4
        y = 0
        for line in lines:
            if y + _LINE_HEIGHT > self._height:
                break
            fb.text(line, x, y, 1)
            y += _LINE_HEIGHT
