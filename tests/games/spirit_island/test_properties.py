"""Invariants over many games: Fear accounting never loses or invents Fear, and any sequence of
device flips deals the Invader deck stage by stage."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import answer_counts, record, run, session, to_step, tracks


@given(seats=st.integers(1, 4), amounts=st.lists(st.integers(1, 7), min_size=1, max_size=12))
@settings(max_examples=40, deadline=None)
def test_fear_is_conserved_until_the_deck_runs_out(seats: int, amounts: list[int]) -> None:
    s = session(seats=seats)
    generated = 0
    for amount in amounts:
        run(s, f"fear {amount}")
        generated += amount
        t = tracks(s)
        earned = 9 - t["fear.cards_left"]
        if s.state.over:
            assert t["fear.cards_left"] == 0 and generated >= 9 * t["fear.pool"]
            return
        assert 0 <= t["fear.generated"] < t["fear.pool"]
        assert earned * t["fear.pool"] + t["fear.generated"] == generated
        assert t["terror"] == min(3, 1 + earned // 3)


@given(seed=st.integers(0, 10_000))
@settings(max_examples=8, deadline=None)
def test_device_flips_deal_three_stages_in_order(seed: int) -> None:
    s = session(seats=1, seed=seed)
    run(s, "next")
    while tracks(s)["invader.cards_left"] > 0:
        to_step(s, "invader", "explore")
        answer_counts(s)
        run(s, "next")
    slots = record(s).slots.as_mapping()
    order = [*record(s).discard, *slots["ravage"], *slots["build"], *slots["explore"]]
    assert len(order) == 12
    stage1, stage2, stage3 = order[:3], order[3:7], order[7:]
    assert all("+" not in c and c != "Coastal" for c in stage1) and len(set(stage1)) == 3
    assert all("+" not in c for c in stage2) and len(set(stage2)) == 4
    assert all("+" in c for c in stage3) and len(set(stage3)) == 5
