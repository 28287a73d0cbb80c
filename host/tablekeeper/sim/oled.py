"""Stand-ins for luma's serial interfaces: one records the bytes, one also plays the OLED chip.

``OledChip`` decodes the command stream as an SSD1306 (horizontal addressing with column/page
windows) or an SH1106 (page addressing, 132-column RAM) does and keeps the display RAM, so the
simulator shows exactly what the bytes would put on glass, and tests can check partial updates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # an emulated chip stands in for the Pi's bus at start-up, which loads no PIL
    from PIL import Image

# Commands followed by argument bytes, per chip family (luma sends each command with its
# arguments in one ``command(*cmd)`` call).
SSD1306_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
                0x8D: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}
SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1, 0x8D: 1}


class RecordingSerial:
    """Implements luma's serial interface (``command``, ``data``, ``cleanup``) and keeps every call."""

    def __init__(self, *, record: bool = True) -> None:
        self.record = record  # False: count only (a long simulator run must not keep every frame)
        self.calls: list[tuple[str, bytes]] = []
        self.transfers = 0
        self.byte_count = 0
        self.cleaned_up = False
        self.fail_with: BaseException | None = None

    def command(self, *cmd: int) -> None:
        self._keep("command", bytes(cmd))

    def data(self, data: Iterable[int]) -> None:
        self._keep("data", bytes(data))

    def _keep(self, kind: str, payload: bytes) -> None:
        self._check()
        self.transfers += 1
        self.byte_count += len(payload)
        if self.record:
            self.calls.append((kind, payload))

    def cleanup(self) -> None:
        self.cleaned_up = True

    def _check(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with

    def take(self) -> list[tuple[str, bytes]]:
        """The calls since the last ``take``."""
        calls, self.calls = self.calls, []
        return calls



class OledChip(RecordingSerial):
    """A recording interface that also emulates the display RAM of an SSD1306 or SH1106."""

    def __init__(self, driver: str, width: int = 128, height: int = 64, *, record: bool = True) -> None:
        super().__init__(record=record)
        self.page_addressing = driver == "sh1106"
        self.ram_width = 132 if self.page_addressing else width
        self.width, self.height = width, height
        self.pages = height // 8
        self.ram = [bytearray(self.ram_width) for _ in range(8)]
        self.on = False
        self.column = 0
        self.page = 0
        self.col_window = (0, self.ram_width - 1)
        self.page_window = (0, self.pages - 1)
        self.column_offset = 2 if self.page_addressing else 0

    def command(self, *cmd: int) -> None:
        super().command(*cmd)
        args_of = SH1106_ARGS if self.page_addressing else SSD1306_ARGS
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = args_of.get(op, 0)
            self._apply(op, cmd[i + 1:i + 1 + n])
            i += 1 + n

    def _apply(self, op: int, args: Sequence[int]) -> None:
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif self.page_addressing:
            if 0xB0 <= op <= 0xB7:
                self.page = op & 0x07
            elif op <= 0x0F:
                self.column = (self.column & 0xF0) | op
            elif 0x10 <= op <= 0x1F:
                self.column = ((op & 0x0F) << 4) | (self.column & 0x0F)
        elif op == 0x21 and len(args) == 2:
            self.col_window = (args[0], args[1])
            self.column = args[0]
        elif op == 0x22 and len(args) == 2:
            self.page_window = (args[0], args[1])
            self.page = args[0]

    def data(self, data: Iterable[int]) -> None:
        payload = bytes(data)
        super().data(payload)
        for byte in payload:
            if self.page_addressing:
                if self.column < self.ram_width:
                    self.ram[self.page][self.column] = byte
                    self.column += 1
                continue
            self.ram[self.page][self.column] = byte
            if self.column < self.col_window[1]:
                self.column += 1
            else:
                self.column = self.col_window[0]
                self.page = self.page + 1 if self.page < self.page_window[1] else self.page_window[0]

    def image(self) -> Image.Image:
        """What the glass shows, in the chip's own orientation (before luma's rotation)."""
        from PIL import Image

        picture = Image.new("1", (self.width, self.height))
        if not self.on:
            return picture
        start = self.column_offset
        for page in range(self.pages):
            # a RAM byte is a column of 8 pixels, lowest bit on top: read the page's bytes as a
            # picture 8 wide (one row per column, least significant bit first), then turn it over
            columns = Image.frombytes("1", (8, self.width), bytes(self.ram[page][start:start + self.width]),
                                      "raw", "1;R")
            picture.paste(columns.transpose(Image.Transpose.TRANSPOSE), (0, page * 8))
        return picture
