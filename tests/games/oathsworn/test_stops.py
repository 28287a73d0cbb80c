"""Where the automatic run stops in Oathsworn, through the verbs of ``tablekeeper play`` in its
default flow: the encounter setup (OS-ESET-5, -8, -10) is a declared stop at round 1's Refresh, so
the ``next`` that ends the story never runs past the place where the lead, the hands and the
companions' archetype sides are chosen."""

from __future__ import annotations

import pytest

from tablekeeper.core.events import NoticeKind
from tablekeeper.games.oathsworn.record import rec
from tests.games.played import line, ok, opened, refused

HAND = "Jab:0 Slash:1 Guard:1 Cleave:2 Parry:2 Roar:3 Rush:3"


@pytest.mark.rule("OS-ESET-10")
def test_the_next_that_ends_the_story_stops_at_encounter_setup() -> None:
    play = opened("oathsworn", seats=4, companions="4")
    ok(play, "next")  # the story ends: its rewards, then the encounter
    state = play.session.state
    assert (state.round, state.phase, state.step, state.active_seat) == (1, "refresh", "refresh", None)
    assert [n.kind for n in play.session.notes][-1] is NoticeKind.STOP  # the table is told what it does here
    ok(play, "lead 3", f"hand 1 {HAND}", "archetype 4 Guardian B")
    assert play.session.view()["automatic"] == []
    ok(play, "next")  # round 1 begins: the lead chosen at setup takes the first turn
    state = play.session.state
    assert (state.phase, state.step, state.active_seat, state.lead) == ("oathsworn", "turns", 3, 3)
    assert "encounter setup" in refused(play, "lead 2")  # the window has closed


def test_a_fresh_encounter_opens_at_its_setup_in_the_default_flow_as_in_walk() -> None:
    auto = opened("oathsworn", seats=4, part="encounter")
    walk = opened("oathsworn", seats=4, part="encounter", walk=True)
    for play in (auto, walk):
        state = play.session.state
        assert (state.round, state.phase, state.step) == (1, "refresh", "refresh")
        ok(play, "lead 2", f"hand 1 {HAND}")
    assert line(auto, "next").accepted and auto.session.state.active_seat == 2


@pytest.mark.rule("OS-TALLY-9")
def test_after_the_tally_next_names_the_item_losses_still_to_tick_off() -> None:
    """A defeat moved on from: ``next`` asks for the tally, and once it is done names the losses left
    (it kept saying "tally", and a second tally is refused), until the last ``lose`` ends the chapter."""
    play = ok(opened("oathsworn", seats=4, part="encounter"), "next",
              *(f"set seat{n}.hp 0" for n in range(1, 5)), "choose 2")  # defeat: move on
    assert refused(play, "next") == "the encounter is over: tally"
    ok(play, "tally")
    reason = refused(play, "next")
    assert reason.startswith("the tally is done; tick off the lost items (lose SEAT ITEM): seat 1 (2)")
    due = dict(rec(play.session.state).losses_due or {})
    assert reason.endswith(", ".join(f"seat {n} ({k})" for n, k in due.items()))
