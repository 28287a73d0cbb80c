"""The station loop: one thread owns the game session; everything else only puts intents on a queue.

gpiozero calls button callbacks on its own threads and serial readers run on theirs; they put
``intents`` on a ``queue.SimpleQueue`` (whose ``put`` is safe even from a signal handler). This
thread takes each intent, turns it into commands through ``Controls``, applies them to the
``Session`` (which writes them to its journal before the result is shown), then redraws only the
displays whose picture changed. Timed work (debounce settling, hold and repeat, pending +/-
changes, display retries, beeps) runs when its deadline comes, from the injected clock.
"""

from __future__ import annotations

import contextlib
import logging
import queue
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from PIL import Image

from tablekeeper.config import StationConfig
from tablekeeper.core.chance import Dice
from tablekeeper.core.derived import VIEWS
from tablekeeper.core.events import Command, NoticeKind
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Outcome, Session
from tablekeeper.core.state import Result
from tablekeeper.core.store import SaveFullError
from tablekeeper.core.view import Panel
from tablekeeper.errors import Rejected, ScriptError, StoreError
from tablekeeper.hw.displays import DisplayBank
from tablekeeper.intents import (
    ButtonIntent,
    CounterConnected,
    CounterMissing,
    CounterRolled,
    CounterValue,
    Gesture,
    Intent,
    Quit,
    Remote,
    Tick,
    Typed,
)
from tablekeeper.station import counter_tracks, flow_lines
from tablekeeper.station.controls import Controls
from tablekeeper.station.menu import StationMenu, menu_items
from tablekeeper.ui.render import PAGE_S, draw_screen, layout
from tablekeeper.ui.screens import fallback_panel

if TYPE_CHECKING:  # gpiozero loads when the parts are made, after the game's first frame
    from tablekeeper.hw.buttons import ButtonPanel
    from tablekeeper.hw.outputs import Outputs

Clock = Callable[[], float]
IDLE_WAIT_S: float | None = None  # without a deadline the loop sleeps until an intent comes (Quit too)
MESSAGE_S = 3.0  # how long a refusal or notice stays on the track display
LEGEND_S = 10.0  # how long SELECT's key to short forms stays up without another press


class CounterSink(Protocol):
    """Where the game's seat-track values go back to the counters (``hw.counters.CounterManager``)."""

    def publish(self, seat: int, track: str, value: int | None, limit: int | None = None) -> None: ...


@runtime_checkable
class CounterControl(Protocol):
    """What the menu asks of the counter link (``CounterManager``): pairing and the counters' state."""

    def start_pairing(self, seat: int) -> None: ...

    def cancel_pairing(self) -> None: ...

    def status(self) -> Sequence[Any]: ...


class Timed(Protocol):
    def poll(self, now_s: float) -> None: ...

    def next_deadline_s(self) -> float | None: ...


@dataclass
class Message:
    text: str
    until_s: float


KEEP_REFUSALS = 50
RESULT_SOUNDS = {Result.VICTORY: "victory", Result.DEFEAT: "defeat", Result.DRAW: "alert"}
ALERT_NOTICES = frozenset({NoticeKind.THRESHOLD, NoticeKind.DEFEAT})


NOT_SAVING = "not saving"


@dataclass
class StationStats:
    """What the loop did; the simulator and benchmarks read it."""

    intents: int = 0
    commands: int = 0
    rejected: list[str] = field(default_factory=list)  # the most recent reasons, at most KEEP_REFUSALS
    refusals: int = 0
    redraws: int = 0
    save_failures: int = 0


