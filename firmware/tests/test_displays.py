"""Display drivers against a recording I2C bus and recording pins."""

import framebuf
import machine
from counter.ssd1306 import Ssd1306
from counter.text_display import TextDisplay
from counter.tm1637 import Tm1637


def _lit(display):
    return sum(bin(byte).count("1") for byte in display.buffer)


def test_ssd1306_init_then_one_frame_write_per_show():
    i2c = machine.I2C(0)
    display = Ssd1306(i2c, 128, 32)
    display.init_display()
    frames = [data for _, data in i2c.writes if data[0] == 0x40]
    assert len(frames) == 1 and len(frames[0]) == 1 + 128 * 4
    assert all(byte == 0 for byte in frames[0][1:])
    i2c.writes.clear()
    display.show("12", ("HP /20",))
    frames = [data for addr, data in i2c.writes if data[0] == 0x40]
    assert len(frames) == 1
    assert all(addr == 0x3C for addr, _ in i2c.writes)
    assert _lit(display) > 100


def test_ssd1306_big_digits_are_drawn_scaled():
    display = Ssd1306(machine.I2C(0), 128, 32)
    reference = bytearray(8)
    glyph = framebuf.FrameBuffer(reference, 8, 8, framebuf.MONO_VLSB)
    glyph.text("1", 0, 0, 1)
    small = sum(bin(byte).count("1") for byte in reference)
    display.show("1", ())
    assert _lit(display) == small * 9  # scale 3 on a 32-pixel-high panel


def test_ssd1306_rejects_unknown_height():
    try:
        Ssd1306(machine.I2C(0), 128, 48)
    except ValueError:
        return
    raise AssertionError("48-pixel height accepted")


def test_tm1637_encodes_right_aligned_digits_and_dashes():
    clk = machine.Pin(2)
    dio = machine.Pin(3)
    display = Tm1637(clk, dio, lambda us: None)
    display.encode("7")
    assert bytes(display.segments) == b"\x00\x00\x00\x07"
    display.encode("18")
    assert bytes(display.segments) == b"\x00\x00\x06\x7f"
    display.encode("3 4")
    assert bytes(display.segments) == b"\x40\x40\x40\x40"


def test_tm1637_clocks_out_the_segment_bytes():
    clk = machine.Pin(2)
    dio = machine.Pin(3)
    display = Tm1637(clk, dio, lambda us: None)
    display.init_display()
    dio.history.clear()
    clk.history.clear()
    display.show("5", ())
    # Data bits are set while the clock is low; rebuild each byte from the dio levels.
    assert clk.history.count(1) == 9 * (1 + 1 + 4 + 1) + 3
    assert 0x6D in _bytes_sent(dio.history)


def _bytes_sent(levels):
    # Each byte: 8 data levels then the ack release (1); start/stop add fixed edges around them.
    sent = []
    index = 0
    while index + 8 < len(levels):
        value = 0
        for bit in range(8):
            value |= levels[index + bit] << bit
        sent.append(value)
        index += 1
    return sent


def test_text_display_keeps_the_last_screen():
    shown = []
    display = TextDisplay(shown.append)
    display.show("3", ("HP /9", "SEAT 1"))
    assert display.text == "3 | HP /9 | SEAT 1"
    assert shown == ["3 | HP /9 | SEAT 1"]
