"""The documented three-round script, run headless (``tablekeeper play --strict``) and then one more
round on the simulated station with the panel's buttons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.games.earthborne import GAME

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games"
SCRIPT = DOCS / "earthborne.script"
SIM = DOCS / "earthborne.sim"


def _play(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = cli.main(["play", "earthborne", "--seats", "2", "--seed", "7", *extra])
    return code, capsys.readouterr().out


def test_three_round_script_runs_strict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _play(capsys, "--script", str(SCRIPT), "--strict", "--json")
    assert code == 0
    final = json.loads(out)
    assert final["round"] == 4 and final["phase"] == "path"
    clears = {c["name"]: c for c in final["clears"]}
    assert clears["Agitated Meadowlarks"]["cleared_by"] == "progress" and clears["Agitated Meadowlarks"]["discarded"]
    assert clears["Pouncing Atrox"]["cleared_by"] == "harm" and clears["Pouncing Atrox"]["discarded"]
    assert list(final["cards"]) == ["card4"]  # only the persistent Circling Irix stayed after travel
    assert final["location"]["name"] == "Atrox Mountain" and final["record"]["terrain"] == "mountain_pass"
    assert final["tracks"]["location.threshold"] == 10 and final["tracks"]["location.progress"] == 0
    # the new path deck: the Mountain Pass set and 3 random Valley cards the group turns over later
    assert final["sources"]["path"]["remaining"] == 15


def test_script_trace_shows_the_card_without_thresholds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _play(capsys, "--script", str(SCRIPT), "--strict", "--trace")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    travel = next(i for i, r in enumerate(records) if r["text"].startswith("choose 1"))
    before = records[travel - 1]["state"]
    assert before["prompt"]["id"] == "travel"
    tracks = before["tracks"]
    assert (tracks["card3.progress"], tracks["card3.harm"]) == (4, 2)
    assert tracks["card3.progress_threshold"] is None and tracks["card3.harm_threshold"] is None
    assert "card3" not in records[travel]["state"]["cards"]  # it left play with the travel
    choice = next(r for r in records if r["text"].startswith("choose 2"))
    assert records[records.index(choice) - 1]["state"]["prompt"]["options"] == ["progress", "harm"]


def test_round_four_on_the_simulated_station(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "earthborne.db"
    code, _ = _play(capsys, "--script", str(SCRIPT), "--strict", "--save", str(save))
    assert code == 0
    code = cli.main(["run", "--game", "earthborne", "--save", str(save), "--script", str(SIM),
                     "--display", "capture", "--capture-dir", str(tmp_path / "frames")])
    assert code == 0
    assert any((tmp_path / "frames").glob("panel_*.png"))
    capsys.readouterr()
    code, out = _play(capsys, "--save", str(save), "--json")
    final = json.loads(out)
    assert final["round"] == 5 and final["phase"] == "path"
    assert len(final["cards"]) == 3  # the Irix and the two path cards reported by name
    assert "seat 1 rests" in final["log"] and "seat 2 rests" in final["log"]


def test_docs_show_every_verb_with_an_example() -> None:
    text = (DOCS / "earthborne.md").read_text(encoding="utf-8")
    missing = [name for name in GAME.all_verbs() if name not in ("pass", "done") and f"`{name}" not in text]
    assert missing == []
