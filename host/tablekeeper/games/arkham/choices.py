"""Handlers of Arkham's prompts (``choose N``, the panel's up/down and NEXT, or a seat button).

Each closes its prompt, does what the answer says, then ``pending.resume`` carries on with whatever the
prompt interrupted: the harm being placed, hunters, attacks, the 1.4 question, the last turn.
"""

from __future__ import annotations

from tablekeeper.core.game import ChoiceHandler, Txn
from tablekeeper.core.state import Prompt, Result
from tablekeeper.games.arkham import (
    attacks,
    board,
    board_verbs,
    effects,
    encounter,
    mythos,
    pending,
    rules,
    steps,
    verbs,
)


def _open(txn: Txn) -> Prompt:
    prompt = txn.open_prompt()
    return prompt


def trauma(txn: Txn, index: int) -> None:
    """AH-TRAUMA-5: defeated by both at once, the player takes one trauma of their choice."""
    seat = int(_open(txn).context["seat"])
    txn.close_prompt()
    effects.eliminate(txn, seat, rules.trauma_for("both", ("physical", "mental")[index]))


def lead(txn: Txn, index: int) -> None:
    """AH-ELIM-3 step 5: the remaining players pick a new lead investigator."""
    seat = int(_open(txn).context["seats"][index])
    txn.close_prompt()
    txn.emit("lead", seat=seat)
    txn.notice(f"seat {seat} is the lead investigator")


def prey(txn: Txn, index: int) -> None:
    """AH-ENGM-3: the enemy's prey instruction picks whom it engages among several."""
    prompt = _open(txn)
    name, seat = str(prompt.context["enemy"]), int(prompt.context["seats"][index])
    txn.close_prompt()
    board.engages(txn, name, seat)


def attacker(txn: Txn, index: int) -> None:
    """3.3: the attacked investigator picks which engaged enemy attacks next."""
    name = str(_open(txn).context["enemies"][index])
    txn.close_prompt()
    attacks.continue_enemy_phase(txn, name)


def opportunity(txn: Txn, index: int) -> None:
    """AH-AOO-2: the investigator picks the order of several attacks of opportunity."""
    name = str(_open(txn).context["enemies"][index])
    txn.close_prompt()
    attacks.continue_provoked(txn, name)


def hunter_way(txn: Txn, index: int) -> None:
    """3.2: a hunter with two equally short ways goes the way its prey (the players) picks."""
    prompt = _open(txn)
    name, way = str(prompt.context["enemy"]), str(prompt.context["ways"][index])
    txn.close_prompt()
    board.move_hunters(txn, (name, way))


def resolution(txn: Txn, index: int) -> None:
    """AH-ACTAG-11: the lead investigator picks the card's resolution; the scenario ends there."""
    prompt = _open(txn)
    picked = str(prompt.options[index])
    txn.close_prompt()
    effects.reach_resolution(txn, picked, Result.VICTORY if prompt.context.get("deck") == "act" else Result.DEFEAT)


def _then_resume(handler: ChoiceHandler) -> ChoiceHandler:
    def run(txn: Txn, index: int) -> None:
        handler(txn, index)
        pending.resume(txn)

    run.__doc__ = handler.__doc__
    return run


HANDLERS: dict[str, ChoiceHandler] = {key: _then_resume(fn) for key, fn in {
    "trauma": trauma, "lead": lead, "prey": prey, "attack_order": attacker, "aoo_order": opportunity,
    "hunter_move": hunter_way, "soak": attacks.choose_split, "encounter_card": mythos.choose_card,
    "action": verbs.choose_action, "resolution": resolution, "step_when": steps.answer_when,
    "step_choose": steps.answer_choose, "step_enemy": steps.answer_enemy, "step_draw": steps.answer_draw,
    "step_draw_pile": steps.answer_draw_pile,
    "location_card": steps.answer_location_card, "spawn_where": encounter.choose_place,
    "spawn_prey": encounter.choose_prey, "step_discarded": steps.answer_discarded,
    "step_discarded_count": steps.answer_discarded_count, "step_way": steps.answer_way,
    "enemy_pile": board_verbs.answer_pile, "attach_where": mythos.choose_attach,
}.items()}
