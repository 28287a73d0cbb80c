"""The path deck: building it, reporting or drawing path cards into play, and the deck's own events
(ER-PATH-1, ER-TRAVEL-2, ER-SETUP-1).

The group's path deck is physical: the device knows how many cards were shuffled in (``pathdeck N``)
and learns each card's name when a Ranger turns it over (``reveal path NAME``). Unseen cards are the
``UNSEEN`` entries of the deck; cards that left play go to the discard by name, so after a reshuffle
the deck is known. A deck file (``--option path=PATH`` with ``copies``) is a fully known deck the
device can draw from itself.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn, parse_int, parse_seat, want
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import engine, tables
from tablekeeper.games.earthborne.cards import add_card, card_record, known_path_card, remember_path_card
from tablekeeper.games.earthborne.parsing import guard, split_args
from tablekeeper.games.earthborne.rangers import check_free

UNSEEN = "?"


def _deck(state: GameState) -> Deck:
    deck = state.sources.get("path")
    if not isinstance(deck, Deck):
        raise Rejected("there is no path deck")
    return deck


def path_draw(txn: Txn, name: str | None, seat_text: str | None, options: dict[str, str],
              flags: list[str]) -> None:
    """ER-PATH-1: one path card per Ranger from the lead; an empty deck reshuffles its discard first."""
    check_free(txn)  # ER-PATH-1: each card is resolved completely before the next is drawn
    if txn.state.get("path_built") is False:
        raise Rejected("the path deck is not built yet: " + build_hint(txn.state))
    deck = _deck(txn.state)
    ready = deck.ready()
    stage = ready.stage_index()
    if stage is None:
        raise Rejected("the path deck and its discard are empty")
    top = ready.stages[stage]
    if name is None:
        if top.count(UNSEEN):
            raise Rejected("the path deck is the group's own: turn over its top card and report it "
                           "(reveal path NAME)")
        name = top.pick(txn.rng)
    known = known_path_card(txn.state, name)
    if known is not None:
        name = str(known["name"])  # the printed spelling, whatever case the players typed
    if top.count(name) == 0 and top.count(UNSEEN) == 0:
        raise Rejected(f"the path deck holds no {name!r} (it holds {', '.join(sorted(top.as_dict()))})")
    if known is None or options or flags:
        remember_path_card(txn, name, options, flags)
    if deck.remaining == 0:
        txn.notice("the path deck is empty: its discard is shuffled into a new deck")
        tables.log(txn, "path deck reshuffled")
    txn.emit("path.drawn", card=name)
    seat = tables.next_path_seat(txn.state) if seat_text is None else parse_seat(txn.state, seat_text)
    txn.put("path_drawn", int(txn.state.get("path_drawn", 0)) + 1)
    record = card_record(txn.state, name, {"seat": str(seat)}, [])
    record["from_path"] = True
    key = add_card(txn, record)
    tables.log(txn, f"path: {record['name']} -> {key}")
    engine.end_of_command(txn)


def build_hint(state: GameState) -> str:
    """ER-TRAVEL-2, ER-SETUP-1: what goes into a new path deck, and the verb that reports it."""
    record = state.get("record") or {}
    terrain = record.get("terrain")
    where = f"the {terrain} terrain set" if terrain else "the terrain set of the path taken"
    return (f"shuffle {where}, the pivotal location's set or 3 random Valley cards, and any cards "
            "missions add, then: pathdeck N (the number of cards)")


def build(txn: Txn, args: tuple[str, ...]) -> None:
    """``pathdeck N``: the group built a new path deck of N cards (ER-TRAVEL-2, ER-SETUP-1)."""
    want(args, 1, "pathdeck N")
    count = parse_int(args[0], "path deck cards")
    if count < 1:
        raise Rejected("pathdeck: a path deck holds at least 1 card")
    if txn.state.get("path_built") is not False:
        raise Rejected("the path deck is already built; it is built again after travel or on a new day")
    check_free(txn)
    txn.emit("path.built", n=count)
    txn.put("path_built", True)
    tables.log(txn, f"path deck built: {count} cards")
    txn.notice(f"path deck: {count} cards, shuffled")


def file_deck(cfg: Any) -> Deck:
    """A path deck given as a file (``--option path=PATH``): every card and its copies, all known."""
    return Deck.plain("path", {name: int(card["copies"]) for name, card in cfg["path"].items()})


def device_can_draw(state: GameState) -> bool:
    """Whether ``draw path`` can pick the card itself (the deck's next cards are all known)."""
    deck = state.sources.get("path")
    if not isinstance(deck, Deck) or state.get("path_built") is False:
        return False
    ready = deck.ready()
    stage = ready.stage_index()
    return stage is not None and ready.stages[stage].count(UNSEEN) == 0


def apply_path(deck: Deck, kind: str, card: str, n: int) -> Deck:
    """The path deck's own events: a drawn card goes into play (not to the discard); a card leaving
    play goes to the discard; a built deck is ``n`` unseen cards."""
    if kind == "path.built":
        return Deck.plain("path", {UNSEEN: n} if n else {})
    if kind == "path.drawn":
        ready = deck.ready()
        stage = ready.stage_index()
        if stage is not None and ready.stages[stage].count(card) == 0 and ready.stages[stage].count(UNSEEN):
            return ready.drawn(UNSEEN, to_discard=False)
        return deck.drawn(card, to_discard=False)
    return replace(deck, discard=deck.discard.add(card))


def draw_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if args and args[0] == "path":
        if len(args) > 2:
            raise Rejected("usage: draw path [SEAT]")
        path_draw(txn, None, args[1] if len(args) == 2 else None, {}, [])
        return
    want(args, 1, "draw SOURCE")
    txn.draw(args[0])


def reveal_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if len(args) >= 2 and args[0] == "path":
        words, options = split_args(args[1:])
        seat = words[1] if len(words) >= 2 and words[1].isdigit() else None
        flags = words[2:] if seat is not None else words[1:]
        path_draw(txn, words[0] if words else None, seat, options, flags)
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
