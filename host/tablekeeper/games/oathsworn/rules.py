"""Pure rule functions of Oathsworn, each naming its catalogue ID (``OS-...``).

Nothing here touches a session: numbers in, numbers out, ``Rejected`` for what the rules forbid.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import ceil

from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn.cards import COLOURS, Card

MAX_WHITE = 10  # OS-CHECK-2 / OS-SCOMBAT-2
BACKPACK = 12  # OS-ITEM-4
BACKPACK_ENDURANCE = 20
TRAIT_REDRAW_CAP = 3  # OS-CHECK-8
PERMANENT_CAP = 3  # OS-LVL-9
HAND_LIMIT = 7  # OS-LVL-7
COMPANION_ANIMUS = 2  # OS-SETUP-7


# --- OS-GEN ------------------------------------------------------------------------------------

OATHSWORN_KINDS = ("full", "companion")
CHARACTER_KINDS = (*OATHSWORN_KINDS, "ally", "friendly", "boss", "minion")


def is_oathsworn(kind: str) -> bool:
    """OS-GEN-1: only full characters and companions are Oathsworn."""
    return kind in OATHSWORN_KINDS


def is_character(kind: str) -> bool:
    """OS-GEN-1: any enemy, Oathsworn or friendly figure."""
    return kind in CHARACTER_KINDS


def north_then_west(candidates: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """OS-GEN-2: (row, col) with row 0 north and col 0 west: northernmost, then westernmost."""
    return min(candidates)


def add_component(available: int, wanted: int, override: bool = False) -> int:
    """OS-GEN-4: how many components an instruction actually adds (substitutes only on override)."""
    return wanted if override else min(available, wanted)


# --- characters ------------------------------------------------------------------------------

def full_defense(item_defense: int, bonus: int = 0) -> int:
    """OS-SETUP-6 + OS-DIFF-2 (AMB-8: the minimum 1 first, then the difficulty bonus)."""
    return max(1, item_defense) + bonus


def companion_defense(item_defense: int, bonus: int = 0) -> int:
    """OS-SETUP-8 (AMB-9): items + 2, at least 3; then the difficulty bonus."""
    return max(3, item_defense + 2) + bonus


def regenerate(reserve: int, available: int, regen: int) -> tuple[int, int]:
    """OS-ANIM-2/3: move ``regen`` gems reserve -> available, never more than the reserve holds."""
    moved = min(regen, reserve)
    return reserve - moved, available + moved


def spend(reserve: int, available: int, cost: int) -> tuple[int, int]:
    """OS-ANIM-4/5: costs come from available only; paid gems go back to the reserve."""
    if cost > available:
        raise Rejected(f"costs {cost} animus but only {available} is available")
    return reserve + cost, available - cost


def animus_token(reserve: int, available: int) -> tuple[int, int]:
    """OS-TOK-2 (AMB-32): +2 animus moves up to 2 gems reserve -> available."""
    return regenerate(reserve, available, 2)


def heal(hp: int, amount: int, hp_max: int) -> int:
    """OS-HP-3: healing never exceeds the difficulty maximum."""
    return min(hp_max, hp + amount)


def lose_hp(hp: int, amount: int) -> int:
    """OS-HP-1: the die turns down, never below 0 (0 = unconscious, OS-KO-1)."""
    return max(0, hp - amount)


def hp_lost(damage: int, defense: int) -> int:
    """OS-DMG-3 / OS-EATK-6 / OS-TOK-4: floor(damage / DEFENSE), never negative."""
    if defense < 1:
        raise Rejected("DEFENSE is at least 1")
    return max(0, damage // defense)


def split_iron(total: int, split: Sequence[int]) -> tuple[int, ...]:
    """OS-IRON-1/2: any split of gained or lost iron among the Oathsworn, if it sums right."""
    if any(x < 0 for x in split) or sum(split) != total:
        raise Rejected(f"the split {list(split)} does not add up to {total}")
    return tuple(split)


@dataclass(frozen=True, slots=True)
class IronLoss:
    iron_lost: int
    items_lost: tuple[int, ...]  # indices into the backpack list, in the order lost
    unpaid: int


def lose_iron(iron: int, backpack_values: Sequence[int], amount: int) -> IronLoss:
    """OS-IRON-2/3/4 (AMB-30): iron first, then whole backpack items in the given order, each covering
    ceil(value / 2); equipped items are never touched; what cannot be paid is dropped."""
    paid_iron = min(iron, amount)
    left = amount - paid_iron
    lost: list[int] = []
    for i, value in enumerate(backpack_values):
        if left <= 0:
            break
        lost.append(i)
        left -= ceil(value / 2)
    return IronLoss(paid_iron, tuple(lost), max(0, left))


# --- checks and attacks ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Drawn:
    card: Card
    extra: bool = False  # drawn because of a critical (its blank is excused)


def counted_blanks(drawn: Sequence[Drawn]) -> int:
    """OS-CHECK-4 / OS-ATK-8: blanks among the counted cards; critical extras never count."""
    return sum(1 for d in drawn if d.card.blank and not d.extra)


def total(drawn: Sequence[Drawn]) -> int:
    """OS-ATK-9: every drawn value, critical extras included."""
    return sum(d.card.value for d in drawn)


def check_passes(drawn: Sequence[Drawn], difficulty: int, bonus: int = 0) -> bool:
    """OS-CHECK-3: total (plus any bonus, e.g. OS-FX-4) >= difficulty with fewer than 2 counted blanks."""
    return total(drawn) + bonus >= difficulty and counted_blanks(drawn) < 2


def successes(drawn: Sequence[Drawn], difficulty: int) -> int:
    """OS-CHECK-7 (AMB-3): floor(total / difficulty), 0 when the check fails."""
    if difficulty < 1 or not check_passes(drawn, difficulty):
        return 0
    return total(drawn) // difficulty


def attack_damage(drawn: Sequence[Drawn]) -> int | None:
    """OS-ATK-8/9 / OS-SCOMBAT-3: None on a miss (2+ counted blanks), else the sum of values."""
    if counted_blanks(drawn) >= 2:
        return None
    return total(drawn)


def white_count(n: int) -> int:
    """OS-CHECK-2 / OS-SCOMBAT-2: 0..10 white cards."""
    if not 0 <= n <= MAX_WHITE:
        raise Rejected(f"choose 0 to {MAX_WHITE} white cards, not {n}")
    return n


def trait_redraws(marks: int) -> int:
    """OS-CHECK-8 (AMB-23): one free redraw per trait mark, at most 3 per check."""
    return min(TRAIT_REDRAW_CAP, max(0, marks))


TRAIT_CHECKS = {"bushcraft": ("survival",), "keen-eyed": ("spot", "search", "listening"),
                "quick-witted": ("barter", "threaten", "reasoning")}


def free_redraws(check_type: str, traits: dict[str, int]) -> int:
    """OS-CHECK-8: the free redraws a check of this type gets from the company's traits."""
    return sum(trait_redraws(marks) for trait, marks in traits.items()
               if check_type in TRAIT_CHECKS.get(trait, ()))


