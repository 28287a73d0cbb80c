"""Reading verb arguments and the checks several verbs share; each refusal is a ``Rejected`` reason."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping, Sequence

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn, parse_int, parse_seat
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import board, effects
from tablekeeper.games.arkham.record import rec


def usage(args: tuple[str, ...], lo: int, hi: int, text: str) -> None:
    """Refuse a line with too few or too many arguments, quoting the verb's usage."""
    if not lo <= len(args) <= hi:
        raise Rejected(f"usage: {text}")


def count(text: str, what: str, lo: int = 0) -> int:
    """A whole number (a leading + allowed) of at least ``lo``."""
    n = parse_int(text, what)
    if n < lo:
        raise Rejected(f"{what} must be at least {lo}, not {n}")
    return n


def live_seat(state: GameState, text: str) -> int:
    seat = parse_seat(state, text)
    if not effects.is_live(state, seat):
        raise Rejected(f"seat {seat} is no longer in the scenario ({effects.eliminated(state)[str(seat)]})")
    return seat


def own_turn(txn: Txn, seat: int, what: str) -> None:
    """AH-ACTV-1 / AH-TRIG-7 / AH-EVENT-2: actions belong to the investigator's own turn. AH-FW-3:
    the investigators take turns in any order, so the first of them to act begins their turn."""
    if txn.state.phase == "investigation" and txn.state.step == "2.2":
        flowmod.take_turn(txn, txn.game.flow, seat)
    state = txn.state
    if state.phase != "investigation" or state.step != "2.2" or state.active_seat is None:
        raise Rejected(f"{what} only on an investigator's own turn (now: {state.phase} {state.step})")
    if state.active_seat != seat:
        raise Rejected(f"{what}: it is seat {state.active_seat}'s turn, not seat {seat}'s")


def no_test(state: GameState) -> None:
    if rec(state).test is not None:
        raise Rejected("a skill test is running; resolve it first")


def spend_actions(txn: Txn, seat: int, n: int, what: str, kind: str = "") -> None:
    """AH-ACTION-1: at most the actions left; AH-ACTION-2: costs are paid first. A treachery in the
    seat's threat area may make the first move, fight or evade action of each round cost 1 more
    (Frozen in Fear)."""
    extra = [label for label, t in board.threat_area(txn.state, seat).items() if kind in t.costs_more]
    paid = rec(txn.state).paid_more
    if extra and paid.get(str(seat)) != txn.state.round:
        n += 1
        txn.put("paid_more", {**paid, str(seat): txn.state.round})
        txn.notice(f"{extra[0]}: seat {seat}'s first {'/'.join(rec(txn.state).treacheries[extra[0]].costs_more)} "
                   "action this round costs 1 more action")
    left = effects.seat_value(txn.state, seat, "actions")
    if left < n:
        raise Rejected(f"seat {seat} has {left} action{'s' if left != 1 else ''} left; {what} needs {n}")
    txn.add(seat_track(seat, "actions"), -n)


def keywords(args: Sequence[str], glue: Collection[str] = (),
             stop: Collection[str] = ()) -> tuple[list[str], dict[str, str]]:
    """Plain words and ``key=value`` words. A value that is a name (a key in ``glue``) goes on over
    the plain words after it, up to a word in ``stop``: ``at=Main Path`` is ``at="Main Path"``."""
    plain: list[str] = []
    named: dict[str, str] = {}
    gluing: str | None = None
    for word in args:
        if "=" in word:
            key, value = word.split("=", 1)
            named[key] = value
            gluing = key if key in glue else None
        elif gluing is not None and word not in stop:
            named[gluing] = f"{named[gluing]} {word}".strip()
        else:
            gluing = None
            plain.append(word)
    return plain, named


def cost_less(named: Mapping[str, str]) -> int:
    """A card's "costs N less" (``less=N``)."""
    unknown = set(named) - {"less"}
    if unknown:
        raise Rejected(f"unknown option {sorted(unknown)[0]!r} (less=N)")
    return count(named["less"], "less") if "less" in named else 0


# --- names: one rule for every verb ----------------------------------------------------------------
# A name (an enemy, a location, an asset, a card title) is written as its words, quoted or not:
# ``act seat1 fight Ghoul Minion`` and ``act seat1 fight "Ghoul Minion"`` are the same line. Where a
# verb takes words after the name (a keyword, a number), the name is every word before them; where it
# takes two names (``move-enemy``), the split that names something of each kind is taken.
def name_of(words: Sequence[str], what: str) -> str:
    """The words of a name joined by one space (a quoted name is one word already)."""
    text = " ".join(" ".join(words).split())
    if not text:
        raise Rejected(f"name the {what}")
    return text


def name_then(words: Sequence[str], tail: int, text: str) -> tuple[str, list[str]]:
    """A name followed by ``tail`` fixed words: (the name, those words)."""
    if len(words) < tail + 1:
        raise Rejected(f"usage: {text}")
    return name_of(words[:len(words) - tail], "name"), list(words[len(words) - tail:])


def two_names(words: Sequence[str], first: Collection[str], second: Collection[str], text: str) -> tuple[str, str]:
    """Two names one after the other, unquoted: the one split whose halves name a known thing each."""
    splits = [(name_of(words[:i], "name"), name_of(words[i:], "name")) for i in range(1, len(words))]
    firsts, seconds = {fold(n) for n in first}, {fold(n) for n in second}
    found = [(a, b) for a, b in splits if fold(a) in firsts and fold(b) in seconds]
    if len(found) == 1:
        return found[0]
    if len(words) == 2:
        return words[0], words[1]  # each checked by the verb, which names what is unknown
    raise Rejected(f"usage: {text} (say which words name which, or quote the names)")


def fold(text: str) -> str:
    """A name as players type it: accents, quotation marks and case do not matter (Umôrdhoth =
    umordhoth, "Wolf-Man" Drew = Wolf-Man Drew)."""
    plain = unicodedata.normalize("NFKD", " ".join(text.replace('"', " ").replace("\u201c", " ")
                                                    .replace("\u201d", " ").split()))
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def pick(text: str, known: Collection[str]) -> str:
    """The known name ``text`` means: itself, or the one it matches whatever the case and accents
    (``text`` itself when none does: the caller's lookup then names what is missing)."""
    if text in known:
        return text
    found = [name for name in known if fold(name) == fold(text)]
    return found[0] if len(found) == 1 else text
