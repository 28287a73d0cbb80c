"""The demo lock covers the counters: in the attract loop their presses never reach the operator's saved game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper import games
from tablekeeper.core.store import Store
from tablekeeper.demo.station import DemoStation
from tests.station.test_sim_counters import scripted


@pytest.fixture(autouse=True)
def station_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games.GAMES, "station_game", "tests.station.station_game")


THREE_PRESSES = "counter 1 down\ncounter 1 down\ncounter 1 down\nwait 1\n"


def _saved_commands(save: Path) -> list[str]:
    store = Store.open(save)
    try:
        saved = store.load("main")
    finally:
        store.close()
    assert saved is not None
    return [entry.command.text() for entry in saved.entries if entry.command is not None]


def test_without_the_demo_the_presses_are_saved(tmp_path: Path) -> None:
    save = tmp_path / "operator.sqlite"
    seen = scripted(tmp_path, THREE_PRESSES, "--save", str(save))
    assert len(_saved_commands(save)) == 3 and seen.displays


@pytest.mark.parametrize("locked", [True, False])
def test_attract_loop_counter_presses_are_not_written_into_the_saved_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, locked: bool) -> None:
    save = tmp_path / "operator.sqlite"
    if not locked:
        monkeypatch.setattr(DemoStation, "counters_unlocked", lambda _self: True)
    seen = scripted(tmp_path, THREE_PRESSES, "--demo", "--save", str(save))
    saved = _saved_commands(save)
    if locked:
        assert saved == []
        assert seen.emitted  # the counter was sent the game's value back after each refused press
    else:
        assert len(saved) == 3
