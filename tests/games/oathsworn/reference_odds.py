"""The previous exact odds (memoised on every deck composition left), kept as the reference the
faster dynamic programme in ``tablekeeper.games.oathsworn.odds`` must agree with on small plans.

Each colour is an independent chance node: its cards are drawn without replacement, a critical
draws one more card of its colour (chains repeat, their blanks are excused), and an empty draw pile
is rebuilt once from the discard pile (cards on the table stay out). Per colour the result is a
distribution over (counted blanks, value total); colours are then convolved. Memoising on what is
left in the pile (not on the order drawn) keeps the exact answer in milliseconds.

Redraw policy (optional): while the attack would miss (two or more counted blanks) and redraw tokens
remain, replace a counted blank of the strongest colour that has one; a replacement counts like an
original card and may start its own critical chain; the replaced blank goes to the discard pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm

from tablekeeper.games.oathsworn.cards import COLOURS, parse_face

Outcome = tuple[int, int]  # (counted blanks, capped at 2 when combining; value total)


@dataclass(frozen=True, slots=True)
class Pile:
    """One colour's deck as the odds see it: card faces with their counts in draw and discard."""

    faces: tuple[tuple[int, bool], ...]  # (value, critical) per face
    draw: tuple[int, ...]
    discard: tuple[int, ...]

    @classmethod
    def of(cls, colour: str, draw: Mapping[str, int], discard: Mapping[str, int] | None = None) -> Pile:
        discard = discard or {}
        names = sorted(set(draw) | set(discard))
        faces = tuple((c.value, c.crit) for c in (parse_face(colour, n) for n in names))
        return cls(faces, tuple(int(draw.get(n, 0)) for n in names), tuple(int(discard.get(n, 0)) for n in names))


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact figures of one planned attack against one DEFENSE."""

    hit: Fraction
    damage: dict[int, Fraction]  # damage on a hit (the miss share is ``1 - hit``)
    hp_lost: dict[int, Fraction]  # including misses as 0
    expected_hp: Fraction

    def lines(self) -> list[str]:
        """Short lines for a 21-character display."""
        best = sorted(self.damage.items(), key=lambda kv: -kv[1])[:2]
        return [f"hit {float(self.hit) * 100:.1f}%", f"E[HP] {float(self.expected_hp):.2f}",
                *(f"dmg {d}: {float(p) * 100:.1f}%" for d, p in best)]


def _add(out: dict[Outcome, Fraction], key: Outcome, p: Fraction) -> None:
    out[key] = out.get(key, Fraction(0)) + p


Weights = tuple[tuple[Outcome, int], ...]  # integer numerators over one shared denominator


@lru_cache(maxsize=1 << 16)  # bounded: a long session sees many pile states
def _colour(faces: tuple[tuple[int, bool], ...], draw: tuple[int, ...], discard: tuple[int, ...],
            counted_left: int, extra_left: int) -> tuple[Weights, int]:
    """Distribution of (counted blanks capped at 2, value total) still to come from this state, as
    integer weights over a denominator (integers keep the exact sums fast; reduced at the end)."""
    if counted_left == 0 and extra_left == 0:
        return (((0, 0), 1),), 1
    total = sum(draw)
    if total == 0:
        if sum(discard) == 0:
            return (((0, 0), 1),), 1  # nothing left anywhere: the remaining draws are lost
        return _colour(faces, discard, tuple(0 for _ in discard), counted_left, extra_left)
    counted = counted_left > 0
    parts: list[tuple[int, int, int, Weights, int]] = []
    for i, c in enumerate(draw):
        if c == 0:
            continue
        value, crit = faces[i]
        nxt = (*draw[:i], c - 1, *draw[i + 1:])
        rest, den = _colour(faces, nxt, discard, counted_left - counted, extra_left - (not counted) + crit)
        parts.append((c, 1 if (counted and value == 0) else 0, value, rest, den))
    common = lcm(*(den for *_, den in parts))
    out: dict[Outcome, int] = {}
    get = out.get
    for c, blank, value, rest, den in parts:
        scale = c * (common // den)
        for (b, s), w in rest:
            blanks = b + blank
            key = (2 if blanks > 2 else blanks, s + value)
            out[key] = get(key, 0) + w * scale
    return tuple(out.items()), common * total


def _convolve(a: Mapping[Outcome, int], b: Mapping[Outcome, int]) -> dict[Outcome, int]:
    out: dict[Outcome, int] = {}
    get = out.get
    right = list(b.items())
    for (b1, s1), p in a.items():
        for (b2, s2), q in right:
            blanks = b1 + b2
            key = (2 if blanks > 2 else blanks, s1 + s2)
            out[key] = get(key, 0) + p * q
    return out


def _weights(piles: Mapping[str, Pile], counts: Mapping[str, int]) -> tuple[dict[Outcome, int], int]:
    """Integer weights of every (blanks, total) over one denominator (no redraws)."""
    acc: dict[Outcome, int] = {(0, 0): 1}
    denominator = 1
    for colour in COLOURS:
        n = counts.get(colour, 0)
        if n <= 0:
            continue
        pile = piles[colour]
        weights, den = _colour(pile.faces, pile.draw, pile.discard, n, 0)
        acc = _convolve(acc, dict(weights))
        denominator *= den
    return acc, denominator


def draw_distribution(piles: Mapping[str, Pile], counts: Mapping[str, int],
                      redraws: int = 0) -> dict[Outcome, Fraction]:
    """Joint (counted blanks capped at 2, total) of drawing ``counts[colour]`` cards per colour."""
    if redraws > 0:
        return _with_redraws(piles, counts, redraws)
    acc, denominator = _weights(piles, counts)
    return {k: Fraction(w, denominator) for k, w in acc.items()}


def attack_odds(piles: Mapping[str, Pile], counts: Mapping[str, int], defense: int, redraws: int = 0,
                bonus: int = 0, hp_cap: int | None = None) -> AttackOdds:
    """OS-ATK-8/9 + OS-DMG-3: chance to hit, damage on a hit, HP lost = damage // DEFENSE, at most
    ``hp_cap`` (the HP the target's die still holds; OS-DMG-5 ignores the excess)."""
    weights: Mapping[Outcome, int | Fraction]
    if redraws > 0:
        weights, denominator = _with_redraws(piles, counts, redraws), 1
    else:
        weights, denominator = _weights(piles, counts)
    hit_w: int | Fraction = 0
    damage: dict[int, int | Fraction] = {}
    hp: dict[int, int | Fraction] = {}
    per = max(1, defense)
    for (b, s), w in weights.items():
        if b >= 2:
            hp[0] = hp.get(0, 0) + w
            continue
        hit_w += w
        d = s + bonus
        damage[d] = damage.get(d, 0) + w
        lost = max(0, d // per)
        if hp_cap is not None:
            lost = min(lost, hp_cap)
        hp[lost] = hp.get(lost, 0) + w
    hit = Fraction(hit_w) / denominator
    damage_on_hit = {d: Fraction(w) / hit_w for d, w in sorted(damage.items())} if hit_w else {}
    expected = Fraction(sum(k * w for k, w in hp.items())) / denominator
    return AttackOdds(hit, damage_on_hit, {k: Fraction(w) / denominator for k, w in sorted(hp.items())}, expected)


# --- redraws -----------------------------------------------------------------------------------

State = tuple[tuple[int, ...], tuple[int, ...]]  # (draw, discard) of one colour


@lru_cache(maxsize=1 << 14)
def _colour_states(faces: tuple[tuple[int, bool], ...], draw: tuple[int, ...], discard: tuple[int, ...],
                   counted_left: int, extra_left: int) -> tuple[tuple[tuple[int, int, State], Fraction], ...]:
    """Like ``_colour`` but keeps exact blanks and the pile left behind (redraws draw from it)."""
    if counted_left == 0 and extra_left == 0:
        return (((0, 0, (draw, discard)), Fraction(1)),)
    total = sum(draw)
    if total == 0:
        if sum(discard) == 0:
            return (((0, 0, (draw, discard)), Fraction(1)),)
        return _colour_states(faces, discard, tuple(0 for _ in discard), counted_left, extra_left)
    out: dict[tuple[int, int, State], Fraction] = {}
    counted = counted_left > 0
    for i, c in enumerate(draw):
        if c == 0:
            continue
        value, crit = faces[i]
        nxt = (*draw[:i], c - 1, *draw[i + 1:])
        rest = _colour_states(faces, nxt, discard, counted_left - counted, extra_left - (not counted) + crit)
        blank = 1 if (counted and value == 0) else 0
        p = Fraction(c, total)
        for (b, s, st), q in rest:
            key = (b + blank, s + value, st)
            out[key] = out.get(key, Fraction(0)) + p * q
    return tuple(out.items())


@lru_cache(maxsize=1 << 16)
def _redraw_run(faces: tuple[tuple[int, bool], ...], state: State, blanks: int, tokens: int,
                others_blank: bool) -> tuple[tuple[tuple[int, int, int], Fraction], ...]:
    """Redraw this colour's counted blanks while the attack misses: (final blanks, value added,
    tokens used)."""
    if tokens == 0 or blanks == 0 or (blanks < 2 and not others_blank):
        return (((blanks, 0, 0), Fraction(1)),)
    draw, discard = state
    blank_face = next(i for i, (v, _) in enumerate(faces) if v == 0)
    discard = (*discard[:blank_face], discard[blank_face] + 1, *discard[blank_face + 1:])
    out: dict[tuple[int, int, int], Fraction] = {}
    for (b, s, st), p in _colour_states(faces, draw, discard, 1, 0):
        for (fb, fs, used), q in _redraw_run(faces, st, blanks - 1 + b, tokens - 1, others_blank):
            key = (fb, s + fs, used + 1)
            out[key] = out.get(key, Fraction(0)) + p * q
    return tuple(out.items())


def _given_blanks(faces: tuple[tuple[int, bool], ...], group: list[tuple[int, State, Fraction]], norm: Fraction,
                  b0: int, tokens: int, others_blank: bool) -> dict[tuple[int, int, int], Fraction]:
    """One colour's (final blanks capped at 2, value, tokens used), given it drew ``b0`` counted blanks."""
    out: dict[tuple[int, int, int], Fraction] = {}
    for s0, st, q in group:
        for (fb, fs, used), r in _redraw_run(faces, st, b0, tokens, others_blank):
            key = (min(2, fb), s0 + fs, used)
            out[key] = out.get(key, Fraction(0)) + q * r
    return {key: w / norm for key, w in out.items()}


def _with_redraws(piles: Mapping[str, Pile], counts: Mapping[str, int], tokens: int) -> dict[Outcome, Fraction]:
    order = [c for c in reversed(COLOURS) if counts.get(c, 0) > 0]  # strongest colour first
    by_blanks: list[dict[int, list[tuple[int, State, Fraction]]]] = []
    p_blanks: list[dict[int, Fraction]] = []
    for colour in order:
        pile = piles[colour]
        groups: dict[int, list[tuple[int, State, Fraction]]] = {}
        probs: dict[int, Fraction] = {}
        for (b, s, st), p in _colour_states(pile.faces, pile.draw, pile.discard, counts[colour], 0):
            groups.setdefault(b, []).append((s, st, p))
            probs[b] = probs.get(b, Fraction(0)) + p
        by_blanks.append(groups)
        p_blanks.append(probs)
    # states: (tokens left, blanks of processed colours capped, total, blanks of unprocessed colours)
    states: dict[tuple[int, int, int, tuple[int, ...]], Fraction] = {(tokens, 0, 0, ()): Fraction(1)}
    for probs in reversed(p_blanks):
        grown: dict[tuple[int, int, int, tuple[int, ...]], Fraction] = {}
        for (t, bp, s, vec), p in states.items():
            for b, q in probs.items():
                key = (t, bp, s, (b, *vec))
                grown[key] = grown.get(key, Fraction(0)) + p * q
        states = grown
    for k, colour in enumerate(order):
        faces = piles[colour].faces
        merged: dict[tuple[int, int, bool], dict[tuple[int, int, int], Fraction]] = {}
        nxt: dict[tuple[int, int, int, tuple[int, ...]], Fraction] = {}
        for (t, bp, s, vec), p in states.items():
            b0, others = vec[0], vec[1:]
            key3 = (b0, t, bp + sum(others) >= 1)
            if key3 not in merged:
                merged[key3] = _given_blanks(faces, by_blanks[k][b0], p_blanks[k][b0], *key3)
            for (fb, sadd, used), w in merged[key3].items():
                key = (t - used, min(2, bp + fb), s + sadd, others)
                nxt[key] = nxt.get(key, Fraction(0)) + p * w
        states = nxt
    out: dict[Outcome, Fraction] = {}
    for (_, bp, s, _), p in states.items():
        _add(out, (bp, s), p)
    return out
