"""The end of an encounter: defeat with replay or moving on, and the Tally (OS-END, OS-TALLY, OS-HC)."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core import timing
from tablekeeper.core.flow import move
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.args import Args, GameVerb, verb
from tablekeeper.games.oathsworn.decks import flip_stage, reset_all_might
from tablekeeper.games.oathsworn.encounter import refresh, stage_card
from tablekeeper.games.oathsworn.record import NO_POSITIONS, Tally, rec
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_KINDS,
    difficulty,
    encounter_of,
    put_seat,
    seat,
    update_defense,
)


def choose_defeat(txn: Txn, index: int) -> None:
    """OS-END-3/4/6: replay (score fixed at 4 + modifier, fresh setup) or move on (tokens discarded)."""
    txn.close_prompt()
    if index == 1:
        for n in SEATS:
            put_seat(txn, n, replace(seat(txn.state, n), tokens=dict.fromkeys(TOKEN_KINDS, 0)))
        txn.notice("moving on: combat tokens discarded; next: tally")
        return
    replay(txn)


def replay(txn: Txn) -> None:
    state = txn.state
    company = rec(state)
    diff = difficulty(state)
    if company.knockouts_fixed is None:
        score = rules.replay_score(diff)
        txn.put("knockouts_fixed", score)
        txn.add("knockouts", score)
    txn.put("attempt", company.attempt + 1)
    txn.put("dead_allies", [])  # OS-KO-5: killed allies return to the ally deck
    dead = set(company.hardcore_dead)
    txn.put("hardcore_dead", [])  # OS-HC-4: replaying prevents the deaths of that attempt
    for n in SEATS:
        record = seat(txn.state, n)
        tokens = {**dict.fromkeys(TOKEN_KINDS, 0), **record.permanent}
        record = replace(record, down=False, dead=False, ko=False, ally=None, tokens=tokens,
                         positions=NO_POSITIONS, crippled_until=None, caged_until=None, bleed=0, thrown=(),
                         last_round=0, cubes=())
        put_seat(txn, n, record)
        txn.set(seat_track(n, "hp"), diff.max_hp)
        txn.set(seat_track(n, "animus"), 0)
        update_defense(txn, n)
    for name, _ in encounter_of(state).boss:
        txn.set(f"boss.{name}", 6)
    txn.emit("stage.reset", source="stage")
    timing.take_deferred(txn)  # reactions of the lost attempt never resolve
    reset_all_might(txn)
    txn.put("breaks", 0)
    txn.put("broken", [])
    txn.put("stage_now", 1)
    txn.put("stage_kept", [])
    txn.put("attacks_due", [])
    txn.put("part", "encounter")
    txn.put("result", None)
    txn.notice(f"replay: {sorted(dead) or 'nobody'} spared; each Oathsworn takes any 3 combat tokens (token SEAT KIND)")
    flip_stage(txn)
    first = "refresh" if not company.ambushed else "encounter"
    move(txn, round_no=1, phase=first, step="refresh" if first == "refresh" else "stage", seat=None)
    if first == "refresh":
        refresh(txn)
    else:
        stage_card(txn)


def what_is_left(state: GameState) -> str:
    """After the encounter: the tally, then the item losses it listed, named seat by seat (a
    ``next`` told to tally again after the tally would send the group in a circle)."""
    company = rec(state)
    if company.tally is None:
        return "the encounter is over: tally"
    due = ", ".join(f"seat {n} ({k})" for n, k in (company.losses_due or {}).items())
    return f"the tally is done; tick off the lost items (lose SEAT ITEM): {due}"


def tally(txn: Txn, a: Args) -> None:
    """``tally [scavenger] [uniques=N]``: Tally Level, Loot and Losses, in order (OS-TALLY-1..10);
    ``uniques`` is how many cards the unique deck still holds."""
    state = txn.state
    company = rec(state)
    if company.part != "epilogue" or state.prompt is not None:
        raise Rejected("the tally comes after the encounter has ended")
    if company.tally is not None:
        raise Rejected("the tally is done; tick off the lost items (lose SEAT ITEM)")
    diff = difficulty(state)
    scavenger = "scavenger" in company.traits or a.flag("scavenger")
    commons, uniques = rules.loot_counts(diff, scavenger, company.extra_unique)
    unique_deck = a.num("uniques", uniques)
    got_unique, fallback = rules.uniques_drawn(uniques, unique_deck)
    downs = [n for n in SEATS if seat(state, n).ko]
    ticks = 0
    if company.knockouts_fixed is None:
        ticks = rules.ko_ticks(len(downs), diff)
        txn.add("knockouts", ticks)
    hardcore = company.hardcore
    injuries = [n for n in SEATS if rules.injury_due(txn.value(seat_track(n, "hp")), seat(state, n).ko, hardcore)]
    losses = {str(n): rules.items_lost(seat(state, n).ko) for n in SEATS}
    archived_items: dict[str, tuple[str, ...]] = {}
    for n in SEATS:
        record = seat(txn.state, n)
        if record.dead:
            archived_items[str(n)] = record.items  # OS-HC-3: items go, iron stays
            record = replace(record, items=())
        record = replace(record, level=record.level + 1, injuries=record.injuries + (n in injuries),
                         tokens=dict.fromkeys(TOKEN_KINDS, 0))  # OS-TOK-1: unused tokens discarded
        put_seat(txn, n, record)
    next_chapter = f"chapter {company.chapter + 1}"
    result = Tally(commons=commons, uniques=got_unique, common_fallback=fallback, ko_ticks=ticks,
                   injuries=tuple(injuries), items_lost=losses, allies_archived=company.dead_allies,
                   common_deck=next_chapter, unique_deck=next_chapter, archived_items=archived_items)
    txn.put("tally", result)
    txn.notice(f"level up; loot {commons} common + {got_unique} unique (+{fallback} common); "
               f"{ticks} knockout tick(s); injuries for seats {injuries or 'none'}")
    # OS-TALLY-9 / OS-KO-2: the losses are a list the table ticks off, one item at a time
    owed = {str(n): k for n in SEATS if (k := losses[str(n)]) and not seat(txn.state, n).dead
            and seat(txn.state, n).items}
    if owed:
        txn.put("losses_due", owed)
        txn.notice("tick off the lost items: " + ", ".join(f"seat {n} loses {k}" for n, k in owed.items()))
    else:
        _end(txn)


def _end(txn: Txn) -> None:
    """The chapter's encounter is over, won or lost (OS-TALLY-9: once every loss is ticked off)."""
    result = str(rec(txn.state).result)
    txn.end(result, result=Result(result))


def lose(txn: Txn, a: Args) -> None:
    """``lose SEAT ITEM``: tick one item off the tally's losses (OS-TALLY-9: one used item, two if
    knocked out); the chapter ends when every loss is ticked off."""
    owed = dict(rec(txn.state).losses_due or {})
    n = a.num("SEAT")
    if not owed.get(str(n)):
        due = ", ".join(f"seat {k} ({v})" for k, v in owed.items()) or "nobody"
        raise Rejected(f"seat {n} has no item loss to tick off (still due: {due})")
    item = a.word("ITEM")
    record = seat(txn.state, n)
    if item not in record.items:
        raise Rejected(f"seat {n} holds no {item} ({', '.join(record.items)})")
    items = list(record.items)
    items.remove(item)
    put_seat(txn, n, replace(record, items=tuple(items)))
    owed[str(n)] -= 1
    if not owed[str(n)] or not items:
        del owed[str(n)]
    txn.put("losses_due", owed or None)
    if not owed:
        _end(txn)


VERBS: dict[str, GameVerb] = {v.usage.split()[0]: v for v in (
    verb("tally [scavenger] [uniques=N]", "Tally Level, Loot and Losses", tally),
    verb("lose SEAT ITEM", "tick off an item the tally says is lost", lose),
)}
