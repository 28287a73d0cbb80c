"""Photos of the simulated panel, one per game, taken by the simulator's capture mode.

Each game's photo shows the panel after its guided demo has been followed (the same presses a
convention visitor makes), so the pictures in ``hardware/photos/`` show a game in progress.
The simulator is driven through the public ``tablekeeper run --script`` command.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from tablekeeper.demo.mode import DemoScript
from tablekeeper.errors import HardwareError, PathError

PAUSE_S = 2.0  # between presses, so pending +/- changes are entered before the next one
RUN_TIMEOUT_S = 300.0


def run_in_subprocess(argv: list[str]) -> int:
    """``tablekeeper ARGV`` in its own process, so each photo starts from a clean simulator."""
    try:
        return subprocess.run([sys.executable, "-m", "tablekeeper", *argv], check=False,
                              timeout=RUN_TIMEOUT_S).returncode
    except subprocess.TimeoutExpired:
        raise HardwareError(f"the simulator did not finish within {RUN_TIMEOUT_S:g} s: tablekeeper "
                            + " ".join(argv)) from None


def place_picture(shot: Path, target: Path) -> None:
    """Copy ``shot`` to ``target`` unless ``target`` already shows the same pixels: PNG bytes for the
    same picture differ between Pillow and zlib builds, and an unchanged photo must stay unchanged."""
    from PIL import Image, ImageChops

    if target.is_file():
        with Image.open(shot) as new, Image.open(target) as old:
            if new.size == old.size and ImageChops.difference(new.convert("RGB"), old.convert("RGB")).getbbox() is None:
                return
    shutil.copyfile(shot, target)


def station_script(demo: DemoScript) -> str:
    """The simulator script that follows a guided demo: one press per prompt, then a pause."""
    lines = []
    for step in demo.steps:
        lines += [f"press {step.press}", f"wait {PAUSE_S:g}"]
    return "\n".join(lines) + "\n"


def take_photos(demos: Sequence[DemoScript], out_dir: Path, *, config: Path | None, seats: int,
                run_cli: Callable[[list[str]], int] = run_in_subprocess) -> list[Path]:
    """Run the simulator once per game and keep its last frame as ``out_dir/<game>.png``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for demo in demos:
        with tempfile.TemporaryDirectory(prefix="tablekeeper-photo-") as tmp:
            script = Path(tmp) / f"{demo.game}.script"
            script.write_text(station_script(demo), encoding="utf-8")
            frames = Path(tmp) / "frames"
            argv = ["run", "--sim", "--game", demo.game, "--seats", str(seats), "--seed", "1",
                    "--script", str(script), "--display", "capture", "--capture-dir", str(frames)]
            if config is not None:
                argv += ["--config", str(config)]
            code = run_cli(argv)
            shots = sorted(frames.glob("panel_*.png"))
            if code != 0 or not shots:
                raise HardwareError(f"photo of {demo.game}: the simulator exited with {code} "
                                    f"after {len(shots)} frames")
            target = out_dir / f"{demo.game}.png"
            place_picture(shots[-1], target)
            written.append(target)
    return written


def take_readme_picture(keys: Path, target: Path, *, run_cli: Callable[[list[str]], int] = run_in_subprocess) -> Path:
    """The README's panel picture: the simulator's last frame after the key script ``keys``
    (Arkham Horror, two seats, the reference build)."""
    if not target.parent.is_dir():
        raise PathError(f"--readme-picture {target}: no folder {target.parent} to write it in")
    with tempfile.TemporaryDirectory(prefix="tablekeeper-readme-") as tmp:
        frames = Path(tmp) / "frames"
        code = run_cli(["run", "--sim", "--game", "arkham", "--seats", "2", "--seed", "1", "--script", str(keys),
                        "--display", "capture", "--capture-dir", str(frames)])
        shots = sorted(frames.glob("panel_*.png"))
        if code != 0 or not shots:
            raise HardwareError(f"README picture: the simulator exited with {code} after {len(shots)} frames")
        place_picture(shots[-1], target)
    return target

