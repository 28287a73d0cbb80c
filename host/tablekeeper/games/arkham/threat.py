"""Treacheries in an investigator's threat area: what they forbid while there, and the Forced effects
that discard them at the end of the round or of their bearer's turn (AH-FORCED-1/3; the core set's
Dissonant Voices 01165 and Frozen in Fear 01164). The end of a turn also runs the other cards' Forced
effects keyed to it (``forced.py``). A treachery in play with an [action] ability whose test, passed,
discards it (Locked Door 01174, Dreams of R'lyeh 01182) is activated here too."""

from __future__ import annotations

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, forced, skilltest
from tablekeeper.games.arkham.board import threat_area
from tablekeeper.games.arkham.content import PlayedType, Test
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import TurnEnd


def play_barred(state: GameState, seat: int, cardtype: PlayedType) -> str | None:
    """01165: the treachery in the seat's threat area that forbids playing ``cardtype`` (None: nothing)."""
    return next((label for label, t in threat_area(state, seat).items() if cardtype in t.no_play), None)


PLAYABLE: tuple[PlayedType, ...] = ("asset", "event")  # skill cards are committed to tests, never played


def refuse_play(state: GameState, seat: int, cardtypes: tuple[PlayedType, ...] = PLAYABLE) -> None:
    """Refuse playing a card when a treachery in the threat area forbids every one of ``cardtypes``
    (one type: a card of that type; all of them: the Play action itself)."""
    barred = [play_barred(state, seat, cardtype) for cardtype in cardtypes]
    if barred and all(barred):
        what = f"{'an' if cardtypes[0][:1] in 'aeiou' else 'a'} {cardtypes[0]}" if len(cardtypes) == 1 else \
            " or ".join(f"{t}s" for t in cardtypes)
        raise Rejected(f"seat {seat} cannot play {what} while {barred[0]} is in their threat area")


# --- Forced: at the end of the round ------------------------------------------------------------------
def round_ends(txn: Txn) -> None:
    """01165: a treachery whose Forced effect discards it at the end of the round leaves play then."""
    for label, t in sorted(rec(txn.state).treacheries.items()):
        if t.discard is not None and t.discard.at == "round_end":
            board.discard_treachery(txn, label, "Forced, at the end of the round")


# --- Forced: at the end of the bearer's turn -----------------------------------------------------------
def turn_ends(txn: Txn) -> None:
    """2.2's ``turn_end`` hook. The enemies' Forced effects first (01157 readies); then (01164) each
    treachery in the active seat's threat area with a Forced test at the end of its bearer's turn is
    tested, one after the other; a success discards it. The turn stays on while they run (or while a
    question they opened is open) and ends once they are done (``go_on``)."""
    state = txn.state
    seat = state.active_seat
    ending = rec(state).turn_end
    if ending is not None:
        txn.put("turn_end", None)
        if ending.seat == seat and not ending.left:
            return  # its tests are done: the turn ends now
    if seat is None:
        return
    forced.turn_ends(txn)  # 01157: the enemies' Forced effects at the end of each investigator's turn
    left = tuple(label for label, t in sorted(threat_area(state, seat).items())
                 if t.discard is not None and t.discard.at == "turn_end")
    if left or txn.state.prompt is not None:
        txn.put("turn_end", TurnEnd(seat, left))
        if txn.state.prompt is None:
            _next_test(txn)


def _next_test(txn: Txn) -> None:
    ending = rec(txn.state).turn_end
    if ending is None or not ending.left:
        return
    label, rest = ending.left[0], ending.left[1:]
    txn.put("turn_end", TurnEnd(ending.seat, rest))
    t = rec(txn.state).treacheries.get(label)
    if t is None or t.discard is None:
        return
    if t.discard.test is None:
        board.discard_treachery(txn, label, f"Forced, at the end of seat {ending.seat}'s turn")
        return
    test = t.discard.test
    txn.notice(f"{label}: Forced, at the end of seat {ending.seat}'s turn: test {test.skill} ({test.difficulty}); "
               "a success discards it")
    base = effects.skill(txn.state, ending.seat, test.skill)
    skilltest.begin(txn, ending.seat, test.skill, base, test.difficulty, source=label, discards=label)


def go_on(txn: Txn) -> None:
    """After a Forced test of the turn's end (``pending.resume``): the next one, or the turn ends."""
    ending = rec(txn.state).turn_end
    if ending is None:
        return
    if ending.left:
        _next_test(txn)
        return
    if txn.state.active_seat != ending.seat or txn.state.step != "2.2":
        txn.put("turn_end", None)  # the turn ended otherwise (the investigator was eliminated)
        return
    flowmod.advance(txn, txn.game.flow)


# --- [action]: a test that discards it ----------------------------------------------------------------
def ability_tests(state: GameState, label: str) -> tuple[Test, ...]:
    """01174, 01182: the tests the treachery's [action] ability offers, from its card's data (none: it
    has no such ability, or it was typed by hand)."""
    t = rec(state).treacheries.get(label)
    card = rec(state).scenario.cards.get(t.card) if t is not None and t.card is not None else None
    return card.action_tests if card is not None else ()


def reachable(state: GameState, seat: int, label: str) -> bool:
    """AH-ACTV-3 (b): a treachery attached to the seat's location, or in the threat area of an
    investigator at that location (the seat's own wherever it is)."""
    t = rec(state).treacheries[label]
    here = board.where(state, seat)
    if t.location is not None:
        return t.location == here
    return t.seat == seat or (here is not None and board.where(state, t.seat) == here)


def ability_test(state: GameState, seat: int, label: str, skill: str | None) -> Test:
    """The test ``seat`` activating ``label``'s [action] ability makes: the one its card offers in
    ``skill``, or its only one; refused when the seat may not activate it."""
    tests = ability_tests(state, label)
    if not tests:
        raise Rejected(f"{label} has no action ability the station knows")
    if not reachable(state, seat, label):
        t = rec(state).treacheries[label]
        where = f"at {t.location}" if t.location is not None else f"in seat {t.seat}'s threat area"
        raise Rejected(f"seat {seat} cannot activate {label}: it is {where}, not at seat {seat}'s location")
    offered = " or ".join(f"{t.skill} ({t.difficulty})" for t in tests)
    if skill is None and len(tests) > 1:
        raise Rejected(f"{label}: name the skill tested: {offered}")
    test = next((t for t in tests if skill is None or t.skill == skill), None)
    if test is None:
        raise Rejected(f"{label}'s ability tests {offered}, not {skill}")
    return test


def activated(txn: Txn, seat: int, label: str, skill: str | None, base: int | None) -> None:
    """01174 Locked Door, 01182 Dreams of R'lyeh: the [action] ability's test begins (``base``: the
    skill value the table typed); a success discards the card (``skilltest`` on ``discards``)."""
    if label not in rec(txn.state).treacheries:
        return  # it left play during the attacks of opportunity
    test = ability_test(txn.state, seat, label, skill)
    value = base if base is not None else effects.skill(txn.state, seat, test.skill)
    txn.notice(f"{label}: seat {seat} tests {test.skill} ({test.difficulty}); a success discards it")
    skilltest.begin(txn, seat, test.skill, value, test.difficulty, source=label, discards=label)
