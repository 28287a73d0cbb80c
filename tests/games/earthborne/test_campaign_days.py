"""Two days of a campaign for two Rangers on the simulated station (docs/games/earthborne.days.sim):
travel and camp, a fresh day at the camp, path cards reported by name, cards played and committed
from hand, and a clear by progress, by Ranger tokens and by harm."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli

SIM = Path(__file__).resolve().parents[3] / "docs" / "games" / "earthborne.days.sim"


def test_two_days_on_the_simulated_station(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "campaign.db"
    code = cli.main(["run", "--sim", "--game", "earthborne", "--seats", "2", "--seed", "7", "--save", str(save),
                     "--script", str(SIM), "--display", "capture", "--capture-dir", str(tmp_path / "frames")])
    assert code == 0
    capsys.readouterr()
    assert cli.main(["play", "earthborne", "--save", str(save), "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["tracks"]["day"] == 2 and final["crossed"] == [1]
    # White Sky is a Valley location: its threshold comes from its card, not the record
    assert final["record"] == {"location": "White Sky", "threshold": None, "terrain": "lakeshore"}
    assert final["location"]["name"] == "White Sky" and final["tracks"]["location.threshold"] == 6
    assert final["tracks"]["location.progress"] == 0  # day 1 left Lone Tree Station at 6/6; day 2 starts fresh
    assert [(c["name"], c["cleared_by"]) for c in final["clears"]] == [
        ("Sitka Doe", "progress"), ("Topside Mast", "rangers"), ("Romping Lutrinal", "harm")]
    assert final["known_path"] == []  # every card was the core box's: named, never described
    assert list(final["cards"]) == ["card5"] and final["cards"]["card5"]["seat"] == 2
    assert "path deck built: the Lakeshore set (12) + the White Sky set (4)" in final["log"]
    tracks = final["tracks"]
    assert (tracks["seat1.hand"], tracks["seat1.deck"]) == (5, 24)  # 6 fresh, 1 committed on day 2
    assert (tracks["seat2.hand"], tracks["seat2.deck"]) == (5, 24)  # 6 fresh, 1 played on day 2
    assert (tracks["seat1.awa"], tracks["seat1.fit"]) == (2, 1)  # energy from the setup aspects, FIT 3 - 2
    assert final["sources"]["path"]["remaining"] == 14  # White Sky's 16 cards less the two reported
    assert "seat 1 commits 1 card(s) from hand (+1)" in final["log"] and "seat 2 plays A Gentle Nudge" in final["log"]
    assert any((tmp_path / "frames").glob("panel_*.png"))
