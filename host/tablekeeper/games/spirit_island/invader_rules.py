"""Pure Invader rules: Ravage damage with Defend and Strife, Dahan casualties and counterattack,
Build, Explore sources, advancing the Invader cards, and the terrains an Event may pick.

All of these are "outside the seeds" (catalogue section 3) except where a seed rule ID is named.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

DEFAULT_DAMAGE: Mapping[str, int] = {"explorer": 1, "town": 2, "city": 3, "dahan": 2}


@dataclass(frozen=True, slots=True)
class Invader:
    """One Invader piece: its kind, Strife on it, Damage taken and a Health modifier."""

    kind: str
    strife: int = 0
    damage: int = 0
    health_bonus: int = 0
    strife_health_penalty: int = 0  # e.g. Panic: -1 Health per Strife (SI-STRIFE-1)

    def health(self, base: Mapping[str, int]) -> int:
        return base[self.kind] + self.health_bonus - self.strife_health_penalty * self.strife


@dataclass(frozen=True, slots=True)
class RavageResult:
    damage_to_land: int
    damage_to_dahan: int
    blight: int
    invaders: tuple[Invader, ...]
    dahan_left: tuple[int, ...] = ()  # Damage on each surviving Dahan
    counterattack: int = 0


def ravage_damage(invaders: Iterable[Invader], defend: int = 0,
                  damage: Mapping[str, int] = DEFAULT_DAMAGE) -> tuple[int, tuple[Invader, ...]]:
    """SI-INV-2 / SI-STRIFE-2 / SI-DEFEND-1: damage one Ravage deals to the land and Dahan.

    Each Invader with Strife deals 0 and loses 1 Strife; the rest add their damage; Defend is taken
    off this occasion's total (never below 0) and is not used up.
    """
    total = 0
    after: list[Invader] = []
    for inv in invaders:
        if inv.strife:
            after.append(replace(inv, strife=inv.strife - 1))
        else:
            total += damage[inv.kind]
            after.append(inv)
    return max(0, total - defend), tuple(after)


def blight_from_ravage(damage_to_land: int) -> int:
    """SI-INV-3: 2 or more damage to the land from one Ravage adds exactly 1 Blight."""
    return 1 if damage_to_land >= 2 else 0


def dahan_casualties(dahan: Sequence[int], damage: int, health: int = 2) -> tuple[int, ...]:
    """SI-INV-4: Invader damage destroys as many Dahan as it can (damaged ones first).

    ``dahan`` lists Damage already on each Dahan; returns the Damage on each survivor.
    """
    left = sorted(dahan, reverse=True)
    survivors: list[int] = []
    for taken in left:
        need = health - taken
        if damage >= need:
            damage -= need
        else:
            survivors.append(taken)
    if damage and survivors:
        survivors[0] += damage
    return tuple(sorted(survivors, reverse=True))


def ravage(invaders: Iterable[Invader], dahan: Sequence[int], *, defend: int = 0, ravaged: bool = True,
           damage: Mapping[str, int] = DEFAULT_DAMAGE, dahan_health: int = 2) -> RavageResult:
    """One Ravage action in one land (SI-INV-2..4, SI-STRIFE-2, SI-DEFEND-2).

    The counterattack happens even when the damage was cut to 0, but not if the Ravage was stopped
    (``ravaged=False``)."""
    if not ravaged:
        return RavageResult(0, 0, 0, tuple(invaders), tuple(dahan), 0)
    dealt, after = ravage_damage(invaders, defend, damage)
    survivors = dahan_casualties(dahan, dealt, dahan_health)
    return RavageResult(dealt, dealt, blight_from_ravage(dealt), after, survivors,
                        damage["dahan"] * len(survivors))


def build(explorers: int, towns: int, cities: int) -> str | None:
    """SI-INV-5: the piece a Build adds to a land, or None if the land has no Invaders."""
    if explorers + towns + cities == 0:
        return None
    return "city" if towns > cities else "town"


@dataclass(frozen=True, slots=True)
class Land:
    """What Explore needs to know about a land (SI-INV-6, SI-ISOLATE-3)."""

    name: str
    terrain: str
    coastal: bool = False
    towns: int = 0
    cities: int = 0
    explorers: int = 0
    isolated: bool = False
    adjacent: tuple[str, ...] = field(default=())


def explore_adds(land: Land, lands: Mapping[str, Land]) -> int:
    """SI-INV-6: 1 Explorer if the land is Coastal or has or touches a Town/City; Explorers are no
    source. SI-ISOLATE-3: an Explore never adds to an Isolated land."""
    if land.isolated:
        return 0
    if land.coastal or land.towns or land.cities:
        return 1
    return 1 if any(lands[n].towns or lands[n].cities for n in land.adjacent) else 0


def card_terrains(card: str) -> frozenset[str]:
    """Terrains an Invader card shows ("Jungle+Sands" shows two; "Coastal" shows none)."""
    return frozenset(t for t in card.split("+") if t != "Coastal")


def unshown_terrains(slots: Mapping[str, Sequence[str]], terrains: Sequence[str]) -> list[str]:
    """SI-ERRATA-3 / SI-ERRATA-4: terrains no Invader Action card shows (catalogue gap 7: a
    Coastal card rules out none, an empty slot rules out nothing)."""
    shown: set[str] = set()
    for cards in slots.values():
        for card in cards:
            shown |= card_terrains(card)
    return [t for t in terrains if t not in shown]


def advance(slots: Mapping[str, Sequence[str]], discard: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """SI-INV-7: Ravage -> discard, Build -> Ravage, Explore -> Build."""
    new = {"ravage": list(slots.get("build", ())), "build": list(slots.get("explore", ())), "explore": []}
    return new, [*discard, *slots.get("ravage", ())]


def accelerate(top: Sequence[str], n: int, reminders: frozenset[str]) -> tuple[list[str], list[str]]:
    """SI-REMINDER-1 / SI-REMINDER-2: accelerate ``n`` cards off the top; a Reminder revealed on the
    way is set aside (and does not stop the count) and resolves only after the whole action.

    Returns (cards accelerated, the order in which things resolve after the action)."""
    accelerated: list[str] = []
    waiting: list[str] = []
    pile = list(top)
    while len(accelerated) < n and pile:
        card = pile.pop(0)
        if card in reminders:
            waiting.append(card)
        else:
            accelerated.append(card)
    return accelerated, waiting
