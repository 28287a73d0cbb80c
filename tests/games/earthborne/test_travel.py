"""Locations never clear; travel is offered at the travel step when progress meets the threshold."""

from __future__ import annotations

import pytest

from tablekeeper.core.session import Session
from tests.games.earthborne.helpers import PATH_CARDS, do, in_play, prompt, refused, session, to_turns, tracks, view
from tests.games.played import ok, opened


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
    s = session("location Ridge 4", "progress location 4", PATH_CARDS, "next", "rest 1", "rest 2", "next")
    assert view(s)["phase"] == "travel"
    p = prompt(s)
    assert p is not None and p["id"] == "travel"
    do(s, "choose 2")
    assert view(s)["phase"] == "refresh"
    assert view(s)["location"]["name"] == "Ridge" and tracks(s)["location.progress"] == 4

    short = session("location Ridge 4", "progress location 3", PATH_CARDS, "next", "rest 1", "rest 2", "next")
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
                PATH_CARDS, "next", "rest 1", "rest 2", "next")
    assert prompt(s) is None
    assert "obstacle" in refused(s, "travel")
    do(s, "exhaust card1", "travel")
    p = prompt(s)
    assert p is not None and p["id"] == "travel"


@pytest.mark.rule("ER-TRAVEL-2")
def test_er_travel_2_only_persistent_cards_stay() -> None:
    s = session("location Ridge 1", "progress location 1", "card Hiker persistent", "card A", "card B", "card C",
                PATH_CARDS, "next", "rest 1", "rest 2", "next", "choose 1")
    assert list(in_play(s)) == ["card1"]
    assert "arrive" in refused(s, "next")
    do(s, "arrive Marsh 3 terrain=swamp")
    assert "path deck" in refused(s, "next")  # the new path deck is built first (a guided step)
    do(s, "pathdeck 9")
    assert view(s)["phase"] == "travel"  # the arrival setup draws from it, then next goes on
    do(s, "next")
    assert view(s)["phase"] == "refresh" and view(s)["sources"]["path"]["remaining"] == 9
    assert view(s)["location"]["name"] == "Marsh" and tracks(s)["location.progress"] == 0
    assert view(s)["record"] == {"location": "Marsh", "threshold": "3", "terrain": "swamp"}


# --- the Valley map (the core box's locations and paths) --------------------------------------------

def _travel_from_lone_tree() -> Session:
    """Day 1 at Lone Tree Station (threshold 3 per Ranger: 6), progress enough, the travel prompt answered."""
    return session("progress location 6", PATH_CARDS, "next", "rest 1", "rest 2", "next", "choose 1")


@pytest.mark.rule("ER-TRAVEL-2")
def test_the_campaign_starts_at_lone_tree_station_with_its_printed_threshold() -> None:
    s = session(seats=3)
    assert view(s)["location"]["name"] == "Lone Tree Station" and tracks(s)["location.threshold"] == 9
    assert view(s)["weather"] == "A Perfect Day"


@pytest.mark.rule("ER-TRAVEL-2")
def test_travel_goes_along_a_path_of_the_map_and_takes_its_terrain() -> None:
    s = _travel_from_lone_tree()
    assert any("Boulder Field by woods" in n for n in s.notices)  # the connected locations are named
    reason = refused(s, "arrive Meadow")
    assert "Meadow is not connected to Lone Tree Station" in reason and "Atrox Mountain by mountain pass" in reason
    assert "is lakeshore, not woods" in refused(s, "arrive \"White Sky\" terrain=woods")
    do(s, "arrive \"white sky\"")  # any case; the printed name is kept
    assert view(s)["record"] == {"location": "White Sky", "threshold": None, "terrain": "lakeshore"}
    assert tracks(s)["location.threshold"] == 6  # 3 per Ranger, from the card
    assert view(s)["path_built"] and view(s)["sources"]["path"]["remaining"] == 16  # Lakeshore 12 + White Sky 4
    assert "path deck built: the Lakeshore set (12) + the White Sky set (4)" in view(s)["log"]


@pytest.mark.rule("ER-TRAVEL-2")
def test_a_non_pivotal_location_takes_three_unseen_valley_cards() -> None:
    s = _travel_from_lone_tree()
    do(s, "arrive \"Ancestor's Grove\"", "reveal path \"Quisi Vos, Rascal\"", "resolve")  # a Valley card
    assert view(s)["sources"]["path"]["remaining"] == 14  # Old-Growth 12 + 3 Valley, one turned over
    assert "holds no 'Hy Pimpot, Chef'" in refused(s, "reveal path \"Hy Pimpot, Chef\"")


