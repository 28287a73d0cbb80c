"""A campaign's second pass: days that start fresh, the group's own path deck reported by name,
Ranger cards played and committed from hand, obstacles, tests only on a turn, guide entries on
entering play, Ranger-token clears, fatigue said aloud, undo that is no free re-draw, setup aspects."""

from __future__ import annotations

import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.earthborne import GAME
from tests.games.earthborne.helpers import PATH_CARDS, do, in_play, prompt, refused, session, to_turns, tracks, view

CAMP_DAY = ("location Ridge 1", "pathdeck 10", "reveal path Doe", "reveal path \"Stalking Cat\"",
            "card Survey area=mission progress=3", "card Pack area=player seat=1", "progress card3 2",
            "rtoken 1 card1", "next", "play 1 Rope cost=fit:1 equip=4", "progress location 1", "next", "rest 2",
            "rest 1", "next", "choose 1")


@pytest.mark.rule("ER-DAY-1")
@pytest.mark.rule("ER-SETUP-1")
def test_a_new_day_starts_fresh_at_the_camp() -> None:
    s = session(*CAMP_DAY)
    assert view(s)["gear"] == {"1": {"Rope": 4}}
    do(s, "camp Marsh 3 terrain=swamp")
    assert view(s)["record"] == {"location": "Marsh", "threshold": "3", "terrain": "swamp"}
    do(s, "newday")
    v = view(s)
    assert v["location"]["name"] == "Marsh" and v["tracks"]["location.threshold"] == 3
    assert (v["tracks"]["location.progress"], v["tracks"]["location.harm"]) == (0, 0)
    assert list(v["cards"]) == ["card3"]  # the mission stays, without tokens; path and player cards are gone
    assert v["tracks"]["card3.progress"] == 0 and v["cards"]["card3"]["rtokens"] == []
    assert v["gear"] == {} and v["path_built"] is False
    assert "pathdeck" in refused(s, "reveal path Doe")  # the day's path deck is built first
    do(s, "pathdeck 9", "reveal path Doe", PATH_CARDS, "next", "equip 1 Boots 3")
    assert prompt(s) is None  # yesterday's Rope no longer counts against the equip limit


@pytest.mark.rule("ER-DAY-1")
def test_camp_names_where_the_group_camps() -> None:
    s = session(*CAMP_DAY)
    assert "travelled to" in refused(s, "camp terrain=swamp")  # not the place the group left
    do(s, "camp Marsh terrain=swamp", "newday")
    assert view(s)["location"]["name"] == "Marsh" and any("location \"Marsh\" N" in n for n in s.notices)
    arrived = session(*CAMP_DAY, "arrive Fen 2r terrain=bog")
    do(arrived, "camp")  # a bare camp after arriving: the group camps where it now is
    assert view(arrived)["record"] == {"location": "Fen", "threshold": "2r", "terrain": "bog"}
    do(arrived, "newday")
    assert view(arrived)["location"]["name"] == "Fen" and tracks(arrived)["location.threshold"] == 4


@pytest.mark.rule("ER-DAY-1")
def test_a_day_that_ends_without_camping_records_where_the_group_is() -> None:
    s = to_turns(session("location Ridge 2", "pathdeck 10", "progress location 1"))
    do(s, "fatigue 1 30")
    assert view(s)["day_end_reason"] == "too_fatigued"
    assert view(s)["record"] == {"location": "Ridge", "threshold": "2", "terrain": None}
    do(s, "newday")
    assert view(s)["location"]["name"] == "Ridge" and tracks(s)["location.progress"] == 0


@pytest.mark.rule("ER-DAY-1")
@pytest.mark.rule("ER-SETUP-1")
@pytest.mark.parametrize("built", ["pathdeck woods lone_tree_station", "next"])
def test_a_day_ended_where_it_began_builds_tomorrows_deck_from_todays_terrain(built: str) -> None:
    """Day 1 at Lone Tree Station with the Woods set, ended by fatigue before any travel: the terrain
    was not recorded, so day 2 asked the group to build its deck again; it is the deck's terrain."""
    s = do(Session(GAME, seats=2, seed=7), built)  # the campaign's start, no deck built yet
    if built == "next":  # Phase 1's question: which deck the group built
        options = prompt(s)["options"]
        do(s, f"choose {next(i for i, o in enumerate(options, 1) if o.startswith('Woods'))}")
    do(s, 'reveal path "Sitka Doe"', 'reveal path "Sunberry Bramble"', "next", "turn 1", "fatigue 1 30")
    assert view(s)["record"] == {"location": "Lone Tree Station", "threshold": "3r", "terrain": "woods"}
    do(s, "newday")
    assert view(s)["path_built"] and view(s)["sources"]["path"]["remaining"] == 17
    assert "path deck built: the Woods set (12) + the Lone Tree Station set (5)" in view(s)["log"]


