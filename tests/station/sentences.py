"""Every screen the station shows while the example scripts run, and a reader's check of each: that it
says whole things.

A case runs ``tablekeeper run --script`` on the simulated station (fake clock, no virtual counters)
with a station config, while ``Painter.paint`` is watched: every display screen it is handed (the
screen model, ``ui.model.DisplayScreen``) is kept once with the display it was for. ``problems`` then
fits it as the OLEDs do (``ui.render.fit``) and reads every frame back from its rows:

* each sentence (the title, a line of the panel, a part of the banner) is on a frame whole, and rows
  break it only between phrases, or inside a phrase too wide for a row (``ui.phrases``);
* a word is broken only at a hyphenation point of the language's rules;
* a sentence that scrolls shows a window of itself and is scrolled from its start to its end;
* no row is wider than the display, and what the frame draws is the sentences' rows;
* every line that is not a DETAIL is on some frame, the title on each.

    .venv/bin/python -m tests.station.sentences arkham reference    # print the problems of one case
"""

from __future__ import annotations

import argparse
import functools
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

from tablekeeper.config import DisplayConfig, load_config
from tablekeeper.core.view import Panel, Priority
from tablekeeper.ui.legibility import Viewing
from tablekeeper.ui.model import DisplayScreen, Screens
from tablekeeper.ui.paint import Painter
from tablekeeper.ui.phrases import broken_phrases
from tablekeeper.ui.render import MARKER, PART, Fitted, Screen, Shown, fit, printable, short_form
from tests.station import frames

ROOT = frames.ROOT
BUILDS = {"reference": ROOT / "hardware" / "station.toml", "compact": ROOT / "hardware" / "compact.toml"}


@dataclass(frozen=True, slots=True)
class Run:
    """One example run: a name, the ``run`` options, and the script (a file, or text made here)."""

    name: str
    args: tuple[str, ...]
    script: Path | None = None
    typed: bool = False
    before: tuple[str, ...] = ()  # a run of ``frames.SCRIPT_ARGS``'s script first, into the same save


GAMES = tuple(frames.SCRIPT_ARGS)
RUNS: tuple[Run, ...] = (
    *(Run(game, ("--game", game, *args), frames.DOCS / f"{game}.script", typed=True)
      for game, args in frames.SCRIPT_ARGS.items()),
    Run("arkham.keys", ("--walk", "--game", "arkham", "--seats", "4"), frames.DOCS / "arkham.keys"),
    Run("spirit_island.keys", ("--walk", "--game", "spirit_island", "--seats", "2", "--option",
                               "spirits=river,lightning"), frames.DOCS / "spirit_island.keys"),
    Run("earthborne.days", ("--game", "earthborne", "--seats", "2"), frames.DOCS / "earthborne.days.sim"),
    Run("oathsworn.acceptance", ("--walk", "--game", "oathsworn", "--option", "companions=4"),
        frames.DOCS / "oathsworn.acceptance.sim"),
    Run("earthborne.sim", (), frames.DOCS / "earthborne.sim", before=("earthborne",)),
    Run("oathsworn.sim", (), frames.DOCS / "oathsworn.sim", before=("oathsworn",)),
    Run("demo", ("--demo",)),
    Run("station keys", ("--walk", "--game", "arkham", "--seats", "2")),
)


@dataclass(frozen=True, slots=True)
class Seen:
    """A display screen as it was handed to the painter, with the display it was for."""

    display: DisplayConfig
    content: DisplayScreen
    drawn: Fitted | None = None  # the frames the painter fitted for it, when it did

    def fitted(self) -> Fitted:
        if self.drawn is not None:
            return self.drawn
        return fit(*fit_args(self.content, self.display.viewing))


FitArgs = tuple[Panel, Viewing, str | None, str | None]


def fit_args(content: DisplayScreen, viewing: Viewing) -> FitArgs:
    """What ``fit`` is given for ``content`` on a display (as the painter gives it)."""
    if content.cover is not None:
        return content.cover.panel, viewing, content.cover.banner, None
    return content.panel, viewing, content.banner_text, content.selected


def script_text(run: Run) -> str:
    if run.name == "demo":
        return frames.demo_script()
    if run.script is None:
        return frames.STATION_KEYS
    lines = run.script.read_text(encoding="utf-8").splitlines()
    if not run.typed:
        return "\n".join(lines) + "\n"
    commands = [line.split("#", 1)[0].strip() for line in lines]
    return "".join(f"type {command}\n" for command in commands if command)


