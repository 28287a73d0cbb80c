"""Spirit Island benchmark: what a button press costs (one command judged and applied), what the
four-turn example costs end to end, what undo costs at the end of it (a replay of every event),
how long the panels take to compute, and the three-turn buttons-only game of the ``.keys`` file
(every press through the controls, the Invader questions included).

Run: ``.venv/bin/python bench/bench_spirit_island.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from tablekeeper.core.script import parse_lines
from tablekeeper.core.session import Session
from tablekeeper.errors import Rejected
from tablekeeper.games import load
from tablekeeper.station.controls import Controls

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "games" / "spirit_island.script"
KEYS = SCRIPT.with_suffix(".keys")
REPEATS = 20


def run_script() -> tuple[Session, int, int]:
    session = Session(load("spirit_island"), seats=2, seed=7, options={"flow": "auto"})  # as `play` runs it
    commands = events = 0
    for line in parse_lines(SCRIPT.read_text(encoding="utf-8").splitlines()):
        outcome = session.perform(line.command)
        if not outcome.accepted:
            raise SystemExit(f"{SCRIPT.name}:{line.number}: {outcome.reason}")
        commands += 1
        events += len(outcome.events)
    return session, commands, events


def run_keys() -> tuple[int, int]:
    """The ``.keys`` presses through the controls (no displays): (presses, commands)."""
    session = Session(load("spirit_island"), seats=2, seed=1, options={"spirits": "river,lightning"})
    controls = Controls(session.game, clock=lambda: 0.0)
    presses = commands = 0
    for raw in KEYS.read_text(encoding="utf-8").splitlines():
        words = raw.split("#")[0].split()
        if words[:1] != ["press"]:
            continue
        presses += 1
        try:
            pressed = controls.press(words[1], session.state) + controls.flush()
        except Rejected:
            continue  # a press that means nothing now (the station shows why)
        for command in pressed:
            session.perform(command)
            commands += 1
    if session.state.round != 4:
        raise SystemExit(f"{KEYS.name}: ended in round {session.state.round}, not 4")
    return presses, commands


def main() -> None:
    game_times, undo_times, panel_times = [], [], []
    commands = events = 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        session, commands, events = run_script()
        game_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(10):
            session.game.panels(session.state)
        panel_times.append((time.perf_counter() - start) / 10)
        start = time.perf_counter()
        session.undo()
        undo_times.append(time.perf_counter() - start)
    game_s = statistics.median(game_times)
    per_command_ms = game_s / commands * 1000
    undo_ms = statistics.median(undo_times) * 1000
    print(f"four-turn script: {commands} commands, {events} events, median {game_s * 1000:.1f} ms "
          f"({per_command_ms:.2f} ms per command, {events / game_s:,.0f} events/s)")
    print(f"undo at the end (replay from the last checkpoint, every 64 commands): median {undo_ms:.2f} ms "
          f"= {undo_ms / per_command_ms:.1f}x one command")
    print(f"panels for 2 seats: median {statistics.median(panel_times) * 1e6:.0f} us")
    key_times = []
    presses = key_commands = 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        presses, key_commands = run_keys()
        key_times.append(time.perf_counter() - start)
    keys_s = statistics.median(key_times)
    print(f"three turns by buttons ({KEYS.name}): {presses} presses, {key_commands} commands, median "
          f"{keys_s * 1000:.1f} ms ({keys_s / presses * 1000:.2f} ms per press)")


if __name__ == "__main__":
    main()
