"""Per-Spirit bookkeeping: Energy, card plays against the limit, elements this turn, Power uses
(a Repeat is a new use), the presence tracks as Presence leaves them, and the Time Passes clean-up
(SI-TURN-1..3, SI-REPEAT-1)."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tablekeeper.core.events import Json
from tablekeeper.core.game import Txn, parse_int
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import lands, powers, spirit_data
from tablekeeper.games.spirit_island.common import blight_card, get, packs_of
from tablekeeper.games.spirit_island.record import shared
from tablekeeper.games.spirit_island.spirit_data import ELEMENTS, SPEEDS, Innate, InnateLevel, Spirit, SpiritCard

# The FAQ rulings that bite most often, shown on a seat's panel in turn (catalogue 2.1, 2.5, 2.13, 2.16).
REMINDERS = (
    "Repeat = a new use",
    "Triggers: after action",
    "Strife off before dmg",
    "Heal at Time Passes",
)


class PlayedCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Power Card a seat played this turn: what ``use``, ``repeat``, the seat menu, the Power
    steps' skip check and the view all read. Kept in the state as plain JSON (``to_json``)."""

    cost: int
    speed: str
    elements: tuple[str, ...] = ()
    used: bool = False
    name: str = ""


def played(state: GameState, seat: int) -> list[PlayedCard]:
    return msgspec.convert(get(state, seat_track(seat, "played"), []) or [], list[PlayedCard])


def played_json(cards: list[PlayedCard]) -> list[Json]:
    out: list[Json] = msgspec.to_builtins(cards)
    return out


def _put_played(txn: Txn, seat: int, cards: list[PlayedCard]) -> None:
    txn.put(seat_track(seat, "played"), played_json(cards) or None)


def power_to_use(state: GameState, speed: str) -> bool:
    """Has any seat something to do in this Power phase: an unused card of this speed played, or
    elements that may meet an Innate of this speed (any Innate, for a seat whose Spirit is not set)?
    Without either the phase is skipped."""
    for seat in state.seat_numbers():
        if any(c.speed == speed and not c.used for c in played(state, seat)):
            return True
        have = elements(state, seat)
        if not any(have.values()):
            continue
        spirit = spirit_of(state, seat)
        if spirit is None or any(_speed_now(spirit, i, have, speed) and spirit_data.levels_met(i, have)
                                 for i in spirit.innates):
            return True
    return False


def _speed_now(spirit: Spirit, innate: Innate, have: dict[str, int], phase: str) -> bool:
    """May the Innate be used in this Power phase (its speed, or Fast by its elements)?"""
    if innate.speed == phase:
        return True
    return phase == "fast" and bool(innate.fast_with) and spirit_data.meets(innate.fast_with, have)


def elements(state: GameState, seat: int) -> dict[str, int]:
    counts: dict[str, int] = get(state, seat_track(seat, "elements"), {})
    return counts


def spirit_of(state: GameState, seat: int) -> Spirit | None:
    """The Spirit a seat plays, when the game was told (``--option spirits=river,lightning``)."""
    key = shared(state).spirits.get(str(seat))
    if not key:
        return None
    return spirit_data.load(shared(state).spirit_data, packs_of(state)).spirits[key]


TRACKS = {"energy": "energy_track", "plays": "plays_track"}


def track_state(state: GameState, seat: int) -> spirit_data.TrackState | None:
    spirit = spirit_of(state, seat)
    if spirit is None:
        return None
    return spirit_data.track_state(spirit, state.value(seat_track(seat, "energy_track")),
                                   state.value(seat_track(seat, "plays_track")))


def uncover(txn: Txn, seat: int, which: str, land: str = "") -> None:
    """Growth takes a Presence off a track onto the island: the next space is uncovered (its number
    becomes the Spirit's Energy per turn or Card Plays, its element is gained every turn)."""
    spirit = spirit_of(txn.state, seat)
    if spirit is None:
        raise Rejected(f"seat {seat} has no Spirit set (--option spirits=...): "
                       f"set {seat_track(seat, 'energy_per_turn')} instead")
    if which not in TRACKS:
        raise Rejected("uncover SEAT energy|plays [LAND]")
    track = seat_track(seat, TRACKS[which])
    spaces = getattr(spirit, TRACKS[which])
    if txn.value(track) + 1 >= len(spaces):
        raise Rejected(f"seat {seat}'s {which} track has no Presence left on it")
    space = spaces[txn.value(track) + 1]
    txn.add(track, 1)
    if land:
        where = lands.place(txn.state, land).name
        rec = lands.land(txn.state, where)
        lands.put(txn, where, rec.with_presence(str(seat), rec.presence.get(str(seat), 0) + 1))
    txn.add(seat_track(seat, "presence"), 1)
    txn.notice(f"Seat {seat} uncovers {space!r} on its {'Energy' if which == 'energy' else 'Card Plays'} track"
               + (f"; the Presence goes to {land.upper()}" if land else ""))
    if space in ELEMENTS and (txn.state.phase, txn.state.step) == ("spirit", "growth"):
        gain_element(txn, seat, space)


