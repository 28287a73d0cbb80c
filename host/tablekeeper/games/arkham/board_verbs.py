"""Verbs of the board: locations, enemies and assets as far as the tracker follows them."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn, parse_int
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import assets, board, mythos, records
from tablekeeper.games.arkham.data import EncounterEnemy
from tablekeeper.games.arkham.parsing import (
    count,
    keywords,
    live_seat,
    usage,
)


def location_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """A location in play: shroud and clue value (per investigator with `per`), unrevealed."""
    plain, named = keywords(args)
    text = "location NAME SHROUD CLUES [per] [to=A,B,...]"
    usage(tuple(plain), 3, 4, text)
    if (len(plain) == 4 and plain[3] != "per") or set(named) - {"to"}:
        raise Rejected(f"usage: {text}")
    connections = [c for c in named.get("to", "").split(",") if c]
    board.add_location(txn, plain[0], count(plain[1], "shroud"), count(plain[2], "clue value"), len(plain) == 4,
                       connections)


def enter(txn: Txn, args: tuple[str, ...]) -> None:
    """Place or move an investigator without an action (setup, card effects)."""
    usage(args, 2, 2, "enter SEAT LOCATION")
    board.enter(txn, live_seat(txn.state, args[0]), args[1])


def enemy_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """An enemy drawn by SEAT: `enemy SEAT NAME fight=3 health=3 evade=2 damage=1 horror=1
    [aloof] [hunter] [exhausted] [at=LOCATION]`."""
    if len(args) < 2:
        raise Rejected("usage: enemy SEAT NAME fight=F health=H evade=E damage=D horror=R [aloof] [hunter] "
                       "[exhausted] [weakness] [at=LOCATION]")
    seat = live_seat(txn.state, args[0])
    plain, named = keywords(args[2:])
    unknown = (set(plain) - {"aloof", "hunter", "exhausted", "weakness"}) | (set(named) - {
        "fight", "health", "evade", "damage", "horror", "at"})
    if unknown:
        raise Rejected(f"enemy: unknown word {sorted(unknown)[0]!r}")
    stats = EncounterEnemy(count(named.get("fight", "1"), "fight"), count(named.get("health", "1"), "health", 1),
                           count(named.get("evade", "1"), "evade"), count(named.get("damage", "1"), "damage"),
                           count(named.get("horror", "0"), "horror"), hunter="hunter" in plain,
                           aloof="aloof" in plain)
    foe = mythos.enemy_record(stats, ready="exhausted" not in plain,
                              weakness_of=seat if "weakness" in plain else None)  # AH-DMG-10: its owner
    board.spawn(txn, seat, args[1], foe, named.get("at"))


def engage_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """A card effect engages an enemy with the seat: no action, no attack of opportunity
    (AH-ENGAGE-2 for one engaged with another investigator: it leaves them)."""
    usage(args, 2, 2, "engage SEAT ENEMY")
    seat = live_seat(txn.state, args[0])
    foe = board.enemy(txn.state, args[1])
    if foe.engaged == seat:
        raise Rejected(f"{args[1]} is already engaged with seat {seat}")
    board.engage(txn, args[1], seat)


def treachery_gone(txn: Txn, args: tuple[str, ...]) -> None:
    """A treachery that stayed in play leaves it (its own text, or a test passed): to the
    encounter discard pile."""
    usage(args, 1, 1, "discard-treachery NAME")
    cards = records.treacheries(txn.state)
    if args[0] not in cards:
        known = ", ".join(sorted(cards)) or "none"
        raise Rejected(f"no treachery {args[0]!r} in play (treacheries: {known})")
    del cards[args[0]]
    records.save_treacheries(txn, cards)
    txn.add("encounter.discard", 1)


def asset_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """An asset in play that can soak damage/horror or be exhausted: `asset SEAT NAME [health=H] [sanity=S]`."""
    plain, named = keywords(args)
    usage(tuple(plain), 2, 2, "asset SEAT NAME [health=H] [sanity=S]")
    unknown = set(named) - {"health", "sanity"}
    if unknown:
        raise Rejected(f"asset: unknown option {sorted(unknown)[0]!r}")
    seat = live_seat(txn.state, plain[0])
    assets.add(txn, seat, plain[1], count(named["health"], "health", 1) if "health" in named else None,
                    count(named["sanity"], "sanity", 1) if "sanity" in named else None)


def exhaust(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-EXHAUST-2: an exhausted card cannot exhaust again (a cost that cannot be paid)."""
    usage(args, 2, 2, "exhaust SEAT ASSET")
    assets.set_exhausted(txn, live_seat(txn.state, args[0]), args[1], True)


def ready(txn: Txn, args: tuple[str, ...]) -> None:
    usage(args, 2, 2, "ready SEAT ASSET")
    assets.set_exhausted(txn, live_seat(txn.state, args[0]), args[1], False)


def enemy_mod(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-BASE-1: a modifier on an enemy's fight or evade; the printed (base) value stays."""
    usage(args, 3, 3, "enemy-mod NAME fight|evade +N|-N")
    foe = board.enemy(txn.state, args[0])
    if args[1] not in ("fight", "evade"):
        raise Rejected("enemy-mod NAME fight|evade +N|-N")
    delta = parse_int(args[2], "modifier")
    board.save_enemy(txn, args[0], replace(foe, fight_mod=foe.fight_mod + delta) if args[1] == "fight"
                     else replace(foe, evade_mod=foe.evade_mod + delta))


def move_enemy(txn: Txn, args: tuple[str, ...]) -> None:
    """A hunter's move (3.2) or a card moving an enemy: it leaves any engagement and may engage."""
    usage(args, 2, 2, "move-enemy NAME LOCATION")
    foe = board.enemy(txn.state, args[0])
    board.location(txn.state, args[1])
    board.save_enemy(txn, args[0], replace(foe, engaged=None, location=args[1]))
    board.engage_check(txn, args[0])


def enemy_state(txn: Txn, args: tuple[str, ...]) -> None:
    """Exhaust or ready an enemy by a card effect; a readied enemy may engage (AH-ENGM-6)."""
    usage(args, 2, 2, "enemy-state NAME ready|exhausted")
    foe = board.enemy(txn.state, args[0])
    if args[1] not in ("ready", "exhausted"):
        raise Rejected("enemy-state NAME ready|exhausted")
    if foe.ready == (args[1] == "ready"):
        raise Rejected(f"{args[0]} is already {args[1]}")
    board.save_enemy(txn, args[0], replace(foe, ready=args[1] == "ready"))
    board.engage_check(txn, args[0])


def evade_auto(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-EVADE-3: an ability that evades automatically (no test)."""
    usage(args, 1, 1, "evade ENEMY")
    foe = board.enemy(txn.state, args[0])
    if foe.engaged is None:
        raise Rejected(f"{args[0]} is engaged with nobody")
    board.disengage(txn, args[0], exhaust=True)


def harm_enemy(txn: Txn, args: tuple[str, ...]) -> None:
    usage(args, 2, 2, "harm-enemy NAME N")
    board.enemy(txn.state, args[0])
    board.harm_enemy(txn, args[0], count(args[1], "damage", 1))


def enemy_doom(txn: Txn, args: tuple[str, ...]) -> None:
    usage(args, 2, 2, "enemy-doom NAME +N|-N")
    board.enemy_doom(txn, args[0], parse_int(args[1], "doom"))