def empowered_allowed(check_type: str) -> bool:
    """OS-CHECK-6: empowered x3 tokens only in a MIGHT check (or attacks / story combat)."""
    return check_type in ("might", "attack", "story-combat")


def story_fight_result(damage: int | None, enemy_defense: int) -> tuple[bool, int]:
    """OS-SCOMBAT-4: (succeeded, HP lost): damage >= DEFENSE succeeds, otherwise -1 HP."""
    ok = damage is not None and damage >= enemy_defense
    return ok, 0 if ok else 1


def ignore_highest(drawn: Sequence[Drawn]) -> list[Drawn]:
    """OS-ATK-12: after criticals and redraws, drop the highest counted card (its extras stay)."""
    counted = [d for d in drawn if not d.extra]
    if not counted:
        return list(drawn)
    top = max(counted, key=lambda d: d.card.value)
    out = list(drawn)
    out.remove(top)
    return out


def chain_damage(values: Sequence[int], target_index: int) -> int:
    """OS-FX-7 (AMB-29): the k-th chain target (0-based) ignores the k lowest non-blank cards."""
    nonblank = sorted(v for v in values if v > 0)
    return sum(values) - sum(nonblank[:target_index])


def enemy_damage(cards: Sequence[Card]) -> int:
    """OS-EATK-4: enemies ignore blanks and criticals: the plain total, never a miss."""
    return sum(c.value for c in cards)