def follow_tracks(txn: Txn, seat: int) -> None:
    """A track's uncovered spaces changed: Energy per turn and Card Plays follow them."""
    now = track_state(txn.state, seat)
    if now is None:
        return
    txn.set(seat_track(seat, "energy_per_turn"), now.energy)
    if (txn.state.phase, txn.state.step) != ("spirit", "growth") or not txn.value(seat_track(seat, "cards_played")):
        txn.set(seat_track(seat, "card_plays"), max(now.plays, txn.value(seat_track(seat, "cards_played"))))


def unplayed_cards(state: GameState, seat: int) -> list[SpiritCard]:
    spirit = spirit_of(state, seat)
    if spirit is None:
        return []
    taken = {c.name for c in played(state, seat)}
    return [c for c in spirit.cards if c.name not in taken]


def play_named(txn: Txn, seat: int, name: str) -> None:
    """Play a card by (the start of) its name: one of the Spirit's own (its cost, speed and
    elements), else a Power Card from ``data/powers.toml`` (cost and speed; its elements are
    entered with ``element``). A card with the Fear icon is announced as generating Fear (SI-FEAR-2)."""
    spirit = spirit_of(txn.state, seat)
    own = [c for c in spirit.cards if c.name.lower().startswith(name.lower())] if spirit else []
    if len(own) == 1:
        card = own[0]
        play(txn, seat, str(card.cost), card.speed, card.elements, name=card.name)
        return
    book = powers.load_powers(None, packs_of(txn.state))
    found = [c for key, c in book.items() if key.startswith(name.lower())]
    if len(found) != 1 or len(own) > 1:
        known = ", ".join([c.name for c in spirit.cards] if spirit else []) or "no Spirit set"
        raise Rejected(f"no single card {name!r} (the Spirit's: {known}; or a Power Card in powers.toml; "
                       f"or play SEAT COST fast|slow ELEMENTS)")
    power = found[0]
    play(txn, seat, str(power.cost), power.speed, (), name=power.name)
    if power.generates_fear:
        txn.notice(f"{power.name} shows the Fear icon: it generates Fear when used")


def gain_element(txn: Txn, seat: int, element: str) -> None:
    """An element gained this turn (from a card entered on the panel, or another effect)."""
    if element not in ELEMENTS:
        raise Rejected(f"unknown element {element!r} (elements: {', '.join(ELEMENTS)})")
    counts = elements(txn.state, seat)
    counts[element] = counts.get(element, 0) + 1
    txn.put(seat_track(seat, "elements"), counts)


def play(txn: Txn, seat: int, cost_text: str, speed: str, element_names: tuple[str, ...],
         name: str = "") -> None:
    """SI-TURN-2: plays are limited by Card Plays; the cost is paid now, Fast and Slow alike, and
    the card's elements are gained now."""
    state = txn.state
    if (state.phase, state.step) != ("spirit", "growth"):
        raise Rejected("Power Cards are chosen and paid for in the Spirit Phase")
    if seat in state.done:
        raise Rejected(f"seat {seat} is already done choosing cards")
    cost = parse_int(cost_text, "cost")
    if cost < 0:
        raise Rejected("a card's cost cannot be negative")
    if speed not in SPEEDS:
        raise Rejected(f"speed must be fast or slow, not {speed!r}")
    bad = [e for e in element_names if e not in ELEMENTS]
    if bad:
        raise Rejected(f"unknown element {bad[0]!r} (elements: {', '.join(ELEMENTS)})")
    plays, limit = txn.value(seat_track(seat, "cards_played")), txn.value(seat_track(seat, "card_plays"))
    if plays + 1 > limit:
        raise Rejected(f"seat {seat} may play {limit} card(s) this turn and has played {plays}")
    energy = txn.value(seat_track(seat, "energy"))
    if cost > energy:
        raise Rejected(f"seat {seat} has {energy} Energy, the card costs {cost}")
    txn.set(seat_track(seat, "energy"), energy - cost)
    txn.set(seat_track(seat, "cards_played"), plays + 1)
    _put_played(txn, seat, [*played(state, seat), PlayedCard(cost, speed, element_names, False, name)])
    counts = elements(state, seat)
    for e in element_names:
        counts[e] = counts.get(e, 0) + 1
    txn.put(seat_track(seat, "elements"), counts)


