"""Intents in: what a button, a typed console line or a remote command does at the station. Each
becomes commands for the game (``Station.perform``) or an update of the station's own UI state (the
menu, the key to short forms, NEXT asked twice); counters' intents are ``station.counter_input``'s."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from msgspec.structs import replace

from tablekeeper.core.events import Command
from tablekeeper.core.script import parse_line
from tablekeeper.errors import Rejected, ScriptError
from tablekeeper.intents import (
    ButtonIntent,
    CounterConnected,
    CounterMissing,
    CounterRolled,
    CounterValue,
    FromPage,
    Gesture,
    Intent,
    Remote,
    Typed,
)
from tablekeeper.station import counter_input
from tablekeeper.ui import flow_lines
from tablekeeper.ui.menu import menu_items
from tablekeeper.ui.state import LEGEND_S, Message

if TYPE_CHECKING:
    from tablekeeper.station.loop import Station


@runtime_checkable
class CounterControl(Protocol):
    """What the menu asks of the counter link (``CounterManager``): pairing and the counters' state."""

    def start_pairing(self, seat: int) -> None: ...

    def cancel_pairing(self) -> None: ...

    def status(self) -> Sequence[Any]: ...


def take(st: Station, intent: Intent) -> None:
    """Carry out one intent (all but ``Quit``, which the loop keeps)."""
    if isinstance(intent, FromPage):
        from_page(st, intent)
    elif isinstance(intent, ButtonIntent) and st.ui.join_shown and intent.gesture is Gesture.PRESS:
        st.ui = replace(st.ui, join_shown=False)  # the press that puts the game back does nothing else
    elif isinstance(intent, ButtonIntent) and st.ui.locked:
        if intent.gesture is Gesture.PRESS:
            st.say("panel locked")
    elif isinstance(intent, Remote):
        intent.carry_out()
    elif isinstance(intent, ButtonIntent):
        button(st, intent)
    elif isinstance(intent, CounterValue):
        counter_input.value(st, intent)
    elif isinstance(intent, CounterConnected):
        paired = st.ui.menu.page == "pairing" and st.ui.menu.pairing_seat == intent.seat
        counter_input.connected(st, intent, paired=paired)
    elif isinstance(intent, CounterRolled):
        counter_input.rolled(st, intent)
    elif isinstance(intent, CounterMissing):
        counter_input.missing(st, intent)
    elif isinstance(intent, Typed):
        typed(st, intent)


def from_page(st: Station, intent: FromPage) -> None:
    """A phone's press or line: carried out as the button's or the console's own, then acknowledged
    with the refusal it met (a locked panel refuses pages too)."""
    if st.ui.locked:
        st.say("panel locked")
        intent.done("panel locked")
        return
    before = st.stats.refused_all
    take(st, intent.intent)
    intent.done(st.stats.last_refusal if st.stats.refused_all != before else None)


def typed(st: Station, intent: Typed) -> None:
    """A console line goes through the same parser and controls as ``tablekeeper play``."""
    try:
        parsed = parse_line(intent.text, intent.line, origin="console")
        if parsed is None:
            return
        cmd = parsed.command
        gesture = Gesture.HOLD if cmd.verb == "hold" else Gesture.PRESS
        if cmd.verb in ("press", "hold") and cmd.args == ("select",) and not st.ui.menu.is_open \
                and legend_button(st, gesture, from_panel=False):
            return
        if cmd.verb in ("press", "hold") and len(cmd.args) == 1:
            act = st.controls.hold if cmd.verb == "hold" else st.controls.press
            st.perform(act(cmd.args[0], st.session.state))
        else:
            st.perform([*st.controls.flush(), cmd])
    except (Rejected, ScriptError) as exc:
        st.refused(str(exc))


def button(st: Station, intent: ButtonIntent) -> None:
    state = st.session.state
    if st.ui.menu.is_open:
        menu_button(st, intent)
        return
    if intent.role == "select" and legend_button(st, intent.gesture):
        return
    try:
        if intent.gesture is Gesture.PRESS:
            if intent.role == "menu":
                open_menu(st)
                return
            commands = st.controls.press(intent.role, state)
        elif intent.gesture is Gesture.HOLD:
            commands = st.controls.hold(intent.role, state)
        elif intent.gesture is Gesture.REPEAT:
            commands = st.controls.repeat(intent.role, state)
        else:
            return
    except Rejected as exc:
        st.refused(exc.reason)
        return
    if intent.gesture is Gesture.PRESS and intent.role == "next":
        commands = confirm_next(st, commands)
    st.perform(commands)


