"""Power loss: SIGKILL ``tablekeeper play --save`` at random points of a scripted game, restart it,
and check every restart resumes exactly after the last acknowledged line (a line sent but not yet
acknowledged may or may not have been committed) and that SQLite's integrity check passes.

A SIGKILL cannot show a missing fsync; the power-cut test at the end of this file can.

A third of the kills wait until SQLite's write-ahead log is being written, so they land during or
just after a commit whose trace line was not read yet. The short run (in the suite) kills 10
times; the stress run 200 times for the primary game and 50 for each other one.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import StoreError
from tests.core.fixture_game import GAME as FIXTURE_GAME
from tests.faults.power_cut import CutReport, Disk, parse, record, replay
from tests.faults.walk import FIXTURE_MODULE, Walk, playable_games, primary_game, random_walk

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = (f"import sys; from tablekeeper import games; games.GAMES['fixture'] = {FIXTURE_MODULE!r};"
          "from tablekeeper.cli import main; raise SystemExit(main(sys.argv[1:]))")
MAX_ACKED_PER_RUN = 6
MAX_IN_FLIGHT = 3


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A trace state without what depends on the process rather than the log."""
    return {k: v for k, v in view.items() if k not in ("notices", "automatic", "pending")}


def expected_view(walk: Walk, length: int) -> dict[str, Any]:
    view = walk.game.view(walk.states[length])
    view["log_length"] = length
    return comparable(view)


def launch(walk: Walk, save: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "play", walk.game.name, "--seats", str(walk.seats), "--seed",
         str(walk.seed), "--walk", "--script", "-", "--trace", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)


def wal_state(wal: Path) -> tuple[int, int]:
    try:
        stat = wal.stat()
    except FileNotFoundError:
        return (-1, -1)
    return (stat.st_size, stat.st_mtime_ns)


