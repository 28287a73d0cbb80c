"""The round of Arkham Horror: The Card Game as framework steps (section 1.2 of the catalogue;
the step numbers are the published Appendix II's, outside the seeds except where marked there)."""

from __future__ import annotations

from tablekeeper.core.flow import Ending, Flow, Hold, Hook, Kind, Phase, Predicate, Step, Stop, Turns
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.games.arkham import attacks, board, effects, forced, mythos, rules, scenario_cards, threat
from tablekeeper.games.arkham.record import rec


def _hold(state: GameState) -> str | None:
    """Nothing moves on while a skill test or a choice is open."""
    if rec(state).test is not None:
        return "finish the skill test first (resolve)"
    return None


def _hand_limit(state: GameState) -> str | None:
    """4.5: each investigator discards down to 8 cards before the round can end."""
    return _hold(state) or effects.over_hand_limit(state)


def _hand_check(txn: Txn) -> None:
    """4.5: the table is told who must discard (those seats owe a move until they have)."""
    reason = effects.over_hand_limit(txn.state)
    if reason:
        txn.notice(reason)


def step(step_id: str, label: str, kind: Kind, *, turns: Turns = Turns.NONE, enter: Hook | None = None,
         hold: Hold = _hold, idle: Predicate | None = None, stop: Stop | None = None,
         turn_end: Hook | None = None) -> Step:
    """A framework step labelled with its number, held while a test is open unless told otherwise."""
    return Step(step_id, f"{step_id} {label}", turns=turns, enter=enter, hold=hold, kind=kind, idle=idle,
                stop=stop, turn_end=turn_end)


def _before_first_round(state: GameState) -> bool:
    """A campaign scenario that has not begun its first round: the group is still between scenarios."""
    return state.round == 1 and rec(state).campaign_log is not None


BETWEEN_SCENARIOS = Stop("between scenarios: buy cards with experience (buy SEAT TITLE LEVEL), then next "
                         "begins the first round", "AH-XP-1, AH-XP-3..9, AH-CAMP-2", when=_before_first_round)
"""Round 1's 2.1 in a campaign: the purchases and deck changes of AH-XP-1 happen before play begins."""

ENDING = Ending(frozenset({"victory", "bonus", "xp", "trauma", "record", "go-to", "resolution"}),
                "AH-ACTAG-11, AH-CAMP-2, AH-XP-2, AH-TRAUMA-1, AH-NEXT-1")
"""After a resolution the group still records what the campaign guide's resolution says: the victory
display, experience (everyone's adjustment or one investigator's), trauma, the lines it writes in the
campaign log, and where the campaign goes next (after no resolution: the resolution the guide's entry
sends it to); nothing else changes the scenario."""


def _draws_told(state: GameState) -> bool:
    """1.4 once "what stayed in play?" has been answered for every card drawn: nothing left to confirm."""
    return rec(state).draws is None


def _no_hunter_moves(state: GameState) -> bool:
    """3.2 has nothing in it while no ready, unengaged hunter is in play (and none is mid-move)."""
    if rec(state).hunters_moved is not None:
        return False
    return not any(foe.hunter and foe.ready and foe.engaged is None for foe in board.enemies(state).values())


def _no_attacks(state: GameState) -> bool:
    """3.3 has nothing in it while no ready enemy is engaged with an investigator (and none is
    attacking): the attacks made on entering the step leave their enemies exhausted."""
    if rec(state).attack_queue is not None:
        return False
    return not any(board.engaged_with(state, seat) and any(board.enemy(state, n).ready
                                                           for n in board.engaged_with(state, seat))
                   for seat in effects.live_seats(state))


def _place_doom(txn: Txn) -> None:
    """1.2 / AH-DOOM-2: each Mythos phase puts 1 doom on the current agenda."""
    txn.add("agenda.doom", 1)


def _check_doom(txn: Txn) -> None:
    """1.3 / AH-DOOM-4: the only step where the agenda advances by doom."""
    state = txn.state
    agenda = effects.card(state, "agenda")
    if rules.agenda_advances(state.value("agenda.doom"), state.value("doom.other"), state.value("agenda.threshold"),
                             bool(agenda.objective)):
        scenario_cards.advance_agenda(txn, "doom threshold reached")


