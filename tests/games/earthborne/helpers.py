"""Driving an Earthborne session line by line, as a script would."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.games.earthborne import GAME, pathdeck
from tablekeeper.games.earthborne.record import rec

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
        if line == PATH_CARDS:
            draw_path_cards(s)
            continue
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


PATH_CARDS = "(each Ranger draws a path card)"
"""A line for ``session``/``do``: the Rangers still owing this round's path card report one (ER-PATH-1)."""

QUIET_PATH_CARD = "Old Stump"
"""The example card with no thresholds, icons or entry: drawn where a test's table draws its path cards
but the test is about something else, so it changes nothing the test reads."""


def draw_path_cards(s: Session) -> Session:
    """ER-PATH-1: the Rangers who have not drawn this round's path card report one, from the lead on."""
    owed = s.state.seats - rec(s.state).path_drawn
    line = "draw path" if pathdeck.device_can_draw(s.state) else f'reveal path "{QUIET_PATH_CARD}"'
    return do(s, *[line] * owed)


def to_turns(s: Session, seat: int = 1) -> Session:
    """From the path phase (each Ranger draws a path card) to seat ``seat``'s turn."""
    return do(draw_path_cards(s), "next", f"turn {seat}")