def broken_attack(colours: Sequence[str]) -> list[str]:
    """OS-EATK-1: a broken body-part icon removes one card of the strongest colour."""
    if not colours:
        return []
    out = list(colours)
    strongest = max(out, key=COLOURS.index)
    out.remove(strongest)
    return out


def aoe_large_damage(damage: int, hexes_covered: int) -> int:
    """OS-FX-2: +1 damage per covered hex of the large creature beyond the first."""
    return damage + max(0, hexes_covered - 1)


def escape_total(white_total: int, adjacent_friends: int) -> int:
    """OS-FX-4: the escape check adds +2 per adjacent friendly character."""
    return white_total + 2 * adjacent_friends


def escape_cost(companion: bool) -> int:
    """OS-FX-4: 3 animus, 1 for a companion."""
    return 1 if companion else 3


def consumed_released(removed_hp: int, dice_left_at_location: int) -> bool:
    """OS-FX-13: released after 6 HP removed from the location, or when all its dice are broken."""
    return removed_hp >= 6 or dice_left_at_location == 0


def released_animus(reserve: int, available: int) -> tuple[int, int]:
    """OS-FX-14: on release all available animus goes to the reserve."""
    return reserve + available, 0


def large_knockback(n: int) -> int:
    """OS-FX-17: large characters are knocked back ceil(N / 2) hexes."""
    return ceil(n / 2)


def knockback_applies(damage: int | None) -> bool:
    """OS-FX-15: knockback needs an attack that did not miss (even if the target died)."""
    return damage is not None


def knockback_move(n: int, obstacle_at: int | None) -> tuple[int, int]:
    """OS-FX-16: (hexes moved, HP lost): stop next to an obstacle ``obstacle_at`` hexes away, -1 HP."""
    if obstacle_at is not None and obstacle_at <= n:
        return obstacle_at - 1, 1
    return n, 0


def charge_stop(n: int, obstacle_at: int | None) -> int:
    """OS-FX-10: a single-hex charger stops in front of an obstacle."""
    if obstacle_at is not None and obstacle_at <= n:
        return obstacle_at - 1
    return n


def wave_direction(hits: dict[str, int]) -> str:
    """OS-FX-20: the wave goes where it hits the most enemies."""
    return max(hits, key=lambda d: hits[d])


def chain_next_valid(distance_from_previous: int, chain_range: int, already_hit: bool) -> bool:
    """OS-FX-6: each next chain target is new and within chain range of the previous one."""
    return not already_hit and distance_from_previous <= chain_range


# --- cooldowns (OS-CD) -------------------------------------------------------------------------

Positions = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
NO_POSITIONS: Positions = ((), (), (), ())


def cooldown_place(positions: Positions, hand: tuple[str, ...], card: str, cooldown: int,
                   battleflow: bool = True) -> tuple[Positions, tuple[str, ...]]:
    """OS-CD-3/5/6/9: put a played card on position ``cooldown``; an ability card (``battleflow``)
    first moves every card already there one position down (0 -> hand). No cascade."""
    if not 0 <= cooldown <= 3:
        raise Rejected(f"cooldown positions are 0 to 3, not {cooldown}")
    pos = [list(p) for p in positions]
    new_hand = list(hand)
    if battleflow:
        pos, new_hand = _flow(pos, new_hand, cooldown)
    pos[cooldown].append(card)
    return _freeze(pos), tuple(new_hand)


def battleflow_token(positions: Positions, hand: tuple[str, ...], p: int) -> tuple[Positions, tuple[str, ...]]:
    """OS-TOK-3: battleflow one position as though a card had just landed there."""
    pos, new_hand = _flow([list(x) for x in positions], list(hand), p)
    return _freeze(pos), tuple(new_hand)


def cooldown_refresh(positions: Positions, hand: tuple[str, ...], items: Iterable[str] = ()) -> tuple[
        Positions, tuple[str, ...]]:
    """OS-CD-4 / OS-RND-3 (AMB-14): refresh returns position-0 ability cards to hand; items stay."""
    item_set = set(items)
    back = tuple(c for c in positions[0] if c not in item_set)
    keep = tuple(c for c in positions[0] if c in item_set)
    return (keep, positions[1], positions[2], positions[3]), (*hand, *back)


def _flow(pos: list[list[str]], hand: list[str], p: int) -> tuple[list[list[str]], list[str]]:
    moving = pos[p]
    pos[p] = []
    if p == 0:
        hand.extend(moving)
    else:
        pos[p - 1].extend(moving)
    return pos, hand


