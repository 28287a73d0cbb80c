"""Verbs of the board: locations, enemies and assets as far as the tracker follows them. Names follow
one rule (``parsing``): written as their words, quoted or not, matched whatever the case and accents."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn, parse_int
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import assets, board, effects, encounter, mythos, piles, places
from tablekeeper.games.arkham.content import KEYWORDS, EncounterCard, keyword_tuple
from tablekeeper.games.arkham.parsing import (
    count,
    keywords,
    live_seat,
    name_of,
    name_then,
    pick,
    two_names,
)
from tablekeeper.games.arkham.record import rec

ENEMY_FLAGS = {"exhausted", "weakness", *KEYWORDS}
STATS = ("fight", "health", "evade", "damage", "horror")


def enemy_name(state: GameState, text: str) -> str:
    """The enemy in play a name means (its case and accents aside); refused when none is."""
    found = pick(text, board.enemies(state))
    board.enemy(state, found)
    return found


def location_name(state: GameState, text: str) -> str:
    found = pick(text, board.locations(state))
    board.location(state, found)
    return found


def location_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """A location in play. Named alone, the scenario's data gives its numbers, connections and copies;
    typed with its shroud and clue value (per investigator with `per`) for one the data lacks."""
    plain, named = keywords(args, glue=("to",))
    text = "location NAME [SHROUD CLUES [per]] [to=A,B,...]"
    numbers = next((i for i, word in enumerate(plain) if is_number(word)), len(plain))
    label, rest = name_of(plain[:numbers], "location"), plain[numbers:]
    if set(named) - {"to"}:
        raise Rejected(f"usage: {text}")
    if not rest:
        if named:
            raise Rejected("a location from the scenario's data comes with its own connections; to= is for typed ones")
        key = pick(label, rec(txn.state).scenario.locations)
        spec = rec(txn.state).scenario.locations.get(key)
        if spec is not None and all(n in board.locations(txn.state) for n in places.copies(key, spec)):
            raise Rejected(f"location {key!r} is already in play")
        board.put_into_play(txn, key)
        return
    if len(rest) not in (2, 3) or (len(rest) == 3 and rest[2] != "per"):
        raise Rejected(f"usage: {text}")
    connections = [c.strip() for c in named.get("to", "").split(",") if c.strip()]
    board.add_location(txn, label, count(rest[0], "shroud"), count(rest[1], "clue value"), len(rest) == 3, connections)


def remove_location(txn: Txn, args: tuple[str, ...]) -> None:
    """A card removes a location from the game (its enemies and attachments are discarded)."""
    board.remove_location(txn, location_name(txn.state, name_of(args, "location")))


def enter(txn: Txn, args: tuple[str, ...]) -> None:
    """Place or move an investigator without an action (setup, card effects)."""
    if len(args) < 2:
        raise Rejected("usage: enter SEAT LOCATION")
    board.enter(txn, live_seat(txn.state, args[0]), location_name(txn.state, name_of(args[1:], "location")))


class TypedEnemy(msgspec.Struct, frozen=True):
    """An ``enemy`` line read: who drew it, its label, the scenario's card it is (None: typed with its
    numbers), that card with the typed numbers and keywords, the flags and the location named. A
    question about it keeps it whole in its context, so the answer need not read the line again."""

    seat: int
    label: str
    card_name: str | None
    card: EncounterCard
    flags: frozenset[str]
    at: str | None
    typed: bool


ENEMY_USAGE = ("usage: enemy SEAT NAME [fight=F health=H evade=E damage=D horror=R] [aloof] [hunter] "
               "[retaliate] [alert] [massive] [exhausted] [weakness] [at=LOCATION]")


def enemy_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """An enemy drawn by SEAT spawns. One of the scenario's encounter cards needs only its name (its
    printed numbers, keywords and spawn instruction come from the data; numbers typed beside it
    override them); any other needs all five numbers: fight, health, evade, damage, horror. Unless it
    is the card a 1.4 draw is naming, a card of the encounter deck leaves the pile it was in
    (``piles.typed``): the table is asked which only when both could hold it."""
    foe = read_enemy(txn.state, args)
    if not mythos.typed_enemy(txn, foe.seat) and "weakness" not in foe.flags:
        found_in = piles.typed(txn.state, foe.card_name)
        if len(found_in) > 1:
            txn.ask("enemy_pile", f"Seat {foe.seat}: where was {foe.label} found?",
                    [f"{piles.LABELS[p]} ({txn.value(p.value)})" for p in found_in], seat=foe.seat,
                    context={"foe": msgspec.to_builtins(foe, order="deterministic"),
                             "piles": [p.value for p in found_in]})
            return
        if found_in:
            _taken(txn, foe, found_in[0])
    bring_in(txn, foe)


def answer_pile(txn: Txn, index: int) -> None:
    """The pile the table found the typed enemy in: it leaves that one, then spawns."""
    context = txn.open_prompt().context
    txn.close_prompt()
    foe = msgspec.convert(thaw(context["foe"]), type=TypedEnemy)
    _taken(txn, foe, piles.Pile(str(context["piles"][index])))
    bring_in(txn, foe)


def _taken(txn: Txn, foe: TypedEnemy, pile: piles.Pile) -> None:
    piles.take(txn, pile)
    txn.notice(f"{foe.label} is taken out of {piles.LABELS[pile]}")


def read_enemy(state: GameState, args: tuple[str, ...]) -> TypedEnemy:
    """An ``enemy`` line's words, checked (``Rejected`` names what is wrong)."""
    if len(args) < 2:
        raise Rejected(ENEMY_USAGE)
    seat = live_seat(state, args[0])
    plain, named = keywords(args[1:], glue=("at",), stop=ENEMY_FLAGS)
    flags = frozenset(w for w in plain if w in ENEMY_FLAGS)
    label = name_of([w for w in plain if w not in ENEMY_FLAGS], "enemy")
    unknown = set(named) - {*STATS, "at"}
    if unknown:
        raise Rejected(f"enemy: unknown word {sorted(unknown)[0]!r}")
    at = location_name(state, named["at"]) if "at" in named else None
    typed = {key: count(named[key], key, 1 if key == "health" else 0) for key in STATS if key in named}
    found = encounter.known_card(state, label)
    if found is None:
        missing = [key for key in STATS if key not in typed]
        if missing:
            known = ", ".join(sorted(rec(state).scenario.enemies)) or "none"
            raise Rejected(f"enemy {label!r} is not in the scenario's data: give {'='.join(missing[:1])}=N "
                           f"({', '.join(missing)} missing) or name one of: {known}")
        card = EncounterCard(kind="enemy", fight=typed["fight"], health=typed["health"], evade=typed["evade"],
                             damage=typed["damage"], horror=typed["horror"], verified=True,
                             keywords=keyword_tuple(flags))
        return TypedEnemy(seat, label, None, card, flags, at, bool(typed))
    card_name, card = found
    card = replace(card, keywords=keyword_tuple({*flags, *card.keywords}), **typed)
    return TypedEnemy(seat, card_name, card_name, card, flags, at, bool(typed))


