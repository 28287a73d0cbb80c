"""The front panel drawing: a cut-out for every display, button and LED the config names, at 1:1 in mm."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import msgspec
import pytest

from tablekeeper.appliance.panel import BUTTON_HOLE_MM, LED_HOLE_MM, layout, render_panel_svg
from tablekeeper.appliance.wiring import render_wiring_svg
from tablekeeper.cli import main
from tablekeeper.config import default_config_path, load_config

REPO = Path(__file__).resolve().parents[2]
SVG_NS = "{http://www.w3.org/2000/svg}"


def _cuts(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.attrib["data-name"]: g for g in root.iter(f"{SVG_NS}g") if "data-name" in g.attrib}


def test_committed_panel_svg_matches_a_fresh_generation(tmp_path: Path) -> None:
    fresh = tmp_path / "panel.svg"
    assert main(["hardware", "panel", "--config", str(default_config_path()), "--out", str(fresh)]) == 0
    assert fresh.read_text(encoding="utf-8") == (REPO / "hardware" / "panel.svg").read_text(encoding="utf-8"), \
        "hardware/panel.svg is stale: run  tablekeeper hardware panel --out hardware/panel.svg"


def test_every_display_button_and_led_has_its_cutout_inside_the_panel() -> None:
    cfg = load_config(default_config_path())
    cuts, width, height = layout(cfg)
    names = {cut.name for cut in cuts}
    assert {f"display {d.role}" for d in cfg.displays} <= names
    assert len([c for c in cuts if c.h == 0 and c.w == BUTTON_HOLE_MM]) == len(cfg.buttons)
    assert len([c for c in cuts if c.h == 0 and c.w == LED_HOLE_MM]) == len(cfg.leds)
    for cut in cuts:
        left, top = (cut.x, cut.y) if cut.h else (cut.x - cut.w / 2, cut.y - cut.w / 2)
        right, bottom = (cut.x + cut.w, cut.y + cut.h) if cut.h else (cut.x + cut.w / 2, cut.y + cut.w / 2)
        assert left > 0 and right < width and top > 0 and bottom < height, cut
    svg = render_panel_svg(cfg)
    assert f'width="{width + 20:.1f}mm"' in svg and set(_cuts(svg)) == names
    assert "window 55 x 27.5" in svg  # the 2.42 in SSD1309 active area, from the display's panel = "2.42in"


def test_a_fifth_button_per_seat_widens_the_panel() -> None:
    cfg = load_config(default_config_path())
    _, width, _ = layout(cfg)
    extra = msgspec.structs.replace(cfg.buttons[-1], name="seat4_c", role="seat4.c", pin=2, key="")
    _, wider, _ = layout(msgspec.structs.replace(cfg, buttons=(*cfg.buttons, extra)))
    assert wider > width


def test_the_wiring_names_the_buzzer_stage_and_the_modules_to_readdress() -> None:
    cfg = load_config(default_config_path())
    svg = render_wiring_svg(cfg)
    root = ET.fromstring(svg)
    assert any(g.attrib.get("id") == "buzzer-stage" for g in root.iter(f"{SVG_NS}g"))
    assert "5V (pin 2 or 4)" in svg and "1 kohm" in svg and "NPN 2N2222" in svg
    moved = [d.role for d in cfg.displays if d.address == 0x3D]
    assert moved and all(f"{role} (" in svg for role in moved)
    quiet = render_wiring_svg(msgspec.structs.replace(cfg, buzzer=None))
    assert "buzzer-stage" not in quiet


@pytest.mark.parametrize("drawing", ["panel", "wiring"])
def test_an_unwritable_out_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], drawing: str) -> None:
    assert main(["hardware", drawing, "--out", str(tmp_path / "missing" / "x.svg")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
