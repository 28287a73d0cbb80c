"""Convention demo mode: an attract loop, a guided demo per game, and a reset when the visitor walks off.

A pure state machine: the station passes every button press/release and a regular tick with its
own clock reading (``now_s``) and gets back a :class:`DemoOutput` saying what to draw over the
displays, which button (if any) to pass on to the game, and when to start a fresh session. No
state waits for a person: every mode but the attract loop ends by itself after a timeout, so
mashing buttons can never strand the station. Settings sit behind holding a combination of
buttons; a hidden screen shows how many demos were started and finished (kept in the store).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Final, Protocol

from tablekeeper.config import BUTTON_ROLES, DISPLAY_ROLES
from tablekeeper.core.view import Panel
from tablekeeper.errors import ScriptError, StoreError

SCRIPTS_DIR: Final = Path(__file__).resolve().parents[1] / "data" / "demo"
CALL_TO_ACTION: Final = "Press any button"  # on every display, all through the attract loop
# Its short form, for a display of twelve columns (the compact build's): whole on one row, so the call
# shares each frame with the game's lines instead of taking a page of its own or scrolling.
CALL_SHORT: Final = ("Push to play", CALL_TO_ACTION)


class Counters(Protocol):
    """Named persistent counters; ``core.store.Store`` provides them."""

    def bump(self, name: str, by: int = 1) -> int: ...

    def count(self, name: str) -> int: ...


class MemoryCounts:
    """Demo counts kept in memory when the station runs without a save file."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}

    def bump(self, name: str, by: int = 1) -> int:
        self.values[name] = self.values.get(name, 0) + by
        return self.values[name]

    def count(self, name: str) -> int:
        return self.values.get(name, 0)


class Mode(Enum):
    ATTRACT = "attract"
    GUIDED = "guided"
    FINISHED = "finished"
    OPERATOR = "operator"  # the hidden counts screen, after the hold-combination
    SETTINGS = "settings"  # the station's own menus, unlocked by the operator


@dataclass(frozen=True, slots=True)
class DemoStep:
    """One prompt of a guided demo and the button that moves it on."""

    prompt: tuple[str, ...]
    press: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class DemoScript:
    """A game's guided demo; each line of ``attract``, ``farewell`` and a step's prompt is a sentence
    (the displays wrap it). ``short``: the title where a display has no room for the whole.
    ``options``: the game options of each visitor's session, so the prompts fit whatever the seed."""

    game: str
    title: str
    attract: tuple[str, ...]
    steps: tuple[DemoStep, ...]
    farewell: tuple[str, ...]
    short: str = ""
    options: tuple[tuple[str, str], ...] = ()

    def panel(self, lines: tuple[str, ...], title: str | None = None,
              shorts: tuple[tuple[str, str], ...] = ()) -> Panel:
        """A panel of ``lines`` under ``title`` (the game's), the short title its short form; ``shorts``
        are more (short, long) forms, of the line pinned at its foot."""
        title = title or self.title
        legend = ((title.replace(self.title, self.short), title),) if self.short and self.title in title else ()
        return Panel(title, lines, legend=legend + shorts)


@dataclass(frozen=True, slots=True)
class DemoSettings:
    """Timings in seconds; every non-attract mode has a limit so nothing waits forever."""

    idle_reset_s: float = 90.0
    attract_frame_s: float = 4.0
    finished_show_s: float = 12.0
    operator_timeout_s: float = 60.0
    unlock_combo: frozenset[str] = frozenset({"menu", "back"})
    unlock_hold_s: float = 5.0
    prompt_role: str = "track"

    @property
    def longest_wait_s(self) -> float:
        """After this long without input the station is back in the attract loop, whatever happened."""
        return max(self.idle_reset_s, self.finished_show_s, self.operator_timeout_s)


@dataclass(frozen=True, slots=True)
class DemoOutput:
    """What the station should do after one event.

    ``panels`` replace the game's own panels on those roles (empty: draw the game as usual), with
    ``call`` pinned at the foot of each (the attract loop's call to action, a hint);
    ``forward`` is a button role to hand to the game's controls; ``start_game`` asks for a fresh
    session of that game; ``reset`` asks to drop any open menu and session state;
    ``open_settings`` opens the station's settings menu.
    """

    mode: Mode
    panels: Mapping[str, Panel] = field(default_factory=dict)
    call: str | None = None
    forward: str | None = None
    start_game: str | None = None
    reset: bool = False
    open_settings: bool = False


