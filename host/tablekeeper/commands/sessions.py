"""What ``play`` and ``run`` share to start a session: the ``--option`` and ``--slot`` arguments, a new
session made from them, and one resumed from a save. Kept apart from ``play`` so ``run`` draws its
first frame without the script runner, and a new game's before the save (SQLite) loads."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from tablekeeper.core.game import Game
from tablekeeper.core.session import MAX_SEED, Session
from tablekeeper.errors import ConfigError, Rejected, ScriptError, StoreError

if TYPE_CHECKING:  # SQLite loads when a save is opened: a new game's first frame goes out before it
    from tablekeeper.core.store import Store


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


def open_session(game: Game, args: argparse.Namespace) -> tuple[Session, Store | None]:
    """The session ``--save`` holds in ``--slot``, resumed (or a new one, made and kept there), and its
    store; without ``--save`` a new one, kept nowhere."""
    options = session_options(args)
    seats = args.seats if args.seats is not None else game.seats_default
    if args.save is None:
        if args.campaign:
            raise ScriptError("--campaign needs --save PATH (the campaign lives in the save file)")
        return new_session(game, args), None
    check_slot(args.slot)
    if not -MAX_SEED - 1 <= args.seed <= MAX_SEED:
        raise ScriptError(f"--seed {args.seed}: too large to keep in a save (at most {MAX_SEED})")
    from tablekeeper.core.store import Store

    store = Store.open(args.save)
    if args.campaign:
        import json

        record = store.campaign(args.campaign)
        if record is not None:
            options["campaign"] = json.dumps(record)
    saved = store.load(args.slot)
    if saved is None:
        session = Session(game, seats=seats, seed=args.seed, options=options)
        if args.campaign:
            begin_campaign(store, session, args.campaign, args.slot)
        store.create(args.slot, session.setup)
        session.journal = store.journal(args.slot)
        return session, store
    if saved.setup.game != game.name:
        store.close()
        raise ScriptError(f"{args.save}: slot {args.slot!r} holds a {saved.setup.game} session, not {game.name}")
    if args.seats is not None and args.seats != saved.setup.seats:
        store.close()
        raise ScriptError(f"{args.save}: slot {args.slot!r} holds a {saved.setup.seats}-seat session; "
                          f"--seats {args.seats} cannot change it (leave --seats out, or use another --slot)")
    try:
        session = Session(game, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                          journal=store.journal(args.slot), entries=saved.entries, snapshots=saved.snapshots,
                          from_save=f"{args.save}: slot {args.slot!r}")
    except ConfigError:
        store.close()
        raise
    except (Rejected, KeyError, IndexError, ValueError) as exc:
        store.close()
        raise ScriptError(f"{args.save}: slot {args.slot!r} cannot be replayed ({exc})") from None
    if args.campaign:
        begin_campaign(store, session, args.campaign, args.slot)
    return session, store


def resume_unsaved(game: Game, args: argparse.Namespace) -> Session:
    """The session a read-only save holds (verified whole, read without writing), or a new one, with no
    journal: the station plays it unsaved and says so."""
    options = session_options(args)
    seats = args.seats if args.seats is not None else game.seats_default
    from tablekeeper.core.store import inspect, refusal

    found = inspect(args.save) if Path(args.save).exists() else None
    if found is not None and not found.ok:
        raise StoreError(refusal(found.path, found.first_problem()))
    slot = found.slot(args.slot) if found is not None else None
    if slot is None or slot.setup is None:
        return Session(game, seats=seats, seed=args.seed, options=options)
    if slot.setup.game != game.name:
        raise ScriptError(f"{args.save}: slot {args.slot!r} holds a {slot.setup.game} session, not {game.name}")
    try:
        return Session(game, seats=slot.setup.seats, seed=slot.setup.seed, options=slot.setup.options,
                       entries=slot.entries, from_save=f"{args.save}: slot {args.slot!r}")
    except ConfigError:
        raise
    except (Rejected, KeyError, IndexError, ValueError) as exc:
        raise ScriptError(f"{args.save}: slot {args.slot!r} cannot be replayed ({exc})") from None


def begin_campaign(store: Store, session: Session, name: str, slot: str) -> None:
    """Let the stored campaign log know a scenario of it is being played in ``slot`` (it refuses
    between-scenario changes until the scenario's result is logged); a refusal is one line."""
    record = store.campaign(name)
    if record is None:
        return
    try:
        begun = session.game.campaign_begun(session.state, record, slot, [*store.slots(), slot])
    except Rejected as exc:
        store.close()
        raise ScriptError(f"{store.path}: campaign {name!r}: {exc.reason}") from None
    if begun is not None:
        store.save_campaign(name, session.game.name, begun)
