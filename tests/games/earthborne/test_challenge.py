"""Tests, challenge effects, the challenge deck and its exact odds."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from tablekeeper.core.chance import Deck
from tablekeeper.games.earthborne.data import load_challenge
from tablekeeper.games.earthborne.odds import success_chance
from tests.games.earthborne.helpers import do, in_play, refused, session, to_turns, tracks, view


def _deck_file(tmp_path: Path, plain: int, reshuffle: int) -> Path:
    rows = [f'{{ id = "p{i}", icon = "crest", awa = 0, fit = 0, spi = 0, foc = 0 }}' for i in range(plain)]
    rows += [f'{{ id = "r{i}", icon = "crest", awa = 0, fit = 0, spi = 0, foc = 0, reshuffle = true }}'
             for i in range(reshuffle)]
    path = tmp_path / "challenge.toml"
    path.write_text("cards = [\n" + ",\n".join(rows) + "\n]\n")
    return path


@pytest.mark.rule("ER-TEST-1")
@pytest.mark.parametrize(("card", "modifier", "result"), [("c11", -1, False), ("c01", 0, True), ("c19", 1, True)])
def test_er_test_1_effort_against_difficulty(card: str, modifier: int, result: bool) -> None:
    s = to_turns(session())
    do(s, "test 1 fit 2 energy=1 commit=1", f"reveal challenge {card}")  # 1 energy + a card with 1 icon
    t = view(s)["test"]
    assert view(s)["tracks"]["seat1.hand"] == 5
    assert t["modifier"] == modifier and t["total"] == 2 + modifier and t["success"] is result
    assert view(s)["awaiting"] == ("success effects" if result else "failure effects")
    do(s, "resolve")
    assert view(s)["log"][-1] == "test ends" or view(s)["awaiting"]


@pytest.mark.rule("ER-TEST-2")
def test_er_test_2_needs_one_energy_of_the_aspect() -> None:
    s = to_turns(session("set seat1.spi 0"))
    assert "SPI" in refused(s, "test 1 spi 1")
    assert "SPI" in refused(s, "test 1 spi 1 commit=5")  # whatever cards are in hand
    assert "at least 1" in refused(s, "test 1 awa 1 energy=0 effort=3")


@pytest.mark.rule("ER-TEST-3")
def test_er_test_3_ready_cards_in_between_fatigue() -> None:
    s = to_turns(session("card Target harm=3", "card Near area=reach seat=1 presence=2",
                         "card Far area=reach seat=1 presence=1 exhausted", "card Other area=reach seat=2 presence=3"))
    before = tracks(s)
    do(s, "test 1 awa 1 target=card1")
    assert tracks(s)["seat1.fatigue"] == before["seat1.fatigue"] + 2
    assert tracks(s)["seat1.deck"] == before["seat1.deck"] - 2


@pytest.mark.rule("ER-CHAL-1")
def test_er_chal_1_area_order_and_active_cards_only() -> None:
    s = to_turns(session("card Gear area=player seat=1 icons=sun", "card Own area=reach seat=1 icons=sun",
                         "card Theirs area=reach seat=2 icons=sun", "card Being icons=sun",
                         "card Rain area=weather icons=sun", "card Tired icons=sun exhausted",
                         "card Kit area=player seat=2 icons=sun"))
    do(s, "test 1 awa 9", "reveal challenge c01", "resolve")
    seen = []
    while view(s)["test"] is not None:
        seen.append(view(s)["test"]["current"])
        do(s, "resolve")
    assert seen == ["card5", "card4", "card2", "card1"]
    assert [e for e in view(s)["log"] if e.endswith(".sun")] == ["card5.sun", "card4.sun", "card2.sun", "card1.sun"]


@pytest.mark.rule("ER-CHAL-1")
def test_er_chal_1_players_order_within_one_area() -> None:
    s = to_turns(session("card A icons=sun", "card B icons=sun"))
    do(s, "test 1 awa 9", "reveal challenge c01", "resolve")
    assert s.view()["prompt"]["id"] == "effect.order"
    do(s, "choose 2", "resolve", "resolve")
    assert [e for e in view(s)["log"] if e.endswith(".sun")] == ["card2.sun", "card1.sun"]


@pytest.mark.rule("ER-CHAL-2")
def test_er_chal_2_challenge_tokens_are_not_placed_by_you() -> None:
    s = to_turns(session("card Feature progress=5 icons=sun", "response place-progress Trail seat=1"))
    do(s, "test 1 awa 9", "reveal challenge c01", "resolve")
    assert view(s)["test"]["current"] == "card1"
    do(s, "progress card1 1", "resolve")
    assert "Trail" not in view(s)["log"]
    do(s, "progress card1 1")  # the Ranger placing progress on their own turn does trigger it
    assert view(s)["log"][-1] == "Trail"


@pytest.mark.rule("ER-CHAL-3")
def test_er_chal_3_reshuffle_after_the_test(tmp_path: Path) -> None:
    s = to_turns(session(options={"challenge": str(_deck_file(tmp_path, 22, 1))}))
    for i in range(13):
        do(s, f"reveal challenge p{i}")
    assert view(s)["sources"]["challenge"]["remaining"] == 10
    assert view(s)["sources"]["challenge"]["discard"] == 13
    do(s, "test 1 awa 1", "reveal challenge r0")
    assert view(s)["sources"]["challenge"]["discard"] == 14  # not yet: the test is still running
    do(s, "resolve")
    assert view(s)["test"] is None
    assert view(s)["sources"]["challenge"]["remaining"] == 23
    assert view(s)["sources"]["challenge"]["discard"] == 0


def test_odds_are_exact_against_enumeration() -> None:
    _, _, cards = load_challenge(None)
    table = {c.id: {**c.modifiers} for c in cards}
    deck = Deck.plain("challenge", [c.id for c in cards])
    for aspect, effort, difficulty in product(("awa", "fit", "spi", "foc"), range(0, 5), range(0, 6)):
        wins = sum(1 for c in cards if max(0, effort + c.modifiers[aspect]) >= difficulty)
        assert success_chance(deck, table, aspect, effort, difficulty, 0) == Fraction(wins, len(cards))


def test_odds_follow_the_cards_left_in_the_deck() -> None:
    s = to_turns(session())
    do(s, "test 1 fit 1 energy=2")
    assert view(s)["test"]["odds"].startswith("11/12")  # only the two -2 cards fail
    do(s, "reveal challenge c17", "resolve")  # a FIT -2 card leaves the deck
    do(s, "odds fit 2 1")
    assert "22/23" in s.notices[0]


def test_reported_card_must_be_in_the_deck() -> None:
    s = to_turns(session())
    do(s, "test 1 fit 2", "reveal challenge c05")
    do(s, "resolve")
    do(s, "next", "turn 2", "test 2 fit 1")
    assert "c05 is not in the deck" in refused(s, "reveal challenge c05")
    assert "no challenge card 'c99'" in refused(s, "reveal challenge c99")
    assert in_play(s) == {}
