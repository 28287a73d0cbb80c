"""Exact odds of the next Invader card: each card left in the current stage's pool is equally
likely to be next (the card sent back unseen is one of them), so the deck's own outcome list is
the exact distribution."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from tablekeeper.core.chance import Deck
from tablekeeper.core.odds import percent, probability
from tablekeeper.games.spirit_island.invader_rules import card_terrains


def next_card_terrains(deck: Deck, terrains: Sequence[str]) -> dict[str, Fraction]:
    """P(the next Explore card shows each terrain), plus "Coastal" for the Coastal Lands card."""
    dist = deck.outcomes()
    if not dist:
        return {}
    def shows(terrain: str) -> Callable[[str], bool]:
        return lambda card: terrain in card_terrains(card)

    out = {t: probability(dist, shows(t)) for t in terrains}
    out["Coastal"] = probability(dist, lambda card: card == "Coastal")
    return out


def as_percent(odds: dict[str, Fraction]) -> dict[str, str]:
    return {name: percent(p) for name, p in odds.items()}
