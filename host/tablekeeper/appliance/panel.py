"""The front panel drawing (SVG, millimetres) drawn from a station config: cut-outs, holes, dimensions.

The arrangement follows the simulated panel (games' displays on top, the panel's buttons below,
then one column per seat: display, its buttons, its LED), so the box a maker builds looks like the
simulator. Sizes are those of the common modules in the BOM; a cut-out is the display's visible
window, with the module's board (mounted behind the panel) dashed around it. Deterministic output.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Final

from tablekeeper.config import DisplayConfig, StationConfig
from tablekeeper.core.tracks import SeatTrack
from tablekeeper.ui.legibility import active_area_mm

# (driver, width px, height px) -> (board w, board h, window w, window h) in mm, as the modules are sold.
MODULES: Final[dict[tuple[str, int, int], tuple[float, float, float, float]]] = {
    ("ssd1306", 128, 64): (27.0, 27.0, 22.0, 11.0),  # 0.96 in
    ("sh1106", 128, 64): (35.4, 33.5, 30.0, 15.0),  # 1.3 in
    ("ssd1309", 128, 64): (43.0, 39.0, 36.0, 18.0),  # 1.54 in
    ("ssd1306", 128, 32): (38.0, 12.0, 23.0, 6.0),  # 0.91 in
}
BUTTON_HOLE_MM: Final = 12.5  # 12x12 mm tactile switch with a round cap (BOM item 7)
BUTTON_PITCH_MM: Final = 20.0
LED_HOLE_MM: Final = 5.2  # 5 mm LED (BOM item 8)
MARGIN_MM: Final = 15.0
GAP_MM: Final = 10.0
LABEL_MM: Final = 6.0  # room under each cut-out for its label
FONT: Final = "DejaVu Sans, sans-serif"


@dataclass(frozen=True, slots=True)
class Cutout:
    """A rectangular window (``x``, ``y`` its top-left corner) or a round hole (``x``, ``y`` its centre)."""

    name: str
    x: float
    y: float
    w: float
    h: float = 0.0  # 0: a round hole of diameter ``w``
    board: tuple[float, float] | None = None  # a display module's board, centred on the window


def module_size(display: DisplayConfig) -> tuple[float, float, float, float]:
    """Board and window (mm): the window is the declared panel's active area, so the drawing follows
    ``panel =`` in the config; the board is the module as sold where known, else a 4 mm border."""
    window_w, window_h = active_area_mm(display.panel, display.size)
    known = MODULES.get((display.driver, display.width, display.height))
    if known is not None and abs(known[2] - window_w) < 3.0 and abs(known[3] - window_h) < 3.0:
        return known
    return round(window_w + 8.0, 1), round(window_h + 8.0, 1), round(window_w, 1), round(window_h, 1)


def layout(cfg: StationConfig) -> tuple[list[Cutout], float, float]:
    """Every cut-out and the panel's width and height (mm)."""
    cuts: list[Cutout] = []
    y = MARGIN_MM
    x = MARGIN_MM
    row_w = 0.0
    top = [d for d in cfg.displays if not d.role.startswith("seat")]
    tallest = 0.0
    for display in top:
        board_w, board_h, window_w, window_h = module_size(display)
        cuts.append(Cutout(f"display {display.role}", x + (board_w - window_w) / 2, y + (board_h - window_h) / 2,
                           window_w, window_h, (board_w, board_h)))
        x += board_w + GAP_MM
        tallest = max(tallest, board_h)
    row_w = max(row_w, x - GAP_MM)
    if top:
        y += tallest + LABEL_MM + GAP_MM
    panel_buttons = [b for b in cfg.buttons if not b.role.startswith("seat")]
    for i, button in enumerate(panel_buttons):
        centre_x = MARGIN_MM + BUTTON_HOLE_MM / 2 + i * BUTTON_PITCH_MM
        cuts.append(Cutout(f"button {button.label or button.role}", centre_x, y + BUTTON_HOLE_MM / 2, BUTTON_HOLE_MM))
    if panel_buttons:
        row_w = max(row_w, MARGIN_MM + (len(panel_buttons) - 1) * BUTTON_PITCH_MM + BUTTON_HOLE_MM)
        y += BUTTON_HOLE_MM + LABEL_MM + GAP_MM
    seats = sorted({int(d.role[4:]) for d in cfg.displays if d.role.startswith("seat") and d.role[4:].isdigit()}
                   | {int(o.name[4:]) for o in cfg.leds if o.name.startswith("seat") and o.name[4:].isdigit()})
    x = MARGIN_MM
    bottom = y
    for seat in seats:
        seat_display = cfg.display(f"seat{seat}")
        buttons = [b for b in cfg.buttons if (owner := SeatTrack.parse(b.role)) is not None and owner.seat == seat]
        column_w = max(BUTTON_PITCH_MM * max(len(buttons), 1) + LED_HOLE_MM, 0.0)
        sy = y
        if seat_display is not None:
            board_w, board_h, window_w, window_h = module_size(seat_display)
            column_w = max(column_w, board_w)
            cuts.append(Cutout(f"display seat{seat}", x + (board_w - window_w) / 2, sy + (board_h - window_h) / 2,
                               window_w, window_h, (board_w, board_h)))
            sy += board_h + LABEL_MM
        for i, button in enumerate(buttons):
            cuts.append(Cutout(f"seat{seat} {button.label or button.role.split('.', 1)[1]}",
                               x + BUTTON_HOLE_MM / 2 + i * BUTTON_PITCH_MM, sy + BUTTON_HOLE_MM / 2, BUTTON_HOLE_MM))
        if cfg.led(seat) is not None:
            cuts.append(Cutout(f"seat{seat} LED", x + column_w - LED_HOLE_MM / 2, sy + BUTTON_HOLE_MM / 2, LED_HOLE_MM))
        bottom = max(bottom, sy + BUTTON_HOLE_MM + LABEL_MM)
        x += column_w + GAP_MM
    row_w = max(row_w, x - GAP_MM)
    return cuts, round(row_w + MARGIN_MM, 1), round((bottom if seats else y - GAP_MM) + MARGIN_MM, 1)