@contextmanager
def watching() -> Iterator[tuple[list[Screens], dict[FitArgs, Fitted]]]:
    """Every ``Screens`` the painter is handed while the block runs, and every fit it made (the check
    reads those frames back rather than fitting each screen a second time)."""
    seen: list[Screens] = []
    fitted: dict[FitArgs, Fitted] = {}
    paint = Painter.paint

    def watched(painter: Painter, screens: Screens, tick: int | None = None) -> object:
        seen.append(screens)
        return paint(painter, screens, tick)

    def kept_fit(panel: Panel, viewing: Viewing, *, banner: str | None = None,
                 selected: str | None = None) -> Fitted:
        out = fitted[(panel, viewing, banner, selected)] = fit(panel, viewing, banner=banner, selected=selected)
        return out

    with mock.patch.object(Painter, "paint", watched), mock.patch("tablekeeper.ui.paint.fit", kept_fit):
        yield seen, fitted


def screens_of(run: Run, build: str, workdir: Path) -> list[Seen]:
    """Each distinct display screen of ``run`` on ``build``, in the order first shown."""
    from tablekeeper import cli

    config_path = BUILDS[build]
    config = load_config(config_path)
    workdir.mkdir(parents=True, exist_ok=True)
    save = workdir / "save.sqlite3"
    common = ["--config", str(config_path), "--display", "capture", "--capture-dir", str(workdir / "capture"),
              "--no-counters"]
    # the simulator's own panel picture is not read here (composing and encoding it was most of a run)
    no_panel = mock.patch("tablekeeper.sim.simulator.SimulatedParts.refresh", return_value=False)
    for name in run.before:
        first = next(r for r in RUNS if r.name == name)
        script = workdir / f"{name}.before.txt"
        script.write_text(script_text(first), encoding="utf-8")
        with no_panel:
            if cli.main(["run", *first.args, *common, "--save", str(save), "--script", str(script)]) != 0:
                raise RuntimeError(f"{name} before {run.name} failed")
    script = workdir / f"{run.name}.txt"
    script.write_text(script_text(run), encoding="utf-8")
    argv = ["run", *run.args, *common, "--script", str(script)] + (["--save", str(save)] if run.before else [])
    with watching() as (composed, fitted), no_panel:
        if cli.main(argv) != 0:
            raise RuntimeError(f"{run.name}: tablekeeper {' '.join(argv)} failed")
    by_role = {d.role: d for d in config.displays}
    out: list[Seen] = []
    kept: set[object] = set()
    for screens in composed:
        for content in screens.displays:
            if content.role in by_role and (content.role, content) not in kept:
                kept.add((content.role, content))
                display = by_role[content.role]
                out.append(Seen(display, content, fitted.get(fit_args(content, display.viewing))))
    return out


# --- the reader's check ------------------------------------------------------------------------
def problems(seen: Seen) -> list[str]:
    """What a reader would find wrong on any frame of this screen (empty: it says whole things)."""
    content = seen.content
    panel = content.shown
    banner = content.cover.banner if content.cover is not None else content.banner_text
    where = f"{seen.display.role} ({seen.display.panel}) {panel.title!r}"
    return fitted_problems(panel, banner, seen.fitted(), where)


def fitted_problems(panel: Panel, banner: str | None, fitted: Fitted, where: str = "") -> list[str]:
    """What a reader would find wrong on any frame of ``panel`` (with ``banner``) as ``fitted``."""
    out: list[str] = []
    lines_shown: set[int] = set()
    windows: dict[tuple[str, int, str], set[tuple[int, int]]] = {}
    for number, frame in enumerate(fitted.frames):
        titles = [u for u in frame.units if u.kind == "title"]
        if not titles and len(printable(panel.title)) > frame.columns:
            out.append(f"{where}: frame {number}: the title is longer than the bar and not laid out")
        if not titles and frame.title != printable(panel.title):
            out.append(f"{where}: frame {number}: the bar shows {frame.title!r}, not the title")
        for unit in frame.units:
            out += [f"{where}: frame {number}: {p}" for p in _unit_problems(unit, panel, banner)]
            if unit.kind == "line":
                lines_shown.add(unit.index)
            if unit.scrolling:
                windows.setdefault((unit.kind, unit.index, unit.text), set()).add(_window(unit))
        out += [f"{where}: frame {number}: {p}" for p in _drawn_problems(frame)]
    for (kind, index, text), seen_windows in windows.items():
        starts = {start for start, _ in seen_windows}
        ends = {end for _, end in seen_windows}
        if 0 not in starts or len(text) not in ends:
            missing = "its start" if 0 not in starts else "its end"
            out.append(f"{where}: {kind} {index} scrolls but never shows {missing}: {text!r}")
    for index in range(len(panel.lines)):
        if panel.priority(index) is not Priority.DETAIL and index not in lines_shown \
                and index != panel.focus and panel.focus is None:
            out.append(f"{where}: line {index} is on no frame: {panel.lines[index]!r}")
    return out


