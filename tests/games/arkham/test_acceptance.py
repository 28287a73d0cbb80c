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
    assert (view["round"], view["phase"], view["step"]) == (4, "mythos", "1.4")  # the lead's card to name
    assert view["prompt"]["seat"] == 1
    tracks = view["tracks"]
    assert tracks["agenda"] == 2 and tracks["agenda.doom"] == 0 and tracks["agenda.threshold"] == 7
    assert tracks["act"] == 2 and tracks["act.clues_required"] == 6
    # Roland: the Attic's horror, a cultist's horror on a failed fight, a tablet's damage beside a
    # Ghoul, 2 horror from agenda 1's reverse side; Daisy: Grasping Hands (failed by 2), the Cellar.
    assert (tracks["seat1.damage"], tracks["seat1.horror"], tracks["seat2.damage"], tracks["seat2.horror"]) == \
        (1, 4, 3, 0)
    assert view["removed"] == ["act 1: Trapped", "location Study", "agenda 1: What's Going On?!"]
    assert list(view["enemies"]) == ["Flesh-Eater"] and view["at"] == {"1": "Attic", "2": "Cellar"}
    # 5 encounter cards drawn one investigator at a time; the Flesh-Eater stays in play.
    assert (tracks["encounter.deck"], tracks["encounter.discard"]) == (21, 3)


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
