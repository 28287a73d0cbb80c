"""Reading verb arguments and the checks several verbs share; each refusal is a ``Rejected`` reason."""

from __future__ import annotations

from collections.abc import Mapping

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn, parse_int, parse_seat
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import effects


def usage(args: tuple[str, ...], lo: int, hi: int, text: str) -> None:
    """Refuse a line with too few or too many arguments, quoting the verb's usage."""
    if not lo <= len(args) <= hi:
        raise Rejected(f"usage: {text}")


def count(text: str, what: str, lo: int = 0) -> int:
    """A whole number (a leading + allowed) of at least ``lo``."""
    n = parse_int(text.lstrip("+"), what)
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
    if state.get("test") is not None:
        raise Rejected("a skill test is running; resolve it first")


def spend_actions(txn: Txn, seat: int, n: int, what: str) -> None:
    """AH-ACTION-1: at most the actions left; AH-ACTION-2: costs are paid first."""
    left = effects.seat_value(txn.state, seat, "actions")
    if left < n:
        raise Rejected(f"seat {seat} has {left} action{'s' if left != 1 else ''} left; {what} needs {n}")
    txn.add(f"seat{seat}.actions", -n)


def keywords(args: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    plain = [a for a in args if "=" not in a]
    named = dict(a.split("=", 1) for a in args if "=" in a)
    return plain, named


def cost_less(named: Mapping[str, str]) -> int:
    """A card's "costs N less" (``less=N``)."""
    unknown = set(named) - {"less"}
    if unknown:
        raise Rejected(f"unknown option {sorted(unknown)[0]!r} (less=N)")
    return count(named["less"], "less") if "less" in named else 0
