"""Earthborne Rangers rules as small pure functions of the cards in play (``record.CardInPlay``), the
location (``record.Place``) and numbers. Each function names the catalogue rule it implements.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from tablekeeper.core.tracks import TokenCard
from tablekeeper.games.earthborne.data import parse_threshold
from tablekeeper.games.earthborne.record import CardInPlay, Place

Card = CardInPlay
Target = CardInPlay | Place  # what a test interacts with: a card in play or the location
KINDS = ("progress", "harm", "rangers")

# ER-CHAL-1: the area order of challenge effects.
AREA_ORDER = ("weather", "location", "mission", "along", "reach", "player")


def threshold(card: Target, kind: Literal["progress", "harm"], rangers: int) -> int | None:
    """ER-TOKEN-2, ER-TOKEN-3: the effective threshold of ``kind`` (None when none is printed)."""
    printed = card.progress if kind == "progress" else card.harm
    return parse_threshold(printed, f"card {card.name!r}").effective(rangers)


def reached(card: Card, progress: int, harm: int, rangers: int) -> tuple[str, ...]:
    """ER-CLEAR-1, ER-CLEAR-10: token kinds at or above their threshold; a kind without one never counts.

    A card that clears by Ranger tokens adds the kind ``rangers`` once every Ranger's token is on it."""
    kinds = TokenCard(card.name, progress, harm,
                      threshold(card, "progress", rangers), threshold(card, "harm", rangers)).reached()
    if card.rtoken_clear and set(range(1, rangers + 1)) <= set(card.rtokens):
        kinds = (*kinds, "rangers")
    return kinds


def discard_on_recheck(still: Sequence[str], cleared_by: str, mode: str) -> bool:
    """ER-CLEAR-4 (ambiguity 4): step 3 discards only if the tokens still meet a threshold.

    ``mode`` "any": either kind still at threshold; "chosen": the kind it cleared by."""
    if mode == "chosen":
        return cleared_by in still
    return bool(still)


def turn_refusal(seat: int, *, last: int | None, rested: Iterable[int], seats: int,
                 exhaust_role: bool, role_ready: bool) -> str | None:
    """ER-TURN-1, ER-REST-1: why ``seat`` may not take the next turn, or None if it may."""
    rested_set = set(rested)
    if seat in rested_set:
        return f"seat {seat} has rested and takes no more turns this round"
    if seat != last:
        return None
    unrested = [s for s in range(1, seats + 1) if s not in rested_set]
    if unrested == [seat]:
        return None
    if exhaust_role:
        return None if role_ready else f"seat {seat}'s role card is already exhausted"
    return f"seat {seat} just took a turn: another Ranger goes next, or exhaust the role card (turn {seat} role)"


def travel_refusal(progress: int, location: Place | None, rangers: int, cards: Mapping[str, Card]) -> str | None:
    """ER-LOC-2, ER-LOC-3, ER-LOC-4, ER-TRAVEL-1: why the group may not travel now, or None.

    Only the location's progress counts (harm never does), checked when asked, and a ready
    obstacle blocks travel. A location printed with the Ranger token instead of a threshold lets
    the group travel once every Ranger's token is on it."""
    if location is None:
        return "there is no location"
    if location.rtoken_clear:
        missing = sorted(set(range(1, rangers + 1)) - set(location.rtokens))
        if missing:
            return f"every Ranger's token must be on {location.name}; missing: " + \
                ", ".join(f"seat {s}" for s in missing)
    else:
        location_threshold = threshold(location, "progress", rangers)
        if location_threshold is None:
            if location.progress == "X":
                return f"{location.name}'s threshold is X: give it (location \"{location.name}\" N)"
            return "the location has no progress threshold"
        if progress < location_threshold:
            return f"location progress {progress}/{location_threshold}: not enough to travel"
    for key, card in cards.items():
        in_path_area = card.area in ("along", "reach")
        if in_path_area and card.ready and "obstacle" in card.keywords:
            return f"the ready obstacle {card.name} ({key}) blocks travel"
    return None


