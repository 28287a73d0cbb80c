"""Where the automatic run stops in Earthborne, through the verbs of ``tablekeeper play`` in its
default flow: a day that ends inside the station's own steps is a declared stop (ER-DAY-1), so
nothing of the next round runs before ``newday``; the campaign's last day ends the session."""

from __future__ import annotations

import pytest

from tablekeeper.core.events import NoticeKind
from tablekeeper.core.state import Result
from tests.games.played import ok, opened, refused

# one quiet round up to the Ranger's turns for one Ranger, whose path card has no thresholds (ER-PATH-1)
DAY = ('location "Lone Tree" 3', "pathdeck 12", 'reveal path "Spiderline Stanchion"', "next")


@pytest.mark.rule("ER-DAY-1")
def test_a_day_that_ends_at_refresh_stops_there() -> None:
    play = ok(opened("earthborne", seats=1, seed=7), *DAY, "set seat1.deck 0")
    ok(play, "rest 1")  # the last rest: no travel to decide, Refresh runs: the Ranger cannot draw, the day ends
    state = play.session.state
    assert (state.round, state.phase, state.step) == (1, "refresh", "refresh")  # not round 2's path cards
    assert play.session.view()["day_end_reason"] == "cannot_draw"
    assert NoticeKind.STOP in [n.kind for n in play.session.notes]
    assert "use newday" in refused(play, "next")
    ok(play, "newday")
    assert (play.session.state.value("day"), play.session.state.phase) == (2, "path")


@pytest.mark.rule("ER-DAY-1")
def test_the_campaigns_last_day_ends_the_session() -> None:
    play = ok(opened("earthborne", seats=1, seed=7, day="30"), *DAY, "set seat1.deck 0", "rest 1", "newday")
    assert play.session.state.result is Result.DRAW
    for text in ("next", "rest 1", 'location "Lone Tree" 3'):
        assert refused(play, text).startswith("the game is over")
