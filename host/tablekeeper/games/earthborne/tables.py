"""Reading and writing the Earthborne data kept in a game state: cards in play, the location,
Rangers, and the token tracks, so the other modules never juggle raw keys."""

from __future__ import annotations

from collections.abc import Mapping

from tablekeeper.core.game import Txn
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import rules
from tablekeeper.games.earthborne.record import (
    CampRecord,
    CardInPlay,
    DayEnd,
    DayEndTiming,
    GameConfig,
    Place,
    RulesConfig,
    Turns,
    rec,
)


def cfg(state: GameState) -> GameConfig:
    return rec(state).cfg


def rule(state: GameState) -> RulesConfig:
    """The table's rule choices and numbers (``rules.toml``)."""
    return rec(state).cfg.rules


def cards(state: GameState) -> Mapping[str, CardInPlay]:
    return rec(state).cards


def card(state: GameState, key: str) -> CardInPlay:
    found = cards(state).get(key)
    if found is None:
        known = ", ".join(cards(state)) or "none"
        raise Rejected(f"no card {key!r} in play (cards: {known})")
    return found


def location(state: GameState) -> Place | None:
    return rec(state).location


def card_key(state: GameState, text: str) -> str:
    """``card3``, ``3`` or a card's name -> its key; ``location`` stays ``location``."""
    if text == "location":
        return text
    if is_number(text, signed=False):
        text = f"card{text}"
    in_play = cards(state)
    if text in in_play:
        return text
    named = [k for k, c in in_play.items() if c.name.lower() == text.lower()]
    if len(named) == 1:
        return named[0]
    if named:
        raise Rejected(f"several cards are named {text!r}: {', '.join(named)}")
    raise Rejected(f"no card {text!r} in play (cards: {', '.join(in_play) or 'none'})")


def tokens(state: GameState, key: str) -> tuple[int, int]:
    return state.value(f"{key}.progress"), state.value(f"{key}.harm")


def reached(state: GameState, key: str) -> tuple[str, ...]:
    """ER-CLEAR-1/10 for a card in play (the location never clears, ER-LOC-1)."""
    if key == "location":
        return ()
    progress, harm = tokens(state, key)
    return rules.reached(card(state, key), progress, harm, state.seats)


def location_threshold(state: GameState) -> int | None:
    loc = location(state)
    return None if loc is None else rules.threshold(loc, "progress", state.seats)


def set_tokens(txn: Txn, track: str, value: int) -> None:
    """Change a token track without the core's change hook: the caller decides when the rules step ends."""
    counter = txn.game.counter(txn.state, track)
    counter.check(track, value)
    if value != counter.value:
        txn.emit("track.set", name=track, value=value)


def add_tokens(txn: Txn, track: str, delta: int) -> None:
    set_tokens(txn, track, txn.state.value(track) + delta)


def put_card(txn: Txn, key: str, record: CardInPlay | None) -> None:
    all_cards = dict(cards(txn.state))
    if record is None:
        all_cards.pop(key, None)
    else:
        all_cards[key] = record
    txn.put("cards", all_cards)


def seat_aspects(state: GameState, seat: int) -> dict[str, int]:
    return rec(state).aspects[str(seat)].as_dict()


def next_path_seat(state: GameState) -> int:
    """ER-PATH-1: the seat whose path card comes next this round, counting from the lead Ranger."""
    return (state.lead - 1 + rec(state).path_drawn) % state.seats + 1


def turns(state: GameState) -> Turns:
    return rec(state).turns


def log(txn: Txn, text: str) -> None:
    """The resolution log the players (and tests) read: effects and clearing steps in order."""
    txn.put("log", [*rec(txn.state).log, text])


def day_end(state: GameState) -> DayEnd | None:
    return rec(state).day_end


def end_day(txn: Txn, reason: str, timing: DayEndTiming = "now") -> None:
    """ER-DAY-1: end the day at once, or mark it to end at the end of the current turn."""
    current = day_end(txn.state)
    if current is not None and current.timing == "now":
        return
    txn.put("day_end", DayEnd(reason, timing))
    if timing == "now" and reason != "camped":
        # ER-DAY-1: the group is where it stands; the terrain is the one last travelled
        loc = location(txn.state)
        last = rec(txn.state).record or CampRecord()
        txn.put("record", CampRecord(None if loc is None else loc.name, None if loc is None else loc.progress,
                                     last.terrain))
    if timing == "now":
        day = txn.state.value("day")
        crossed = rec(txn.state).crossed
        txn.put("crossed", crossed if day in crossed else (*crossed, day))
        txn.notice(f"day {day} ends ({reason.replace('_', ' ')}); start the next one with newday")
    else:
        txn.notice(f"the day will end at the end of this turn ({reason.replace('_', ' ')})")
