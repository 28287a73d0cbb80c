"""``--display gifanim`` streams frames to its file: memory stays flat however long the game runs."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from tablekeeper.hw.sim.simulator import make_emulator, write_rate


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


def test_write_rate_names_megabytes_per_hour() -> None:
    assert write_rate(2_000_000, 60.0) == "2.00 MB in 60 s, about 120 MB per hour at this pace"
