"""The screens a restart shows first (``tablekeeper.station.remembered``): a station that closes keeps
what a start on its save will draw first, and the next start's splash draws exactly that on every
display before the game loads; the station then draws its own first frame over it and sends nothing.
Anything that changed since (the save, the config, the command line) or a damaged memory means the
"starting" splash as before, and a test shows the save's stamp is what stops a stale screen."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.commands.run import build_simulated, keep_as_played, remember_screens
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.script import parse_line
from tablekeeper.sim.oled import OledChip
from tablekeeper.station import remembered, splash

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    yield tmp_path / "cache"


class Table:
    """One box: its config file, its save, and the emulated chips of the last start, by role."""

    def __init__(self, tmp_path: Path, game: str = "arkham") -> None:
        self.tmp_path, self.game = tmp_path, game
        self.config_path = tmp_path / "station.toml"
        self.config_path.write_text(REFERENCE_CONFIG.read_text())
        self.save = tmp_path / "box.sqlite3"
        self.chips: dict[tuple[int, int], OledChip] = {}

    @property
    def argv(self) -> list[str]:
        return ["run", "--config", str(self.config_path), "--game", self.game, "--save", str(self.save)]

    def power_on(self) -> splash.Splash | None:
        self.chips = {}

        def interface(track: splash.Track) -> OledChip:
            chip = self.chips[track.port, track.address] = OledChip(track.driver, track.width, track.height)
            return chip

        return splash.show(self.argv, open_interface=interface, on_pi=lambda: True)

    def start(self, shown: splash.Splash | None, *lines: str, remember: bool = True,
              not_saving: bool = False, power_cut_after_s: float | None = None) -> dict[str, Any]:
        """A run of the station after ``shown``: its first frame (odds still to come), the bytes that frame
        sent, then ``lines`` played, closed as on SIGTERM and (``remember``) its screens kept; or, with
        ``power_cut_after_s``, its power cut that long after the last line: played in a child process that
        then dies as the box would, its save never closed (call it in a fork)."""
        args = argparse.Namespace(game=self.game, save=str(self.save), slot="main", seats=None, seed=1, option=[],
                                  capture_dir=self.tmp_path, no_counters=True, walk=False, demo=False,
                                  not_saving=not_saving)
        config = load_config(self.config_path)
        now = [0.0]
        station, parts, store = build_simulated(config, args, display_mode=None, clock=lambda: now[0], splash=shown)
        if power_cut_after_s is not None:
            keep_as_played(shown, station, args, clock=lambda: now[0])
        try:
            before = sum(chip.byte_count for chip in parts.chips.values())
            with station.views.deferred():
                station.redraw()
            sent = sum(chip.byte_count for chip in parts.chips.values()) - before
            first = {role: image.tobytes() for role, image in parts.screens().items()}
            for line in lines:
                parsed = parse_line(line)
                assert parsed is not None and station.session.perform(parsed.command).accepted, line
                now[0] += 0.5
                station.poll(now[0])  # the loop's pass after a press
            if power_cut_after_s is not None:
                now[0] += power_cut_after_s
                station.poll(now[0])  # the deadline the loop sleeps until
                os._exit(0)  # nothing closed, nothing flushed but what the station wrote
        finally:
            station.close()
            parts.close()
            if store is not None and power_cut_after_s is None:
                store.close()
        if remember:
            remember_screens(shown, station, args, clock=time.monotonic)
        return {"first": first, "sent": sent}

    def glass(self, config_roles: dict[str, splash.Track]) -> dict[str, bytes]:
        """What each display shows now, turned as the player sees it (as ``SimulatedParts.screens``)."""
        out = {}
        for role, track in config_roles.items():
            chip = self.chips.get((track.port, track.address))
            if chip is not None:
                image = chip.image()
                out[role] = (image.rotate(180) if track.rotation == 2 else image).tobytes()
        return out


def wired() -> dict[str, splash.Track]:
    return splash.Track.wired(load_config(REFERENCE_CONFIG))


def starting_only(shown: splash.Splash) -> bool:
    """"starting..." on the track display, every other display opened dark: nothing remembered shown."""
    track = shown.drawn.get("track")
    others = [drawn for role, drawn in shown.drawn.items() if role != "track"]
    return (track is not None and track.pages is None and not track.dark and set(shown.drawn) == set(wired())
            and all(drawn.dark and drawn.pages is None for drawn in others))


def test_a_restart_shows_the_games_screens_before_it_loads_and_the_station_sends_nothing_over_them(
        tmp_path: Path) -> None:
    table = Table(tmp_path)
    first = table.power_on()
    assert first is not None and not first.remembered  # a new game: nothing remembered yet
    table.start(first, "next", "next")
    again = table.power_on()
    assert again is not None and again.remembered and set(again.drawn) == set(wired())
    on_glass = table.glass(wired())
    resumed = table.start(again)
    assert resumed["sent"] == 0  # the game's own first frame is what the splash drew
    assert on_glass == resumed["first"]
    (table.tmp_path / "cache" / "tablekeeper" / "screens").rename(table.tmp_path / "kept")  # nothing remembered
    cold = table.start(table.power_on())
    assert cold["first"] == on_glass and cold["sent"] > 0


@pytest.mark.parametrize("stamped", [True, False], ids=["as-shipped", "protection-removed"])
def test_a_save_changed_since_the_screens_were_remembered_gets_the_starting_splash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stamped: bool) -> None:
    """A run that played on and was cut off (nothing remembered at its end) leaves a save the old screens
    do not show: only the save's stamp in the key stops them."""
    if not stamped:
        monkeypatch.setattr(remembered, "file_stamp", lambda path: None)
    table = Table(tmp_path)
    table.start(table.power_on())
    table.start(table.power_on(), "next", "next", "next", remember=False)  # played on, then the power went
    shown = table.power_on()
    assert shown is not None and shown.remembered is (not stamped)
    on_glass = table.glass(wired())
    truth = table.start(None, remember=False)["first"]
    if stamped:
        assert starting_only(shown)
    else:
        assert set(on_glass) == set(truth) and on_glass != truth  # the old game's screens: stale


