"""Verbs of skill tests and the chaos bag (ST.1-ST.8, AH-CHAOS)."""

from __future__ import annotations

import msgspec

from tablekeeper.core.game import Txn, parse_int, parse_seat
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import rules, skilltest
from tablekeeper.games.arkham.parsing import (
    count,
    live_seat,
    usage,
)
from tablekeeper.games.arkham.record import rec

MAX_TOKEN_CHANGE = 20  # far beyond any card's "add N tokens"; a typo like 1000000000 is refused
MAX_TOKENS_OF_A_KIND = 40


def begin_test(txn: Txn, args: tuple[str, ...]) -> None:
    """ST.1: `test SEAT SKILL VALUE DIFFICULTY [auto-success]` or `test SEAT "Willpower (4)" VALUE`."""
    if len(args) < 3:
        raise Rejected('usage: test SEAT SKILL VALUE DIFFICULTY [auto-success] | test SEAT "Skill (N)" VALUE')
    seat = live_seat(txn.state, args[0])
    extra = [a for a in args[1:] if a.lower() in ("auto-success", "autosuccess")]
    rest = [a for a in args[1:] if a not in extra]
    if len(rest) >= 2 and rest[1].startswith("(") and "(" not in rest[0]:  # Willpower (4) unquoted: one name
        rest = [f"{rest[0]} {rest[1]}", *rest[2:]]
    if not rest:
        raise Rejected("usage: test SEAT SKILL VALUE DIFFICULTY [auto-success]")
    if "(" in rest[0]:
        skill, difficulty = rules.parse_test_spec(rest[0])
        if len(rest) != 2:
            raise Rejected('usage: test SEAT "Skill (N)" VALUE')
        base = count(rest[1], "skill value")
    else:
        if len(rest) != 3:
            raise Rejected("usage: test SEAT SKILL VALUE DIFFICULTY")
        skill, base, difficulty = rest[0].lower(), count(rest[1], "skill value"), count(rest[2], "difficulty")
    skilltest.begin(txn, seat, skill, base, difficulty, autosuccess=bool(extra))


def commit(txn: Txn, args: tuple[str, ...]) -> None:
    usage(args, 2, 2, "commit SEAT ICONS")
    skilltest.commit(txn, live_seat(txn.state, args[0]), count(args[1], "icons", 1))


def resolve(txn: Txn, args: tuple[str, ...]) -> None:
    usage(args, 0, 0, "resolve")
    skilltest.resolve(txn)


def token(txn: Txn, args: tuple[str, ...]) -> None:
    """Change the bag mid-game: add/remove tokens, seal one (out of the bag until released)."""
    usage(args, 2, 3, "token add|remove|seal|release NAME [N]")
    op, name = args[0], args[1]
    known = rec(txn.state).tokens
    if name not in known:
        raise Rejected(f"unknown chaos token {name!r} (known: {', '.join(sorted(known))})")
    n = count(args[2], "count", 1) if len(args) > 2 else 1
    if n > MAX_TOKEN_CHANGE:
        raise Rejected(f"token {op} {name}: at most {MAX_TOKEN_CHANGE} tokens at a time, not {n}")
    if op == "add":
        have = skilltest.chaos_bag(txn.state).contents.as_dict().get(name, 0)
        if have + n > MAX_TOKENS_OF_A_KIND:
            raise Rejected(f"token add {name}: the bag would hold {have + n}; at most {MAX_TOKENS_OF_A_KIND} of a kind")
    ops = {"add": "put", "remove": "take", "seal": "seal", "release": "release"}
    if op not in ops:
        raise Rejected(f"token {op}: expected add, remove, seal or release")
    if op in ("add", "remove"):
        txn.source_op("chaos", ops[op], name, n)
    else:
        for _ in range(n):
            txn.source_op("chaos", ops[op], name, 1)


def token_value(txn: Txn, args: tuple[str, ...]) -> None:
    """Edit what a symbol token is worth (the scenario reference card, AH-CHAOS-2)."""
    usage(args, 2, 3, "token-value NAME VALUE [again]")
    tokens = dict(rec(txn.state).tokens)
    name = args[0]
    if name not in tokens:
        raise Rejected(f"unknown chaos token {name!r}")
    if len(args) > 2 and args[2] != "again":
        raise Rejected("token-value NAME VALUE [again]")
    tokens[name] = msgspec.structs.replace(tokens[name], value=parse_int(args[1], "value"), again=len(args) > 2)
    txn.put("tokens", tokens)
    pinned = rec(txn.state).pinned
    if name in rec(txn.state).scenario.reference and name not in pinned:
        txn.put("pinned", (*pinned, name))  # the table's value now stands instead of the card's board reading


def elder(txn: Txn, args: tuple[str, ...]) -> None:
    """The testing investigator's Elder Sign modifier (AH-CHAOS-4), as it stands now."""
    usage(args, 2, 2, "elder SEAT N")
    seat = parse_seat(txn.state, args[0])
    table = rec(txn.state).seats
    changed = msgspec.structs.replace(table[str(seat)], elder_sign=parse_int(args[1], "elder sign value"),
                                      elder_sign_per="")  # fixed from now on
    txn.put("seats", {**table, str(seat): changed})
