"""Pure damage rules: Badlands boosts, caps and bonuses, Defend amounts, Dahan timing changes,
Health totals, healing and Health while moving (catalogue sections 2.4, 2.6, 2.16)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace


def boosted(base: int, badlands: int) -> int:
    """SI-BADLANDS-3 / SI-DAMAGE-2: each Badlands adds +1 to damage actually dealt; 0 stays 0."""
    return base + badlands if base > 0 else 0


def capped(natural: int, cap: int, bonus: int) -> int:
    """SI-DAMAGE-1: a cap limits the natural amount; bonuses go on top and may pass the cap."""
    return min(natural, cap) + bonus if min(natural, cap) > 0 else 0


@dataclass(frozen=True, slots=True)
class Piece:
    """One Invader or Dahan as Damage sees it: base Health, Health modifiers from where it stands
    (e.g. a land's bonus, Durable) and Damage taken this turn."""

    kind: str
    base_health: int
    damage: int = 0
    bonus: int = 0

    @property
    def health(self) -> int:
        return self.base_health + self.bonus


def deal(piece: Piece, amount: int, bonus: int = 0) -> tuple[Piece, bool]:
    """Deal ``amount`` (+ ``bonus`` if any damage is dealt, SI-DAMAGE-2/4: a bonus adds to damage
    aimed at a Durable target like any other). Returns the piece and whether it is destroyed."""
    total = amount + bonus if amount > 0 else 0
    hit = replace(piece, damage=piece.damage + total)
    return hit, hit.damage >= hit.health


def move(piece: Piece, bonus_in_destination: int) -> tuple[Piece, bool]:
    """SI-DAMAGE-5: no middle state: the moved piece has the destination's Health at once, and if
    its Damage reaches that Health it is destroyed in the destination."""
    moved = replace(piece, bonus=bonus_in_destination)
    return moved, moved.damage >= moved.health


@dataclass(frozen=True, slots=True)
class DefendSource:
    """A Defend effect: ``per_dahan`` counts Dahan; ``island_wide`` effects recount whenever they
    matter, single-land ones keep ``locked`` from when they resolved (SI-DEFEND-4)."""

    amount: int = 0
    per_dahan: bool = False
    island_wide: bool = False
    locked: int | None = None


def defend_total(sources: Iterable[DefendSource], dahan: int, sitting_out: int, in_ravage: bool) -> int:
    """SI-DEFEND-3 / SI-DEFEND-4: Defend in a land at the moment damage is dealt. Dahan sitting out a
    Ravage grant nothing in it (they count again outside a Ravage)."""
    counted = dahan - sitting_out if in_ravage else dahan
    total = 0
    for src in sources:
        if src.locked is not None:
            total += src.locked
        elif src.per_dahan:
            total += src.amount * counted
        else:
            total += src.amount
    return total
