"""What the station loads before its first frame: only the chosen game, and pygame only for an emulator,
without pkg_resources (its import alone cost a third of the simulator's start-up)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def loaded_after(code: str) -> dict[str, bool]:
    probe = ("import sys, json\n" + code + "\nprint(json.dumps({name: name in sys.modules for name in "
             "('pygame', 'pkg_resources', 'luma.emulator.device', 'tablekeeper.games.arkham', "
             "'tablekeeper.games.oathsworn', 'tablekeeper.station')}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={"PATH": "", "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT / "host")})
    loaded: dict[str, bool] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def test_the_command_line_loads_no_game_and_no_emulator() -> None:
    loaded = loaded_after("from tablekeeper.cli import build_parser; build_parser()")
    assert not any(loaded.values()), loaded


def test_an_emulator_brings_pygame_without_pkg_resources(tmp_path: Path) -> None:
    loaded = loaded_after("from pathlib import Path\nfrom tablekeeper.hw.sim.simulator import make_emulator\n"
                          f"make_emulator('capture', (16, 8), Path({str(tmp_path)!r}))")
    assert loaded["pygame"] and loaded["luma.emulator.device"]
    assert not loaded["pkg_resources"]


def test_a_session_loads_only_its_own_game() -> None:
    loaded = loaded_after("import argparse\nfrom tablekeeper.station_cli import open_session\n"
                          "open_session(argparse.Namespace(game='oathsworn', save=None, slot='main', seats=None, "
                          "seed=1, option=[]))")
    assert loaded["tablekeeper.games.oathsworn"] and not loaded["tablekeeper.games.arkham"]