@pytest.mark.rule("ER-PATH-1")
def test_path_cards_new_to_the_device_are_reported_once_and_remembered() -> None:
    s = session("pathdeck 4")
    reason = refused(s, "reveal path Thornbush")
    assert "new to the device" in reason and "progress=" in reason
    assert "did you mean 'Sunberry Bramble'" in refused(s, "reveal path \"Sunbery Bramble\"")
    do(s, "reveal path Thornbush progress=2r harm=- presence=2 arrow=down type=feature obstacle")
    bush = in_play(s)["card1"]
    assert (bush["area"], bush["seat"], bush["presence"]) == ("reach", 1, 2)
    assert "obstacle" in bush["keywords"] and tracks(s)["card1.progress_threshold"] == 4
    do(s, "reveal path Thornbush")  # asked once: the second copy needs only its name
    assert "did you mean 'Thornbush'" in refused(s, "reveal path Thornbsh extra")  # a remembered card is known too
    assert in_play(s)["card2"]["seat"] == 2 and view(s)["known_path"] == ["Thornbush"]
    assert view(s)["sources"]["path"]["remaining"] == 2
    assert "report it" in refused(s, "draw path extra")  # the device cannot turn over the group's own cards
    do(s, "discard card1")
    assert view(s)["sources"]["path"]["discard"] == 1
    do(s, "reveal path doe extra", "reveal path \"OLD STUMP\" extra")  # any case: the printed name is kept
    assert [c["name"] for c in in_play(s).values()] == ["Thornbush", "Doe", "Old Stump"]
    assert view(s)["sources"]["path"]["remaining"] == 0
    assert "holds no 'Doe'" in refused(s, "reveal path Doe extra")  # reshuffled: the deck is the discard now
    do(s, "reveal path Thornbush extra")
    assert "path deck reshuffled" in view(s)["log"]


@pytest.mark.rule("ER-PATH-1")
def test_a_core_path_card_needs_only_its_name() -> None:
    s = session()
    do(s, "reveal path \"sitka buck\"")
    buck = in_play(s)["card1"]
    assert (buck["name"], buck["area"], buck["seat"], buck["presence"], buck["icons"]) == \
        ("Sitka Buck", "reach", 1, 1, ["sun", "mountain", "crest"])
    assert (tracks(s)["card1.progress_threshold"], tracks(s)["card1.harm_threshold"]) == (5, 3)
    do(s, "reveal path \"Hydraworm\"")  # a card no one checked against its face says so
    assert any("Hydraworm: its numbers are unverified" in n for n in s.notices)


@pytest.mark.rule("ER-PATH-1")
def test_card_verb_follows_whose_path_card_it_is_and_reaches_the_discard() -> None:
    s = session("pathdeck 4", "reveal path Doe", "card \"Stalking Cat\"", seats=3)
    assert in_play(s)["card2"]["seat"] == 2  # seat 2's path card comes next in phase 1
    do(s, "discard card2")
    assert view(s)["sources"]["path"]["discard"] == 1
    # next!: the table goes on without the other path cards, so the card put in play in phase 2 is card3
    do(s, "next!", "turn 3", "card \"Stalking Cat\"")
    assert in_play(s)["card3"]["seat"] == 3  # in phase 2: the Ranger whose turn it is


def test_play_and_commit_take_cards_from_hand() -> None:
    s = to_turns(session("pathdeck 4", "card Doe harm=3"))
    assert "phase 2" in refused(session(), "play 1 Trick")
    do(s, "play 1 \"Walk With Me\" cost=spi:1")
    t = tracks(s)
    assert (t["seat1.hand"], t["seat1.spi"]) == (5, 1)
    do(s, "next", "test 2 awa 2 commit=2 icons=3 target=card1")
    assert view(s)["test"]["effort"] == 1 + 3 and tracks(s)["seat2.hand"] == 4
    assert "card(s) in hand" in refused(session(PATH_CARDS, "next"), "test 1 awa 1 commit=7")


