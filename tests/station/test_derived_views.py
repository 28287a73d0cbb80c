"""Expensive views (Arkham's odds) are computed once per set of inputs, after the frame that answers a
press: a press that leaves the chaos bag alone, or a release, recomputes nothing."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.commands.run import build_simulated
from tablekeeper.config import load_config
from tablekeeper.core.derived import DerivedViews
from tablekeeper.games.arkham import panels as arkham_panels
from tablekeeper.sim.clock import FakeClock
from tablekeeper.station.loop import Station
from tablekeeper.station.script import ScriptedRun, parse_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("cached", [True, False], ids=["cached", "cache-off"])
def test_odds_are_not_recomputed_when_their_inputs_did_not_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   cached: bool) -> None:
    calls: list[int] = []
    real = arkham_panels.success_chance

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(arkham_panels, "success_chance", counting)
    config = load_config(ROOT / "hardware" / "station.toml")
    args = argparse.Namespace(game="arkham", seats=2, seed=1, save=None, slot="main", capture_dir=tmp_path)
    clock = FakeClock()
    station, parts, _ = build_simulated(config, args, display_mode=None, clock=clock)
    if not cached:
        station.views.capacity = 0  # the protection removed: every redraw recomputes
    tokens_lines: list[tuple[str, ...]] = []

    def seen(st: Station) -> None:
        tokens_lines.append(st.panels["tokens"].lines)

    station.on_redraw = seen
    try:
        script = ["type token add bless 10", "type token add curse 10"]
        run = ScriptedRun(station, parts, clock, lambda: None)
        station.start()
        run.run(parse_script(script, parts, source="setup", hold_s=config.timing.hold_s))
        after_bag = len(calls)
        commands = station.stats.commands
        answered = list(tokens_lines)  # every frame so far (a page may hide the odds)
        final = station.panels["tokens"].lines
        # presses and their releases, and a turn begun: the bag never changed
        before = station.session.state
        run.run(parse_script(["press up", "wait 3", "press down", "wait 3", "type turn seat1", "wait 1"], parts,
                             source="presses", hold_s=config.timing.hold_s))
        after_presses = len(calls)
        assert station.stats.commands > commands and station.session.state is not before
        last = tokens_lines[-1]
    finally:
        station.close()
        parts.close()
    if cached:
        assert after_bag == 3 * 4  # the first frame and the two bag changes, four margins each
        assert after_presses == after_bag
        # the frame answering the bag change went out with placeholders; the odds followed
        assert ("+0: ..  +1: ..", "+2: ..  +3: ..") in [lines[1:3] for lines in answered]
        assert ".." not in final[1] and "%" in final[1]
        assert "%" in last[1]
    else:
        assert after_presses > after_bag


@pytest.mark.parametrize("deferred", [True, False], ids=["deferred", "computed-first"])
def test_a_skill_tests_odds_follow_the_frame_that_answers_the_press(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    deferred: bool) -> None:
    """The odds of a test just begun (tokens display and the session view) are computed after the frame
    answering the press is out; with the deferral patched out they are computed before it."""
    from tablekeeper.games.arkham import skilltest

    if not deferred:
        monkeypatch.setattr(DerivedViews, "deferred", lambda self: contextlib.nullcontext())
    order: list[str] = []
    real = skilltest.success_chance

    def counting(*args: Any, **kwargs: Any) -> Any:
        order.append("odds")
        return real(*args, **kwargs)

    monkeypatch.setattr(skilltest, "success_chance", counting)
    config = load_config(ROOT / "hardware" / "station.toml")
    args = argparse.Namespace(game="arkham", seats=2, seed=1, save=None, slot="main", capture_dir=tmp_path)
    clock = FakeClock()
    station, parts, _ = build_simulated(config, args, display_mode=None, clock=clock)
    bigs: list[str | None] = []

    def seen(st: Station) -> None:
        order.append("frame")
        bigs.append(st.panels["tokens"].big)

    try:
        station.start()
        station.on_redraw = seen
        order.clear()
        run = ScriptedRun(station, parts, clock, lambda: None)
        run.run(parse_script(["type test seat1 intellect 3 2", "wait 1"], parts, source="test",
                             hold_s=config.timing.hold_s))
    finally:
        station.close()
        parts.close()
    if deferred:
        assert order[:3] == ["frame", "odds", "frame"] and bigs[0] == ".." and bigs[1] is not None
        assert "%" in bigs[1]
    else:
        assert order[0] == "odds" and bigs[0] != ".."
