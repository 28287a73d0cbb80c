"""Pure rule functions of Oathsworn, each naming its catalogue ID (``OS-...``).

Nothing here touches a session: numbers in, numbers out, ``Rejected`` for what the rules forbid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import ceil

from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn.cards import COLOURS, Card

SEATS = (1, 2, 3, 4)  # OS-GEN-3: the free company is always 4 Oathsworn
COMBAT_TOKENS = ("redraw", "empowered", "defense", "animus", "battleflow")  # OS-TOK-2..7

MAX_WHITE = 10  # OS-CHECK-2 / OS-SCOMBAT-2
BACKPACK = 12  # OS-ITEM-4
BACKPACK_ENDURANCE = 20
TRAIT_REDRAW_CAP = 3  # OS-CHECK-8
PERMANENT_CAP = 3  # OS-LVL-9
HAND_LIMIT = 7  # OS-LVL-7
COMPANION_ANIMUS = 2  # OS-SETUP-7


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


def defense_choices(damage: int, defense: int, tokens: int) -> list[int]:
    """OS-TOK-4: the HP lost when spending 0, 1, ... defense tokens, up to the fewest HP the seat can
    lose (a further token would be thrown away); empty when the seat loses no HP anyway."""
    if hp_lost(damage, defense) == 0:
        return []
    least = hp_lost(damage, defense + tokens)
    useful = next(k for k in range(tokens + 1) if hp_lost(damage, defense + k) == least)
    return [hp_lost(damage, defense + k) for k in range(useful + 1)]


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


def free_redraws(check_type: str, traits: Mapping[str, int]) -> int:
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


def escape_total(white_total: int, adjacent_friends: int) -> int:
    """OS-FX-4: the escape check adds +2 per adjacent friendly character."""
    return white_total + 2 * adjacent_friends


def escape_cost(companion: bool) -> int:
    """OS-FX-4: 3 animus, 1 for a companion."""
    return 1 if companion else 3


def consumed_released(removed_hp: int, dice_left_at_location: int) -> bool:
    """OS-FX-13: released after 6 HP removed from the location, or when all its dice are broken."""
    return removed_hp >= 6 or dice_left_at_location == 0


# --- cooldowns (OS-CD) -------------------------------------------------------------------------

Positions = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]
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
    verified: bool = True  # checked against the printed card


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


def add_permanent(marks: dict[str, int], kind: str) -> dict[str, int]:
    """OS-LVL-9: at most 3 permanent tokens of each type."""
    if marks.get(kind, 0) >= PERMANENT_CAP:
        raise Rejected(f"already {PERMANENT_CAP} permanent {kind} tokens")
    return {**marks, kind: marks.get(kind, 0) + 1}


def check_hand(cooldowns: Sequence[int]) -> None:
    """OS-ESET-5 / OS-LVL-7: exactly 7 ability cards: one cd-0, two each of cd-1, cd-2, cd-3."""
    if len(cooldowns) != HAND_LIMIT:
        raise Rejected(f"a hand holds {HAND_LIMIT} ability cards, not {len(cooldowns)}")
    if sorted(cooldowns) != [0, 1, 1, 2, 2, 3, 3]:
        raise Rejected("a hand needs one cooldown-0 and two each of cooldown 1, 2 and 3")


def crippled_until(gained_round: int, gained_phase: str) -> int:
    """OS-STAT-3 (AMB-34): the round whose Oathsworn phase end removes the token: the next
    Oathsworn phase to finish (the following one when gained during an Oathsworn phase)."""
    if gained_phase in ("oathsworn", "encounter", "end"):
        return gained_round + 1
    return gained_round


def caged_until(round_no: int) -> int:
    """OS-FX-3/5: caged through the end of the following round."""
    return round_no + 1


def boss_die_loss(die: int, loss: int) -> tuple[int, bool]:
    """OS-DMG-5: (new die value, broken): a die that would go under 1 is removed, excess lost."""
    if loss >= die:
        return 0, True
    return die - loss, False


def large(hexes: int) -> bool:
    """OS-EMOVE-3: more than one hex = large."""
    return hexes > 1


def encounter_result(boss_dice_left: int, conscious_oathsworn: int) -> str | None:
    """OS-END-1: victory when no boss die is left (even if the company fell at the same time),
    defeat when every Oathsworn is unconscious."""
    if boss_dice_left == 0:
        return "victory"
    if conscious_oathsworn == 0:
        return "defeat"
    return None


HEX_DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
