"""An animated GIF written frame by frame as the panel changes, so memory stays flat for any length of game.

luma.emulator's ``gifanim`` keeps every frame in memory until exit (about 2 MB a frame for the composed
panel); this device draws the same way but appends each frame to the open file at once.
"""

from __future__ import annotations

from typing import IO, Any

from luma.emulator.device import emulator
from PIL import GifImagePlugin, Image

TRAILER = b";"


class GifStream(emulator):  # type: ignore[misc]  # luma.emulator ships no type hints
    """A luma.emulator device whose ``display`` appends one GIF frame (own palette) to ``filename``."""

    def __init__(self, *, filename: str, duration: float = 0.5, width: int = 128, height: int = 64,
                 rotate: int = 0, mode: str = "RGB", transform: str = "identity", scale: int = 1,
                 **_: Any) -> None:
        super().__init__(width, height, rotate, mode, transform, scale)
        self.filename = filename
        self.duration_ms = int(duration * 1000)
        self.frames = 0
        self.bytes_written = 0
        self._file: IO[bytes] | None = None
        self._closed = False

    def display(self, image: Image.Image) -> None:
        if self._closed:
            return
        surface = self.to_surface(self.preprocess(image), alpha=self._contrast)
        raw = self._pygame.image.tostring(surface, "RGB", False)
        frame = Image.frombytes("RGB", surface.get_size(), raw).convert("P", palette=Image.Palette.ADAPTIVE)
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
