"""Oathsworn through ``tablekeeper play`` with a real save: what broke the appliance must not again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core import game as coregame
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.games.oathsworn import GAME


def play(capsys: pytest.CaptureFixture[str], script: Path, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["play", "oathsworn", "--script", str(script), *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("thawed", [True, False], ids=["thawed", "frozen-event-data"])
def test_breaking_a_location_with_a_save_open(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch, thawed: bool) -> None:
    """A broken location writes frozen game data back into an event; the store must take it."""
    if not thawed:  # the protection removed: events keep the state's read-only mappings
        monkeypatch.setattr(coregame, "thaw", lambda value: value)
    script = tmp_path / "break.script"
    script.write_text("set boss.claws 0\nset boss.head 0\n")
    save = tmp_path / "s.db"
    if not thawed:
        with pytest.raises(TypeError, match="mappingproxy"):
            play(capsys, script, "--option", "part=encounter", "--save", str(save), "--strict")
        return
    code, _, err = play(capsys, script, "--option", "part=encounter", "--save", str(save), "--strict")
    assert code == 0, err
    resume = tmp_path / "resume.script"
    resume.write_text("next\n")
    code, out, err = play(capsys, resume, "--option", "part=encounter", "--save", str(save), "--strict", "--json")
    assert code == 0, err
    view = json.loads(out)
    assert (view["tracks"]["boss.head"], view["tracks"]["boss.claws"]) == (0, 0)
    assert view["phase"] == "oathsworn"
    with Store.open(str(save)) as store:
        saved = store.load("main")
    assert saved is not None
    resumed = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                      entries=saved.entries)
    assert resumed.game.view(resumed.state)["tracks"] == view["tracks"]
