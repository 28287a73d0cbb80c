"""Rounds -> phases -> steps declared as data, and the one function that moves through them.

A step may host turns (clockwise from the lead, in an order the players choose, round and round until
every seat passes in a row, or all seats together each signalling "done"). Hooks are small functions
of a transaction; skip conditions are predicates of the state at the moment the step would begin.

Each step also says what it asks of the table (``Kind``): a decision, a physical table action that
one ``next`` confirms, or bookkeeping the station does itself. In a session whose state has ``auto``
set, automatic steps and steps that are empty right now (``idle``) run without a press, inside the
same command as the press that reached them, so one ``undo`` takes the whole run back.

Where the table still acts between automatic steps is declared, never discovered: a step's ``stop``
(a setup window), the flow's ``stops`` (a window anywhere, such as a day that has ended) and the
flow's ``ending`` (the game is over: nothing runs, and only undo and the end-of-game bookkeeping
the rules name are accepted). The automatic run halts at each and says what the table does there.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

import msgspec

from tablekeeper.core.events import NoticeKind
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected

if TYPE_CHECKING:
    from tablekeeper.core.game import Txn

Hook = Callable[["Txn"], None]
Predicate = Callable[[GameState], bool]
Hold = Callable[[GameState], "str | None"]


class Kind(Enum):
    """What a step asks of the players."""

    DECISION = "decision"  # someone must choose
    TABLE = "table"  # players do something the station cannot see; one ``next`` confirms it
    AUTO = "auto"  # the station does the bookkeeping; no press in an automatic session


class Turns(Enum):
    NONE = "none"
    CLOCKWISE = "clockwise"  # one turn each, clockwise from the lead
    CHOSEN = "chosen"  # one turn each, the players choose who goes next (a prompt)
    FREE = "free"  # one turn each in any order: whichever owing seat moves first takes its turn
    UNTIL_PASS = "until_pass"  # clockwise from the lead, until every seat passed in a row
    TOGETHER = "together"  # every seat at once; each signals done


class Stop(msgspec.Struct, frozen=True):
    """A place where the table acts between automatic steps: the automatic run halts here (while
    ``when`` holds, always if None) and the table's own ``next`` goes on. ``what`` tells the table
    what it does here; ``rule`` names the rule that puts it there (catalogue IDs)."""

    what: str
    rule: str
    when: Predicate | None = None

    def holds(self, state: GameState) -> bool:
        return self.when is None or self.when(state)


class Ending(msgspec.Struct, frozen=True):
    """The game-over stop every flow has: once ``over`` is set nothing runs by itself and only
    ``verbs`` (the end-of-game bookkeeping the rules name) and undo are accepted. A game whose end
    is judged after effects rather than inside them gives ``judge``; it runs after every command and
    before every step the station would run by itself, so an ending inside an automatic run stops it
    where the rules do."""

    verbs: frozenset[str] = frozenset()
    rule: str = ""
    judge: Hook | None = None


class Step(msgspec.Struct, frozen=True):
    id: str
    label: str = ""
    turns: Turns = Turns.NONE
    enter: Hook | None = None
    leave: Hook | None = None
    skip: Predicate | None = None
    hold: Hold | None = None  # a reason ``next`` must wait, or None
    turn_start: Hook | None = None
    # at the end of the active seat's turn, before it is over: if it opens a question or a hold (a
    # Forced test), the turn stays on and the game ends it with ``advance`` once that is settled
    turn_end: Hook | None = None
    kind: Kind = Kind.TABLE
    idle: Predicate | None = None  # nothing to do here right now: runs by itself like an automatic step
    stop: Stop | None = None  # the table acts here: the automatic run halts (a setup window)

    @property
    def title(self) -> str:
        return self.label or self.id.replace("_", " ").capitalize()


class Phase(msgspec.Struct, frozen=True):
    id: str
    label: str
    steps: tuple[Step, ...]
    skip: Predicate | None = None


class Flow(msgspec.Struct, frozen=True):
    phases: tuple[Phase, ...]
    round_start: Hook | None = None
    round_end: Hook | None = None
    stops: tuple[Stop, ...] = ()  # windows that can open at any step (a day that has ended)
    ending: Ending = Ending()

    def phase(self, phase_id: str) -> Phase:
        for p in self.phases:
            if p.id == phase_id:
                return p
        raise KeyError(phase_id)

    def step(self, phase_id: str, step_id: str) -> Step:
        for s in self.phase(phase_id).steps:
            if s.id == step_id:
                return s
        raise KeyError(f"{phase_id}.{step_id}")

    def positions(self) -> list[tuple[Phase, Step]]:
        return [(p, s) for p in self.phases for s in p.steps]

    def stop_at(self, state: GameState) -> Stop | None:
        """The declared stop holding now (the step's own, else one of the flow's), or None."""
        if state.step:
            own = self.step(state.phase, state.step).stop
            if own is not None and own.holds(state):
                return own
        return next((stop for stop in self.stops if stop.holds(state)), None)

    def refuse_after_end(self, state: GameState, verb: str) -> None:
        """Once the game is over only its end-of-game bookkeeping is accepted (undo is the session's)."""
        if state.over is not None and verb not in self.ending.verbs:
            allowed = ", ".join(sorted(self.ending.verbs))
            raise Rejected(f"the game is over ({state.over}): only undo" + (f" and {allowed}" if allowed else ""))

    def judge_end(self, txn: Txn) -> None:
        """Run the game's own end check, if it declares one and the game is not over yet."""
        if self.ending.judge is not None and txn.state.over is None:
            self.ending.judge(txn)


def clockwise_after(seat: int, seats: int) -> int:
    return seat % seats + 1


def move(txn: Txn, *, round_no: int, phase: str, step: str, seat: int | None,
         done: tuple[int, ...] = (), passes: tuple[int, ...] = ()) -> None:
    txn.emit("flow", round=round_no, phase=phase, step=step, seat=seat, done=list(done), passes=list(passes))


def owing(step: Step, state: GameState) -> tuple[int, ...]:
    """The seats the step still waits for, from its turn order (a game may add its own)."""
    if step.turns in (Turns.CLOCKWISE, Turns.CHOSEN, Turns.FREE):
        return tuple(s for s in _order_from(state.lead, state.seats) if s not in state.done)
    if step.turns is Turns.UNTIL_PASS:
        first = state.active_seat or state.lead
        return tuple(s for s in _order_from(first, state.seats) if s not in state.passes)
    if step.turns is Turns.TOGETHER:
        return tuple(s for s in state.seat_numbers() if s not in state.done)
    return ()


def waiting_for(state: GameState) -> tuple[int, ...]:
    """The seats the table is waiting for: a seat's question, else the active seat, else the seats owing."""
    if state.prompt is not None and state.prompt.seat is not None:
        return (state.prompt.seat,)
    if state.active_seat is not None:
        return (state.active_seat,)
    return state.owing


def cut_short(state: GameState, flow: Flow) -> tuple[int, ...]:
    """The seats a plain ``next`` would leave owing a move by ending the step for all (empty: none).

    In turn steps ``next`` ends the active seat's turn, which is that seat's own move; in a step the
    seats play together it would end the step for the seats still playing.
    """
    if not state.auto or state.prompt is not None or not state.step:
        return ()
    step = flow.step(state.phase, state.step)
    if step.turns in (Turns.CLOCKWISE, Turns.CHOSEN, Turns.UNTIL_PASS) and state.active_seat is not None:
        return ()
    if step.turns is Turns.FREE:
        return ()  # ``next`` ends the turn on, or begins the first owing seat's: nobody is cut short
    return tuple(s for s in state.owing if s != state.active_seat)


def runs_itself(state: GameState, step: Step, flow: Flow) -> bool:
    """In an automatic session: the step needs nobody now (automatic or empty, nothing open or held)
    and no declared stop holds."""
    if not state.auto or state.prompt is not None or state.over is not None or state.owing:
        return False
    if step.turns is not Turns.NONE:
        return False
    if step.kind is not Kind.AUTO and not (step.idle is not None and step.idle(state)):
        return False
    if step.hold and step.hold(state):
        return False
    return flow.stop_at(state) is None


def settle(txn: Txn, flow: Flow) -> None:
    """After a command: if the step it left open needs nobody, go on (an answered prompt in an
    automatic step, the last enemy gone from the enemy phase)."""
    state = txn.state
    if state.step:
        _go_on(txn, flow, flow.step(state.phase, state.step), arrived=False)


def _go_on(txn: Txn, flow: Flow, step: Step, *, arrived: bool) -> None:
    """Run the current step by itself if it needs nobody. The game's end is judged first: each step
    the station runs is a press it saves, and the table would have seen the ending before pressing.
    A declared stop that halts the run on ``arrived`` tells the table what it does there."""
    if not txn.state.auto or txn.state.over is not None or not _would_run(txn.state, step):
        return  # the table has something to do here: nothing runs, so nothing is judged yet
    flow.judge_end(txn)
    state = txn.state
    stop = flow.stop_at(state)
    if stop is not None and state.over is None and arrived:
        txn.emit("notice", text=stop.what, category=NoticeKind.STOP.value)
    if runs_itself(state, step, flow):
        _run_itself(txn, flow, step)


def _would_run(state: GameState, step: Step) -> bool:
    """The step would run by itself but for a declared stop (so the stop is worth a word)."""
    return (state.prompt is None and not state.owing and step.turns is Turns.NONE
            and (step.kind is Kind.AUTO or (step.idle is not None and step.idle(state)))
            and not (step.hold and step.hold(state)))


def _run_itself(txn: Txn, flow: Flow, step: Step) -> None:
    txn.auto_steps += 1
    if txn.auto_steps > 2 * len(flow.positions()):
        return  # a whole round with nothing to decide: stop and let the table press on
    txn.emit("notice", text=step.title, category=NoticeKind.AUTO.value)
    txn.pressed()
    leave(txn, flow)


def start(txn: Txn, flow: Flow) -> None:
    """Enter the first step of round 1 that is not skipped."""
    if flow.round_start:
        flow.round_start(txn)
    _enter_from(txn, flow, index=0, round_no=txn.state.round)


def answer_first(state: GameState) -> str:
    """Why a command waits for the open question, with the line that answers it."""
    prompt = state.prompt
    if prompt is None:
        return "nothing to answer"
    options = ", ".join(f"{i} {option}" for i, option in enumerate(prompt.options, 1))
    return f"answer the prompt first: {prompt.text} (choose N: {options})"


def advance(txn: Txn, flow: Flow, *, force: bool = False) -> None:
    """What ``next`` does: end the active turn, or leave the step once its turns are over.

    In an automatic session a ``next`` that would end a step for seats still playing is refused
    unless ``force`` (``next!``), so a stray press never throws a seat's move away.
    """
    state = txn.state
    if state.over is not None:
        raise Rejected(f"the game is over ({state.over})")
    if state.prompt is not None:
        raise Rejected(answer_first(state))
    step = flow.step(state.phase, state.step)
    if step.hold:
        reason = step.hold(state)
        if reason:
            raise Rejected(reason)
    seat = state.active_seat
    if step.turns in (Turns.CLOCKWISE, Turns.CHOSEN, Turns.FREE) and seat is not None:
        if step.turn_end is not None:
            step.turn_end(txn)
            state = txn.state
            if _turn_held(state, step, seat):
                return
        done = (*state.done, seat)
        remaining = [s for s in _order_from(state.lead, state.seats) if s not in done]
        if remaining:
            if step.turns is Turns.CLOCKWISE or len(remaining) == 1:
                nxt = next(s for s in _order_from(clockwise_after(seat, state.seats), state.seats) if s in remaining)
                begin_turn(txn, flow, nxt, done=done)
            else:
                move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=None, done=done)
                if step.turns is Turns.CHOSEN:
                    ask_next_seat(txn, remaining)
            return
    elif step.turns is Turns.UNTIL_PASS and seat is not None:
        begin_turn(txn, flow, clockwise_after(seat, state.seats), done=state.done, passes=())
        return
    elif step.turns is Turns.FREE and state.owing and not force:
        begin_turn(txn, flow, state.owing[0], done=state.done)  # no turn on: the first seat owing goes
        return
    waiting = cut_short(state, flow)
    if waiting and not force:
        raise Rejected(f"{seats_text(waiting)} still playing {step.title}: they pass, or next! ends it for all")
    leave(txn, flow)


