"""An animated GIF written frame by frame as the panel changes, so memory stays flat for any length of game.

luma.emulator's ``gifanim`` keeps every frame in memory until exit (about 2 MB a frame for the composed
panel) and draws through pygame; this device appends each frame to the open file at once, and makes it
in Pillow alone: the palette is chosen at the panel's own size and the frame scaled up afterwards, one
byte a pixel, so neither pygame (about 12 MB resident) nor a full-colour copy at the scaled size is
ever in memory.
"""

from __future__ import annotations

from typing import IO, Any

from luma.core.device import device
from luma.core.interface.serial import noop
from PIL import GifImagePlugin, Image

TRAILER = b";"


class GifStream(device):  # type: ignore[misc]  # luma.core ships no type hints
    """A luma device whose ``display`` appends one GIF frame (own palette) to ``filename``, each pixel
    drawn ``scale`` by ``scale`` as luma.emulator's ``identity`` transform draws it."""

    def __init__(self, *, filename: str, duration: float = 0.5, width: int = 128, height: int = 64,
                 rotate: int = 0, mode: str = "RGB", scale: int = 1, **_: Any) -> None:
        super().__init__(serial_interface=noop())
        self.capabilities(width, height, rotate, mode)
        self.scale = scale
        self.filename = filename
        self.duration_ms = int(duration * 1000)
        self.frames = 0
        self.bytes_written = 0
        self._file: IO[bytes] | None = None
        self._closed = False

    def display(self, image: Image.Image) -> None:
        if self._closed:
            return
        small = self.preprocess(image).convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE)
        width, height = small.size
        frame = small.resize((width * self.scale, height * self.scale), Image.Resampling.NEAREST)
        chunks: list[bytes] = []
        if self._file is None:
            self._file = open(self.filename, "wb")  # noqa: SIM115  # stays open across frames; closed in cleanup
            header, _ = GifImagePlugin.getheader(frame, info={"loop": 0})
            chunks += header
        chunks += GifImagePlugin.getdata(frame, duration=self.duration_ms, include_color_table=True)
        data = b"".join(chunks)
        self._file.write(data)
        self._file.flush()
        self.bytes_written += len(data)
        self.frames += 1

    def write_animation(self) -> None:
        """End the file (the GIF trailer); later frames are dropped. Safe to call more than once."""
        if self._closed:
            return
        self._closed = True
        if self._file is not None:
            self._file.write(TRAILER)
            self._file.close()
            self._file = None

    def cleanup(self) -> None:
        self.write_animation()
