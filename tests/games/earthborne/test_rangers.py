"""Path draws, turn order, resting, refresh, fatigue, injuries, days, setup, gear and Ranger tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.earthborne.helpers import PATH_CARDS, do, in_play, prompt, refused, session, to_turns, tracks, view

SEVEN = """cards = [
  { name = "Fern", progress = "2", arrow = "up", copies = 7 },
]
"""


@pytest.mark.rule("ER-PATH-1")
def test_er_path_1_empty_path_deck_reshuffles_its_discard(tmp_path: Path) -> None:
    path = tmp_path / "path.toml"
    path.write_text(SEVEN)
    s = session(seats=3, options={"path": str(path)})
    for extra in ("", "", "", " extra", " extra"):  # one card each, then two that effects draw
        do(s, "draw path" + extra)
    for key in list(in_play(s)):
        do(s, f"discard {key}")
    assert view(s)["sources"]["path"]["remaining"] == 2 and view(s)["sources"]["path"]["discard"] == 5
    do(s, "next", "rest 1", "rest 2", "rest 3", "next", "next", "next")  # into round 2's path step
    do(s, "draw path", "draw path")
    assert view(s)["sources"]["path"]["remaining"] == 0
    assert "path deck reshuffled" not in view(s)["log"]
    do(s, "draw path")
    assert "path deck reshuffled" in view(s)["log"]
    assert view(s)["sources"]["path"] == {"type": "deck", "remaining": 4, "discard": 0, "stage": 1}
    assert len(in_play(s)) == 3


@pytest.mark.rule("ER-PATH-1")
def test_er_path_1_down_arrow_goes_within_reach_of_who_drew() -> None:
    s = session("pathdeck 12", seats=3)
    do(s, "reveal path Doe", "reveal path \"Stalking Cat\"")
    cards = in_play(s)
    assert cards["card1"]["area"] == "along"
    assert cards["card2"]["area"] == "reach" and cards["card2"]["seat"] == 2  # the second draw is seat 2's
    do(s, "reveal path \"Stalking Cat\" 3")
    assert in_play(s)["card3"]["seat"] == 3


@pytest.mark.rule("ER-PATH-1")
def test_er_path_1_each_card_resolved_before_the_next() -> None:
    s = session("pathdeck 12", "step enters play")
    assert "resolve first" in refused(s, "reveal path Doe")
    do(s, "resolve", "reveal path Doe")


@pytest.mark.rule("ER-TURN-1")
def test_er_turn_1_no_two_turns_in_a_row() -> None:
    s = to_turns(session(seats=3), 1)
    do(s, "play 1 Rope", "next")
    assert "another Ranger" in refused(s, "turn 1")
    do(s, "turn 1 role")  # exhausting the role card allows it
    do(s, "play 1 Rope", "next", "turn 2", "rest 2", "turn 3", "rest 3")
    do(s, "turn 1")  # the only Ranger not rested may go again without exhausting
    assert view(s)["active_seat"] == 1


@pytest.mark.rule("ER-TURN-1")
@pytest.mark.rule("ER-ROUND-1")
def test_a_turn_ended_with_no_action_does_not_let_the_ranger_before_go_again() -> None:
    """A turn is one action: seat 2 opened a turn by mistake and ended it with nothing done. Counted as
    seat 2's turn, it let seat 1 take a second turn in a row without exhausting the role card."""
    s = to_turns(session(seats=2), 1)
    do(s, "play 1 Rope", "next", "turn 2", "next")
    assert any("seat 2's turn ends with no action taken" in n for n in s.notices)
    assert view(s)["turns"]["last"] == 1
    assert "seat 1 just took a turn" in refused(s, "turn 1")
    do(s, "turn 2", "play 2 Rope", "next", "turn 1")  # once seat 2 has acted, seat 1 goes again


@pytest.mark.rule("ER-TURN-1")
def test_er_turn_1_role_card_exhausts_once() -> None:
    s = to_turns(session(seats=3), 1)
    do(s, "next", "turn 1 role", "next")
    assert "already exhausted" in refused(s, "turn 1 role")


@pytest.mark.rule("ER-REST-1")
def test_er_rest_1_fatigue_per_injury_and_no_more_turns() -> None:
    s = to_turns(session(), 1)
    do(s, "injure 1", "injure 1")
    before = tracks(s)
    do(s, "rest 1")
    after = tracks(s)
    assert after["seat1.fatigue"] == before["seat1.fatigue"] + 2
    assert after["seat1.deck"] == before["seat1.deck"] - 2
    assert 1 in view(s)["turns"]["rested"]
    assert "rested" in refused(s, "turn 1")


