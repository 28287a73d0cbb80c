"""How big a display's pixels are and how far away it is read, so text can be sized in arcminutes.

A glyph's legibility depends on the angle it covers at the reader's eye, not on its pixel count:
16 arcmin is a common floor for reading, about 20-22 arcmin is comfortable.
"""

from __future__ import annotations

import math
import re
from typing import Final

import msgspec

FLOOR_ARCMIN: Final = 16.0
COMFORT_ARCMIN: Final = 20.0
DEFAULT_DISTANCE_CM: Final = {"seat": 50.0, "shared": 80.0}

# Active area (width x height, mm) of common OLED modules, from their datasheets.
KNOWN_PANELS: Final = {
    "0.91in": (22.38, 5.58),  # SSD1306 128x32
    "0.96in": (21.74, 10.86),  # SSD1306 128x64
    "1.3in": (29.42, 14.70),  # SH1106 128x64
    "1.54in": (35.05, 17.51),  # SSD1309 128x64
    "2.42in": (55.01, 27.49),  # SSD1309 128x64
}
_AREA = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*mm\s*$")
_DIAGONAL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*in\s*$")


class PanelSizeError(ValueError):
    """A ``panel`` value that names no module and is no active area ("0.96in", "21.7x10.9mm")."""


def active_area_mm(panel: str, pixels: tuple[int, int]) -> tuple[float, float]:
    """The panel's active area from a module name, an ``WxHmm`` area, or any diagonal in inches."""
    if panel in KNOWN_PANELS:
        return KNOWN_PANELS[panel]
    area = _AREA.match(panel)
    if area:
        width, height = float(area.group(1)), float(area.group(2))
    else:
        diagonal = _DIAGONAL.match(panel)
        if not diagonal:
            known = ", ".join(KNOWN_PANELS)
            raise PanelSizeError(f"{panel!r} is neither a known module ({known}) nor an area like '21.7x10.9mm'")
        inches = float(diagonal.group(1))
        px_w, px_h = pixels
        scale = inches * 25.4 / math.hypot(px_w, px_h)  # square pixels, the whole glass lit
        width, height = px_w * scale, px_h * scale
    if not (1.0 <= width <= 500.0 and 1.0 <= height <= 500.0):
        raise PanelSizeError(f"{panel!r}: an active area of {width:g} x {height:g} mm is not a display module")
    return width, height


def role_kind(role: str) -> str:
    """``seat`` for a seat's own display (read by one player), else ``shared``."""
    return "seat" if role.startswith("seat") else "shared"


class Viewing(msgspec.Struct, frozen=True):
    """One display as a reader sees it: pixels, millimetres per pixel, and reading distance."""

    pixels: tuple[int, int]
    pitch_mm: float
    distance_cm: float

    @classmethod
    def of(cls, pixels: tuple[int, int], panel: str, distance_cm: float) -> Viewing:
        width_mm, height_mm = active_area_mm(panel, pixels)
        return cls(pixels, max(width_mm / pixels[0], height_mm / pixels[1]), distance_cm)

    def mm(self, px: int) -> float:
        return px * self.pitch_mm

    def arcmin(self, px: int) -> float:
        """The angle ``px`` pixels of height cover at the reading distance."""
        return math.degrees(2 * math.atan(self.mm(px) / 2 / (self.distance_cm * 10))) * 60

    def px_for(self, arcmin: float) -> int:
        """The fewest whole pixels of height that reach ``arcmin``."""
        mm = 2 * self.distance_cm * 10 * math.tan(math.radians(arcmin / 60) / 2)
        return math.ceil(mm / self.pitch_mm - 1e-9)
