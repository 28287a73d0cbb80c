"""Driving an Earthborne session line by line, as a script would."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.games.earthborne import GAME

EXAMPLE_CARDS = Path(__file__).with_name("example_cards.toml")
"""Made-up path cards with round numbers (Doe, Stalking Cat, ...) the rule tests use by name."""


def session(*lines: str, seats: int = 2, options: Mapping[str, str] | None = None) -> Session:
    """A session at Lone Tree Station (day 1's start) with the example cards known and, unless the
    lines build it themselves, a path deck of 12 unseen cards; ``options`` say otherwise."""
    builds = any(line.startswith("pathdeck") for line in lines)
    defaults = {"cards": str(EXAMPLE_CARDS), **({} if builds else {"pathdeck": "12"})}
    s = Session(GAME, seats=seats, seed=7, options={**defaults, **dict(options or {})})
    for line in lines:
        do(s, line)
    return s


def do(s: Session, *lines: str) -> Session:
    for line in lines:
        parsed = parse_line(line)
        assert parsed is not None
        outcome = s.perform(parsed.command)
        assert outcome.accepted, f"{line!r} was rejected: {outcome.reason}"
    return s


def refused(s: Session, line: str) -> str:
    parsed = parse_line(line)
    assert parsed is not None
    before = s.view()
    outcome = s.perform(parsed.command)
    assert not outcome.accepted, f"{line!r} was accepted"
    after = s.view()
    after["log_length"] = before["log_length"]
    assert after == before, "a rejected command changed the state"
    return str(outcome.reason)


def view(s: Session) -> dict[str, Any]:
    return s.view()


def tracks(s: Session) -> dict[str, Any]:
    return dict(s.view()["tracks"])


def in_play(s: Session) -> dict[str, Any]:
    return dict(s.view()["cards"])


def prompt(s: Session) -> dict[str, Any] | None:
    p = s.view()["prompt"]
    return None if p is None else dict(p)


def to_turns(s: Session, seat: int = 1) -> Session:
    """From the path phase to seat ``seat``'s turn."""
    return do(s, "next", f"turn {seat}")
