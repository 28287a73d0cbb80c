"""Tests, challenge effects, the challenge deck and its exact odds."""

from __future__ import annotations

import tomllib
from collections import Counter
from fractions import Fraction
from importlib.resources import files
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.core.chance import Deck
from tablekeeper.games.earthborne.data import ASPECTS, load_challenge
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
@pytest.mark.parametrize(("card", "modifier", "result"), [("mountain2", -1, False), ("mountain1", 0, True),
                                                          ("mountain4", 1, True)])
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
    do(s, "test 1 awa 9", "reveal challenge sun1", "resolve")
    seen = []
    while view(s)["test"] is not None:
        seen.append(view(s)["test"]["current"])
        do(s, "resolve")
    assert seen == ["card5", "card4", "card2", "card1"]
    assert [e for e in view(s)["log"] if e.endswith(".sun")] == ["card5.sun", "card4.sun", "card2.sun", "card1.sun"]


@pytest.mark.rule("ER-CHAL-1")
def test_er_chal_1_players_order_within_one_area() -> None:
    s = to_turns(session("card A icons=sun", "card B icons=sun"))
    do(s, "test 1 awa 9", "reveal challenge sun1", "resolve")
    assert s.view()["prompt"]["id"] == "effect.order"
    do(s, "choose 2", "resolve", "resolve")
    assert [e for e in view(s)["log"] if e.endswith(".sun")] == ["card2.sun", "card1.sun"]


@pytest.mark.rule("ER-CHAL-2")
def test_er_chal_2_challenge_tokens_are_not_placed_by_you() -> None:
    s = to_turns(session("card Feature progress=5 icons=sun", "response place-progress Trail seat=1"))
    do(s, "test 1 awa 9", "reveal challenge sun1", "resolve")
    assert view(s)["test"]["current"] == "card1"
    do(s, "progress card1 1", "resolve")
    assert "Trail" not in view(s)["log"]
    do(s, "progress card1 1")  # the Ranger placing progress on their own turn does trigger it
    assert view(s)["log"][-1] == "Trail"


@pytest.mark.rule("ER-CHAL-3")
def test_er_chal_3_reshuffle_after_the_test(tmp_path: Path) -> None:
    s = to_turns(session(options={"challenge": str(_deck_file(tmp_path, 22, 1))}))
    for i in range(13):
        do(s, f"reveal challenge p{i} effect")  # cards an effect draws, outside any test
    assert view(s)["sources"]["challenge"]["remaining"] == 10
    assert view(s)["sources"]["challenge"]["discard"] == 13
    do(s, "test 1 awa 1", "reveal challenge r0")
    assert view(s)["sources"]["challenge"]["discard"] == 14  # not yet: the test is still running
    do(s, "resolve")
    assert view(s)["test"] is None
    assert view(s)["sources"]["challenge"]["remaining"] == 23
    assert view(s)["sources"]["challenge"]["discard"] == 0


def test_odds_are_exact_against_enumeration() -> None:
    _, cards = load_challenge(None)
    table = {c.id: {**c.modifiers} for c in cards}
    deck = Deck.plain("challenge", [c.id for c in cards])
    for aspect, effort, difficulty in product(("awa", "fit", "spi", "foc"), range(0, 5), range(0, 6)):
        wins = sum(1 for c in cards if max(0, effort + c.modifiers[aspect]) >= difficulty)
        assert success_chance(deck, table, aspect, effort, difficulty, 0) == Fraction(wins, len(cards))


def test_odds_follow_the_cards_left_in_the_deck() -> None:
    s = to_turns(session())
    do(s, "test 1 fit 1 energy=2")
    assert view(s)["test"]["odds"].startswith("23/24")  # only the one FIT -2 card fails
    do(s, "reveal challenge sun2", "resolve")  # the FIT -2 card shows the reshuffle icon (ER-CHAL-3)
    do(s, "odds fit 2 1")
    assert "23/24" in s.notices[0]  # ... so the whole deck is back
    do(s, "next", "test 2 fit 1", "reveal challenge mountain2", "resolve")  # a FIT -1 card stays out
    do(s, "odds fit 1 1")
    assert "16/23" in s.notices[0]  # FIT 0 or +1: 10 + 6 of the 23 left