@pytest.mark.rule("ER-TRAVEL-2")
def test_a_card_that_goes_further_names_the_terrain_it_uses() -> None:
    s = _travel_from_lone_tree()
    do(s, "arrive Meadow terrain=grassland")  # two paths away (a spiderline): the group says the terrain
    assert view(s)["record"]["terrain"] == "grassland" and view(s)["sources"]["path"]["remaining"] == 16


@pytest.mark.rule("ER-LOC-2")
def test_a_location_printed_with_the_ranger_token_needs_every_token_to_travel() -> None:
    s = session("location \"The Fractured Wall\"")
    assert tracks(s)["location.threshold"] is None and view(s)["location"]["rtoken_clear"]
    do(s, PATH_CARDS, "next", "rtoken 1 location", "rest 1", "rest 2", "next")
    assert any("missing: seat 2" in n for n in s.notices) and view(s)["prompt"] is None  # no travel offered
    do(s, "next", "next", "rtoken 2 location", PATH_CARDS, "next", "rest 1", "rest 2", "next")
    assert view(s)["prompt"]["id"] == "travel"


@pytest.mark.rule("ER-LOC-2")
def test_an_x_threshold_waits_for_the_table_to_give_it() -> None:
    s = session("location \"Sunken Outpost\"")
    assert tracks(s)["location.threshold"] is None
    assert "threshold" in refused(s, "next")
    do(s, "location \"Sunken Outpost\" 4", PATH_CARDS, "next")
    assert tracks(s)["location.threshold"] == 4


def test_an_unknown_location_needs_its_threshold_and_a_near_name_is_suggested() -> None:
    s = session()
    assert "did you mean 'Golden Shore'" in refused(s, "location \"Golden Shores\"")
    do(s, "location Ridge 2")
    assert tracks(s)["location.threshold"] == 2


@pytest.mark.rule("ER-TRAVEL-2")
def test_an_arrival_setup_that_discards_a_searched_card_leaves_the_leads_draw_to_the_lead() -> None:
    """Lone Tree Station's back: search the path deck for the next predator and discard it, then the
    lead Ranger draws 1. Reported as a card put in play and discarded, the predator counted as the
    lead's draw and the lead's card went within reach of seat 2."""
    s = session("location \"Boulder Field\"", "pathdeck woods valley=3", "reveal path \"Sitka Doe\"",
                "reveal path \"Sunberry Bramble\"", "next", "progress location 8", "rest 1", "rest 2", "next",
                "choose 1", "arrive \"Lone Tree Station\"")
    deck = view(s)["sources"]["path"]
    do(s, "reveal path \"Prowling Wolhund\" discard")
    assert in_play(s) == {} and "Prowling Wolhund goes from the path deck to its discard" in s.notices[-1]
    assert view(s)["sources"]["path"]["remaining"] == deck["remaining"] - 1
    assert view(s)["sources"]["path"]["discard"] == deck["discard"] + 1
    assert "usage: reveal path NAME discard" in refused(s, "reveal path \"Prowling Wolhund\" 2 discard")
    assert "reveal path NAME discard" in refused(s, "draw path discard")  # the table found the card, not the device
    do(s, "reveal path \"Sitka Buck\"")
    assert in_play(s)["card3"]["seat"] == 1  # the lead's card, within the lead's reach


@pytest.mark.rule("ER-LOC-2")
@pytest.mark.rule("ER-TRAVEL-1")
def test_the_automatic_flow_passes_a_travel_step_with_nothing_to_decide() -> None:
    """After the last rest with too little progress the station waited at Travel for a NEXT nothing on
    the displays asked for; it now runs Travel and Refresh by itself. Enough progress asks "Travel?";
    enough progress and a ready obstacle stop there, so the group may deal with it and offer travel."""
    setup = ("pathdeck woods lone_tree_station", 'reveal path "Sitka Doe"', 'reveal path "Sunberry Bramble"', "next")
    short = ok(opened("earthborne", seats=2, seed=7), *setup, "rest 1", "rest 2")
    assert (short.session.state.round, short.session.state.phase) == (2, "path")
    assert any("no travel: location progress 0/6" in n.text for n in short.session.notes)
    enough = ok(opened("earthborne", seats=2, seed=7), *setup, "set location.progress 6", "rest 1", "rest 2")
    assert enough.session.state.phase == "travel" and enough.session.state.prompt is not None
    blocked = ok(opened("earthborne", seats=2, seed=7), *setup, "card Shale Scree", "set location.progress 6",
                 "rest 1", "rest 2")
    assert blocked.session.state.phase == "travel" and blocked.session.state.prompt is None
    ok(blocked, "exhaust card3", "travel")
    assert blocked.session.state.prompt is not None
