"""Locations never clear; travel is offered at the travel step when progress meets the threshold."""

from __future__ import annotations

import pytest

from tests.games.earthborne.helpers import do, in_play, prompt, refused, session, to_turns, tracks, view


def to_travel(*setup: str) -> object:
    s = to_turns(session(*setup))
    do(s, "rest 1", "rest 2", "next")
    return s


@pytest.mark.rule("ER-LOC-1")
def test_er_loc_1_location_never_clears() -> None:
    s = to_turns(session("location Ridge 4"))
    do(s, "progress location 6")
    assert view(s)["work"] == [] and view(s)["clears"] == []
    assert tracks(s)["location.progress"] == 6
    assert view(s)["location"]["name"] == "Ridge"


@pytest.mark.rule("ER-LOC-2")
def test_er_loc_2_travel_offered_at_threshold_and_optional() -> None:
    s = session("location Ridge 4", "progress location 4", "next", "rest 1", "rest 2", "next")
    assert view(s)["phase"] == "travel"
    p = prompt(s)
    assert p is not None and p["id"] == "travel"
    do(s, "choose 2")
    assert view(s)["phase"] == "refresh"
    assert view(s)["location"]["name"] == "Ridge" and tracks(s)["location.progress"] == 4

    short = session("location Ridge 4", "progress location 3", "next", "rest 1", "rest 2", "next")
    assert view(short)["phase"] == "travel" and prompt(short) is None
    assert "not enough" in refused(short, "travel")


@pytest.mark.rule("ER-LOC-3")
def test_er_loc_3_threshold_checked_when_travel_step_begins() -> None:
    s = to_turns(session("location Ridge 4"))
    do(s, "progress location 4", "progress location -2", "rest 1", "rest 2", "next")
    assert view(s)["phase"] == "travel" and prompt(s) is None
    kept = to_turns(session("location Ridge 4"))
    do(kept, "progress location 4", "rest 1", "rest 2", "next")
    assert prompt(kept) is not None


@pytest.mark.rule("ER-LOC-4")
def test_er_loc_4_harm_on_location_neither_clears_nor_counts() -> None:
    s = to_turns(session("location Ridge 3"))
    do(s, "harm location 5", "rest 1", "rest 2", "next")
    assert view(s)["phase"] == "travel" and prompt(s) is None
    assert view(s)["clears"] == [] and tracks(s)["location.harm"] == 5


@pytest.mark.rule("ER-ROUND-1")
def test_er_round_1_no_travel_phase_before_everyone_rests() -> None:
    s = to_turns(session())
    do(s, "rest 1")
    assert "seat 2" in refused(s, "next")
    do(s, "rest 2", "next")
    assert view(s)["phase"] == "travel"
    phases = []
    for _ in range(2):
        phases.append(view(s)["phase"])
        do(s, "next")
    assert phases == ["travel", "refresh"] and view(s)["phase"] == "path" and view(s)["round"] == 2


@pytest.mark.rule("ER-TRAVEL-1")
def test_er_travel_1_ready_obstacle_blocks_travel() -> None:
    s = session("location Ridge 2", "progress location 2", "card Boulder progress=3 obstacle",
                "next", "rest 1", "rest 2", "next")
    assert prompt(s) is None
    assert "obstacle" in refused(s, "travel")
    do(s, "exhaust card1", "travel")
    p = prompt(s)
    assert p is not None and p["id"] == "travel"


@pytest.mark.rule("ER-TRAVEL-2")
def test_er_travel_2_only_persistent_cards_stay() -> None:
    s = session("location Ridge 1", "progress location 1", "card Hiker persistent", "card A", "card B", "card C",
                "next", "rest 1", "rest 2", "next", "choose 1")
    assert list(in_play(s)) == ["card1"]
    assert "arrive" in refused(s, "next")
    do(s, "arrive Marsh 3 terrain=swamp")
    assert "path deck" in refused(s, "next")  # the new path deck is built first (a guided step)
    do(s, "pathdeck 9")
    assert view(s)["phase"] == "refresh" and view(s)["sources"]["path"]["remaining"] == 9
    assert view(s)["location"]["name"] == "Marsh" and tracks(s)["location.progress"] == 0
    assert view(s)["record"] == {"location": "Marsh", "threshold": "3", "terrain": "swamp"}
