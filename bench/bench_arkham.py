"""Arkham benchmark: exact odds of a skill test from a 30-token chaos bag holding 3 bless and
3 curse tokens (chained "reveal another" draws), against a 100,000-draw sampled estimate of the
same probability by a plain sampler (token effects worked out once, draws without copying the bag),
which is what a fair comparison needs. Target: exact in under 5 ms.

Run: ``.venv/bin/python bench/bench_arkham.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping

from tablekeeper.core.derived import DerivedViews
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.games.arkham import GAME, skilltest
from tablekeeper.games.arkham.data import TokenKind
from tablekeeper.games.arkham.odds import success_chance, token_effect
from tablekeeper.games.arkham.rules import skill_test_result

SAMPLES = 100_000
RUNS = 50
SKILL, DIFFICULTY = 4, 3
EXTRA = {"bless": 3, "curse": 3, "0": 2, "-1": 2, "-2": 2, "cultist": 1, "elder_thing": 1}



def sampled_chance(bag: Mapping[str, int], tokens: Mapping[str, TokenKind], skill: int, difficulty: int,
                   elder_sign: int, samples: int, rng: random.Random) -> float:
    """The same probability estimated by drawing ``samples`` times (what sampling helpers do)."""
    pool = [name for name, n in sorted(bag.items()) for _ in range(n)]
    wins = 0
    for _ in range(samples):
        left = list(pool)
        drawn = []
        while left:
            name = left.pop(rng.randrange(len(left)))
            drawn.append(name)
            if not tokens[name].again:
                break
        modifier, autofail = token_effect(drawn, tokens, elder_sign)
        wins += skill_test_result(skill, modifier, difficulty, autofail=autofail).success
    return wins / samples


def bench_session() -> Session:
    """A Hard game of The Gathering (its cultist reveals another) with the bag grown to 30 tokens."""
    session = Session(GAME, seats=2, seed=1, options={"difficulty": "hard"})
    for token, n in EXTRA.items():
        session.perform(Command("token", ("add", token, str(n))))
    session.perform(Command("token", ("remove", "-5", "1")))
    session.perform(Command("test", ("seat1", "intellect", str(SKILL), str(DIFFICULTY))))
    return session


def plain_sampled_chance(bag: dict[str, int], tokens: dict[str, TokenKind], skill: int, difficulty: int,
                         elder_sign: int, samples: int, rng: random.Random) -> float:
    """A plain Monte Carlo estimate: each single token's result is known in advance, so a draw that
    does not chain is one random index; only chained draws are worked out token by token."""
    pool = [name for name, n in sorted(bag.items()) for _ in range(n)]
    size = len(pool)
    chains = [tokens[name].again for name in pool]
    single = [_wins([name], tokens, skill, difficulty, elder_sign) for name in pool]
    wins = 0
    randrange = rng.randrange
    for _ in range(samples):
        i = randrange(size)
        if not chains[i]:
            wins += single[i]
            continue
        taken = {i}
        drawn = [pool[i]]
        while chains[i] and len(taken) < size:
            i = randrange(size)
            if i in taken:
                continue
            taken.add(i)
            drawn.append(pool[i])
        wins += _wins(drawn, tokens, skill, difficulty, elder_sign)
    return wins / samples


def _wins(drawn: list[str], tokens: dict[str, TokenKind], skill: int, difficulty: int, elder_sign: int) -> bool:
    modifier, autofail = token_effect(drawn, tokens, elder_sign)
    return skill_test_result(skill, modifier, difficulty, autofail=autofail).success


def main() -> None:
    session = bench_session()
    state = session.state
    bag = skilltest.chaos_bag(state).contents.as_dict()
    tokens = skilltest.token_kinds(state, 1)
    elder = skilltest.elder_sign(state, 1)
    size = sum(bag.values())
    assert size == 30 and bag["bless"] == 3 and bag["curse"] == 3, bag  # the set-up, not a timing

    times_ms = []
    for _ in range(RUNS):
        start = time.perf_counter()
        exact = success_chance(bag, tokens, SKILL, DIFFICULTY, elder)
        times_ms.append((time.perf_counter() - start) * 1000)
    exact_ms = statistics.median(times_ms)

    test = skilltest.current(state)
    assert test is not None
    start = time.perf_counter()
    views = DerivedViews()  # the station's, made active while it draws
    with views.active():
        for _ in range(RUNS):
            views.clear()  # as the display asks when the bag or the test has just changed
            skilltest.odds(state, test)
        display_ms = (time.perf_counter() - start) * 1000 / RUNS
        start = time.perf_counter()
        for _ in range(RUNS):
            skilltest.odds(state, test)
    cached_ms = (time.perf_counter() - start) * 1000 / RUNS

    start = time.perf_counter()
    sampled = plain_sampled_chance(bag, tokens, SKILL, DIFFICULTY, elder, SAMPLES, random.Random(1))
    sampled_ms = (time.perf_counter() - start) * 1000

    print(f"chaos bag: {size} tokens ({', '.join(f'{k} x{v}' for k, v in sorted(bag.items()))})")
    print(f"test: skill {SKILL} vs difficulty {DIFFICULTY}, elder sign {elder:+d}")
    print(f"exact:   {exact.numerator}/{exact.denominator} = {float(exact):.6f}  "
          f"median {exact_ms:.3f} ms over {RUNS} runs (target < 5 ms)")
    print(f"as the display asks (state -> odds): {display_ms:.3f} ms per call after a change, "
          f"{cached_ms:.4f} ms when nothing it depends on changed (cached)")
    print(f"sampled (plain sampler): {sampled:.6f} from {SAMPLES:,} draws in {sampled_ms:.1f} ms "
          f"(off by {abs(sampled - float(exact)):.6f})")
    print(f"exact is {sampled_ms / exact_ms:,.0f} times faster than a plain sampler's 100,000 draws")


if __name__ == "__main__":
    main()
