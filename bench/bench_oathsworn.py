"""Oathsworn benchmark: exact odds of a planned attack (2 red + 1 black + 4 white cards, critical
chains included, full decks) against 100,000 attacks drawn by a plain Python sampler, then the odds
table: every plan size from 1 to 10 cards with 0, 1 and 2 redraw tokens, cold caches.

Run: ``.venv/bin/python bench/bench_oathsworn.py`` (``--table`` for the table alone, ``--deck-change``
for the cost of a deck change with a plan open, split at the answering frame). Prints figures
and ratios; asserts nothing about time. The exact figures must sit inside the sample's error band
(it says so if they do not).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from tablekeeper.games.oathsworn import odds
from tablekeeper.games.oathsworn.cards import COLOURS, parse_face
from tablekeeper.games.oathsworn.data import load

PLAN = {"R": 2, "B": 1, "W": 4}
DEFENSE = 3
SAMPLES = 100_000


CACHES = (odds._read, odds._redraws, odds._subset_sums, odds._value_sums, odds._values)
# Plans of each size: the cubes a character brings (strong colours first) and whites, or whites alone.
SHAPES = {"R B R Y + whites": ["R", "B", "R", "Y"], "Y + whites": ["Y"], "whites only": []}


def cold() -> None:
    for cache in CACHES:
        cache.cache_clear()


def exact_once() -> tuple[float, odds.AttackOdds]:
    """One cold computation (memo caches emptied first, as when the decks have just changed)."""
    cold()
    piles = {c: odds.Pile.of(c, load().might[c]) for c in COLOURS}
    start = time.perf_counter()
    result = odds.attack_odds(piles, PLAN, DEFENSE)
    return time.perf_counter() - start, result


def sample(n: int, seed: int) -> tuple[float, float, float, float]:
    """(seconds, hit rate, mean HP lost, standard error of the mean HP) from n shuffled attacks."""
    decks = {}
    for colour in PLAN:
        faces = load().might[colour]
        decks[colour] = [(c.value, c.crit) for c in (parse_face(colour, f) for f, k in faces.items() for _ in range(k))]
    rng = random.Random(seed)
    hits = 0
    hp_sum = 0
    hp_sq = 0
    start = time.perf_counter()
    for _ in range(n):
        blanks = 0
        total = 0
        for colour, k in PLAN.items():
            order = decks[colour][:]
            rng.shuffle(order)
            i = 0
            owed = 0
            for _ in range(k):
                value, crit = order[i]
                i += 1
                blanks += value == 0
                total += value
                owed += crit
            while owed and i < len(order):
                value, crit = order[i]
                i += 1
                owed += crit - 1
                total += value
        if blanks < 2:
            hits += 1
            lost = total // DEFENSE
            hp_sum += lost
            hp_sq += lost * lost
    elapsed = time.perf_counter() - start
    mean = hp_sum / n
    var = hp_sq / n - mean * mean
    return elapsed, hits / n, mean, (var / n) ** 0.5


def plan_counts(shape: list[str], size: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for colour in (shape + ["W"] * size)[:size]:
        counts[colour] = counts.get(colour, 0) + 1
    return counts


def table() -> None:
    """The slowest shape per (plan size, redraw tokens): median of 5 cold runs, CPU time of this process."""
    piles = {c: odds.Pile.of(c, load().might[c]) for c in COLOURS}
    print("odds table: exact attack odds from full decks, cold caches, slowest of the plan shapes "
          f"({'; '.join(SHAPES)}), median of 5, CPU ms of this process")
    print("cards | 0 redraws | 1 redraw | 2 redraws | slowest shape at 2")
    worst = 0.0
    for size in range(1, 11):
        cells = []
        slowest = ""
        for tokens in (0, 1, 2):
            per_shape = {}
            for name, shape in SHAPES.items():
                times = []
                for _ in range(5):
                    cold()
                    start = time.process_time()
                    odds.attack_odds(piles, plan_counts(shape, size), DEFENSE, redraws=tokens)
                    times.append(time.process_time() - start)
                per_shape[name] = statistics.median(times)
            slowest = max(per_shape, key=lambda k: per_shape[k])
            cells.append(per_shape[slowest] * 1000)
            worst = max(worst, per_shape[slowest] * 1000)
        print(f"{size} | " + " | ".join(f"{ms:.2f} ms" for ms in cells) + f" | {slowest}")
    print(f"odds table: slowest plan up to 10 cards with up to 2 redraws: {worst:.2f} ms CPU (target < 10 ms)")


def deck_change() -> None:
    """A deck change with an attack plan open (seat 1: 4 extra whites, 2 redraws): seat 2 resolves its
    attack, whose cards leave the MIGHT draw piles. CPU of the command plus the answering frame's
    panels and view, the odds left for after it (as on the station), and of working them out after
    the frame; median of 15."""
    from tablekeeper.core.derived import DerivedViews
    from tablekeeper.core.script import parse_line
    from tablekeeper.core.session import Session
    from tablekeeper.games.oathsworn import GAME

    answer: list[float] = []
    after: list[float] = []
    for seed in range(15):
        s = Session(GAME, seats=4, seed=seed, options={"part": "encounter", "encounter": "practice"})
        setup = ("next", "token 1 redraw 2", "plan 1 head white=4 redraws=2", "next", "attack 2 body white=3")
        for line in setup:
            parsed = parse_line(line)
            assert parsed is not None and s.perform(parsed.command).accepted
        GAME.panels(s.state)
        cold()
        start = time.process_time()
        parsed = parse_line("resolve")
        assert parsed is not None and s.perform(parsed.command).accepted
        views = DerivedViews()
        with views.active(), views.deferred():
            GAME.panels(s.state)
            s.view()
        answer.append(time.process_time() - start)
        start = time.process_time()
        views.fill()
        after.append(time.process_time() - start)
    print(f"deck change with a plan open: command + answering frame {statistics.median(answer) * 1000:.2f} ms CPU, "
          f"odds and best white count after it {statistics.median(after) * 1000:.2f} ms CPU (median of 15)")


def main() -> int:
    if "--table" in sys.argv[1:]:
        table()
        return 0
    if "--deck-change" in sys.argv[1:]:
        deck_change()
        return 0
    exact_once()  # import and first-call costs out of the way
    times = []
    result = None
    for _ in range(15):
        elapsed, result = exact_once()
        times.append(elapsed)
    assert result is not None
    exact_s = statistics.median(times)
    sample_s, hit_rate, mean_hp, se_hp = sample(SAMPLES, seed=1)
    p = float(result.hit)
    se_hit = (p * (1 - p) / SAMPLES) ** 0.5
    print("plan: 2 red + 1 black + 4 white vs DEFENSE 3, critical chains, full 18-card decks")
    print(f"exact odds (cold caches, median of 15): {exact_s * 1000:.2f} ms")
    print(f"sampled {SAMPLES:,} attacks: {sample_s * 1000:.0f} ms")
    print(f"speed-up exact vs sampled: {sample_s / exact_s:.0f}x")
    print(f"hit chance: exact {p * 100:.3f}%, sampled {hit_rate * 100:.3f}% "
          f"(diff {abs(hit_rate - p) / se_hit:.2f} standard errors)")
    print(f"expected HP lost: exact {float(result.expected_hp):.4f}, sampled {mean_hp:.4f} "
          f"(diff {abs(mean_hp - float(result.expected_hp)) / se_hp:.2f} standard errors)")
    cold()
    piles = {c: odds.Pile.of(c, load().might[c]) for c in COLOURS}
    start = time.perf_counter()
    with_redraw = odds.attack_odds(piles, PLAN, DEFENSE, redraws=1)
    print(f"exact odds with 1 redraw token (policy: redraw blanks while missing): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms, hit {float(with_redraw.hit) * 100:.2f}%")
    table()
    deck_change()
    inside = abs(hit_rate - p) < 4 * se_hit and abs(mean_hp - float(result.expected_hp)) < 4 * se_hp
    if not inside:
        print("MISMATCH: exact figures outside 4 standard errors of the sample")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
