"""Photos of the simulated panel per game, taken through the simulator's capture mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tablekeeper.appliance.photos import place_picture, station_script, take_photos
from tablekeeper.config import default_config_path, load_config
from tablekeeper.demo.mode import load_scripts
from tablekeeper.errors import HardwareError
from tablekeeper.sim.panel import PanelLayout
from tablekeeper.sim.simulator import SCALE


def test_the_photo_follows_the_guided_demo() -> None:
    (demo,) = load_scripts(games=["arkham"])
    lines = station_script(demo).splitlines()
    assert lines[0::2] == [f"press {step.press}" for step in demo.steps]
    assert set(lines[1::2]) == {"wait 2"}


def test_a_photo_is_the_simulators_last_frame(tmp_path: Path) -> None:
    (demo,) = load_scripts(games=["arkham"])
    (photo,) = take_photos([demo], tmp_path / "photos", config=default_config_path(), seats=4)
    width, height = PanelLayout(load_config(default_config_path())).size
    with Image.open(photo) as image:
        assert image.size == (width * SCALE, height * SCALE)
        assert len(image.convert("RGB").getcolors(1 << 16) or ()) > 3  # a drawn panel, not a blank frame


def test_a_failed_simulator_run_is_reported_by_game(tmp_path: Path) -> None:
    (demo,) = load_scripts(games=["earthborne"])
    with pytest.raises(HardwareError, match="photo of earthborne: the simulator exited with 2 after 0 frames"):
        take_photos([demo], tmp_path, config=None, seats=4, run_cli=lambda _argv: 2)



def test_a_photo_with_the_same_pixels_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """PNG bytes of one picture differ between zlib builds: the committed file is kept byte for byte."""
    picture = Image.new("RGB", (64, 32), "black")
    picture.paste((200, 200, 0), (4, 4, 20, 12))
    target, shot = tmp_path / "arkham.png", tmp_path / "shot.png"
    picture.save(target, compress_level=1)
    picture.save(shot, compress_level=9)
    committed = target.read_bytes()
    assert shot.read_bytes() != committed
    place_picture(shot, target)
    assert target.read_bytes() == committed
    picture.putpixel((40, 20), (255, 255, 255))
    picture.save(shot)
    place_picture(shot, target)
    assert target.read_bytes() == shot.read_bytes()
