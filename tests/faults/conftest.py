from __future__ import annotations

import pytest

from tablekeeper import games
from tests.faults.walk import FIXTURE_MODULE


@pytest.fixture
def fixture_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``tablekeeper play fixture`` find the engine's test game in this process."""
    monkeypatch.setitem(games.GAMES, "fixture", FIXTURE_MODULE)
