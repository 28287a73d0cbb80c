"""The campaign tracker beyond the day track (outside the seeds): the missions written on it, each
with the day it was taken and its three progress boxes, the rewards unlocked and the campaign log's
notes. These are campaign bookkeeping: taken on any day, after a day has ended, and after the
campaign's last day."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne.parsing import split_args
from tablekeeper.games.earthborne.record import Mission, Note, rec

BOXES = 3  # the printed progress boxes of a mission line


def _find(state: GameState, name: str) -> int | None:
    folded = name.casefold()
    return next((i for i, m in enumerate(rec(state).missions) if m.name.casefold() == folded), None)


def mission_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``mission NAME`` writes a mission on the tracker (today's day, ``day=N`` another);
    ``mission NAME mark`` checks its next progress box; ``mission NAME done`` crosses it off."""
    words, options = split_args(args)
    action = words[-1].lower() if len(words) > 1 and words[-1].lower() in ("mark", "done") else "add"
    name = " ".join(words[:-1] if action != "add" else words)
    if not name or set(options) - {"day"}:
        raise Rejected("usage: mission NAME [day=N] | mission NAME mark | mission NAME done")
    found, rows = _find(txn.state, name), list(rec(txn.state).missions)
    if action == "add":
        if found is not None:
            raise Rejected(f"the mission {rows[found].name!r} is on the tracker already (mission NAME mark|done)")
        day = txn.state.value("day")
        if "day" in options:
            if not is_number(options["day"], signed=False) or not 1 <= int(options["day"]) <= day:
                raise Rejected(f"mission {name}: day= is a day up to today ({day}), not {options['day']!r}")
            day = int(options["day"])
        rows.append(Mission(name, day))
        txn.notice(f"Mission on the tracker: {name} (day {day})")
    elif found is None:
        known = ", ".join(m.name for m in rows) or "none yet"
        raise Rejected(f"no mission {name!r} on the tracker (missions: {known})")
    elif rows[found].done:
        raise Rejected(f"the mission {rows[found].name!r} is done already")
    elif action == "mark":
        if rows[found].marks >= BOXES:
            raise Rejected(f"the mission {rows[found].name!r} has all {BOXES} progress boxes checked")
        rows[found] = replace(rows[found], marks=rows[found].marks + 1)
        txn.notice(f"Mission {rows[found].name}: progress {rows[found].marks}/{BOXES}")
    else:
        rows[found] = replace(rows[found], done=True)
        txn.notice(f"Mission {rows[found].name} done")
    txn.put("missions", rows)


def reward_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``reward NAME``: a reward card unlocked, written in the tracker's rewards list."""
    name = " ".join(args).strip()
    if not name:
        raise Rejected("usage: reward NAME")
    rewards = rec(txn.state).rewards
    if name.casefold() in (r.casefold() for r in rewards):
        raise Rejected(f"the reward {name!r} is unlocked already")
    txn.put("rewards", [*rewards, name])
    txn.notice(f"Reward unlocked: {name}")


def note_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``note TEXT``: a line in the campaign log (the guide's notable events), with its day."""
    text = " ".join(args).strip()
    if not text:
        raise Rejected("usage: note TEXT")
    txn.put("notes", [*rec(txn.state).notes, Note(txn.state.value("day"), text)])
    txn.notice(f"Campaign log, day {txn.state.value('day')}: {text}")


def mission_lines(state: GameState) -> list[str]:
    """The tracker's open missions, one line each: name, day, boxes checked."""
    return [f"Mission {m.name} (day {m.day}): {m.marks}/{BOXES}" for m in rec(state).missions if not m.done]


VERBS = {
    "mission": ("mission NAME [day=N] | mission NAME mark | mission NAME done",
                "the campaign tracker's missions: write one, check a progress box, cross it off", mission_verb),
    "reward": ("reward NAME", "a reward unlocked (the campaign tracker's rewards list)", reward_verb),
    "note": ("note TEXT", "a line in the campaign log", note_verb),
}