def _freeze(pos: list[list[str]]) -> Positions:
    return (tuple(pos[0]), tuple(pos[1]), tuple(pos[2]), tuple(pos[3]))


# --- items (OS-ITEM) ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Item:
    name: str
    kind: str = "gear"  # weapon | shield | armor | gear
    hands: int = 0
    defense: int = 0
    might: tuple[str, ...] = ()
    value: int = 0
    range: int = 0
    cooldown: int = 0
    cost: int = 0


def check_equip(items: Sequence[Item]) -> None:
    """OS-ITEM-2: <=1 armor, <=1 gear, hands: one 2H weapon | two 1H weapons | 1H weapon + shield."""
    kinds = [i.kind for i in items]
    if kinds.count("armor") > 1:
        raise Rejected("at most one armor")
    if kinds.count("gear") > 1:
        raise Rejected("at most one gear")
    hands = [i for i in items if i.kind in ("weapon", "shield")]
    if sum(max(1, i.hands) for i in hands) > 2:
        raise Rejected("weapons and shields need more than 2 hands")
    if any(i.kind == "weapon" and i.hands >= 2 for i in hands) and len(hands) > 1:
        raise Rejected("a two-handed weapon leaves no hand free")
    if [i.kind for i in hands].count("shield") > 1:
        raise Rejected("at most one shield")


def check_class(item: Item, allowed: Sequence[str]) -> None:
    """OS-ITEM-3: gear is free for all; other types only when the player board allows them."""
    if item.kind != "gear" and item.name not in allowed and item.kind not in allowed:
        raise Rejected(f"{item.name} is not allowed for this class")


def might_track(items: Sequence[Item]) -> list[str]:
    """OS-SETUP-5: one cube per MIGHT icon on the equipped items (no cap)."""
    return [c for i in items for c in i.might]


def item_defense(items: Sequence[Item]) -> int:
    return sum(i.defense for i in items)


def backpack_overflow(count: int, endurance: bool = False) -> int:
    """OS-ITEM-4: how many items must be archived at once to fit the backpack (12, 20 with Endurance)."""
    return max(0, count - (BACKPACK_ENDURANCE if endurance else BACKPACK))


def sell_value(value: int) -> int:
    """OS-TRADE-4: items sell for half their value rounded up."""
    return ceil(value / 2)


def runner_cost(chapter: int, runners: int, well_connected: bool = False) -> int:
    """OS-TRADE-2: each runner costs the chapter number in iron (0 with Well-connected)."""
    return 0 if well_connected else chapter * runners


def apothecary(chapter: int, bought: int, herbalist: bool = False) -> tuple[int, int]:
    """OS-TRADE-3 (AMB-21): (iron cost, curatives gained) for one trade of up to 5 curatives."""
    if not 0 <= bought <= 5:
        raise Rejected("the Apothecary sells up to 5 curatives per trade")
    return chapter * bought, bought * (2 if herbalist else 1)


# --- difficulty, tally and replay ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Difficulty:
    name: str
    max_hp: int
    defense_bonus: int
    extra_items: int
    ko_modifier: int


def ko_ticks(knockouts: int, diff: Difficulty) -> int:
    """OS-TALLY-7 (AMB-5): one tick per knocked-out Oathsworn plus the flat modifier, at least 0."""
    return max(0, knockouts + diff.ko_modifier)


def replay_score(diff: Difficulty) -> int:
    """OS-END-4: choosing replay fixes the encounter's score at 4 + modifier."""
    return max(0, 4 + diff.ko_modifier)


def loot_counts(diff: Difficulty, scavenger: bool, extra_unique: bool) -> tuple[int, int]:
    """OS-TALLY-6: (commons, uniques) = (4 + Scavenger, 2 + extra box + Grim 1 / Dread 2)."""
    return 4 + int(scavenger), 2 + int(extra_unique) + diff.extra_items


def uniques_drawn(owed: int, unique_deck: int) -> tuple[int, int]:
    """OS-TALLY-4: (uniques, next-chapter commons standing in when the unique deck runs out)."""
    got = min(owed, unique_deck)
    return got, owed - got


def items_lost(knocked_out: bool) -> int:
    """OS-TALLY-9 / OS-KO-2: one used item, two if knocked out."""
    return 2 if knocked_out else 1