def _turn_held(state: GameState, step: Step, seat: int) -> bool:
    """What the end of ``seat``'s turn opened keeps it on: a question, a hold, or the turn changed."""
    return state.prompt is not None or bool(step.hold and step.hold(state)) or state.active_seat != seat


def seats_text(seats: tuple[int, ...]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def pass_seat(txn: Txn, flow: Flow, seat: int) -> None:
    """``pass SEAT``: this seat is done for this step or round, whatever the step's turn order."""
    state = txn.state
    if state.prompt is not None:
        raise Rejected(answer_first(state))
    step = flow.step(state.phase, state.step)
    if step.turns is Turns.UNTIL_PASS:
        pass_turn(txn, flow, seat)
    elif step.turns is Turns.TOGETHER:
        seat_done(txn, flow, seat)
    elif step.turns is Turns.FREE and state.active_seat is None:
        take_turn(txn, flow, seat)
        advance(txn, flow)
    elif step.turns in (Turns.CLOCKWISE, Turns.CHOSEN, Turns.FREE):
        if seat != state.active_seat:
            who = f"seat {state.active_seat}'s turn" if state.active_seat else "no seat's turn yet"
            raise Rejected(f"it is {who}, not seat {seat}'s")
        advance(txn, flow)
    else:
        raise Rejected(f"nobody owes a move during {step.title}; next goes on")


def pass_turn(txn: Txn, flow: Flow, seat: int) -> None:
    """The active seat passes (UNTIL_PASS steps); the step ends once every seat passed in a row."""
    state = txn.state
    if state.prompt is not None:
        raise Rejected(answer_first(state))
    step = flow.step(state.phase, state.step)
    if step.turns is not Turns.UNTIL_PASS:
        raise Rejected(f"nobody passes during {step.title}")
    if seat != state.active_seat:
        raise Rejected(f"it is seat {state.active_seat}'s turn, not seat {seat}'s")
    reason = step.hold(state) if step.hold else None
    if reason:  # as for next: a pass ends the turn, so what holds the step holds it too
        raise Rejected(reason)
    passes = (*state.passes, seat)
    if set(passes) >= set(state.seat_numbers()):
        leave(txn, flow)
    else:
        begin_turn(txn, flow, clockwise_after(seat, state.seats), done=state.done, passes=passes)


def seat_done(txn: Txn, flow: Flow, seat: int) -> None:
    """A seat signals done in a TOGETHER step; the step ends when all have."""
    state = txn.state
    if state.prompt is not None:
        raise Rejected(answer_first(state))
    step = flow.step(state.phase, state.step)
    if step.turns is not Turns.TOGETHER:
        raise Rejected(f"seats do not signal done during {step.title}")
    if seat in state.done:
        raise Rejected(f"seat {seat} is already done")
    done = tuple(sorted((*state.done, seat)))
    if set(done) >= set(state.seat_numbers()):
        if step.hold:
            reason = step.hold(state)
            if reason:
                raise Rejected(reason)
        leave(txn, flow)
    else:
        move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=None, done=done)


