"""Buttons -> commands: pending +/- gathered into one command, back cancels or undoes, select cycles."""

from __future__ import annotations

import pytest

from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.errors import Rejected
from tablekeeper.station.controls import Controls
from tests.core.fixture_game import GAME


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


def test_repeated_presses_become_one_pending_change_then_one_command() -> None:
    clock = FakeClock()
    s = Session(GAME, seats=2, seed=1)
    c = Controls(GAME, clock=clock, pending_window_s=1.5)
    for _ in range(3):
        assert c.press("up", s.state) == []
        clock.now_s += 0.4
    assert c.pending is not None and c.pending.text() == "doom 0 -> 3 (+3)"
    assert c.tick(s.state) == []  # 0.4 s since the last press: still counting
    clock.now_s += 1.2
    commands = c.tick(s.state)
    assert commands == [Command("add", ("doom", "+3"), origin="button")]
    assert c.pending is None


def test_pending_change_stays_within_the_track_bounds() -> None:
    s = Session(GAME, seats=2, seed=1)
    c = Controls(GAME, clock=FakeClock())
    c.press("down", s.state)
    assert c.pending is not None and c.pending.delta == 0
    for _ in range(5):
        c.hold("up", s.state)  # a hold steps by five
    assert c.pending.target == 12


def test_back_cancels_a_pending_change_else_undoes_and_hold_redoes() -> None:
    s = Session(GAME, seats=2, seed=1)
    c = Controls(GAME, clock=FakeClock())
    c.press("up", s.state)
    assert c.press("back", s.state) == [] and c.pending is None
    assert c.press("back", s.state) == [Command("undo", origin="button")]
    assert c.hold("back", s.state) == [Command("redo", origin="button")]


def test_next_commits_the_pending_change_first() -> None:
    s = Session(GAME, seats=2, seed=1)
    c = Controls(GAME, clock=FakeClock())
    c.press("up", s.state)
    c.press("up", s.state)
    assert c.press("next", s.state) == [Command("add", ("doom", "+2"), origin="button"),
                                        Command("next", origin="button")]


def test_select_cycles_tracks_and_seat_buttons_ask_the_game() -> None:
    s = Session(GAME, seats=2, seed=1)
    c = Controls(GAME, clock=FakeClock())
    assert c.selected(s.state) == "doom"
    c.press("select", s.state)
    assert c.selected(s.state) == "seat1.actions"
    c.hold("select", s.state)
    assert c.selected(s.state) == "doom"
    assert c.press("seat2.a", s.state) == [Command("spend", ("seat2",), origin="button")]
    with pytest.raises(Rejected, match=r"seat 1's B button does nothing"):
        c.press("seat1.b", s.state)
    with pytest.raises(Rejected, match="unknown button"):
        c.press("seat9.z", s.state)


def test_an_open_prompt_is_answered_from_the_panel() -> None:
    s = Session(GAME, seats=2, seed=1)
    c = Controls(GAME, clock=FakeClock())
    for line in ("next", "next"):
        s.perform(Command(line))
    assert s.state.prompt is not None and s.state.prompt.options == ("seat 1", "seat 2")
    assert c.prompt_text(s.state) == "1 of 2: seat 1"
    assert c.press("down", s.state) == []
    assert c.prompt_text(s.state) == "2 of 2: seat 2"
    c.press("select", s.state)  # wraps round
    assert c.prompt_text(s.state) == "1 of 2: seat 1"
    c.press("up", s.state)
    commands = c.press("next", s.state)
    assert commands == [Command("choose", ("2",), origin="button")]
    assert s.perform(commands[0]).accepted and s.state.active_seat == 2
    assert c.prompt_text(s.state) is None and c.pending is None
