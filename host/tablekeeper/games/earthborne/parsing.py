"""Reading verb arguments: words and ``key=value`` options, seats, thresholds; the day-over guard."""

from __future__ import annotations

from collections.abc import Callable

from tablekeeper.core.game import Txn, parse_seat
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import tables
from tablekeeper.games.earthborne.data import parse_threshold


def split_args(args: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """Positional words and ``key=value`` options of a verb's arguments."""
    words: list[str] = []
    options: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.isidentifier():
            options[key.lower()] = value
        else:
            words.append(arg)
    return words, options


def no_extra(options: dict[str, str], allowed: tuple[str, ...], verb: str) -> None:
    extra = sorted(set(options) - set(allowed))
    if extra:
        raise Rejected(f"{verb}: unknown option {extra[0]}= (options: {', '.join(allowed) or 'none'})")


def guard(txn: Txn) -> None:
    """Nothing but ``newday`` (and undo) once the day has ended (ER-DAY-1)."""
    ended = tables.day_end(txn.state)
    if ended is not None and ended.timing == "now":
        raise Rejected(f"day {txn.state.value('day')} has ended ({ended.reason.replace('_', ' ')}): use newday")


def name_then(words: list[str], stop: Callable[[str], bool]) -> tuple[str, list[str]]:
    """A card's name as its words, quoted or not (``play 2 Walk With Me``): the words up to the first
    that ``stop`` takes for what follows a name (a flag, a seat number), and the rest."""
    for i, word in enumerate(words):
        if i and stop(word):
            return " ".join(words[:i]), words[i:]
    return " ".join(words), []


def name_and_threshold(words: list[str], known: Callable[[str], bool]) -> tuple[str, str | None]:
    """A place's words, quoted or not (``camp White Sky``, ``location Lone Tree 3``): the whole as a
    name the device knows, else the last word as a threshold when it reads as one."""
    if not words:
        return "", None
    whole = " ".join(words)
    if len(words) == 1 or known(whole):
        return whole, None
    try:
        parse_threshold(words[-1], "threshold")
    except ValueError:
        return whole, None
    return " ".join(words[:-1]), words[-1]


def threshold_text(text: str, what: str) -> str:
    try:
        return parse_threshold(text, what).text()
    except ValueError as exc:
        raise Rejected(str(exc)) from None


def seat_or_active(state: GameState, text: str | None) -> int:
    if text is not None:
        return parse_seat(state, text)
    if state.active_seat is not None:
        return state.active_seat
    return state.lead
