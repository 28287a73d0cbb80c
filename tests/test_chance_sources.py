"""Every chance source a real session holds is a probability distribution (OpenSpiel's habit): along
each game's example script, at every state, each bag, deck and die gives outcomes whose exact
probabilities (``Fraction``) are all positive and sum to exactly 1, or none at all only when nothing
is left to draw; and what the source draws is always one of those outcomes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from tablekeeper import cli, games
from tablekeeper.commands.play import Runner
from tablekeeper.commands.sessions import new_session
from tablekeeper.core.chance import Bag, Deck, Dice, Source
from tablekeeper.core.state import GameState
from tests.station.frames import SCRIPT_ARGS

DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"
CASES = SCRIPT_ARGS  # each game's script with the arguments it is run with


def states(game_name: str) -> Iterator[GameState]:
    """The session's state before the script and after each of its commands (as ``play --strict``)."""
    args = cli.build_parser("play").parse_args(["play", game_name, *CASES[game_name]])
    session = new_session(games.load(game_name), args)
    yield session.state
    runner = Runner(session)  # ``press ROLE`` lines go through the panel's controls, as in ``play``
    lines = (DOCS / f"{game_name}.script").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        outcome = runner.line(number, line)
        if outcome is None:
            continue
        assert outcome.accepted, f"{game_name}.script:{number}: {outcome.reason}"
        yield session.state
    assert runner.finish().accepted


def nothing_left(source: Source) -> bool:
    if isinstance(source, Bag):
        return source.contents.total == 0
    if isinstance(source, Deck):
        ready = source.ready()
        return ready.remaining == 0
    return not source.faces


@pytest.mark.parametrize("game_name", sorted(CASES))
def test_every_chance_source_of_a_real_session_sums_to_exactly_one(game_name: str) -> None:
    kinds: set[str] = set()
    checked = 0
    for state in states(game_name):
        for name, source in state.sources.items():
            outcomes = source.outcomes()
            if not outcomes:
                assert nothing_left(source), f"{game_name}: {name} has something to draw but no outcomes"
                continue
            assert all(isinstance(p, Fraction) and p > 0 for p in outcomes.values()), (name, outcomes)
            assert sum(outcomes.values()) == 1, f"{game_name}: {name} sums to {sum(outcomes.values())}"
            for seed in range(3):  # what the source draws is an outcome it gives a chance to
                drawn = source.pick(random.Random(seed))
                faces = drawn.split() if isinstance(source, Dice) else [drawn]
                assert all(face in outcomes for face in faces), (name, drawn)
            kinds.add(type(source).__name__)
            checked += 1
    assert checked > 0 and kinds  # the script's sessions hold sources, and they were looked at


def test_a_distribution_that_does_not_sum_to_one_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check fails when a source's probabilities are off (a bag that forgets one token's weight)."""
    real = Bag.outcomes

    def short(bag: Bag) -> dict[str, Fraction]:
        out = real(bag)
        if len(out) > 1:
            out.pop(next(iter(out)))
        return out

    monkeypatch.setattr(Bag, "outcomes", short)
    with pytest.raises(AssertionError, match="sums to"):
        test_every_chance_source_of_a_real_session_sums_to_exactly_one("arkham")
