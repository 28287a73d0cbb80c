"""What an action does once its costs are paid and its attacks of opportunity are over (AH-AOO-5):
draw, resource, move, engage, resign, or the skill test of investigate, fight and evade."""

from __future__ import annotations

from tablekeeper.core.game import Txn
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, rules, skilltest
from tablekeeper.games.arkham.records import Provoked


def resolve(txn: Txn, action: Provoked) -> None:
    seat, kind, target = action.seat, action.kind, action.target
    if kind == "draw":
        effects.draw_cards(txn, seat, 1)  # AH-DRAWACT-1
    elif kind == "resource":
        txn.add(f"seat{seat}.resources", 1)
    elif kind == "move":
        board.enter(txn, seat, str(target))
    elif kind == "engage":
        board.engage(txn, str(target), seat)  # AH-ENGAGE-1/2
    elif kind == "resign":
        effects.eliminate(txn, seat, rules.Defeat("resign"))
    elif kind in ("investigate", "fight", "evade"):
        _test(txn, action)


def _test(txn: Txn, action: Provoked) -> None:
    seat, kind, target = action.seat, action.kind, action.target
    skill = {"investigate": "intellect", "fight": "combat", "evade": "agility"}[kind]
    base = action.skill if action.skill is not None else effects.seat_info(txn.state, seat).skills[skill]
    if kind == "investigate":
        if target is not None:
            difficulty = int(target)
        else:
            loc = board.where(txn.state, seat)
            if loc is None:
                raise Rejected("investigate needs a difficulty (act SEAT investigate N) or a location (enter)")
            difficulty = board.location(txn.state, loc).shroud  # AH-DIFF-2
        skilltest.begin(txn, seat, skill, base, difficulty, "investigate")
    else:
        foe = board.enemy(txn.state, str(target))
        difficulty = board.modified(foe, "fight" if kind == "fight" else "evade")  # AH-DIFF-2, AH-BASE-1
        skilltest.begin(txn, seat, skill, base, difficulty, kind, str(target))