@pytest.mark.parametrize("quiet_s", [remembered.QUIET_S, remembered.QUIET_S - 0.1],
                         ids=["cut-when-quiet", "cut-too-soon"])
def test_a_power_cut_once_the_game_stood_still_shows_the_game_as_played_at_once(tmp_path: Path,
                                                                               quiet_s: float) -> None:
    """Most boxes are switched off at the plug: a game that stood still ``QUIET_S`` after its last change is
    remembered as it stands (its save still open), and the next start shows exactly what a cold start of
    that save draws; cut sooner, the memory of the clean stop before no longer fits: "starting...". """
    table = Table(tmp_path)
    table.start(table.power_on(), "next")
    shown = table.power_on()
    child = os.fork()
    if child == 0:  # the run whose power is cut
        try:
            table.start(shown, "next", "next", power_cut_after_s=quiet_s)
        finally:
            os._exit(1)
    assert os.waitpid(child, 0)[1] == 0
    shown = table.power_on()
    assert shown is not None
    on_glass = table.glass(wired())
    truth = table.start(None, remember=False)["first"]
    if quiet_s >= remembered.QUIET_S:
        assert shown.remembered and on_glass == truth
    else:
        assert not shown.remembered and starting_only(shown)


def test_another_config_or_command_line_or_a_damaged_memory_means_no_remembered_screens(tmp_path: Path,
                                                                                        cache: Path) -> None:
    table = Table(tmp_path)
    table.start(table.power_on())
    shown = table.power_on()
    assert shown is not None and shown.remembered
    table.config_path.write_text(table.config_path.read_text() + "\n# a comment\n")
    shown = table.power_on()
    assert shown is not None and not shown.remembered
    table.start(shown)
    table.game = "oathsworn"  # the command line names another game: the save's game is not that one
    assert not (table.power_on() or splash.Splash({})).remembered
    table.game = "arkham"
    memory = next((cache / "tablekeeper" / "screens").iterdir())
    for damage in (memory.read_bytes()[:100], b"", b"\x00" * 64, os.urandom(4096)):
        memory.write_bytes(damage)
        shown = table.power_on()
        assert shown is not None and not shown.remembered and starting_only(shown)


def test_a_memory_of_the_wrong_shape_is_not_used(tmp_path: Path) -> None:
    key = remembered.Key(("run",), "text", str(tmp_path / "s.sqlite3"))
    chip = remembered.Track("ssd1306", 128, 32, 0, 1, 0x3C)
    good = remembered.Shown("track", chip, tuple(bytes(128) for _ in range(4)))
    assert remembered.remember(key, str(tmp_path), [good]) and remembered.recall(key, str(tmp_path)) == (good,)
    short = good._replace(pages=good.pages[:3])
    assert remembered.remember(key, str(tmp_path), [short]) and remembered.recall(key, str(tmp_path)) is None
    assert not remembered.remember(key, str(tmp_path), []) and remembered.recall(key, str(tmp_path)) is None


