"""1.4 Encounter draws, one investigator at a time (AH-DRAW-2): in player order from the lead, each
draws one encounter card, the players name it (a prompt listing the scenario's encounter cards), and
it is resolved before the next investigator draws: an enemy spawns with its printed numbers, a
treachery's revelation test and effect run or it stays in play, surge draws another card for the
same investigator, peril is announced. Whatever leaves play reaches the encounter discard pile, so
deck and discard stay true across reshuffles."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects, encounter, steps
from tablekeeper.games.arkham.content import EncounterCard, Step
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import Draws, Treachery

DISCARDED = "discarded (it resolved and left play)"
TYPE_IT = "an enemy not listed (type it)"
THREAT_AREA = "a treachery not listed: stays in my threat area"
AT_LOCATION = "a treachery not listed: stays at my location"


def start(txn: Txn) -> None:
    """1.4 / AH-DRAW-2: the investigators draw in player order from the lead, one at a time."""
    seats = tuple(effects.live_seats(txn.state))
    if seats:
        txn.put("draws", Draws(seats=seats))
        advance(txn)


def _busy(state: GameState) -> bool:
    return steps.busy(state) or bool(rec(state).todo)


def advance(txn: Txn) -> None:
    """The next draw, once the card drawn last is resolved and nothing is open (a test, a question)."""
    draws = rec(txn.state).draws
    if draws is None or _busy(txn.state):
        return
    if draws.drawn:
        if draws.typing:
            return  # waiting for the `enemy` line
        if not draws.resolving:
            ask(txn, draws.seats[0])  # drawn but not yet named
            return
        if draws.surge:
            txn.notice(f"surge: seat {draws.seats[0]} draws another encounter card")
            draws = Draws(seats=draws.seats)
        else:
            draws = Draws(seats=draws.seats[1:])
    seats = list(draws.seats)
    while seats:
        seat = seats[0]
        if effects.is_live(txn.state, seat) and effects.encounter_draw(txn, seat):  # AH-ENCDECK-2 inside
            txn.put("draws", Draws(seats=tuple(seats), drawn=True))
            ask(txn, seat)
            return
        seats.pop(0)
    txn.put("draws", None)


def names(state: GameState) -> list[str]:
    """The cards of the encounter deck, enemies first, the most copies first."""
    info = rec(state).scenario
    deck = [(0 if info.cards[n].kind == "enemy" else 1, -count, n) for n, count in info.deck.items()]
    return [n for _, _, n in sorted(deck)]


def ask(txn: Txn, seat: int) -> None:
    listed = names(txn.state)
    txn.ask("encounter_card", f"Seat {seat} draws an encounter card: which is it?",
            [DISCARDED, *listed, TYPE_IT, THREAT_AREA, AT_LOCATION], seat=seat,
            context={"seat": seat, "names": listed})


def _drawing(txn: Txn) -> tuple[Draws, int]:
    draws = rec(txn.state).draws
    if draws is None or not draws.drawn:
        raise Rejected("no encounter card drawn this Mythos phase is waiting")
    return draws, draws.seats[0]


def choose_card(txn: Txn, index: int) -> None:
    """The card the investigator drew, as the players name it: resolved now."""
    prompt = txn.state.prompt
    draws, seat = _drawing(txn)
    listed = [str(n) for n in (prompt.context.get("names", ()) if prompt else ())]
    options = [DISCARDED, *listed, TYPE_IT, THREAT_AREA, AT_LOCATION]
    txn.close_prompt()
    choice = options[index]
    txn.put("draws", replace(draws, resolving=True, typing=choice == TYPE_IT))
    if choice == DISCARDED:
        txn.add("encounter.discard", 1)
    elif choice == TYPE_IT:
        txn.notice(f"seat {seat}: type the enemy: enemy seat{seat} NAME fight=F health=H evade=E damage=D horror=R")
    elif choice in (THREAT_AREA, AT_LOCATION):
        _stays(txn, seat, f"Treachery {txn.state.round}.{seat}", None, None, at_location=choice == AT_LOCATION)
    else:
        resolve(txn, seat, choice)


def resolve(txn: Txn, seat: int, name: str) -> None:
    """A named encounter card: an enemy spawns (AH-ENEMY-2); a treachery's revelation runs."""
    card = rec(txn.state).scenario.cards[name]
    if "peril" in card.keywords:
        txn.notice(f"{name} (peril): seat {seat} resolves it alone; nobody else may help")
    if not card.verified:
        txn.notice(f"{name}: unverified data")
    surge = "surge" in card.keywords
    if card.kind == "enemy":
        encounter.spawn_card(txn, seat, name)
    elif card.surge_if == "no_clues" and effects.seat_value(txn.state, seat, "clues") == 0:
        txn.add("encounter.discard", 1)
        txn.notice(f"{name}: seat {seat} has no clues, so it gains surge")
        surge = True
    else:
        if card.attach == "most_clues":  # 01174
            attach_most_clues(txn, seat, name)
        elif card.stays is not None:
            _stays(txn, seat, encounter.free_name(name, rec(txn.state).treacheries), card, name,
                   at_location=card.stays == "location")
        else:
            txn.add("encounter.discard", 1)
        if card.test is not None:
            steps.run(txn, (Step(do="test", skill=card.test.skill, difficulty=card.test.difficulty, then=card.then),),
                      seat, source=name, card=name)
        else:
            steps.run(txn, card.then, seat, source=name, card=name)
    if surge:
        draws = rec(txn.state).draws
        if draws is not None:
            txn.put("draws", replace(draws, surge=True))


