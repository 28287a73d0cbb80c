"""Handlers of Arkham's prompts (``choose N``, the panel's up/down and NEXT, or a seat button).

Each closes its prompt, does what the answer says, then ``resume`` carries on with whatever the
prompt interrupted: the harm being placed, hunters, attacks, the 1.4 question, the last turn.
"""

from __future__ import annotations

from tablekeeper.core.game import ChoiceHandler, Txn
from tablekeeper.core.state import Prompt
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import attacks, board, effects, mythos, rules, verbs


def _open(txn: Txn) -> Prompt:
    prompt = txn.state.prompt
    if prompt is None:  # the core calls a handler only for the open prompt
        raise Rejected("there is nothing to choose")
    return prompt


def resume(txn: Txn) -> None:
    """Carry on after an answer: an attack's harm, hunters, attacks, 1.4's question, the last turn."""
    while txn.state.prompt is None and txn.state.over is None:
        before = len(txn.events)
        if txn.state.get("soak") is not None:
            attacks.ask_split(txn)
        elif txn.state.get("hunters_moved") is not None:
            board.move_hunters(txn)
        elif txn.state.get("aoo") is not None:
            attacks.continue_provoked(txn)
        elif txn.state.get("attack_queue") is not None:
            attacks.continue_enemy_phase(txn)
        elif txn.state.get("draws") is not None:
            mythos.ask(txn)
        else:
            if txn.state.step == "2.2":
                effects.last_turn_begins(txn)
            return
        if len(txn.events) == before:
            return


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
    board.engage(txn, name, seat)


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


def _then_resume(handler: ChoiceHandler) -> ChoiceHandler:
    def run(txn: Txn, index: int) -> None:
        handler(txn, index)
        resume(txn)

    run.__doc__ = handler.__doc__
    return run


HANDLERS: dict[str, ChoiceHandler] = {key: _then_resume(fn) for key, fn in {
    "trauma": trauma, "lead": lead, "prey": prey, "attack_order": attacker, "aoo_order": opportunity,
    "hunter_move": hunter_way, "soak": attacks.choose_split, "encounter": mythos.choose,
    "encounter_card": mythos.choose_card, "encounter_enemy": mythos.choose_enemy, "action": verbs.choose_action,
}.items()}