def test_the_remembered_screens_go_out_before_argparse_msgspec_pillow_and_luma_load(tmp_path: Path,
                                                                                  cache: Path) -> None:
    """``tablekeeper run`` as the Pi starts it, its I2C replaced by emulated chips: every display shows the
    game before the modules that draw it are even loaded."""
    table = Table(tmp_path)
    table.start(table.power_on())
    probe = f"""
import json, sys
import tablekeeper.station.splash as splash
from tablekeeper.sim.oled import OledChip

seen = {{}}
def interface(track):
    seen.setdefault("chips", []).append(OledChip(track.driver, track.width, track.height))
    return seen["chips"][-1]

class Drawn(Exception):
    pass

show = splash.show
def shown(argv, **how):
    result = show(argv, **how)
    seen["loaded"] = sorted(sys.modules)
    seen["remembered"] = result.remembered
    seen["lit"] = sum(chip.on for chip in seen.pop("chips"))
    raise Drawn

splash.gpio_present = lambda: True
splash.I2CDevice.open = interface
splash.show = shown
sys.argv = ["tablekeeper", *{table.argv!r}]
from tablekeeper.cli import main
try:
    main()
except Drawn:
    pass
print(json.dumps(seen))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={"PATH": "", "PYTHONPATH": str(ROOT / "host"), "XDG_CACHE_HOME": str(cache)})
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["remembered"] and seen["lit"] == len(wired())
    late = ("argparse", "msgspec", "PIL", "luma", "sqlite3", "tablekeeper.core", "tablekeeper.games",
            "tablekeeper.ui", "tablekeeper.config", "tablekeeper.hw.displays")
    early = [m for m in seen["loaded"] if any(m == name or m.startswith(name + ".") for name in late)]
    assert early == [], early


def test_a_run_that_could_not_save_leaves_nothing_remembered(tmp_path: Path) -> None:
    """Its screens show a game the save does not hold: the next start must not show them."""
    table = Table(tmp_path)
    table.start(table.power_on())
    shown = table.power_on()
    assert shown is not None and shown.remembered
    table.start(shown, "next", not_saving=True)
    shown = table.power_on()
    assert shown is not None and not shown.remembered


@pytest.mark.parametrize("left", [True, False], ids=["as-shipped", "protection-removed"])
def test_a_track_display_that_took_neither_frame_is_left_to_the_station(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, left: bool) -> None:
    """The remembered screen and then "starting..." both failed on the track display (a burst of NACKs):
    the station draws "starting..." there itself, so the splash must not hand it over opened but dark,
    blank until the game's frame. The start does not count as remembered either."""
    if not left:
        real = splash.open_dark
        monkeypatch.setattr(splash, "open_dark", lambda wired, opener: real(
            {**wired, **{r: t for r, t in splash.Track.wired(load_config(table.config_path)).items()
                         if r == "track"}}, opener))
    table = Table(tmp_path)
    table.start(table.power_on())
    track = wired()["track"]
    refused = [2]  # the remembered frame's open, then the "starting" frame's

    def interface(wiring: splash.Track) -> OledChip:
        if wiring == track and refused[0]:
            refused[0] -= 1
            raise OSError(121, "Remote I/O error")
        return OledChip(wiring.driver, wiring.width, wiring.height)

    shown = splash.show(table.argv, open_interface=interface, on_pi=lambda: True)
    assert shown is not None and not shown.remembered
    assert ("track" not in shown.drawn) is left


def test_the_keep_waits_for_a_quiet_table_never_inside_a_burst_of_presses() -> None:
    """A press that changes nothing in the save (a pending +/-, the menu) still starts the quiet time
    again, and a press waiting to be handled holds the keep back: the keep (a whole fresh frame drawn)
    never lands between two presses of a burst."""
    marks, waiting, kept = [0], [False], []
    keep = remembered.KeepWhenQuiet(lambda: marks[0], lambda: kept.append(True), now_s=0.0,
                                    busy=lambda: waiting[0], quiet_s=2.0)
    assert keep.next_deadline_s() == 2.0  # once after the start
    for now in (0.5, 1.0, 1.5, 1.9):  # a burst: each press is one more intent handled
        marks[0] += 1
        keep.poll(now)
    keep.poll(2.0)
    assert kept == [] and keep.next_deadline_s() == 3.9
    waiting[0] = True
    keep.poll(3.9)
    assert kept == []  # a press came in just as the table went quiet
    waiting[0] = False
    marks[0] += 1
    keep.poll(3.95)
    keep.poll(5.95)
    assert kept == [True] and keep.next_deadline_s() is None
    keep.poll(9.0)
    assert kept == [True]  # nothing since: nothing to keep again


@pytest.mark.parametrize("cleared", [True, False], ids=["as-shipped", "protection-removed"])
def test_the_remembered_screens_do_not_carry_a_set_aside_banner_the_restart_will_not_show(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cleared: bool) -> None:
    """A run that set an old game aside says so on the track display until its first command is saved;
    a restart sets nothing aside, so what it draws first, and what is remembered for it, has no banner."""
    from tablekeeper.commands import run

    table = Table(tmp_path)
    args = argparse.Namespace(game="arkham", save=str(table.save), slot="main", seats=None, seed=1, option=[],
                              capture_dir=tmp_path, no_counters=True, walk=False, demo=False, not_saving=False,
                              set_aside=("core", "main-old-1"))
    config = load_config(table.config_path)
    station, parts, store = build_simulated(config, args, display_mode=None, clock=time.monotonic)
    try:
        restart = run.first_screens(station, argparse.Namespace(**{**vars(args), "set_aside": None}),
                                    clock=time.monotonic)
        if not cleared:  # the run's own arguments, banner and all
            real = argparse.Namespace
            monkeypatch.setattr(argparse, "Namespace", lambda **kw: real(**{**kw, "set_aside": args.set_aside}))
        kept = run.first_screens(station, args, clock=time.monotonic)
    finally:
        monkeypatch.undo()
        station.close()
        parts.close()
        if store is not None:
            store.close()
    assert (kept == restart) is cleared
