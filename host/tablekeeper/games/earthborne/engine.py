"""The rules-step engine: open rules steps, tests, and clearing walked through step by step.

Work in progress is a stack of frames kept in the state (``work``):

- ``step``: an open rules step (a test's success effects, one challenge effect, an effect the
  players announce); token changes inside it never clear anything until ``resolve`` ends it
  (ER-CLEAR-6).
- ``due``: cards that reached a threshold when a step ended, waiting to clear (ER-CLEAR-8); when
  several wait, the players pick the order (ambiguity 2).
- ``clear``: one card's clear, through the four steps before -> when -> re-check/discard -> after
  (ER-CLEAR-2..5, 9, 11).
- ``test``: a test from its challenge card to its challenge effects and the reshuffle check
  (ER-TEST-1, ER-CLEAR-7, ER-CHAL-1, ER-CHAL-3).

A command that is not inside an open step is itself one rules step: clears are checked when it ends.
"""

from __future__ import annotations

from typing import TypeVar

from msgspec.structs import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.timing import Window
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import rules, tables
from tablekeeper.games.earthborne.frames import Clearing, DueCards, Effect, Frame, OpenStep, OpenTest
from tablekeeper.games.earthborne.record import Cleared, rec

T = TypeVar("T")

# ER-CLEAR-2: the clearing steps that hold effects, in the core's window order
WINDOWS = tuple(w.name.lower() for w in sorted(Window))



def frame_kind(frame: Frame) -> str:
    return str(type(frame).__struct_config__.tag)


def frames(state: GameState) -> tuple[Frame, ...]:
    return rec(state).work


def _replace_top(txn: Txn, frame: Frame) -> None:
    txn.put("work", (*frames(txn.state)[:-1], frame))


def push(txn: Txn, frame: Frame) -> None:
    txn.put("work", (*frames(txn.state), frame))


def _pop(txn: Txn) -> Frame:
    work = frames(txn.state)
    txn.put("work", work[:-1])
    return work[-1]


def _open_item(state: GameState) -> tuple[str, str] | None:
    """What is open in the innermost frame, as (what the players read, the id ``resolve`` names):
    a step, a clear's current effect, or a test's current challenge effect."""
    work = frames(state)
    if not work:
        return None
    top = work[-1]
    if isinstance(top, OpenStep):
        return top.label, top.label
    if isinstance(top, Clearing) and top.current is not None:
        return top.current.text, top.current.id
    if isinstance(top, OpenTest) and top.current:
        return f"{top.current}: {top.icon} challenge effect", f"{top.current}.{top.icon}"
    return None


def awaiting(state: GameState) -> str | None:
    """What the players are resolving right now (token changes wait for it), or None."""
    item = _open_item(state)
    return None if item is None else item[0]


def busy(state: GameState) -> str | None:
    """Why the round cannot move on yet (an open step, a clear, a test), or None."""
    work = frames(state)
    if not work:
        return None
    top = work[-1]
    if isinstance(top, OpenTest) and top.stage == "draw":
        return f"seat {top.seat}'s test waits for its challenge card (draw challenge)"
    what = awaiting(state)
    if what:
        return f"resolve first: {what}"
    return "finish the clear in progress first"


def clearing_keys(state: GameState) -> set[str]:
    keys: set[str] = set()
    for frame in frames(state):
        if isinstance(frame, Clearing):
            keys.add(frame.card)
        elif isinstance(frame, DueCards):
            keys.update(frame.cards)
    return keys


def end_of_command(txn: Txn) -> None:
    """A command outside any open step was one rules step: check for clears, then carry on.

    An open prompt belongs to the step in progress, so nothing is checked until it is answered."""
    if txn.state.prompt is None and awaiting(txn.state) is None:
        boundary(txn)
    run(txn)


def boundary(txn: Txn) -> None:
    """ER-CLEAR-6, ER-CLEAR-8: a rules step finished; every card that reached a threshold is due."""
    state = txn.state
    if tables.rule(state).nested_clears == "queue" and any(isinstance(f, Clearing) for f in frames(state)):
        return  # ambiguity 3, "queue" reading: wait until the clear in progress is complete
    busy_keys = clearing_keys(state)
    due = [k for k in tables.cards(state) if k not in busy_keys and tables.reached(state, k)]
    if due:
        push(txn, DueCards(tuple(due)))


