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

After an update every stored snapshot mismatches (their key names the software): the first restart
replays the whole log, then (once its first frame is out) keeps a fresh snapshot, and the second
restart starts from it. Printed per game: both restarts and the write, medians of 5, each first
restart on a fresh copy of the save whose snapshots were made by "other software".

Run: ``.venv/bin/python bench/bench_resume.py [GAME...]`` (every game without names).
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
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tablekeeper.station.controls import Controls

RUNS = 7
UPDATE_RUNS = 5
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


def _built(game: Game, store: Store, path: Path, *, attached: bool) -> tuple[float, Session]:
    """The slot read back (the whole-save check included), then when that was done and the session built
    from it: as ``play`` does, or as ``run`` does with the save attached as its journal."""
    saved = store.load("main")
    assert saved is not None
    built = time.perf_counter()
    return built, Session(game, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                          journal=store.journal("main") if attached else None, entries=saved.entries,
                          snapshots=saved.snapshots, from_save=f"{path}: slot 'main'")


def resume(name: str, path: Path) -> tuple[float, float, Session]:
    """One resume as ``play`` does it: seconds in all, seconds building the session; and the session."""
    game = games.load(name)
    start = time.perf_counter()
    with Store.open(path) as store:
        built, session = _built(game, store, path, attached=False)
    end = time.perf_counter()
    return end - start, end - built, session


def median_resume(name: str, path: Path) -> tuple[float, float, Session]:
    resume(name, path)  # warm: the game's modules and data are loaded once per process
    runs = [resume(name, path) for _ in range(RUNS)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2])


def restart_after_update(name: str, path: Path) -> tuple[float, float, float, Session]:
    """A resume as ``run`` does it, with the save attached: seconds in all and building the session,
    then seconds to keep the fresh snapshot (``run`` does that after its first frame); and the session."""
    game = games.load(name)
    start = time.perf_counter()
    with Store.open(path) as store:
        built, session = _built(game, store, path, attached=True)
        resumed = time.perf_counter()
        assert session.resumed_from == 0 and session.snapshot_due and session.keep_snapshot()
        kept = time.perf_counter()
    return resumed - start, resumed - built, kept - resumed, session


def after_update(name: str, save: Path, tmp: Path) -> str:
    """First and second restart of ``save`` once its snapshots were made by other software."""
    stale = tmp / f"{name}-stale.sqlite"
    shutil.copy(save, stale)
    db = sqlite3.connect(stale)
    db.execute("UPDATE snapshots SET key = 'made by the release before'")
    db.commit()
    db.close()
    firsts, first_builds, writes, seconds, second_builds = [], [], [], [], []
    for run in range(UPDATE_RUNS + 1):  # the first to warm
        copy = tmp / f"{name}-updated.sqlite"
        shutil.copy(stale, copy)
        first_s, first_build_s, write_s, first = restart_after_update(name, copy)
        second_s, second_build_s, second = resume(name, copy)
        assert second.state == first.state and second.resumed_from == len(second.line) > 0
        if run:
            firsts.append(first_s)
            first_builds.append(first_build_s)
            writes.append(write_s)
            seconds.append(second_s)
            second_builds.append(second_build_s)
    line = len(second.line)
    return (f"{name}: after an update, median of {UPDATE_RUNS} | first restart (replays all {line} active "
            f"entries): {ms(firsts)} ms (session {ms(first_builds)}), then keeps a fresh snapshot after its first "
            f"frame: {ms(writes)} ms | second restart (from the snapshot at {line} + 0): {ms(seconds)} ms "
            f"(session {ms(second_builds)})")


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.1f}"


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
            if sys.argv[1:] and name not in sys.argv[1:]:
                continue
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
            print(after_update(name, save, Path(tmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
