"""The games' acceptance scripts run on the simulated station too: each line typed at the station's
console (``type LINE`` in a station script) reaches the same state as ``tablekeeper play``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tests.station.frames import SCRIPT_ARGS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
CASES = [(game, list(args)) for game, args in SCRIPT_ARGS.items()]


def final_view(capsys: pytest.CaptureFixture[str], game: str, setup: list[str], save: Path) -> dict[str, object]:
    capsys.readouterr()
    assert cli.main(["play", game, *setup, "--save", str(save), "--json"]) == 0
    view: dict[str, object] = json.loads(capsys.readouterr().out)
    view.pop("notices", None)
    return view


@pytest.mark.parametrize(("game", "setup"), CASES, ids=[g for g, _ in CASES])
def test_the_game_script_typed_at_the_simulated_station_matches_play(
        game: str, setup: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = DOCS / f"{game}.script"
    played, simulated = tmp_path / "played.sqlite", tmp_path / "simulated.sqlite"
    assert cli.main(["play", game, *setup, "--script", str(script), "--strict", "--save", str(played)]) == 0

    lines = [line.split("#", 1)[0].strip() for line in script.read_text(encoding="utf-8").splitlines()]
    station_script = tmp_path / "console.txt"
    station_script.write_text("".join(f"type {line}\n" for line in lines if line), encoding="utf-8")
    frames = tmp_path / "frames"
    code = cli.main(["run", "--game", game, *setup, "--save", str(simulated), "--script", str(station_script),
                     "--display", "capture", "--capture-dir", str(frames), "--no-counters"])
    assert code == 0
    assert len(list(frames.glob("panel_*.png"))) > 1

    assert final_view(capsys, game, setup, simulated) == final_view(capsys, game, setup, played)


@pytest.mark.parametrize("line", ["type set doom 999", 'type add "doom', "type rewind ³"])
def test_a_typed_line_the_game_refuses_stops_the_script_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str) -> None:
    """A script's typed lines are its own: one refused is the script's mistake, named by file and line
    (exit 2); the lines before it are kept, none after it runs."""
    station_script = tmp_path / "console.txt"
    station_script.write_text(f"type pass 1\n{line}\ntype pass 2\n", encoding="utf-8")
    save = tmp_path / "s.sqlite"
    assert cli.main(["run", "--game", "arkham", "--seats", "2", "--save", str(save), "--script",
                     str(station_script), "--display", "capture", "--capture-dir", str(tmp_path / "f"),
                     "--no-counters"]) == 2
    _out, err = capsys.readouterr()
    assert err.startswith(f"tablekeeper: {station_script}:2: ") and len(err.splitlines()) == 1, err
    view = final_view(capsys, "arkham", ["--seats", "2"], save)
    assert view["log_length"] == 1  # only seat 1's pass went in
