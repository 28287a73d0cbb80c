"""Exact attack odds against brute-force enumeration of every deck order (OS-ATK-6..11, OS-MIGHT-3)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tablekeeper.games.oathsworn.cards import COLOURS, parse_face
from tablekeeper.games.oathsworn.data import load
from tablekeeper.games.oathsworn.odds import Pile, attack_odds, hit_totals

from . import reference_odds
from .helpers import encounter, ok


def cards_of(colour: str, faces: dict[str, int]) -> list[tuple[int, bool]]:
    out = []
    for face, n in faces.items():
        c = parse_face(colour, face)
        out += [(c.value, c.crit)] * n
    return out


def play_colour(order: list[tuple[int, bool]], n: int) -> tuple[int, int, int]:
    """Draw n counted cards then critical extras from a fixed order: (blanks, total, next index)."""
    i = blanks = total = 0
    owed = 0
    for _ in range(n):
        if i >= len(order):
            break
        value, crit = order[i]
        i += 1
        blanks += value == 0
        total += value
        owed += crit
    while owed and i < len(order):
        value, crit = order[i]
        i += 1
        owed -= 1
        total += value
        owed += crit
    return blanks, total, i


def brute(decks: dict[str, dict[str, int]], counts: dict[str, int],
          redraws: int = 0) -> dict[tuple[int, int], Fraction]:
    colours = [c for c in reversed(COLOURS) if counts.get(c)]
    orders = [list(itertools.permutations(cards_of(c, decks[c]))) for c in colours]
    weight = Fraction(1, 1)
    for o in orders:
        weight /= len(o)
    out: dict[tuple[int, int], Fraction] = {}
    for combo in itertools.product(*orders):
        state = {}
        for c, order in zip(colours, combo, strict=True):
            state[c] = list(play_colour(list(order), counts[c]))
        tokens = redraws
        while tokens and sum(st[0] for st in state.values()) >= 2:
            c = next(c for c in colours if state[c][0] > 0)
            order = combo[colours.index(c)]
            st = state[c]
            if st[2] >= len(order):
                break
            value, crit = order[st[2]]
            st[2] += 1
            st[0] += (value == 0) - 1
            st[1] += value
            owed = int(crit)
            while owed and st[2] < len(order):
                value, crit = order[st[2]]
                st[2] += 1
                owed += int(crit) - 1
                st[1] += value
            tokens -= 1
        key = (min(2, sum(st[0] for st in state.values())), sum(st[1] for st in state.values()))
        out[key] = out.get(key, Fraction(0)) + weight
    return out


SMALL = {"W": {"0": 2, "1": 1, "2*": 2}, "R": {"0": 1, "3": 2, "4*": 2}}


def on_hit(dist: dict[tuple[int, int], Fraction]) -> tuple[dict[int, Fraction], Fraction]:
    """(blanks, total) -> the totals of hits (fewer than 2 counted blanks) and the miss chance."""
    hits: dict[int, Fraction] = {}
    for (b, s), p in dist.items():
        if b < 2:
            hits[s] = hits.get(s, Fraction(0)) + p
    return hits, sum((p for (b, _), p in dist.items() if b >= 2), Fraction(0))


def draw_distribution(piles: dict[str, Pile], counts: dict[str, int], redraws: int = 0) -> tuple[
        dict[int, Fraction], Fraction]:
    hits, miss = hit_totals(piles, counts, redraws)
    return {s: p for s, p in hits.items() if p}, miss


@pytest.mark.rule("OS-ATK-10")
def test_os_atk_10_exact_chains_match_enumeration() -> None:
    piles = {c: Pile.of(c, f) for c, f in SMALL.items()}
    counts = {"W": 2, "R": 2}
    assert draw_distribution(piles, counts) == on_hit(brute(SMALL, counts))


@pytest.mark.rule("OS-ATK-11")
def test_os_atk_11_exact_redraw_policy_matches_enumeration() -> None:
    piles = {c: Pile.of(c, f) for c, f in SMALL.items()}
    counts = {"W": 2, "R": 1}
    for tokens in (1, 2):
        assert draw_distribution(piles, counts, redraws=tokens) == on_hit(brute(SMALL, counts, redraws=tokens))


@pytest.mark.rule("OS-MIGHT-3")
def test_os_might_3_odds_follow_the_reshuffle() -> None:
    """One card left in the pile, the rest in the discard: the second card comes from the discard."""
    pile = Pile.of("W", {"0": 1}, {"2": 1, "1": 1, "0": 1})
    dist = draw_distribution({"W": pile}, {"W": 2})
    assert dist == ({2: Fraction(1, 3), 1: Fraction(1, 3)}, Fraction(1, 3))


@pytest.mark.rule("OS-MIGHT-8")
def test_os_might_8_sanity_of_the_published_composition() -> None:
    d = load()
    piles = {c: Pile.of(c, d.might[c]) for c in COLOURS}
    one = draw_distribution(piles, {"W": 1})
    assert one[0][0] == Fraction(1, 3)  # a blank: counts 0, still a hit with one blank
    two = draw_distribution(piles, {"W": 2})
    assert two[1] == Fraction(5, 51)
    assert all(sum(d.might[c].values()) == 18 for c in COLOURS)


@pytest.mark.rule("OS-DMG-3")
def test_os_dmg_3_expected_hp_uses_floor() -> None:
    piles = {"R": Pile.of("R", {"3": 2})}
    odds = attack_odds(piles, {"R": 2}, defense=4)
    assert odds.hit == 1 and odds.damage == {6: 1} and odds.expected_hp == 1


def test_exact_odds_agree_with_a_seeded_sample() -> None:
    import random
    d = load()
    piles = {c: Pile.of(c, d.might[c]) for c in COLOURS}
    odds = attack_odds(piles, {"R": 2, "B": 1, "W": 4}, defense=3)
    rng = random.Random(5)
    hits = 0
    n = 4000
    for _ in range(n):
        blanks = 0
        for colour, k in (("R", 2), ("B", 1), ("W", 4)):
            order = cards_of(colour, d.might[colour])
            rng.shuffle(order)
            blanks += play_colour(order, k)[0]
        hits += blanks < 2
    p = float(odds.hit)
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * sigma


def test_planned_attack_odds_follow_the_current_decks() -> None:
    s = ok(encounter(classes="Priest,Warden,Cur,Witch"), "next", "plan 1 head white=2")
    fresh = s.view()["odds"]
    for _ in range(3):
        ok(s, "reveal might.red R0")  # three red blanks are out: the red cards left hit more often
    after = s.view()["odds"]
    assert fresh is not None and after is not None
    assert float(after["hit_percent"]) > float(fresh["hit_percent"])
    assert "hit" in s.game.panels(s.state)["tokens"].lines[0]


@pytest.mark.rule("OS-DMG-5")
def test_planned_odds_are_capped_by_the_die_left_on_the_target() -> None:
    """Excess damage is ignored: the plan never promises more HP than the location's die holds."""
    full = ok(encounter(), "next", "plan 1 head white=6").view()["odds"]
    assert max(int(k) for k in full["hp_lost"]) > 1
    s = ok(encounter(), "next", "set boss.head 1", "plan 1 head white=6")
    odds = s.view()["odds"]
    assert {int(k) for k in odds["hp_lost"]} <= {0, 1}
    assert Fraction(odds["expected_hp"]) == Fraction(odds["hit"])  # every hit takes the last HP


