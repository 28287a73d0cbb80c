from __future__ import annotations

import pytest

from tablekeeper import games
from tablekeeper.core.session import Session
from tests.core.fixture_game import GAME


@pytest.fixture
def session() -> Session:
    return Session(GAME, seats=2, seed=7)


@pytest.fixture
def fixture_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``tablekeeper play fixture`` find the test game."""
    monkeypatch.setitem(games.GAMES, "fixture", "tests.core.fixture_game")
