"""The Pi's start-up splash (``tablekeeper.splash``): which runs get it, that a config it cannot read
only means no splash, and that the station takes the opened display over and draws correctly on it."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import pytest

from tablekeeper import splash
from tablekeeper.config import REFERENCE_CONFIG, StationConfig, load_config
from tablekeeper.hw.sim.oled import OledChip
from tablekeeper.station_cli import build_simulated


def emulated(chips: list[OledChip]) -> splash.Splash | None:
    def interface(track: splash.Track) -> OledChip:
        chips.append(OledChip(track.driver, track.width, track.height))
        return chips[-1]

    return splash.show(["run"], open_interface=interface, on_pi=lambda: True)


@pytest.mark.parametrize(("argv", "expected"), [
    (["run"], str(REFERENCE_CONFIG)),
    (["run", "--game", "oathsworn", "--config", "box.toml"], "box.toml"),
    (["-v", "--log-level", "info", "run", "--config=box.toml"], "box.toml"),
    (["run", "--sim"], None), (["run", "--display=capture"], None), (["run", "--script", "s.txt"], None),
    (["run", "--help"], None), (["play"], None), ([], None), (["--version"], None),
])
def test_only_a_run_on_the_pis_parts_gets_the_splash(argv: list[str], expected: str | None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(splash, "INSTALLED_CONFIG", "/nonexistent/station.toml")
    assert splash.config_path(argv) == expected


@pytest.mark.parametrize("text", [
    "[[displays]\nrole = 'track'",  # not TOML
    "[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = '128x64'\nbus = 'main'\naddress = 0x3C\n",  # no bus
    "[buses.main]\nkind = 'spi'\nport = 0\n[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = '128x64'\n"
    "bus = 'main'\ndevice = 0\n",  # SPI: left to the station
    "[buses.main]\nkind = 'i2c'\nport = 1\n[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = 'big'\n"
    "bus = 'main'\naddress = 0x3C\n",
    "[buses.main]\nkind = 'i2c'\nport = 1\n[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = '128x64'\n"
    "bus = 'main'\naddress = '0x3C'\n",
    "\xff\xfe",
])
def test_a_config_the_splash_cannot_use_means_no_splash_and_no_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "station.toml"
    path.write_bytes(text.encode("latin-1"))
    opened: list[splash.Track] = []
    assert splash.show(["run", "--config", str(path)], open_interface=opened.append, on_pi=lambda: True) is None
    assert opened == []
    assert splash.show(["run", "--config", str(tmp_path / "missing.toml")], on_pi=lambda: True) is None


def test_off_the_pi_there_is_no_splash() -> None:
    opened: list[splash.Track] = []
    assert splash.show(["run"], open_interface=opened.append, on_pi=lambda: False) is None and opened == []


def test_a_display_that_does_not_answer_means_no_splash() -> None:
    def broken(track: splash.Track) -> OledChip:
        chip = OledChip(track.driver, track.width, track.height)
        chip.fail_with = OSError(121, "Remote I/O error")
        return chip

    assert splash.show(["run"], open_interface=broken, on_pi=lambda: True) is None


def test_the_station_draws_its_first_frame_over_the_splash_as_on_a_fresh_display(tmp_path: Path) -> None:
    """The handed-over display knows the chip holds "starting...": the game's first frame replaces it
    whole, exactly as on a display the station opened itself."""
    config = load_config(REFERENCE_CONFIG)
    chips: list[OledChip] = []
    shown = emulated(chips)
    assert shown is not None
    sent = chips[0].byte_count

    def first_frame(handed: splash.Splash | None) -> bytes:
        args = argparse.Namespace(game="oathsworn", save=None, slot="main", seats=None, seed=1, option=[],
                                  capture_dir=tmp_path, no_counters=True, walk=False, demo=False)
        station, parts, _store = build_simulated(config, args, display_mode=None, clock=lambda: 0.0, splash=handed)
        try:
            if handed is not None:
                assert parts.chips["track"] is chips[0]
                assert station.displays.displays["track"].device is handed.device
                assert chips[0].byte_count == sent  # neither initialised nor drawn a second time
            station.start()
            return parts.chips["track"].image().tobytes()
        finally:
            station.close()
            parts.close()

    assert first_frame(shown) == first_frame(None)


def test_a_config_that_wires_the_track_display_otherwise_releases_the_splash() -> None:
    chips: list[OledChip] = []
    shown = emulated(chips)
    assert shown is not None
    config = load_config(REFERENCE_CONFIG)
    assert shown.hand_over(config) is not None and not chips[0].cleaned_up
    moved = dataclasses.replace(config, displays=tuple(
        dataclasses.replace(d, address=0x3D) if d.role == "track" else d for d in config.displays))
    assert isinstance(moved, StationConfig)
    assert shown.hand_over(moved) is None and chips[0].cleaned_up