def begin_turn(txn: Txn, flow: Flow, seat: int, *, done: tuple[int, ...] = (),
               passes: tuple[int, ...] = ()) -> None:
    state = txn.state
    move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=seat, done=done, passes=passes)
    step = flow.step(state.phase, state.step)
    if step.turn_start:
        step.turn_start(txn)


def take_turn(txn: Txn, flow: Flow, seat: int) -> bool:
    """In a FREE step with no turn on, an owing seat that moves begins its turn (True when it did)."""
    state = txn.state
    if not state.step or flow.step(state.phase, state.step).turns is not Turns.FREE or state.active_seat is not None:
        return False
    if seat not in state.owing:
        raise Rejected(f"seat {seat} has had its turn this phase")
    begin_turn(txn, flow, seat, done=state.done)
    return True


def ask_next_seat(txn: Txn, seats: list[int]) -> None:
    txn.ask("flow.next_seat", "Who goes next?", [f"seat {s}" for s in seats], context={"seats": seats})


def choose_next_seat(txn: Txn, flow: Flow, index: int) -> None:
    seats = list(txn.state.prompt.context["seats"]) if txn.state.prompt else []
    txn.close_prompt()
    begin_turn(txn, flow, int(seats[index]), done=txn.state.done)


def leave(txn: Txn, flow: Flow) -> None:
    state = txn.state
    step = flow.step(state.phase, state.step)
    if step.leave:
        step.leave(txn)
        if txn.state.prompt is not None or txn.state.over is not None:
            return  # the step's own ending asked something or ended the game; ``next`` again later
    positions = flow.positions()
    index = next(i for i, (p, s) in enumerate(positions) if p.id == state.phase and s.id == step.id)
    _enter_from(txn, flow, index=index + 1, round_no=state.round)


