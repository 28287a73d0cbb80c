"""Reading and changing the Oathsworn table through a transaction: seat records, DEFENSE, HP loss,
unconsciousness and the end of the encounter. Shared by the flow hooks and the verbs."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core import packs as packlib
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState, Prompt
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.data import PACKAGE, Encounter, GameData, load_text
from tablekeeper.games.oathsworn.decks import reset_all_might
from tablekeeper.games.oathsworn.record import SeatRecord, rec

SEATS = rules.SEATS
TOKEN_KINDS = rules.COMBAT_TOKENS
TOKEN_LABELS = {"redraw": "redraw", "empowered": "empower", "defense": "defense", "animus": "animus boost",
                "battleflow": "battleflow"}  # combat tokens (OS-TOK-2..7) as the seat display names them

_DATA_CACHE: dict[str, GameData] = {}  # by the SHA-256 of the data text, never by path


def remember(data: GameData, digest: str) -> None:
    _DATA_CACHE[digest] = data


def data_of(state: GameState) -> GameData:
    """The game data the session was set up with: found by the hash of its text, so another
    session (or an edited file) never changes what this one's verbs read."""
    record = rec(state)
    digest = record.data_sha256
    if digest not in _DATA_CACHE:
        path = record.data_path
        packs = packlib.active({packlib.PACKS_OPTION: record.packs}, "oathsworn", PACKAGE)
        data, found = load_text(path or None, packs)
        if digest and found != digest:
            raise ConfigError(f"{path or 'the built-in data'}: changed since this session was set up")
        _DATA_CACHE[found] = data
        return data
    return _DATA_CACHE[digest]


def encounter_of(state: GameState) -> Encounter:
    """The encounter this session fights (chosen at setup, OS-ESET)."""
    d = data_of(state)
    name = rec(state).encounter
    return d.encounter(name) if name else d.chapter_encounter(rec(state).chapter)


def stage_label(state: GameState, card: object) -> str:
    """A stage card as the table knows it: its printed name when the encounter data names it, else
    only its stage (the deck id is the device's own, printed on no card)."""
    card_id = str(card)
    named = encounter_of(state).card(card_id)
    return named.name if named.name else f"a stage {card_id[1]} card"


def stage_words(state: GameState, card: object) -> str:
    """The card's name and what its numbers say it does: ``Gnaw (moves 7, attacks from the front)``; an
    attack from a broken location draws one card of the strongest colour less (OS-EATK-1)."""
    named = encounter_of(state).card(str(card))
    parts = []
    if named.move is not None:
        parts.append(f"moves {named.move}")
    if named.attack is not None:
        location = dict((loc, name) for loc, name, _ in encounter_of(state).locations).get(named.attack, named.attack)
        parts.append(f"attacks from the broken {location.lower()}: one card less, OS-EATK-1"
                     if broken(state, named.attack)
                     else f"attacks from the {location.lower()}")
    return stage_label(state, card) + (f" ({', '.join(parts)})" if parts else "")


def broken(state: GameState, location: str) -> bool:
    """OS-BRK-1: a boss location is broken once its HP die is gone; a name that is no boss location is not."""
    track = f"boss.{location}"
    return track in state.tracks and state.value(track) == 0


def seat(state: GameState, n: int) -> SeatRecord:
    return rec(state).seat(n)


def has_figure(state: GameState, n: int) -> bool:
    """The seat has a model on the board an enemy can attack: its Oathsworn, or the ally it took."""
    record = seat(state, n)
    return not record.down or bool(record.ally)


def put_seat(txn: Txn, n: int, record: SeatRecord) -> None:
    txn.put(f"seat.{n}", record)


def take_prompt_seat(txn: Txn) -> tuple[int, Prompt]:
    """Close the open prompt and return the seat it asked, with the prompt (its options)."""
    prompt = txn.open_prompt()
    txn.close_prompt()
    return int(prompt.context["seat"]), prompt


def difficulty(state: GameState) -> rules.Difficulty:
    return data_of(state).difficulties[rec(state).difficulty]


def part(state: GameState) -> str:
    return rec(state).part


def in_encounter(state: GameState) -> bool:
    return part(state) == "encounter"


def encounter_setup(state: GameState) -> bool:
    """OS-ESET-5/8/10: the hands, the archetype sides and the lead are chosen at encounter setup:
    round 1's Refresh (the flow's encounter-setup stop); an ambushed round 1 has no Refresh, so its
    stage card step is the setup's place (OS-ESET-11)."""
    if state.round != 1 or part(state) != "encounter":
        return False
    return state.step == "refresh" or (rec(state).ambushed and state.step == "stage")


