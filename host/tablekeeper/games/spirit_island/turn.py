"""The Spirit Island turn as steps: Spirit Phase, Fast Powers, the Invader Phase (Blighted
Island, Event, Fear, Ravage, Build, Explore, Advance), Slow Powers and Time Passes (SI-TURN-1,
SI-INV-1), with the setup's first Explore before turn 1."""

from __future__ import annotations

from tablekeeper.core import flow as flowmod
from tablekeeper.core.flow import Ending, Flow, Kind, Phase, Step, Turns
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island import (
    adversary_rules,
    blight_effects,
    blight_track,
    endings,
    events,
    fear,
    invader_counts,
    invader_track,
    spirits,
)
from tablekeeper.games.spirit_island.common import blight_card, slots
from tablekeeper.games.spirit_island.record import shared


def _hold(state: GameState) -> str | None:
    """Why the step cannot end yet: an open question, a cascade or an unflipped Invader card."""
    if state.prompt is not None:
        return flowmod.answer_first(state)
    if shared(state).presence_loss:
        return "say where the destroyed Presence comes from first"
    return (blight_track.waiting_for_cascade(state) or invader_track.waiting_for_card(state)
            or invader_counts.waiting(state))


def _blighted_island_enter(txn: Txn) -> None:
    blight_effects.every_invader_phase(txn)


def _ravage_enter(txn: Txn) -> None:
    txn.put("ravage.blight_boards", [])
    txn.notice("Ravage: " + ", ".join(slots(txn.state).ravage))
    invader_counts.ask_ravage(txn)


def _immigration_enter(txn: Txn) -> None:
    """England 3/4: the High Immigration slot's card Builds before the Ravage; England 6 Builds it
    twice in an Invader Phase that resolved no Fear card."""
    cards = invader_track.immigration(txn.state)
    txn.notice("High Immigration Build: " + ", ".join(cards))
    invader_counts.ask_build(txn, label="High Immigration", cards=cards)
    resolved = [r for r in shared(txn.state).fear_resolved if r.resolved_round == txn.state.round]
    if adversary_rules.doubles_immigration(txn.state) and not resolved:
        txn.notice("Independent Resolve: no Fear card resolved this Invader Phase, so High Immigration Builds twice")
        invader_counts.ask_build(txn, label="High Immigration (again)", cards=cards)


def _build_enter(txn: Txn) -> None:
    txn.notice("Build: " + ", ".join(slots(txn.state).build))
    invader_counts.ask_build(txn)


def _advance_enter(txn: Txn) -> None:
    invader_track.advance_enter(txn)
    events.after_advance(txn)  # SI-ERRATA-3: Fortification's Build, on the advanced cards


def _first_explore_enter(txn: Txn) -> None:
    """Setup: the boards' pieces are confirmed, then the first Explore card is flipped."""
    if adversary_rules.applies(txn.state, "slave_labor") is not None and shared(txn.state).events:
        txn.notice("Slave Labor: put the Slave Rebellion event under the top 3 cards of the Event deck")
    invader_counts.ask_setup(txn)
    invader_track.explore_enter(txn)


def _answered(state: GameState) -> bool:
    """The step's Invader questions are all answered (and nothing else holds it)."""
    return _hold(state) is None


def _skip_blighted(state: GameState) -> bool:
    card = blight_card(state)
    return not (state.value("blight.flipped") and card is not None and card.every_invader_phase)


def _judge_end(txn: Txn) -> None:
    """SI-END-1..3, once the island's pieces are known: while the setup's questions are open its
    lands may still be empty of Invaders (the first Explore is still to come), which is no victory."""
    if not (txn.state.phase == "setup" and txn.state.prompt is not None):
        endings.check(txn)


FLOW = Flow(phases=(
    Phase("setup", "Setup", (
        Step("first_explore", "First Explore", enter=_first_explore_enter,
             leave=invader_track.first_explore_leave, hold=_hold, idle=_answered),
    ), skip=lambda s: s.round > 1),
    # one "done" per seat covers Growth and choosing cards (SI-TURN-1): Energy is gained as the step
    # begins, and a Growth that changes Energy per turn before the seat's first card carries it over
    Phase("spirit", "Spirit Phase", (
        Step("growth", "Growth and Power Cards", turns=Turns.TOGETHER, enter=spirits.gain_energy, hold=_hold,
             kind=Kind.DECISION),
    )),
    Phase("fast", "Fast Powers", (Step("powers", "Fast Powers", turns=Turns.TOGETHER, hold=_hold,
                                       skip=lambda s: not spirits.power_to_use(s, "fast"), kind=Kind.DECISION),)),
    Phase("invader", "Invader Phase", (
        Step("blighted_island", "Blighted Island", enter=_blighted_island_enter, skip=_skip_blighted, hold=_hold,
             idle=_answered),
        Step("event", "Event", enter=lambda t: t.notice("Draw and resolve an Event card"),
             skip=lambda s: not shared(s).events or s.round == 1, hold=_hold),
        Step("fear", "Fear", enter=fear.reveal_next, leave=fear.reveal_next,
             skip=lambda s: s.value("fear.earned") == 0, hold=_hold, idle=lambda s: s.value("fear.earned") == 0),
        # an Invader step whose question was answered has nothing left to do: it ends by itself
        Step("immigration", "High Immigration", enter=_immigration_enter,
             skip=lambda s: not invader_track.immigration(s), hold=_hold, idle=_answered),
        Step("ravage", "Ravage", enter=_ravage_enter, skip=lambda s: not slots(s).ravage, hold=_hold,
             idle=_answered),
        Step("build", "Build", enter=_build_enter, skip=lambda s: not slots(s).build, hold=_hold, idle=_answered),
        Step("explore", "Explore", enter=invader_track.explore_enter, leave=invader_track.explore_leave,
             hold=_hold, idle=_answered),
        Step("advance", "Advance cards", enter=_advance_enter, hold=_hold, kind=Kind.AUTO),
    )),
    Phase("slow", "Slow Powers", (Step("powers", "Slow Powers", turns=Turns.TOGETHER, hold=_hold,
                                       skip=lambda s: not spirits.power_to_use(s, "slow"), kind=Kind.DECISION),)),
    Phase("time", "Time Passes", (Step("passes", "Time Passes", enter=spirits.time_passes, hold=_hold,
                                       kind=Kind.AUTO),)),
), ending=Ending(rule="SI-END-1..3", judge=_judge_end))
"""Stops: the setup's and each Invader Action's questions, every Spirit's Growth and Power steps
(decisions), and the game's end, judged after each command and before each step the station runs
itself (an empty Invader deck at Explore ends the game there, SI-END-2)."""