def _enter_from(txn: Txn, flow: Flow, *, index: int, round_no: int) -> None:
    positions = flow.positions()
    skipped = 0
    while True:
        if index >= len(positions):
            if flow.round_end:
                flow.round_end(txn)
                if txn.state.over is not None:
                    return
            round_no += 1
            move(txn, round_no=round_no, phase=positions[0][0].id, step=positions[0][1].id, seat=None)
            if flow.round_start:
                flow.round_start(txn)
            index = 0
        phase, step = positions[index]
        state = txn.state
        if (phase.skip and phase.skip(state)) or (step.skip and step.skip(state)):
            index += 1
            skipped += 1
            if skipped > 4 * len(positions):
                raise Rejected("every step of the round is skipped; check the game's flow")
            continue
        break
    move(txn, round_no=round_no, phase=phase.id, step=step.id, seat=None)
    if step.turns in (Turns.CLOCKWISE, Turns.UNTIL_PASS):
        begin_turn(txn, flow, txn.state.lead)
    elif step.turns is Turns.FREE and txn.state.seats == 1:
        begin_turn(txn, flow, 1)
    elif step.turns is Turns.CHOSEN:
        if txn.state.seats == 1:
            begin_turn(txn, flow, 1)
        else:
            ask_next_seat(txn, list(_order_from(txn.state.lead, txn.state.seats)))
    if step.enter:
        step.enter(txn)
    state = txn.state
    if (state.phase, state.step) == (phase.id, step.id):
        _go_on(txn, flow, step, arrived=True)


def _order_from(first: int, seats: int) -> list[int]:
    return [((first - 1 + i) % seats) + 1 for i in range(seats)]