def _card(state: GameState, seat: int, number_text: str) -> tuple[list[PlayedCard], int]:
    cards = played(state, seat)
    n = parse_int(number_text, "card number")
    if not 1 <= n <= len(cards):
        raise Rejected(f"seat {seat} has played {len(cards)} card(s) this turn; no card {n}")
    return cards, n - 1


def use(txn: Txn, seat: int, number_text: str) -> None:
    """SI-TURN-1: a card resolves only in its own Power phase; a Slow card stays pending during Fast."""
    cards, i = _card(txn.state, seat, number_text)
    speed = cards[i].speed
    if txn.state.phase not in SPEEDS:
        raise Rejected(f"card {i + 1} is {speed}: it resolves in the {speed.title()} Power phase"
                       f" (now: {txn.state.phase})")
    if txn.state.phase != speed:
        _swift(txn, seat, speed, cards[i].name or f"card {i + 1}")
    if cards[i].used:
        raise Rejected(f"card {i + 1} was already used this turn (a Repeat is 'repeat {seat} {i + 1}')")
    cards[i] = msgspec.structs.replace(cards[i], used=True)
    _put_played(txn, seat, cards)
    _power_used(txn, seat, f"card {i + 1}" + (f", {cards[i].name}" if cards[i].name else ""))


def repeat(txn: Txn, seat: int, number_text: str) -> None:
    """SI-REPEAT-1: Repeating a Power is one more use of a Power."""
    cards, i = _card(txn.state, seat, number_text)
    if not cards[i].used:
        raise Rejected(f"card {i + 1} has not been used yet, so there is nothing to repeat")
    _power_used(txn, seat, f"card {i + 1} (repeated)")


def innate_names(state: GameState, seat: int) -> list[str]:
    spirit = spirit_of(state, seat)
    return [i.name for i in spirit.innates] if spirit else []


def _threshold(args: tuple[str, ...]) -> dict[str, int]:
    level: dict[str, int] = {}
    for item in args:
        element, sep, n = item.lower().partition("=")
        if not sep or element not in ELEMENTS:
            raise Rejected(f"innate: expected ELEMENT=N (elements: {', '.join(ELEMENTS)}), got {item!r}")
        level[element] = parse_int(n, element)
    return level


def innate(txn: Txn, seat: int, args: tuple[str, ...]) -> None:
    """An Innate Power use (a Power use like any other), refused below its first threshold: the
    Spirit's Innate by name from its data, or the threshold given as ELEMENT=N."""
    if txn.state.phase not in SPEEDS:
        raise Rejected("Innate Powers are used in the Fast or Slow Power phase")
    have = elements(txn.state, seat)
    spirit = spirit_of(txn.state, seat)
    if args and "=" in args[0]:
        power = Innate("the Innate Power", "fast" if txn.state.phase == "fast" else "slow",
                       (InnateLevel(_threshold(args)),))
    elif spirit is not None and spirit.innates:
        wanted = " ".join(args).lower()
        found = [i for i in spirit.innates if i.name.lower().startswith(wanted)] if wanted else list(spirit.innates)
        if not found:
            known = ", ".join(innate_names(txn.state, seat))
            raise Rejected(f"{spirit.name} has no Innate {' '.join(args)!r} ({known})")
        power = found[0]
    else:
        raise Rejected(f"innate {seat} ELEMENT=N ...: the Innate's first threshold (or --option spirits=...)")
    met = spirit_data.levels_met(power, have)
    if met == 0:
        shown = " ".join(f"{n} {e}" for e, n in sorted(have.items())) or "no elements"
        raise Rejected(f"seat {seat} has {shown}: {power.name} needs "
                       f"{spirit_data.threshold_text(power.levels[0].threshold)}")
    if not (spirit is not None and _speed_now(spirit, power, have, txn.state.phase)) and power.speed != txn.state.phase:
        _swift(txn, seat, power.speed, power.name)
    effects = "; ".join(f"{i}: {lv.effect}" for i, lv in enumerate(power.levels, 1)
                        if lv.effect and spirit_data.meets(lv.threshold, have))
    _power_used(txn, seat, f"{power.name} (threshold {met} of {len(power.levels)} met"
                + (f": {effects})" if effects else ")"))


