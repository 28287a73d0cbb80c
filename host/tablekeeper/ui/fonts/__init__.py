"""The bundled bitmap fonts (public-domain X11 misc-fixed), loaded once on first use."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

HERE = Path(__file__).parent  # the package is installed as files (never zipped): no importlib.resources

SMALL = "5x8"
BODY = "6x10"
TITLE = "6x13B"
BIG = "10x20"


@cache
def font(name: str) -> ImageFont.ImageFont:
    """A bundled font by name (``5x8``, ``6x10``, ``6x13B``, ``10x20``)."""
    return ImageFont.load(str(HERE / f"{name}.pil"))


def cell(name: str) -> tuple[int, int]:
    """Character cell (width, height) in pixels, from the font's name."""
    width, height = name.rstrip("B").split("x")
    return int(width), int(height)