@pytest.mark.rule("ER-REFRESH-1")
def test_er_refresh_1_energy_set_to_aspects() -> None:
    s = to_turns(session("aspects 1 3 2 2 1"), 1)
    do(s, "add seat1.awa -2", "add seat1.fit +2")
    assert tracks(s)["seat1.awa"] == 1 and tracks(s)["seat1.fit"] == 4
    hand = tracks(s)["seat1.hand"]
    do(s, "rest 1", "rest 2", "next", "next")
    assert view(s)["phase"] == "refresh"
    assert tracks(s)["seat1.awa"] == 3 and tracks(s)["seat1.fit"] == 2
    assert tracks(s)["seat1.hand"] == hand + 1


@pytest.mark.rule("ER-REFRESH-1")
def test_er_refresh_1_empty_deck_ends_the_day() -> None:
    s = to_turns(session(), 1)
    do(s, "set seat2.deck 0", "rest 1", "rest 2", "next", "next")
    assert view(s)["day_end_reason"] == "cannot_draw" and view(s)["day_end_pending"] == "now"
    assert "newday" in refused(s, "next")


@pytest.mark.rule("ER-FATIGUE-1")
def test_er_fatigue_1_too_few_cards_ends_the_day() -> None:
    s = session("set seat1.deck 2", "fatigue 1 3")
    assert view(s)["day_end_reason"] == "too_fatigued" and view(s)["day_end_pending"] == "now"
    assert tracks(s)["seat1.deck"] == 2
    assert "has ended" in refused(s, "card Doe")


@pytest.mark.rule("ER-INJURY-1")
def test_er_injury_1_third_injury_ends_the_day_after_the_turn() -> None:
    s = to_turns(session("injure 1", "injure 1"), 1)
    do(s, "fatigue 1 5")
    do(s, "injure 1")
    t = tracks(s)
    assert t["seat1.injury"] == 3 and t["seat1.fatigue"] == 0
    assert view(s)["day_end_pending"] == "end_of_current_turn"
    do(s, "next")  # the turn ends: so does the day
    assert view(s)["day_end_pending"] == "now" and view(s)["day_end_reason"] == "third_injury"


@pytest.mark.rule("ER-DAY-1")
def test_er_day_1_camping_ends_the_day_and_records_it() -> None:
    s = session("location L 1", "progress location 1", PATH_CARDS, "next", "rest 1", "rest 2", "next", "choose 1",
                options={"day": "4"})
    do(s, "camp L terrain=T")
    v = view(s)
    assert v["crossed"] == [4]
    assert v["record"] == {"location": "L", "threshold": None, "terrain": "T"}
    assert v["day_end_reason"] == "camped"
    do(s, "newday")
    v = view(s)
    assert v["tracks"]["day"] == 5 and v["weather"] == "Downpour"  # day 5's card in the default day track
    assert v["phase"] == "path" and v["round"] == 1
    assert v["location"]["name"] == "L" and v["day_end_reason"] is None


@pytest.mark.rule("ER-DAY-1")
def test_er_day_1_entries_above_a_day_are_announced(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign.toml"
    campaign.write_text('days = 30\nweather = [{ from = 1, to = 30, card = "Fog" }]\n'
                        'entries = [{ day = 5, entry = "94.1" }]\n')
    s = session("set seat1.deck 0", "rdraw 1", options={"day": "4", "campaign": str(campaign)})
    do(s, "newday")
    assert any("94.1" in n for n in s.notices) and view(s)["weather"] == "Fog"


@pytest.mark.rule("ER-SETUP-1")
def test_er_setup_1_energy_equals_aspects_and_six_cards() -> None:
    s = session(options={"aspects1": "3,2,2,1", "aspects2": "1,3,2,2"})
    t = tracks(s)
    assert [t[f"seat1.{a}"] for a in ("awa", "fit", "spi", "foc")] == [3, 2, 2, 1]
    assert [t[f"seat2.{a}"] for a in ("awa", "fit", "spi", "foc")] == [1, 3, 2, 2]
    assert t["seat1.hand"] == 6 and t["seat1.deck"] == 24


@pytest.mark.rule("ER-GEAR-1")
def test_er_gear_1_equip_limit_asks_for_a_discard() -> None:
    s = session("equip 1 Rope 2", "equip 1 Boots 2")
    assert prompt(s) is None
    do(s, "equip 1 Pack 2")
    p = prompt(s)
    assert p is not None and p["id"] == "gear.discard"
    do(s, "choose 1")
    assert prompt(s) is None and sum(view(s)["gear"]["1"].values()) <= 5


@pytest.mark.rule("ER-RTOKEN-1")
def test_er_rtoken_1_other_rangers_tokens_add_effort() -> None:
    s = session("card X harm=3 type=being", "rtoken 2 card1", "rtoken 3 card1", "rtoken 1 card1", seats=3)
    to_turns(s, 1)
    do(s, "test 1 awa 3 target=card1")
    assert view(s)["test"]["effort"] == 1 + 2  # own token gives nothing
