"""Exact chance that a test succeeds, from what is left in the challenge deck (ER-TEST-1, ER-CHAL-3)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tablekeeper.core.chance import Deck
from tablekeeper.core.odds import map_distribution, probability
from tablekeeper.games.earthborne.rules import test_total


def total_distribution(deck: Deck, table: Mapping[str, Mapping[str, Any]], aspect: str, effort: int,
                       floor: int) -> dict[int, Fraction]:
    """The distribution of total effort after the next challenge card (the deck reshuffles if empty)."""
    dist = map_distribution(deck.outcomes(), lambda card: test_total(effort, int(table[card][aspect]), floor))
    return {int(k): p for k, p in dist.items()}  # type: ignore[call-overload]


def success_chance(deck: Deck, table: Mapping[str, Mapping[str, Any]], aspect: str, effort: int,
                   difficulty: int, floor: int) -> Fraction:
    """Exact chance that ``effort`` committed to an ``aspect`` test meets ``difficulty``."""
    return probability(total_distribution(deck, table, aspect, effort, floor), lambda total: total >= difficulty)
