"""Per-Spirit bookkeeping: Energy, card plays against the limit, elements this turn, Power uses
(a Repeat is a new use), and the Time Passes clean-up (SI-TURN-1..3, SI-REPEAT-1)."""

from __future__ import annotations

from typing import Any

from tablekeeper.core.game import Txn, parse_int
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island.common import get, seat_track

ELEMENTS = ("sun", "moon", "fire", "air", "water", "earth", "plant", "animal")
SPEEDS = ("fast", "slow")

# The FAQ rulings that bite most often, shown on a seat's panel in turn (catalogue 2.1, 2.5, 2.13, 2.16).
REMINDERS = (
    "Repeat = a new use",
    "Triggers: after action",
    "Strife off before dmg",
    "Heal at Time Passes",
)


def played(state: GameState, seat: int) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = get(state, f"seat{seat}.played", [])
    return cards


def elements(state: GameState, seat: int) -> dict[str, int]:
    counts: dict[str, int] = get(state, f"seat{seat}.elements", {})
    return counts


def play(txn: Txn, seat: int, cost_text: str, speed: str, element_names: tuple[str, ...]) -> None:
    """SI-TURN-2: plays are limited by Card Plays; the cost is paid now, Fast and Slow alike, and
    the card's elements are gained now."""
    state = txn.state
    if (state.phase, state.step) != ("spirit", "cards"):
        raise Rejected("Power Cards are chosen and paid for in the Spirit Phase (cards step)")
    if seat in state.done:
        raise Rejected(f"seat {seat} is already done choosing cards")
    cost = parse_int(cost_text, "cost")
    if cost < 0:
        raise Rejected("a card's cost cannot be negative")
    if speed not in SPEEDS:
        raise Rejected(f"speed must be fast or slow, not {speed!r}")
    bad = [e for e in element_names if e not in ELEMENTS]
    if bad:
        raise Rejected(f"unknown element {bad[0]!r} (elements: {', '.join(ELEMENTS)})")
    plays, limit = txn.value(seat_track(seat, "cards_played")), txn.value(seat_track(seat, "card_plays"))
    if plays + 1 > limit:
        raise Rejected(f"seat {seat} may play {limit} card(s) this turn and has played {plays}")
    energy = txn.value(seat_track(seat, "energy"))
    if cost > energy:
        raise Rejected(f"seat {seat} has {energy} Energy, the card costs {cost}")
    txn.set(seat_track(seat, "energy"), energy - cost)
    txn.set(seat_track(seat, "cards_played"), plays + 1)
    cards = played(state, seat)
    cards.append({"cost": cost, "speed": speed, "elements": list(element_names), "used": 0})
    txn.put(f"seat{seat}.played", cards)
    counts = elements(state, seat)
    for e in element_names:
        counts[e] = counts.get(e, 0) + 1
    txn.put(f"seat{seat}.elements", counts)


def _card(state: GameState, seat: int, number_text: str) -> tuple[list[dict[str, Any]], int]:
    cards = played(state, seat)
    n = parse_int(number_text, "card number")
    if not 1 <= n <= len(cards):
        raise Rejected(f"seat {seat} has played {len(cards)} card(s) this turn; no card {n}")
    return cards, n - 1


def use(txn: Txn, seat: int, number_text: str) -> None:
    """SI-TURN-1: a card resolves only in its own Power phase; a Slow card stays pending during Fast."""
    cards, i = _card(txn.state, seat, number_text)
    speed = cards[i]["speed"]
    if txn.state.phase != speed:
        raise Rejected(f"card {i + 1} is {speed}: it resolves in the {speed.title()} Power phase"
                       f" (now: {txn.state.phase})")
    if cards[i]["used"]:
        raise Rejected(f"card {i + 1} was already used this turn (a Repeat is 'repeat {seat} {i + 1}')")
    cards[i]["used"] = 1
    txn.put(f"seat{seat}.played", cards)
    _power_used(txn, seat, f"card {i + 1}")


def repeat(txn: Txn, seat: int, number_text: str) -> None:
    """SI-REPEAT-1: Repeating a Power is one more use of a Power."""
    cards, i = _card(txn.state, seat, number_text)
    if not cards[i]["used"]:
        raise Rejected(f"card {i + 1} has not been used yet, so there is nothing to repeat")
    _power_used(txn, seat, f"card {i + 1} (repeated)")


def innate(txn: Txn, seat: int) -> None:
    """An Innate Power use (counts as a Power use like any other)."""
    if txn.state.phase not in SPEEDS:
        raise Rejected("Innate Powers are used in the Fast or Slow Power phase")
    _power_used(txn, seat, "an Innate Power")


def _power_used(txn: Txn, seat: int, what: str) -> None:
    uses = int(txn.state.get(f"seat{seat}.power_uses", 0)) + 1
    txn.put(f"seat{seat}.power_uses", uses)
    txn.notice(f"Seat {seat} uses {what} (Power use {uses} this turn)")
    for text in get(txn.state, f"seat{seat}.whenever", []):
        txn.notice(f"Whenever seat {seat} uses a Power: {text}")


def whenever(txn: Txn, seat: int, text: str) -> None:
    if not text:
        raise Rejected("usage: whenever SEAT TEXT")
    effects = get(txn.state, f"seat{seat}.whenever", [])
    txn.put(f"seat{seat}.whenever", [*effects, text])


def gain_energy(txn: Txn) -> None:
    """Spirit Phase: each Spirit gains its Energy per turn (the highest uncovered Energy number)."""
    for seat in txn.state.seat_numbers():
        gain = txn.value(seat_track(seat, "energy_per_turn"))
        if gain:
            txn.add(seat_track(seat, "energy"), gain)


def time_passes(txn: Txn) -> None:
    """SI-TURN-3: played cards to discard, elements cleared, this-turn effects end, Damage healed."""
    for seat in txn.state.seat_numbers():
        txn.set(seat_track(seat, "cards_played"), 0)
        for key in ("played", "elements", "power_uses", "whenever"):
            txn.put(f"seat{seat}.{key}", None)
    lands = get(txn.state, "lands", {})
    for rec in lands.values():
        rec["defend"] = 0
    txn.put("lands", lands)
    txn.put("invader.explore_cards", None)
    txn.put("ravage.blight_boards", None)
    txn.notice("Time passes: heal all Damage; Defend, Isolate and other this-turn effects end")
