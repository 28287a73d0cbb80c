"""Drive a simulated station unattended: key presses from a script, on a fake clock.

One instruction per line (``#`` starts a comment):

* a key from the config (``space``, ``1``, ``q`` ...): tap the button it presses;
* ``press ROLE``: tap the button with that role (``next``, ``seat2.a`` ...);
* ``hold ROLE [SECONDS]``: hold it down (default: just past the hold time), then let go;
* ``wait SECONDS``: let time pass (pending changes commit, beeps end, displays retry);
* ``counter SEAT up|down|select``: press a button on that seat's virtual counter (its hp or dial);
  ``counter SEAT roll`` presses its dice counter; ``counter SEAT unplug|plug`` pulls it out or puts
  it back;
* ``type LINE``: a command typed at the station's console, as ``tablekeeper play`` reads it
  (``type add card Spring 3 -``, ``type next``): for what the buttons cannot express; a typed
  line the game refuses stops the run (``FILE:LINE: reason``, exit 2);
* ``quit``: stop here, as things stand (otherwise the run ends once a pending change is entered).

Time only moves when the script says so, and every deadline in between (debounce, hold,
repeat, pending window) is honoured in order, so a script gives the same frames on every run.
The virtual counters are processes of their own: after each step the run waits (in real time)
until they have answered and acknowledged what the station sent, and redrawn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tablekeeper.config import ButtonConfig
from tablekeeper.core.numbers import is_number
from tablekeeper.errors import ScriptError
from tablekeeper.intents import CounterConnected, CounterMissing, Typed
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station

TAP_S = 0.08  # a quick press: longer than any sane debounce, far shorter than a hold
SETTLE_S = 0.05
MAX_STEPS_PER_ADVANCE = 10_000
# Land just past a deadline: code that checks ``now - start >= period`` must see it as due even
# when ``start + period`` rounded down.
PAST_DEADLINE_S = 1e-9
COUNTER_ACTIONS = ("up", "down", "select", "roll", "unplug", "plug")


@dataclass(frozen=True, slots=True)
class Step:
    line: int
    action: str  # "tap" | "hold" | "wait" | "quit" | "counter" | "type"
    button: ButtonConfig | None = None
    seconds: float = 0.0
    counter: int = -1  # index of the virtual counter
    counter_action: str = ""  # up, down, select, roll, unplug, plug
    text: str = ""  # the typed line


def parse_script(lines: Iterable[str], parts: SimulatedParts, *, source: str, hold_s: float) -> list[Step]:
    """Check the whole script before anything runs; errors name the file and line."""
    steps: list[Step] = []
    for number, raw in enumerate(lines, 1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        words = text.split()
        where = f"{source}:{number}"
        verb = words[0].lower()
        if verb in ("press", "hold"):
            if len(words) not in ((2,) if verb == "press" else (2, 3)):
                raise ScriptError(f"{where}: usage: {'press ROLE' if verb == 'press' else 'hold ROLE [SECONDS]'}")
            button = parts.button(words[1])
            if button is None:
                roles = ", ".join(b.role for b in parts.config.buttons)
                raise ScriptError(f"{where}: no button has role {words[1]!r} (roles: {roles})")
            if verb == "press":
                steps.append(Step(number, "tap", button, TAP_S))
                continue
            seconds = _seconds(words[2], where) if len(words) == 3 else hold_s + SETTLE_S
            steps.append(Step(number, "hold", button, seconds))
        elif verb == "wait":
            if len(words) != 2:
                raise ScriptError(f"{where}: usage: wait SECONDS")
            steps.append(Step(number, "wait", seconds=_seconds(words[1], where)))
        elif verb == "counter":
            steps.append(_counter_step(words, parts, where, number))
        elif verb == "type":
            if len(words) < 2:
                raise ScriptError(f"{where}: usage: type LINE")
            steps.append(Step(number, "type", text=text.split(None, 1)[1]))
        elif verb == "quit" and len(words) == 1:
            steps.append(Step(number, "quit"))
        elif len(words) == 1 and (button := parts.button_for_key(words[0])) is not None:
            steps.append(Step(number, "tap", button, TAP_S))
        else:
            keys = " ".join(b.key for b in parts.config.buttons if b.key)
            raise ScriptError(f"{where}: {text!r} is not a key ({keys}) or press/hold/wait/counter/type/quit; "
                              f"a game command typed at the console needs the type prefix: 'type {text}'")
    return steps


def _counter_step(words: list[str], parts: SimulatedParts, where: str, number: int) -> Step:
    if len(words) != 3 or words[2] not in COUNTER_ACTIONS:
        raise ScriptError(f"{where}: usage: counter SEAT {'|'.join(COUNTER_ACTIONS)}")
    table = parts.counters
    if table is None:
        raise ScriptError(f"{where}: no virtual counters (none configured, or --no-counters)")
    seat = int(words[1]) if is_number(words[1], signed=False) else -1
    index = table.find(seat, words[2])
    if index is None:
        seats = ", ".join(f"{e.seat} {e.role}" for e in table.entries)
        wanted = "dice counter" if words[2] == "roll" else "counter"
        raise ScriptError(f"{where}: no virtual {wanted} for seat {words[1]} (counters: {seats})")
    return Step(number, "counter", counter=index, counter_action=words[2])


def _seconds(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ScriptError(f"{where}: {text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise ScriptError(f"{where}: {value} s is out of range (0..3600)")
    return value


def advance(station: Station, clock: FakeClock, seconds: float, settle: Callable[[], None]) -> None:
    """Move ``clock`` forward by ``seconds`` as time would pass: every deadline the station sets on the
    way is met in order (``settle`` after each: a hold, a page turn, a notice running out), then the
    clock rests at the target and settles once more."""
    target = clock() + seconds
    for _ in range(MAX_STEPS_PER_ADVANCE):
        deadline = station.next_deadline_s()
        if deadline is None or not station.running:
            break
        step_to = max(clock.now_s, deadline + PAST_DEADLINE_S)
        if step_to > target:
            break
        stuck = step_to == clock.now_s
        clock.now_s = step_to
        settle()
        if stuck and station.next_deadline_s() == deadline:
            break  # a part keeps asking for a time already past; the final settle will retry it
    clock.now_s = max(clock.now_s, target)
    settle()


class ScriptedRun:
    """Runs parsed steps against a station whose clock is ``clock``."""

    def __init__(self, station: Station, parts: SimulatedParts, clock: FakeClock,
                 refresh: Callable[[], None], *, source: str = "script") -> None:
        self.source = source
        self.station = station
        self.parts = parts
        self.clock = clock
        self.refresh = refresh

    def advance(self, seconds: float) -> None:
        """Move time forward, running every deadline that falls inside, in order."""
        advance(self.station, self.clock, seconds, self._settle)

    def _settle(self) -> None:
        self.station.poll(self.clock())
        self.station.drain()
        if self.parts.counters is not None:
            self.parts.counters.sync()
        self.refresh()

    def _counter(self, step: Step) -> None:
        """Do a counter step, then wait for what it makes the counter tell the station."""
        table = self.parts.counters
        if table is None:
            return
        seat = table.entries[step.counter].seat
        start = len(table.emitted)
        if step.counter_action == "unplug":
            table.unplug(step.counter)
            table.wait_until(lambda: any(isinstance(i, CounterMissing) and i.seat == seat
                                         for i in table.emitted_since(start)), f"seat {seat}'s counter to go missing")
        elif step.counter_action == "plug":
            table.plug(step.counter)
            table.wait_until(lambda: any(isinstance(i, CounterConnected) and i.seat == seat
                                         for i in table.emitted_since(start)), f"seat {seat}'s counter to return")
        else:
            table.press(step.counter, "select" if step.counter_action == "roll" else step.counter_action)
            table.read_now()  # what the press sent was written before the firmware finished the press
        self._settle()
        self.advance(SETTLE_S)

    def run(self, steps: Iterable[Step]) -> None:
        for step in steps:
            if not self.station.running:
                break
            if step.action == "quit":
                return  # stop as things stand, pending count and all (for a picture of that moment)
            if step.action == "wait":
                self.advance(step.seconds)
                continue
            if step.action == "counter":
                self._counter(step)
                continue
            if step.action == "type":
                refused = self.station.stats.refusals
                self.station.put(Typed(step.text, step.line))
                self._settle()
                if self.station.stats.refusals != refused:  # a typed line is the script's own: it must be taken
                    raise ScriptError(f"{self.source}:{step.line}: {self.station.stats.rejected[-1]}")
                self.advance(SETTLE_S)
                continue
            if step.button is None:
                continue
            self.parts.set_button(step.button, True)
            self._settle()
            self.advance(step.seconds)
            self.parts.set_button(step.button, False)
            self._settle()
            self.advance(SETTLE_S)
        # let a pending +/- change and the last message run their course before stopping
        self.advance(self.station.config.timing.pending_window_s + SETTLE_S)
