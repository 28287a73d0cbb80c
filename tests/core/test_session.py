"""The session: commands -> events, rejection changes nothing, undo/redo/rewind by replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tests.core.fixture_game import GAME


def cmd(text: str) -> Command:
    verb, *args = text.split()
    return Command(verb, tuple(args))


def view_without_log(session: Session) -> dict[str, object]:
    v = session.view()
    v.pop("log_length")
    v.pop("notices")
    return v


def test_next_then_undo_gives_the_initial_state(session: Session) -> None:
    before = view_without_log(session)
    assert session.perform(cmd("next")).accepted
    assert session.state != session.initial
    assert session.undo().accepted
    assert session.state == session.initial
    assert view_without_log(session) == before
    assert session.log_length == 2  # the undo is itself logged


def test_rejected_command_changes_nothing_and_gives_a_reason(session: Session) -> None:
    state = session.state
    out = session.perform(cmd("set doom 99"))
    assert not out.accepted
    assert "doom cannot go above 12" in (out.reason or "")
    out = session.perform(cmd("frobnicate"))
    assert not out.accepted and "unknown verb 'frobnicate'" in (out.reason or "")
    out = session.perform(cmd("set nosuch 1"))
    assert not out.accepted and "unknown track 'nosuch'" in (out.reason or "")
    assert session.state is state
    assert session.log_length == 0


def test_redo_reproduces_the_same_draw(session: Session) -> None:
    drawn = [session.perform(cmd("draw bag")).events[0]["outcome"] for _ in range(5)]
    after = session.state
    for _ in range(5):
        assert session.undo().accepted
    for _ in range(5):
        assert session.redo().accepted
    assert session.state == after
    redone = [e.events[0]["outcome"] for e in session.line]
    assert redone == drawn


def test_undo_crosses_turns_and_rounds(session: Session) -> None:
    script = ["next", "next", "choose 1", "next", "next", "pass 1", "pass 2", "done 1", "done 2"]
    states = [session.state]
    for line in script:
        assert session.perform(cmd(line)).accepted, line
        states.append(session.state)
    assert session.state.round == 2
    for expected in reversed(states[:-1]):
        assert session.undo().accepted
        assert session.state == expected
    assert not session.undo().accepted


def test_rewind_returns_to_just_before_an_entry_and_redo_restores(session: Session) -> None:
    for line in ["add doom +1", "next", "add doom +1", "next"]:
        assert session.perform(cmd(line)).accepted
    end = session.state
    third = session.line[2].index
    assert session.rewind(third).accepted
    assert session.state.value("doom") == 1 and session.state.active_seat == 2
    assert session.redo().accepted and session.redo().accepted
    assert session.state == end
    assert not session.rewind(999).accepted


def test_a_new_command_after_undo_drops_the_redo_line(session: Session) -> None:
    session.perform(cmd("add doom +1"))
    session.undo()
    session.perform(cmd("add doom +2"))
    assert not session.redo().accepted
    assert session.state.value("doom") == 2


def test_reopening_from_the_log_gives_the_same_state(session: Session) -> None:
    for line in ["draw bag", "next", "add doom +2", "draw deck", "next", "choose 2"]:
        session.perform(cmd(line))
    session.undo()
    session.undo()
    session.redo()
    again = Session(GAME, seats=2, seed=7, entries=session.entries)
    assert again.state == session.state
    assert again.log_length == session.log_length


def test_threshold_announces_and_the_game_reacts(session: Session) -> None:
    out = session.perform(cmd("add doom +3"))
    assert out.accepted
    assert session.notices == ("doom reached 3",)
    assert session.state.over == "defeat: doom reached 3"
    assert not session.perform(cmd("next")).accepted


COMMANDS = st.sampled_from(
    ["next", "choose 1", "choose 2", "choose 3", "undo", "redo", "add doom +1", "add doom -1",
     "add doom +5", "set doom 2", "spend", "spend 1", "spend 2", "pass 1", "pass 2", "done 1", "done 2",
     "draw bag", "draw deck", "draw dice", "reveal bag skull", "reveal bag nothing", "reveal dice 7 1",
     "add seat1.actions -1", "set seat2.actions 4"]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(COMMANDS, max_size=40), st.integers(0, 2**16))
def test_replay_equals_state_and_bounds_hold(lines: list[str], seed: int) -> None:
    session = Session(GAME, seats=2, seed=seed)
    for line in lines:
        before = session.state
        out = session.perform(cmd(line))
        if not out.accepted:
            assert session.state is before
        for name, counter in session.state.tracks.items():
            assert counter.lo is None or counter.value >= counter.lo, name
            assert counter.hi is None or counter.value <= counter.hi, name
    assert session.replay() == session.state
    assert Session(GAME, seats=2, seed=seed, entries=session.entries).state == session.state


@settings(max_examples=60, deadline=None)
@given(st.lists(COMMANDS, max_size=25), COMMANDS.filter(lambda c: c not in ("undo", "redo")))
def test_command_then_undo_gives_the_original_state(prefix: list[str], line: str) -> None:
    session = Session(GAME, seats=2, seed=3)
    for text in prefix:
        session.perform(cmd(text))
    before = session.state
    if session.perform(cmd(line)).accepted:
        session.undo()
    assert session.state == before
