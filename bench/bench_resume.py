"""Resume benchmark: how long a station takes to resume a long save, from its newest snapshot plus the
log's tail, and replaying the whole log (the same save with its snapshots removed, as a save written
before snapshots is).

A long save is 400 commands of random presses and draws (``bench_soak``'s buttons, BACK left out so
every command stays on the active line: the longest replay a save of that length can need), or fewer
where the game ends first. A resume is what ``play`` and ``run`` do: open the save (lock, SQLite's
integrity check, every entry's checksum), read the slot, and build the session (the state at the
end of the active line). Each figure is the median of 7 resumes in this process after one to warm
it; the session's part (replay) is also printed on its own. Also printed: the snapshot's size and
the CPU that encoding it adds to the one press in 64 that writes it.

Run: ``.venv/bin/python bench/bench_resume.py``.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_soak import BUTTONS, FakeClock

from tablekeeper import games
from tablekeeper.core import snapshot
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tablekeeper.station.controls import Controls

RUNS = 7
GAMES = {"spirit_island": 2, "oathsworn": 2, "earthborne": 2, "arkham": 4}
COMMANDS = 400
FORWARD = tuple(b for b in BUTTONS if b != "back")  # no undo: every command stays on the active line


def make_save(name: str, seats: int, path: Path) -> int:
    """A long game of ``name`` in ``path`` (slot ``main``); returns its number of log entries."""
    game = games.load(name)
    with Store.open(path) as store:
        session = Session(game, seats=seats, seed=1, options={"flow": "auto"})
        session.journal = store.create("main", session.setup)
        controls, rng = Controls(game, clock=FakeClock()), random.Random(7)
        for _ in range(50 * COMMANDS):  # presses tried: a game stuck on a question the buttons skip stops
            if session.log_length >= COMMANDS or session.state.over is not None:
                break
            if rng.random() < 0.15 and session.state.sources:
                batch = [*controls.flush(), Command("draw", (rng.choice(sorted(session.state.sources)),))]
            else:
                try:
                    batch = controls.press(rng.choice(FORWARD), session.state)
                except Rejected:
                    continue
            for command in batch:
                if command.verb not in ("menu", "undo", "redo") and not session.perform(command).accepted:
                    break
        return session.log_length


def resume(name: str, path: Path) -> tuple[float, float, Session]:
    """One resume as ``play`` does it: seconds in all, seconds building the session; and the session."""
    game = games.load(name)
    start = time.perf_counter()
    with Store.open(path) as store:
        saved = store.load("main")
        assert saved is not None
        built = time.perf_counter()
        session = Session(game, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                          entries=saved.entries, snapshots=saved.snapshots, from_save=f"{path}: slot 'main'")
    end = time.perf_counter()
    return end - start, end - built, session


def median_resume(name: str, path: Path) -> tuple[float, float, Session]:
    resume(name, path)  # warm: the game's modules and data are loaded once per process
    runs = [resume(name, path) for _ in range(RUNS)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2])


def encode_cost(session: Session) -> tuple[float, int]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        body = snapshot.encode(session.state)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(body)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for name, seats in GAMES.items():
            save = Path(tmp) / f"{name}.sqlite"
            entries = make_save(name, seats, save)
            old = Path(tmp) / f"{name}-old.sqlite"
            shutil.copy(save, old)
            db = sqlite3.connect(old)
            db.execute("DELETE FROM snapshots")
            db.commit()
            db.close()
            fast_s, fast_build_s, fast = median_resume(name, save)
            whole_s, whole_build_s, whole = median_resume(name, old)
            assert fast.state == whole.state and whole.resumed_from == 0
            encode_s, size = encode_cost(fast)
            line = len(fast.line)
            print(f"{name}: resume of a save of {entries} log entries ({line} active), median of {RUNS} | "
                  f"from the snapshot at {fast.resumed_from} + {line - fast.resumed_from} entries: "
                  f"{fast_s * 1000:.1f} ms (session {fast_build_s * 1000:.1f} ms) | replayed whole: "
                  f"{whole_s * 1000:.1f} ms (session {whole_build_s * 1000:.1f} ms) | "
                  f"{whole_s / fast_s:.1f}x faster")
            print(f"{name}: snapshot {size / 1024:.1f} KiB; encoding it adds {encode_s * 1000:.2f} ms to the one "
                  "press in 64 that writes it (in the same SQLite transaction: no sync of its own)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
