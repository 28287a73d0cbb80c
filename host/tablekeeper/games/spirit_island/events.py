"""Event cards that pick a terrain no Invader Action card shows (SI-ERRATA-3/4): Fortification
Builds there after the cards advance; Cash Crops Take Hold Ravages there at once. Either runs as
an Invader Action whose additions or losses the players confirm like the step's own."""

from __future__ import annotations

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import invader_counts, invader_rules
from tablekeeper.games.spirit_island.common import slots, table
from tablekeeper.games.spirit_island.record import shared

PICKING_TERRAIN = {"fortification": "Build", "cash crops take hold": "Ravage"}
AFTER_ADVANCE = "event.after_advance"


def event(txn: Txn, name: str) -> None:
    if name not in PICKING_TERRAIN:
        raise Rejected("usage: event fortification|cash crops take hold")
    if txn.state.prompt is not None:
        raise Rejected(flowmod.answer_first(txn.state))
    if name == "fortification" and (txn.state.phase, txn.state.step) != ("invader", "advance"):
        txn.put(AFTER_ADVANCE, name)
        txn.notice("Fortification: its Build comes after the Invader cards advance")
        return
    ask_terrain(txn, name)


def after_advance(txn: Txn) -> None:
    """The Advance step: a Fortification typed earlier asks for its terrain now, from the cards
    as they lie after advancing."""
    name = shared(txn.state).after_advance
    if name:
        txn.put(AFTER_ADVANCE, None)
        ask_terrain(txn, name)


def ask_terrain(txn: Txn, name: str) -> None:
    options = invader_rules.unshown_terrains(slots(txn.state).as_mapping(), table(txn.state).terrains)
    step = PICKING_TERRAIN[name]
    if not options:
        txn.notice(f"{name.title()}: every terrain is shown, no extra {step}")
        return
    txn.ask("si.event_terrain", f"{step} in which terrain?", options,
            context={"step": step, "options": options, "event": name})


def on_terrain(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    step, terrain = str(prompt.context["step"]), str(prompt.context["options"][index])
    label = f"{step} ({str(prompt.context['event']).title()})"
    txn.close_prompt()
    txn.put("event.terrain", terrain)
    txn.notice(f"{step} in every {terrain} with Invaders")
    if step == "Build":
        invader_counts.ask_build(txn, [terrain], label)
    else:
        invader_counts.ask_ravage(txn, [terrain], label)
