"""The wiring SVG is drawn from the station config and the committed copy matches a fresh drawing."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tablekeeper.appliance.wiring import HEADER, PHYSICAL_PIN, render_wiring_svg
from tablekeeper.cli import main
from tablekeeper.config import default_config_path, load_config, parse_config

REPO = Path(__file__).resolve().parents[2]
SVG_NS = "{http://www.w3.org/2000/svg}"


def _pins(svg: str) -> dict[int, dict[str, str]]:
    root = ET.fromstring(svg)
    return {int(g.attrib["id"].removeprefix("pin-")): g.attrib for g in root.iter(f"{SVG_NS}g")
            if g.attrib.get("id", "").startswith("pin-")}


def test_committed_wiring_svg_matches_a_fresh_generation(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    fresh = tmp_path / "wiring.svg"
    assert main(["hardware", "wiring", "--config", str(default_config_path()), "--out", str(fresh)]) == 0
    committed = (REPO / "hardware" / "wiring.svg").read_text(encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == committed, \
        "hardware/wiring.svg is stale: run  tablekeeper hardware wiring --out hardware/wiring.svg"
    assert "hardware/station.toml" in committed and str(REPO) not in committed


def test_every_claimed_pin_is_drawn_at_its_header_position() -> None:
    cfg = load_config(default_config_path())
    pins = _pins(render_wiring_svg(cfg))
    assert sorted(pins) == list(range(1, 41))
    for bcm, key in cfg.pin_map().items():
        drawn = pins[PHYSICAL_PIN[bcm]]
        assert (drawn["data-bcm"], drawn["data-use"]) == (str(bcm), key)
    unclaimed = [p for p, carries in HEADER.items() if isinstance(carries, int) and carries not in cfg.pin_map()]
    assert all(pins[p]["data-use"] == "" for p in unclaimed)
    assert pins[6]["data-supply"] == "GND" and pins[1]["data-supply"] == "3V3"


def test_moving_a_button_moves_it_in_the_drawing() -> None:
    text = default_config_path().read_text(encoding="utf-8")
    moved = parse_config(text.replace("[buttons.next]\npin = 5", "[buttons.next]\npin = 11"), source="moved.toml")
    pins = _pins(render_wiring_svg(moved))
    assert pins[PHYSICAL_PIN[11]]["data-use"] == "buttons.next.pin"
    assert pins[PHYSICAL_PIN[5]]["data-use"] == ""


def test_an_invalid_config_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "station.toml"
    bad.write_text("[buttons.next]\npin = 99\n")
    out = tmp_path / "wiring.svg"
    assert main(["hardware", "wiring", "--config", str(bad), "--out", str(out)]) == 2
    assert "buttons.next.pin" in capsys.readouterr().err
    assert not out.exists()