def test_reported_card_must_be_in_the_deck() -> None:
    s = do(session(), "next!", "turn 1")  # next!: no path card in play, so the check below sees none added
    do(s, "test 1 fit 2", "reveal challenge crest1")
    do(s, "resolve")
    do(s, "next", "turn 2", "test 2 fit 1")
    assert "crest1 is not in the deck" in refused(s, "reveal challenge crest1")
    assert "no challenge card 'c99'" in refused(s, "reveal challenge c99")
    assert in_play(s) == {}


def _printed_deck() -> list[dict[str, Any]]:
    """The packaged challenge deck read straight from its TOML file, not through the game's loader."""
    text = files("tablekeeper.games.earthborne").joinpath("data", "challenge.toml").read_text("utf-8")
    cards: list[dict[str, Any]] = tomllib.loads(text)["cards"]
    return cards


def test_the_shipped_deck_is_the_core_sets_24_cards_and_checked() -> None:
    cards = _printed_deck()
    assert len(cards) == 24 and len({c["id"] for c in cards}) == 24
    for aspect in ASPECTS:  # the printed deck is even across the aspects
        assert Counter(c[aspect] for c in cards) == {1: 6, 0: 10, -1: 7, -2: 1}
    assert Counter(c["icon"] for c in cards) == {"sun": 8, "mountain": 8, "crest": 8}
    assert sorted(c["id"] for c in cards if c.get("reshuffle")) == ["crest4", "crest7", "sun2", "sun4"]
    assert len({(c["icon"], *(c[a] for a in ASPECTS)) for c in cards}) == 24  # each card told by what it shows
    s = to_turns(session())
    assert view(s)["unverified_data"] == []
    do(s, "test 1 fit 1")
    assert view(s)["test"]["deck_verified"] is True and "unverified" not in view(s)["test"]["odds"]


@pytest.mark.rule("ER-TEST-1")
def test_the_real_decks_odds_equal_an_independent_count() -> None:
    """Every figure the odds verb gives equals a count over the printed cards; after a card leaves the
    deck, a test's own figure equals the count over the 23 left."""
    cards = _printed_deck()
    s = to_turns(session())
    for aspect, effort, difficulty in product(ASPECTS, range(0, 5), range(1, 6)):
        do(s, f"odds {aspect} {effort} {difficulty}")
        p = Fraction(sum(1 for c in cards if max(0, effort + c[aspect]) >= difficulty), len(cards))
        assert s.notices[0].startswith(f"{aspect.upper()} effort {effort} vs {difficulty}: "
                                       f"{p.numerator}/{p.denominator} ("), s.notices[0]
    do(s, "test 1 spi 2 energy=2", "reveal challenge mountain7", "resolve", "next")  # SPI -1, no reshuffle
    left = [c for c in cards if c["id"] != "mountain7"]
    do(s, "test 2 spi 2 effort=1")  # 1 energy + 1 other effort
    p = Fraction(sum(1 for c in left if 2 + c["spi"] >= 2), len(left))
    assert view(s)["test"]["odds"].startswith(f"{p.numerator}/{p.denominator} (")
    assert p == Fraction(16, 23)


def test_a_challenge_card_is_reported_by_what_it_shows() -> None:
    s = to_turns(session())
    do(s, "test 1 fit 2")
    assert "3 sun cards left in the deck match (sun1, sun5, sun7)" in refused(s, "reveal challenge sun fit=0")
    do(s, "reveal challenge sun fit=0 awa=1")  # only sun7 shows both
    assert view(s)["test"]["card"] == "sun7" and view(s)["test"]["modifier"] == 0
    do(s, "resolve", "next", "test 2 fit 2")
    assert "no sun card with FIT +0 AWA +1 is left" in refused(s, "reveal challenge sun fit=0 awa=1")
    assert "a modifier is a number" in refused(s, "reveal challenge sun fit=minus")


@pytest.mark.rule("ER-TEST-3")
def test_a_card_in_between_with_presence_x_is_left_to_the_table() -> None:
    s = to_turns(session("card \"Cloudhive Swarm\" area=reach seat=1", "card Doe"))
    before = tracks(s)["seat1.fatigue"]
    do(s, "test 1 awa 1 target=card2")  # the Swarm (presence X) is within reach: between seat 1 and the Doe
    assert tracks(s)["seat1.fatigue"] == before
    assert any("Cloudhive Swarm is in between with presence X" in n for n in s.notices)
