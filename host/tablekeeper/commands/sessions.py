"""What ``play`` and ``run`` share to start a session: the ``--option`` and ``--slot`` arguments, and a
new session made from them. Kept apart from ``play`` so ``run`` can draw a new game's first frame
before the save (SQLite) and the script runner load."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.errors import ScriptError


def check_slot(slot: str) -> str:
    """A slot is a short printable name (it appears in messages and on the station's menu)."""
    if not slot.strip() or len(slot) > 64 or not slot.isprintable():
        raise ScriptError(f"--slot {slot!r}: not a slot name (1 to 64 printable characters)")
    return slot


def parse_options(items: Iterable[str]) -> dict[str, str]:
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ScriptError(f"--option {item!r}: expected KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def with_packs(options: dict[str, str], packs: Iterable[str]) -> dict[str, str]:
    """``--pack`` adds to the option ``packs`` (names or folders, comma-separated)."""
    chosen = [p for p in (options.get("packs", ""), *packs) if p]
    for ref in packs:
        if "," in ref:
            raise ScriptError(f"--pack {ref}: a pack's name or folder cannot hold a comma (rename the folder)")
    if chosen:
        options["packs"] = ",".join(chosen)
    return options


def session_options(args: argparse.Namespace) -> dict[str, str]:
    """The game options the arguments ask for: the flow mode (``--walk``), every ``--option`` and ``--pack``."""
    return with_packs({"flow": "walk" if getattr(args, "walk", False) else "auto", **parse_options(args.option)},
                      getattr(args, "pack", []))


def new_session(game: Game, args: argparse.Namespace) -> Session:
    """A fresh session of ``game`` from ``--seats``, ``--seed`` and the options, not saved yet."""
    seats = args.seats if args.seats is not None else game.seats_default
    return Session(game, seats=seats, seed=args.seed, options=session_options(args))
