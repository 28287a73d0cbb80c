"""Presses per round: accepted lines a table needs for one round of each game, step by step
(``--walk``, the behaviour before automatic steps) and automatic.

(a) A quiet round, played generically: a prompt is answered with its first option; else a seat in
``owing`` (else the active seat) sends ``pass SEAT``; else ``next``. Counted from the start of round 2
to the start of round 3 (round 1 has set-up steps of its own in some games).
(b) The rounds of each game's example script (docs/games/*.script): the script in the automatic mode,
and the same script step by step, with one ``next`` for each step the automatic mode ran itself.

Run: ``.venv/bin/python bench/bench_presses.py``. Prints a table; asserts nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from tablekeeper import games
from tablekeeper.commands.play import Runner
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("arkham", "spirit_island", "oathsworn", "earthborne")
START_OPTIONS: Mapping[str, Mapping[str, str]] = {"oathsworn": {"part": "encounter"}}
SCRIPT_SETUP: Mapping[str, tuple[int, int]] = {"arkham": (2, 1), "spirit_island": (2, 1), "oathsworn": (4, 1),
                                               "earthborne": (2, 7)}
LIMIT = 400


def generic_move(session: Session) -> bool:
    """One generic line; False if nothing was accepted (the player is stuck)."""
    state = session.state
    tries: list[Command] = []
    if state.prompt is not None:
        tries.append(Command("choose", ("1",)))
    else:
        seat = state.owing[0] if state.owing else state.active_seat
        if seat is not None:
            tries.append(Command("pass", (str(seat),)))
        tries.append(Command("next"))
    return any(session.perform(c).accepted for c in tries)


def quiet_round(game_name: str, seats: int, mode: str) -> int | None:
    """Accepted lines from the start of round 2 to the start of round 3 (None: stuck or over)."""
    game = games.load(game_name)
    session = Session(game, seats=seats, seed=3, options={"flow": mode, **START_OPTIONS.get(game_name, {})})
    counted = 0
    for _ in range(LIMIT):
        state = session.state
        if state.over is not None:
            return None
        if state.round >= 3:
            return counted
        if not generic_move(session):
            return None
        if state.round == 2:
            counted += 1
    return None


def position(session: Session) -> tuple[int, str, str]:
    s = session.state
    return (s.round, s.phase, s.step)


def script_rounds(game_name: str) -> tuple[Counter[int], Counter[int]]:
    """Accepted lines per round of the example script: step by step, and automatic."""
    game = games.load(game_name)
    seats, seed = SCRIPT_SETUP[game_name]
    auto = Runner(Session(game, seats=seats, seed=seed, options={"flow": "auto"}))
    walk = Runner(Session(game, seats=seats, seed=seed, options={"flow": "walk"}))
    before: Counter[int] = Counter()
    after: Counter[int] = Counter()
    lines = (ROOT / "docs" / "games" / f"{game_name}.script").read_text(encoding="utf-8").splitlines()
    for number, text in enumerate(lines, 1):
        catch_up(walk, auto, before)
        round_no = auto.session.state.round
        outcome = auto.line(number, text)
        if outcome is None:
            continue
        if outcome.accepted:
            after[round_no] += 1
        walked = walk.line(number, text)
        if walked is not None and walked.accepted:
            before[round_no] += 1  # caught up: both sessions are in the same step
    catch_up(walk, auto, before)
    return before, after


def catch_up(walk: Runner, auto: Runner, counts: Counter[int]) -> None:
    """Press ``next`` in the step-by-step session through the steps the automatic one ran itself."""
    for _ in range(LIMIT):
        if position(walk.session) == position(auto.session) or walk.session.state.over is not None:
            return
        round_no = walk.session.state.round
        if not walk.session.perform(Command("next")).accepted:
            return
        counts[round_no] += 1


def main() -> None:
    print("(a) quiet round: accepted lines, step by step -> automatic (target: seats + 3)")
    print(f"{'game':14} {'1 seat':>10} {'2 seats':>10} {'4 seats':>10}")
    for name in GAMES:
        cells = []
        for seats in (1, 2, 4):
            old, new = quiet_round(name, seats, "walk"), quiet_round(name, seats, "auto")
            mark = "" if new is not None and new <= seats + 3 else " *"
            cells.append(f"{old if old is not None else '-'} -> {new if new is not None else '-'}{mark}")
        print(f"{name:14} " + " ".join(f"{c:>10}" for c in cells))
    print("* above the target")
    print()
    print("(b) example scripts: accepted lines per round, step by step -> automatic")
    for name in GAMES:
        before, after = script_rounds(name)
        rounds = sorted(set(before) | set(after))
        print(f"{name:14} " + "  ".join(f"r{r}: {before[r]} -> {after[r]}" for r in rounds))


if __name__ == "__main__":
    main()
