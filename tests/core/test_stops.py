"""Declared stops in the core flow, on a small game of its own: a step's stop halts the automatic
run (and says what the table does there), a flow's stop halts it at any step, the game's end is
judged before each step the station would run itself, and an ended game takes only undo and the
bookkeeping its flow names."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from msgspec.structs import replace

from tablekeeper.core.events import Command, NoticeKind
from tablekeeper.core.flow import Ending, Flow, Kind, Phase, Step, Stop
from tablekeeper.core.game import Game, Txn, Verb
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import Counter


def _tick(txn: Txn) -> None:
    txn.add("clock", 1)


def _time_out(txn: Txn) -> None:
    """Judged after effects, as Spirit Island judges its end: the clock at 5 loses the game."""
    if txn.value("clock") >= 5:
        txn.end("defeat: time ran out", result=Result.DEFEAT)


def _hold(txn: Txn, args: tuple[str, ...]) -> None:
    txn.put("held", True if args == ("on",) else None)


def _note(txn: Txn, args: tuple[str, ...]) -> None:
    txn.put("note", " ".join(args))


SETUP = Stop("setup: buy things, then next", "FIX-1", when=lambda s: s.round == 1)
HELD = Stop("held: hold off goes on", "FIX-2", when=lambda s: bool(s.get("held")))
FLOW = Flow(phases=(
    Phase("prep", "Prep", (Step("setup", kind=Kind.AUTO, stop=SETUP),)),
    Phase("clock", "Clock", (Step("tick", kind=Kind.AUTO, enter=_tick), Step("tock", kind=Kind.AUTO, enter=_tick))),
    Phase("play", "Play", (Step("act", kind=Kind.DECISION),)),
), stops=(HELD,), ending=Ending(frozenset({"note"}), "FIX-3", judge=_time_out))


class Clockwork(Game):
    name = "clockwork"
    flow = FLOW

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        return replace(state, tracks={"clock": Counter(0, 0, None)})

    def verbs(self) -> Mapping[str, Verb]:
        return {"hold": Verb("hold on|off", "", _hold), "note": Verb("note TEXT", "", _note)}


GAME = Clockwork()


def run(session: Session, *lines: str) -> None:
    for line in lines:
        verb, *args = line.split()
        outcome = session.perform(Command(verb, tuple(args)))
        assert outcome.accepted, f"{line}: {outcome.reason}"


def where(session: Session) -> tuple[int, str, int]:
    return session.state.round, session.state.step, session.state.value("clock")


def test_a_step_stop_halts_the_automatic_run_and_says_why() -> None:
    s = Session(GAME, seats=1, seed=1, options={"flow": "auto"})
    assert where(s) == (1, "setup", 0)  # round 1: the setup window, though the step is automatic
    run(s, "next")
    assert where(s) == (1, "act", 2)
    run(s, "next")  # round 2: the window is closed, the setup step runs by itself
    assert where(s) == (2, "act", 4) and "Setup" in s.view()["automatic"]


def test_the_stop_is_said_when_it_halts_a_run() -> None:
    s = Session(GAME, seats=1, seed=1, options={"flow": "auto"})
    run(s, "hold on", "next")
    assert where(s) == (1, "tick", 1)  # the flow's own stop holds at any step
    assert [(n.kind, n.text) for n in s.notes] == [(NoticeKind.STOP, HELD.what)]
    run(s, "hold off")  # nothing halts it now: the run goes on inside this command
    assert where(s) == (1, "act", 2)


@pytest.mark.parametrize("mode", ["auto", "walk"])
def test_the_end_is_judged_before_each_step_the_station_runs(mode: str) -> None:
    s = Session(GAME, seats=1, seed=1, options={"flow": mode})
    run(s, "next")
    while s.state.over is None:
        run(s, "next")
    assert where(s) == (3, "tick", 5) and s.state.result is Result.DEFEAT  # not tock, not act: both modes


def test_an_ended_game_takes_only_undo_and_its_bookkeeping() -> None:
    s = Session(GAME, seats=1, seed=1, options={"flow": "auto"})
    run(s, "next", "next", "next")
    assert s.state.over == "defeat: time ran out"
    for line in ("next", "hold on", "add clock -1"):
        verb, *args = line.split()
        outcome = s.perform(Command(verb, tuple(args)))
        assert not outcome.accepted and outcome.reason == "the game is over (defeat: time ran out): only undo and note"
    run(s, "note a close one")
    assert (where(s), s.state.get("note")) == ((3, "tick", 5), "a close one")
    run(s, "undo", "undo")
    assert s.state.over is None
