"""Rules a real table broke (one action per turn, Phase 1's setup, one path card per Ranger, challenge
cards only for a waiting test), each reproduced through the verbs as the table typed it."""

from __future__ import annotations

import pytest

from tablekeeper.core.script import parse_line
from tablekeeper.games.earthborne import pathdeck
from tests.games.earthborne.helpers import PATH_CARDS, do, in_play, refused, session, to_turns, view

CHALLENGE_FOR_A_TEST = "sun1"  # any card: the test only needs to be settled


@pytest.mark.rule("ER-ROUND-1")
def test_a_second_test_in_the_same_turn_is_refused() -> None:
    s = to_turns(session())
    do(s, "test 1 awa 1", f"reveal challenge {CHALLENGE_FOR_A_TEST}", "resolve")
    assert view(s)["test"] is None and view(s)["active_seat"] == 1
    reason = refused(s, "test 1 fit 1")
    assert "seat 1 already tested AWA this turn" in reason and "next ends it" in reason
    assert "already tested" in refused(s, "play 1 Rope")
    assert "already tested" in refused(s, "rest 1")
    do(s, "next")  # the turn ends; seat 2 may go
    do(s, "play 2 Rope")


@pytest.mark.rule("ER-ROUND-1")
def test_two_cards_played_in_one_turn_are_refused() -> None:
    s = to_turns(session())
    do(s, "play 1 Rope")
    assert "already played Rope" in refused(s, "play 1 Rope")
    assert "already played Rope" in refused(s, "test 1 awa 1")


@pytest.mark.rule("ER-TURN-1")
def test_a_card_played_with_no_turn_open_begins_that_turn_and_says_so() -> None:
    s = session()
    do(s, PATH_CARDS, "next")  # Ranger turns; nobody has begun a turn
    assert view(s)["active_seat"] is None
    parsed = parse_line("play 1 Rope")
    assert parsed is not None
    outcome = s.perform(parsed.command)
    assert outcome.accepted and view(s)["active_seat"] == 1
    assert any("seat 1's turn begins" in n.text for n in s.notes)
    reason = refused(s, "turn 1")
    assert "seat 1's turn is already under way (it played Rope)" in reason and "just took" not in reason
    do(s, "next", "turn 2")


@pytest.mark.rule("ER-TURN-1")
@pytest.mark.parametrize("seats", [1, 2])
def test_the_last_unrested_ranger_takes_turns_in_a_row_without_the_role(seats: int) -> None:
    """Solo, or once every other Ranger rested, the same Ranger goes again without exhausting the role."""
    s = session(seats=seats)
    do(s, PATH_CARDS, "next")
    if seats == 2:
        do(s, "rest 2")
    for _ in range(3):
        do(s, "turn 1", "play 1 Rope", "next")
    assert view(s)["turns"]["role_exhausted"] == [] and view(s)["turns"]["last"] == 1


@pytest.mark.rule("ER-TURN-1")
def test_with_another_ranger_unrested_the_same_ranger_needs_the_role() -> None:
    s = session(seats=2)
    do(s, PATH_CARDS, "next", "turn 1", "play 1 Rope", "next")
    assert "another Ranger goes next" in refused(s, "turn 1")
    assert "another Ranger goes next" in refused(s, "play 1 Rope")
    do(s, "turn 1 role")
    assert view(s)["turns"]["role_exhausted"] == [1]


@pytest.mark.rule("ER-PATH-1")
@pytest.mark.rule("ER-SETUP-1")
def test_phase_one_waits_for_the_path_deck_and_the_location_threshold() -> None:
    s = session(options={"pathdeck": "0", "day": "2"})  # day 2: no starting location is placed
    assert "location" in refused(s, "next")
    do(s, "location Ridge -")
    assert "threshold" in refused(s, "next")
    do(s, "location Ridge 2")
    assert "pathdeck" in refused(s, "next")
    do(s, "pathdeck 9", PATH_CARDS, "next")
    assert view(s)["phase"] == "turns"


@pytest.mark.rule("ER-SETUP-1")
@pytest.mark.rule("ER-TRAVEL-2")
def test_phase_one_asks_which_path_deck_when_the_terrain_is_not_known() -> None:
    """Day 1 at Lone Tree Station: no path taken yet, so next asks which terrain set went in (one per
    path reaching the station) instead of going on with no path deck."""
    s = session(options={"pathdeck": "0"})
    do(s, "next")
    p = view(s)["prompt"]
    assert p["id"] == "path.build" and view(s)["phase"] == "path"
    assert p["options"] == ["Mountain Pass + Lone Tree Station (17)", "Lakeshore + Lone Tree Station (17)",
                            "Woods + Lone Tree Station (17)", "Old-Growth + Lone Tree Station (17)"]
    do(s, "choose 3")
    assert view(s)["path_built"] and view(s)["sources"]["path"]["remaining"] == 17
    assert view(s)["phase"] == "path"  # the group now draws its path cards from it
    do(s, "reveal path \"Prowling Wolhund\"")
    assert "holds no 'Hydraworm'" in refused(s, "reveal path Hydraworm")  # not a Woods or Lone Tree card
    do(s, "reveal path \"Sitka Doe\"", "next")  # seat 2's card, also from the Woods set
    assert view(s)["phase"] == "turns"


