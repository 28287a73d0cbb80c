"""The scenario reference card read against the board (AH-CHAOS-2): a "-X" counted from the enemies
and doom in play, a "reveal another" that holds only in some positions, and whether the station can
see enough of the board to know (an enemy typed by hand has no traits; an investigator with no
location cannot tell what stands beside them)."""

from __future__ import annotations

import msgspec

from tablekeeper.core.state import GameState
from tablekeeper.games.arkham import board
from tablekeeper.games.arkham.content import SymbolEffect, When, XCount
from tablekeeper.games.arkham.data import TokenKind
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import Enemy


class Reading(msgspec.Struct, frozen=True):
    """A number the board gives, and whether the station saw all of it (else it is a lower bound)."""

    value: int
    known: bool = True


def _matches(foe: Enemy, trait: str | None) -> bool | None:
    """Whether the enemy has the trait (None: an enemy typed by hand, whose traits are not known)."""
    if trait is None:
        return True
    if foe.card is None and not foe.traits:
        return None
    return trait.casefold() in (t.casefold() for t in foe.traits)


def _here(state: GameState, seat: int, foe: Enemy) -> bool | None:
    """Whether the enemy is at the investigator's location (engaged with them, or beside them)."""
    if foe.engaged == seat:
        return True
    here = board.where(state, seat)
    there = board.enemy_location(state, foe)
    if here is None or there is None:
        return None
    return here == there


def count(state: GameState, seat: int, x: XCount) -> Reading:
    """The X of a "-X" line for the investigator testing."""
    if x.count == "doom_in_play":
        return Reading(state.value("agenda.doom") + state.value("doom.other"))
    total, best, known = 0, 0, True
    for foe in board.enemies(state).values():
        kind = _matches(foe, x.trait)
        place = _here(state, seat, foe) if x.count == "enemies_here" else True
        if kind is False or place is False:
            continue
        if kind is None or place is None:
            known = False
            continue
        total += 1
        best = max(best, foe.doom)
    return Reading(best if x.count == "most_doom_on_enemy" else total, known)


def holds(state: GameState, seat: int, when: When) -> bool | None:
    """A condition on the board (None: the station cannot tell)."""
    trait = when.enemy_here or when.enemy_in_play or when.no_enemy_in_play
    found = count(state, seat, XCount(count="enemies_here" if when.enemy_here else "enemies_in_play", trait=trait))
    if found.value > 0:
        return when.no_enemy_in_play is None
    if not found.known:
        return None
    return when.no_enemy_in_play is not None


def effects(state: GameState) -> dict[str, SymbolEffect]:
    """The reference side in play, less the symbols the table pinned with ``token-value``."""
    pinned = rec(state).pinned
    return {sym: eff for sym, eff in rec(state).scenario.reference.items() if sym not in pinned}


def tokens_for(state: GameState, seat: int) -> dict[str, TokenKind]:
    """The token table for a test by ``seat``: each symbol's modifier and "reveal another" read
    against the board now (what the odds and the result use)."""
    table = dict(rec(state).tokens)
    for symbol, effect in effects(state).items():
        value = effect.value - (count(state, seat, effect.minus_x).value if effect.minus_x else 0)
        again = effect.again or (effect.again_when is not None and holds(state, seat, effect.again_when) is True)
        table[symbol] = msgspec.structs.replace(table[symbol], value=value, again=again)
    return table


def unseen(state: GameState, seat: int) -> list[str]:
    """Symbols whose figure rests on a part of the board the station cannot see (odds say so)."""
    out = []
    for symbol, effect in effects(state).items():
        if (effect.minus_x and not count(state, seat, effect.minus_x).known) or \
                (effect.again_when and holds(state, seat, effect.again_when) is None):
            out.append(symbol)
    return out
