"""Exact odds of an Oathsworn attack from the *current* MIGHT decks (OS-ATK-6..11, OS-MIGHT-3).

Each colour is an independent chance node: its cards are drawn without replacement, a critical
draws one more card of its colour (chains repeat, their blanks are excused), and an empty draw pile
is rebuilt from the discard pile (cards on the table stay out).

Why it is fast: a shuffled pile is exchangeable, so which *kind* of card comes next (blank, plain,
critical) is all the draw sequence needs; which values the plain and critical cards carry is a
uniform choice among that kind's cards, counted once per kind at the end. The dynamic programme
therefore runs over (kinds left in the pile, kinds left in the discard, cards still owed, blanks so
far, redraw tokens), a few hundred states per colour, memoised, polynomial in the plan size.

Redraw policy (optional): while the attack would miss (two or more counted blanks) and redraw tokens
remain, replace a counted blank of the strongest colour that has one; a replacement counts like an
original card and may start its own critical chain; the replaced blank goes to the discard pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm

from tablekeeper.games.oathsworn.cards import COLOURS, parse_face

KINDS = 3  # 0 blank (counts against a hit when counted), 1 plain, 2 critical (owes one more card)
Kinds = tuple[int, int, int]
Reads = int  # cards read per (pile, kind), READ_BITS a counter: the draw pile's three kinds, then the discard's
READ_BITS = 8  # counters never carry: a colour has far fewer than 256 cards
READ_MASK = (1 << READ_BITS) - 1
NO_READS: Reads = 0  # packed so that adding two read counts is one integer addition


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

    def kinds(self, counts: tuple[int, ...]) -> Kinds:
        out = [0, 0, 0]
        for (value, crit), n in zip(self.faces, counts, strict=True):
            out[_kind(value, crit)] += n
        return out[0], out[1], out[2]

    def values(self, counts: tuple[int, ...], kind: int) -> tuple[tuple[int, int], ...]:
        """(value, cards) of one kind in the draw or discard counts."""
        return tuple((v, n) for (v, crit), n in zip(self.faces, counts, strict=True) if n and _kind(v, crit) == kind)


def _kind(value: int, crit: bool) -> int:
    return 2 if crit else (0 if value == 0 else 1)


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """Exact figures of one planned attack against one DEFENSE."""

    hit: Fraction
    damage: dict[int, Fraction]  # damage on a hit (the miss share is ``1 - hit``)
    hp_lost: dict[int, Fraction]  # including misses as 0
    expected_hp: Fraction


# --- one colour: the kinds drawn ------------------------------------------------------------------

ReadOut = tuple[tuple[tuple[tuple[int, Reads, Kinds, Kinds, int], int], ...], int]  # integer weights, denominator


@lru_cache(maxsize=1 << 15)
def _read(pile: Kinds, discard: Kinds, segment: int, counted: int, extra: int) -> ReadOut:
    """Draw ``counted`` cards and the extras criticals call for: (counted blanks, cards read per
    kind, pile left, discard left, segment) with their chances. ``segment`` 0 is the draw pile as it
    was, 1 the pile rebuilt from the discard once; later rebuilds hold only redrawn blanks.

    A forward pass, one card per step; the live states share one integer denominator."""
    Key = tuple[Kinds, Kinds, int, int, int, int, Reads]
    live: dict[Key, int] = {(pile, discard, segment, counted, extra, 0, NO_READS): 1}
    den = 1
    done: dict[tuple[int, Reads, Kinds, Kinds, int], tuple[int, int]] = {}  # -> (weight, denominator then)
    while live:
        step: dict[Key, int] = {}
        totals = []
        for key, w in live.items():
            pl, dc, seg, cnt, ext, b, reads = key
            if (cnt == 0 and ext == 0) or (sum(pl) == 0 and sum(dc) == 0):  # finished, or nothing left
                end = (b, reads, pl, dc, seg)
                old, old_den = done.get(end, (0, den))
                done[end] = (old * (den // old_den) + w, den)
                continue
            if sum(pl) == 0:  # rebuild the draw pile from the discard
                pl, dc, seg = dc, (0, 0, 0), seg + 1
            step[(pl, dc, seg, cnt, ext, b, reads)] = step.get((pl, dc, seg, cnt, ext, b, reads), 0) + w
            totals.append(sum(pl))
        if not step:
            break
        scale = lcm(*totals)
        live = {}
        for (pl, dc, seg, cnt, ext, b, reads), w in step.items():
            total = sum(pl)
            base = w * (scale // total)
            is_counted = cnt > 0
            for kind in range(KINDS):
                n = pl[kind]
                if n == 0:
                    continue
                left = (pl[0] - (kind == 0), pl[1] - (kind == 1), pl[2] - (kind == 2))
                slot = seg * KINDS + kind
                after = reads + (1 << (slot * READ_BITS)) if seg < 2 else reads
                nxt = (left, dc, seg, cnt - is_counted, ext - (not is_counted) + (kind == 2),
                       b + (1 if is_counted and kind == 0 else 0), after)
                live[nxt] = live.get(nxt, 0) + base * n
        den *= scale
    return tuple((end, w * (den // at)) for end, (w, at) in done.items()), den


RedrawOut = tuple[tuple[tuple[tuple[int, Reads, int], int], ...], int]  # integer weights, denominator


@lru_cache(maxsize=1 << 15)
def _redraws(pile: Kinds, discard: Kinds, segment: int, blanks: int, tokens: int, others: int) -> RedrawOut:
    """Redraw this colour's counted blanks while the attack misses: (final blanks, cards read, tokens used)."""
    if tokens == 0 or blanks == 0 or blanks + others < 2:
        return (((blanks, NO_READS, 0), 1),), 1
    thrown = (discard[0] + 1, discard[1], discard[2])  # the replaced blank goes to the discard pile
    drawn, den = _read(pile, thrown, segment, 1, 0)
    later = [(reads, p, _redraws(left, disc, seg, blanks - 1 + b, tokens - 1, others))
             for (b, reads, left, disc, seg), p in drawn]
    common = lcm(*(rest[1] for *_, rest in later))
    out: dict[tuple[int, Reads, int], int] = {}
    for reads, p, (entries, rest_den) in later:
        scale = p * (common // rest_den)
        for (fb, more, used), q in entries:
            key = (fb, reads + more, used + 1)
            out[key] = out.get(key, 0) + q * scale
    return tuple(out.items()), den * common


# --- one colour: from kinds to values -------------------------------------------------------------
# Value totals travel as integer weights over one denominator: exact, and far cheaper than fractions.

Weights = tuple[dict[int, int], int]


def _mix(parts: list[tuple[Weights, int]], factor: Fraction = Fraction(1)) -> Weights:
    """``factor * sum(w * dist)`` over the parts, as integer weights over their common denominator."""
    if len(parts) == 1 and parts[0][1] == 1 and factor == 1:
        return parts[0][0]
    common = lcm(*(dist[1] for dist, _ in parts)) if parts else 1
    out: dict[int, int] = {}
    get = out.get
    num = factor.numerator
    for (weights, d), w in parts:
        scale = w * num * (common // d)
        for s, x in weights.items():
            out[s] = get(s, 0) + x * scale
    return out, common * factor.denominator


def _convolve(a: Weights, b: Weights) -> Weights:
    """The distribution of the sum of two independent totals. Long ones are multiplied as packed
    big integers (one slot per total, wide enough that no slot overflows): exact, and done in C."""
    if len(a[0]) > len(b[0]):
        a, b = b, a
    if len(a[0]) == 1:  # one total (a colour with nothing drawn yet, or all blanks): a shift
        (s1, p), = a[0].items()
        return {s1 + s2: p * q for s2, q in b[0].items()}, a[1] * b[1]
    if len(a[0]) * len(b[0]) < 64:
        out: dict[int, int] = {}
        get = out.get
        right = list(b[0].items())
        for s1, p in a[0].items():
            for s2, q in right:
                out[s1 + s2] = get(s1 + s2, 0) + p * q
        return out, a[1] * b[1]
    lo_a, lo_b = min(a[0]), min(b[0])
    width = ((sum(a[0].values()) * sum(b[0].values())).bit_length() + 8) // 8  # bytes per slot
    packed = _pack(a[0], lo_a, width * 8) * _pack(b[0], lo_b, width * 8)
    raw = packed.to_bytes((packed.bit_length() + 7) // 8 + width, "little")
    out = {}
    base = lo_a + lo_b
    for i in range(len(raw) // width):
        w = int.from_bytes(raw[i * width:(i + 1) * width], "little")
        if w:
            out[base + i] = w
    return out, a[1] * b[1]


def _pack(weights: Mapping[int, int], lo: int, bits: int) -> int:
    packed = 0
    for s, w in weights.items():
        packed |= w << ((s - lo) * bits)
    return packed


@lru_cache(maxsize=1 << 12)
def _subset_sums(values: tuple[tuple[int, int], ...], k: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The sum of ``k`` cards taken at random (without replacement) from ``values`` (value, cards)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (cards taken, sum) -> ways
    for value, n in values:
        grown: dict[tuple[int, int], int] = {}
        for (taken, s), w in ways.items():
            for j in range(min(n, k - taken) + 1):
                key = (taken + j, s + j * value)
                grown[key] = grown.get(key, 0) + w * comb(n, j)
        ways = grown
    return tuple((s, w) for (taken, s), w in ways.items() if taken == k), comb(sum(n for _, n in values), k)


@lru_cache(maxsize=1 << 10)
def _values(pile: Pile, segment: int, kind: int) -> tuple[tuple[int, int], ...]:
    return pile.values(pile.draw if segment == 0 else pile.discard, kind)


@lru_cache(maxsize=1 << 14)
def _value_sums(pile: Pile, reads: Reads) -> Weights:
    """The value total of the cards read, given how many of each kind came from each pile: the
    last counter's cards added to the total of the others (read counts share their first counters,
    so the memo serves those totals again)."""
    for segment, kind in ((1, 2), (1, 1), (0, 2), (0, 1)):
        shift = (segment * KINDS + kind) * READ_BITS
        k = (reads >> shift) & READ_MASK
        if k:
            weights, den = _subset_sums(_values(pile, segment, kind), k)
            rest = reads & ~(READ_MASK << shift) & _VALUE_COUNTERS
            if not rest:
                return dict(weights), den
            return _convolve(_value_sums(pile, rest), (dict(weights), den))
    return {0: 1}, 1


_VALUE_COUNTERS = sum(READ_MASK << ((segment * KINDS + kind) * READ_BITS) for segment in (0, 1) for kind in (1, 2))


# --- the whole attack -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Colour:
    """One colour's first draw grouped by counted blanks (integer weights over ``den``), ready for
    the redraw policy."""

    pile: Pile
    by_blanks: dict[int, list[tuple[Reads, Kinds, Kinds, int, int]]]
    p_blanks: dict[int, Fraction]
    den: int


def _first_draw(pile: Pile, n: int, cap: int) -> _Colour:
    groups: dict[int, list[tuple[Reads, Kinds, Kinds, int, int]]] = {}
    weights: dict[int, int] = {}
    entries, den = _read(pile.kinds(pile.draw), pile.kinds(pile.discard), 0, n, 0)
    for (b, reads, left, discard, segment), w in entries:
        b = min(b, cap)  # this many blanks miss whatever the redraws do
        groups.setdefault(b, []).append((reads, left, discard, segment, w))
        weights[b] = weights.get(b, 0) + w
    return _Colour(pile, groups, {b: Fraction(w, den) for b, w in weights.items()}, den)


def _given(colour: _Colour, b0: int, tokens: int, others: int) -> dict[tuple[int, int], Weights]:
    """(final blanks capped at 2, tokens used) -> value totals, for a colour that drew ``b0`` blanks
    (the chances conditional on ``b0``; totals only where this colour alone does not make a miss)."""
    later = [(reads, q, _redraws(left, discard, segment, b0, tokens, others))
             for reads, left, discard, segment, q in colour.by_blanks[b0]]
    common = lcm(*(rest[1] for *_, rest in later))
    by_reads: dict[tuple[int, int], dict[Reads, int]] = {}
    for reads, q, (entries, rest_den) in later:
        scale = q * (common // rest_den)
        for (fb, more, used), r in entries:
            total = reads + more if fb < 2 else NO_READS
            group = by_reads.setdefault((min(2, fb), used), {})
            group[total] = group.get(total, 0) + r * scale
    norm = 1 / (colour.p_blanks[b0] * colour.den * common)
    return {key: _mix([(_value_sums(colour.pile, reads), w) for reads, w in group.items()], norm)
            for key, group in by_reads.items()}


def hit_totals(piles: Mapping[str, Pile], counts: Mapping[str, int],
               redraws: int = 0) -> tuple[dict[int, Fraction], Fraction]:
    """The chance of each value total on a hit (fewer than two counted blanks), and the miss chance."""
    weights, den = _hit_weights(piles, counts, redraws)
    hits = {s: Fraction(w, den) for s, w in weights.items()}
    return hits, Fraction(den - sum(weights.values()), den)


def _hit_weights(piles: Mapping[str, Pile], counts: Mapping[str, int], redraws: int) -> Weights:
    """Value totals on a hit as integer weights over one denominator (what is left is the miss)."""
    order = [c for c in reversed(COLOURS) if counts.get(c, 0) > 0]  # strongest colour first
    cap = redraws + 2  # each redraw removes at most one blank
    colours = [_first_draw(piles[c], counts[c], cap) for c in order]
    start: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for colour in reversed(colours):
        start = {(b, *vec): p * q for vec, p in start.items() for b, q in colour.p_blanks.items()}
    # states: (tokens left, final blanks of processed colours, first-draw blanks of the rest) -> totals
    states: dict[tuple[int, int, tuple[int, ...]], Weights] = {
        (redraws, 0, vec): ({0: p.numerator}, p.denominator) for vec, p in start.items() if sum(vec) < cap}
    hit_parts: list[tuple[Weights, int]] = [(totals, 1) for totals in states.values()]  # no colour at all
    for i, colour in enumerate(colours):
        last = i == len(colours) - 1
        parts: dict[tuple[int, int, tuple[int, ...]], list[tuple[Weights, int]]] = {}
        final: dict[tuple[int, int, tuple[int, int, int]], list[tuple[Weights, int]]] = {}
        given: dict[tuple[int, int, int], dict[tuple[int, int], Weights]] = {}
        for (t, done, vec), totals in states.items():
            b0, rest = vec[0], vec[1:]
            others = min(2, done + sum(rest))
            asked = (b0, t, others) if t and b0 and b0 + others >= 2 else (b0, 0, 0)  # (b0, 0, 0): no redraw
            if asked not in given:
                given[asked] = _given(colour, *asked)
            for (fb, used), sums in given[asked].items():
                if done + fb >= 2:
                    continue
                if last:  # the final states are only summed: sum the totals first, convolve once
                    final.setdefault((fb, used, asked), []).append((totals, 1))
                else:
                    parts.setdefault((t - used, done + fb, rest), []).append((_convolve(totals, sums), 1))
        if last:
            hit_parts = [(_convolve(_mix(group), given[asked][(fb, used)]), 1)
                         for (fb, used, asked), group in final.items()]
        else:
            states = {key: _mix(group) for key, group in parts.items()}
    return _mix(hit_parts)


def attack_odds(piles: Mapping[str, Pile], counts: Mapping[str, int], defense: int, redraws: int = 0,
                bonus: int = 0, hp_cap: int | None = None) -> AttackOdds:
    """OS-ATK-8/9 + OS-DMG-3: chance to hit, damage on a hit, HP lost = damage // DEFENSE, at most
    ``hp_cap`` (the HP the target's die still holds; OS-DMG-5 ignores the excess)."""
    weights, den = _hit_weights(piles, counts, redraws)  # fractions only for the few figures shown
    per = max(1, defense)
    hit = sum(weights.values())
    damage: dict[int, int] = {}
    hp: dict[int, int] = {0: den - hit} if den > hit else {}
    for s, w in weights.items():
        d = s + bonus
        damage[d] = damage.get(d, 0) + w
        lost = max(0, d // per)
        if hp_cap is not None:
            lost = min(lost, hp_cap)
        hp[lost] = hp.get(lost, 0) + w
    damage_on_hit = {d: Fraction(w, hit) for d, w in sorted(damage.items())} if hit else {}
    expected = Fraction(sum(k * w for k, w in hp.items()), den)
    return AttackOdds(Fraction(hit, den), damage_on_hit, {k: Fraction(w, den) for k, w in sorted(hp.items())},
                      expected)


def check_pass(piles: Mapping[str, Pile], whites: int, difficulty: int, bonus: int = 0) -> Fraction:
    """OS-CHECK-3: the chance a check with ``whites`` white cards passes (total + bonus reaches the
    difficulty with fewer than two counted blanks); no redraws."""
    if whites == 0:
        return Fraction(1 if bonus >= difficulty else 0)
    totals, _ = hit_totals(piles, {"W": whites})
    return sum((p for s, p in totals.items() if s + bonus >= difficulty), Fraction(0))
