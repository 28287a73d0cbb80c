"""Assets in a seat's play area that the tracker follows: those that soak damage or horror
(AH-ASSET-2, AH-DMG-3..11) and those that exhaust (AH-EXHAUST)."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import effects
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import AssetCard


def assets(state: GameState, seat: int) -> dict[str, AssetCard]:
    """The seat's assets in play (a copy the caller may change and save)."""
    return dict(rec(state).assets.get(str(seat)) or {})


def _save_assets(txn: Txn, seat: int, cards: Mapping[str, AssetCard] | None) -> None:
    txn.put("assets", {**rec(txn.state).assets, str(seat): cards})


def add(txn: Txn, seat: int, name: str, health: int | None, sanity: int | None) -> None:
    cards = assets(txn.state, seat)
    if name in cards:
        raise Rejected(f"seat {seat} already has an asset called {name!r}")
    cards[name] = AssetCard(health, sanity)
    _save_assets(txn, seat, cards)


def asset(state: GameState, seat: int, name: str) -> AssetCard:
    found = assets(state, seat).get(name)
    if found is None:
        known = ", ".join(sorted(assets(state, seat))) or "none"
        raise Rejected(f"seat {seat} controls no asset {name!r} (assets: {known})")
    return found


def set_exhausted(txn: Txn, seat: int, name: str, exhausted: bool) -> None:
    card = asset(txn.state, seat, name)
    if card.exhausted == exhausted:
        raise Rejected(f"{name} is already {'exhausted' if exhausted else 'ready'}")
    cards = assets(txn.state, seat)
    cards[name] = msgspec.structs.replace(card, exhausted=exhausted)
    _save_assets(txn, seat, cards)


def assign(txn: Txn, seat: int, damage: int, horror: int, assigned: Mapping[str, tuple[int, int]]) -> None:
    """AH-DMG-3..6: each asset takes only what it can (damage needs a health value, horror a sanity
    value, never more than defeats it); the rest goes to the investigator. AH-DMG-8: all lands at
    once; AH-DMG-11: a defeated asset goes to its owner's discard pile."""
    cards = assets(txn.state, seat)
    to_assets = [0, 0]
    for name, (d, h) in assigned.items():
        card = asset(txn.state, seat, name)
        for amount, kind, limit, have in ((d, "damage", card.health, card.damage),
                                          (h, "horror", card.sanity, card.horror)):
            if amount == 0:
                continue
            if limit is None:
                raise Rejected(f"{name} has no {'health' if kind == 'damage' else 'sanity'}: it cannot take {kind}")
            if amount > limit - have:
                raise Rejected(f"{name} can take at most {limit - have} more {kind}")
        to_assets[0] += d
        to_assets[1] += h
    if to_assets[0] > damage or to_assets[1] > horror:
        raise Rejected(f"assigned {to_assets[0]} damage / {to_assets[1]} horror, only {damage} / {horror} dealt")
    for name, (d, h) in assigned.items():
        card = msgspec.structs.replace(cards[name], damage=cards[name].damage + d, horror=cards[name].horror + h)
        if card.defeated():
            del cards[name]
            txn.add(seat_track(seat, "discard"), 1)
            txn.notice(f"{name} is defeated and discarded")
        else:
            cards[name] = card
    if assigned:
        _save_assets(txn, seat, cards)
    effects.take_harm(txn, seat, damage - to_assets[0], horror - to_assets[1])


def ready_all(txn: Txn, seat: int) -> None:
    """4.3: the seat's exhausted assets ready."""
    cards = assets(txn.state, seat)
    if any(c.exhausted for c in cards.values()):
        _save_assets(txn, seat, {n: msgspec.structs.replace(c, exhausted=False) for n, c in cards.items()})


def remove_all(txn: Txn, seat: int) -> None:
    """AH-ELIM-3 step 1: an eliminated investigator's cards in play leave the game."""
    if assets(txn.state, seat):
        _save_assets(txn, seat, None)