def started_key(game: str) -> str:
    return f"demo.{game}.started"


def finished_key(game: str) -> str:
    return f"demo.{game}.finished"


class DemoMode:
    """The demo state machine. Call ``on_press``/``on_release`` for buttons and ``tick`` every loop pass."""

    def __init__(self, scripts: Sequence[DemoScript], *, counters: Counters, now_s: float,
                 settings: DemoSettings | None = None) -> None:
        if not scripts:
            raise ScriptError("demo: no demo scripts to run")
        self.scripts = tuple(scripts)
        self.counters = counters
        self.settings = settings or DemoSettings()
        self.mode = Mode.ATTRACT
        self.script: DemoScript = self.scripts[0]
        self.step_index = 0
        self.hint: str | None = None
        self.uncounted = 0  # demo counts a full disk refused
        self._mode_since_s = now_s
        self._last_input_s = now_s
        self._now_s = now_s
        self._held: set[str] = set()
        self._combo_since_s: float | None = None
        self._combo_armed = True  # False after an unlock until a combo button is released
        self.next_game: str | None = None  # the organiser's choice for the next visitor

    # --- events ------------------------------------------------------------------------------
    def on_press(self, role: str, now_s: float) -> DemoOutput:
        self._now_s = now_s
        self._last_input_s = now_s
        self._held.add(role)
        if self._update_combo(now_s):
            return self._enter_operator(now_s)
        if self.mode is Mode.ATTRACT:
            if role in self.settings.unlock_combo:
                return self._output()  # may be the start of the combination: start the demo on release
            return self._start_demo(now_s)
        if self.mode is Mode.GUIDED:
            return self._guided_press(role, now_s)
        if self.mode is Mode.OPERATOR:
            if role == "select":
                self._enter(Mode.SETTINGS, now_s)
                return self._output(open_settings=True)
            if role == "next":
                return self._enter_attract(now_s)
            return self._output()
        if self.mode is Mode.SETTINGS:
            return self._output(forward=role)
        return self._output()  # FINISHED: presses are ignored until the farewell has been shown

    def on_release(self, role: str, now_s: float) -> DemoOutput:
        self._now_s = now_s
        was_held = role in self._held
        self._held.discard(role)
        if role in self.settings.unlock_combo:
            self._combo_since_s = None
            if not self._combo_armed:
                self._combo_armed = True
                return self._output()
            if self.mode is Mode.ATTRACT and was_held and not (self._held & self.settings.unlock_combo):
                self._last_input_s = now_s
                return self._start_demo(now_s)
        return self._output()

    def on_button(self, role: str, gesture: str, now_s: float) -> DemoOutput:
        """A button gesture as the station's intents name them: press, release, hold or repeat.

        Holds and repeats reach the game only while the settings are unlocked; when ``forward``
        is set, pass the original intent on unchanged.
        """
        if gesture == "press":
            return self.on_press(role, now_s)
        if gesture == "release":
            return self.on_release(role, now_s)
        self._now_s = now_s
        self._last_input_s = now_s
        return self._output(forward=role if self.mode is Mode.SETTINGS else None)

    def tick(self, now_s: float) -> DemoOutput:
        self._now_s = now_s
        if self._update_combo(now_s):
            return self._enter_operator(now_s)
        idle_s = now_s - self._last_input_s
        if self.mode is Mode.GUIDED and idle_s >= self.settings.idle_reset_s:
            return self._enter_attract(now_s)
        if self.mode is Mode.FINISHED and now_s - self._mode_since_s >= self.settings.finished_show_s:
            return self._enter_attract(now_s)
        if self.mode in (Mode.OPERATOR, Mode.SETTINGS) and idle_s >= self.settings.operator_timeout_s:
            return self._enter_attract(now_s)
        return self._output()

    def next_deadline_s(self) -> float | None:
        """When ``tick`` next has something to do by the clock alone (the attract loop's next game,
        a timeout back to it, the unlock hold), so an idle station sleeps until then."""
        settings = self.settings
        due: list[float] = []
        if settings.unlock_combo <= self._held and self._combo_armed:
            since_s = self._combo_since_s if self._combo_since_s is not None else self._now_s
            due.append(since_s + settings.unlock_hold_s)
        if self.mode is Mode.ATTRACT:
            frame = int((self._now_s - self._mode_since_s) // settings.attract_frame_s)
            turn_s = self._mode_since_s + (frame + 1) * settings.attract_frame_s
            due.append(turn_s if turn_s > self._now_s else turn_s + settings.attract_frame_s)  # rounding
        elif self.mode is Mode.GUIDED:
            due.append(self._last_input_s + settings.idle_reset_s)
        elif self.mode is Mode.FINISHED:
            due.append(self._mode_since_s + settings.finished_show_s)
        elif self.mode in (Mode.OPERATOR, Mode.SETTINGS):
            due.append(self._last_input_s + settings.operator_timeout_s)
        return min(due, default=None)

    def reset(self, now_s: float) -> DemoOutput:
        """Back to the attract loop now (the fleet organiser's reset)."""
        self._now_s = now_s
        self._last_input_s = now_s
        return self._enter_attract(now_s)

    def choose_next(self, game: str) -> str | None:
        """Make ``game`` the next visitor's demo; the reason when there is no demo of it."""
        if game not in {s.game for s in self.scripts}:
            return f"no demo of {game!r} (demos: {', '.join(s.game for s in self.scripts)})"
        self.next_game = game
        return None

    # --- counts ------------------------------------------------------------------------------
    def counts(self) -> dict[str, tuple[int, int]]:
        """game -> (demos started, demos finished)."""
        return {s.game: (self.counters.count(started_key(s.game)), self.counters.count(finished_key(s.game)))
                for s in self.scripts}

    # --- transitions -------------------------------------------------------------------------
    def _enter(self, mode: Mode, now_s: float) -> None:
        self.mode = mode
        self._mode_since_s = now_s
        self.hint = None

    def _enter_attract(self, now_s: float) -> DemoOutput:
        self._enter(Mode.ATTRACT, now_s)
        self.step_index = 0
        return self._output(reset=True)

    def _enter_operator(self, now_s: float) -> DemoOutput:
        self._combo_armed = False
        self._combo_since_s = None
        self._enter(Mode.OPERATOR, now_s)
        return self._output(reset=True)

    def _start_demo(self, now_s: float) -> DemoOutput:
        chosen = [s for s in self.scripts if s.game == self.next_game]
        self.script = chosen[0] if chosen else self._attract_script(now_s)
        self.next_game = None
        self._enter(Mode.GUIDED, now_s)
        self.step_index = 0
        self._count(started_key(self.script.game))
        return self._output(start_game=self.script.game)

    def _guided_press(self, role: str, now_s: float) -> DemoOutput:
        step = self.script.steps[self.step_index]
        if role != step.press:
            self.hint = f"That was {_button_name(role)}: try {_button_name(step.press)}"
            return self._output()
        self.hint = None
        self.step_index += 1
        if self.step_index == len(self.script.steps):
            self._enter(Mode.FINISHED, now_s)
            self._count(finished_key(self.script.game))
        return self._output(forward=role)

    def _count(self, name: str) -> None:
        """Demo statistics: on a full disk one count is lost (and counted here), never the demo."""
        try:
            self.counters.bump(name)
        except StoreError:
            self.uncounted += 1

    def _update_combo(self, now_s: float) -> bool:
        """True when the unlock combination has now been held long enough."""
        if not self.settings.unlock_combo <= self._held:
            self._combo_since_s = None
            return False
        if not self._combo_armed:
            return False
        if self._combo_since_s is None:
            self._combo_since_s = now_s
        return now_s - self._combo_since_s >= self.settings.unlock_hold_s

    def _attract_script(self, now_s: float) -> DemoScript:
        frame = int((now_s - self._mode_since_s) // self.settings.attract_frame_s)
        return self.scripts[frame % len(self.scripts)]

    # --- what to draw ------------------------------------------------------------------------
    def _output(self, *, forward: str | None = None, start_game: str | None = None, reset: bool = False,
                open_settings: bool = False) -> DemoOutput:
        return DemoOutput(mode=self.mode, panels=self._panels(), call=self._call(), forward=forward,
                          start_game=start_game, reset=reset, open_settings=open_settings)

    def _call(self) -> str | None:
        """The line pinned under the demo's panels: the call to action, or the hint after a wrong button."""
        if self.mode is Mode.ATTRACT:
            return CALL_TO_ACTION
        return self.hint if self.mode is Mode.GUIDED else None

    def _panels(self) -> dict[str, Panel]:
        prompt_role = self.settings.prompt_role
        if self.mode is Mode.ATTRACT:
            script = self._attract_script(self._now_s)
            return {role: script.panel(script.attract if role == prompt_role else (), shorts=(CALL_SHORT,))
                    for role in DISPLAY_ROLES}
        if self.mode is Mode.GUIDED:
            step = self.script.steps[self.step_index]
            title = step.title or f"{self.script.title} {self.step_index + 1}/{len(self.script.steps)}"
            return {prompt_role: self.script.panel(step.prompt, title)}
        if self.mode is Mode.FINISHED:
            return {role: self.script.panel(self.script.farewell) for role in DISPLAY_ROLES}
        if self.mode is Mode.OPERATOR:
            help_role = "tokens" if prompt_role == "track" else "track"
            return {prompt_role: stats_panel(self.counts(), self.scripts),
                    help_role: Panel("Operator", ("SELECT: settings", "NEXT: back to demo"))}
        return {}


def stats_panel(counts: Mapping[str, tuple[int, int]], scripts: Iterable[DemoScript]) -> Panel:
    """The hidden screen: demos started / finished per game."""
    titles = {s.game: s.title for s in scripts}
    lines = tuple(f"{titles.get(game, game)[:12]:<12} {started:>4}/{finished:<4}"
                  for game, (started, finished) in counts.items())
    total_started = sum(started for started, _ in counts.values())
    total_finished = sum(finished for _, finished in counts.values())
    return Panel("Demos started/done", (*lines, f"{'all':<12} {total_started:>4}/{total_finished:<4}"))


def _button_name(role: str) -> str:
    seat, dot, button = role.partition(".")
    return f"{seat.upper()} {button.upper()}" if dot else role.upper()


# --- scripts -------------------------------------------------------------------------------------
def load_scripts(directory: Path = SCRIPTS_DIR, games: Iterable[str] | None = None) -> tuple[DemoScript, ...]:
    """Every ``*.toml`` demo script in ``directory`` (sorted), or only those for ``games``."""
    paths = sorted(directory.glob("*.toml"))
    scripts = tuple(load_script(path) for path in paths)
    if games is None:
        return scripts
    wanted = list(games)
    by_game = {s.game: s for s in scripts}
    missing = [g for g in wanted if g not in by_game]
    if missing:
        raise ScriptError(f"{directory}: no demo script for {', '.join(missing)}")
    return tuple(by_game[g] for g in wanted)


def load_script(path: Path) -> DemoScript:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScriptError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScriptError(f"{path}: not valid TOML: {exc}") from None
    return parse_script(raw, source=str(path))


def parse_script(raw: Mapping[str, object], *, source: str) -> DemoScript:
    def text(table: Mapping[str, object], key: str, where: str) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ScriptError(f"{source}: {where}{key}: expected a non-empty string")
        return value

    def lines(table: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
        value = table.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise ScriptError(f"{source}: {where}{key}: expected a non-empty array of strings")
        return tuple(str(v) for v in value)

    unknown = set(raw) - {"game", "title", "short", "attract", "farewell", "steps", "options"}
    if unknown:
        raise ScriptError(f"{source}: {sorted(unknown)[0]}: unknown key")
    raw_steps = raw.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ScriptError(f"{source}: steps: expected at least one [[steps]] table")
    steps = []
    for i, item in enumerate(raw_steps):
        where = f"steps[{i}]."
        if not isinstance(item, dict):
            raise ScriptError(f"{source}: steps[{i}]: expected a table")
        extra = set(item) - {"prompt", "press", "title"}
        if extra:
            raise ScriptError(f"{source}: {where}{sorted(extra)[0]}: unknown key")
        press = text(item, "press", where)
        if press not in BUTTON_ROLES:
            raise ScriptError(f"{source}: {where}press: {press!r} is not a button role ({', '.join(BUTTON_ROLES)})")
        title = item.get("title", "")
        if not isinstance(title, str):
            raise ScriptError(f"{source}: {where}title: expected a string")
        steps.append(DemoStep(prompt=lines(item, "prompt", where), press=press, title=title))
    short = raw.get("short", "")
    if not isinstance(short, str):
        raise ScriptError(f"{source}: short: expected a string")
    options = raw.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise ScriptError(f"{source}: options: expected a table of strings (options = {{ key = \"value\" }})")
    return DemoScript(game=text(raw, "game", ""), title=text(raw, "title", ""), attract=lines(raw, "attract", ""),
                      steps=tuple(steps), farewell=lines(raw, "farewell", ""), short=short,
                      options=tuple((str(k), str(v)) for k, v in options.items()))
