"""Earthborne benchmark: the exact chance a test succeeds (from what is left in the 24-card
challenge deck: a count over at most 24 cards, so no comparison with sampling is made); the
documented three-round script per command; undo (a replay of the log) at its end; the station
panels for one state; the two-day campaign (docs/games/earthborne.days.sim) per command.

Run: ``.venv/bin/python bench/bench_earthborne.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from tablekeeper.core.chance import Deck
from tablekeeper.core.events import Command
from tablekeeper.core.script import parse_lines
from tablekeeper.core.session import Outcome, Session
from tablekeeper.games.earthborne import GAME, tables
from tablekeeper.games.earthborne.odds import success_chance

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "games" / "earthborne.script"
DAYS = SCRIPT.with_name("earthborne.days.sim")
RUNS = 50
OPTIONS = {"flow": "auto"}  # as ``tablekeeper play`` and the station run it: automatic steps run by themselves


def main() -> None:
    commands = [line.command for line in parse_lines(SCRIPT.read_text(encoding="utf-8").splitlines())]
    session = Session(GAME, seats=2, seed=7, options=OPTIONS)
    per_command_ms = []
    for command in commands:
        start = time.perf_counter()
        outcome = session.perform(command)
        per_command_ms.append((time.perf_counter() - start) * 1000)
        if not outcome.accepted:
            raise SystemExit(f"script line rejected: {command.text()}: {outcome.reason}")

    deck = session.state.sources["challenge"]
    assert isinstance(deck, Deck)
    table = {card_id: row.modifiers for card_id, row in tables.cfg(session.state).challenge.items()}
    times_ms = []
    for _ in range(RUNS):
        start = time.perf_counter()
        exact = success_chance(deck, table, "fit", 2, 2, 0)
        times_ms.append((time.perf_counter() - start) * 1000)
    exact_ms = statistics.median(times_ms)

    undo_ms = []
    for _ in range(10):
        start = time.perf_counter()
        session.undo()
        undo_ms.append((time.perf_counter() - start) * 1000)
        session.redo()
    start = time.perf_counter()
    for _ in range(RUNS):
        GAME.panels(session.state)
    panels_ms = (time.perf_counter() - start) * 1000 / RUNS

    print(f"exact test odds (FIT 2 vs 2, {deck.remaining} cards left): {exact_ms:.3f} ms "
          f"= {exact} ({float(exact) * 100:.2f}%)")
    print(f"three-round script: {len(commands)} commands, median {statistics.median(per_command_ms):.2f} ms, "
          f"max {max(per_command_ms):.2f} ms per command, {sum(per_command_ms):.0f} ms in all")
    print(f"undo at the end (replay of {len(session.line)} entries): median {statistics.median(undo_ms):.2f} ms")
    print(f"station panels for one state: {panels_ms:.3f} ms")
    two_days()


def two_days() -> None:
    """The two-day campaign as the station plays it (``tablekeeper run --script``: its typed lines and its
    button presses): every command the session applies, timed, a day's setup (``newday``) among them."""
    import tempfile

    from tablekeeper.cli import main as cli

    timed: list[tuple[str, float]] = []
    perform = Session.perform

    def measured(session: Session, command: Command) -> Outcome:
        start = time.perf_counter()
        outcome = perform(session, command)
        timed.append((command.verb, (time.perf_counter() - start) * 1000))
        return outcome

    Session.perform = measured  # type: ignore[method-assign,assignment]  # the bench's own timing, this process only
    try:
        with tempfile.TemporaryDirectory() as tmp:
            code = cli(["run", "--sim", "--game", "earthborne", "--seats", "2", "--script", str(DAYS),
                        "--display", "capture", "--capture-dir", tmp])
    finally:
        Session.perform = perform  # type: ignore[method-assign]
    if code != 0:
        raise SystemExit(f"the two-day script stopped (exit {code})")
    per_command_ms = [ms for _verb, ms in timed]
    newday_ms = next(ms for verb, ms in timed if verb == "newday")
    print(f"two-day campaign: {len(timed)} commands, median {statistics.median(per_command_ms):.2f} ms, "
          f"max {max(per_command_ms):.2f} ms per command; newday {newday_ms:.2f} ms")


if __name__ == "__main__":
    main()
