"""What an action does once its costs are paid and its attacks of opportunity are over (AH-AOO-5):
draw, resource, move, engage, resign, the skill test of investigate, fight and evade, or of a
treachery's [action] ability (``threat.activated``)."""

from __future__ import annotations

from tablekeeper.core.game import Txn, parse_int
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, rules, skilltest, threat
from tablekeeper.games.arkham.content import Step
from tablekeeper.games.arkham.records import Provoked


def resolve(txn: Txn, action: Provoked) -> None:
    seat, kind, target = action.seat, action.kind, action.target
    if kind == "draw":
        effects.draw_cards(txn, seat, 1)  # AH-DRAWACT-1
    elif kind == "resource":
        txn.add(seat_track(seat, "resources"), 1)
    elif kind == "move":
        move_out(txn, seat, str(target))
    elif kind == "engage":
        board.engage(txn, str(target), seat)  # AH-ENGAGE-1/2
    elif kind == "resign":
        effects.eliminate(txn, seat, rules.Defeat("resign"))
    elif kind in ("investigate", "fight", "evade"):
        _test(txn, action)
    elif kind == "activate" and action.ability is not None:  # 01174, 01182
        threat.activated(txn, seat, str(target), action.ability, action.skill)


def move_out(txn: Txn, seat: int, target: str) -> None:
    """The move action's effect. Out of a location with a Forced test when one moves out of it
    (01151 Twisting Paths: intellect (3); AH-FORCED-4, before the move), the move waits for the
    test: a success makes it, a failure cancels it (the action stays spent)."""
    here = board.where(txn.state, seat)
    place = board.location(txn.state, here) if here is not None else None
    if place is None or place.leave_test is None:
        board.enter(txn, seat, target)
        return
    test, name = place.leave_test, f"{here} ({place.variant})" if place.variant else str(here)
    txn.notice(f"{name}: Forced, when seat {seat} moves out: test {test.skill} ({test.difficulty}); "
               "a failure cancels the move")
    base = effects.skill(txn.state, seat, test.skill)
    skilltest.begin(txn, seat, test.skill, base, test.difficulty, source=name,
                    on_fail=(Step(do="notice", text=f"seat {seat}'s move to {target} is cancelled"),),
                    on_success=(Step(do="move", location=target),))


def _test(txn: Txn, action: Provoked) -> None:
    seat, kind, target = action.seat, action.kind, action.target
    skill = {"investigate": "intellect", "fight": "combat", "evade": "agility"}[kind]
    loc = board.where(txn.state, seat)
    if kind == "investigate" and target is None and loc is not None:
        skill = board.location(txn.state, loc).investigate or skill  # a location investigated with another skill
    base = action.skill if action.skill is not None else effects.skill(txn.state, seat, skill)
    if kind == "investigate":
        if target is not None:
            difficulty = parse_int(target, "difficulty")
        else:
            if loc is None:
                raise Rejected("investigate needs a difficulty (act SEAT investigate N) or a location (enter)")
            difficulty = board.shroud(txn.state, loc)  # AH-DIFF-2, with what is attached there
        skilltest.begin(txn, seat, skill, base, difficulty, "investigate")
    else:
        foe = board.enemy(txn.state, str(target))
        agenda = effects.card(txn.state, "agenda")  # a modifier every enemy gets while the agenda is current
        value = "fight" if kind == "fight" else "evade"
        mod = agenda.enemy_fight if kind == "fight" else agenda.enemy_evade
        difficulty = board.modified(foe, value, mod)  # AH-DIFF-2, AH-BASE-1
        skilltest.begin(txn, seat, skill, base, difficulty, kind, str(target))
