"""End-of-story token rewards applied (OS-TIME-4), the one-player pass (OS-RND-4), what the seat
buttons mean (legend), and the odds worked out after the frame that answers a press; through the
verbs, the seat buttons and a real store."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.derived import DerivedViews
from tablekeeper.core.events import Command
from tablekeeper.games.oathsworn import GAME, plan
from tablekeeper.games.oathsworn.record import rec

from .helpers import encounter, new, no, ok, reloaded, seat, stored, to_turns, v


def tokens(s: object, n: int) -> dict[str, int]:
    return dict(seat(s, n)["tokens"])  # type: ignore[arg-type]


@pytest.mark.rule("OS-TIME-4")
def test_end_of_story_tokens_are_added_and_undo_takes_them_back(tmp_path: Path) -> None:
    """Chapter 1: slots 11 (a redraw token each) and 13 (a defense token each) still empty at the
    end of the story: every Oathsworn gains both; one undo takes the whole story end back."""
    save = str(tmp_path / "s.db")
    s = ok(stored(save), "time 10", "next")
    assert all(tokens(s, n)["redraw"] == 1 and tokens(s, n)["defense"] == 1 for n in (1, 2, 3, 4))
    assert rec(s.state).part == "encounter"
    assert reloaded(save).state == s.state
    s = ok(new(), "time 10", "next")
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)  # round 1's refresh, once
    assert s.undo().accepted
    assert all(sum(tokens(s, n).values()) == 0 for n in (1, 2, 3, 4)) and rec(s.state).part == "story"
    filled = ok(new(), "time 12", "next")  # slot 11 filled: only slot 13's defense token
    assert tokens(filled, 1)["redraw"] == 0 and tokens(filled, 1)["defense"] == 1


@pytest.mark.rule("OS-TIME-4")
def test_a_reward_of_any_token_is_each_seats_pick_from_its_buttons() -> None:
    """Chapter 2's slot 11 gives each Oathsworn a combat token of its choice: the station asks seat
    by seat; A takes the first kind, B the second, the panel answers any; nothing else goes on
    until all four have picked."""
    s = ok(new(chapter="2", flow="auto"), "next")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "token_pick" and prompt.seat == 1
    assert GAME.legend(s.state, 1) == "A: redraw B: empower" and GAME.legend(s.state, 2) is None
    assert GAME.button(s.state, "seat2.a", False) is None  # not seat 2's question
    a = GAME.button(s.state, "seat1.a", False)
    assert a is not None and s.perform(a).accepted
    b = GAME.button(s.state, "seat2.b", False)
    assert b is not None and s.perform(b).accepted
    ok(s, "choose 3", "choose 4")  # seat 3 a defense token, seat 4 an animus boost
    assert [tokens(s, n) for n in (1, 2, 3, 4)] == [
        {**dict.fromkeys(("redraw", "empowered", "defense", "animus", "battleflow"), 0), kind: 1}
        for kind in ("redraw", "empowered", "defense", "animus")]
    assert s.state.prompt is None and s.state.step == "refresh"  # round 1's refresh ran; encounter setup now
    assert (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)
    assert no(s, "choose 1")
    ok(s, "next")
    assert s.state.step == "turns" and (v(s, "seat1.animus_reserve"), v(s, "seat1.animus")) == (3, 3)  # once


def test_reward_data_is_checked(tmp_path: Path) -> None:
    from importlib import resources

    from tablekeeper.errors import ConfigError
    from tablekeeper.games.oathsworn.data import DEFAULT_NAME, load_text

    raw = resources.files("tablekeeper.games.oathsworn").joinpath("data", DEFAULT_NAME).read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(raw.replace('token = "redraw"', 'token = "gold"', 1), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"chapter\.1\.bottom\[2\]\.token: 'gold'"):
        load_text(str(bad))


def test_one_player_pass_ends_the_oathsworn_phase_and_next_ends_one_turn() -> None:
    """OS-RND-4: turns go on until every player declines. With one player that player's pass is
    everyone's; ``next`` (seat A) still ends only this Oathsworn's turn, so seat 2 can act."""
    solo = to_turns(encounter(seats=1))
    assert GAME.legend(solo.state, 1) == "A: end turn B: all done"
    ok(solo, "next")
    assert solo.state.active_seat == 2
    ok(solo, "move 2 1", "pass 2")
    assert solo.state.step == "stage"
    duo = to_turns(encounter(seats=2))
    assert GAME.legend(duo.state, 1) == "A: end turn B: pass"
    ok(duo, "pass 1")
    assert duo.state.step == "turns" and duo.state.active_seat == 2
    with_draw = ok(to_turns(encounter(seats=1)), "attack 1 head white=1")
    assert "open draw" in no(with_draw, "pass 1")


def _by_buttons(s: object) -> None:
    """B (pass) for the active seat, else NEXT."""
    state = s.state  # type: ignore[attr-defined]
    cmd = GAME.button(state, f"seat{state.active_seat}.b", False) if state.step == "turns" else Command("next")
    assert cmd is not None and s.perform(cmd).accepted  # type: ignore[attr-defined]


@pytest.mark.parametrize("players,lines", [(1, 2), (2, 5), (4, 5)])
def test_a_quiet_round_by_the_seat_buttons(players: int, lines: int) -> None:
    """A round in which nobody acts, by the buttons in the automatic flow: B (pass) for the active
    seat, NEXT once the stage card is resolved. Seats + 3 at most (issue 20)."""
    s = encounter(seats=players, flow="auto")
    while s.state.round < 2:
        _by_buttons(s)
    count = 0
    while s.state.round == 2:
        _by_buttons(s)
        count += 1
    assert count == lines <= players + 3


def test_odds_wait_for_the_answering_frame() -> None:
    """While the station sends the frame answering a press, a plan whose odds are not known yet
    shows "working them out"; they are worked out right after (``fill``), best count included."""
    s = ok(to_turns(encounter()), "plan 1 head white=7 redraws=1")
    views = DerivedViews()  # as in a fresh station: nothing worked out yet
    plan._KNOWN_ODDS.clear()
    with views.active(), views.deferred():
        panel = GAME.panels(s.state)["tokens"]
        GAME.view(s.state)
    assert panel.lines == ("working them out",)
    before = views.computed
    assert views.fill()
    assert views.computed > before
    with views.active(), views.deferred():
        panel = GAME.panels(s.state)["tokens"]
    assert panel.lines[0] == "chance to hit" and panel.lines[-1].startswith("best: ")
    assert panel.lines[-1] != "best: working"  # one pass after the frame worked out both
    assert v(s, "plan.white") == 7
    ok(s, "add plan.white -1")  # another count the best-count search already worked out: no wait
    with views.active(), views.deferred():
        assert GAME.panels(s.state)["tokens"].lines[:2] == ("chance to hit", "6 white cards")
