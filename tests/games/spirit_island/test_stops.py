"""Where the automatic run stops in Spirit Island, through the verbs of ``tablekeeper play`` in its
default flow: the game's end is a declared stop, judged before each step the station runs itself,
so time running out at turn 12's Explore (SI-END-2) ends the game there and nothing runs after it."""

from __future__ import annotations

import pytest

from tablekeeper.commands.play import Runner
from tablekeeper.core.flow import Turns
from tablekeeper.core.state import Result
from tests.games.played import ok, opened, refused
from tests.games.spirit_island.helpers import answer_counts


def play_until_over(play: Runner, limit: int = 600) -> None:
    """A plain table: the rules' answer to every Invader question, each Spirit done, else next."""
    for _ in range(limit):
        state = play.session.state
        if state.over is not None:
            return
        step = play.session.game.flow.step(state.phase, state.step)
        if state.prompt is not None and state.prompt.id.startswith("si.counts."):
            answer_counts(play.session)  # board by board, no Blight: the game lasts until time runs out
        elif state.prompt is not None:
            ok(play, "choose 1")
        elif step.turns is Turns.TOGETHER:
            ok(play, f"done {state.owing[0]}")
        else:
            ok(play, "next")
    raise AssertionError("the game did not end")


@pytest.mark.rule("SI-END-2")
def test_time_running_out_at_explore_ends_the_game_there() -> None:
    play = opened("spirit_island", seats=1, seed=3)
    play_until_over(play)
    state = play.session.state
    assert state.result is Result.DEFEAT and "Invader deck is empty" in str(state.over)
    assert (state.round, state.phase, state.step) == (12, "invader", "explore")  # not turn 13's Spirit Phase
    assert state.value("invader.cards_left") == 0
    assert not {"Advance cards", "Time Passes"} & set(play.session.view()["automatic"])
    for text in ("next", "done 1", "add fear.generated +1", "fear 1"):  # nothing runs after the ending
        assert refused(play, text).startswith("the game is over")
    ok(play, "undo")
    assert play.session.state.over is None


@pytest.mark.rule("SI-END-2")
def test_the_blighted_island_running_out_mid_ravage_is_defeat_at_once() -> None:
    """The card's last Blight goes in A2 during the station's Ravage: the Spirits lose there, before
    A5's Blight and before any cascade (once waiting for the Ravage's end, a cascade bouncing between
    two blighted lands never ended and a land reached 101 Blight)."""
    play = opened("spirit_island", seats=1, seed=1)
    ok(play, "choose 1", "next", "done 1", "choose 1", "next")  # turn 2's Growth; Ravage in Wetland due
    # done 1: the Blighted Island step (Downward Spiral: the seat's Presence is not in a land) runs by itself
    ok(play, "land A2 blight=1", "land A5 blight=1", "set blight.flipped 1", "set blight.card 1", "done 1")
    assert play.session.state.prompt is not None and play.session.state.prompt.text.startswith("Ravage in Wetland")
    ok(play, "choose 1")  # as the rules place them: A2's Blight takes the card's last
    state = play.session.state
    assert state.result is Result.DEFEAT and "ran out of Blight" in str(state.over)
    assert (state.round, state.phase, state.step) == (2, "invader", "ravage")
    assert state.prompt is None  # no cascade asked for after the ending
    assert play.session.view()["spirit_island"]["lands"]["A5"]["blight"] == 1  # the Ravage stopped at A2
    assert refused(play, "cascade A1").startswith("the game is over")


@pytest.mark.rule("SI-END-2")
def test_a_powers_cascade_that_empties_the_blighted_island_loses_before_the_power_ends() -> None:
    play = opened("spirit_island", seats=1, seed=1)
    ok(play, "choose 1", "next", "land A1 blight=1", "land A2 blight=1")
    ok(play, "set blight.flipped 1", "set blight.card 2", "begin Power", "blight A1")
    assert play.session.state.over is None  # one Blight left on the card: the cascade is asked
    ok(play, "cascade A2")
    state = play.session.state
    assert state.result is Result.DEFEAT and "ran out of Blight" in str(state.over) and state.prompt is None
    assert refused(play, "cascade A1").startswith("the game is over")