def _encounter_draws(txn: Txn) -> None:
    """1.4: each investigator draws 1 encounter card, in player order from the lead, and resolves it
    before the next draws (``mythos``)."""
    mythos.start(txn)


def _offer_round_end_spend(txn: Txn) -> None:
    """4.6: the table is told why the round waits (The Barrier's clues may be spent now)."""
    where = scenario_cards.round_end_spend(txn.state)
    if where is not None:
        act = effects.card(txn.state, "act").name
        txn.notice(f"{act}: the investigators at {where} may spend {txn.state.value('act.clues_required')} clues "
                   "now (spend-clues SEAT:N ...); next ends the round without")


def _no_round_end_spend(state: GameState) -> bool:
    """4.6 has nothing for the table unless the act's clues are spent as the round ends (The Barrier)."""
    return scenario_cards.round_end_spend(state) is None


def _start_turns(txn: Txn) -> None:
    """2.2: eliminated investigators take no turn; the others take theirs in any order (AH-FW-3)."""
    state = txn.state
    out = tuple(s for s in state.seat_numbers() if not effects.is_live(state, s))
    if not out:
        return
    from tablekeeper.core import flow as flowmod

    flowmod.move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=None, done=out)
    effects.last_turn_begins(txn)


def _hunters(txn: Txn) -> None:
    board.move_hunters(txn)


def _attacks(txn: Txn) -> None:
    attacks.enemy_phase(txn)


def _reset_actions(txn: Txn) -> None:
    """4.2: every investigator will again have 3 actions."""
    for seat in effects.live_seats(txn.state):
        txn.set(seat_track(seat, "actions"), rules.ACTIONS_PER_TURN)


def _ready(txn: Txn) -> None:
    board.ready_all(txn)


def _upkeep_draw(txn: Txn) -> None:
    """4.4: each investigator draws 1 card and gains 1 resource."""
    for seat in effects.live_seats(txn.state):
        effects.draw_cards(txn, seat, 1)
        if effects.is_live(txn.state, seat):
            txn.add(seat_track(seat, "resources"), 1)


def _round_ends(txn: Txn) -> None:
    """The round's end: the Forced effects keyed to it, the cards' in play (01179, 01156, 01107) and
    the treacheries' that leave then (01165)."""
    forced.round_ends(txn)
    threat.round_ends(txn)


FLOW = Flow(phases=(
    Phase("mythos", "I. Mythos", (
        step("1.1", "Round begins", Kind.AUTO),
        step("1.2", "Place doom", Kind.AUTO, enter=_place_doom),
        step("1.3", "Check doom", Kind.AUTO, enter=_check_doom),
        step("1.4", "Encounter draws", Kind.TABLE, enter=_encounter_draws, idle=_draws_told),
        step("1.5", "Mythos ends", Kind.AUTO, enter=forced.mythos_ends),
    ), skip=lambda s: s.round == 1),  # AH-FW-1: no Mythos phase in the first round
    Phase("investigation", "II. Investigation", (
        step("2.1", "Phase begins", Kind.AUTO, stop=BETWEEN_SCENARIOS),
        step("2.2", "Turns", Kind.DECISION, turns=Turns.FREE, enter=_start_turns, turn_end=threat.turn_ends),
        step("2.3", "Phase ends", Kind.AUTO),
    )),
    Phase("enemy", "III. Enemy", (
        step("3.1", "Phase begins", Kind.AUTO),
        step("3.2", "Hunters move", Kind.TABLE, enter=_hunters, idle=_no_hunter_moves),
        step("3.3", "Enemies attack", Kind.TABLE, enter=_attacks, idle=_no_attacks),
        step("3.4", "Phase ends", Kind.AUTO, enter=forced.enemy_phase_ends),
    )),
    Phase("upkeep", "IV. Upkeep", (
        step("4.1", "Phase begins", Kind.AUTO),
        step("4.2", "Reset actions", Kind.AUTO, enter=_reset_actions),
        step("4.3", "Ready cards", Kind.AUTO, enter=_ready),
        step("4.4", "Draw + resource", Kind.AUTO, enter=_upkeep_draw),
        step("4.5", "Hand size", Kind.AUTO, enter=_hand_check, hold=_hand_limit),
        step("4.6", "Round ends", Kind.TABLE, enter=_offer_round_end_spend, idle=_no_round_end_spend),
    )),
), round_end=_round_ends, ending=ENDING)
