"""The README picture, hardware/photos and the screen gallery (docs/screens.md) are what `tablekeeper
hardware photos` makes now."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from tablekeeper.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIX = ("run: .venv/bin/tablekeeper hardware photos   (it rewrites hardware/photos/, docs/images/panel.png and "
       "docs/screens.md with docs/images/screens/)")


def same_picture(a: Path, b: Path) -> bool:
    with Image.open(a) as first, Image.open(b) as second:
        return first.size == second.size and ImageChops.difference(first.convert("RGB"),
                                                                   second.convert("RGB")).getbbox() is None


def test_committed_pictures_match_a_fresh_run(tmp_path: Path) -> None:
    assert main(["hardware", "photos", "--game", "arkham", "--out-dir", str(tmp_path / "photos"),
                 "--readme-picture", str(tmp_path / "panel.png"), "--gallery", str(tmp_path / "screens.md")]) == 0
    assert same_picture(tmp_path / "photos" / "arkham.png", ROOT / "hardware" / "photos" / "arkham.png"), FIX
    assert same_picture(tmp_path / "panel.png", ROOT / "docs" / "images" / "panel.png"), FIX
    fresh = sorted(p.relative_to(tmp_path) for p in (tmp_path / "images" / "screens" / "arkham").glob("*.png"))
    docs = ROOT / "docs"
    committed = sorted(p.relative_to(docs) for p in (docs / "images" / "screens" / "arkham").glob("*.png"))
    assert fresh and fresh == committed, FIX  # the same kinds of screen
    for path in fresh:
        assert same_picture(tmp_path / path, ROOT / "docs" / path), f"{path}: {FIX}"
    section = (tmp_path / "screens.md").read_text(encoding="utf-8").split("\n## ", 1)[1]
    assert "\n## " + section in (ROOT / "docs" / "screens.md").read_text(encoding="utf-8"), FIX
