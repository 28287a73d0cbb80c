"""A game opened as ``tablekeeper play GAME`` opens it (the default flow unless ``walk``), driven
line by line through the runner the command uses."""

from __future__ import annotations

import argparse

from tablekeeper import games
from tablekeeper.commands.play import DEFAULT_SLOT, Runner
from tablekeeper.commands.sessions import open_session
from tablekeeper.core.session import Outcome


def opened(game: str, *, seats: int | None = None, seed: int = 1, walk: bool = False, **options: str) -> Runner:
    args = argparse.Namespace(seats=seats, seed=seed, option=[f"{k}={v}" for k, v in options.items()], walk=walk,
                              save=None, slot=DEFAULT_SLOT, campaign=None)
    session, _store = open_session(games.load(game), args)
    return Runner(session)


def line(runner: Runner, text: str) -> Outcome:
    outcome = runner.line(1, text)
    assert outcome is not None, text
    return outcome


def ok(runner: Runner, *lines: str) -> Runner:
    for text in lines:
        outcome = line(runner, text)
        assert outcome.accepted, f"{text!r} refused: {outcome.reason}"
    return runner


def refused(runner: Runner, text: str) -> str:
    before = runner.session.state
    outcome = line(runner, text)
    assert not outcome.accepted, f"{text!r} was accepted"
    assert runner.session.state == before
    return outcome.reason or ""
