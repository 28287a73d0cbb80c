"""Soak benchmark: resident memory of a session played for accelerated hours (a fake clock, a
button press or a draw every two seconds on average, every command committed to SQLite with
``synchronous=FULL``), and what the second hour added to the first. Targets: under 60 MB after an
hour; no growth beyond the log itself.

Run: ``.venv/bin/python bench/bench_soak.py``. Prints figures; asserts nothing about time or size.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

from tablekeeper import games
from tablekeeper.controls import Controls
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected

HOUR_S = 3600.0
MEAN_GAP_S = 2.0
BUTTONS = ("next", "up", "up", "down", "select", "back", "seat1.a", "seat2.a", "seat1.b")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


def play_hour(session: Session, controls: Controls, clock: FakeClock, rng: random.Random) -> int:
    """One accelerated hour of presses and draws; returns how many inputs it took."""
    end_s = clock.now_s + HOUR_S
    inputs = 0
    while clock.now_s < end_s:
        clock.now_s += rng.expovariate(1 / MEAN_GAP_S)
        inputs += 1
        try:
            batch = controls.tick(session.state)
            if rng.random() < 0.15 and session.state.sources:
                batch += [*controls.flush(), Command("draw", (rng.choice(sorted(session.state.sources)),))]
            else:
                batch += controls.press(rng.choice(BUTTONS), session.state)
        except Rejected:
            continue
        for cmd in batch:
            if cmd.verb != "menu" and not session.perform(cmd).accepted:
                break
    return inputs


def main() -> int:
    name = next(iter(games.names()), None)
    if name is None:
        print("no game installed; nothing to soak")
        return 0
    game = games.load(name)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "soak.sqlite") as store:
        session = Session(game, seats=game.seats_default, seed=1)
        session.journal = store.create("main", session.setup)
        clock = FakeClock()
        controls = Controls(game, clock=clock)
        start_mb, start_fds = rss_mb(), open_fds()
        wall = time.perf_counter()
        inputs1 = play_hour(session, controls, clock, rng)
        hour1_mb, entries1 = rss_mb(), session.log_length
        inputs2 = play_hour(session, controls, clock, rng)
        hour2_mb, entries2 = rss_mb(), session.log_length
        wall_s = time.perf_counter() - wall
        fds = open_fds()
    print(f"{name}: resident memory at start | {start_mb:.1f} MB")
    print(f"{name}: resident memory after 1 h of play | {hour1_mb:.1f} MB | {inputs1} inputs, "
          f"{entries1} log entries (target < 60 MB)")
    print(f"{name}: resident memory after 2 h of play | {hour2_mb:.1f} MB | second hour added "
          f"{hour2_mb - hour1_mb:+.2f} MB for {inputs2} inputs, {entries2 - entries1} more entries")
    print(f"{name}: open file descriptors start / after 2 h | {start_fds} / {fds}")
    print(f"{name}: 2 accelerated hours took | {wall_s:.1f} s wall | {HOUR_S * 2 / wall_s:,.0f}x real time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
