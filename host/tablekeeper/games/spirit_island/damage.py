"""Pure damage rules: Badlands boosts, caps and bonuses, Defend amounts, Dahan timing changes,
Health totals, healing and Health while moving (catalogue sections 2.4, 2.6, 2.16)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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


def damage_on_durable(base: int, bonus: int) -> int:
    """SI-DAMAGE-4: bonuses add to damage aimed at a Durable target like any other."""
    return base + bonus


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


def time_passes_damage(damage: int, not_healed: bool) -> int:
    """SI-HEAL-1 / SI-TURN-3: Time Passes heals all Damage unless a "not healed" effect is on."""
    return damage if not_healed else 0


def saved_from_destruction_damage(damage: int) -> int:
    """SI-HEAL-1: a piece saved from destruction has its Damage wiped; that is not "healing", so a
    "damage is not healed" effect does not keep it."""
    return 0


def moved_piece(health_base: int, damage: int, bonus_in_destination: int) -> tuple[int, bool]:
    """SI-DAMAGE-5: a moved piece has the destination's Health at once; returns (health, destroyed
    in the destination)."""
    health = health_base + bonus_in_destination
    return health, damage >= health


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
