"""The bundled bitmap fonts (public-domain X11 misc-fixed), loaded once on first use."""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import ImageFont

SMALL = "5x8"
BODY = "6x10"
TITLE = "6x13B"
BIG = "10x20"


@cache
def font(name: str) -> ImageFont.ImageFont:
    """A bundled font by name (``5x8``, ``6x10``, ``6x13B``, ``10x20``)."""
    path = resources.files(__name__) / f"{name}.pil"
    with resources.as_file(path) as pil_path:
        return ImageFont.load(str(pil_path))


def cell(name: str) -> tuple[int, int]:
    """Character cell (width, height) in pixels, from the font's name."""
    width, height = name.rstrip("B").split("x")
    return int(width), int(height)
