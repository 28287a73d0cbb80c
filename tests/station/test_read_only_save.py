"""A save the station cannot write (a read-only file system, an SD card mounted read-only after an
error): the station resumes the saved game and plays it unsaved, with "not saving" on the track
display, instead of refusing to start. Without the protection it stops with a one-line refusal."""

from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.commands import run as station_cli
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.store import SaveReadOnlyError, Store
from tablekeeper.errors import StoreError
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.parts import make_displays
from tablekeeper.ui.compose import NOT_SAVING
from tests.station.fake_time import FakeClock


@pytest.fixture
def read_only_save(tmp_path: Path) -> Iterator[Path]:
    """A save holding two entries of Arkham, on a read-only tmpfs (as root) or in a read-only folder."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = False
    if os.geteuid() == 0:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
                                 capture_output=True, check=False).returncode == 0
    save = folder / "s.sqlite"
    script = tmp_path / "lines.txt"
    script.write_text("next\nnext\n")
    assert cli.main(["play", "arkham", "--save", str(save), "--script", str(script)]) == 0
    if mounted:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    else:
        if os.geteuid() == 0:
            pytest.skip("root without mount: a read-only folder would not stop root")
        save.chmod(0o444)
        folder.chmod(0o555)
    try:
        yield save
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=False)
        else:
            folder.chmod(0o755)


def _args(save: Path) -> argparse.Namespace:
    return argparse.Namespace(game=None, save=str(save), slot="main", seats=None, seed=1, option=[], walk=False,
                              demo=False)


def test_the_store_says_read_only(read_only_save: Path) -> None:
    with pytest.raises(SaveReadOnlyError):
        Store.open(read_only_save)


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_read_only_save_plays_on_unsaved_and_says_so(read_only_save: Path, tmp_path: Path, protection: str,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    if protection != "on":
        monkeypatch.setattr(station_cli, "open_session", _refusing_open_session)
    args = _args(read_only_save)
    if protection != "on":
        with pytest.raises(StoreError):
            station_cli.open_session(args)
        return
    session, store = station_cli.open_session(args)
    assert store is None and session.game.name == "arkham" and session.log_length == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "playing on without saving" in err and str(read_only_save) in err
    config = load_config(REFERENCE_CONFIG)
    clock = FakeClock()
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path / "frames")
    displays = make_displays(config, parts.open_device, clock=clock)
    station = station_cli.make_station(args, session=session, store=store, config=config, displays=displays,
                                       clock=clock)
    try:
        station.start()
        assert station.screens is not None
        track = station.screens.display("track")
        assert track is not None and track.banner_text == NOT_SAVING
    finally:
        station.close()
        parts.close()


def _refusing_open_session(args: argparse.Namespace) -> object:
    """The station as it was: the save's refusal stops it."""
    from tablekeeper import games
    from tablekeeper.commands.sessions import open_session

    play_args = argparse.Namespace(option=[], seats=None, seed=1, save=args.save, slot=args.slot, campaign=None,
                                   walk=False)
    return open_session(games.load("arkham"), play_args)