def lines_read(panel: Panel, viewing: Viewing, banner: str | None = None) -> tuple[str, ...]:
    """The panel's lines (in its order) that some frame on this display shows whole; fails the test
    when a frame splits a phrase or cuts a word."""
    fitted = fit(panel, viewing, banner=banner)
    found = fitted_problems(panel, banner, fitted, repr(panel.title))
    if found:
        raise AssertionError("\n".join(found))
    shown = {u.index for frame in fitted.frames for u in frame.units if u.kind == "line"}
    return tuple(line for index, line in enumerate(panel.lines) if index in shown)


def _window(unit: Shown) -> tuple[int, int]:
    return unit.offset, unit.offset + len(unit.rows[0])


@functools.lru_cache(maxsize=4096)  # each unit of a screen is read on every frame it is on
def _sources(kind: str, index: int, title: str, lines: tuple[str, ...], legend: tuple[tuple[str, str], ...],
             banner: str | None) -> frozenset[str]:
    """What the sentence may read: its source text, or that with the short forms, or with the marker."""
    if kind == "title":
        plain = [printable(title)]
    elif kind == "line":
        plain = [lines[index]] if index < len(lines) else []
    else:
        parts = (banner or "").split(PART)
        plain = [parts[index]] if index < len(parts) else []
        plain += [PART.join(parts[index:i]) for i in range(index + 2, len(parts) + 1)]
    out = set()
    for text in plain:
        for variant in (printable(text), printable(short_form(text, legend))):
            out |= {variant, MARKER + variant}
    return frozenset(out)


def _unit_problems(unit: Shown, panel: Panel, banner: str | None) -> list[str]:
    if unit.text not in _sources(unit.kind, unit.index, panel.title, panel.lines, panel.legend, banner):
        return [f"{unit.kind} {unit.index} reads {unit.text!r}, which its source does not say"]
    if unit.scrolling:
        row = unit.rows[0]
        if len(unit.rows) != 1 or unit.text[unit.offset:unit.offset + len(row)] != row or len(row) > unit.width:
            return [f"{unit.kind} {unit.index} scrolls, but {row!r} is not a window of {unit.text!r}"]
        return []
    try:
        broken = broken_phrases(unit.text, unit.rows, unit.width)
    except ValueError as exc:
        return [f"{unit.kind} {unit.index} {unit.text!r} is not whole on the frame: {exc}"]
    return [f"{unit.kind} {unit.index}: the phrase {phrase!r} is split across rows ({list(unit.rows)})"
            for phrase in broken]


def _drawn_problems(frame: Screen) -> list[str]:
    """What the frame draws is its sentences' rows, each within the display."""
    out = []
    body = tuple(row for u in frame.units if u.kind == "line" for row in u.rows)
    banner = tuple(row for u in frame.units if u.kind == "banner" for row in u.rows)
    if body != frame.rows:
        out.append(f"the body draws {frame.rows}, its sentences are {body}")
    if banner != frame.banner:
        out.append(f"the banner draws {frame.banner}, its sentences are {banner}")
    title = next((u for u in frame.units if u.kind == "title"), None)
    if title is not None and (frame.title, *frame.title_rest) != title.rows:
        out.append(f"the title draws {(frame.title, *frame.title_rest)}, its sentence is {title.rows}")
    room = frame.columns - (len(frame.mark) + 1 if frame.mark else 0)
    if len(frame.title) > room:
        out.append(f"the bar's {frame.title!r} is wider than its {room} columns")
    for row in (*frame.title_rest, *frame.rows, *frame.banner):
        if len(row) > frame.columns:
            out.append(f"{row!r} is wider than the display's {frame.columns} columns")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.station.sentences")
    parser.add_argument("run", nargs="?", help=f"a run ({', '.join(r.name for r in RUNS)}); default all")
    parser.add_argument("build", nargs="?", choices=list(BUILDS), help="default both")
    args = parser.parse_args(argv)
    found = 0
    with tempfile.TemporaryDirectory() as tmp:
        for run in RUNS:
            if args.run and run.name != args.run:
                continue
            for build in BUILDS:
                if args.build and build != args.build:
                    continue
                for seen in screens_of(run, build, Path(tmp) / run.name / build):
                    for problem in problems(seen):
                        found += 1
                        print(f"{run.name} {build}: {problem}")
    print(f"{found} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
