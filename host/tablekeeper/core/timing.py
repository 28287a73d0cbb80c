"""Timing windows and the order effects resolve in, kept as game data so undo and replay see it.

- Windows are ordered BEFORE -> WHEN -> AFTER; within one window, if several effects are pending,
  the players choose the order with a prompt (never a silent default).
- ``defer`` holds something until the current rules step finishes (Earthborne clearing).
- Actions nest on a stack; effects they trigger wait in that action's queue and come due when the
  action completes (Spirit Island: triggered actions check after the action that set them up).
- Depth and event limits guard against endless loops.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from tablekeeper.core.frozen import thaw
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected

if TYPE_CHECKING:
    from tablekeeper.core.game import Txn

KEY = "timing"
MAX_DEPTH = 16


class Window(IntEnum):
    BEFORE = 0
    WHEN = 1
    AFTER = 2


def effect(effect_id: str, window: Window, label: str, **data: Any) -> dict[str, Any]:
    """An effect waiting to resolve, as plain JSON."""
    return {"id": effect_id, "window": int(window), "label": label, **data}


def _get(state: GameState) -> dict[str, Any]:
    raw = state.get(KEY)
    base: dict[str, Any] = {"stack": [], "deferred": [], "queue": []}
    if raw is not None:
        base.update(thaw(raw))
    return base


def _put(txn: Txn, timing: Mapping[str, Any]) -> None:
    txn.put(KEY, dict(timing))


# --- deferral until the current rules step finishes ------------------------------------------------

def defer(txn: Txn, item: Mapping[str, Any]) -> None:
    t = _get(txn.state)
    t["deferred"].append(dict(item))
    _put(txn, t)


def deferred(state: GameState) -> list[dict[str, Any]]:
    return list(_get(state)["deferred"])


def take_deferred(txn: Txn) -> list[dict[str, Any]]:
    t = _get(txn.state)
    items = t["deferred"]
    if items:
        t["deferred"] = []
        _put(txn, t)
    return list(items)


# --- nested actions and their triggers --------------------------------------------------------------

def depth(state: GameState) -> int:
    return len(_get(state)["stack"])


def current_action(state: GameState) -> str | None:
    stack = _get(state)["stack"]
    return str(stack[-1]["action"]) if stack else None


def begin_action(txn: Txn, name: str) -> None:
    t = _get(txn.state)
    if len(t["stack"]) >= MAX_DEPTH:
        raise Rejected(f"actions nested more than {MAX_DEPTH} deep ({name}); a loop of effects?")
    t["stack"].append({"action": name, "triggers": []})
    _put(txn, t)


def trigger(txn: Txn, item: Mapping[str, Any]) -> bool:
    """Queue a triggered effect on the innermost action. Returns False when no action is open,
    meaning the caller resolves it now."""
    t = _get(txn.state)
    if not t["stack"]:
        return False
    t["stack"][-1]["triggers"].append(dict(item))
    _put(txn, t)
    return True


def end_action(txn: Txn) -> list[dict[str, Any]]:
    """Close the innermost action; the effects it triggered are now due, in the order they arose."""
    t = _get(txn.state)
    if not t["stack"]:
        raise Rejected("no action is open")
    frame = t["stack"].pop()
    _put(txn, t)
    return list(frame["triggers"])


# --- resolving in window order, with the players' choice within a window --------------------------

def enqueue(txn: Txn, effects: Sequence[Mapping[str, Any]]) -> None:
    t = _get(txn.state)
    t["queue"].extend(dict(e) for e in effects)
    _put(txn, t)


def queued(state: GameState) -> list[dict[str, Any]]:
    return list(_get(state)["queue"])


def _first_window(queue: Sequence[Mapping[str, Any]]) -> list[int]:
    lowest = min(int(e["window"]) for e in queue)
    return [i for i, e in enumerate(queue) if int(e["window"]) == lowest]


def pop_next(txn: Txn, prompt_id: str, text: str = "Which resolves first?") -> dict[str, Any] | None:
    """The next effect to resolve, or None when the queue is empty or the players must choose
    (then a prompt ``prompt_id`` is open; answer it with :func:`chosen`)."""
    t = _get(txn.state)
    queue = t["queue"]
    if not queue:
        return None
    candidates = _first_window(queue)
    if len({str(queue[i]["label"]) for i in candidates}) > 1:  # identical effects need no order
        labels = [str(queue[i]["label"]) for i in candidates]
        window = Window(int(queue[candidates[0]]["window"])).name.lower()
        txn.ask(prompt_id, f"{text} ({window})", labels)
        return None
    item = queue.pop(candidates[0])
    _put(txn, t)
    return dict(item)


def chosen(txn: Txn, index: int) -> dict[str, Any]:
    """The players' pick among the effects of the current window; closes the prompt."""
    t = _get(txn.state)
    candidates = _first_window(t["queue"])
    if not 0 <= index < len(candidates):
        raise Rejected(f"choose 1..{len(candidates)}")
    item = t["queue"].pop(candidates[index])
    _put(txn, t)
    txn.close_prompt()
    return dict(item)
