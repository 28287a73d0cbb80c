"""The wiring diagram (SVG) drawn from a station config, so the picture cannot drift from the build.

Left: the Pi's 40-pin header, every pin the config claims coloured and labelled with its config
key. Right: tables of displays (bus, pins, address), buttons, outputs and USB counters. The output
is deterministic (no dates, stable order): regenerating an unchanged config gives the same bytes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Final

from tablekeeper.config import StationConfig

# Physical header position (1..40) -> BCM GPIO number, or the supply it carries.
HEADER: Final[dict[int, int | str]] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}
PHYSICAL_PIN: Final[dict[int, int]] = {bcm: pos for pos, bcm in HEADER.items() if isinstance(bcm, int)}

COLOURS: Final = {
    "SDA": "#1f6fd1", "SCL": "#e0a800", "MOSI": "#7a4fd1", "MISO": "#7a4fd1", "SCLK": "#7a4fd1",
    "CE": "#7a4fd1", "button": "#2e9e44", "led": "#d13a2e", "buzzer": "#a0398f", "display": "#555555",
    "uart": "#888888", "3V3": "#e06666", "5V": "#b00000", "GND": "#222222", "free": "#ffffff",
}
ROW_H: Final = 22
TOP: Final = 90
HEADER_X: Final = 430
TABLE_X: Final = 830
LINE_H: Final = 17
FONT: Final = "DejaVu Sans Mono, monospace"
BUZZER_STAGE_H: Final = 210  # the buzzer's transistor stage, drawn below the notes


def _kind(key: str) -> str:
    """Colour class of a pin claim key from ``StationConfig.pin_map``."""
    if key.startswith("buttons."):
        return "button"
    if key.startswith("outputs.leds."):
        return "led"
    if key.startswith("outputs.buzzer"):
        return "buzzer"
    if key.startswith("uart"):
        return "uart"
    if key.startswith("displays["):
        return "display"
    signal = key[key.rfind("(") + 1:-1] if key.endswith(")") else ""
    return "CE" if signal.startswith("CE") else signal if signal in COLOURS else "display"


def _text(parent: ET.Element, x: float, y: float, text: str, *, anchor: str = "start", size: int = 12,
          weight: str = "normal", fill: str = "#000000") -> ET.Element:
    element = ET.SubElement(parent, "text", {"x": f"{x:g}", "y": f"{y:g}", "font-size": str(size),
                                             "text-anchor": anchor, "font-weight": weight, "fill": fill})
    element.text = text
    return element


def _pin_labels(cfg: StationConfig) -> dict[int, str]:
    """BCM pin -> a readable label: the config key plus the button's printed label or bus name."""
    labels = {}
    buttons = {f"buttons.{b.name}.pin": b for b in cfg.buttons}
    for pin, key in cfg.pin_map().items():
        button = buttons.get(key)
        labels[pin] = f"{key} [{button.label or button.role}]" if button else key
    return labels