def base_defense(state: GameState, record: SeatRecord) -> int:
    """OS-SETUP-6/8 + OS-DIFF-2 + OS-FX-19: item DEFENSE (thrown items excluded) with minimum and bonus."""
    bonus = difficulty(state).defense_bonus
    if record.ally:
        return data_of(state).allies[record.ally].defense + bonus
    d = data_of(state)
    thrown = set(record.thrown)
    items = [d.item(name) for name in record.items if name not in thrown]
    total = rules.item_defense(items)
    if record.kind == "companion":
        return rules.companion_defense(total, bonus)
    return rules.full_defense(total, bonus)


def update_defense(txn: Txn, n: int) -> None:
    """OS-ITEM-7: equipment changes update DEFENSE at once."""
    txn.set(seat_track(n, "defense"), base_defense(txn.state, seat(txn.state, n)))


UNCHECKED = "?"  # marks a figure computed from numbers not checked against the printed card
UNCHECKED_LEGEND = (UNCHECKED, "from card numbers not checked against the printed card")


def defense_checked(state: GameState, n: int) -> bool:
    """Whether the seat's DEFENSE comes from checked numbers only (its items' or its ally card's)."""
    record = seat(state, n)
    d = data_of(state)
    if record.ally:
        return d.allies[record.ally].verified
    thrown = set(record.thrown)
    return all(d.item(name).verified for name in record.items if name not in thrown)


def animus_max_checked(state: GameState, n: int) -> bool:
    """Whether MAX ANIMUS is a checked number: the rule's 2 for companions and allies, else the
    player board's value (class_defaults)."""
    record = seat(state, n)
    return record.kind == "companion" or bool(record.ally) or "class_defaults" not in data_of(state).unverified


def might_checked(state: GameState, n: int) -> bool:
    """Whether the seat's MIGHT cubes and the player decks come from checked numbers only."""
    record = seat(state, n)
    d = data_of(state)
    if "might" in d.unverified:
        return False
    if record.ally:
        return d.allies[record.ally].verified
    return all(d.item(name).verified for name in record.items if d.item(name).might)


def might_cubes(state: GameState, n: int, unarmed: bool = False) -> list[str]:
    """OS-SETUP-5 / OS-ATK-7: the MIGHT track; unarmed attacks drop weapon MIGHT."""
    record = seat(state, n)
    d = data_of(state)
    if record.ally:
        return list(d.allies[record.ally].might)  # the ally card's MIGHT (OS-KO-3, M14)
    items = [d.item(name) for name in record.items]
    if unarmed or record.thrown:
        items = [i for i in items if i.kind != "weapon"]
    return rules.might_track(items)


def spend_token(txn: Txn, n: int, kind: str, count: int = 1) -> None:
    if count < 1:
        raise Rejected(f"spend at least one {kind} token, not {count}")
    record = seat(txn.state, n)
    have = record.tokens.get(kind, 0)
    if have < count:
        raise Rejected(f"seat {n} has {have} {kind} token(s), needs {count}")
    put_seat(txn, n, replace(record, tokens={**record.tokens, kind: have - count}))


def gain_token(txn: Txn, n: int, kind: str, count: int = 1) -> None:
    if kind not in TOKEN_KINDS:
        raise Rejected(f"unknown combat token {kind!r} ({', '.join(TOKEN_KINDS)})")
    record = seat(txn.state, n)
    put_seat(txn, n, replace(record, tokens={**record.tokens, kind: record.tokens.get(kind, 0) + count}))


def lose_hp(txn: Txn, n: int, amount: int) -> None:
    """OS-HP-1: turn the die down (not below 0); reaching 0 is handled by ``on_track``."""
    if amount <= 0:
        return
    txn.set(seat_track(n, "hp"), rules.lose_hp(txn.value(seat_track(n, "hp")), amount))


def conscious(state: GameState) -> list[int]:
    return [n for n in SEATS if not seat(state, n).down]


def boss_dice(state: GameState) -> dict[str, int]:
    return {name: state.value(f"boss.{name}") for name, _ in encounter_of(state).boss}


def check_end(txn: Txn) -> None:
    """OS-END-1: victory when every boss die is gone (wins over a simultaneous defeat); defeat when
    every Oathsworn is down (AMB-17: allies do not hold it off)."""
    state = txn.state
    if not in_encounter(state):
        return
    result = rules.encounter_result(sum(1 for v in boss_dice(state).values() if v > 0), len(conscious(state)))
    if result is not None:
        reset_all_might(txn)  # OS-MIGHT-7: the encounter part is over
        txn.put("attacks_due", [])
    if result == "victory":
        txn.put("part", "epilogue")
        txn.put("result", "victory")
        txn.put("draws", [])
        for name in rec(state).minions:
            txn.drop(f"minion.{name}")
        txn.put("minions", {})
        txn.notice("Victory: every boss location is broken; remaining minions flee (OS-END-2). Next: tally")
    elif result == "defeat":
        txn.put("part", "epilogue")
        txn.put("result", "defeat")
        txn.put("draws", [])
        txn.ask("defeat", "Defeat: replay the encounter or move on?", ["replay", "move on"])
