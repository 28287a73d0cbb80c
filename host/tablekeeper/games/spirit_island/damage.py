"""Pure damage rules: Badlands boosts, caps and bonuses, Defend amounts, Dahan timing changes,
Health totals, healing and Health while moving (catalogue sections 2.4, 2.6, 2.16)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import product


@dataclass(frozen=True, slots=True)
class Instance:
    """One instance of an action damaging something: its natural amount and whom it may hit."""

    base: int
    targets: str = "any"  # "any", "towns", "dahan", ...


def boosted(base: int, badlands: int) -> int:
    """SI-BADLANDS-3 / SI-DAMAGE-2: each Badlands adds +1 to damage actually dealt; 0 stays 0."""
    return base + badlands if base > 0 else 0


def badlands_results(instances: Sequence[Instance], badlands: int) -> set[tuple[int, ...]]:
    """SI-BADLANDS-1: each Badlands boosts exactly one damaging instance of the action (any one,
    not necessarily the first); the boost is mandatory while there is damage to boost."""
    live = [i for i, inst in enumerate(instances) if inst.base > 0]
    if not live:
        return {tuple(0 for _ in instances)}
    results = set()
    for picks in product(live, repeat=badlands):
        amounts = [inst.base for inst in instances]
        for i in picks:
            amounts[i] += 1
        results.add(tuple(amounts))
    return results


def badlands_allowed(instances: Sequence[Instance], badlands: int, proposed: Sequence[int]) -> bool:
    return tuple(proposed) in badlands_results(instances, badlands)


def badlands_split(invader_instances: Sequence[Instance], dahan_instances: Sequence[Instance],
                   badlands: int) -> tuple[set[tuple[int, ...]], set[tuple[int, ...]]]:
    """SI-BADLANDS-2: the Dahan boost is counted apart from the Invader boost: each Badlands boosts
    one Invader instance and, separately, one Dahan instance."""
    return badlands_results(invader_instances, badlands), badlands_results(dahan_instances, badlands)


def capped(natural: int, cap: int, bonus: int) -> int:
    """SI-DAMAGE-1: a cap limits the natural amount; bonuses go on top and may pass the cap."""
    return min(natural, cap) + bonus if min(natural, cap) > 0 else 0


def conditional_damage(happens: bool, base: int, bonus: int) -> int:
    """SI-DAMAGE-2: a bonus cannot apply to damage that is not happening (other option chosen,
    condition or threshold unmet)."""
    return base + bonus if happens and base > 0 else 0


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


def heal_at_time_passes(pieces: Sequence[Piece], not_healed: bool = False) -> list[Piece]:
    """SI-TURN-3 / SI-HEAL-1: Time Passes heals all Damage, unless a "damage is not healed" effect
    is on."""
    return list(pieces) if not_healed else [replace(p, damage=0) for p in pieces]


def saved_from_destruction(piece: Piece) -> Piece:
    """SI-HEAL-1: a piece that escapes destruction has its Damage wiped. That is not healing, so a
    "damage is not healed" effect does not keep it."""
    return replace(piece, damage=0)


def move(piece: Piece, bonus_in_destination: int) -> tuple[Piece, bool]:
    """SI-DAMAGE-5: no middle state: the moved piece has the destination's Health at once, and if
    its Damage reaches that Health it is destroyed in the destination."""
    moved = replace(piece, bonus=bonus_in_destination)
    return moved, moved.damage >= moved.health


def removable_by_health(healths: Sequence[int], budgets: Sequence[int]) -> bool:
    """SI-HEALTH-1: can these pieces be removed by Health budgets? Each budget is its own action
    (each player's removal), so a piece must fit inside one budget; budgets never pool."""
    remaining = sorted(budgets, reverse=True)
    for health in sorted(healths, reverse=True):
        for i, left in enumerate(remaining):
            if left >= health:
                remaining[i] -= health
                break
        else:
            return False
    return True


@dataclass(frozen=True, slots=True)
class DefendSource:
    """A Defend effect: ``per_dahan`` counts Dahan; ``island_wide`` effects recount whenever they
    matter, single-land ones keep ``locked`` from when they resolved (SI-DEFEND-4)."""

    amount: int = 0
    per_dahan: bool = False
    island_wide: bool = False
    locked: int | None = None


def resolve_single_land(source: DefendSource, dahan_now: int) -> DefendSource:
    """SI-DEFEND-4: a single-land Dahan count is settled when the Power resolves."""
    if source.per_dahan and not source.island_wide:
        return DefendSource(source.amount, True, False, source.amount * dahan_now)
    return source


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


@dataclass(frozen=True, slots=True)
class TimingChange:
    """A change to when Dahan deal damage: ``count`` Dahan (None = all) strike at ``timing``;
    ``damage_delta`` is another part of the effect that a later timing change does not undo."""

    name: str
    timing: str  # "first" | "simultaneous" | "after"
    count: int | None = None
    damage_delta: int = 0


def dahan_timing(dahan: int, changes_in_order: Sequence[TimingChange],
                 base_damage: int = 2) -> tuple[list[str], int]:
    """SI-DAHAN-TIMING-1: the players order the changes; a later one overwrites only the timing of
    the Dahan it covers; damage changes all stay. Returns (timing of each Dahan, damage each)."""
    timings = ["after"] * dahan
    damage_each = base_damage
    for change in changes_in_order:
        n = dahan if change.count is None else min(change.count, dahan)
        for i in range(n):
            timings[i] = change.timing
        damage_each += change.damage_delta
    return timings, max(0, damage_each)


def counts_for_victory(pieces: Mapping[str, int], incarna_counts_as_presence: bool) -> int:
    """SI-COUNTS-4: Presence a Spirit may count for defeat checks (its Incarna may count)."""
    return pieces.get("presence", 0) + (pieces.get("incarna", 0) if incarna_counts_as_presence else 0)
