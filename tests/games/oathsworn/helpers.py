"""Small helpers to drive an Oathsworn session through the real Session API."""

from __future__ import annotations

from typing import Any

from tablekeeper.core.events import Command
from tablekeeper.core.frozen import thaw
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Outcome, Session
from tablekeeper.games.oathsworn import GAME
from tablekeeper.games.oathsworn.record import rec


def new(seats: int = 4, seed: int = 7, **options: str) -> Session:
    """A session on the practice encounter (head, body, claws: round numbers the rule tests count
    with) unless ``encounter`` names another; the chapter's own encounter is ``encounter=""``."""
    options.setdefault("encounter", "practice")
    if not options["encounter"]:
        del options["encounter"]
    return Session(GAME, seats=seats, seed=seed, options=options)


def encounter(**options: str) -> Session:
    """A session that starts at the encounter (round 1, refresh)."""
    options.setdefault("part", "encounter")
    return new(**options)


def perform(s: Session, line: str) -> Outcome:
    parsed = parse_line(line)
    assert parsed is not None
    return s.perform(parsed.command)


def ok(s: Session, *lines: str) -> Session:
    for line in lines:
        out = perform(s, line)
        assert out.accepted, f"{line!r} rejected: {out.reason}"
    return s


def no(s: Session, line: str) -> str:
    before = s.state
    out = perform(s, line)
    assert not out.accepted, f"{line!r} was accepted"
    assert s.state == before
    return out.reason or ""


def seat(s: Session, n: int) -> dict[str, Any]:
    out: dict[str, Any] = thaw(rec(s.state).seat(n))
    return out


def v(s: Session, track: str) -> int:
    return s.state.value(track)


def last(s: Session) -> dict[str, Any]:
    out: dict[str, Any] = thaw(rec(s.state).last)
    return out


def to_turns(s: Session) -> Session:
    """From the encounter's refresh to the Oathsworn phase (lead's turn)."""
    return ok(s, "next")


def cmd(verb: str, *args: str) -> Command:
    return Command(verb, args)


_OPEN: dict[str, Any] = {}  # path -> the store a stored() session writes to


def stored(path: str, seats: int = 4, seed: int = 7, **options: str) -> Session:
    """A session whose every entry is written to a real SQLite store at ``path``."""
    from tablekeeper.core.store import Store

    s = new(seats=seats, seed=seed, **options)
    store = Store.open(path)
    _OPEN[path] = store
    s.journal = store.create("main", s.setup)
    return s


def reloaded(path: str) -> Session:
    """The session the store at ``path`` holds, rebuilt from its saved log (the writing session's
    store is closed first: a save file is held by one store at a time)."""
    from tablekeeper.core.store import Store

    writer = _OPEN.pop(path, None)
    if writer is not None:
        writer.close()
    with Store.open(path) as store:
        saved = store.load("main")
    assert saved is not None
    return Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                   entries=saved.entries)
