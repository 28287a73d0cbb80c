"""Every game keeps the scripting contract: ``next`` then ``undo`` gives back the initial state, the JSON
view has the documented keys, a replay of the log equals the live state, and each display role has
something to show."""

from __future__ import annotations

import io
import json
import sys

import pytest

from tablekeeper import games
from tablekeeper.cli import main
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session

GAMES = ["arkham", "spirit_island", "oathsworn", "earthborne"]
KEYS = ("game", "round", "phase", "step", "active_seat", "prompt", "tracks", "log_length", "over")


def test_all_four_games_are_registered() -> None:
    assert sorted(games.names()) == sorted(GAMES)


def run_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str,
             script: str) -> dict[str, object]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert main(["play", game, "--seed", "1", "--script", "-", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, object] = json.loads(out)
    return result


@pytest.mark.parametrize("game", GAMES)
def test_next_then_undo_prints_the_initial_state(game: str, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    initial = run_play(monkeypatch, capsys, game, "")
    after = run_play(monkeypatch, capsys, game, "press next\nundo\n")  # NEXT answers a first prompt
    for key in KEYS:
        assert key in initial, key
    assert isinstance(initial["tracks"], dict) and initial["tracks"]
    assert after["log_length"] == 2
    for view in (initial, after):
        view.pop("log_length")
        view.pop("notices", None)
        view.pop("automatic", None)
    assert after == initial


@pytest.mark.parametrize("game", GAMES)
def test_a_played_session_replays_to_the_same_state_and_every_display_has_a_panel(game: str) -> None:
    g = games.load(game)
    session = Session(g, seats=2, seed=5)
    for _ in range(12):
        state = session.state
        if state.prompt is not None:
            session.perform(Command("choose", ("1",)))
        else:
            session.perform(Command("next"))
        panels = g.panels(session.state)
        assert panels.get("track") is not None
        for role, panel in panels.items():
            assert panel.title or panel.lines, role
    assert session.replay() == session.state
    assert Session(g, seats=2, seed=5, entries=session.entries).state == session.state
    assert session.log_length > 0
