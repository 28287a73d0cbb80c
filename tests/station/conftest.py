"""Shared set-up for the station tests: the tiny test game registered by name, a headless SDL."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tablekeeper import cli, games

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture
def station_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Registers ``station_game`` (tests/station/station_game.py) with the game loader."""
    monkeypatch.setitem(games.GAMES, "station_game", "tests.station.station_game")
    yield "station_game"


@pytest.fixture
def station_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real CLI with only this area's subcommands, independent of the others' modules."""
    monkeypatch.setattr(cli, "COMMANDS", {"config": "tablekeeper.commands.config", "run": "tablekeeper.commands.run"})
