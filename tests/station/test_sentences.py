"""Every screen of the four games' example scripts, of the demo and of the station's own keys, on the
reference and the compact build, says whole things: no sentence split mid-phrase across rows or pages,
no word broken off a hyphenation point (``tests/station/sentences.py`` reads each frame back)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from tablekeeper.ui import render
from tests.station import sentences

CASES = [(run, build) for run in sentences.RUNS for build in sentences.BUILDS]
# Earthborne's notice as a round reaches its Travel step short of the location's threshold (the issue
# saw "no travel: location progress 0/4: not enough to travel"). The station runs such a Travel step by
# itself into Refresh, so the notice stays on the track display where the table walks each step: a
# round played with --walk, 0/6 at Lone Tree Station.
NOTICE = ": not enough to travel"
SHORT_OF_TRAVEL = """pathdeck woods lone_tree_station
reveal path "Sitka Doe"
reveal path "Sunberry Bramble"
next
rest 1
rest 2
next
"""
_SEEN: dict[tuple[str, str], list[sentences.Seen]] = {}  # each case's screens, run once per worker


def screens(run: sentences.Run, build: str, workdir: Path) -> list[sentences.Seen]:
    """The screens of ``run`` on ``build`` as the station shows them (the layout rule as it is): run
    once, read by both tests below."""
    if (run.name, build) not in _SEEN:
        _SEEN[(run.name, build)] = sentences.screens_of(run, build, workdir)
    return _SEEN[(run.name, build)]


@pytest.mark.parametrize(("run", "build"), CASES, ids=[f"{r.name}-{b}" for r, b in CASES])
def test_every_screen_says_whole_sentences(run: sentences.Run, build: str, tmp_path: Path) -> None:
    seen = screens(run, build, tmp_path)
    assert len(seen) > 10  # the run reached its screens
    found = [problem for screen in seen for problem in sentences.problems(screen)]
    assert found == [], "\n".join(found[:20])


def plain_wrap(text: str, widths: Sequence[int], indent: str = "") -> tuple[str, ...] | None:
    """What the screens did before the layout rule: word wrap to the row's width, phrases ignored."""
    return tuple(textwrap.wrap(text, widths[0], subsequent_indent=indent, break_long_words=False)) or ("",)


@pytest.mark.parametrize("protection", ["phrases", "removed"])
def test_the_earthborne_notice_is_never_split_after_not(protection: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Earthborne's travel notice as the track display shows it on both builds, in a walked round that
    ends short of the threshold. With the phrase rule removed (a plain word wrap) the check finds
    "... not | enough to travel"."""
    render._fit.cache_clear()
    if protection == "removed":
        monkeypatch.setattr(render, "wrap_rows", plain_wrap)
    script = tmp_path / "short_of_travel.script"
    script.write_text(SHORT_OF_TRAVEL, encoding="utf-8")
    run = sentences.Run("earthborne.short", ("--walk", "--game", "earthborne", "--seats", "2"), script, typed=True)
    found: list[str] = []
    noticed = 0
    try:
        for build in sentences.BUILDS:
            seen = (sentences.screens_of(run, build, tmp_path / build) if protection == "removed"
                    else screens(run, build, tmp_path / build))
            for screen in seen:
                banner = screen.content.banner_text or ""
                if NOTICE in banner:
                    noticed += 1
                    found += sentences.problems(screen)
    finally:
        render._fit.cache_clear()
    assert noticed >= 2  # the notice was on screen, on each build
    split = [p for p in found if "'not enough to travel' is split" in p]
    if protection == "removed":
        assert split, found
    else:
        assert found == []
