"""A full disk: the command is not acknowledged, nothing already saved is lost, the error is one
line (``play``) or a banner on the track display (the station, which runs on), and saving resumes
by itself when space returns.

SQLite's ``max_page_count`` makes SQLite itself answer ``SQLITE_FULL`` without privileges; when
run as root the same is shown on a real, tiny tmpfs.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.store import SaveFullError, Store
from tests.core.fixture_game import GAME
from tests.faults.walk import FIXTURE_MODULE

ROOT = Path(__file__).resolve().parents[2]


def fill_up(store: Store) -> None:
    """Let the file grow by no page at all: the next write that needs one gets ``SQLITE_FULL``."""
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")


def make_room(store: Store) -> None:
    store._db.execute("PRAGMA max_page_count=1073741823")


def test_a_full_save_refuses_the_command_keeps_the_state_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    store = Store.open(path)
    session = Session(GAME, seats=2, seed=3)
    session.journal = store.create("main", session.setup)
    session.perform(Command("add", ("doom", "+1")))
    fill_up(store)
    with pytest.raises(SaveFullError, match=r"disk is full.*nothing was lost"):
        for n in range(800):  # the free pages fill up within a few dozen entries
            before_state, before_length = session.state, session.log_length
            session.perform(Command("add", ("doom", "+1" if n % 2 else "-1")))
    assert session.state == before_state and session.log_length == before_length
    assert not store._db.in_transaction
    make_room(store)
    assert session.perform(Command("next", ())).accepted
    store.close()
    with Store.open(path) as again:
        saved = again.load("main")
    assert saved is not None and len(saved.entries) == before_length + 1
    assert Session(GAME, seats=2, seed=3, entries=saved.entries).state == session.state


def test_the_station_keeps_running_and_says_the_save_is_full(tmp_path: Path) -> None:
    from tests.station.station_game import GAME as STATION_GAME
    from tests.station.test_station import Rig

    rig = Rig(load_config(REFERENCE_CONFIG), tmp_path)
    try:
        store = Store.open(tmp_path / "station.sqlite")
        rig.session.journal = store.create("main", rig.session.setup)
        assert rig.session.game is STATION_GAME
        rig.tap("next")
        assert rig.session.view()["active_seat"] == 2
        fill_up(store)
        store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        seat, length = rig.session.view()["active_seat"], rig.session.log_length
        track_before = rig.station.images["track"].tobytes()
        for _ in range(200):
            rig.tap("next")
            if rig.station.ui.save_problem is not None:
                break
            seat, length = rig.session.view()["active_seat"], rig.session.log_length
            track_before = rig.station.images["track"].tobytes()
        assert rig.station.ui.save_problem == "save full - not kept"
        assert rig.session.log_length == length and rig.session.view()["active_seat"] == seat
        assert rig.station.stats.save_failures == 1
        assert rig.station.images["track"].tobytes() != track_before  # the banner is drawn
        make_room(store)
        rig.tap("next")
        assert rig.station.ui.save_problem is None and rig.session.log_length == length + 1
        store.close()
    finally:
        rig.station.close()
        rig.parts.close()


# --- a real full filesystem (root only: mounting a tmpfs) ----------------------------------------

LAUNCH = (f"import sys; from tablekeeper import games; games.GAMES['fixture'] = {FIXTURE_MODULE!r};"
          "from tablekeeper.cli import main; raise SystemExit(main(sys.argv[1:]))")


@pytest.fixture
def tiny_fs(tmp_path: Path) -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def play(save: Path, script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LAUNCH, "play", "fixture", "--seats", "2", "--save", str(save),
                           "--script", "-", "--trace"], input=script, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)


def test_play_on_a_full_filesystem_is_one_line_and_resumes_when_space_returns(tiny_fs: Path) -> None:
    save = tiny_fs / "s.sqlite"
    script = "add doom +1\nadd doom -1\n" * 2000
    first = play(save, script)
    assert first.returncode == 2, first.stderr
    assert first.stderr.count("\n") == 1 and "Traceback" not in first.stderr, first.stderr
    assert "disk is full" in first.stderr and str(save) in first.stderr
    acked = first.stdout.count("\n")
    assert 0 < acked < 4000
    again = play(save, "next\n")  # resuming on the still-full disk: one line again, never a traceback
    assert again.returncode in (0, 2) and "Traceback" not in again.stderr and again.stderr.count("\n") <= 1
    subprocess.run(["mount", "-o", "remount,size=4m", str(tiny_fs)], check=True)
    resumed = play(save, "next\n")
    assert resumed.returncode == 0, resumed.stderr
    with Store.open(save) as store:
        saved = store.load("main")
    assert saved is not None and len(saved.entries) >= acked + 1
    assert sqlite3.connect(save).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


class FullCounts:
    """Demo counters on a disk that has just filled up."""

    def bump(self, name: str, by: int = 1) -> int:
        raise SaveFullError(f"s.sqlite: could not save {name}: the disk is full")

    def count(self, name: str) -> int:
        return 0


def test_a_full_disk_loses_a_demo_count_not_the_demo() -> None:
    from tablekeeper.demo.mode import DemoMode, Mode
    from tests.appliance.test_demo import SCRIPTS, TIMING

    demo = DemoMode(SCRIPTS, counters=FullCounts(), now_s=0.0, settings=TIMING)
    demo.on_press("next", 1.0)
    assert demo.mode is Mode.GUIDED and demo.uncounted == 1
