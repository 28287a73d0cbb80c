"""Every event any game produces can be written to the store and replays to the same state.

Random play of each game (its own example script, replayed with lines skipped, repeated and mixed
with flow moves, prompt answers, draws and undo) runs with a real SQLite store on a temporary file;
the saved log, loaded back, must rebuild exactly the live state. A value the store cannot encode
(a frozen mapping, a set) would fail the append and end the session on the appliance.
"""

from __future__ import annotations

import itertools
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablekeeper import games
from tablekeeper.core.events import Command
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store

ROOT = Path(__file__).resolve().parents[1]
# Each game from its script's options, plus starting points a script does not reach quickly.
STARTS = (("arkham", {}), ("spirit_island", {}), ("oathsworn", {}), ("oathsworn", {"part": "encounter"}),
          ("earthborne", {}))
GENERIC = ("next", "next", "choose 1", "choose 2", "undo", "redo", "resolve")


@dataclass(frozen=True)
class Example:
    """A game's example script: its command lines and the seats/seed/options it runs with."""

    lines: tuple[str, ...]
    seats: int
    seed: int
    options: dict[str, str]


def example(name: str) -> Example:
    text = (ROOT / "docs" / "games" / f"{name}.script").read_text()
    run = next(line for line in text.splitlines() if f"tablekeeper play {name}" in line)
    argv = shlex.split(run.split("tablekeeper play", 1)[1])
    game = games.load(name)
    seats, seed, options = game.seats_default, 1, {}
    for flag, value in itertools.pairwise(argv):
        if flag == "--seats":
            seats = int(value)
        elif flag == "--seed":
            seed = int(value)
        elif flag == "--option":
            key, _, val = value.partition("=")
            options[key] = val
    lines = tuple(line.split("#", 1)[0].strip() for line in text.splitlines())
    return Example(tuple(line for line in lines if line), seats, seed, options)


# Each step: 0 plays the script's next line, 1 skips it, 2 plays a random script line, 3 a generic
# line, 4 drives a group of tracks (``boss.*``, ``seat2.*``) to their floor one line at a time: what
# breaks locations, defeats seats and ends games.
steps = st.lists(st.tuples(st.sampled_from((0, 0, 0, 1, 2, 3, 4)), st.integers(0, 10_000)), max_size=45)


@pytest.mark.parametrize(("name", "extra"), STARTS, ids=[f"{n}-{'-'.join(o.values()) or 'script'}" for n, o in STARTS])
def test_random_play_is_written_and_replays_to_the_same_state(name: str, extra: dict[str, str]) -> None:
    ex = example(name)
    game = games.load(name)
    options = {**ex.options, **extra}

    @settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(steps)
    def run(plan: list[tuple[int, int]]) -> None:
        with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "save.db") as store:
            session = Session(game, seats=ex.seats, seed=ex.seed, options=options)
            session.journal = store.create("main", session.setup)
            at = 0
            for how, pick in plan:
                if how == 0 and at < len(ex.lines):
                    text, at = ex.lines[at], at + 1
                elif how == 1:
                    at += 1
                    continue
                elif how == 2:
                    text = ex.lines[pick % len(ex.lines)]
                elif how == 3:
                    text = GENERIC[pick % len(GENERIC)]
                else:
                    groups = sorted({name.split(".")[0] for name in session.state.tracks})
                    group = groups[pick % len(groups)]
                    for track, counter in sorted(session.state.tracks.items()):
                        if track.split(".")[0] == group:
                            session.perform(Command("set", (track, str(counter.lo or 0))))
                    continue
                parsed = parse_line(text)
                assert parsed is not None
                session.perform(parsed.command)  # each accepted entry is appended to the store here
            saved = store.load("main")
            assert saved is not None and len(saved.entries) == session.log_length
            resumed = Session(game, seats=saved.setup.seats, seed=saved.setup.seed,
                              options=saved.setup.options, entries=saved.entries)
            assert resumed.state == session.state

    run()