def _text(parent: ET.Element, x: float, y: float, text: str, *, size: float = 2.6, anchor: str = "middle",
          fill: str = "#000000") -> None:
    element = ET.SubElement(parent, "text", {"x": f"{x:.1f}", "y": f"{y:.1f}", "font-size": f"{size:g}",
                                             "text-anchor": anchor, "fill": fill})
    element.text = text


def render_panel_svg(cfg: StationConfig, *, source_name: str = "hardware/station.toml") -> str:
    """The panel at 1:1 in millimetres: red = cut, dashed grey = module board behind the panel."""
    cuts, width, height = layout(cfg)
    top = 22.0  # room for the title and the width dimension
    total_h = height + top + 12.0
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": f"{width + 20:.1f}mm",
                             "height": f"{total_h:.1f}mm", "viewBox": f"-10 0 {width + 20:.1f} {total_h:.1f}",
                             "font-family": FONT})
    ET.SubElement(svg, "rect", {"x": "-10", "width": f"{width + 20:.1f}", "height": f"{total_h:.1f}",
                                "fill": "#ffffff"})
    _text(svg, 0, 6, f"Tablekeeper front panel: station '{cfg.name}', {width:g} x {height:g} mm, 1:1",
          size=4, anchor="start")
    _text(svg, 0, 11, f"Generated from {source_name} by `tablekeeper hardware panel`. Red: cut. Dashed: the "
                      "module's board behind the panel. Positions are centres from the top-left corner (mm).",
          size=2.4, anchor="start", fill="#444444")
    # Overall width, with arrows drawn as a line and ticks.
    ET.SubElement(svg, "line", {"x1": "0", "y1": "17", "x2": f"{width:g}", "y2": "17", "stroke": "#000000",
                                "stroke-width": "0.2"})
    for tick in (0.0, width):
        ET.SubElement(svg, "line", {"x1": f"{tick:g}", "y1": "15", "x2": f"{tick:g}", "y2": "19",
                                    "stroke": "#000000", "stroke-width": "0.2"})
    _text(svg, width / 2, 16, f"{width:g} mm", size=2.8)
    panel = ET.SubElement(svg, "g", {"id": "panel", "transform": f"translate(0 {top:g})"})
    ET.SubElement(panel, "rect", {"id": "outline", "width": f"{width:g}", "height": f"{height:g}", "rx": "3",
                                  "fill": "none", "stroke": "#000000", "stroke-width": "0.4"})
    ET.SubElement(panel, "line", {"x1": "-4", "y1": "0", "x2": "-4", "y2": f"{height:g}", "stroke": "#000000",
                                  "stroke-width": "0.2"})
    label = ET.SubElement(panel, "text", {"x": "0", "y": "0", "font-size": "2.8", "text-anchor": "middle",
                                          "transform": f"translate(-5 {height / 2:g}) rotate(-90)"})
    label.text = f"{height:g} mm"
    for cut in cuts:
        group = ET.SubElement(panel, "g", {"id": "cut-" + cut.name.replace(" ", "-"), "data-name": cut.name})
        if cut.h:
            cx, cy = cut.x + cut.w / 2, cut.y + cut.h / 2
            if cut.board is not None:
                bw, bh = cut.board
                ET.SubElement(group, "rect", {"x": f"{cx - bw / 2:.1f}", "y": f"{cy - bh / 2:.1f}",
                                              "width": f"{bw:g}", "height": f"{bh:g}", "fill": "none",
                                              "stroke": "#999999", "stroke-width": "0.2",
                                              "stroke-dasharray": "1 1"})
            ET.SubElement(group, "rect", {"x": f"{cut.x:.1f}", "y": f"{cut.y:.1f}", "width": f"{cut.w:g}",
                                          "height": f"{cut.h:g}", "fill": "none", "stroke": "#d00000",
                                          "stroke-width": "0.3"})
            label_y = cy + (cut.board[1] / 2 if cut.board else cut.h / 2) + 3.5
            _text(group, cx, label_y, f"{cut.name}: window {cut.w:g} x {cut.h:g} at ({cx:.1f}, {cy:.1f})",
                  size=2.0)
        else:
            ET.SubElement(group, "circle", {"cx": f"{cut.x:.1f}", "cy": f"{cut.y:.1f}", "r": f"{cut.w / 2:g}",
                                            "fill": "none", "stroke": "#d00000", "stroke-width": "0.3"})
            for dx, dy in ((1.5, 0.0), (0.0, 1.5)):
                ET.SubElement(group, "line", {"x1": f"{cut.x - dx:.1f}", "y1": f"{cut.y - dy:.1f}",
                                              "x2": f"{cut.x + dx:.1f}", "y2": f"{cut.y + dy:.1f}",
                                              "stroke": "#d00000", "stroke-width": "0.15"})
            _text(group, cut.x, cut.y + cut.w / 2 + 3, f"{cut.name} \u00f8{cut.w:g}", size=2.0)
            _text(group, cut.x, cut.y + cut.w / 2 + 5.4, f"({cut.x:.1f}, {cut.y:.1f})", size=1.8, fill="#444444")
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"
