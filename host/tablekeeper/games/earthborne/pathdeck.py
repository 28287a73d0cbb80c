"""The path deck: building it, reporting or drawing path cards into play, and the deck's own events
(ER-PATH-1, ER-TRAVEL-2, ER-SETUP-1).

The group's path deck is physical: the device knows how many cards were shuffled in (``pathdeck N``)
and learns each card's name when a Ranger turns it over (``reveal path NAME``). Unseen cards are the
``UNSEEN`` entries of the deck; cards that left play go to the discard by name, so after a reshuffle
the deck is known. A deck file (``--option path=PATH`` with ``copies``) is a fully known deck the
device can draw from itself.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn, parse_int, parse_seat, want
from tablekeeper.core.numbers import is_number, parse_number
from tablekeeper.core.state import GameState
from tablekeeper.errors import NotANumber, Rejected
from tablekeeper.games.earthborne import engine, tables, valley
from tablekeeper.games.earthborne.cards import FLAGS, add_card, card_record, known_path_card, remember_path_card
from tablekeeper.games.earthborne.data import ASPECTS
from tablekeeper.games.earthborne.parsing import guard, name_then, split_args
from tablekeeper.games.earthborne.rangers import check_free
from tablekeeper.games.earthborne.record import CampRecord, GameConfig, rec

UNSEEN = "?"
SEARCHED = "discard"
"""``reveal path NAME discard``: an effect searched the deck for the card and discarded it (an arrival
setup's "search the path deck for the next predator and discard it"): it leaves the deck without
entering play or counting as any Ranger's path card."""


def _deck(state: GameState) -> Deck:
    deck = state.sources.get("path")
    if not isinstance(deck, Deck):
        raise Rejected("there is no path deck")
    return deck


def path_draw(txn: Txn, name: str | None, seat_text: str | None, options: dict[str, str],
              flags: list[str]) -> None:
    """ER-PATH-1: one path card per Ranger from the lead; an empty deck reshuffles its discard first.
    In Phase 1 a card beyond one per Ranger is one a card effect draws (flag ``extra``): it belongs
    to the Ranger whose card drew it and does not move the draw on to the next Ranger."""
    check_free(txn)  # ER-PATH-1: each card is resolved completely before the next is drawn
    extra, searched = "extra" in flags, SEARCHED in flags
    flags = [f for f in flags if f not in ("extra", SEARCHED)]
    if not rec(txn.state).path_built:
        raise Rejected("the path deck is not built yet: " + build_hint(txn.state))
    if searched and (extra or seat_text is not None or name is None):
        raise Rejected("usage: reveal path NAME discard (a card searched out of the path deck and discarded: "
                       "nobody draws it)")
    drawn = rec(txn.state).path_drawn
    if txn.state.phase == "path" and not extra and not searched and drawn >= txn.state.seats:
        raise Rejected(f"each Ranger has drawn this round's path card ({drawn} of {txn.state.seats}); a card "
                       "an effect draws: reveal path NAME extra (or draw path extra)")
    named_seat = _named_seat(txn.state, seat_text, extra)
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
        name = known.name  # the printed spelling, whatever case the players typed
    if top.count(name) == 0 and top.count(UNSEEN) == 0:
        raise Rejected(f"the path deck holds no {name!r} (it holds {', '.join(sorted(top.as_dict()))})")
    unseen_from = rec(txn.state).path_unseen_set
    if top.count(name) == 0 and unseen_from and (known is None or known.set != unseen_from):
        raise Rejected(f"the path deck holds no {name!r}: its unseen cards are "
                       f"{valley.set_name(tables.cfg(txn.state), str(unseen_from))} cards")
    if known is None or options or flags:
        remember_path_card(txn, name, options, flags)
    if deck.remaining == 0:
        txn.notice("the path deck is empty: its discard is shuffled into a new deck")
        tables.log(txn, "path deck reshuffled")
    txn.emit("path.drawn", card=name)
    txn.put("path_fresh", False)
    if searched:
        txn.emit("path.discarded", card=name)
        tables.log(txn, f"path: {name} searched out and discarded")
        txn.notice(f"{name} goes from the path deck to its discard (not in play, nobody's path card)")
        engine.end_of_command(txn)
        return
    seat = named_seat if named_seat is not None else _drawing_seat(txn.state, extra, drawn)
    if not extra:
        txn.put("path_drawn", drawn + 1)
    record = msgspec.structs.replace(card_record(txn.state, name, {"seat": str(seat)}, []), from_path=True)
    key = add_card(txn, record)
    tables.log(txn, f"path: {record.name} -> {key}")
    if not record.verified:
        txn.notice(f"{record.name}: its numbers are unverified (check them against the card)")
    engine.end_of_command(txn)


def _named_seat(state: GameState, seat_text: str | None, extra: bool) -> int | None:
    """The seat a reported path card was named for, refused when it is not that seat's turn to draw."""
    if seat_text is None:
        return None
    seat = parse_seat(state, seat_text)
    out_of_turn = None if extra else out_of_turn_draw(state, seat)
    if out_of_turn is not None:
        raise Rejected(f"{out_of_turn}; a card an effect lets seat {seat} draw: add extra")
    return seat


def _drawing_seat(state: GameState, extra: bool, drawn: int) -> int:
    """Whose card it is when no seat was named: the next Ranger from the lead, or in Phase 1 for an
    effect's card the Ranger whose card drew it."""
    if state.phase == "path" and extra:
        return (state.lead - 1 + max(drawn - 1, 0)) % state.seats + 1
    return tables.next_path_seat(state)


def seat_drew(txn: Txn, seat: int) -> None:
    """``pass SEAT`` in Phase 1 (the seat's A button): that Ranger's path card is drawn (ER-PATH-1). The
    device draws it from a deck it knows; from the group's own deck the Ranger drew the top card and the
    table places and resolves it unnamed, so the device counts it (the deck one card shorter, the next
    Ranger to draw) without the card in play."""
    check_free(txn)
    if not rec(txn.state).path_built:
        raise Rejected("the path deck is not built yet: " + build_hint(txn.state))
    drawn, seats = rec(txn.state).path_drawn, txn.state.seats
    if drawn >= seats:
        raise Rejected(f"each Ranger has drawn this round's path card ({drawn} of {seats}); next goes on")
    out_of_turn = out_of_turn_draw(txn.state, seat)
    if out_of_turn is not None:
        raise Rejected(out_of_turn)
    if device_can_draw(txn.state):
        path_draw(txn, None, str(seat), {}, [])
        return
    if not has_cards(txn.state):
        raise Rejected("the path deck and its discard are empty")
    txn.emit("path.drawn", card=UNSEEN)
    txn.put("path_drawn", drawn + 1)
    txn.put("path_fresh", False)
    tables.log(txn, f"path: seat {seat} drew a card, not named")
    txn.notice(f"seat {seat} drew a path card, not named: the table places and resolves it")
    engine.end_of_command(txn)


def out_of_turn_draw(state: GameState, seat: int) -> str | None:
    """ER-PATH-1: in Phase 1 the path cards go one per Ranger from the lead, so a card named for another
    seat would leave one Ranger with two and another with none (and ``next`` would count both drawn)."""
    if state.phase != "path":
        return None
    first = tables.next_path_seat(state)
    if seat == first:
        return None
    return f"seat {first} draws the next path card (one per Ranger from the lead, ER-PATH-1)"


def planned(state: GameState) -> valley.Build | None:
    """The path deck the group builds now, from the Valley data: the terrain set of the path taken and
    the location's own set or random Valley cards (ER-TRAVEL-2); None when either is unknown."""
    loc = tables.location(state)
    terrain = (rec(state).record or CampRecord()).terrain
    return valley.build_for(tables.cfg(state), terrain, None if loc is None else loc.id)


def build_hint(state: GameState) -> str:
    """ER-TRAVEL-2, ER-SETUP-1: what goes into a new path deck, and the verb that reports it."""
    plan = planned(state)
    if plan is not None:
        return (f"shuffle {plan.text} and any cards missions add, then: pathdeck "
                f"({plan.size} cards; pathdeck N if missions add some)")
    terrain = (rec(state).record or CampRecord()).terrain
    where = f"the {valley.terrain_name(terrain)} set" if terrain else "the terrain set of the path taken"
    return (f"shuffle {where}, the pivotal location's set or 3 random Valley cards, and any cards "
            "missions add, then: pathdeck SET... (e.g. pathdeck woods lone_tree_station) or pathdeck N")


def build(txn: Txn, args: tuple[str, ...]) -> None:
    """``pathdeck``: the group built the path deck the device named; ``pathdeck SET ... [valley=N]``:
    from those sets (and N random Valley cards); ``pathdeck N``: N cards the device learns one by one
    (ER-TRAVEL-2, ER-SETUP-1)."""
    words, options = split_args(args)
    if rec(txn.state).path_built and not rec(txn.state).path_fresh:
        raise Rejected("the path deck is already built and drawn from; it is built again after travel or on "
                       "a new day")
    if rec(txn.state).path_mode == "file":
        raise Rejected("the path deck is the file given with --option path")
    check_free(txn)
    cfg = tables.cfg(txn.state)
    if len(words) == 1 and not options and is_number(words[0]):
        count = parse_int(words[0], "path deck cards")
        if count < 1:
            raise Rejected("pathdeck: a path deck holds at least 1 card")
        put_built(txn, valley.Build({}, count, f"{count} cards"))
        return
    unknown = sorted(set(options) - {"valley"})
    if unknown:
        raise Rejected(f"pathdeck: unknown option {unknown[0]}= (valley=N)")
    if words:
        ids = []
        for word in words:
            found = valley.find_set(cfg, word)
            if found is None:
                raise Rejected(f"pathdeck: no path set {word!r} (sets: {', '.join(cfg.sets)})")
            ids.append(found)
        plan = valley.build_from_sets(cfg, ids, parse_int(options.get("valley", "0"), "valley cards"))
    else:
        if options:
            raise Rejected("pathdeck valley=N goes with the sets it joins: pathdeck SET ... valley=N")
        found_plan = planned(txn.state)
        if found_plan is None:
            raise Rejected("pathdeck: the device does not know this path deck's sets: " + build_hint(txn.state))
        plan = found_plan
    if plan.size < 1:
        raise Rejected("pathdeck: a path deck holds at least 1 card")
    put_built(txn, plan)


def put_built(txn: Txn, plan: valley.Build) -> None:
    """The path deck is built (its known cards and unseen ones); it may be built again, to correct it,
    until its first card is drawn."""
    txn.emit("path.built", n=plan.unseen, cards=plan.cards)
    if plan.terrain is not None:
        # ER-DAY-1: a day that ends here without travel begins tomorrow with the terrain of this deck
        kept = rec(txn.state).record or CampRecord()
        txn.put("record", replace(kept, terrain=plan.terrain))
    txn.put("path_built", True)
    txn.put("path_fresh", True)
    txn.put("path_unseen_set", "the_valley" if plan.cards and plan.unseen else None)
    tables.log(txn, f"path deck built: {plan.text}")
    total = "" if not plan.cards else f" = {plan.size} cards"
    txn.notice(f"path deck: {plan.text}{total}, shuffled")


def build_if_known(txn: Txn) -> bool:
    """After arriving or on a new day: the device builds the path deck itself when it knows the sets
    (the terrain of the path taken, the location's set or Valley cards); False when it does not."""
    plan = planned(txn.state)
    if plan is None:
        return False
    put_built(txn, plan)
    txn.notice("cards missions add? pathdeck N (the deck's size) replaces it until its first card is drawn")
    return True


def choices(state: GameState) -> list[valley.Build]:
    """The path decks the group may have built here (one per terrain reaching this location) when the
    device cannot tell which: Phase 1's ``next`` asks."""
    loc = tables.location(state)
    return valley.builds_here(tables.cfg(state), None if loc is None else loc.id)


def file_deck(cfg: GameConfig) -> Deck:
    """A path deck given as a file (``--option path=PATH``): every card and its copies, all known."""
    return Deck.plain("path", dict(cfg.deck_file))


def draws_next(state: GameState, seat: int) -> bool:
    """ER-PATH-1: whether ``seat``'s path card is the next one this round (one per Ranger, from the lead)
    and the device can draw it; a seat whose card was drawn has nothing more to draw."""
    return (state.phase == "path" and rec(state).path_drawn < state.seats
            and tables.next_path_seat(state) == seat and device_can_draw(state))


def drew_unnamed_next(state: GameState, seat: int) -> bool:
    """ER-PATH-1: ``seat``'s path card is the next one and comes from the group's own deck, so the seat's
    A button says it was drawn (``pass SEAT``) rather than asking the device to draw it."""
    return (state.phase == "path" and rec(state).path_drawn < state.seats
            and tables.next_path_seat(state) == seat and has_cards(state) and not device_can_draw(state))


def has_cards(state: GameState) -> bool:
    """ER-PATH-1: a path card can still be drawn: the deck has one, or its discard reshuffles into one."""
    deck = state.sources.get("path")
    return isinstance(deck, Deck) and rec(state).path_built and deck.ready().stage_index() is not None


def device_can_draw(state: GameState) -> bool:
    """Whether ``draw path`` can pick the card itself (the deck's next cards are all known)."""
    deck = state.sources.get("path")
    if not isinstance(deck, Deck) or not rec(state).path_built:
        return False
    ready = deck.ready()
    stage = ready.stage_index()
    return stage is not None and ready.stages[stage].count(UNSEEN) == 0


def apply_path(deck: Deck, kind: str, card: str, n: int, cards: Mapping[str, int] | None = None) -> Deck:
    """The path deck's own events: a drawn card goes into play (not to the discard); a card leaving
    play goes to the discard; a built deck is its known cards and ``n`` unseen ones."""
    if kind == "path.built":
        return Deck.plain("path", {**(cards or {}), **({UNSEEN: n} if n else {})})
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
        if SEARCHED in args[1:]:
            raise Rejected("draw path: a card an effect searches out and discards is the one the table found: "
                           "reveal path NAME discard")
        words = [a for a in args[1:] if a != "extra"]
        if len(words) > 1:
            raise Rejected("usage: draw path [SEAT] [extra]")
        path_draw(txn, None, words[0] if words else None, {}, ["extra"] if "extra" in args[1:] else [])
        return
    if args and args[0] == "challenge":
        if len(args) > 2 or (len(args) == 2 and args[1] != "effect"):
            raise Rejected("usage: draw challenge [effect]")
        _check_challenge_wanted(txn, len(args) == 2)
        txn.draw("challenge")
        return
    want(args, 1, "draw SOURCE")
    txn.draw(args[0])


def reveal_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if len(args) >= 2 and args[0] == "path":
        words, options = split_args(args[1:])
        name, rest = name_then(words, lambda w: is_number(w, signed=False)
                               or w.lower() in ("extra", SEARCHED, *FLAGS))
        seat = rest[0] if rest and is_number(rest[0], signed=False) else None
        flags = rest[1:] if seat is not None else rest
        path_draw(txn, name or None, seat, options, flags)
        return
    if len(args) < 2:
        raise Rejected("usage: reveal SOURCE OUTCOME")
    if args[0] == "challenge":
        words = list(args[1:])
        for_effect = words[-1] == "effect"
        if for_effect:
            words.pop()
        _check_challenge_wanted(txn, for_effect)
        txn.draw("challenge", challenge_card_id(txn, words))
        return
    txn.draw(args[0], " ".join(args[1:]))


def _check_challenge_wanted(txn: Txn, for_effect: bool) -> None:
    """ER-TEST-1: a challenge card is drawn for the test waiting for one; any other draw is an
    effect's (an arrival setup, a card's text) and is said to be one, so no card leaves the deck
    (and no odds shift) by a slip."""
    test = engine.current_test(txn.state)
    waiting = test is not None and test.stage == "draw"
    if test is not None and waiting and for_effect:
        raise Rejected(f"seat {test.seat}'s test waits for this challenge card: report it without 'effect'")
    if not waiting and not for_effect:
        raise Rejected("no test is waiting for a challenge card; a card an effect draws (an arrival setup, "
                       "a card's text): reveal challenge ID effect, or draw challenge effect")


def challenge_card_id(txn: Txn, words: list[str]) -> str:
    """The challenge card reported, by id (``sun3``) or by what it shows (``sun awa=0 fit=-1``: its icon
    and any modifiers that single it out among the cards still in the deck); it must still be in the deck."""
    table = tables.cfg(txn.state).challenge
    deck = txn.state.sources["challenge"]
    in_deck = [c for c in table if not isinstance(deck, Deck) or deck.ready().stages[0].count(c)]
    if len(words) == 1 and words[0] in table:
        card_id = str(words[0])
        if card_id not in in_deck:
            raise Rejected(f"challenge card {card_id} is not in the deck: it was drawn since the last reshuffle")
        return card_id
    plain, options = split_args(tuple(words))
    if len(plain) != 1 or plain[0].lower() not in ("sun", "mountain", "crest") or set(options) - set(ASPECTS):
        ids = sorted(table)
        raise Rejected(f"no challenge card {' '.join(words)!r}: give its id ({ids[0]}..{ids[-1]}) or its icon and "
                       "modifiers (reveal challenge sun awa=0 fit=-1)")
    icon = plain[0].lower()
    try:
        wanted = {a: parse_number(v, a) for a, v in options.items()}
    except NotANumber as exc:
        raise NotANumber(f"reveal challenge: a modifier is a number, e.g. fit=-1 ({exc.reason})") from None
    matches = [c for c in in_deck
               if table[c].icon == icon and all(table[c].modifiers[a] == v for a, v in wanted.items())]
    if len(matches) == 1:
        return str(matches[0])
    if not matches:
        raise Rejected(f"no {icon} card with {_modifiers(wanted) or 'those modifiers'} is left in the challenge deck")
    raise Rejected(f"{len(matches)} {icon} cards left in the deck match ({', '.join(matches)}): give more modifiers")


def _modifiers(wanted: Mapping[str, int]) -> str:
    return " ".join(f"{a.upper()} {v:+d}" for a, v in wanted.items())
