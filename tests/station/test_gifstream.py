"""``--display gifanim`` streams frames to its file: memory stays flat however long the game runs."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from tablekeeper.sim.simulator import make_emulator, write_rate


def frame(n: int) -> Image.Image:
    image = Image.new("RGB", (64, 32))
    ImageDraw.Draw(image).text((2, 2), str(n), fill="white")
    return image


def live_images() -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if isinstance(obj, Image.Image))


def luma_gifanim(_mode: str, size: tuple[int, int], out: Path) -> Any:
    """luma.emulator's own gifanim, which keeps every frame until exit (the protection removed)."""
    from luma.emulator.device import gifanim

    return gifanim(filename=str(out / "panel.gif"), width=size[0], height=size[1], mode="RGB",
                   transform="identity", scale=2)


@pytest.mark.parametrize(("factory", "streams"), [(make_emulator, True), (luma_gifanim, False)],
                         ids=["streaming", "luma-keeps-frames"])
def test_gifanim_memory_does_not_grow_with_frames(tmp_path: Path, factory: Any, streams: bool) -> None:
    device = factory("gifanim", (64, 32), tmp_path)
    for n in range(5):
        device.display(frame(n))
    after_few = live_images()
    for n in range(5, 205):
        device.display(frame(n))
    after_many = live_images()
    grew = after_many - after_few
    device.write_animation()
    if hasattr(device, "_images"):
        device._images.clear()
    device.cleanup()
    if streams:
        assert grew <= 2, f"{grew} more images alive after 200 more frames"
        gif = Image.open(tmp_path / "panel.gif")
        assert gif.n_frames == 205
        gif.seek(204)
        assert gif.convert("L").getbbox() is not None
    else:
        assert grew >= 200  # the check sees frames kept in memory


def test_gifanim_frames_are_the_panel_scaled_pixel_for_pixel(tmp_path: Path) -> None:
    device = make_emulator("gifanim", (64, 32), tmp_path)
    pictures = [frame(n) for n in (7, 42)]
    pictures[1].putpixel((63, 31), (255, 200, 0))
    for picture in pictures:
        device.display(picture)
    device.cleanup()
    gif = Image.open(tmp_path / "panel.gif")
    for n, picture in enumerate(pictures):
        gif.seek(n)
        assert gif.size == (128, 64)
        assert gif.convert("RGB").tobytes() == picture.resize((128, 64), Image.Resampling.NEAREST).tobytes()


def test_gifanim_does_not_load_pygame(tmp_path: Path) -> None:
    """pygame (about 12 MB resident) is for the window and luma.emulator's own devices; a GIF needs none."""
    code = ("import sys; from pathlib import Path; from PIL import Image; "
            "from tablekeeper.sim.simulator import make_emulator; "
            "d = make_emulator('gifanim', (64, 32), Path(sys.argv[1])); d.display(Image.new('RGB', (64, 32))); "
            "d.cleanup(); print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert (tmp_path / "panel.gif").stat().st_size > 0


def test_write_rate_names_megabytes_per_hour() -> None:
    assert write_rate(2_000_000, 60.0) == "2.00 MB in 60 s, about 120 MB per hour at this pace"