def test_commit_keeps_the_deck_true_so_cannot_draw_ends_the_day() -> None:
    s = to_turns(session("set seat1.deck 0"))
    do(s, "test 1 awa 1 commit=6")
    assert tracks(s)["seat1.hand"] == 0
    do(s, "draw challenge", "resolve", "next", "rest 2", "rest 1", "next", "next")
    assert view(s)["day_end_reason"] == "cannot_draw"


@pytest.mark.rule("ER-TEST-3")
def test_a_ready_obstacle_between_prevents_interacting() -> None:
    s = to_turns(session("card Boulder area=reach seat=1 obstacle", "card Doe"))
    reason = refused(s, "test 1 awa 1 target=card2")
    assert "obstacle Boulder (card1)" in reason
    do(s, "test 2 awa 1 target=card2", "undo")  # seat 2's reach is not in the way
    do(s, "exhaust card1", "test 1 awa 1 target=card2")  # an exhausted obstacle neither blocks nor fatigues
    assert tracks(s)["seat1.fatigue"] == 0


def test_tests_are_refused_outside_a_turn() -> None:
    s = session("card Doe")
    assert "phase 2" in refused(s, "test 1 awa 1 target=card1")


@pytest.mark.rule("ER-PATH-1")
def test_guide_entry_is_read_when_a_card_enters_play() -> None:
    s = session("pathdeck 4", "reveal path Doe progress=2 guide=12")
    assert "read campaign guide entry 12" in view(s)["awaiting"]
    assert "resolve first" in refused(s, "reveal path Doe")  # resolved completely before the next card
    do(s, "resolve", "reveal path Doe")
    assert "entry 12" in view(s)["awaiting"]


@pytest.mark.rule("ER-CLEAR-1")
def test_a_card_clears_when_every_rangers_token_is_on_it() -> None:
    s = session("card \"Lost Trail\" rangers", "rtoken 1 card1")
    assert "card1" in in_play(s)
    do(s, "rtoken 2 card1")
    assert view(s)["clears"] == [{"card": "card1", "name": "Lost Trail", "cleared_by": "rangers",
                                  "cleared_by_ranger": None, "discarded": True}]


def test_with_tokens_and_rangers_all_reached_the_group_picks_the_kind() -> None:
    s = session("card Camp progress=1 rangers", "step s", "progress card1 1", "rtoken 1 card1", "rtoken 2 card1",
                "resolve")
    p = prompt(s)
    assert p is not None and p["options"] == ["progress", "rangers"]
    do(s, "choose 2")
    assert view(s)["clears"][0]["cleared_by"] == "rangers"


@pytest.mark.rule("ER-TEST-3")
def test_fatigue_from_cards_in_between_is_said() -> None:
    s = to_turns(session(*(f"card C{i} area=reach seat=1" for i in range(3)), "card Far"))
    do(s, "test 1 awa 1 target=card4")
    assert any("suffers 3 fatigue" in n and "3 card(s)" in n and "C0, C1, C2" in n for n in s.notices)


def test_undo_takes_back_a_draw_that_comes_up_the_same_again() -> None:
    s = to_turns(session())
    do(s, "test 1 awa 1", "draw challenge")
    first = view(s)["test"]["card"]
    do(s, "undo")
    assert s.notices == (f"undone: draw challenge (drew challenge {first})",)
    do(s, "draw challenge")
    assert view(s)["test"]["card"] == first


@pytest.mark.rule("ER-SETUP-1")
def test_aspects_at_setup_set_round_one_energy() -> None:
    s = session("aspects 1 1 3 2 2")
    assert [tracks(s)[f"seat1.{a}"] for a in ("awa", "fit", "spi", "foc")] == [1, 3, 2, 2]
    do(s, PATH_CARDS, "next", "aspects 2 2 2 2 2")  # later in the day: the aspects change, the energy does not
    assert tracks(s)["seat2.awa"] == 3


def test_a_path_deck_built_before_the_session_is_an_option() -> None:
    s = session(options={"pathdeck": "5"})
    assert view(s)["path_built"] is True and view(s)["sources"]["path"]["remaining"] == 5
    do(s, "pathdeck 6")  # a correction, before any card is drawn from it
    do(s, "reveal path Doe")
    assert view(s)["sources"]["path"]["remaining"] == 5
    assert "already built and drawn from" in refused(s, "pathdeck 7")
