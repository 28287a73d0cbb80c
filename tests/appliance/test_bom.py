"""The bill of materials agrees with the reference station config it claims to build."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from tablekeeper.config import default_config_path, load_config

BOM = Path(__file__).resolve().parents[2] / "hardware" / "bom.csv"


def test_bom_quantities_match_the_reference_config() -> None:
    rows = list(csv.DictReader(BOM.open(encoding="utf-8")))
    assert [int(r["item"]) for r in rows] == list(range(1, len(rows) + 1))
    assert all(r["part"] and r["unit"] and r["where"] in ("station", "per counter") for r in rows)
    cfg = load_config(default_config_path())
    wanted = Counter(f"displays {d.driver} {d.width}x{d.height} {d.panel}" for d in cfg.displays)
    wanted.update({"buttons": len(cfg.buttons), "leds": len(cfg.leds), "buzzer": int(cfg.buzzer is not None)})
    listed: Counter[str] = Counter()
    for row in rows:
        if row["config"]:
            listed[row["config"]] = max(listed[row["config"]], int(row["quantity"]))
    assert listed == wanted