def bring_in(txn: Txn, typed: TypedEnemy) -> None:
    """The typed enemy comes into play: by its card's own spawn instruction when nothing typed
    overrides it, else engaged with its drawer or at the location named."""
    seat, card, card_name = typed.seat, typed.card, typed.card_name
    foe = encounter.enemy_record(card, effects.investigator_count(txn.state), name=card_name,
                                 ready="exhausted" not in typed.flags,
                                 weakness_of=seat if "weakness" in typed.flags else None)  # AH-DMG-10: its owner
    if card_name is not None and typed.at is None and card.spawn is not None and not typed.typed:
        encounter.spawn_card(txn, seat, card_name, ready=foe.ready)
        return
    where = typed.at or encounter.spawns_instead(txn.state, card_name)  # 01124: unless the table named a place
    encounter.place(txn, seat, encounter.free_name(typed.label, board.enemies(txn.state)), foe, where, card.doom)


def engage_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """A card effect engages an enemy with the seat: no action, no attack of opportunity
    (AH-ENGAGE-2 for one engaged with another investigator: it leaves them)."""
    if len(args) < 2:
        raise Rejected("usage: engage SEAT ENEMY")
    seat = live_seat(txn.state, args[0])
    target = enemy_name(txn.state, name_of(args[1:], "enemy"))
    if board.enemy(txn.state, target).engaged == seat:
        raise Rejected(f"{target} is already engaged with seat {seat}")
    if board.enemy(txn.state, target).has("massive"):
        raise Rejected(f"{target} is massive: never in a threat area, engaged with everyone at its location "
                       "while ready")
    board.engage(txn, target, seat)


def treachery_gone(txn: Txn, args: tuple[str, ...]) -> None:
    """A treachery that stayed in play leaves it (its own text, or a test passed): to the
    encounter discard pile."""
    board.discard_treachery(txn, pick(name_of(args, "treachery"), rec(txn.state).treacheries))


