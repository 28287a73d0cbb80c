"""The path deck: drawing path cards into play, and the deck's own events (ER-PATH-1)."""

from __future__ import annotations

from dataclasses import replace

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn, parse_seat, want
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import engine, tables
from tablekeeper.games.earthborne.cards import add_card, card_record
from tablekeeper.games.earthborne.parsing import guard
from tablekeeper.games.earthborne.rangers import check_free


def path_draw(txn: Txn, name: str | None, seat_text: str | None) -> None:
    """ER-PATH-1: one path card per Ranger from the lead; an empty deck reshuffles its discard first."""
    check_free(txn)  # ER-PATH-1: each card is resolved completely before the next is drawn
    deck = txn.state.sources.get("path")
    if not isinstance(deck, Deck):
        raise Rejected("there is no path deck")
    ready = deck.ready()
    stage = ready.stage_index()
    if stage is None:
        raise Rejected("the path deck and its discard are empty")
    if name is None:
        name = ready.pick(txn.rng)
    elif ready.stages[stage].count(name) == 0:
        raise Rejected(f"the path deck holds no {name!r}")
    if deck.remaining == 0:
        txn.notice("the path deck is empty: its discard is shuffled into a new deck")
        tables.log(txn, "path deck reshuffled")
    txn.emit("path.drawn", card=name)
    drawn = int(txn.state.get("path_drawn", 0))
    txn.put("path_drawn", drawn + 1)
    first = txn.state.lead
    seat = (first - 1 + drawn) % txn.state.seats + 1 if seat_text is None else parse_seat(txn.state, seat_text)
    record = card_record(txn.state, name, {"seat": str(seat)}, [])
    record["from_path"] = True
    key = add_card(txn, record)
    tables.log(txn, f"path: {name} -> {key}")
    engine.end_of_command(txn)


def apply_path(deck: Deck, kind: str, card: str) -> Deck:
    """The path deck's own events: a drawn card goes into play (not to the discard); a card
    leaving play goes to the discard."""
    if kind == "path.drawn":
        return deck.drawn(card, to_discard=False)
    return replace(deck, discard=deck.discard.add(card))


def draw_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if args and args[0] == "path":
        if len(args) > 2:
            raise Rejected("usage: draw path [SEAT]")
        path_draw(txn, None, args[1] if len(args) == 2 else None)
        return
    want(args, 1, "draw SOURCE")
    txn.draw(args[0])


def reveal_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if len(args) >= 2 and args[0] == "path":
        if len(args) > 3:
            raise Rejected("usage: reveal path NAME [SEAT]")
        path_draw(txn, args[1], args[2] if len(args) == 3 else None)
        return
    if len(args) < 2:
        raise Rejected("usage: reveal SOURCE OUTCOME")
    if args[0] == "challenge":
        check_challenge_card(txn, " ".join(args[1:]))
    txn.draw(args[0], " ".join(args[1:]))


def check_challenge_card(txn: Txn, card_id: str) -> None:
    """A reported challenge card must exist in the deck data and still be in the deck."""
    table = tables.cfg(txn.state)["challenge"]
    if card_id not in table:
        ids = sorted(table)
        raise Rejected(f"no challenge card {card_id!r} in the deck data (ids {ids[0]}..{ids[-1]})")
    deck = txn.state.sources["challenge"]
    if isinstance(deck, Deck) and deck.ready().stages[0].count(card_id) == 0:
        raise Rejected(f"challenge card {card_id} is not in the deck: it was drawn since the last reshuffle")
