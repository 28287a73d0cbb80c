"""The station loop: one thread owns the game session; everything else only puts intents on a queue.

gpiozero calls button callbacks on its own threads and serial readers run on theirs; they put
``intents`` on a ``queue.SimpleQueue`` (whose ``put`` is safe even from a signal handler). This
thread takes each intent (``station.intake`` turns it into commands and UI-state updates), applies
the commands to the ``Session`` (which writes them to its journal before the result is shown), tells
the outputs what changed (``station.outputs``), and draws: ``ui.compose`` makes the screens and the
painter sends the displays whose picture changed. Timed work (debounce settling, hold and repeat,
pending +/- changes, display retries, beeps, notices running out) runs when its deadline comes, from
the injected clock.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

import msgspec
from msgspec.structs import replace
from PIL import Image

from tablekeeper.config import StationConfig
from tablekeeper.core.derived import DerivedViews
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.errors import StoreError
from tablekeeper.hw.displays import DisplayBank
from tablekeeper.station.controls import Controls
from tablekeeper.station.outputs import CounterSink, OutputSink, changes
from tablekeeper.ui import flow_lines
from tablekeeper.ui.compose import compose
from tablekeeper.ui.model import Screens
from tablekeeper.ui.paint import Glass, Painter
from tablekeeper.ui.render import reading_s
from tablekeeper.ui.state import MESSAGE_S, UiState, tick_at

if TYPE_CHECKING:  # gpiozero loads when the parts are made, and what handles intents with the first one
    from tablekeeper.hw.buttons import ButtonPanel
    from tablekeeper.hw.outputs import Outputs
    from tablekeeper.intents import Intent

Clock = Callable[[], float]
IDLE_WAIT_S: float | None = None  # without a deadline the loop sleeps until an intent comes (Quit too)
KEEP_REFUSALS = 50


class Timed(Protocol):
    def poll(self, now_s: float) -> None: ...

    def next_deadline_s(self) -> float | None: ...


class StationStats(msgspec.Struct):
    """What the loop did; the simulator and benchmarks read it."""

    intents: int = 0
    commands: int = 0
    rejected: list[str] = msgspec.field(default_factory=list)  # the most recent reasons, at most KEEP_REFUSALS
    refusals: int = 0
    refused_all: int = 0  # every refusal, also one still shown (not said again): a page's press is told of it
    last_refusal: str | None = None
    redraws: int = 0
    save_failures: int = 0


def notice_s(config: StationConfig, panel: Panel | None, text: str, seconds: float) -> float:
    """How long a notice stays on the track display: ``seconds``, or as long as it takes to scroll
    through once (and see each page under it) where it does not fit."""
    track = config.display("track")
    return max(seconds, reading_s(text, track.viewing, panel)) if track is not None else seconds


class Station:
    """Wires a session, its controls and the station's parts; ``run`` is the loop. ``ui`` is the
    station's own UI state, ``screens`` what was composed last, ``images`` what each display shows."""

    def __init__(self, *, session: Session, config: StationConfig, displays: DisplayBank, clock: Clock,
                 intents: queue.SimpleQueue[Intent] | None = None, buttons: ButtonPanel | None = None,
                 outputs: Outputs | None = None, timed: Iterable[Timed] = (),
                 counters: CounterSink | None = None, views: DerivedViews | None = None,
                 on_redraw: Callable[[Station], None] | None = None) -> None:
        self.session = session
        self.config = config
        self.displays = displays
        self.buttons = buttons
        self.sink = OutputSink(outputs, counters)
        self.clock = clock
        self.intents: queue.SimpleQueue[Intent] = intents if intents is not None else queue.SimpleQueue()
        self.controls = Controls(session.game, clock=clock, pending_window_s=config.timing.pending_window_s)
        self.timed = list(timed)
        self.views = views if views is not None else DerivedViews()
        self.on_redraw = on_redraw
        self.decorate: Callable[[dict[str, Image.Image]], dict[str, Image.Image]] | None = None  # fleet mark
        self.on_screens: Callable[[Station], None] | None = None  # the phones' pages: told after each redraw
        self.stats = StationStats()
        self.ui = UiState(quiet=config.quiet)
        self.painter = Painter([Glass(d.role, d.size, d.viewing) for d in config.displays])
        self.screens: Screens | None = None
        self.roles = self.painter.roles  # the screens composed: the displays', and seats a phone shows
        self.panels: Mapping[str, Panel] = {}  # the game's panels behind ``screens``
        self.images: dict[str, Image.Image] = {}
        self.running = False
        self._sent: dict[str, bytes] = {}
        self._panels_of: tuple[GameState | None, int] = (None, -1)  # the state and views ``panels`` were made from
        self._shown = session.state  # the state the outputs show
        # what the last screens were made from, and their pictures
        self._composed: tuple[tuple[object, ...], dict[str, Image.Image]] = ((None, None, None, None), {})
        self._failed: frozenset[str] = frozenset()

    # --- the loop ---------------------------------------------------------------------------------
    def put(self, intent: Intent) -> None:
        """Thread-safe (and signal-safe): queue an intent for the loop."""
        self.intents.put(intent)

    def start(self) -> None:
        """Show the current state on every display and the outputs."""
        self.running = True
        state = self.session.state
        self.sink.show(changes(self.session.game, None, state, ()), self.session.game, state)
        self._shown = state
        self.answer()

    def run(self, *, on_pass: Callable[[float], object] | None = None,
            idle_wait_s: float | None = IDLE_WAIT_S) -> None:
        """Handle intents until ``Quit``; ``on_pass(now_s)`` runs on every pass (a window's events)
        but a blink's. A pass comes only with an intent or a deadline of a timed part (``idle_wait_s``:
        a longest sleep, for a window that must read its events; None, the default, sleeps until
        then). A pass for the seat LEDs' blink alone toggles them and looks at nothing else."""
        if not self.running:
            self.start()
        other_s: float | None = None  # the nearest deadline but the seat LEDs' blink
        blinked = False
        while self.running:
            now_s = self.clock()
            lights = self.sink.outputs.lights if self.sink.outputs is not None else None
            if not blinked:  # after a pass that only toggled the blink, the other deadlines stand
                other_s = self.next_deadline_s(blink=False)
            blink_s = lights.next_deadline_s() if lights is not None else None
            deadline = other_s if blink_s is None else blink_s if other_s is None else min(other_s, blink_s)
            wait_s = idle_wait_s if deadline is None else max(0.0, deadline - now_s)
            if wait_s is not None and idle_wait_s is not None:
                wait_s = min(wait_s, idle_wait_s)
            try:
                intent: Intent | None = self.intents.get(timeout=wait_s)
            except queue.Empty:
                intent = None
            now_s = self.clock()
            blinked = False
            if intent is None and lights is not None and blink_s is not None and now_s >= blink_s \
                    and (other_s is None or now_s < other_s):
                lights.poll(now_s)  # only the blink is due: the LEDs toggle without a look at the rest
                blinked = True
                continue
            if intent is not None:
                self.handle(intent)
            self.poll(self.clock())
            if on_pass is not None:
                on_pass(self.clock())

    def drain(self) -> int:
        """Handle every queued intent without waiting (the scripted simulator and tests)."""
        handled = 0
        while self.running:
            try:
                intent = self.intents.get_nowait()
            except queue.Empty:
                break
            self.handle(intent)
            handled += 1
        return handled

    def poll(self, now_s: float) -> None:
        """Run timed work that is due, then redraw if it changed anything."""
        if self.buttons is not None:
            self.buttons.poll(now_s)
        self.displays.poll(now_s)
        if self.sink.outputs is not None:
            self.sink.outputs.poll(now_s)
        for part in self.timed:
            part.poll(now_s)
        before = self.ui
        pending = self.controls.tick(self.session.state)
        if pending:
            self.perform(pending)
        if self.ui.menu.expired(now_s):
            from tablekeeper.station import intake

            intake.leave_menu(self)
        self.ui = self.ui.expired(now_s)
        if pending or self.ui is not before:
            self.answer()

    def next_deadline_s(self, *, blink: bool = True) -> float | None:
        """When ``poll`` next has timed work (``blink=False``: leaving out the seat LEDs' blink)."""
        deadlines = [self.displays.next_deadline_s(), self.ui.deadline_s()]
        if self.buttons is not None:
            deadlines.append(self.buttons.next_deadline_s())
        if self.sink.outputs is not None:
            deadlines.append(self.sink.outputs.next_deadline_s(blink=blink))
        deadlines += [part.next_deadline_s() for part in self.timed]
        if self.controls.pending is not None:
            deadlines.append(self.controls.pending.last_s + self.controls.pending_window_s)
        return min((d for d in deadlines if d is not None), default=None)

    # --- intents and commands ---------------------------------------------------------------------
    def handle(self, intent: Intent) -> None:
        """Apply one intent, then redraw what changed."""
        from tablekeeper.intents import Quit
        from tablekeeper.station import intake

        self.stats.intents += 1
        if isinstance(intent, Quit):
            self.running = False
            return
        intake.take(self, intent)
        self.answer()

    def perform(self, commands: list[Command]) -> None:
        """Apply ``commands`` in order until one is refused; then tell the outputs what changed."""
        if not commands and self.session.state is self._shown:
            return  # nothing entered (a +/- change only pending): the lights and counters stand
        for command in commands:
            try:
                outcome = self.session.perform(command)
            except StoreError as exc:  # a full disk: not acknowledged, the game unchanged, the station runs on
                from tablekeeper.core.store import SaveFullError

                self.stats.save_failures += 1
                logging.getLogger(__name__).warning("command not kept: %s", exc)
                problem = "save full - not kept" if isinstance(exc, SaveFullError) else "save failed - not kept"
                self.ui = replace(self.ui, save_problem=problem)
                break
            self.stats.commands += 1
            if not outcome.accepted:
                self.refused(outcome.reason or f"{command.text()} refused")
                break
            self.ui = replace(self.ui, save_problem=None)
            said = flow_lines.auto_line(self.session.notes)
            if said is not None:
                self.say(said, seconds=flow_lines.AUTO_LINE_S)
        game, state = self.session.game, self.session.state
        self.sink.show(changes(game, self._shown, state, self.session.notes), game, state)
        self._shown = state

    def say(self, text: str, *, seconds: float = MESSAGE_S) -> None:
        """Show a notice on the track display (also the fleet's identify and lock) for ``notice_s``."""
        self.ui = self.ui.say(text, self.clock(), notice_s(self.config, self.panels.get("track"), text, seconds))

    def refused(self, reason: str) -> None:
        self.stats.refused_all, self.stats.last_refusal = self.stats.refused_all + 1, reason
        if self.ui.showing(f"! {reason}"):
            return  # the same refusal is still on the display: say it once, not once per press
        self.stats.refusals += 1
        self.stats.rejected.append(reason)
        if len(self.stats.rejected) > KEEP_REFUSALS:  # an unattended box must not grow with every mashed button
            del self.stats.rejected[:-KEEP_REFUSALS]
        self.say(f"! {reason}")

    def replace_session(self, session: Session) -> None:
        """Play ``session`` from now on (the demo's fresh game for each visitor)."""
        self.session = session
        self.controls = Controls(session.game, clock=self.clock, pending_window_s=self.config.timing.pending_window_s)
        self.ui = replace(self.ui, message=None, unused_counters=frozenset())
        state = session.state
        self.sink.show(changes(session.game, None, state, ()), session.game, state)
        self._shown = state

    def reset(self) -> None:
        """The organiser's reset: the menu closed, a pending change and the notice dropped."""
        self.controls.pending = None
        self.ui = replace(self.ui, menu=self.ui.menu.closed(), message=None)

    # --- drawing ----------------------------------------------------------------------------------
    def answer(self) -> None:
        """Send the frame that answers an intent first; expensive views it lacked (odds) follow in a
        second frame as soon as they are computed."""
        with self.views.deferred():
            self.redraw()
        if self.views.fill():
            self.redraw()

    def redraw(self) -> int:
        """Compose the screens and send the displays whose picture changed; returns how many were sent."""
        game, state = self.session.game, self.session.state
        with self.views.active():
            if self._panels_of[0] is not state or self._panels_of[1] != self.views.computed:
                self.panels, self._panels_of = game.panels(state), (state, self.views.computed)  # else the same
            pointing = self.controls.pointing(state)
            inputs, (last, frames) = (state, self.ui, self.panels), self._composed
            if any(a is not b for a, b in zip(inputs, last[:3], strict=True)) or pointing != last[3]:
                self.screens = compose(state, self.ui, self.panels, game=game, roles=self.roles,
                                       pointing=pointing)  # else the same screens (a release, a tick)
                frames = self.painter.paint(self.screens, tick_at(self.clock()))
                self._composed = ((*inputs, pointing), frames)
        if self.painter.paged != self.ui.paged or self.painter.turn != self.ui.turn:
            self.ui = replace(self.ui, paged=self.painter.paged, turn=self.painter.turn)
        if self.decorate is not None:
            frames = self.decorate(frames)
        changed = _changed(frames, self.images, self._sent)
        if changed:
            self.displays.show(changed)
            self.stats.redraws += 1
            if self.on_redraw is not None:
                self.on_redraw(self)
        if self.on_screens is not None:  # after the displays: a page's update never holds up the glass
            self.on_screens(self)
        failed = frozenset(d.role for d in self.displays.failed())
        lost, self._failed = failed - self._failed, failed
        if lost:  # tell the players on the displays that still work
            self.say(f"{', '.join(sorted(lost))} display not answering")
            self.redraw()
        return len(changed)

    def close(self) -> None:
        """Release every part: buttons and outputs (gpiozero), then displays (luma)."""
        self.running = False
        if self.buttons is not None:
            self.buttons.close()
        if self.sink.outputs is not None:
            self.sink.outputs.close()
        self.displays.close()


def _changed(frames: Mapping[str, Image.Image], images: dict[str, Image.Image],
             sent: dict[str, bytes]) -> dict[str, Image.Image]:
    """The pictures of ``frames`` whose bytes differ from those last sent (``images`` and ``sent`` kept up)."""
    changed: dict[str, Image.Image] = {}
    for role, image in frames.items():
        if images.get(role) is not image and sent.get(role) != (raw := image.tobytes()):
            sent[role] = raw
            changed[role] = image
        images[role] = image
    return changed
