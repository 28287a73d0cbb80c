"""`tablekeeper hardware phones` makes the README's picture of the phones' pages beside the panel (a
real simulator run with its pages, photographed in headless Chromium); a folder that does not exist is
one line. Skips without Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tablekeeper.appliance.phone_picture import HEIGHT
from tablekeeper.cli import main
from tests.web.phones import needs_chromium


@pytest.mark.stress  # 20 s of a simulator run photographed in Chromium: a picture for the README
@needs_chromium
def test_the_phones_picture_is_made_from_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("playwright.sync_api")
    out = tmp_path / "phones.png"
    assert main(["hardware", "phones", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    with Image.open(out) as picture:
        assert picture.height == HEIGHT and picture.width > 2 * HEIGHT  # the panel and two phones side by side
        rgb = picture.convert("RGB")
        # the table page's coloured banner (the card just revealed) is on the right-hand side
        assert any(rgb.getpixel((x, y)) != rgb.getpixel((0, 0))
                   for x in range(picture.width * 3 // 4, picture.width, 7) for y in range(0, HEIGHT, 7))


def test_a_missing_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "phones", "--out", str(tmp_path / "nowhere" / "phones.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nowhere" in err[0]


def test_without_chromium_it_says_what_it_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda _name: None)
    assert main(["hardware", "phones", "--out", str(tmp_path / "phones.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Chromium" in err[0] and "Playwright" in err[0]
    assert not (tmp_path / "phones.png").exists()
