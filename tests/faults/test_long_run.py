"""The simulated station left running: random presses, counter unplugs and garbage frames, each game
in a fresh process (``tests/faults/long_run.py``), on a fake clock. No thread may fail or be
restarted, resident memory and file descriptors stay flat, and the session keeps only its window of
the saved log in memory. The suite runs two simulated minutes
of one game; ``-m stress`` runs 30 simulated minutes of every game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.core.session import WINDOW
from tests.faults.walk import playable_games, primary_game

ROOT = Path(__file__).resolve().parents[2]
RSS_SLACK_KIB = 2048  # allocator pages kept or returned between samples; a leak over 30 minutes is more


def long_run(game: str, minutes: float, seed: int) -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-m", "tests.faults.long_run", "--game", game, "--minutes",
                             str(minutes), "--seed", str(seed)], cwd=ROOT, capture_output=True, text=True,
                            timeout=1800)
    lines = result.stdout.strip().splitlines()
    assert lines, result.stderr[-2000:]
    figures: dict[str, Any] = json.loads(lines[-1])
    assert result.returncode == 0, (figures, result.stderr[-2000:])
    return figures


def check_long_run(figures: dict[str, Any]) -> None:
    assert figures["thread_restarts"] == 0 and figures["thread_errors"] == [], figures
    assert figures["unhealthy_passes"] == 0 and figures["stalled_steps"] == 0, figures
    assert figures["panel_presses"] > 0 and figures["counter_presses"] > 0 and figures["garbage_frames"] > 0
    assert figures["entries_in_memory"] <= 2 * WINDOW, figures  # the saved log is read back, not kept
    fds = figures["fds"]
    assert len(set(fds)) <= 1, f"file descriptors changed: {fds}"
    rss = figures["rss_kib"]
    half = len(rss) // 2
    if half:
        assert max(rss[half:]) <= max(rss[:half]) + RSS_SLACK_KIB, f"RSS grew: {rss} KiB"


def test_two_simulated_minutes_of_the_station_with_faults() -> None:
    figures = long_run(primary_game().name, 2.0, seed=1)
    check_long_run(figures)
    assert figures["simulated_s"] >= 120


@pytest.mark.stress
@pytest.mark.parametrize("game", [g.name for g in playable_games()])
def test_thirty_simulated_minutes_per_game(game: str) -> None:
    figures = long_run(game, 30.0, seed=7)
    print(json.dumps(figures))
    check_long_run(figures)
    assert figures["simulated_s"] >= 1800
    assert figures["unplugs"] > 0
