"""The README picture and hardware/photos are what `tablekeeper hardware photos` makes now."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from tablekeeper.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIX = "run: .venv/bin/tablekeeper hardware photos   (it rewrites hardware/photos/ and docs/images/panel.png)"


def same_picture(a: Path, b: Path) -> bool:
    with Image.open(a) as first, Image.open(b) as second:
        return first.size == second.size and ImageChops.difference(first.convert("RGB"),
                                                                   second.convert("RGB")).getbbox() is None


def test_committed_pictures_match_a_fresh_run(tmp_path: Path) -> None:
    assert main(["hardware", "photos", "--game", "arkham", "--out-dir", str(tmp_path / "photos"),
                 "--readme-picture", str(tmp_path / "panel.png")]) == 0
    assert same_picture(tmp_path / "photos" / "arkham.png", ROOT / "hardware" / "photos" / "arkham.png"), FIX
    assert same_picture(tmp_path / "panel.png", ROOT / "docs" / "images" / "panel.png"), FIX
