"""Assets in a seat's play area that the tracker follows: those that soak damage or horror
(AH-ASSET-2, AH-DMG-3..11) and those that exhaust (AH-EXHAUST)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import effects


def assets(state: GameState, seat: int) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = thaw(state.get("assets", {})).get(str(seat), {})
    return out


def _save_assets(txn: Txn, seat: int, cards: Mapping[str, Any]) -> None:
    effects.put_map(txn, "assets", str(seat), dict(cards))


def add(txn: Txn, seat: int, name: str, health: int | None, sanity: int | None) -> None:
    cards = assets(txn.state, seat)
    if name in cards:
        raise Rejected(f"seat {seat} already has an asset called {name!r}")
    cards[name] = {"health": health, "sanity": sanity, "damage": 0, "horror": 0, "exhausted": False}
    _save_assets(txn, seat, cards)


def asset(state: GameState, seat: int, name: str) -> dict[str, Any]:
    found = assets(state, seat).get(name)
    if found is None:
        known = ", ".join(sorted(assets(state, seat))) or "none"
        raise Rejected(f"seat {seat} controls no asset {name!r} (assets: {known})")
    return found


def set_exhausted(txn: Txn, seat: int, name: str, exhausted: bool) -> None:
    card = asset(txn.state, seat, name)
    if card["exhausted"] == exhausted:
        raise Rejected(f"{name} is already {'exhausted' if exhausted else 'ready'}")
    cards = assets(txn.state, seat)
    cards[name] = {**card, "exhausted": exhausted}
    _save_assets(txn, seat, cards)


def assign(txn: Txn, seat: int, damage: int, horror: int,
                     assigned: Mapping[str, tuple[int, int]]) -> None:
    """AH-DMG-3..6: each asset takes only what it can (damage needs a health value, horror a sanity
    value, never more than defeats it); the rest goes to the investigator. AH-DMG-8: all lands at
    once; AH-DMG-11: a defeated asset goes to its owner's discard pile."""
    cards = assets(txn.state, seat)
    to_assets = [0, 0]
    for name, (d, h) in assigned.items():
        card = asset(txn.state, seat, name)
        for amount, kind, limit in ((d, "damage", "health"), (h, "horror", "sanity")):
            if amount == 0:
                continue
            if card[limit] is None:
                raise Rejected(f"{name} has no {limit}: it cannot take {kind}")
            room = int(card[limit]) - int(card[kind])
            if amount > room:
                raise Rejected(f"{name} can take at most {room} more {kind}")
        to_assets[0] += d
        to_assets[1] += h
    if to_assets[0] > damage or to_assets[1] > horror:
        raise Rejected(f"assigned {to_assets[0]} damage / {to_assets[1]} horror, only {damage} / {horror} dealt")
    for name, (d, h) in assigned.items():
        card = {**cards[name], "damage": int(cards[name]["damage"]) + d, "horror": int(cards[name]["horror"]) + h}
        defeated = (card["health"] is not None and card["damage"] >= card["health"]) or \
                   (card["sanity"] is not None and card["horror"] >= card["sanity"])
        if defeated:
            del cards[name]
            txn.add(f"seat{seat}.discard", 1)
            txn.notice(f"{name} is defeated and discarded")
        else:
            cards[name] = card
    if assigned:
        _save_assets(txn, seat, cards)
    effects.take_harm(txn, seat, damage - to_assets[0], horror - to_assets[1])


def ready_all(txn: Txn, seat: int) -> None:
    """4.3: the seat's exhausted assets ready."""
    cards = assets(txn.state, seat)
    if any(c["exhausted"] for c in cards.values()):
        _save_assets(txn, seat, {n: {**c, "exhausted": False} for n, c in cards.items()})
