"""Incarna rulings (SI-INCARNA-1..6) as small pure functions over one Incarna's state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tablekeeper.errors import Rejected

UNRECOVERABLE_ASPECTS = frozenset({"Lair", "Warrior"})
ONLY_ITSELF_BREAKERS = frozenset({"Fragments of Yesteryear", "Cast Down Into the Briny Deep"})


@dataclass(frozen=True, slots=True)
class Incarna:
    owner: str
    land: str | None = None  # None: in the Incarna supply
    status: str = "supply"  # "supply" | "island" | "supply_unrecoverable"
    aspect: str = ""
    only_itself: bool = False


def finish_growth_action(incarna: Incarna) -> None:
    """SI-INCARNA-1: an add/move-Incarna Growth action is compulsory: it cannot end with the Incarna
    still in the supply."""
    if incarna.land is None and incarna.status != "supply_unrecoverable":
        raise Rejected(f"{incarna.owner}'s Incarna must be placed: this Growth action is compulsory")


def move_targets(incarna: Incarna, presence_lands: Sequence[str]) -> list[str]:
    """SI-INCARNA-2: for "move to a land with your Presence" the Incarna may stand in for Presence,
    so its own land qualifies (and staying put is still a move)."""
    lands = list(dict.fromkeys(presence_lands))
    if incarna.land is not None and incarna.land not in lands:
        lands.append(incarna.land)
    return lands


def add_presence_pieces(incarna: Incarna) -> list[str]:
    """SI-INCARNA-3: adding Presence may pick the Incarna only while it is on the island."""
    return ["presence", "incarna"] if incarna.land is not None else ["presence"]


def add_incarna_as_presence(incarna: Incarna, land: str) -> tuple[Incarna, str]:
    """SI-INCARNA-3: repositioning this way is an "added" event, never "moved"."""
    if incarna.land is None:
        raise Rejected("the Incarna is in the supply, where it is not Presence")
    return replace(incarna, land=land), "added"


def destroyed(incarna: Incarna) -> Incarna:
    """SI-INCARNA-4: Lair and Warrior Incarna that are destroyed, removed or replaced stay out."""
    status = "supply_unrecoverable" if incarna.aspect in UNRECOVERABLE_ASPECTS else "supply"
    return replace(incarna, land=None, status=status)


def can_add_by_growth(incarna: Incarna, fragments_high_tracking: bool = False) -> bool:
    return incarna.status != "supply_unrecoverable" or fragments_high_tracking


def destroy_eligible(incarna: Incarna, effect: str, threshold_met: bool = False) -> bool:
    """SI-INCARNA-5: an Incarna counting only as itself is out of reach of generic effects; only
    Fragments of Yesteryear, or Cast Down Into the Briny Deep with its threshold met, can reach it."""
    if not incarna.only_itself:
        return True
    if effect == "Cast Down Into the Briny Deep":
        return threshold_met
    return effect in ONLY_ITSELF_BREAKERS


def keening_push(user: str, incarna_owner: str, into_invaders: bool) -> tuple[int, int]:
    """SI-INCARNA-6: Frightful Keening works as written for any user (Fear for pushing the Incarna
    into Invaders); the owner-only Strife bonus needs the owner. Returns (fear, strife)."""
    fear = 1 if into_invaders else 0
    strife = 1 if into_invaders and user == incarna_owner else 0
    return fear, strife