def leaves_on_travel(cards: Mapping[str, Card]) -> list[str]:
    """ER-TRAVEL-2: non-persistent path cards leave play; persistent ones (and attachments) stay."""
    return [key for key, card in cards.items()
            if card.area in ("along", "reach") and "persistent" not in card.keywords]


def between(target: Target | None, cards: Mapping[str, Card], seat: int) -> dict[str, Card]:
    """ER-TEST-3: the *ready* cards between the Ranger and the card they interact with.

    Cards within the Ranger's reach stand between them and cards along the way; cards within reach
    and along the way stand between them and the surroundings; nothing stands before their own reach."""
    if target is None:
        return {}
    between_areas = {"along": ("reach",), "weather": ("reach", "along"), "mission": ("reach", "along"),
                     "location": ("reach", "along")}.get(target.area, ())
    out: dict[str, Card] = {}
    for key, card in cards.items():
        if card is target or not card.ready or card.area not in between_areas:
            continue
        if card.area == "reach" and card.seat != seat:
            continue
        out[key] = card
    return out


def between_fatigue(target: Target | None, cards: Mapping[str, Card], seat: int) -> int:
    """ER-TEST-3: presence of every ready card between the Ranger and the card they interact with
    (a presence of X is the table's to count: see ``variable_presence``)."""
    return sum(card.presence for card in between(target, cards, seat).values() if isinstance(card.presence, int))


def variable_presence(target: Target | None, cards: Mapping[str, Card], seat: int) -> list[str]:
    """ER-TEST-3: the cards in between whose presence is X (the card says what X is)."""
    return [card.name for card in between(target, cards, seat).values() if not isinstance(card.presence, int)]


def blocking_obstacle(target: Target | None, cards: Mapping[str, Card], seat: int) -> str | None:
    """A ready obstacle between the Ranger and a card prevents interacting with that card."""
    return next((key for key, card in between(target, cards, seat).items()
                 if "obstacle" in card.keywords), None)


def ranger_token_bonus(target: Target | None, seat: int) -> int:
    """ER-RTOKEN-1: +1 effort for each other Ranger's token on the card the test interacts with."""
    if target is None:
        return 0
    return sum(1 for s in target.rtokens if s != seat)


def test_total(effort: int, modifier: int, floor: int) -> int:
    """ER-TEST-1 (ambiguity 9): effort plus the challenge modifier, never below ``floor``."""
    return max(floor, effort + modifier)


def test_succeeds(effort: int, modifier: int, difficulty: int, floor: int) -> bool:
    """ER-TEST-1: success when the total effort is at least the difficulty."""
    return test_total(effort, modifier, floor) >= difficulty


def challenge_groups(icon: str, cards: Mapping[str, Card], location: Place | None, seat: int,
                     target: Target | None) -> list[list[str]]:
    """ER-CHAL-1: the cards whose ``icon`` effect resolves, grouped by area in resolution order.

    Only active (ready) cards count; another Ranger's reach counts only when the test interacts with
    one of that Ranger's cards. Within a group the players choose the order."""
    other_reach = target.seat if isinstance(target, CardInPlay) and target.area == "reach" else None
    groups: list[list[str]] = []
    for area in AREA_ORDER:
        group: list[str] = []
        if area == "location":
            if location is not None and icon in location.icons:
                group.append("location")
        else:
            for key, card in cards.items():
                if card.area != area or not card.ready or icon not in card.icons:
                    continue
                if area == "reach" and card.seat not in (seat, other_reach):
                    continue
                if area == "player" and card.seat != seat:
                    continue
                group.append(key)
        if group:
            groups.append(group)
    return groups


def refreshed_energy(aspects: Mapping[str, int]) -> dict[str, int]:
    """ER-REFRESH-1: each energy type is set exactly to its aspect value (topped up or cut down)."""
    return dict(aspects)


def over_equip(gear: Mapping[str, int], limit: int) -> bool:
    """ER-GEAR-1: the equip values add up to more than the limit."""
    return sum(gear.values()) > limit


def weather_for(day: int, weather: Mapping[str, str]) -> str | None:
    """ER-DAY-1, ER-SETUP-1: the weather card the day track names for ``day``."""
    return weather.get(str(day))