def _swift(txn: Txn, seat: int, speed: str, name: str) -> None:
    """A Power of the other speed: refused, unless the Spirit may use a Slow Power as if Fast for
    each of an element it has (Swiftness of Lightning)."""
    spirit = spirit_of(txn.state, seat)
    per = spirit.slow_as_fast_per if spirit is not None else ""
    allowed = elements(txn.state, seat).get(per, 0) if per else 0
    used = int(txn.state.get(seat_track(seat, "swift"), 0) or 0)
    if not (speed == "slow" and txn.state.phase == "fast" and used < allowed):
        extra = f" ({used} of {allowed} Slow Powers already made Fast by {per})" if per and speed == "slow" else ""
        raise Rejected(f"{name} is {speed}: it is used in the {speed.title()} Power phase{extra}")
    txn.put(seat_track(seat, "swift"), used + 1)
    txn.notice(f"Seat {seat} uses {name} as if Fast ({per} {used + 1} of {allowed})")


def _power_used(txn: Txn, seat: int, what: str) -> None:
    uses = int(txn.state.get(seat_track(seat, "power_uses"), 0)) + 1
    txn.put(seat_track(seat, "power_uses"), uses)
    txn.notice(f"Seat {seat} uses {what} (Power use {uses} this turn)")
    for text in get(txn.state, seat_track(seat, "whenever"), []):
        txn.notice(f"Whenever seat {seat} uses a Power: {text}")


def whenever(txn: Txn, seat: int, text: str) -> None:
    if not text:
        raise Rejected("usage: whenever SEAT TEXT")
    effects = get(txn.state, seat_track(seat, "whenever"), [])
    txn.put(seat_track(seat, "whenever"), [*effects, text])


def gain_energy(txn: Txn) -> None:
    """Spirit Phase: each Spirit gains its Energy per turn (the highest uncovered Energy number)
    and the elements its uncovered track spaces give every turn; a Spirit whose tracks are known
    has its Card Plays set from them (a Blight card may add to both)."""
    card = blight_card(txn.state)
    bonus = card is not None and bool(txn.value("blight.flipped"))
    for seat in txn.state.seat_numbers():
        now = track_state(txn.state, seat)
        if now is not None:
            txn.set(seat_track(seat, "card_plays"), now.plays + (card.spirit_phase_plays if card and bonus else 0))
            for element in now.elements:
                gain_element(txn, seat, element)
            if now.any_elements:
                txn.notice(f"Seat {seat}: {now.any_elements} element(s) of your choice from the track (element SEAT X)")
            if now.reclaim_one:
                txn.notice(f"Seat {seat}: reclaim one card (track)")
        gain = txn.value(seat_track(seat, "energy_per_turn")) + (card.spirit_phase_energy if card and bonus else 0)
        if gain:
            txn.add(seat_track(seat, "energy"), gain)


def growth_changed_income(txn: Txn, track: str, old: int, new: int) -> None:
    """Energy is gained as the Spirit Phase begins; a Growth that uncovers (or covers) an Energy
    number before the seat's first card changes this turn's gain too, so the Energy follows."""
    seat_text = track.removeprefix("seat").removesuffix(".energy_per_turn")
    if (txn.state.phase, txn.state.step) != ("spirit", "growth") or not is_number(seat_text, signed=False):
        return
    seat = int(seat_text)
    if seat in txn.state.done:
        return
    if txn.value(seat_track(seat, "cards_played")):  # Growth comes before the cards: recorded late?
        change = f"+{new - old}" if new > old else str(new - old)
        txn.notice(f"Seat {seat} has played a card, so this turn's Energy stays as it was ({new} a turn from next turn)"
                   f"; if this was this turn's Growth: add {seat_track(seat, 'energy')} {change}")
        return
    energy = seat_track(seat, "energy")
    txn.set(energy, max(0, txn.value(energy) + new - old))


def time_passes(txn: Txn) -> None:
    """SI-TURN-3: played cards to discard, elements cleared, this-turn effects end, Damage healed."""
    for seat in txn.state.seat_numbers():
        txn.set(seat_track(seat, "cards_played"), 0)
        for key in ("played", "elements", "power_uses", "whenever", "swift"):
            txn.put(seat_track(seat, key), None)
    recorded = lands.all_lands(txn.state)
    if recorded:
        lands.put_all(txn, {name: replace(rec, defend=0) for name, rec in recorded.items()})
    txn.put("invader.explore_cards", None)
    txn.put("ravage.blight_boards", None)
    txn.notice("Time passes: heal all Damage; Defend, Isolate and other this-turn effects end")
