"""What the station loads before its first frame: only the chosen game, and pygame only for an emulator,
without pkg_resources (its import alone cost a third of the simulator's start-up); and before the
"starting" frame on the track display, none of the game, the save, the parts or the other displays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.station import splash

ROOT = Path(__file__).resolve().parents[2]


def child_env(**extra: str) -> dict[str, str]:
    """A child's environment: nothing on PATH, the checkout's package, the suite's own cache folder."""
    return {"PATH": "", "PYTHONPATH": str(ROOT / "host"), "XDG_CACHE_HOME": os.environ["XDG_CACHE_HOME"], **extra}


def loaded_after(code: str) -> dict[str, bool]:
    probe = ("import sys, json\n" + code + "\nprint(json.dumps({name: name in sys.modules for name in "
             "('pygame', 'pkg_resources', 'luma.emulator.device', 'tablekeeper.games.arkham', "
             "'tablekeeper.games.oathsworn', 'tablekeeper.station.loop')}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                         env=child_env(SDL_VIDEODRIVER="dummy"))
    loaded: dict[str, bool] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def test_the_command_line_loads_no_game_and_no_emulator() -> None:
    loaded = loaded_after("from tablekeeper.cli import build_parser; build_parser()")
    assert not any(loaded.values()), loaded


def test_an_emulator_brings_pygame_without_pkg_resources(tmp_path: Path) -> None:
    loaded = loaded_after("from pathlib import Path\nfrom tablekeeper.sim.simulator import make_emulator\n"
                          f"make_emulator('pygame', (16, 8), Path({str(tmp_path)!r}))")
    assert loaded["pygame"] and loaded["luma.emulator.device"]
    assert not loaded["pkg_resources"]


def test_a_session_loads_only_its_own_game() -> None:
    loaded = loaded_after("import argparse\nfrom tablekeeper.commands.run import open_session\n"
                          "open_session(argparse.Namespace(game='oathsworn', save=None, slot='main', seats=None, "
                          "seed=1, option=[]))")
    assert loaded["tablekeeper.games.oathsworn"] and not loaded["tablekeeper.games.arkham"]


# Loaded after the station's first frame ("starting...") is out, never before it: the games and the
# rules core, the save (SQLite), the buttons and LEDs (gpiozero), the counters (pyserial), the fleet
# (paho), the station loop itself and the simulator's window.
NOT_BEFORE_FIRST_FRAME = ("tablekeeper.games", "tablekeeper.core.session", "tablekeeper.core.store",
                          "tablekeeper.core.game", "tablekeeper.station.loop", "tablekeeper.intents",
                          "tablekeeper.hw.counters", "tablekeeper.hw.buttons", "tablekeeper.hw.outputs",
                          "tablekeeper.sim.counters", "tablekeeper.fleet", "tablekeeper.supervisor",
                          "sqlite3", "gpiozero", "serial", "paho", "pygame", "luma.emulator")


def test_the_first_frame_goes_out_before_the_game_the_save_and_the_parts_load(tmp_path: Path) -> None:
    probe = f"""
import json, sys
from pathlib import Path

import pytest
from tablekeeper.cli import build_parser
from tablekeeper.config import default_config_path, load_config
from tablekeeper.commands.run import build_simulated

class FirstFrame(Exception):
    pass

def starting(parts):
    frame = parts.chips["track"].image()
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("tablekeeper", "sqlite3", "gpiozero", "serial",
                                                                  "paho", "pygame", "luma"))
    print(json.dumps({{"loaded": loaded, "lit": frame.getbbox() is not None, "chips": sorted(parts.chips)}}))
    raise FirstFrame

args = build_parser("run").parse_args(["run", "--sim", "--game", "oathsworn", "--save", {str(tmp_path / "s.sqlite")!r},
                                       "--capture-dir", {str(tmp_path)!r}])
try:
    build_simulated(load_config(default_config_path()), args, display_mode=None, clock=lambda: 0.0,
                    on_starting=starting)
except FirstFrame:
    pass
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                         env=child_env())
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    early = [m for m in seen["loaded"] if any(m == name or m.startswith(name + ".") for name in NOT_BEFORE_FIRST_FRAME)]
    assert early == [], early
    assert seen["lit"] and seen["chips"] == ["track"]  # "starting..." shows; the other displays open next
    assert "luma.oled.device" in seen["loaded"]  # the real driver drew it


def test_on_the_pi_path_too_the_first_frame_goes_out_before_the_rest_loads(tmp_path: Path) -> None:
    """``run_hardware`` as on the Pi, its displays' bus replaced by emulated chips."""
    probe = f"""
import json, sys
import tablekeeper.hw.displays as displays
import tablekeeper.commands.run as station_cli
import tablekeeper.station.parts as parts
from tablekeeper.cli import build_parser
from tablekeeper.config import default_config_path, load_config
from tablekeeper.sim.oled import OledChip

def opener(station):
    return lambda config: displays.make_device(config, OledChip(config.driver, config.width, config.height))

class FirstFrame(Exception):
    pass

def starting(bank, config, show=station_cli.show_starting):
    show(bank, config)
    print(json.dumps({{"loaded": sorted(sys.modules), "opened": sorted(bank.displays)}}))
    raise FirstFrame

parts.hardware_opener = opener
station_cli.show_starting = starting
args = build_parser("run").parse_args(["run", "--game", "arkham", "--save", {str(tmp_path / "s.sqlite")!r}])
try:
    station_cli.run_hardware(load_config(default_config_path()), args)
except FirstFrame:
    pass
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                         env=child_env())
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    early = [m for m in seen["loaded"] if any(m == name or m.startswith(name + ".") for name in NOT_BEFORE_FIRST_FRAME)]
    assert early == [], early
    assert seen["opened"] == ["track"]


# ``tablekeeper run`` on the Pi draws "starting..." before any of these load, nor anything above.
# Nor PIL, luma or smbus2 (ctypes): the splash writes bytes recorded from them (``tablekeeper.station.splash_stream``).
NOT_BEFORE_SPLASH = (*NOT_BEFORE_FIRST_FRAME, "argparse", "msgspec", "dataclasses", "inspect", "sqlite3",
                     "tablekeeper.config", "tablekeeper.schema", "tablekeeper.commands.run", "tablekeeper.logs",
                     "tablekeeper.ui.render", "tablekeeper.core", "tablekeeper.hw.displays", "PIL", "luma",
                     "smbus2", "ctypes")


def test_on_the_pi_the_splash_goes_out_before_argparse_msgspec_and_the_config_check(tmp_path: Path) -> None:
    """``tablekeeper run`` as the Pi starts it (``cli.main()`` with the process's arguments), its I2C
    replaced by an emulated chip: the splash shows the same "starting" frame the station draws, and
    the station takes the displays over without initialising or blanking a chip again, and draws the
    game's first frame on them before luma loads (``hw.taken_over``)."""
    probe = f"""
import json, sys
import tablekeeper.station.splash as splash
from tablekeeper.sim.oled import OledChip

seen = {{}}
chips = []
def interface(track):
    chips.append(OledChip(track.driver, track.width, track.height))
    return chips[-1]

class FirstFrame(Exception):
    pass

show = splash.show
def shown(argv, **how):
    result = show(argv, **how)
    seen["loaded"] = sorted(sys.modules)
    seen["frame"] = list(chips[0].image().tobytes())
    seen["bytes"] = chips[0].byte_count
    import tablekeeper.hw.displays as displays  # patched only now, so the probe loads nothing early
    import tablekeeper.commands.run as station_cli
    import tablekeeper.station.loop as loop

    open_rest, redraw = displays.DisplayBank.open_rest, loop.Station.redraw

    def opened_rest(bank):
        seen["handed over"] = bank.displays["track"].device is not None and not bank.displays["track"].failed
        seen["bytes after"] = chips[0].byte_count
        seen["chips"] = len(chips)
        open_rest(bank)

    def first_frame(station):
        redraw(station)
        seen["lit"] = sum(chip.on for chip in chips)
        seen["luma"] = sorted(m for m in sys.modules if m.split(".")[0] in ("luma", "smbus2"))
        raise FirstFrame

    station_cli.gpio_present = lambda: True
    displays.DisplayBank.open_rest = opened_rest
    loop.Station.redraw = first_frame
    return result

splash.gpio_present = lambda: True
splash.I2CDevice.open = interface
splash.show = shown
sys.argv = ["tablekeeper", "run", "--game", "arkham", "--save", {str(tmp_path / "s.sqlite")!r}]
from tablekeeper.cli import main
try:
    main()
except FirstFrame:
    pass
from tablekeeper.core.view import Panel
from tablekeeper.ui.render import render_panel
seen["station's frame"] = list(render_panel(Panel("Tablekeeper", ("starting...",)), (128, 64)).tobytes())
print(json.dumps(seen))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                         env=child_env())
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    early = [m for m in seen["loaded"] if any(m == name or m.startswith(name + ".") for name in NOT_BEFORE_SPLASH)]
    assert early == [], early
    assert "tablekeeper.station.splash_stream" in seen["loaded"]  # luma's bytes, recorded
    assert seen["frame"] == seen["station's frame"] and any(seen["frame"])
    wired = splash.Track.wired(load_config(REFERENCE_CONFIG))
    assert seen["handed over"] and seen["chips"] == len(wired)  # each opened once, by the splash
    assert seen["bytes after"] == seen["bytes"]  # no second init, no second "starting" frame
    assert seen["lit"] == len(wired) and seen["luma"] == []  # the game's frame on every display, luma not loaded


@pytest.mark.parametrize("cached", [True, False], ids=["as-shipped", "protection-removed"])
def test_a_new_game_with_its_pack_cached_neither_hashes_nor_loads_hashlib(tmp_path: Path, cached: bool) -> None:
    """The built-in pack's SHA-256 comes from the parsed-data cache (``core/pack_cache``); without a
    usable cache (here a file where its folder would be) the pack is hashed, which loads ``hashlib``."""
    cache = tmp_path / "cache"
    if not cached:
        cache.write_text("not a folder")
    probe = ("import argparse, json, sys\nfrom tablekeeper.commands.run import open_session\n"
             "open_session(argparse.Namespace(game='arkham', save=None, slot='main', seats=4, seed=1, option=[]))\n"
             "print(json.dumps(sorted(m for m in sys.modules if 'hashlib' in m)))")
    env = {"PATH": "", "PYTHONPATH": str(ROOT / "host"), "XDG_CACHE_HOME": str(cache)}
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                           env=env) for _ in range(2)]  # the first one fills the cache
    assert json.loads(runs[0].stdout.strip().splitlines()[-1]) == ["_hashlib", "hashlib"]
    assert json.loads(runs[1].stdout.strip().splitlines()[-1]) == ([] if cached else ["_hashlib", "hashlib"])