def small_plans() -> list[tuple[dict[str, dict[str, int]], dict[str, dict[str, int]], dict[str, int]]]:
    """Full decks, thinned decks and decks whose pile runs out into the discard, with small plans."""
    import random

    rng = random.Random(3)
    full = load().might
    out = []
    for trial in range(24):
        decks, discards = {}, {}
        for c in COLOURS:
            draw = {f: (rng.randint(0, n) if trial % 2 else n) for f, n in full[c].items()}
            discards[c] = {f: rng.randint(0, n - draw[f]) for f, n in full[c].items()} if trial % 3 == 0 else {}
            draw["0"] = max(draw["0"], 1)
            decks[c] = draw
        counts = {c: rng.randint(1, 3) for c in rng.sample(COLOURS, rng.randint(1, 3))}
        out.append((decks, discards, counts))
    return out


@pytest.mark.rule("OS-ATK-11")
@pytest.mark.parametrize("tokens", [0, 1, 2])
def test_the_dynamic_programme_equals_the_previous_exact_odds(tokens: int) -> None:
    """Kinds-only dynamic programming gives exactly the figures of the enumeration it replaced."""
    for decks, discards, counts in small_plans():
        new = attack_odds({c: Pile.of(c, decks[c], discards[c]) for c in COLOURS}, counts, 3, redraws=tokens)
        old = reference_odds.attack_odds({c: reference_odds.Pile.of(c, decks[c], discards[c]) for c in COLOURS},
                                         counts, 3, redraws=tokens)
        assert (new.hit, new.damage, new.hp_lost, new.expected_hp) == (
            old.hit, old.damage, old.hp_lost, old.expected_hp), (decks, discards, counts)
