"""Core benchmark: replaying 10,000 events (what undo costs) and appending one command to the
SQLite log with ``synchronous=FULL`` (what every button press costs before its result shows).

Run: ``.venv/bin/python bench/bench_core.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from msgspec.structs import replace

from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow, Phase, Step, Turns
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.store import Store
from tablekeeper.core.tracks import Counter


class BenchGame(Game):
    """Four seats of typical tracks (like an Arkham table) and a clockwise turn step."""

    name = "bench"
    flow = Flow((Phase("play", "Play", (Step("turns", turns=Turns.CLOCKWISE),)),))

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        tracks = {"doom": Counter(0, 0, None)}
        for seat in state.seat_numbers():
            for name in ("health", "sanity", "damage", "horror", "clues", "resources", "actions", "xp"):
                tracks[f"seat{seat}.{name}"] = Counter(0, 0, None)
        return replace(state, tracks=tracks)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_replay(events_target: int = 10_000) -> dict[str, float]:
    game = BenchGame()
    session = Session(game, seats=4, seed=1)
    while sum(len(e.events) for e in session.line) < events_target:
        session.perform(Command("add", ("doom", "+1")))
        session.perform(Command("add", ("seat2.clues", "+1")))
        session.perform(Command("next"))
    events = sum(len(e.events) for e in session.line)
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        state = session.replay()
        runs.append(time.perf_counter() - start)
    assert state == session.state
    undo_runs = []
    for _ in range(20):
        start = time.perf_counter()
        session.undo()
        undo_runs.append(time.perf_counter() - start)
        session.redo()
    return {"events": events, "replay_s": min(runs), "undo_median_s": statistics.median(undo_runs)}


def bench_append(n: int = 300) -> dict[str, float]:
    game = BenchGame()
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "bench.sqlite") as store:
        session = Session(game, seats=4, seed=1)
        session.journal = store.create("main", session.setup)
        times = []
        for i in range(n):
            start = time.perf_counter()
            session.perform(Command("add", ("doom", "+1")) if i % 2 else Command("next"))
            times.append(time.perf_counter() - start)
    return {"median_s": statistics.median(times), "p99_s": percentile(times, 0.99), "n": n}


def main() -> int:
    replay = bench_replay()
    append = bench_append()
    rows = [
        ("replay of the log", f"{replay['events']:.0f} events", f"{replay['replay_s'] * 1000:.1f} ms",
         f"{replay['events'] / replay['replay_s']:,.0f} events/s (target: 10,000 in under 500 ms)"),
        ("undo (checkpointed replay)", "1 entry", f"{replay['undo_median_s'] * 1000:.3f} ms", "median of 20"),
        ("append one command, synchronous=FULL", f"{append['n']:.0f} commands",
         f"median {append['median_s'] * 1000:.2f} ms", f"p99 {append['p99_s'] * 1000:.2f} ms"),
    ]
    for row in rows:
        print(" | ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