def asset_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """An asset in play that can soak damage/horror or be exhausted: `asset SEAT NAME [health=H] [sanity=S]`."""
    plain, named = keywords(args)
    if len(plain) < 2:
        raise Rejected("usage: asset SEAT NAME [health=H] [sanity=S]")
    unknown = set(named) - {"health", "sanity"}
    if unknown:
        raise Rejected(f"asset: unknown option {sorted(unknown)[0]!r}")
    seat = live_seat(txn.state, plain[0])
    health = count(named["health"], "health", 1) if "health" in named else None
    sanity = count(named["sanity"], "sanity", 1) if "sanity" in named else None
    assets.add(txn, seat, name_of(plain[1:], "asset"), health, sanity)


def _seat_asset(txn: Txn, args: tuple[str, ...], verb: str) -> tuple[int, str]:
    if len(args) < 2:
        raise Rejected(f"usage: {verb} SEAT ASSET")
    seat = live_seat(txn.state, args[0])
    label = pick(name_of(args[1:], "asset"), assets.assets(txn.state, seat))
    assets.asset(txn.state, seat, label)
    return seat, label


def exhaust(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-EXHAUST-2: an exhausted card cannot exhaust again (a cost that cannot be paid)."""
    seat, label = _seat_asset(txn, args, "exhaust")
    assets.set_exhausted(txn, seat, label, True)


def ready(txn: Txn, args: tuple[str, ...]) -> None:
    seat, label = _seat_asset(txn, args, "ready")
    assets.set_exhausted(txn, seat, label, False)


def enemy_mod(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-BASE-1: a modifier on an enemy's fight or evade; the printed (base) value stays."""
    text = "enemy-mod NAME fight|evade +N|-N"
    label, (which, amount) = name_then(args, 2, text)
    target = enemy_name(txn.state, label)
    foe = board.enemy(txn.state, target)
    if which not in ("fight", "evade"):
        raise Rejected(f"usage: {text}")
    delta = parse_int(amount, "modifier")
    board.save_enemy(txn, target, replace(foe, fight_mod=foe.fight_mod + delta) if which == "fight"
                     else replace(foe, evade_mod=foe.evade_mod + delta))


def move_enemy(txn: Txn, args: tuple[str, ...]) -> None:
    """A hunter's move (3.2) or a card moving an enemy: it leaves any engagement and may engage."""
    text = "move-enemy NAME LOCATION"
    if len(args) < 2:
        raise Rejected(f"usage: {text}")
    state = txn.state
    first, second = two_names(args, board.enemies(state), board.locations(state), text)
    target, place = enemy_name(state, first), location_name(state, second)
    foe = board.enemy(state, target)
    board.save_enemy(txn, target, replace(foe, engaged=None, location=place))
    board.engage_check(txn, target)


def enemy_state(txn: Txn, args: tuple[str, ...]) -> None:
    """Exhaust or ready an enemy by a card effect; a readied enemy may engage (AH-ENGM-6)."""
    label, (state_word,) = name_then(args, 1, "enemy-state NAME ready|exhausted")
    target = enemy_name(txn.state, label)
    foe = board.enemy(txn.state, target)
    if state_word not in ("ready", "exhausted"):
        raise Rejected("enemy-state NAME ready|exhausted")
    if foe.ready == (state_word == "ready"):
        raise Rejected(f"{target} is already {state_word}")
    board.save_enemy(txn, target, replace(foe, ready=state_word == "ready"))
    board.engage_check(txn, target)


def evade_auto(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-EVADE-3: an ability that evades automatically (no test)."""
    target = enemy_name(txn.state, name_of(args, "enemy"))
    foe = board.enemy(txn.state, target)
    if foe.engaged is None and not foe.has("massive"):
        raise Rejected(f"{target} is engaged with nobody")
    board.evaded(txn, target)


def harm_enemy(txn: Txn, args: tuple[str, ...]) -> None:
    label, (amount,) = name_then(args, 1, "harm-enemy NAME N")
    board.harm_enemy(txn, enemy_name(txn.state, label), count(amount, "damage", 1))


def enemy_doom(txn: Txn, args: tuple[str, ...]) -> None:
    label, (amount,) = name_then(args, 1, "enemy-doom NAME +N|-N")
    board.enemy_doom(txn, enemy_name(txn.state, label), parse_int(amount, "doom"))