class Station:
    """Wires a session, its controls and the station's parts; ``run`` is the loop."""

    def __init__(self, *, session: Session, config: StationConfig, displays: DisplayBank, clock: Clock,
                 intents: queue.SimpleQueue[Intent] | None = None, buttons: ButtonPanel | None = None,
                 outputs: Outputs | None = None, timed: Iterable[Timed] = (),
                 counters: CounterSink | None = None,
                 on_redraw: Callable[[Station], None] | None = None) -> None:
        self.session = session
        self.config = config
        self.displays = displays
        self.buttons = buttons
        self.outputs = outputs
        self.clock = clock
        self.intents: queue.SimpleQueue[Intent] = intents if intents is not None else queue.SimpleQueue()
        self.controls = Controls(session.game, clock=clock, pending_window_s=config.timing.pending_window_s)
        self.timed = list(timed)
        self.counters = counters
        self.on_redraw = on_redraw
        self.stats = StationStats()
        self.message: Message | None = None
        self.images: dict[str, Image.Image] = {}
        self._drawn: dict[str, bytes] = {}
        # role -> (what was drawn, its number of pages, the pages drawn so far): a page turn redraws
        # nothing when the page was drawn before, and leaves the displays that fit alone
        self._rendered: dict[str, tuple[tuple[Any, ...], int, dict[int, Image.Image]]] = {}
        self._panels: tuple[object, int, Mapping[str, Any]] | None = None
        self.page = 0  # the page long screens show, counted in PAGE_S steps of the clock
        self._paged: set[str] = set()  # displays whose screen has more than one page
        self.contents: dict[str, tuple[Panel, str | None, str | None]] = {}  # role -> what frames() drew
        self.running = False
        self._last_view = session.view()
        self._viewed = session.state  # the state ``_last_view`` was taken of
        self.quiet = config.quiet
        self._failed: frozenset[str] = frozenset()
        self.menu = StationMenu()
        self.missing_counters: set[int] = set()  # seats whose counter went away (their display says so)
        self.unused_counters: set[tuple[int, str]] = set()  # (seat, slot) the game has no track for, said once
        self.confirm_until_s: float | None = None  # a second NEXT before this ends a step for seats still playing
        self.locked = False  # the organiser locked the panel: buttons are ignored
        self.decorate: Callable[[dict[str, Image.Image]], dict[str, Image.Image]] | None = None  # fleet mark
        self.save_problem: str | None = None  # shown on the track display until a save succeeds
        self.not_saving = False  # the save could not be opened for writing: the game plays on, unsaved
        self.legend_until_s: float | None = None  # SELECT held: displays with short forms show their key
        self._select_stepped = False  # whether the last SELECT press stepped the selection (a hold undoes it)

    # --- the loop ---------------------------------------------------------------------------------
    def put(self, intent: Intent) -> None:
        """Thread-safe (and signal-safe): queue an intent for the loop."""
        self.intents.put(intent)

    def start(self) -> None:
        """Show the current state on every display and light the active seat."""
        self.running = True
        self._sync_outputs(self._last_view, first=True)
        self._publish(lambda seat, track: True)
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
            lights = self.outputs.lights if self.outputs is not None else None
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
        if self.outputs is not None:
            self.outputs.poll(now_s)
        for part in self.timed:
            part.poll(now_s)
        changed = False
        pending = self.controls.tick(self.session.state)
        if pending:
            self._perform(pending)
            changed = True
        if self.menu.expired(now_s):
            self._leave_menu()
            changed = True
        if self.message is not None and now_s >= self.message.until_s:
            self.message = None
            changed = True
        if self.legend_until_s is not None and now_s >= self.legend_until_s:
            self.legend_until_s = None
            changed = True
        if self._paged and int(now_s // PAGE_S) != self.page:  # a long screen turns its page
            self.page = int(now_s // PAGE_S)
            changed = True
        if changed:
            self.answer()

    def next_deadline_s(self, *, blink: bool = True) -> float | None:
        """When ``poll`` next has timed work (``blink=False``: leaving out the seat LEDs' blink)."""
        deadlines = [self.displays.next_deadline_s()]
        if self.buttons is not None:
            deadlines.append(self.buttons.next_deadline_s())
        if self.outputs is not None:
            deadlines.append(self.outputs.next_deadline_s(blink=blink))
        deadlines += [part.next_deadline_s() for part in self.timed]
        if self.controls.pending is not None:
            deadlines.append(self.controls.pending.last_s + self.controls.pending_window_s)
        if self.message is not None:
            deadlines.append(self.message.until_s)
        deadlines.append(self.legend_until_s)
        deadlines.append(self.menu.deadline_s())
        if self._paged:
            deadlines.append((self.page + 1) * PAGE_S)
        return min((d for d in deadlines if d is not None), default=None)

    # --- intents ----------------------------------------------------------------------------------
    def handle(self, intent: Intent) -> None:
        """Apply one intent, then redraw what changed."""
        self.stats.intents += 1
        if isinstance(intent, Quit):
            self.running = False
            return
        if isinstance(intent, ButtonIntent) and self.locked:
            if intent.gesture is Gesture.PRESS:
                self._say("panel locked")
        elif isinstance(intent, Remote):
            intent.carry_out()
        elif isinstance(intent, ButtonIntent):
            self._button(intent)
        elif isinstance(intent, CounterValue):
            self._counter(intent)
        elif isinstance(intent, CounterConnected):
            self.missing_counters.discard(intent.seat)
            paired = self.menu.page == "pairing" and self.menu.pairing_seat == intent.seat
            if paired:
                self.menu.close()
            self._say(self._counter_ready(intent, "paired" if paired else "ready"))
            self._publish(lambda seat, _track: seat == intent.seat)
        elif isinstance(intent, CounterRolled):
            self._rolled(intent)
        elif isinstance(intent, CounterMissing):
            self.missing_counters.add(intent.seat)
            self._say(f"seat {intent.seat} counter lost" + (f": {intent.reason}" if intent.reason else ""))
        elif isinstance(intent, Typed):
            self._typed(intent)
        elif isinstance(intent, Tick):
            pass
        self.answer()

    def answer(self) -> None:
        """Send the frame that answers an intent first; expensive views it lacked (odds) follow in a
        second frame as soon as they are computed."""
        with VIEWS.deferred():
            self.redraw()
        if VIEWS.fill():
            self.redraw()

    def _typed(self, intent: Typed) -> None:
        """A console line goes through the same parser and controls as ``tablekeeper play``."""
        try:
            parsed = parse_line(intent.text, intent.line, origin="console")
            if parsed is None:
                return
            cmd = parsed.command
            if cmd.verb in ("press", "hold") and cmd.args == ("select",) and not self.menu.is_open \
                    and self._legend_button(Gesture.HOLD if cmd.verb == "hold" else Gesture.PRESS, from_panel=False):
                return
            if cmd.verb in ("press", "hold") and len(cmd.args) == 1:
                act = self.controls.hold if cmd.verb == "hold" else self.controls.press
                self._perform(act(cmd.args[0], self.session.state))
            else:
                self._perform([*self.controls.flush(), cmd])
        except (Rejected, ScriptError) as exc:
            self._refused(str(exc))

    def _button(self, intent: ButtonIntent) -> None:
        state = self.session.state
        if self.menu.is_open:
            self._menu_button(intent)
            return
        if intent.role == "select" and self._legend_button(intent.gesture):
            return
        try:
            if intent.gesture is Gesture.PRESS:
                if intent.role == "menu":
                    self._open_menu()
                    return
                commands = self.controls.press(intent.role, state)
            elif intent.gesture is Gesture.HOLD:
                commands = self.controls.hold(intent.role, state)
            elif intent.gesture is Gesture.REPEAT:
                commands = self.controls.repeat(intent.role, state)
            else:
                return
        except Rejected as exc:
            self._refused(exc.reason)
            return
        if intent.gesture is Gesture.PRESS and intent.role == "next":
            commands = self._confirm_next(commands)
        self._perform(commands)

    def _legend_button(self, gesture: Gesture, *, from_panel: bool = True) -> bool:
        """SELECT held shows each display's key to its short forms; the next SELECT press (or
        ``LEGEND_S``) puts the screens back. True when the press was taken for that."""
        if gesture is Gesture.HOLD:
            if from_panel and self._select_stepped:  # the press that began this hold stepped it on: back
                self._select_stepped = False
                with contextlib.suppress(Rejected):  # nothing to select: the press stepped nothing
                    self._perform(self.controls.hold("select", self.session.state))
            if not any(panel.legend for panel in self.frames_panels().values()):
                self._say("no short forms on the displays now")
                return True
            self.legend_until_s = self.clock() + LEGEND_S
            return True
        if gesture is Gesture.PRESS:
            self._select_stepped = self.legend_until_s is None  # else the press only closes the key
            if not self._select_stepped:
                self.legend_until_s = None
                return True
        return gesture is Gesture.REPEAT  # a long hold does not step through the tracks

    def _confirm_next(self, commands: list[Command]) -> list[Command]:
        """NEXT never ends a step for seats still playing at one press: the first asks on the track
        display, a second within ``CONFIRM_S`` ends it for all (``next!``)."""
        if not commands or commands[-1].verb != "next":
            return commands
        waiting = flow_lines.needs_confirm(self.session.state, self.session.game.flow)
        if not waiting:
            self.confirm_until_s = None
            return commands
        now_s = self.clock()
        if self.confirm_until_s is not None and now_s <= self.confirm_until_s:
            self.confirm_until_s = None
            return [*commands[:-1], Command("next!", origin="button")]
        self.confirm_until_s = now_s + flow_lines.CONFIRM_S
        self.message = Message(flow_lines.confirm_text(waiting), self.confirm_until_s)
        return commands[:-1]

    def _counter(self, intent: CounterValue) -> None:
        """A counter slot's new value sets the seat track the game has it follow (``counter_tracks``)."""
        game, tracks = self.session.game, self.session.state.tracks
        track = counter_tracks.followed(game, tracks, intent.seat, intent.track)
        if track is None:  # nothing in this game to set: the presses are ignored, and that is said once
            if (intent.seat, intent.track) not in self.unused_counters:
                self.unused_counters.add((intent.seat, intent.track))
                self._say(counter_tracks.unused_text(game, intent.seat, intent.track))
            return
        before = tracks.get(track)
        self._perform([*self.controls.flush(), Command("set", (track, str(intent.value)), origin="counter")])
        if self.session.state.tracks.get(track) == before:
            # refused (or no change): the counter still shows what it asked for; send the game's value
            self._publish(lambda seat, name: f"seat{seat}.{name}" == track)

    def _counter_ready(self, intent: CounterConnected, word: str) -> str:
        """``seat 1 counter ready``, or, when the game has no track for any of its slots, that it is
        not used here (said this once; its presses are then ignored without a word)."""
        game, tracks = self.session.game, self.session.state.tracks
        unused = counter_tracks.unused_slots(game, tracks, intent.seat, intent.role)
        if not unused or len(unused) < len(counter_tracks.ROLE_SLOTS.get(intent.role, ())):
            return f"seat {intent.seat} counter {word}"
        self.unused_counters.update((intent.seat, slot) for slot in unused)
        return counter_tracks.unused_text(game, intent.seat, intent.role)

    def _perform(self, commands: list[Command]) -> None:
        if not commands and self.session.state is self._viewed:
            return  # nothing entered (a +/- change only pending): the view, lights and counters stand
        before = self._last_view
        for command in commands:
            try:
                outcome: Outcome = self.session.perform(command)
            except StoreError as exc:
                self._save_failed(exc)
                break
            self.stats.commands += 1
            if outcome.accepted:
                self.save_problem = None
            if not outcome.accepted:
                self._refused(outcome.reason or f"{command.text()} refused")
                break
            said = flow_lines.auto_line(self.session.notes)
            if said is not None:
                self.message = Message(said, self.clock() + flow_lines.AUTO_LINE_S)
        with VIEWS.deferred():  # expensive views (odds) wait until the answering frame is out
            after = self.session.view()
        self._sync_outputs(after, before=before)
        self._last_view, self._viewed = after, self.session.state
        old_tracks = before.get("tracks", {})
        new_tracks = after.get("tracks", {})
        self._publish(lambda seat, track: old_tracks.get(f"seat{seat}.{track}") != new_tracks.get(
            f"seat{seat}.{track}"))

    def _save_failed(self, exc: StoreError) -> None:
        """The save could not be written (a full disk): the command is not acknowledged and the game is
        unchanged; the track display says so until a later command saves, and the station runs on."""
        self.stats.save_failures += 1
        logging.getLogger(__name__).warning("command not kept: %s", exc)
        self.save_problem = "save full - not kept" if isinstance(exc, SaveFullError) else "save failed - not kept"

    def _publish(self, wanted: Callable[[int, str], bool]) -> None:
        """Send each counter slot the value and bound of the seat track it follows (Arkham's
        ``seat1.damage`` goes out as seat 1's ``hp`` and ``damage``); ``wanted(seat, "damage")``."""
        if self.counters is None:
            return
        game, tracks = self.session.game, self.session.state.tracks
        for seat in self.session.state.seat_numbers():
            for slot in counter_tracks.SLOTS:
                name = counter_tracks.followed(game, tracks, seat, slot)
                if name is not None and wanted(seat, name.partition(".")[2]):
                    counter = tracks[name]
                    self.counters.publish(seat, slot, counter.value, counter.hi)

    def _refused(self, reason: str) -> None:
        if self.message is not None and self.message.text == f"! {reason}":
            return  # the same refusal is still on the display: say it once, not once per press
        self.stats.refusals += 1
        self.stats.rejected.append(reason)
        if len(self.stats.rejected) > KEEP_REFUSALS:  # an unattended box must not grow with every mashed button
            del self.stats.rejected[:-KEEP_REFUSALS]
        self._say(f"! {reason}")

    def _say(self, text: str) -> None:
        self.message = Message(text, self.clock() + MESSAGE_S)

    def notify(self, text: str, *, seconds: float = MESSAGE_S) -> None:
        """Show a notice on the track display for ``seconds`` (the fleet's identify and lock)."""
        self.message = Message(text, self.clock() + seconds)

    # --- the menu ---------------------------------------------------------------------------------
    def _open_menu(self) -> None:
        self._perform(self.controls.flush())  # a pending +/- change is entered before the menu covers it
        seats = tuple(range(1, self.session.state.seats + 1))
        self.menu.open(menu_items(quiet=self.quiet, seats=seats), self.clock())

    def _menu_button(self, intent: ButtonIntent) -> None:
        """Buttons while the menu is open; every press keeps it open a while longer."""
        if intent.gesture not in (Gesture.PRESS, Gesture.REPEAT):
            return
        self.menu.touch(self.clock())
        role = intent.role
        if role in ("up", "down"):
            self.menu.move(-1 if role == "up" else 1)
        elif intent.gesture is not Gesture.PRESS:
            return
        elif role in ("back", "menu"):
            self._leave_menu()
        elif role in ("next", "select"):
            self._choose_menu_item()

    def _choose_menu_item(self) -> None:
        item = self.menu.chosen()
        if item is None:  # a pairing prompt or the counter list: next leaves it as back does
            self._leave_menu()
            return
        control = self.counters if isinstance(self.counters, CounterControl) else None
        if item.action == "sound":
            self.menu.close()
            self._toggle_quiet()
        elif item.action == "pair":
            if control is None:
                self.menu.close()
                self._say("counters are off")
                return
            control.start_pairing(item.seat)
            self.menu.show_pairing(item.seat)
        elif item.action == "counters":
            self.menu.show_counters(self._counter_lines(control))

    def _counter_lines(self, control: CounterControl | None) -> tuple[str, ...]:
        if control is None:
            return ("counters are off",)
        lines = []
        for status in control.status():
            who = f"seat {status.seat}" if status.seat else "no seat"
            lines.append(f"{who} {status.role or '?'}: {status.state}")
        return tuple(lines)

    def _leave_menu(self) -> None:
        if self.menu.page == "pairing" and isinstance(self.counters, CounterControl):
            self.counters.cancel_pairing()
        self.menu.close()

    # --- dice -------------------------------------------------------------------------------------
    def _rolled(self, intent: CounterRolled) -> None:
        """Show a counter's roll; report it into the game when the game has dice like those."""
        faces = " ".join(str(face) for face in intent.faces)
        source = dice_source(self.session.state.sources, intent.sides, len(intent.faces))
        refused = self.stats.refusals
        if source is not None:
            self._perform([*self.controls.flush(), Command("reveal", (source, faces), origin="counter")])
        if self.stats.refusals == refused:  # a refusal stays on the display instead
            self._say(f"seat {intent.seat} rolled {faces}")

    def _toggle_quiet(self) -> None:
        self.quiet = not self.quiet
        if self.outputs is not None:
            self.outputs.beeper.quiet = self.quiet
        self._say("sound off" if self.quiet else "sound on")

    def _sync_outputs(self, view: dict[str, Any], *, before: dict[str, Any] | None = None,
                      first: bool = False) -> None:
        if self.outputs is None:
            return
        seat = view.get("active_seat")
        shown = flow_lines.lights(self.session.state, self.session.game.flow)
        self.outputs.lights.show(shown.steady, shown.blinking)
        if first or before is None:
            return
        if view.get("over") and not before.get("over"):
            result = self.session.state.result
            self.outputs.beeper.play(RESULT_SOUNDS[result] if result is not None else "alert")
        elif any(n.kind in ALERT_NOTICES for n in self.session.notes):
            self.outputs.beeper.play("alert")
        elif seat != before.get("active_seat") and seat is not None:
            self.outputs.beeper.play("turn")

    # --- drawing ----------------------------------------------------------------------------------
    def frames(self) -> dict[str, Image.Image]:
        """The picture each configured display should show now."""
        state = self.session.state
        if self._panels is None or self._panels[0] is not state or self._panels[1] != VIEWS.computed:
            self._panels = (state, VIEWS.computed, self.session.game.panels(state))  # same state: same panels
        panels = self._panels[2]
        view = self._last_view
        selected = self.controls.selected(state)
        pending = self.controls.pending.text() if self.controls.pending is not None else None
        if pending is None:
            pending = self.controls.prompt_text(state)  # the option ``next`` would choose
        pending_role = "tokens" if self.config.display("tokens") is not None else "track"
        out: dict[str, Image.Image] = {}
        for display in self.config.displays:
            panel = panels.get(display.role) or fallback_panel(display.role, view)
            if display.role == "track" and self.menu.is_open:
                panel = self.menu.panel()
            keyed = self.legend_until_s is not None and bool(panel.legend)
            if keyed:
                panel = panel.legend_page()
            banner = None
            if display.role == pending_role and pending is not None:
                banner = pending
                if self.controls.pending is None and state.prompt is not None \
                        and state.prompt.text not in (panel.title, *panel.lines):
                    banner = f"{state.prompt.text} {pending}"  # the question with the option pointed at
            elif display.role == "track" and self.message is not None:
                banner = self.message.text
            elif display.role == "track" and self.save_problem is not None:
                banner = self.save_problem
            elif display.role == "track" and self.not_saving and not self.menu.is_open:
                banner = NOT_SAVING
            elif display.role.startswith("seat") and display.role[4:].isdigit() \
                    and int(display.role[4:]) in self.missing_counters:
                banner = "counter missing"
            elif display.role.startswith("seat") and display.role[4:].isdigit():
                banner = self._seat_line(state, int(display.role[4:]))
            elif display.role == "track" and not self.menu.is_open:
                banner = flow_lines.waiting_line(state, self.session.game.flow)
            if keyed:
                banner = None
            self.contents[display.role] = (panel, banner, selected)
            key = (panel, display.size, banner, selected)
            cached = self._rendered.get(display.role)
            if cached is None or cached[0] != key:  # drawing is the costly part; skip unchanged panels
                cached = (key, 0, {})
            pages, drawn = cached[1], cached[2]
            image = drawn.get(self.page % pages) if pages else None
            if image is None:
                screen = layout(panel, display.viewing, banner=banner, selected=selected, page=self.page)
                image = draw_screen(screen, display.size)
                drawn[screen.page] = image
                if screen.pages > 1:
                    self._paged.add(display.role)
                else:
                    self._paged.discard(display.role)
                self._rendered[display.role] = (key, screen.pages, drawn)
            out[display.role] = image
        return out

    def _seat_line(self, state: Any, seat: int) -> str | None:
        """A seat display's last line: whether it owes a move, and the game's legend for its buttons."""
        game = self.session.game
        if seat > state.seats:
            return None  # an empty seat has no buttons to explain
        return flow_lines.seat_line(flow_lines.seat_status(state, game.flow, seat), game.legend(state, seat))

    def frames_panels(self) -> Mapping[str, Any]:
        """The game's panels behind the last frames (benchmarks and tests read them)."""
        return self._panels[2] if self._panels is not None else {}

    def redraw(self) -> int:
        """Send the displays whose picture changed; returns how many were sent."""
        changed: dict[str, Image.Image] = {}
        frames = self.frames()
        if self.decorate is not None:
            frames = self.decorate(frames)
        for role, image in frames.items():
            if self.images.get(role) is image:
                continue
            raw = image.tobytes()
            if self._drawn.get(role) != raw:
                self._drawn[role] = raw
                changed[role] = image
            self.images[role] = image
        if changed:
            self.displays.show(changed)
            self.stats.redraws += 1
            if self.on_redraw is not None:
                self.on_redraw(self)
        self._watch_displays()
        return len(changed)

    def _watch_displays(self) -> None:
        """Tell the players when a display stops answering (on the ones that still work)."""
        failed = frozenset(d.role for d in self.displays.failed())
        lost, self._failed = failed - self._failed, failed
        if lost:
            self._say(f"{', '.join(sorted(lost))} display not answering")
            self.redraw()

    def close(self) -> None:
        """Release every part: buttons and outputs (gpiozero), then displays (luma)."""
        self.running = False
        if self.buttons is not None:
            self.buttons.close()
        if self.outputs is not None:
            self.outputs.close()
        self.displays.close()


def dice_source(sources: Mapping[str, object], sides: int, count: int) -> str | None:
    """The game's dice source that ``count`` dice of ``sides`` faces (numbered 1..sides) can report into."""
    numbered = {str(face) for face in range(1, sides + 1)}
    for name in sorted(sources):
        source = sources[name]
        if isinstance(source, Dice) and source.count == count and set(source.faces) == numbered:
            return name
    return None
