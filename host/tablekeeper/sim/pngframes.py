"""The panel's frames as numbered PNG files (``--display capture``), drawn by Pillow alone.

luma.emulator's ``capture`` draws each frame through pygame (about 12 MB resident once imported) and
scales it there; this device writes the same pixels, each ``scale`` by ``scale`` as luma.emulator's
``identity`` transform draws them, with Pillow, which the station has loaded already.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from luma.core.device import device
from luma.core.interface.serial import noop
from PIL import Image


class PngFrames(device):  # type: ignore[misc]  # luma.core ships no type hints
    """A luma device whose ``display`` writes one PNG, named by ``file_template`` and the frame number."""

    def __init__(self, *, file_template: str, width: int = 128, height: int = 64, rotate: int = 0,
                 mode: str = "RGB", scale: int = 1, **_: Any) -> None:
        super().__init__(serial_interface=noop())
        self.capabilities(width, height, rotate, mode)
        self.scale = scale
        self._file_template = file_template
        self._count = 0
        self.bytes_written = 0

    def display(self, image: Image.Image) -> None:
        picture = self.preprocess(image).convert("RGB")
        frame = picture.resize((picture.width * self.scale, picture.height * self.scale), Image.Resampling.NEAREST)
        self._count += 1
        path = Path(self._file_template.format(self._count))
        frame.save(path, format="PNG")
        self.bytes_written += path.stat().st_size

    def cleanup(self) -> None:
        """Nothing to close: each frame's file is complete when ``display`` returns."""