def legend_button(st: Station, gesture: Gesture, *, from_panel: bool = True) -> bool:
    """SELECT held shows each display's key to its short forms; the next SELECT press (or
    ``LEGEND_S``) puts the screens back. True when the press was taken for that."""
    if gesture is Gesture.HOLD:
        if from_panel and st.ui.select_stepped:  # the press that began this hold stepped it on: back
            st.ui = replace(st.ui, select_stepped=False)
            with contextlib.suppress(Rejected):  # nothing to select: the press stepped nothing
                st.perform(st.controls.hold("select", st.session.state))
        if not any(panel.legend for panel in st.panels.values()):
            st.say("no short forms on the displays now")
            return True
        st.ui = replace(st.ui, legend_until_s=st.clock() + LEGEND_S)
        return True
    if gesture is Gesture.PRESS:
        stepped = st.ui.legend_until_s is None  # else the press only closes the key
        st.ui = replace(st.ui, select_stepped=stepped, legend_until_s=st.ui.legend_until_s if stepped else None)
        return not stepped
    return gesture is Gesture.REPEAT  # a long hold does not step through the tracks


def confirm_next(st: Station, commands: list[Command]) -> list[Command]:
    """NEXT never ends a step for seats still playing at one press: the first asks on the track
    display, a second within ``CONFIRM_S`` ends it for all (``next!``)."""
    if not commands or commands[-1].verb != "next":
        return commands
    waiting = flow_lines.needs_confirm(st.session.state, st.session.game.flow)
    if not waiting:
        st.ui = replace(st.ui, confirm_until_s=None)
        return commands
    now_s = st.clock()
    if st.ui.confirm_until_s is not None and now_s <= st.ui.confirm_until_s:
        st.ui = replace(st.ui, confirm_until_s=None)
        return [*commands[:-1], Command("next!", origin="button")]
    until_s = now_s + flow_lines.CONFIRM_S
    st.ui = replace(st.ui, confirm_until_s=until_s, message=Message(flow_lines.confirm_text(waiting), until_s))
    return commands[:-1]


# --- the menu -------------------------------------------------------------------------------------
def open_menu(st: Station) -> None:
    st.perform(st.controls.flush())  # a pending +/- change is entered before the menu covers it
    seats = tuple(range(1, st.session.state.seats + 1))
    items = menu_items(quiet=st.ui.quiet, seats=seats, phones=st.ui.join is not None)
    st.ui = replace(st.ui, menu=st.ui.menu.opened(items, st.clock()), join_shown=False)


def menu_button(st: Station, intent: ButtonIntent) -> None:
    """Buttons while the menu is open; every press keeps it open a while longer."""
    if intent.gesture not in (Gesture.PRESS, Gesture.REPEAT):
        return
    st.ui = replace(st.ui, menu=st.ui.menu.touched(st.clock()))
    role = intent.role
    if role in ("up", "down"):
        st.ui = replace(st.ui, menu=st.ui.menu.moved(-1 if role == "up" else 1))
    elif intent.gesture is not Gesture.PRESS:
        return
    elif role in ("back", "menu"):
        leave_menu(st)
    elif role in ("next", "select"):
        choose_menu_item(st)


def choose_menu_item(st: Station) -> None:
    item = st.ui.menu.chosen()
    if item is None:  # a pairing prompt or the counter list: next leaves it as back does
        leave_menu(st)
        return
    counters = st.sink.counters
    control = counters if isinstance(counters, CounterControl) else None
    if item.action == "sound":
        st.ui = replace(st.ui, menu=st.ui.menu.closed(), quiet=not st.ui.quiet)
        if st.sink.outputs is not None:
            st.sink.outputs.beeper.quiet = st.ui.quiet
        st.say("sound off" if st.ui.quiet else "sound on")
    elif item.action == "pair":
        if control is None:
            st.ui = replace(st.ui, menu=st.ui.menu.closed())
            st.say("counters are off")
            return
        control.start_pairing(item.seat)
        st.ui = replace(st.ui, menu=st.ui.menu.pairing(item.seat))
    elif item.action == "phones":
        st.ui = replace(st.ui, menu=st.ui.menu.closed(), join_shown=st.ui.join is not None)
    elif item.action == "counters":
        st.ui = replace(st.ui, menu=st.ui.menu.counters(counter_lines(control)))


def counter_lines(control: CounterControl | None) -> tuple[str, ...]:
    if control is None:
        return ("counters are off",)
    lines = []
    for status in control.status():
        who = f"seat {status.seat}" if status.seat else "no seat"
        lines.append(f"{who} {status.role or '?'}: {status.state}")
    return tuple(lines)


def leave_menu(st: Station) -> None:
    """Close the menu; a pairing it was waiting for is given up."""
    counters = st.sink.counters
    if st.ui.menu.page == "pairing" and isinstance(counters, CounterControl):
        counters.cancel_pairing()
    st.ui = replace(st.ui, menu=st.ui.menu.closed())
