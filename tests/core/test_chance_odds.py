"""Chance sources list exact outcome probabilities; odds helpers agree with brute-force enumeration."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.core.chance import Bag, Deck, Dice, Multiset
from tablekeeper.core.odds import (
    chained_draws,
    check_distribution,
    draws_without_replacement,
    expectation,
    probability,
    sum_distribution,
)
from tablekeeper.errors import Rejected

COUNTS = st.dictionaries(st.sampled_from(["a", "b", "c", "skull", "bless", "curse"]), st.integers(0, 5),
                         min_size=1).filter(lambda d: sum(d.values()) > 0)


@settings(max_examples=50, deadline=None)
@given(COUNTS)
def test_every_source_lists_unique_outcomes_summing_to_one(counts: dict[str, int]) -> None:
    bag = Bag("bag", Multiset.of(counts))
    deck = Deck.plain("deck", counts)
    dice = Dice("d", tuple(k for k, v in counts.items() for _ in range(v)))
    for dist in (bag.outcomes(), deck.outcomes(), dice.outcomes()):
        check_distribution(dist)
        assert len(set(dist)) == len(dist)
        assert all(p > 0 for p in dist.values())


def test_bag_draw_return_seal_release() -> None:
    bag = Bag("chaos", Multiset.of({"skull": 2, "0": 1}))
    bag = bag.drawn("skull")
    assert bag.contents.as_dict() == {"skull": 1, "0": 1} and bag.out.as_dict() == {"skull": 1}
    assert bag.outcomes() == {"skull": Fraction(1, 2), "0": Fraction(1, 2)}
    bag = bag.return_all().seal("0")
    assert bag.outcomes() == {"skull": Fraction(1)}
    with pytest.raises(Rejected, match="holds no 'bless'"):
        bag.drawn("bless")
    assert bag.release("0").contents.as_dict() == {"skull": 2, "0": 1}
    assert Bag("r", Multiset.of(["x"]), replace=True).drawn("x").contents.as_dict() == {"x": 1}


def test_deck_reshuffles_the_discard_when_empty_and_stages_draw_in_order() -> None:
    deck = Deck.plain("d", {"a": 1, "b": 1})
    deck = deck.drawn("a").drawn("b")
    assert deck.remaining == 0 and deck.discard.total == 2
    assert deck.outcomes() == {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    deck = deck.drawn("a")
    assert deck.remaining == 1 and deck.discard.as_dict() == {"a": 1}
    staged = Deck("inv", (Multiset.of(["I1", "I2"]), Multiset.of(["II1"])))
    assert set(staged.outcomes()) == {"I1", "I2"}
    with pytest.raises(Rejected, match="top of the inv deck holds no 'II1'"):
        staged.drawn("II1")
    staged = staged.drawn("I1").drawn("I2")
    assert staged.outcomes() == {"II1": Fraction(1)}


def test_picks_follow_the_listed_probabilities_with_a_seeded_generator() -> None:
    bag = Bag("b", Multiset.of({"x": 1, "y": 3}))
    rng = random.Random(5)
    picks = [bag.pick(rng) for _ in range(4000)]
    assert 0.70 < picks.count("y") / len(picks) < 0.80
    assert [bag.pick(random.Random(9)) for _ in range(3)] == [bag.pick(random.Random(9)) for _ in range(3)]


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from("abc"), st.integers(0, 3), min_size=1).filter(
    lambda d: 0 < sum(d.values()) <= 7), st.integers(0, 3))
def test_multiclass_draws_match_enumeration(counts: dict[str, int], n: int) -> None:
    tokens = [k for k, v in counts.items() for _ in range(v)]
    n = min(n, len(tokens))
    exact = draws_without_replacement(counts, n)
    check_distribution(exact)
    brute: dict[tuple[tuple[str, int], ...], Fraction] = {}
    perms = list(itertools.permutations(range(len(tokens)), n))
    for perm in perms:
        drawn = [tokens[i] for i in perm]
        key = tuple(sorted((k, drawn.count(k)) for k in set(drawn)))
        brute[key] = brute.get(key, Fraction(0)) + Fraction(1, len(perms))
    assert exact == brute


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(["0", "-1", "bless", "curse"]), st.integers(0, 3), min_size=1).filter(
    lambda d: 0 < sum(d.values()) <= 7))
def test_chained_draws_match_enumeration(counts: dict[str, int]) -> None:
    again = {"bless", "curse"}
    exact = chained_draws(counts, lambda t: t in again)
    check_distribution(exact)
    tokens = [k for k, v in counts.items() for _ in range(v)]
    brute: dict[tuple[str, ...], Fraction] = {}
    perms = list(itertools.permutations(range(len(tokens))))
    for perm in perms:
        drawn = []
        for i in perm:
            drawn.append(tokens[i])
            if tokens[i] not in again:
                break
        key = tuple(sorted(drawn))
        brute[key] = brute.get(key, Fraction(0)) + Fraction(1, len(perms))
    assert exact == brute


def test_sum_of_two_dice_and_expectation() -> None:
    die = {face: Fraction(1, 6) for face in range(1, 7)}
    two = sum_distribution([die, die])
    assert two[7] == Fraction(1, 6) and two[2] == Fraction(1, 36)
    assert expectation(two) == 7
    assert probability(two, lambda s: s >= 10) == Fraction(1, 6)


def test_percentages_round_a_half_up_on_every_screen() -> None:
    """A float format rounds a half to even: the same screen read 37.5 % as 38 % and 62.5 % as 62 %."""
    from fractions import Fraction

    from tablekeeper.core.odds import percent, percent_figure

    assert [percent(Fraction(n, 8), 0) for n in (3, 5, 7)] == ["38%", "63%", "88%"]
    assert percent(Fraction(1, 16)) == "6.3%" and percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(0)) == "0.0%" and percent(Fraction(1), 0) == "100%"
    assert percent_figure(Fraction(1, 200), 0) == "1" and percent_figure(Fraction(1, 2000)) == "0.1"


def test_a_reported_card_matches_by_case_word_order_or_a_unique_start_and_nothing_looser() -> None:
    deck = Deck.plain("d", {"Jungle+Sands": 1, "Dahan Raid": 1, "Dahan Enheartened": 1, "Rumours": 1,
                            "R4*": 1, "city10": 1, "city1": 1})
    assert deck.match("Rumours") == "Rumours"
    assert deck.match("sands+jungle") == "Jungle+Sands"
    assert deck.match("JUNGLE AND SANDS") == "Jungle+Sands"
    assert deck.match("dahan raid") == "Dahan Raid"
    assert deck.match("rumo") == "Rumours"
    assert deck.match("city1") == "city1"
    with pytest.raises(Rejected, match=r"'dahan' is more than one of the cards the top of the d deck may show: "
                                       r"Dahan Enheartened, Dahan Raid$"):
        deck.match("dahan")
    with pytest.raises(Rejected, match=r"the top of the d deck holds no 'R4' \(it may show"):
        deck.match("R4")  # a critical is never a plain card's start
    drawn = deck.drawn("city1")
    with pytest.raises(Rejected, match="holds no 'city1'"):
        drawn.match("city1")  # the drawn card's name never stands for city10
    with pytest.raises(Rejected, match="the e deck is empty"):
        Deck.plain("e", {}).match("x")
