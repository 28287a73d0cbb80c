"""Exact odds of a skill test from what is in the chaos bag, chained "reveal another" draws
included (AH-CHAOS, ST.3-ST.6); ``bench/bench_arkham.py`` compares it with a sampled estimate.

The exact figure is an integer recursion over what is left in the bag, so
bless, curse and scenario tokens that reveal another are enumerated, not approximated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from tablekeeper.games.arkham.data import TokenKind
from tablekeeper.games.arkham.rules import passes


def token_effect(drawn: Iterable[str], tokens: Mapping[str, TokenKind], elder_sign: int) -> tuple[int, bool]:
    """ST.4: the summed modifier of the revealed tokens, and whether one of them fails automatically."""
    modifier, autofail = 0, False
    for name in drawn:
        kind = tokens[name]
        autofail = autofail or kind.autofail
        modifier += elder_sign if kind.elder_sign else kind.value
    return modifier, autofail


def success_chance(bag: Mapping[str, int], tokens: Mapping[str, TokenKind], skill: int, difficulty: int,
                   elder_sign: int = 0) -> Fraction:
    """The exact probability that a test of ``skill`` against ``difficulty`` succeeds."""
    for name in bag:
        if name not in tokens:
            raise KeyError(f"no rule for chaos token {name!r}")
    live = {name: n for name, n in bag.items() if n > 0}
    if not live:
        return Fraction(0)
    return _Chains(live, tokens, skill, difficulty, elder_sign).chance()


def _falling(top: int, factors: int) -> int:
    out = 1
    for m in range(factors):
        out *= top - m
    return out


class _Chains:
    """Only "reveal another" tokens change the state of a chain, so the recursion runs over how many
    of each are left and the modifier gathered so far, in integers: with ``T`` tokens left and ``K``
    of them chaining, ``ways(s) = P(s) * T(T-1)...`` (``min(K+1, T)`` factors) is whole, and a
    chained draw divides that product by exactly ``T``; one ``Fraction`` at the end. The memo lives
    on the instance (no closure cycles for the garbage collector to chase)."""

    def __init__(self, live: Mapping[str, int], tokens: Mapping[str, TokenKind], skill: int, difficulty: int,
                 elder_sign: int) -> None:
        def value(name: str) -> int:
            return elder_sign if tokens[name].elder_sign else tokens[name].value

        names = tuple(sorted(name for name in live if tokens[name].again))
        self.start = tuple(live[name] for name in names)
        self.values = tuple(value(name) for name in names)
        self.fails = tuple(tokens[name].autofail for name in names)
        self.ends = tuple((n, value(name)) for name, n in live.items()
                          if not tokens[name].again and not tokens[name].autofail)
        self.end_total = sum(n for name, n in live.items() if not tokens[name].again)
        self.skill, self.difficulty = skill, difficulty
        self.memo: dict[tuple[tuple[int, ...], int], int] = {}
        self.good: dict[int, int] = {}

    def chance(self) -> Fraction:
        k0 = sum(self.start)
        t0 = k0 + self.end_total
        return Fraction(self.ways(self.start, 0), _falling(t0, min(k0 + 1, t0)))

    def good_ends(self, modifier: int) -> int:
        """How many of the tokens that end a chain make the test succeed after ``modifier``."""
        found = self.good.get(modifier)
        if found is None:
            found = sum(n for n, v in self.ends if passes(self.skill, modifier + v, self.difficulty))
            self.good[modifier] = found
        return found

    def ways(self, left: tuple[int, ...], modifier: int) -> int:
        key = (left, modifier)
        found = self.memo.get(key)
        if found is not None:
            return found
        k = sum(left)
        t = k + self.end_total
        if t == 0:
            total = int(passes(self.skill, modifier, self.difficulty))
        else:
            total = self.good_ends(modifier) * _falling(t - 1, min(k + 1, t) - 1)  # the product divided by t
            for i, c in enumerate(left):
                if c and not self.fails[i]:  # a chained automatic failure fails whatever follows
                    total += c * self.ways((*left[:i], c - 1, *left[i + 1:]), modifier + self.values[i])
        self.memo[key] = total
        return total
