"""Flow: steps as data, skip conditions, every turn order, prompts blocking ``next``."""

from __future__ import annotations

from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tests.core.fixture_game import GAME, FixtureRecord


def run(session: Session, *lines: str) -> None:
    for line in lines:
        verb, *args = line.split()
        out = session.perform(Command(verb, tuple(args)))
        assert out.accepted, f"{line}: {out.reason}"


def where(session: Session) -> tuple[int, str, str, int | None]:
    s = session.state
    return s.round, s.phase, s.step, s.active_seat


def test_phase_skipped_in_round_one_but_not_later() -> None:
    s = Session(GAME, seats=3, seed=1)
    assert where(s) == (1, "action", "turns", 1)
    run(s, "next", "next", "next")  # three clockwise turns
    assert where(s)[1:3] == ("free", "chosen")
    run(s, "choose 1", "next", "choose 1", "next", "next", "pass 1", "pass 2", "pass 3", "done 1", "done 2", "done 3")
    assert where(s) == (2, "mythos", "doom", None)
    assert s.state.value("doom") == 1  # the step's begin hook ran


def test_clockwise_turns_start_at_the_lead() -> None:
    s = Session(GAME, seats=3, seed=1)
    seen = [s.state.active_seat]
    run(s, "next")
    seen.append(s.state.active_seat)
    run(s, "next")
    seen.append(s.state.active_seat)
    assert seen == [1, 2, 3]


def test_chosen_order_prompts_and_blocks_next_until_answered() -> None:
    s = Session(GAME, seats=3, seed=1)
    run(s, "next", "next", "next")
    assert s.state.prompt is not None and s.state.prompt.options == ("seat 1", "seat 2", "seat 3")
    out = s.perform(Command("next"))
    assert not out.accepted and "answer the prompt first" in (out.reason or "")
    run(s, "choose 3")
    assert s.state.active_seat == 3
    run(s, "next")
    assert s.state.prompt is not None and s.state.prompt.options == ("seat 1", "seat 2")
    run(s, "choose 2", "next")  # only seat 1 remains: no prompt needed
    assert s.state.active_seat == 1 and s.state.prompt is None


def test_until_pass_needs_every_seat_to_pass_in_a_row() -> None:
    s = Session(GAME, seats=2, seed=1)
    run(s, "next", "next", "choose 1", "next", "next")
    assert where(s)[1:] == ("fight", "rounds", 1)
    run(s, "pass 1", "next")  # seat 2 acts instead of passing: the run of passes breaks
    assert s.state.active_seat == 1 and s.state.passes == ()
    assert not s.perform(Command("pass", ("2",))).accepted  # not seat 2's turn
    run(s, "pass 1", "pass 2")
    assert where(s)[1:3] == ("power", "together")


def test_together_step_ends_when_every_seat_is_done() -> None:
    s = Session(GAME, seats=3, seed=1)
    run(s, "next", "next", "next", "choose 1", "next", "choose 1", "next", "next", "pass 1", "pass 2", "pass 3")
    run(s, "done 2")
    assert not s.perform(Command("done", ("2",))).accepted
    run(s, "done 3")
    assert s.state.round == 1
    run(s, "done 1")
    assert s.state.round == 2


def test_a_prompt_from_a_step_hook() -> None:
    s = Session(GAME, seats=1, seed=1)
    run(s, "next", "next", "pass 1", "done 1", "next")
    assert s.state.prompt is not None and s.state.prompt.id == "weather"
    assert not s.perform(Command("choose", ("3",))).accepted
    run(s, "choose 2")
    assert s.state.typed(FixtureRecord).weather == "rain"


def test_seats_cannot_pass_or_finish_while_a_prompt_is_open() -> None:
    s = Session(GAME, seats=2, seed=1)
    run(s, "next", "next", "choose 1", "next", "next", "pass 1", "pass 2")
    assert s.state.step == "together"
    run(s, "done 1", "done 2", "next")
    assert s.state.prompt is not None  # round 2's weather prompt
    before = s.state
    for verb in ("done", "pass"):
        out = s.perform(Command(verb, ("1",)))
        assert not out.accepted and (out.reason or "").startswith("answer the prompt first"), out.reason
    assert s.state is before