def run(txn: Txn) -> None:
    """Carry the work forward until the players must act (a prompt, an effect to resolve, a draw)."""
    for _ in range(500):
        state = txn.state
        if state.prompt is not None:
            return
        work = frames(state)
        if not work:
            return
        top = work[-1]
        if isinstance(top, OpenStep):
            return
        if isinstance(top, DueCards):
            if not _run_due(txn, top):
                return
        elif isinstance(top, Clearing):
            if not _run_clear(txn, top):
                return
        elif not _run_test(txn, top):
            return
    raise Rejected("clearing went round in circles; nothing was changed")


# --- due cards ------------------------------------------------------------------------------------

def _run_due(txn: Txn, frame: DueCards) -> bool:
    waiting = [k for k in frame.cards if k in tables.cards(txn.state)]
    if not waiting:
        _pop(txn)
        return True
    if len(waiting) == 1:
        _pop(txn)
        _start_clear(txn, waiting[0])
        return True
    names = [f"{k} {tables.card(txn.state, k).name}" for k in waiting]
    txn.ask("clear.order", "Several cards clear: which first?", names, context={"cards": waiting})
    return False


def choose_clear_order(txn: Txn, index: int) -> None:
    """Ambiguity 2: the players pick which due card clears next."""
    prompt = txn.open_prompt()
    chosen = str(prompt.context["cards"][index])
    txn.close_prompt()
    top = frames(txn.state)[-1]
    _replace_top(txn, replace(top, cards=tuple(k for k in top.cards if k != chosen))
                 if isinstance(top, DueCards) else top)
    _start_clear(txn, chosen)
    run(txn)


# --- one card's clear -------------------------------------------------------------------------------

def _credit(state: GameState) -> int | None:
    """ER-CLEAR-11 (ambiguity 5): a clear during a Ranger's turn is that Ranger's; otherwise nobody's."""
    if state.phase == "turns" and state.active_seat is not None:
        return state.active_seat
    return None


def _start_clear(txn: Txn, key: str) -> None:
    kinds = tables.reached(txn.state, key)
    if not kinds:
        txn.notice(f"{key} no longer meets a threshold; it does not clear")
        return
    name = tables.card(txn.state, key).name
    push(txn, Clearing(card=key, name=name, kinds=tuple(kinds), ranger=_credit(txn.state)))


def _run_clear(txn: Txn, frame: Clearing) -> bool:
    if frame.current is not None:
        return False
    stage = frame.stage
    if stage == "kind":
        if len(frame.kinds) > 1:
            # ER-CLEAR-9: several kinds reached; the players choose, and the choice is kept
            txn.ask("clear.kind", f"Clear {frame.name} by {' or by '.join(frame.kinds)}?", list(frame.kinds),
                    context={"card": frame.card})
            return False
        frame = replace(frame, by=frame.kinds[0], stage="before")
        txn.notice(f"{frame.name} ({frame.card}) clears by {_kind_text(frame.kinds[0])}")
        _replace_top(txn, frame)
        return True
    if stage == "check":
        _recheck(txn, frame)
        return True
    if stage == "done":
        _finish_clear(txn, frame)
        return True
    if frame.items is None:
        frame = replace(frame, items=tuple(_window_items(txn.state, frame, stage)))
    items = frame.items or ()
    if not items:
        _next_stage(txn, frame)
        return True
    if len(items) == 1:
        _replace_top(txn, replace(frame, current=items[0], items=()))
        return False
    # ER-CLEAR-5: several effects share this step's timing; the players choose the order
    txn.ask("effect.order", f"{stage.capitalize()} {frame.name} clears: resolve which first?",
            [i.text for i in items])
    _replace_top(txn, frame)
    return False


def _kind_text(kind: str) -> str:
    return "every Ranger's token" if kind == "rangers" else kind


def _window_items(state: GameState, frame: Clearing, window: str) -> list[Effect]:
    """ER-CLEAR-2, ER-CLEAR-3, ER-CLEAR-11: the effects of one clearing step."""
    key = frame.card
    record = tables.cards(state).get(key)
    items: list[Effect] = []
    if window == "when" and record is not None and (record.clear or record.entry is not None):
        parts = []
        if record.clear:
            parts.append(f"Clear: {record.clear}")
        if record.entry is not None:
            parts.append(f"read campaign guide entry {record.entry}")
        items.append(Effect(f"{key}.clear", f"{frame.name}: " + "; ".join(parts)))
    for response in rec(state).responses:
        if response.window != window:
            continue
        if response.card not in (None, key):
            continue
        if response.type not in (None, None if record is None else record.type):
            continue
        if response.kind not in (None, frame.by):
            continue
        if response.you and response.seat != frame.ranger:
            continue
        owner = f"seat {response.seat}: " if response.seat else ""
        items.append(Effect(response.label, f"{owner}{response.label} ({window} {frame.name} clears)",
                            response.once))
    return items


