"""Forced effects of the cards in play at the end of a turn, a phase or the round (AH-FORCED-1/3), each
written as data on its card: an enemy's (Umôrdhoth 01157 readies, Relentless Dark Young 01179 heals,
Wizard of the Order 01170 takes doom), a revealed location's (Ritual Site 01156 refills its clues) and
the current agenda's (They're Getting Out! 01107). One that could change nothing does not start
(AH-FORCED-2): no notice. Treacheries' are ``threat.py``'s. An enemy's Forced effects at a moment of its
own (when it is defeated, after it engages someone, is evaded; as it attacks) are ``after``'s: Goat Spawn 01180,
Young Deep One 01181, Ruth Turner 01141, "Wolf-Man" Drew 01137; the Yithian Observer's (01177) changes
the attack itself: ``attacks``."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.games.arkham import board, effects, rules, steps
from tablekeeper.games.arkham.content import EnemyEvent, EnemyForced, Step, Timing
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import Enemy, Pending

WHEN: dict[Timing, str] = {"turn_end": "at the end of the turn", "mythos_end": "at the end of the Mythos phase",
                           "enemy_phase_end": "at the end of the Enemy phase", "round_end": "at the end of the round"}


def happen(txn: Txn, at: Timing, when: str = "") -> None:
    """Every Forced effect keyed to ``at`` (``when`` says it to the table): the enemies', then the
    locations', then the agenda's (the lead would order them, AH-FORCED-7; none of these changes what
    another does)."""
    for name, effect in enemy_effects(txn.state, at):
        _enemy(txn, name, effect, f"Forced, {when or WHEN[at]}")
    if at == "round_end":
        _locations(txn)
    _agenda(txn, at)


def turn_ends(txn: Txn) -> None:
    happen(txn, "turn_end", f"at the end of seat {txn.state.active_seat}'s turn")


def mythos_ends(txn: Txn) -> None:
    happen(txn, "mythos_end")


def enemy_phase_ends(txn: Txn) -> None:
    happen(txn, "enemy_phase_end")


def round_ends(txn: Txn) -> None:
    happen(txn, "round_end")


AFTER: dict[EnemyEvent, str] = {"defeated": "when it is defeated", "engages": "after it engages",
                                "evaded": "after it is evaded", "attacks": "when it attacks"}


def after(txn: Txn, at: EnemyEvent, name: str, foe: Enemy, seats: list[int]) -> None:
    """The Forced effects on ``foe``'s card for ``at`` (it was defeated, it engaged someone), for
    ``seats``: those at its location (01180), the one it engaged (01181). Each seat's harm may go on
    their assets, a question each, in seat order."""
    card = rec(txn.state).scenario.cards.get(foe.card) if foe.card is not None else None
    for effect in (card.forced if card is not None else ()):
        if effect.at == at and effect.do == "horror":  # 01180, 01181
            harm = (Step(do="horror", amount=effect.amount),)
            steps.run_all(txn, [Pending(steps=harm, seat=seat, source=f"{name} (Forced, {AFTER[at]})")
                                for seat in seats])
        elif effect.at == at and effect.do == "heal":  # 01137
            _enemy(txn, name, effect, f"Forced, {AFTER[at]}")
        elif effect.at == at and effect.do == "victory" and name in board.enemies(txn.state):  # 01141
            board.enemy_to_victory(txn, name)
            effects.add_victory(txn, foe.victory or 0, foe.card or name)
            txn.notice(f"{name} is added to the victory display (Forced, {AFTER[at]}): victory {foe.victory or 0}")


def attacks(txn: Txn, name: str, seat: int) -> tuple[int, int]:
    """As ``name`` attacks ``seat``: its card's Forced effects then (01137 heals), and the damage and
    horror they add to this attack: the Yithian Observer (01177) makes the seat discard a card at
    random from hand, or, with none there, deals more."""
    foe = board.enemy(txn.state, name)
    after(txn, "attacks", name, foe, [seat])
    card = rec(txn.state).scenario.cards.get(foe.card) if foe.card is not None else None
    more = 0
    for effect in (card.forced if card is not None else ()):
        if effect.at != "attacks" or effect.do != "discard_or_harm":
            continue
        why = f"{name} (Forced, {AFTER['attacks']})"
        if effects.seat_value(txn.state, seat, "hand") > 0:  # 01177
            txn.add(seat_track(seat, "hand"), -1)
            txn.add(seat_track(seat, "discard"), 1)
            txn.notice(f"{why}: seat {seat} discards 1 card at random from hand")
        else:
            more += effect.amount
            txn.notice(f"{why}: seat {seat} holds no cards: +{effect.amount} damage and +{effect.amount} horror")
    return more, more


def enemy_effects(state: GameState, at: Timing) -> list[tuple[str, EnemyForced]]:
    """The Forced effects keyed to ``at`` on the enemies in play, by their label (from their card's data;
    an enemy typed by hand has none)."""
    cards = rec(state).scenario.cards
    out = []
    for name, foe in sorted(board.enemies(state).items()):
        card = cards.get(foe.card) if foe.card is not None else None
        out += [(name, effect) for effect in (card.forced if card is not None else ()) if effect.at == at]
    return out


def _enemy(txn: Txn, name: str, effect: EnemyForced, why: str) -> None:
    foe = board.enemies(txn.state).get(name)
    if foe is None:
        return
    if effect.do == "ready" and not foe.ready:  # 01157
        board.save_enemy(txn, name, replace(foe, ready=True))
        txn.notice(f"{name} readies ({why})")
        board.engage_check(txn, name)  # AH-ENGM-6
    elif effect.do == "heal" and foe.damage:  # 01179, 01137
        healed = min(effect.amount, foe.damage)
        board.save_enemy(txn, name, replace(foe, damage=foe.damage - healed))
        txn.notice(f"{name} heals {healed} damage ({why})")
    elif effect.do == "doom":  # 01170
        board.enemy_doom(txn, name, effect.amount)
        txn.notice(f"{effect.amount} doom on {name} ({why})")


def _locations(txn: Txn) -> None:
    """01156: a revealed location holding fewer clues than its Forced effect names gets clues up to it."""
    specs = rec(txn.state).scenario.locations
    for name, place in sorted(board.locations(txn.state).items()):
        spec = specs.get(place.spec) if place.spec is not None else None
        if spec is None or not place.revealed:
            continue
        for effect in spec.forced:
            want = rules.per_investigator(effect.amount, effect.per_investigator,
                                          effects.investigator_count(txn.state))
            have = board.location(txn.state, name).clues
            if have < want:
                board.save_location(txn, name, replace(board.location(txn.state, name), clues=want))
                txn.notice(f"{name}: {want - have} clue{'s' if want - have != 1 else ''} added, {want} on it "
                           f"(Forced, {WHEN[effect.at]})")


def _agenda(txn: Txn, at: Timing) -> None:
    """The current agenda's Forced steps for ``at``, run for the lead investigator: a question they ask
    (which way an enemy goes) holds the flow until it is answered."""
    if not rec(txn.state).scenario.agendas:
        return
    agenda = effects.card(txn.state, "agenda")
    for effect in agenda.forced:
        if effect.at == at:
            steps.run(txn, effect.then, txn.state.lead, source=agenda.name)