@pytest.mark.rule("ER-DAY-1")
@pytest.mark.rule("ER-SETUP-1")
def test_a_new_day_at_a_camp_without_a_threshold_waits_for_it() -> None:
    s = session("location Ridge 1", PATH_CARDS, "next", "progress location 1", "rest 1", "rest 2", "next", "choose 1",
                "camp Hollow")  # a location the device does not know, no threshold given
    do(s, "newday")
    assert view(s)["location"]["name"] == "Hollow" and view(s)["tracks"]["location.threshold"] is None
    do(s, "pathdeck 9")
    assert "threshold" in refused(s, "next")
    do(s, "location Hollow 3", PATH_CARDS, "next")


@pytest.mark.rule("ER-PATH-1")
def test_each_ranger_draws_one_path_card_in_phase_one() -> None:
    s = session("pathdeck 12", seats=4)
    for name in ("Doe", "Doe", "Spring", "Spring"):
        do(s, f"reveal path {name}")
    reason = refused(s, "reveal path Doe")
    assert "4 of 4" in reason and "extra" in reason
    do(s, "reveal path \"Stalking Cat\" extra")  # a card an effect draws during the phase
    assert len(in_play(s)) == 5
    assert in_play(s)["card5"]["seat"] == 4  # it belongs to the Ranger whose card drew it


@pytest.mark.rule("ER-PATH-1")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_path_card_reported_for_a_seat_out_of_turn_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                                  protection: str) -> None:
    """A table named seat 2 for the lead's card: without the check seat 2 got both cards, seat 1 none,
    and ``next`` counted everyone as having drawn."""
    s = session("pathdeck 12")
    if protection == "protection-removed":
        monkeypatch.setattr(pathdeck, "out_of_turn_draw", lambda state, seat: None)
        do(s, "reveal path \"Stalking Cat\" 2", "reveal path Lost Hiker", "next")
        assert [c["seat"] for c in in_play(s).values()] == [2, 2]
        return
    reason = refused(s, "reveal path \"Stalking Cat\" 2")
    assert "seat 1 draws the next path card" in reason and "extra" in reason
    assert "seat 1 draws the next path card" in refused(s, "pass 2")
    do(s, "reveal path \"Stalking Cat\" 1", "reveal path Lost Hiker 2")
    assert [c["seat"] for c in in_play(s).values()] == [1, 2]
    do(s, "reveal path \"Stalking Cat\" 1 extra")  # an effect's card may be any Ranger's
    assert in_play(s)["card3"]["seat"] == 1


@pytest.mark.rule("ER-PATH-1")
@pytest.mark.rule("ER-SETUP-1")
def test_a_new_lead_is_refused_while_the_rounds_path_cards_are_part_drawn() -> None:
    """The lead drew; the group then elected seat 2 lead. The order counted from the new lead gave seat 1
    the second card as well, seat 2 none, and next went on."""
    s = session("pathdeck 12")
    do(s, "reveal path \"Stalking Cat\"")
    reason = refused(s, "lead 2")
    assert "seat 2 draws next" in reason and "once each Ranger has drawn" in reason
    do(s, "lead 1", "reveal path Lost Hiker")  # the lead as it is: nothing changes
    assert [c["seat"] for c in in_play(s).values()] == [1, 2]
    do(s, "lead 2")  # every Ranger drew: the new lead draws first next round
    do(s, "next", "rest 1", "rest 2", "next", "next", "next")
    assert view(s)["owing"] == [2, 1]


def test_a_misspelt_card_put_in_play_is_refused_with_the_card_it_probably_is() -> None:
    """``card "Topside Mats"`` went in as a new card with no thresholds, presence or challenge effects,
    along the way (the Mast's numbers lost); the name is refused and the printed one suggested."""
    s = session()
    reason = refused(s, "card \"Topside Mats\"")
    assert "did you mean 'Topside Mast'?" in reason and "progress=" in reason
    assert "did you mean 'Lost Hiker'?" in refused(s, "card Lost Hikr")
    assert in_play(s) == {}
    do(s, "card \"Topside Mast\"")  # the printed name brings its numbers
    assert in_play(s)["card1"]["harm"] == "6" and in_play(s)["card1"]["guide"] == 42
    do(s, "card \"Topside Mats\" progress=2 harm=-")  # a card of the group's own, numbers given
    do(s, "card Far")  # nothing known is near: a card with no thresholds, as the group says
    assert [c["name"] for c in in_play(s).values()] == ["Topside Mast", "Topside Mats", "Far"]


def test_a_challenge_card_reported_with_no_test_waiting_is_refused() -> None:
    s = to_turns(session())
    deck = view(s)["sources"]["challenge"]
    reason = refused(s, f"reveal challenge {CHALLENGE_FOR_A_TEST}")
    assert "no test is waiting" in reason and "effect" in reason
    assert "no test is waiting" in refused(s, "draw challenge")
    assert view(s)["sources"]["challenge"] == deck
    do(s, f"reveal challenge {CHALLENGE_FOR_A_TEST} effect")  # an arrival setup or a card's text drew it
    assert view(s)["sources"]["challenge"]["remaining"] == deck["remaining"] - 1