def choose_effect_order(txn: Txn, index: int) -> None:
    """ER-CLEAR-5 / ER-CHAL-1: the effect the players resolve next among those sharing a timing."""
    txn.close_prompt()
    top = frames(txn.state)[-1]
    if isinstance(top, Clearing) and top.items:
        top = replace(top, current=top.items[index], items=_without(top.items, index))
    elif isinstance(top, OpenTest):
        first = top.groups[0]
        top = replace(top, current=first[index], groups=(_without(first, index), *top.groups[1:]))
    _replace_top(txn, top)


def _without(items: tuple[T, ...], index: int) -> tuple[T, ...]:
    return (*items[:index], *items[index + 1:])


def _next_stage(txn: Txn, frame: Clearing) -> None:
    order = {"before": "when", "when": "check", "after": "done"}
    frame = replace(frame, stage=order[frame.stage], items=None)
    _replace_top(txn, frame)
    if frame.stage in ("when", "check"):
        boundary(txn)  # ambiguity 3, literal reading: a clear caused in this step runs before the next one


def _recheck(txn: Txn, frame: Clearing) -> None:
    """ER-CLEAR-4 (ambiguity 4): step 3 discards the card only if it still meets a threshold."""
    key = frame.card
    tables.log(txn, f"discard-check({key})")
    in_play = key in tables.cards(txn.state)
    still = tables.reached(txn.state, key) if in_play else ()
    discard = in_play and rules.discard_on_recheck(still, frame.by or "", tables.rule(txn.state).recheck)
    if discard:
        remove_card(txn, key)
        tables.log(txn, f"{key} discarded")
        txn.notice(f"{frame.name} is discarded")
    elif in_play:
        progress, harm = tables.tokens(txn.state, key)
        txn.notice(f"{frame.name} no longer has enough tokens: it stays in play ({progress} progress, {harm} harm)")
    keep_after = discard or tables.rule(txn.state).after_when_kept
    _replace_top(txn, replace(frame, discarded=discard, stage="after" if keep_after else "done", items=None))


def _finish_clear(txn: Txn, frame: Clearing) -> None:
    _pop(txn)
    txn.put("clears", [*rec(txn.state).clears, Cleared(frame.card, frame.name, frame.by, frame.ranger,
                                                         frame.discarded)])
    boundary(txn)


def choose_kind(txn: Txn, index: int) -> None:
    """ER-CLEAR-9: record which kind (progress, harm, or every Ranger's token) clears the card."""
    txn.close_prompt()
    top = frames(txn.state)[-1]
    if not isinstance(top, Clearing):
        raise Rejected("no clear is waiting for its kind")
    _replace_top(txn, replace(top, by=top.kinds[index], stage="before"))
    txn.notice(f"{top.name} ({top.card}) clears by {_kind_text(top.kinds[index])}")
    run(txn)


def remove_card(txn: Txn, key: str) -> None:
    """A card leaves play: its tokens go, a path card goes to the path discard."""
    record = tables.card(txn.state, key)
    tables.put_card(txn, key, None)
    txn.drop(f"{key}.progress")
    txn.drop(f"{key}.harm")
    if record.from_path and isinstance(txn.state.sources.get("path"), Deck):
        txn.emit("path.discarded", card=record.name)


# --- resolve --------------------------------------------------------------------------------------

def current_label(state: GameState) -> str | None:
    """The id of what ``resolve`` would finish: an effect, a card's challenge effect, or a step."""
    item = _open_item(state)
    return None if item is None else item[1]