def render_wiring_svg(cfg: StationConfig, *, source_name: str = "hardware/station.toml") -> str:
    """The diagram as SVG text; ``source_name`` is printed in the title (keep it repo-relative)."""
    claims = cfg.pin_map()
    labels = _pin_labels(cfg)
    rows = _table_rows(cfg)
    height = max(TOP + 20 * ROW_H + 130, TOP + len(rows) * (LINE_H + 2) + 40)
    if cfg.buzzer is not None:
        height += BUZZER_STAGE_H
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": "1400", "height": str(height),
                             "viewBox": f"0 0 1400 {height}", "font-family": FONT})
    ET.SubElement(svg, "rect", {"width": "1400", "height": str(height), "fill": "#ffffff"})
    _text(svg, 20, 32, f"Tablekeeper wiring: station '{cfg.name}'", size=20, weight="bold")
    _text(svg, 20, 54, f"Generated from {source_name} by `tablekeeper hardware wiring`; BCM numbers, "
                       "header seen from above with pin 1 top left.", size=12, fill="#444444")

    header = ET.SubElement(svg, "g", {"id": "header"})
    ET.SubElement(header, "rect", {"x": str(HEADER_X - 18), "y": str(TOP - 16), "width": "80",
                                   "height": str(20 * ROW_H + 10), "rx": "6", "fill": "#1d5e2e"})
    for position, carries in HEADER.items():
        row, column = (position - 1) // 2, (position - 1) % 2
        x = HEADER_X + column * 44
        y = TOP + row * ROW_H
        if isinstance(carries, int):
            key = claims.get(carries)
            fill = COLOURS[_kind(key)] if key else COLOURS["free"]
            label = f"GPIO{carries}" + (f"  {labels[carries]}" if key else "")
            attrs = {"id": f"pin-{position}", "data-bcm": str(carries), "data-use": key or ""}
        else:
            fill = COLOURS[carries]
            label = carries
            attrs = {"id": f"pin-{position}", "data-supply": carries}
        group = ET.SubElement(header, "g", attrs)
        ET.SubElement(group, "circle", {"cx": str(x), "cy": str(y), "r": "7", "fill": fill,
                                        "stroke": "#ffffff", "stroke-width": "1.5"})
        _text(group, x, y + 3.5, str(position), anchor="middle", size=7,
              fill="#ffffff" if fill not in (COLOURS["free"], COLOURS["SCL"]) else "#000000")
        if column == 0:
            _text(group, x - 26, y + 4, label, anchor="end", size=11)
        else:
            _text(group, x + 26, y + 4, label, size=11)

    legend_y = TOP + 20 * ROW_H + 30
    for i, (name, colour) in enumerate((("I2C SDA", COLOURS["SDA"]), ("I2C SCL", COLOURS["SCL"]),
                                        ("button", COLOURS["button"]), ("LED", COLOURS["led"]),
                                        ("buzzer", COLOURS["buzzer"]), ("SPI", COLOURS["CE"]),
                                        ("free", COLOURS["free"]))):
        x = 40 + i * 110
        ET.SubElement(svg, "circle", {"cx": str(x), "cy": str(legend_y), "r": "7", "fill": colour,
                                      "stroke": "#000000", "stroke-width": "0.5"})
        _text(svg, x + 12, legend_y + 4, name, size=11)
    notes = ("Buttons with pull_up join their GPIO to GND (any GND pin); pull-down ones join it to 3V3.",
             "Each LED needs a series resistor (330 ohm) between its GPIO and the LED's anode.",
             "Every OLED takes VCC from 3V3 (pin 1 or 17) and GND; modules on one bus share SDA and SCL.",
             *address_notes(cfg))
    for i, note in enumerate(notes):
        _text(svg, 40, legend_y + 30 + i * 18, note, size=11)

    if cfg.buzzer is not None:
        _buzzer_stage(svg, cfg.buzzer.pin, legend_y + 30 + len(notes) * 18 + 20)

    # Table columns are aligned with spaces, which SVG collapses unless told to keep them.
    tables = ET.SubElement(svg, "g", {"id": "tables", "{http://www.w3.org/XML/1998/namespace}space": "preserve"})
    y = TOP
    for kind, cells in rows:
        if kind == "heading":
            y += 8
            _text(tables, TABLE_X, y, cells[0], size=13, weight="bold")
        else:
            _text(tables, TABLE_X, y, "  ".join(cells), size=11)
        y += LINE_H
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


def address_notes(cfg: StationConfig) -> tuple[str, ...]:
    """Which modules the config puts at 0x3D, and how each kind is set there: an SSD1309 (wired for
    I2C) by its DC pin, an SSD1306 or SH1106 by the pad on its back (they ship at 0x3C)."""
    moved = [d for d in cfg.displays if d.address == 0x3D]
    if not moved:
        return ("Every display is at 0x3C (SSD1309: DC pin to GND; others as they ship).",)
    how = []
    if any(d.driver == "ssd1309" for d in moved):
        how.append("SSD1309: DC pin to 3V3")
    if any(d.driver != "ssd1309" for d in moved):
        how.append("SSD1306/SH1106: move the address pad, the resistor marked 0x78 -> 0x7A")
    return (f"These answer at 0x3D ({'; '.join(how)}); the others at 0x3C:",
            "    " + ", ".join(f"{d.role} ({d.driver}, bus {d.bus})" for d in moved) + ".")


