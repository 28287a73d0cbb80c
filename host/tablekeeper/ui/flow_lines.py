"""What the station shows about the table's flow: who still owes a move (seat lines, the track
display's "waiting" line, which seat LEDs are steady or blinking), what the station just did by
itself, and when NEXT must be pressed twice. Pure functions of the state, so the station's loop
only draws what they say."""

from __future__ import annotations

from collections.abc import Sequence

from tablekeeper.core import flow as flowmod
from tablekeeper.core.events import NoticeKind
from tablekeeper.core.flow import Flow, Turns
from tablekeeper.core.session import Note
from tablekeeper.core.state import GameState
from tablekeeper.ui.model import Lights

CONFIRM_S = 4.0  # a second NEXT within this ends a step for the seats still playing
AUTO_LINE_S = 4.0  # how long "what the station just did" stays when nobody presses
SHARED = (Turns.TOGETHER, Turns.NONE)  # steps where several seats may owe a move at once


def _shared(step: flowmod.Step, state: GameState) -> bool:
    """Several seats may owe a move at once: steps played together, and a FREE turn step before
    any seat has begun its turn."""
    return step.turns in SHARED or (step.turns is Turns.FREE and state.active_seat is None)


def lights(state: GameState, flow: Flow) -> Lights:
    if state.over is not None:
        return Lights(None, frozenset())
    steady = state.active_seat
    if state.prompt is not None and state.prompt.seat is not None:
        steady = state.prompt.seat
    step = flow.step(state.phase, state.step) if state.step else None
    shared = step is not None and _shared(step, state)
    blinking = frozenset(s for s in state.owing if s != steady) if shared else frozenset()
    return Lights(steady, blinking)


def seat_status(state: GameState, flow: Flow, seat: int) -> str | None:
    """A seat display's last line: is this seat to play, still owing, passed or done."""
    if state.over is not None or not state.step:
        return None
    step = flow.step(state.phase, state.step)
    if state.prompt is not None and state.prompt.seat == seat:
        return "your answer"
    if seat == state.active_seat:
        return "your turn"
    if step.turns is Turns.UNTIL_PASS and seat in state.passes:
        return "passed"
    if seat in state.owing:
        return "not passed yet" if step.turns is Turns.UNTIL_PASS else "still to play"
    if step.turns is not Turns.NONE and seat in state.done:
        return "done"
    return None


def seat_line(status: str | None, legend: str | None) -> str | None:
    parts = [p for p in (status, legend) if p]
    return " | ".join(parts) if parts else None


def waiting_line(state: GameState, flow: Flow) -> str | None:
    """The track display's reminder of whom a step played together still waits for (in turn steps
    the seat displays and the steady LED already say whose turn it is)."""
    if state.over is not None or not state.step or not _shared(flow.step(state.phase, state.step), state):
        return None
    seats = state.owing or flowmod.waiting_for(state)
    return "waiting: " + ", ".join(str(s) for s in seats) if seats else None


def auto_line(notes: Sequence[Note]) -> str | None:
    """One line for what the station just did: the last thing it said (what the table does now),
    then the steps it ran by itself, first and last."""
    ran = [n.text for n in notes if n.kind is NoticeKind.AUTO]
    said = [n.text for n in notes if n.kind is not NoticeKind.AUTO]
    if not ran:
        return said[-1] if said else None
    text = f"done: {ran[0]}" if len(ran) == 1 else f"done {len(ran)} steps: {ran[0]} .. {ran[-1]}"
    return f"{said[-1]} | {text}" if said else text


def confirm_text(seats: tuple[int, ...]) -> str:
    who = f"seat {seats[0]} still playing" if len(seats) == 1 else f"{len(seats)} seats still playing"
    return f"{who} - NEXT again to end for all"


def needs_confirm(state: GameState, flow: Flow) -> tuple[int, ...]:
    """The seats a NEXT press would cut short (it must be pressed twice), or ()."""
    return flowmod.cut_short(state, flow)