def resolve(txn: Txn) -> None:
    """The players finished what the device is waiting on: an open step or one effect."""
    work = frames(txn.state)
    if not work:
        raise Rejected("nothing is waiting to be resolved")
    if txn.state.prompt is not None:
        raise Rejected(flowmod.answer_first(txn.state))
    top = work[-1]
    if isinstance(top, OpenStep):
        _pop(txn)
        tables.log(txn, f"end of step: {top.label}")
        boundary(txn)
    elif isinstance(top, Clearing) and top.current is not None:
        item = top.current
        _replace_top(txn, replace(top, current=None))
        tables.log(txn, item.id)
        if item.once:
            drop_response(txn, item.id)
    elif isinstance(top, OpenTest) and top.current:
        key = top.current
        _replace_top(txn, replace(top, current=None, resolved=(*top.resolved, key)))
        tables.log(txn, f"{key}.{top.icon}")
        boundary(txn)  # ER-CLEAR-6: each challenge effect is one rules step
    else:
        raise Rejected(busy(txn.state) or "nothing is waiting to be resolved")
    run(txn)


def drop_response(txn: Txn, label: str) -> None:
    txn.put("responses", [r for r in rec(txn.state).responses if r.label != label])


# --- tests ----------------------------------------------------------------------------------------

def test_drawn(txn: Txn, frame: OpenTest, card_id: str) -> None:
    """ER-TEST-1: apply the challenge modifier, decide the result, open the success/failure step."""
    challenge = tables.cfg(txn.state).challenge[card_id]
    modifier = challenge.modifiers[frame.aspect]
    floor = tables.rule(txn.state).effort_floor
    frame = replace(frame, total=rules.test_total(frame.effort, modifier, floor),
                    success=rules.test_succeeds(frame.effort, modifier, frame.difficulty, floor),
                    stage="effects", card=card_id, icon=challenge.icon, modifier=modifier,
                    reshuffle=challenge.reshuffle)
    _replace_top(txn, frame)
    result = "success" if frame.success else "failure"
    tables.log(txn, f"test {result}")
    txn.notice(f"{card_id}: {frame.aspect.upper()} {modifier:+d} -> effort {frame.total} vs {frame.difficulty}: "
               f"{result}; resolve its {result} effects, then resolve")
    push(txn, OpenStep(f"{result} effects"))


def _run_test(txn: Txn, frame: OpenTest) -> bool:
    if frame.stage == "draw" or frame.current:
        return False
    state = txn.state
    if frame.stage == "effects":
        target = tables.cards(state).get(frame.target) if frame.target else None
        loc = tables.location(state)
        groups = rules.challenge_groups(frame.icon, tables.cards(state), loc, frame.seat, target)
        _replace_top(txn, replace(frame, groups=tuple(tuple(g) for g in groups), stage="challenge"))
        return True
    # stage "challenge": ER-CHAL-1, the next active card in area order, skipping cleared/exhausted ones
    live = tuple(kept for group in frame.groups
                 if (kept := tuple(k for k in group if k not in frame.resolved and _active(state, k))))
    frame = replace(frame, groups=live)
    if not live:
        _finish_test(txn, frame)
        return True
    first = live[0]
    if len(first) == 1:
        _replace_top(txn, replace(frame, current=first[0], groups=((), *live[1:])))
        return False
    _replace_top(txn, frame)
    names = [f"{k} {_name(state, k)}" for k in first]
    txn.ask("effect.order", f"{frame.icon.capitalize()} effects in one area: which first?", names)
    return False


def _active(state: GameState, key: str) -> bool:
    if key == "location":
        return tables.location(state) is not None
    record = tables.cards(state).get(key)
    return record is not None and record.ready


def _name(state: GameState, key: str) -> str:
    if key == "location":
        loc = tables.location(state)
        return "" if loc is None else loc.name
    return tables.card(state, key).name


def _finish_test(txn: Txn, frame: OpenTest) -> None:
    """ER-CHAL-3: after the test, a reshuffle card shuffles the challenge discard back in."""
    _pop(txn)
    if frame.reshuffle:
        txn.source_op("challenge", "refresh")
        txn.notice("reshuffle: the challenge discard is shuffled back into the deck")
    tables.log(txn, "test ends")


def current_test(state: GameState) -> OpenTest | None:
    for frame in reversed(frames(state)):
        if isinstance(frame, OpenTest):
            return frame
    return None


def challenge_step_open(state: GameState) -> bool:
    """Whether a challenge effect is being resolved (ER-CHAL-2: its tokens are nobody's placement)."""
    work = frames(state)
    return bool(work) and isinstance(work[-1], OpenTest) and bool(work[-1].current)
