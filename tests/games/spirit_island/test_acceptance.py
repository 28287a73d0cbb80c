"""The issue's acceptance scenario: two Spirits, four full turns with an earned Fear card and a
Blight cascade, run from the documented script through ``tablekeeper play --strict``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli

SCRIPT = Path(__file__).resolve().parents[3] / "docs" / "games" / "spirit_island.script"


def test_four_turn_script_runs_strict(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", "spirit_island", "--seats", "2", "--seed", "7", "--script", str(SCRIPT),
                     "--strict", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    view = json.loads(out.strip().splitlines()[-1])
    assert view["round"] == 5 and view["phase"] == "spirit" and view["over"] is None
    extra = view["spirit_island"]
    assert len(extra["fear_resolved"]) == 1 and extra["fear_resolved"][0]["terror"] == 1
    assert view["tracks"]["fear.cards_left"] == 8
    # the cascade: A2 2 Blight, A5 1 Blight and Spirit 1 lost a Presence there
    assert extra["lands"]["A2"]["blight"] == 2 and extra["lands"]["A5"]["blight"] == 1
    assert extra["lands"]["A5"]["presence"] == {"1": 1}
    assert view["tracks"]["seat1.presence"] == 1
    assert view["tracks"]["blight.card"] == 3
    # four Explore cards after the first: 12 - 5 left
    assert view["tracks"]["invader.cards_left"] == 7


def test_trace_replays_identically(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "spirit_island", "--seats", "2", "--seed", "7", "--script", str(SCRIPT), "--json"]
    cli.main(args)
    first = capsys.readouterr().out
    cli.main(args)
    assert capsys.readouterr().out == first
