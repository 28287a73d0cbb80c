"""Every frame the station sends its displays, for each game's example script and the demo, as a list
of hashes that can be compared with a committed reference (``tests/station/reference_frames/``).

A case runs ``tablekeeper run --script`` on the simulated station (fake clock, no virtual counters), in
a process of its own so no cache one case warmed colours the next, while ``DisplayBank.show`` is
watched: each call becomes one line naming every display it drew and the SHA-256 of that picture's
bytes. The seat LEDs and the beeps go to a second list, since when
they change relative to a frame is not a picture on a display.

A change that alters what the displays show on purpose rewrites the references with

    .venv/bin/python -m tests.station.frames --update           # every case
    .venv/bin/python -m tests.station.frames --update arkham    # one case

and the diff of ``tests/station/reference_frames/`` shows which frames moved.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from PIL import Image

from tablekeeper.appliance.gallery import EXAMPLE_ARGS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "games"
REFERENCE = Path(__file__).resolve().parent / "reference_frames"


@dataclass(frozen=True, slots=True)
class Case:
    """One station run: the script's lines (``None``: made by ``demo_script``), the run's options."""

    name: str
    script: Path | None
    args: tuple[str, ...]
    typed: bool = False  # each line of a game script is typed at the console (``type LINE``)


# The station's own behaviour on buttons (menu, legend, NEXT asked twice, a pending change, undo and
# redo, a refusal, page turns on the compact build's small displays), beside the games' scripts.
STATION_KEYS = """\
press menu
press down
press up
press next
press menu
press down
press next
press back
press menu
press up
press next
press next
press menu
wait 16
hold select
press select
press select
press up
press up
press down
wait 2
press back
hold back
press next
press next
press next
wait 4
wait 9
"""

# NEXT in a step the seats play together: asked on the track display, then ended for all.
CONFIRM_KEYS = """\
press next
press next
press next
press seat1.a
press next
wait 5
press next
press next
"""

# How each game's example script is run (``tablekeeper play GAME ARGS --script docs/games/GAME.script``);
# the console-script and chance-source tests read it too.
SCRIPT_ARGS: dict[str, tuple[str, ...]] = dict(EXAMPLE_ARGS)  # the screen gallery runs them the same way


def example_setup(game: str) -> tuple[int | None, int, dict[str, str]]:
    """Seats (None: the game's default), seed and options of a game's example script, as ``play`` and
    ``run`` start it (automatic flow)."""
    args, seats, seed, options = SCRIPT_ARGS[game], None, 1, {"flow": "auto"}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        if flag == "--seats":
            seats = int(value)
        elif flag == "--seed":
            seed = int(value)
        else:
            key, _, val = value.partition("=")
            options[key] = val
    return seats, seed, options

CASES: tuple[Case, ...] = (
    *(Case(game, DOCS / f"{game}.script", ("--game", game, *args), typed=True) for game, args in SCRIPT_ARGS.items()),
    Case("arkham_keys", DOCS / "arkham.keys", ("--walk", "--game", "arkham", "--seats", "4")),
    Case("demo", None, ("--demo",)),
    Case("station_compact", None, ("--walk", "--game", "arkham", "--seats", "2", "--config",
                                   str(ROOT / "hardware" / "compact.toml"))),
    Case("confirm_next", None, ("--game", "spirit_island", "--seats", "2")),
)


def demo_script() -> str:
    """Each game's guided demo, pressed through in turn: the attract loop waited on until that game is
    on show, one wrong button (its hint), every step's button, then the farewell waited out."""
    from tablekeeper.demo.mode import DemoSettings, load_scripts

    settings = DemoSettings()
    lines: list[str] = []
    for index, script in enumerate(load_scripts()):
        lines.append(f"wait {index * settings.attract_frame_s + 1}")
        lines.append("press next")
        wrong = "down" if script.steps[0].press != "down" else "up"
        lines.append(f"press {wrong}")
        lines += [f"press {step.press}" for step in script.steps]
        lines.append(f"wait {settings.finished_show_s + 1}")
    return "\n".join(lines) + "\n"


def script_text(case: Case) -> str:
    if case.name == "demo":
        return demo_script()
    if case.script is None:
        return CONFIRM_KEYS if case.name == "confirm_next" else STATION_KEYS
    lines = case.script.read_text(encoding="utf-8").splitlines()
    if not case.typed:
        return "\n".join(lines) + "\n"
    commands = [line.split("#", 1)[0].strip() for line in lines]
    return "".join(f"type {command}\n" for command in commands if command)


def digest(image: Image.Image) -> str:
    return hashlib.sha256(f"{image.mode} {image.size}".encode() + image.tobytes()).hexdigest()[:20]


@contextmanager
def watching() -> Iterator[tuple[list[str], list[str]]]:
    """Lines for what reaches the displays, and for the seat LEDs and beeps, while the block runs."""
    from tablekeeper.hw.displays import DisplayBank
    from tablekeeper.hw.outputs import Beeper, SeatLights

    frames: list[str] = []
    outputs: list[str] = []
    show, lights_show, play = DisplayBank.show, SeatLights.show, Beeper.play

    def shown(bank: DisplayBank, images: Mapping[str, Image.Image]) -> int:
        frames.append(" ".join(f"{role}={digest(images[role])}" for role in sorted(images)))
        return show(bank, images)

    def lit(lights: SeatLights, steady: int | None, blinking: frozenset[int]) -> None:
        before = (lights.lit, lights.blinking)
        lights_show(lights, steady, blinking)
        if (lights.lit, lights.blinking) != before or not outputs:
            outputs.append(f"leds steady={lights.lit} blinking={','.join(map(str, sorted(lights.blinking)))}")

    def beep(beeper: Beeper, pattern: str) -> None:
        played = len(beeper.played)
        play(beeper, pattern)
        if len(beeper.played) > played:
            outputs.append(f"beep {pattern}")

    with mock.patch.object(DisplayBank, "show", shown), mock.patch.object(SeatLights, "show", lit), \
            mock.patch.object(Beeper, "play", beep):
        yield frames, outputs


def record(case: Case, workdir: Path) -> str:
    """The case's frames and outputs, as the reference file holds them."""
    from tablekeeper import cli

    workdir.mkdir(parents=True, exist_ok=True)
    script = workdir / f"{case.name}.txt"
    script.write_text(script_text(case), encoding="utf-8")
    argv = ["run", *case.args, "--script", str(script), "--display", "capture",
            "--capture-dir", str(workdir / "capture"), "--no-counters"]
    # the simulator's own panel picture (composed and written as a PNG per frame) is not what the
    # displays were sent, and encoding it was most of a case's time: it is left out, as sentences.py does
    with watching() as (frames, outputs), mock.patch("tablekeeper.sim.simulator.SimulatedParts.refresh",
                                                     return_value=False):
        code = cli.main(argv)
    if code != 0:
        raise RuntimeError(f"{case.name}: tablekeeper {' '.join(argv)} exited with {code}")
    header = [f"# frames of case {case.name}: one line per DisplayBank.show, then the seat LEDs and beeps",
              f"# regenerate: .venv/bin/python -m tests.station.frames --update {case.name}"]
    return "\n".join([*header, *(f"show {line}" for line in frames), *outputs]) + "\n"


def record_alone(case: Case, workdir: Path) -> str:
    """``record`` in a fresh interpreter (what a case shows must not depend on what ran before it)."""
    import subprocess

    out = workdir / "frames.txt"
    done = subprocess.run([sys.executable, "-m", "tests.station.frames", "--record", case.name, "--workdir",
                           str(workdir), "--out", str(out)], cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{case.name}: recording failed:\n{done.stdout}{done.stderr}")
    return out.read_text(encoding="utf-8")


def reference(case: Case) -> Path:
    return REFERENCE / f"{case.name}.frames"


def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m tests.station.frames",
                                     description="Record the station's frames for the example scripts.")
    parser.add_argument("--update", action="store_true", help="rewrite the committed references")
    parser.add_argument("cases", nargs="*", help=f"cases (default all: {', '.join(c.name for c in CASES)})")
    parser.add_argument("--record", metavar="CASE", help=argparse.SUPPRESS)  # one case, in this process
    parser.add_argument("--workdir", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.record:
        case = next(c for c in CASES if c.name == args.record)
        args.out.write_text(record(case, args.workdir), encoding="utf-8")
        return 0
    chosen = [c for c in CASES if not args.cases or c.name in args.cases]
    unknown = set(args.cases) - {c.name for c in CASES}
    if unknown:
        parser.error(f"no case {sorted(unknown)[0]!r}")
    changed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in chosen:
            text = record_alone(case, Path(tmp) / case.name)
            path = reference(case)
            same = path.exists() and path.read_text(encoding="utf-8") == text
            changed += not same
            if args.update and not same:
                REFERENCE.mkdir(exist_ok=True)
                path.write_text(text, encoding="utf-8")
            print(f"{case.name}: {text.count(chr(10)) - 2} lines, {'same' if same else 'changed'}"
                  f"{' (written)' if args.update and not same else ''}")
    return 1 if changed and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())
