"""1.4 Encounter draws from the panel: each investigator draws one encounter card, then one
question, "what stayed in play?", whose first answer ("nothing") settles every draw at once; else,
per investigator, an enemy that spawned (its stats picked from the scenario's encounter sets, or
typed when not listed) or a treachery that stays in a threat area or at a location. Whatever did
not stay goes to the encounter discard pile, so deck and discard stay true across reshuffles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, records
from tablekeeper.games.arkham.data import EncounterEnemy

FATES = ("discarded", "enemy spawned", "treachery: threat area", "treachery: location")
TYPE_IT = "not listed (type it)"


def draw_all(txn: Txn) -> None:
    """1.4 / AH-DRAW-2: one card each, in player order from the lead (AH-ENCDECK-2 reshuffles as
    soon as the deck is empty, ambiguity 15)."""
    drawn = [seat for seat in effects.live_seats(txn.state) if effects.encounter_draw(txn, seat)]
    if drawn:
        records.save(txn, "draws", records.Draws(tuple(drawn)))
        ask(txn)


def ask(txn: Txn) -> None:
    """The question for the draws not told yet (nothing open when all are)."""
    draws = records.load(txn.state, "draws", records.Draws)
    if draws is None or txn.state.prompt is not None:
        return
    if not draws.seats:
        records.save(txn, "draws", None)
        return
    txn.ask("encounter", "What stayed in play?",
            ["nothing", *(f"seat {s}'s card" for s in draws.seats)], context={"seats": list(draws.seats)})


def choose(txn: Txn, index: int) -> None:
    """"nothing": every card drawn goes to the discard pile; else ask about that seat's card."""
    draws = _draws(txn)
    txn.close_prompt()
    if index == 0:
        txn.add("encounter.discard", len(draws.seats))
        records.save(txn, "draws", None)
        return
    seat = draws.seats[index - 1]
    records.save(txn, "draws", msgspec.structs.replace(draws, asking=seat))
    txn.ask("encounter_card", f"Seat {seat}'s encounter card:", list(FATES), seat=seat, context={"seat": seat})


def choose_card(txn: Txn, index: int) -> None:
    draws = _draws(txn)
    seat = draws.asking
    if seat is None:
        raise Rejected("no encounter card is being described")
    txn.close_prompt()
    fate = FATES[index]
    if fate == "enemy spawned":
        known = list(_known(txn.state))  # the data file's order: the common ones first
        txn.ask("encounter_enemy", f"Seat {seat}'s enemy:", [*known, TYPE_IT], seat=seat,
                context={"seat": seat, "names": known})
        return
    if fate == "discarded":
        txn.add("encounter.discard", 1)
    else:
        at = board.where(txn.state, seat) if fate.endswith("location") else None
        if fate.endswith("location") and at is None:
            raise Rejected(f"seat {seat} is at no known location: say threat area, or place it with `enter` first")
        cards = records.treacheries(txn.state)
        name = _free_name(f"Treachery {txn.state.round}.{seat}", cards)
        cards[name] = records.Treachery(seat, at)
        records.save_treacheries(txn, cards)
        txn.notice(f"{name} stays " + (f"at {at}" if at else f"in seat {seat}'s threat area"))
    _told(txn, draws, seat)


def choose_enemy(txn: Txn, index: int) -> None:
    """AH-ENEMY-2: the picked enemy spawns for its drawer (engaged, unless aloof)."""
    draws = _draws(txn)
    prompt = txn.state.prompt
    seat = draws.asking
    if seat is None or prompt is None:
        raise Rejected("no encounter enemy is being picked")
    names = [str(n) for n in prompt.context["names"]]
    txn.close_prompt()
    _told(txn, draws, seat, ask_next=False)
    if index >= len(names):
        txn.notice(f"seat {seat}: type the enemy: enemy seat{seat} NAME fight=F health=H evade=E damage=D horror=R")
    else:
        stats = _known(txn.state)[names[index]]
        name = _free_name(names[index], board.enemies(txn.state))
        board.spawn(txn, seat, name, enemy_record(stats), None)
    ask(txn)


def enemy_record(stats: EncounterEnemy, *, ready: bool = True, weakness_of: int | None = None) -> records.Enemy:
    """A spawning enemy as the board keeps it, from the data file's stats (or the typed ones)."""
    return records.Enemy(stats.fight, stats.health, stats.evade, stats.damage, stats.horror, stats.aloof,
                         stats.hunter, ready, weakness_of=weakness_of)


def _known(state: GameState) -> dict[str, EncounterEnemy]:
    return records.scenario(state).enemies


def _draws(txn: Txn) -> records.Draws:
    draws = records.load(txn.state, "draws", records.Draws)
    if draws is None:
        raise Rejected("no encounter card drawn this Mythos phase is waiting")
    return draws


def _told(txn: Txn, draws: records.Draws, seat: int, *, ask_next: bool = True) -> None:
    left = tuple(s for s in draws.seats if s != seat)
    records.save(txn, "draws", records.Draws(left) if left else None)
    if ask_next:
        ask(txn)


def _free_name(base: str, taken: Mapping[str, Any]) -> str:
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"