def _buzzer_stage(svg: ET.Element, pin: int, top: float) -> None:
    """The low-side NPN switch: GPIO -> 1 kohm -> base; buzzer between 5 V and the collector; emitter to GND."""
    stage = ET.SubElement(svg, "g", {"id": "buzzer-stage", "stroke": "#000000", "stroke-width": "1.5",
                                     "fill": "none"})
    _text(svg, 40, top, "Buzzer stage (the pin only drives the transistor's base; the buzzer runs from 5 V):",
          size=12, weight="bold")
    y = top + 100  # the base line
    x0 = 60
    _text(svg, x0, y - 8, f"GPIO{pin} (pin {PHYSICAL_PIN[pin]})", size=11, fill=COLOURS["buzzer"])
    ET.SubElement(stage, "line", {"x1": str(x0), "y1": str(y), "x2": str(x0 + 130), "y2": str(y)})
    ET.SubElement(stage, "rect", {"id": "base-resistor", "x": str(x0 + 130), "y": str(y - 8), "width": "50",
                                  "height": "16"})
    _text(svg, x0 + 155, y + 26, "1 kohm", anchor="middle", size=11)
    bx = x0 + 240  # the transistor's base bar
    ET.SubElement(stage, "line", {"x1": str(x0 + 180), "y1": str(y), "x2": str(bx), "y2": str(y)})
    ET.SubElement(stage, "circle", {"id": "npn", "cx": str(bx + 14), "cy": str(y), "r": "24"})
    ET.SubElement(stage, "line", {"x1": str(bx), "y1": str(y - 14), "x2": str(bx), "y2": str(y + 14)})
    collector_x = bx + 24
    ET.SubElement(stage, "line", {"x1": str(bx), "y1": str(y - 6), "x2": str(collector_x), "y2": str(y - 20)})
    ET.SubElement(stage, "line", {"x1": str(bx), "y1": str(y + 6), "x2": str(collector_x), "y2": str(y + 20)})
    _text(svg, bx + 44, y + 4, "NPN 2N2222 / S8050 (C top, E bottom)", size=11)
    # Collector up to the buzzer's minus; the buzzer's plus to 5 V.
    ET.SubElement(stage, "line", {"x1": str(collector_x), "y1": str(y - 20), "x2": str(collector_x),
                                  "y2": str(y - 40)})
    ET.SubElement(stage, "rect", {"id": "buzzer", "x": str(collector_x - 16), "y": str(y - 64), "width": "32",
                                  "height": "24"})
    _text(svg, collector_x + 24, y - 46, "active buzzer (- to collector, + to 5V)", size=11)
    ET.SubElement(stage, "line", {"x1": str(collector_x), "y1": str(y - 64), "x2": str(collector_x),
                                  "y2": str(y - 72)})
    _text(svg, collector_x, y - 75, "5V (pin 2 or 4)", anchor="middle", size=11, fill=COLOURS["5V"])
    # Emitter down to GND.
    ET.SubElement(stage, "line", {"x1": str(collector_x), "y1": str(y + 20), "x2": str(collector_x),
                                  "y2": str(y + 44)})
    ET.SubElement(stage, "line", {"x1": str(collector_x - 12), "y1": str(y + 44), "x2": str(collector_x + 12),
                                  "y2": str(y + 44)})
    _text(svg, collector_x, y + 60, "GND (pin 14)", anchor="middle", size=11)
    _text(svg, 40, y + 82, "Supply: 5 V from the header (the Pi's USB-C supply); an active 3.3-5 V buzzer draws "
                           "about 30 mA, more than a GPIO pin should give.", size=11)


def _pin(bcm: int) -> str:
    return f"BCM {bcm:>2} (pin {PHYSICAL_PIN[bcm]:>2})"


def _table_rows(cfg: StationConfig) -> list[tuple[str, tuple[str, ...]]]:
    rows: list[tuple[str, tuple[str, ...]]] = [("heading", ("Displays",))]
    for bus in cfg.buses:
        pins = ", ".join(f"{signal} {_pin(pin)}" for signal, pin in bus.pins if signal in ("SDA", "SCL", "MOSI",
                                                                                              "SCLK"))
        speed = f", {bus.speed_hz // 1000} kHz" if bus.speed_hz else ""
        rows.append(("row", (f"bus {bus.name}: {bus.kind.upper()} {bus.port}{speed}",)))
        rows.append(("row", (f"    {pins}",)))
        for d in (d for d in cfg.displays if d.bus == bus.name):
            if d.address is not None:
                where = f"addr {d.address:#04x}"
            else:
                where = f"CE{d.device}" + (f", DC {_pin(d.dc_pin)}" if d.dc_pin is not None else "")
            rows.append(("row", (f"    {d.role:<7}", f"{d.driver:<7}", f"{d.width}x{d.height}", where,
                                 f"rot {d.rotation * 90}")))
    rows.append(("heading", ("Buttons (to GND unless marked 3V3)",)))
    for b in sorted(cfg.buttons, key=lambda b: PHYSICAL_PIN[b.pin]):
        rows.append(("row", (f"{b.label or b.role:<5}", f"{b.role:<8}", _pin(b.pin), "" if b.pull_up else "3V3")))
    if cfg.leds or cfg.buzzer is not None:
        rows.append(("heading", ("Outputs",)))
        for o in (*cfg.leds, *((cfg.buzzer,) if cfg.buzzer else ())):
            rows.append(("row", (f"{o.name:<7}", _pin(o.pin), "active high" if o.active_high else "active low")))
    rows.append(("heading", ("Counters (USB, see firmware/README.md)",)))
    for c in cfg.counters:
        rows.append(("row", (f"seat{c.seat} {c.role:<5}", f"USB {c.vid_pid}", f"serial {c.serial or 'any'}")))
    if not cfg.counters:
        rows.append(("row", ("none",)))
    return rows