def wait_for_a_write(wal: Path, before: tuple[int, int], timeout_s: float = 2.0) -> None:
    """Until SQLite's write-ahead log is written (the process is committing), bounded in real time
    because the other end is another process."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if wal_state(wal) != before:
            return
        select.select([], [], [], 0.0005)


def resumed_length(walk: Walk, save: Path) -> int:
    """Open the save as the next start would, check its integrity, and return its log length."""
    with Store.open(save) as store:
        assert store.integrity() == "ok"
        saved = store.load("main")
    if saved is None:  # killed before the session row was written: a fresh start
        return 0
    session = Session(walk.game, seats=walk.seats, seed=walk.seed, entries=saved.entries)
    assert session.state == walk.states[session.log_length]
    return session.log_length


def kill_and_resume(game: Game, tmp_path: Path, *, kills: int, seed: int) -> list[tuple[int, int, int]]:
    """Run the game through ``kills`` SIGKILLs; returns (acknowledged, in flight, resumed) per kill."""
    rng = random.Random(seed)
    walk = random_walk(game, length=kills * (MAX_ACKED_PER_RUN + MAX_IN_FLIGHT), seed=seed)
    save = tmp_path / f"{game.name}.sqlite"
    position = 0
    record = []
    for _ in range(kills):
        proc = launch(walk, save)
        assert proc.stdin is not None and proc.stdout is not None
        acked_lines = rng.randint(0, MAX_ACKED_PER_RUN)
        in_flight = rng.randint(1, MAX_IN_FLIGHT)
        for line in walk.lines[position:position + acked_lines]:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            reply = proc.stdout.readline()
            assert reply, proc.communicate()[1]
            row = json.loads(reply)
            assert row["accepted"], row
            position += 1
            assert comparable(row["state"]) == expected_view(walk, position)
        wal = save.with_name(save.name + "-wal")
        wal_before = wal_state(wal)
        proc.stdin.write("".join(line + "\n" for line in walk.lines[position:position + in_flight]))
        proc.stdin.flush()
        if rng.random() < 1 / 3:
            wait_for_a_write(wal, wal_before)  # kill during or just after a commit, before its trace line
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        assert proc.stderr is not None
        proc.stderr.close()
        resumed = resumed_length(walk, save)
        assert position <= resumed <= position + in_flight
        record.append((position, in_flight, resumed))
        position = resumed
    return record


def test_ten_kills_each_resume_after_the_last_acknowledged_line(tmp_path: Path) -> None:
    record = kill_and_resume(primary_game(), tmp_path, kills=10, seed=1)
    assert len(record) == 10
    assert record[-1][2] > 0, "the game moved on between kills"


def stress_kills(game: Game) -> int:
    """200 kills for the game the station starts with, 50 for each of the others (time on 2 cores)."""
    return 200 if game.name == primary_game().name else 50


@pytest.mark.stress
@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.name)
def test_kills_at_random_points_of_each_game(game: Game, tmp_path: Path) -> None:
    kills = stress_kills(game)
    record = kill_and_resume(game, tmp_path, kills=kills, seed=2)
    in_flight_committed = sum(1 for acked, _n, resumed in record if resumed > acked)
    print(f"{game.name}: {kills} kills, resumed after the last acknowledged line each time; "
          f"{in_flight_committed} times a line in flight had been committed")


# --- power cuts: unsynced data is lost ---------------------------------------------------------------
# A SIGKILL cannot lose what the kernel already holds, so it cannot see a missing fsync. This test
# records every write and sync of a real ``play --save`` run (strace) and, at every syscall, rebuilds
# the files as a power cut would leave them (tests/faults/power_cut.py): each acknowledged entry must
# be in the save that resumes, verified whole. With ``synchronous=OFF`` or ``NORMAL`` the same check
# finds lost entries, so the test proves the protection.

POWER_CUT_LINES = 40


def _keep(path: str) -> bool:
    return path.endswith((".sqlite", ".sqlite-wal", ".sqlite-journal", ".sqlite.tally"))


def power_cuts(tmp_path: Path, synchronous: str, checkpoint: bool = True) -> CutReport:
    game = FIXTURE_GAME
    walk = random_walk(game, length=POWER_CUT_LINES, seed=7)
    script = tmp_path / "script.txt"
    script.write_text("".join(line + "\n" for line in walk.lines))
    run = tmp_path / "run"
    run.mkdir()
    launch = (f"from tablekeeper.core.store import Store; Store.SYNCHRONOUS = {synchronous!r}; "
              f"Store.CHECKPOINT = {checkpoint!r}; " + LAUNCH)
    code = record([sys.executable, "-c", launch, "play", game.name, "--seats", str(walk.seats), "--seed",
                   str(walk.seed), "--script", str(script), "--trace", "--save", str(run / "s.sqlite")],
                  tmp_path / "trace.txt", cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                  stdout=tmp_path / "out.jsonl")
    assert code == 0
    acked = (tmp_path / "out.jsonl").read_text().count("\n")
    assert acked == POWER_CUT_LINES
    image = tmp_path / "image"

    def survivors(disk: Disk) -> int:
        disk.image(image)
        save = image / "s.sqlite"
        if not save.exists():
            return 0
        try:
            with Store.open(save) as store:
                saved = store.load("main")
        except StoreError:
            return -1  # refused: counts as losing everything acknowledged
        if saved is None:
            return 0
        session = Session(game, seats=walk.seats, seed=walk.seed, entries=saved.entries)
        return session.log_length if session.state == walk.states[session.log_length] else -1

    return replay(parse(tmp_path / "trace.txt"), _keep, survivors)


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
@pytest.mark.parametrize(("synchronous", "checkpoint"), [("FULL", True), ("NORMAL", False), ("OFF", True)],
                         ids=["FULL with checkpoints", "NORMAL without (protection-removed)",
                              "OFF (protection-removed)"])
def test_a_power_cut_at_every_syscall_keeps_every_acknowledged_entry(tmp_path: Path, synchronous: str,
                                                                     checkpoint: bool) -> None:
    """Each acknowledged entry survives a cut at any syscall. The checkpoint before each acknowledgement
    syncs the main file as well, so ``NORMAL`` would be safe with it; without it, and with ``OFF``
    (nothing synced at all), acknowledged entries are lost."""
    report = power_cuts(tmp_path, synchronous, checkpoint)
    print(f"synchronous={synchronous}, checkpoint={checkpoint}: {report.cut_points} cut points, "
          f"{report.checked_images} disk images, acknowledged entries lost at {report.losses}"
          + (f" (first: {report.worst[0]} acknowledged, {report.worst[1]} kept)" if report.worst else ""))
    if (synchronous, checkpoint) == (Store.SYNCHRONOUS, Store.CHECKPOINT):
        assert report.losses == 0, report
    else:  # the test sees a missing fsync
        assert report.losses > 0, report
    assert report.cut_points > 5 * POWER_CUT_LINES
