"""The console's completion against each game's example script, line by line in a live session: the
verb is offered from its first letters, and every argument that is a name the box knows (a card, a
place, a Spirit's power, a seat) is offered from its first letters, completing to a line that reads
back as the script's own words. Also names with spaces typed without quotes, and the session verbs."""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from tablekeeper import games
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.web.completion import MAX_CHOICES, complete
from tests.station.frames import DOCS, SCRIPT_ARGS, example_setup


def _session(game: str) -> Session:
    seats, seed, options = example_setup(game)
    return Session(games.load(game), seats=seats or 2, seed=seed, options=options)


def _lines(game: str) -> list[str]:
    text = (DOCS / f"{game}.script").read_text(encoding="utf-8")
    return [line for raw in text.splitlines() if (line := raw.split("#", 1)[0].strip())]


def _offered(text: str, session: Session) -> list[Any]:
    state = session.state
    return list(complete(text, session.game.all_verbs(), session.game.names(state)))


@pytest.mark.parametrize("game", sorted(SCRIPT_ARGS))
def test_every_name_in_the_example_script_is_offered_from_its_first_letters(game: str) -> None:
    session = _session(game)
    names_checked = 0
    for line in _lines(game):
        words = shlex.split(line)
        verb = words[0]
        choices = _offered(verb[:3], session)
        assert verb in [c.word for c in choices] or len(choices) == MAX_CHOICES, (line, choices)
        known = {name.lower() for kind in session.game.names(session.state).values() for name in kind}
        for i, word in enumerate(words[1:], 1):
            if word.lower() not in known or word.isdigit():
                continue
            typed = " ".join(shlex.quote(w) if " " in w else w for w in words[:i]) + " " + word[:4]
            offered = [c for c in _offered(typed, session) if c.word.lower() == word.lower()]
            if not offered and len(_offered(typed, session)) == MAX_CHOICES:
                continue  # a short prefix many names share: the list is full before it
            assert offered, (line, word, [c.word for c in _offered(typed, session)])
            completed = offered[0].line + " ".join(shlex.quote(w) for w in words[i + 1:])
            assert [w.lower() for w in shlex.split(completed)] == [w.lower() for w in words], (line, completed)
            names_checked += 1
        parsed = parse_line(line, origin="console")
        assert parsed is not None
        command = parsed.command
        if command.verb in ("press", "hold"):  # a panel button, as the station's console takes it
            pressed = session.game.button(session.state, command.args[0], command.verb == "hold")
            assert pressed is not None, line
            command = pressed
        assert session.perform(command).accepted, line
    assert names_checked >= 3, game


def test_a_name_with_spaces_typed_without_quotes_is_completed_in_quotes() -> None:
    session = _session("earthborne")
    session.perform(parse_line("pathdeck mountain_pass lone_tree_station").command)  # type: ignore[union-attr]
    choices = _offered("reveal path agitated mea", session)
    assert [c.line for c in choices] == ['reveal path "Agitated Meadowlarks" ']
    parsed = parse_line(choices[0].line)
    assert parsed is not None and session.perform(parsed.command).accepted


def test_session_verbs_and_buttons_are_offered() -> None:
    session = _session("arkham")
    assert {"undo", "redo", "rewind"} <= {c.word for c in _offered("", session)} | {
        c.word for c in _offered("re", session)} | {c.word for c in _offered("un", session)}
    assert "seat2.a" in {c.word for c in _offered("press seat2", session)}
    assert _offered("press next ", session) == []  # press takes one button
