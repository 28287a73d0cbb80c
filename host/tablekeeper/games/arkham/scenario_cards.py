"""The scenario's agenda and act cards in play: advancing them with what their reverse side does
(AH-ACTAG-8..11), the Objectives the station can check (an enemy defeated, a location entered,
cards in the victory display), and a resolution the lead investigator picks."""

from __future__ import annotations

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, encounter, steps
from tablekeeper.games.arkham.data import Card
from tablekeeper.games.arkham.parsing import fold
from tablekeeper.games.arkham.record import rec


def advance_agenda(txn: Txn, why: str) -> None:
    """AH-ACTAG-8..10, then its reverse side's steps (once the next agenda is current); a side that
    reads the act does its late steps instead of its resolution (01107)."""
    current = effects.card(txn.state, "agenda")
    late = effects.late_side(txn.state, "agenda", current)
    effects.advance_agenda(txn, why)
    if late is not None and txn.state.over is None:
        steps.run(txn, late, txn.state.lead, source=current.name)
        return
    _then(txn, current)


def advance_act(txn: Txn, why: str) -> None:
    current = effects.card(txn.state, "act")
    effects.advance_act(txn, why)
    _then(txn, current)


def _then(txn: Txn, card: Card) -> None:
    if txn.state.over is None and card.then:
        steps.run(txn, card.then, txn.state.lead, source=card.name)


def unmet(state: GameState, card: Card) -> str | None:
    """Why the card's checked Objective is not met yet (None: it is, or it has none to check)."""
    goal = card.goal
    if goal is None:
        return None
    if goal.defeat is not None:
        want = fold(goal.defeat)
        gone = [*rec(state).defeated_cards, *rec(state).defeated_enemies]
        if not any(fold(str(name)) == want for name in gone):
            alive = any(fold(str(foe.card or name)) == want for name, foe in board.enemies(state).items())
            return f"{goal.defeat} is {'still in play' if alive else 'not defeated yet'}"
    if goal.enter is not None:
        here = [s for s in effects.live_seats(state) if _at(state, s, goal.enter)]
        if not here:
            return f"no investigator has entered {goal.enter}"
    if goal.victory_trait is not None:
        found = {name for name in rec(state).victory_cards if _has_trait(state, name, goal.victory_trait)}
        if len(found) < goal.count:
            return f"{len(found)} of {goal.count} {goal.victory_trait} enemies in the victory display"
    return None


def _at(state: GameState, seat: int, key: str) -> bool:
    loc = board.where(state, seat)
    if loc is None:
        return False
    place = board.locations(state).get(loc)
    return loc == key or (place is not None and place.spec == key)


def _has_trait(state: GameState, name: str, trait: str) -> bool:
    found = encounter.known_card(state, name)
    return found is not None and trait in found[1].traits


def check_objectives(txn: Txn) -> None:
    """An Objective the station can see met advances its card at once (an act: its reverse side,
    or its resolution; an agenda with an Objective the same way)."""
    for deck in ("act", "agenda"):
        if txn.state.over is not None or txn.state.prompt is not None:
            return
        card = effects.card(txn.state, deck)
        if card.goal is not None and unmet(txn.state, card) is None:
            (advance_act if deck == "act" else advance_agenda)(txn, "objective met")


def advance_objective(txn: Txn) -> None:
    """``advance act objective``: the players say the act's Objective is met; a checked one must be."""
    current = effects.card(txn.state, "act")
    if not current.objective:
        raise Rejected("this act advances by spending clues (spend-clues SEAT:N ...)")
    why = unmet(txn.state, current)
    if why is not None:
        raise Rejected(f"the objective is not met: {why} ({current.objective})")
    advance_act(txn, "objective met")


def round_end_spend(state: GameState) -> str | None:
    """An act whose clues are spent as the round ends, with enough clues among the investigators
    where it says: the location they stand at (None: nothing to offer now)."""
    card = effects.card(state, "act")
    if card.spend is None or card.spend.when != "round_end" or card.objective:
        return None
    where = card.spend.at
    seats = [s for s in effects.live_seats(state) if where is None or _at(state, s, where)]
    held = sum(effects.seat_value(state, s, "clues") for s in seats)
    need = state.value("act.clues_required")
    return (where or "anywhere") if seats and held >= need else None


def spenders(state: GameState) -> list[int] | None:
    """Who may spend clues on the act now (None: anyone, during an investigator's turn)."""
    card = effects.card(state, "act")
    if card.spend is None:
        return None
    if state.step != "4.6":
        raise Rejected(f"{card.name}: its clues are spent as the round ends (4.6), by the investigators "
                       f"{'at ' + card.spend.at if card.spend.at else 'together'}")
    where = card.spend.at
    return [s for s in effects.live_seats(state) if where is None or _at(state, s, where)]
