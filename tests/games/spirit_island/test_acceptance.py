"""The acceptance scenario: two Spirits on boards A and B, three full turns with Growth off the
presence tracks, an earned Fear card read by name and Blight cascading into adjacent lands, run
from the documented script through ``tablekeeper play --strict``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli

SCRIPT = Path(__file__).resolve().parents[3] / "docs" / "games" / "spirit_island.script"


ARGS = ["play", "spirit_island", "--seats", "2", "--seed", "7", "--option", "spirits=river,lightning",
        "--option", "invaders=report", "--option", "fear_cards=report", "--script", str(SCRIPT)]


def test_three_turn_script_runs_strict(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main([*ARGS, "--strict", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    view = json.loads(out.strip().splitlines()[-1])
    assert view["round"] == 4 and view["phase"] == "spirit" and view["over"] is None
    extra, t = view["spirit_island"], view["tracks"]
    assert len(extra["fear_resolved"]) == 1 and extra["fear_resolved"][0]["terror"] == 1
    assert extra["fear_resolved"][0]["name"] == "Dahan Enheartened"
    assert view["sources"]["fear_cards"]["remaining"] == 14  # the core box's 15, one seen
    assert t["fear.cards_left"] == 8
    # turn 2: A5's Blight cascaded into A1 (its neighbour); turn 3: B4's (setup Blight) into B7
    assert (extra["lands"]["A5"]["blight"], extra["lands"]["A1"]["blight"]) == (2, 1)
    assert (extra["lands"]["B4"]["blight"], extra["lands"]["B7"]["blight"]) == (2, 1)
    # the River: 1 Presence at setup, 2 more from its Energy track into A6, 1 lost with A5's Blight
    assert (t["seat1.presence"], extra["lands"]["A6"]["presence"]) == (2, {"1": 2})
    assert (t["seat1.energy_per_turn"], t["seat2.card_plays"]) == (2, 3)
    assert t["blight.flipped"] == 1  # turn 3's first Blight flipped Downward Spiral
    assert t["invader.cards_left"] == 8  # four Explore cards after the first


def test_trace_replays_identically(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*ARGS, "--json"]
    cli.main(args)
    first = capsys.readouterr().out
    cli.main(args)
    assert capsys.readouterr().out == first