def injury_due(hp: int, unconscious: bool, hardcore: bool) -> bool:
    """OS-TALLY-8 / OS-HC-2: the unconscious always, in hardcore also 1-2 HP survivors."""
    return unconscious or (hardcore and 1 <= hp <= 2)


def campaign_failed(classes: int, dead: int) -> bool:
    """OS-HC-5 (AMB-33): fewer than 4 classes still alive ends the campaign."""
    return classes - dead < 4


def replacement_allowed(new_class: str, lost_in_story: str | None) -> bool:
    """OS-HC-6: a replacement for a death in the story cannot be the class just lost."""
    return new_class != lost_in_story


def level_up(max_animus: int, regen: int, choice: str) -> tuple[int, int]:
    """OS-LVL-10: MAX ANIMUS +2 or REGEN +1."""
    if choice == "animus":
        return max_animus + 2, regen
    if choice == "regen":
        return max_animus, regen + 1
    raise Rejected("choose animus or regen")


def add_permanent(marks: dict[str, int], kind: str) -> dict[str, int]:
    """OS-LVL-9: at most 3 permanent tokens of each type."""
    if marks.get(kind, 0) >= PERMANENT_CAP:
        raise Rejected(f"already {PERMANENT_CAP} permanent {kind} tokens")
    return {**marks, kind: marks.get(kind, 0) + 1}


def chapter_tokens(marks: dict[str, int]) -> dict[str, int]:
    """OS-PERM-1: one combat token per permanent token at the start of a chapter."""
    return {k: v for k, v in marks.items() if v > 0}


def check_hand(cooldowns: Sequence[int]) -> None:
    """OS-ESET-5 / OS-LVL-7: exactly 7 ability cards: one cd-0, two each of cd-1, cd-2, cd-3."""
    if len(cooldowns) != HAND_LIMIT:
        raise Rejected(f"a hand holds {HAND_LIMIT} ability cards, not {len(cooldowns)}")
    if sorted(cooldowns) != [0, 1, 1, 2, 2, 3, 3]:
        raise Rejected("a hand needs one cooldown-0 and two each of cooldown 1, 2 and 3")


def check_witch_hand(chapter: int, fire: int, water: int) -> None:
    """OS-ESET-7: in chapter 1 the Witch takes all 4 fire or all 4 water starting cards."""
    if chapter == 1 and sorted((fire, water)) != [0, 4]:
        raise Rejected("in chapter 1 the Witch takes the 4 fire or the 4 water starting cards")


def crippled_until(gained_round: int, gained_phase: str) -> int:
    """OS-STAT-3 (AMB-34): the round whose Oathsworn phase end removes the token: the next
    Oathsworn phase to finish (the following one when gained during an Oathsworn phase)."""
    if gained_phase in ("oathsworn", "encounter", "end"):
        return gained_round + 1
    return gained_round


def caged_until(round_no: int) -> int:
    """OS-FX-3/5: caged through the end of the following round."""
    return round_no + 1


def stage_change_discard(deck: Sequence[int], new_stage: int) -> tuple[list[int], list[int]]:
    """OS-BRK-2 (2) / OS-STAGE-5: discard cards of earlier stages from the top of the deck."""
    kept = [s for s in deck if s >= new_stage]
    gone = [s for s in deck if s < new_stage]
    return kept, gone


def empty_stage_rebuild(discard: Sequence[int]) -> list[int]:
    """OS-STAGE-6 / OS-BRK-2 (3): an empty stage deck is rebuilt from the discarded stage-3 cards."""
    return [s for s in discard if s == 3]


