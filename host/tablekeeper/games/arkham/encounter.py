"""Encounter cards from the scenario's data coming into play: an enemy with its printed numbers (health
per investigator counted now), keywords and traits, spawned by its spawn instruction (AH-ENEMY-2,
AH-SPAWN-1); where the instruction leaves a choice (its prey, "any empty location") the players
answer a prompt."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, records
from tablekeeper.games.arkham.content import EncounterCard
from tablekeeper.games.arkham.parsing import fold
from tablekeeper.games.arkham.record import rec


def known_card(state: GameState, text: str) -> tuple[str, EncounterCard] | None:
    """The scenario's encounter card a name means (accents and case do not matter), or None."""
    cards = rec(state).scenario.cards
    want = fold(text)
    for name, card in cards.items():
        if fold(name) == want:
            return name, card
    return None


def enemy_record(card: EncounterCard, investigators: int, *, name: str | None = None, ready: bool = True,
                 weakness_of: int | None = None) -> records.Enemy:
    """An enemy as the board keeps it: printed numbers, health per investigator counted now."""
    return records.Enemy(card.fight or 0, card.health_for(investigators), card.evade or 0, card.damage or 0,
                         card.horror or 0, "aloof" in card.keywords, "hunter" in card.keywords, ready,
                         weakness_of=weakness_of, card=name, prey=card.prey, traits=card.traits,
                         keywords=tuple(card.keywords),
                         victory=card.victory, verified=card.verified)


def free_name(base: str, taken: Mapping[str, Any]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


def spawns_instead(state: GameState, name: str | None) -> str | None:
    """A location in play whose Forced effect makes the enemy ``name`` spawn there instead of where it
    would (Your House 01124: the Ghoul Priest), or None."""
    if name is None:
        return None
    specs = rec(state).scenario.locations
    for loc, place in sorted(board.locations(state).items()):
        spec = specs.get(place.spec) if place.spec is not None else None
        if spec is not None and name in spec.spawns_here:
            return loc
    return None


def spawn_card(txn: Txn, seat: int, name: str, *, at: str | None = None, doom: int = 0, ready: bool = True) -> None:
    """The enemy ``name`` of the scenario's data comes into play for ``seat`` (its drawer): at ``at``
    when a card says where, else by its own spawn instruction; without one it engages its drawer.
    ``ready=False`` is the table's word that it came into play exhausted, kept whichever way it spawns."""
    card = rec(txn.state).scenario.cards[name]
    foe = enemy_record(card, effects.investigator_count(txn.state), name=name, ready=ready)
    label = free_name(name, board.enemies(txn.state))
    where = spawns_instead(txn.state, name) or (at if at is not None else card.spawn)  # 01124
    if where == "prey":
        ask_prey(txn, label, foe, card.prey or "its prey", doom + card.doom)
        return
    if where == "empty":
        empty = [loc for loc in sorted(board.locations(txn.state)) if board.is_empty(txn.state, loc)]
        if len(empty) > 1:
            txn.ask("spawn_where", f"{label} spawns at an empty location: which?", empty,
                    context={"enemy": label, "card": name, "seat": seat, "doom": doom + card.doom,
                             "places": empty, "ready": ready})
            return
        if not empty and board.locations(txn.state):
            _discarded(txn, label, "no empty location")
            return
        where = empty[0] if empty else None
    if where is not None and where not in board.locations(txn.state):
        if board.locations(txn.state):  # its spawn location is not in play (outside the seeds: discarded)
            _discarded(txn, label, f"{where} is not in play")
            return
        where = None
    place(txn, seat, label, foe, where, doom + card.doom)


def place(txn: Txn, seat: int, label: str, foe: records.Enemy, where: str | None, doom: int) -> None:
    """Into play: at ``where``, else engaged with ``seat``; a massive enemy stays at its location."""
    if where is None and foe.has("massive"):
        where = board.where(txn.state, seat)
    board.spawn(txn, seat, label, foe, where)
    if doom:
        board.enemy_doom(txn, label, doom)
    if not foe.verified:
        txn.notice(f"{label}: its numbers are unverified data")


def ask_prey(txn: Txn, label: str, foe: records.Enemy, prey: str, doom: int) -> None:
    """Spawn engaged with its prey: the one investigator, or the one the players name."""
    seats = board.prey_candidates(txn, label, foe.prey, effects.live_seats(txn.state))
    if len(seats) == 1:
        spawn_engaged(txn, seats[0], label, foe, doom)
        return
    txn.ask("spawn_prey", f"{label} engages its prey ({prey}): whom?", [f"seat {s}" for s in seats],
            context={"enemy": label, "record": _builtins(foe), "seats": seats, "doom": doom})


def spawn_engaged(txn: Txn, seat: int, label: str, foe: records.Enemy, doom: int) -> None:
    board.spawn(txn, seat, label, foe, None)
    if doom:
        board.enemy_doom(txn, label, doom)


def choose_prey(txn: Txn, index: int) -> None:
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("no enemy is looking for its prey")
    context = prompt.context
    txn.close_prompt()
    foe = msgspec.convert(thaw(context["record"]), type=records.Enemy)
    spawn_engaged(txn, int(context["seats"][index]), str(context["enemy"]), foe, int(context["doom"]))


def choose_place(txn: Txn, index: int) -> None:
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("no enemy is waiting for its location")
    context = prompt.context
    txn.close_prompt()
    card = rec(txn.state).scenario.cards[str(context["card"])]
    foe = enemy_record(card, effects.investigator_count(txn.state), name=str(context["card"]),
                       ready=bool(context.get("ready", True)))
    place(txn, int(context["seat"]), str(context["enemy"]), foe, str(context["places"][index]), int(context["doom"]))


def _discarded(txn: Txn, label: str, why: str) -> None:
    txn.add("encounter.discard", 1)
    txn.notice(f"{label} cannot spawn ({why}): discarded")


def _builtins(foe: records.Enemy) -> Any:
    return msgspec.to_builtins(foe)
