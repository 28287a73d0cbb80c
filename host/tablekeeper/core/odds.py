"""Exact probabilities built on chance outcome lists (``Fraction`` throughout), for live odds.

Known table helpers sample or skip chained draws; these functions enumerate them exactly and stay
fast because they memoise on what is left in the bag, not on the order it was drawn in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import cache
from math import comb, floor
from typing import TypeVar

T = TypeVar("T")
Dist = dict[T, Fraction]


def check_distribution(dist: Mapping[T, Fraction]) -> None:
    """Raise ``ValueError`` unless the outcomes are distinct with probabilities summing to exactly 1."""
    total = sum(dist.values(), Fraction(0))
    if total != 1:
        raise ValueError(f"probabilities sum to {total}, not 1")
    if any(p < 0 for p in dist.values()):
        raise ValueError("negative probability")


def draws_without_replacement(counts: Mapping[str, int], n: int) -> dict[tuple[tuple[str, int], ...], Fraction]:
    """Multivariate hypergeometric: the chance of each split of ``n`` draws among the classes.

    Keys are sorted ``(class, how many drawn)`` pairs, classes with zero omitted.
    """
    names = sorted(k for k, v in counts.items() if v > 0)
    sizes = [counts[k] for k in names]
    total = sum(sizes)
    if not 0 <= n <= total:
        raise ValueError(f"cannot draw {n} from {total}")
    denom = comb(total, n)
    out: dict[tuple[tuple[str, int], ...], Fraction] = {}

    def walk(i: int, left: int, ways: int, picked: tuple[tuple[str, int], ...]) -> None:
        if i == len(names):
            if left == 0:
                out[picked] = Fraction(ways, denom)
            return
        rest = sum(sizes[i + 1 :])
        for k in range(max(0, left - rest), min(sizes[i], left) + 1):
            walk(i + 1, left - k, ways * comb(sizes[i], k), (*picked, (names[i], k)) if k else picked)

    walk(0, n, 1, ())
    return out


def chained_draws(
    counts: Mapping[str, int], again: Callable[[str], bool], max_draws: int | None = None
) -> dict[tuple[str, ...], Fraction]:
    """Draw one token without replacement; while the drawn token says "reveal another", draw again.

    Returns the exact chance of each final set of drawn tokens (a sorted tuple). The chain also
    stops when the bag is empty or ``max_draws`` tokens are out.
    """
    names = tuple(sorted(k for k, v in counts.items() if v > 0))
    start = tuple(counts[k] for k in names)
    limit = max_draws if max_draws is not None else sum(start)
    chains = tuple(again(k) for k in names)

    @cache
    def from_state(left: tuple[int, ...], drawn_n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        total = sum(left)
        result: dict[tuple[int, ...], Fraction] = {}
        if total == 0 or drawn_n >= limit:
            return ((left, Fraction(1)),)
        for i, c in enumerate(left):
            if c == 0:
                continue
            p = Fraction(c, total)
            nxt = (*left[:i], c - 1, *left[i + 1:])
            if chains[i]:
                for end, q in from_state(nxt, drawn_n + 1):
                    result[end] = result.get(end, Fraction(0)) + p * q
            else:
                result[nxt] = result.get(nxt, Fraction(0)) + p
        return tuple(result.items())

    out: dict[tuple[str, ...], Fraction] = {}
    for end, p in from_state(start, 0):
        drawn: list[str] = []
        for name, before, after in zip(names, start, end, strict=True):
            drawn.extend([name] * (before - after))
        key = tuple(sorted(drawn))
        out[key] = out.get(key, Fraction(0)) + p
    return out


def map_distribution(dist: Mapping[T, Fraction], fn: Callable[[T], object]) -> dict[object, Fraction]:
    out: dict[object, Fraction] = {}
    for k, p in dist.items():
        v = fn(k)
        out[v] = out.get(v, Fraction(0)) + p
    return out


def sum_distribution(dists: Iterable[Mapping[int, Fraction]]) -> dict[int, Fraction]:
    """Distribution of the sum of independent integer outcomes (convolution)."""
    acc: dict[int, Fraction] = {0: Fraction(1)}
    for dist in dists:
        nxt: dict[int, Fraction] = {}
        for a, p in acc.items():
            for b, q in dist.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        acc = nxt
    return acc


def probability(dist: Mapping[T, Fraction], event: Callable[[T], bool]) -> Fraction:
    return sum((p for k, p in dist.items() if event(k)), Fraction(0))


def expectation(dist: Mapping[int, Fraction] | Mapping[float, Fraction]) -> Fraction:
    return sum((Fraction(k) * p for k, p in dist.items()), Fraction(0))


def percent_figure(p: Fraction, places: int = 1) -> str:
    """A probability in percent, rounded half up exactly (``'62.5'``; ``'63'`` with no places): a float
    format rounds a half to even, so one screen read 37.5 % as 38 % and 62.5 % as 62 %."""
    scale = 10 ** places
    whole, part = divmod(floor(p * 100 * scale + Fraction(1, 2)), scale)
    return f"{whole}.{part:0{places}d}" if places else f"{whole}"


def percent(p: Fraction, places: int = 1) -> str:
    """A probability as the displays show it: ``'62.5%'`` (``'63%'`` with no places)."""
    return percent_figure(p, places) + "%"