def lost_effects(effects: Sequence[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """OS-BRK-5: a reaction cancels the rest of the effects aimed at the target; effects on friendly
    characters still resolve first. ``effects`` are (aim, name) with aim 'target' or 'friendly'."""
    kept = [n for aim, n in effects if aim == "friendly"]
    lost = [n for aim, n in effects if aim != "friendly"]
    return kept, lost


def boss_die_loss(die: int, loss: int) -> tuple[int, bool]:
    """OS-DMG-5: (new die value, broken): a die that would go under 1 is removed, excess lost."""
    if loss >= die:
        return 0, True
    return die - loss, False


def closest_die(dice: Sequence[tuple[str, int, bool]]) -> list[str]:
    """OS-DMG-2/6: locations (name, distance, has die) that may take the damage: the closest with a
    die; more than one means the attacker chooses."""
    live = [(name, dist) for name, dist, alive in dice if alive]
    if not live:
        return []
    best = min(d for _, d in live)
    return [n for n, d in live if d == best]


def is_ranged(card_range: int, weapon_range: int) -> bool:
    """OS-ATK-1: ranged when the card or an equipped weapon lists a range."""
    return card_range > 0 or weapon_range > 0


def in_range(distance: int, rng: int) -> bool:
    """OS-ATK-2: in range iff distance <= range."""
    return distance <= rng


def large(hexes: int) -> bool:
    """OS-EMOVE-3: more than one hex = large."""
    return hexes > 1


def bounce(col: int, move_west: int) -> int:
    """OS-EMOVE-11: movement past the west edge (column 0) reflects like a mirror."""
    pos = col - move_west
    return -pos if pos < 0 else pos


def move_order(distances: dict[str, int]) -> list[str]:
    """OS-EMOVE-6 / OS-MIN-2: movers go closest-to-target first."""
    return sorted(distances, key=lambda k: distances[k])


@dataclass(frozen=True, slots=True)
class Candidate:
    name: str
    movement: int  # movement points the enemy needs to reach it
    in_los: bool = True
    pos: tuple[int, int] = (0, 0)
    next_to_mob: bool = False
    friendly_only: bool = False  # an ally or friendly figure, not an Oathsworn


def enemy_target(cands: Sequence[Candidate], reach: int, *, reaction: str | None = None,
                 named: str | None = None, mob: bool = False, minion: bool = False) -> str | None:
    """OS-TGT-1..5 / OS-MIN-3/6: reaction breaker, then a named target, then the closest in LoS
    (mob tie-break, then north then west). ``reach`` = movement + attack range. Minions also
    target allies and friendly figures; bosses only Oathsworn (AMB-16)."""
    by_name = {c.name: c for c in cands}
    for wanted in (reaction, named):
        if wanted is not None and wanted in by_name:
            c = by_name[wanted]
            if c.in_los and c.movement <= reach:
                return c.name
    pool = [c for c in cands if c.in_los and (minion or not c.friendly_only)]
    if not pool:
        return None
    best = min(c.movement for c in pool)
    tied = [c for c in pool if c.movement == best]
    if mob and any(c.next_to_mob for c in tied):
        tied = [c for c in tied if c.next_to_mob]
    pos = north_then_west(c.pos for c in tied)
    return next(c.name for c in tied if c.pos == pos)


def water_path_cost(path: Sequence[str]) -> int:
    """OS-MOVE-5: plain hexes cost 1, a water hex 2 the first time in a turn, 1 on re-entry."""
    seen: set[str] = set()
    cost = 0
    for hex_id in path:
        kind = hex_id.partition(":")[0]
        if kind == "water" and hex_id not in seen:
            cost += 2
            seen.add(hex_id)
        else:
            cost += 1
    return cost


def place_tile(tiles: dict[str, str], hex_id: str, tile: str) -> dict[str, str]:
    """OS-MOVE-6: one single-hex tile per hex; a new one replaces the old."""
    return {**tiles, hex_id: tile}


def encounter_result(boss_dice_left: int, conscious_oathsworn: int) -> str | None:
    """OS-END-1: victory when no boss die is left (even if the company fell at the same time),
    defeat when every Oathsworn is unconscious."""
    if boss_dice_left == 0:
        return "victory"
    if conscious_oathsworn == 0:
        return "defeat"
    return None


def large_move_obstacles(final_hexes: Iterable[str], obstacles: Iterable[str]) -> tuple[set[str], set[str]]:
    """OS-EMOVE-9: (removed, kept): obstacles under the large enemy's final hexes are removed; those it
    only passed through stay."""
    final = set(final_hexes)
    obs = set(obstacles)
    return obs & final, obs - final


HEX_DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


def facing_after_move(adjacent_to_target: bool, towards_target: str, last_step: str | None) -> str:
    """OS-EMOVE-2: face the target when next to it; otherwise the way the last hex was entered."""
    if adjacent_to_target or last_step is None:
        return towards_target
    return last_step


def push_distance(under_centre: bool) -> int:
    """OS-FX-18: a push moves 1 hex; a character under a large enemy's final centre hex moves 2."""
    return 2 if under_centre else 1