def attach_most_clues(txn: Txn, seat: int, name: str) -> None:
    """01174 Locked Door: it attaches to the location in play with the most clues that has none of its
    name attached; the drawer picks among a tie; with no such location it is discarded."""
    treacheries = rec(txn.state).treacheries
    taken = {t.location for t in treacheries.values() if t.card == name}
    free = {loc: place.clues for loc, place in sorted(board.locations(txn.state).items()) if loc not in taken}
    most = [loc for loc, clues in free.items() if clues == max(free.values())] if free else []
    if not most:
        txn.add("encounter.discard", 1)
        txn.notice(f"{name}: every location in play has one attached already: discarded")
    elif len(most) == 1:
        _stays(txn, seat, encounter.free_name(name, treacheries), rec(txn.state).scenario.cards[name], name,
               at_location=True, at=most[0])
    else:
        txn.ask("attach_where", f"{name} attaches to the location with the most clues ({free[most[0]]}): which?",
                most, seat=seat, context={"seat": seat, "card": name, "places": most})


def choose_attach(txn: Txn, index: int) -> None:
    """The drawer's pick among the locations tied for the most clues."""
    context = txn.open_prompt().context
    txn.close_prompt()
    name = str(context["card"])
    _stays(txn, int(str(context["seat"])), encounter.free_name(name, rec(txn.state).treacheries),
           rec(txn.state).scenario.cards[name], name, at_location=True, at=str(context["places"][index]))


def _stays(txn: Txn, seat: int, label: str, card: EncounterCard | None, card_name: str | None, *,
           at_location: bool, at: str | None = None) -> None:
    """A treachery stays in play: in the drawer's threat area, or attached to a location (``at``, else
    the drawer's)."""
    at = at if at is not None else board.where(txn.state, seat) if at_location else None
    if at_location and at is None:
        raise Rejected(f"seat {seat} is at no known location: say threat area, or place it with `enter` first")
    cards = dict(rec(txn.state).treacheries)
    cards[label] = Treachery(seat, at, card=card_name, shroud=0 if card is None else card.shroud,
                                     no_investigate=card is not None and card.no_investigate,
                                     leaves_on_investigate=card is not None and card.leaves_on_investigate,
                                     costs_more=() if card is None else tuple(card.costs_more),
                                     text="" if card is None or not card.text else card.text,
                                     no_play=() if card is None else card.no_play,
                                     discard=None if card is None else card.discard)
    txn.put("treacheries", cards)
    told = f": {card.text}" if card is not None and card.text else ""
    txn.notice(f"{label} stays " + (f"at {at}" if at else f"in seat {seat}'s threat area") + told)
    if at is None and card is not None and card.bearer_sanity:  # 01182: -1 sanity while it is there
        board.bearer_sanity(txn, seat, label, card.bearer_sanity)


def typed_enemy(txn: Txn, seat: int) -> bool:
    """An `enemy` line for the investigator whose card is being named (or typed): it is that card,
    drawn off the encounter deck already (True). Once the card is named, an enemy typed is another."""
    draws = rec(txn.state).draws
    if draws is None or not draws.drawn or draws.seats[0] != seat or (draws.resolving and not draws.typing):
        return False
    prompt = txn.state.prompt
    if prompt is not None and prompt.id == "encounter_card":
        txn.close_prompt()
    txn.put("draws", replace(draws, resolving=True, typing=False))
    return True
