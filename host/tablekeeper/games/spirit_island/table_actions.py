"""Actions at the table on the core's timing stack (``core/timing.py``): ``begin``/``end`` by the
players, and an implicit action around a Blight addition made outside any action. Triggered
actions queue on the innermost action and, when the outermost one ends, resolve in the order the
players choose when several come due together (SI-TRIGGER-4, SI-BLIGHT-1 step 6, catalogue gaps
4 and 6)."""

from __future__ import annotations

from typing import Any

from tablekeeper.core import timing
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island.record import shared

ORDER_PROMPT = "si.trigger_order"


def open_names(state: GameState) -> list[str]:
    raw = thaw(state.get(timing.KEY, {})) or {}
    return [str(frame["action"]) for frame in raw.get("stack", [])]


COUNTS_AS = "counts_as"
PUSHED = "russia.pushed"  # Russia 2's Explorer pushed, per open action (``adversary_rules.DISASTER``)


def begin(txn: Txn, name: str) -> None:
    timing.begin_action(txn, name)


def declare(txn: Txn, piece: str, counts: bool) -> None:
    """SI-COUNTS-1: "may count as" is chosen per piece for the whole action: a different choice
    later in the same action is refused. SI-COUNTS-2: a nested action has its own choices, and the
    outer action's come back when it ends."""
    depth = timing.depth(txn.state)
    if depth == 0:
        raise Rejected("counts-as is chosen inside an action: begin NAME first")
    frames = shared(txn.state).counts_as
    mine = frames.get(str(depth), {})
    if piece in mine and mine[piece] != counts:
        raise Rejected(f"{piece} was declared {'' if mine[piece] else 'not '}to count for this whole action "
                       f"({timing.current_action(txn.state)})")
    txn.put(COUNTS_AS, {**frames, str(depth): {**mine, piece: counts}})


def counts(state: GameState, piece: str) -> bool | None:
    """The current action's choice for ``piece`` (None: not declared in this action)."""
    return shared(state).counts_as.get(str(timing.depth(state)), {}).get(piece)


def begin_implicit(txn: Txn, name: str) -> None:
    """Open an action for a Blight addition unless one is already open (it then belongs to it)."""
    if timing.depth(txn.state) == 0:
        timing.begin_action(txn, name)
        txn.put("blight.implicit", 1)


def close_implicit(txn: Txn) -> None:
    if shared(txn.state).blight_implicit and timing.depth(txn.state) == 1:
        txn.put("blight.implicit", None)
        end(txn)


def trigger(txn: Txn, label: str) -> None:
    """Queue a triggered action on the innermost open action."""
    if not timing.trigger(txn, timing.effect(f"trigger:{label}", timing.Window.AFTER, label)):
        raise Rejected(f"no action is open to trigger {label!r} after")


def end(txn: Txn, quiet: bool = False) -> None:
    """Close the innermost action. Its triggers pass to the enclosing action, or, with none left,
    come due: the action's memory is cleared and the triggers resolve. ``quiet``: the station's
    own Invader Actions end without a notice, so the display keeps what the players answered."""
    name = timing.current_action(txn.state)
    depth, record = timing.depth(txn.state), shared(txn.state)
    if str(depth) in record.counts_as:
        txn.put(COUNTS_AS, {d: mine for d, mine in record.counts_as.items() if d != str(depth)} or None)
    if record.pushed:
        txn.put(PUSHED, [d for d in record.pushed if d != depth] or None)  # Russia 2: the next action may push again
    due = timing.end_action(txn)
    if not quiet:
        txn.notice(f"Action finished: {name}")
    if timing.depth(txn.state) > 0:
        for item in due:
            timing.trigger(txn, item)
        return
    txn.put("blight.destroyed", None)
    timing.enqueue(txn, due)
    resolve_due(txn)


def resolve_due(txn: Txn) -> None:
    while True:
        item = timing.pop_next(txn, ORDER_PROMPT, "Which triggered action first?")
        if item is None:
            return
        _announce(txn, item)


def on_order(txn: Txn, index: int) -> None:
    _announce(txn, timing.chosen(txn, index))
    resolve_due(txn)


def _announce(txn: Txn, item: dict[str, Any]) -> None:
    txn.notice(f"Triggered action now: {item['label']}")
