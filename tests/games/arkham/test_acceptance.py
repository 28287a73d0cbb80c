"""Acceptance: a two-investigator scenario of three full rounds from a script, the documented
example script under --strict, and bad input rejected with a reason on stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli

SCRIPT = Path(__file__).resolve().parents[3] / "docs" / "games" / "arkham.script"


def test_example_script_plays_three_full_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["play", "arkham", "--seats", "2", "--script", str(SCRIPT), "--strict", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    view = json.loads(out)
    assert (view["round"], view["phase"], view["step"]) == (4, "mythos", "1.4")  # 1.1-1.3 ran by themselves
    tracks = view["tracks"]
    assert tracks["agenda"] == 2 and tracks["agenda.doom"] == 0 and tracks["agenda.threshold"] == 7
    assert tracks["act"] == 2 and tracks["act.clues_required"] == 6
    assert tracks["seat1.damage"] == 1 and tracks["seat1.horror"] == 1
    assert view["removed"] == ["act 1: Trapped", "agenda 1: What's Going On?!"]
    assert view["victory"] == [1]
    assert view["enemies"] == {}
    # 4 encounter cards drawn and discarded at 1.4, and the defeated Ghoul (AH-DMG-10); round 4's
    # 1.4 has drawn its 2 cards (1.1-1.3 ran by themselves) and asks what stayed in play.
    assert (tracks["encounter.deck"], tracks["encounter.discard"]) == (20, 5)


def test_bad_input_goes_to_stderr_and_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "bad.script"
    script.write_text("turn seat1\nact seat1\nact seat1\nact seat1\nact seat1\n"
                      "set seat2.damage 6\nset agenda.threshold 0\nreveal chaos -7\n", encoding="utf-8")
    code = cli.main(["play", "arkham", "--script", str(script), "--strict", "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    lines = err.strip().splitlines()
    assert lines[0] == "line 5: seat 1 has 0 actions left; the other action needs 1"
    assert lines[1] == "line 6: seat2.damage 6 is beyond health 5"
    assert lines[2] == "line 7: agenda.threshold cannot go below 1 (asked for 0)"
    assert lines[3] == "line 8: the chaos bag holds no '-7' token"
    tracks = json.loads(out)["tracks"]
    assert tracks["seat1.actions"] == 0 and tracks["seat2.damage"] == 0 and tracks["agenda.threshold"] == 3
