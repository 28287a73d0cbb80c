"""``--display capture`` writes the panel's frames as PNG files with Pillow: the same pixels as
luma.emulator's ``capture`` (which draws through pygame), without loading pygame."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from tablekeeper.sim.simulator import SCALE, make_emulator


def picture(n: int) -> Image.Image:
    image = Image.new("RGB", (64, 32), (12, 14, 20))
    draw = ImageDraw.Draw(image)
    draw.text((2, 2), str(n), fill=(150, 220, 255))
    draw.ellipse((50, 20, 58, 28), fill=(255, 60, 40))
    return image


def test_capture_frames_are_luma_emulators_pixels(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from luma.emulator.device import capture

    ours = make_emulator("capture", (64, 32), tmp_path / "ours")
    luma = capture(file_template=str(tmp_path / "luma_{0:06}.png"), width=64, height=32, mode="RGB",
                   transform="identity", scale=SCALE)
    for n in (1, 2):
        ours.display(picture(n))
        luma.display(picture(n))
    ours.cleanup()
    for n in (1, 2):
        with Image.open(tmp_path / "ours" / f"panel_{n:06}.png") as a, Image.open(tmp_path / f"luma_{n:06}.png") as b:
            assert a.size == b.size == (64 * SCALE, 32 * SCALE)
            assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes()
    assert ours.bytes_written == sum(p.stat().st_size for p in (tmp_path / "ours").glob("panel_*.png"))


def test_capture_does_not_load_pygame(tmp_path: Path) -> None:
    """pygame (about 12 MB resident) is for the window; PNG files need none."""
    code = ("import sys; from pathlib import Path; from PIL import Image; "
            "from tablekeeper.sim.simulator import make_emulator; "
            "d = make_emulator('capture', (64, 32), Path(sys.argv[1])); d.display(Image.new('RGB', (64, 32))); "
            "d.cleanup(); print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert (tmp_path / "panel_000001.png").stat().st_size > 0
