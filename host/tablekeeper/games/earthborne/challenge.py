"""Tests and the challenge deck: committing effort, exact odds, the drawn card (ER-TEST-1..3)."""

from __future__ import annotations

from fractions import Fraction

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn, parse_int, parse_seat, want
from tablekeeper.core.odds import percent
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import engine, rules, tables
from tablekeeper.games.earthborne.data import ASPECTS
from tablekeeper.games.earthborne.frames import OpenTest
from tablekeeper.games.earthborne.odds import success_chance
from tablekeeper.games.earthborne.parsing import no_extra, split_args
from tablekeeper.games.earthborne.rangers import check_free, suffer, take_action

TEST_USAGE = ("usage: test SEAT AWA|FIT|SPI|FOC DIFFICULTY [energy=N] [commit=N] [icons=N] [effort=N] "
              "[target=CARD]")


def test_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-TEST-1..3, ER-RTOKEN-1: choose the test, suffer fatigue from cards in between, commit effort.

    ``energy`` is the aspect's energy committed, ``commit`` the hand cards discarded for their
    approach icons (``icons`` of them in all, one each by default), ``effort`` any other effort."""
    words, options = split_args(args)
    if len(words) != 3:
        raise Rejected(TEST_USAGE)
    no_extra(options, ("energy", "commit", "icons", "effort", "target"), "test")
    seat = parse_seat(txn.state, words[0])
    aspect = words[1].lower()
    if aspect not in ASPECTS:
        raise Rejected(f"test: aspect must be one of {', '.join(a.upper() for a in ASPECTS)}, not {words[1]!r}")
    difficulty = parse_int(words[2], "difficulty")
    energy = parse_int(options.get("energy", "1"), "energy")
    committed = parse_int(options.get("commit", "0"), "commit")
    icons = parse_int(options.get("icons", str(committed)), "icons")
    extra = parse_int(options.get("effort", "0"), "effort")
    have = txn.state.value(seat_track(seat, aspect))
    if txn.state.phase != "turns":
        raise Rejected("a test is a Ranger's turn action: tests happen in phase 2 (Ranger turns)")
    if energy < 1:
        raise Rejected("a test needs at least 1 energy of its aspect committed")
    if have < energy:
        raise Rejected(f"seat {seat} has {have} {aspect.upper()} energy: cannot commit {energy} (ER-TEST-2)")
    if min(committed, icons, extra) < 0 or (committed == 0 and icons > 0):
        raise Rejected("test: commit=N cards (icons=N their matching approach icons) and effort=N are counts")
    hand = txn.state.value(seat_track(seat, "hand"))
    if committed > hand:
        raise Rejected(f"seat {seat} has {hand} card(s) in hand: cannot commit {committed}")
    check_free(txn)
    take_action(txn, seat, f"tested {aspect.upper()}")
    target_key = tables.card_key(txn.state, options["target"]) if "target" in options else None
    all_cards = tables.cards(txn.state)
    target: rules.Target | None = all_cards.get(target_key) if target_key and target_key != "location" else None
    if target_key == "location":
        target = tables.location(txn.state)
    blocker = rules.blocking_obstacle(target, all_cards, seat)
    if blocker is not None:
        raise Rejected(f"the ready obstacle {all_cards[blocker].name} ({blocker}) stands between seat {seat} "
                       f"and {target_key}: deal with it first")
    fatigue = rules.between_fatigue(target, all_cards, seat)
    for name in rules.variable_presence(target, all_cards, seat):
        txn.notice(f"{name} is in between with presence X: suffer the fatigue its card gives (fatigue {seat} N)")
    if fatigue:
        names = ", ".join(c.name for c in rules.between(target, all_cards, seat).values())
        if not suffer(txn, seat, fatigue, f"the ready cards in between: {names}"):
            return
    tables.add_tokens(txn, seat_track(seat, aspect), -energy)
    if committed:
        tables.add_tokens(txn, seat_track(seat, "hand"), -committed)
        tables.log(txn, f"seat {seat} commits {committed} card(s) from hand (+{icons})")
    effort = energy + icons + extra + rules.ranger_token_bonus(target, seat)
    tables.log(txn, f"seat {seat} tests {aspect.upper()} {effort} vs {difficulty}")
    engine.push(txn, OpenTest(seat=seat, aspect=aspect, difficulty=difficulty, effort=effort,
                                    target=target_key))
    txn.notice(f"effort {effort} vs {difficulty}: {chance_text(txn.state, aspect, effort, difficulty)} to succeed"
               "; draw challenge (or reveal challenge CARD)")


def chance(state: GameState, aspect: str, effort: int, difficulty: int) -> Fraction | None:
    """ER-TEST-1: the exact chance a test succeeds, from the cards still in the challenge deck."""
    deck = state.sources["challenge"]
    if not isinstance(deck, Deck):
        return None
    table = {card_id: row.modifiers for card_id, row in tables.cfg(state).challenge.items()}
    return success_chance(deck, table, aspect, effort, difficulty, tables.rule(state).effort_floor)


UNVERIFIED = " (odds from an unverified deck)"


def chance_text(state: GameState, aspect: str, effort: int, difficulty: int) -> str:
    """The exact chance, and "(odds from an unverified deck)" whenever the deck data was not checked."""
    p = chance(state, aspect, effort, difficulty)
    if p is None:
        return "?"
    text = f"{p.numerator}/{p.denominator} ({percent(p)})"
    return text if deck_verified(state) else text + UNVERIFIED


def deck_verified(state: GameState) -> bool:
    return tables.cfg(state).challenge_deck.verified


def deck_file(state: GameState) -> str:
    """Which challenge-deck data the odds come from, marked while it is not checked."""
    where = tables.cfg(state).challenge_file
    return where + ("" if deck_verified(state) else " (unverified)")


def odds_verb(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 3, "odds AWA|FIT|SPI|FOC EFFORT DIFFICULTY")
    aspect = args[0].lower()
    if aspect not in ASPECTS:
        raise Rejected(f"odds: aspect must be one of {', '.join(a.upper() for a in ASPECTS)}")
    effort, difficulty = parse_int(args[1], "effort"), parse_int(args[2], "difficulty")
    chance = chance_text(txn.state, aspect, effort, difficulty)
    txn.notice(f"{aspect.upper()} effort {effort} vs {difficulty}: {chance} (deck: {deck_file(txn.state)})")


def on_challenge(txn: Txn, card_id: str) -> None:
    """A challenge card was drawn or reported: it settles the test waiting for it (ER-TEST-1)."""
    work = engine.frames(txn.state)
    top = work[-1] if work else None
    if isinstance(top, OpenTest) and top.stage == "draw":
        engine.test_drawn(txn, top, card_id)
        return
    card = tables.cfg(txn.state).challenge[card_id]
    txn.notice(f"challenge card {card_id}: {card.icon}")
    if card.reshuffle:
        txn.source_op("challenge", "refresh")
        txn.notice("reshuffle: the challenge discard is shuffled back into the deck")
