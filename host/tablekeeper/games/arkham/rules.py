"""Pure rule functions of Arkham Horror: The Card Game, each naming its catalogue ID.

They take plain values, so tests and the odds code use them without a session.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import msgspec

from tablekeeper.errors import Rejected

ACTIONS_PER_TURN = 3  # AH-ACTION-1
HAND_LIMIT = 8  # 4.5 (outside the seeds)
SKILLS = ("willpower", "intellect", "combat", "agility")
# AH-AOO-1 / AH-AOO-9: actions that do not provoke attacks of opportunity.
NON_PROVOKING = frozenset({"fight", "evade", "parley", "resign"})
ACTION_KINDS = ("investigate", "move", "draw", "resource", "play", "activate", "fight", "engage", "evade",
                "parley", "resign", "other")


# AH-PREY-1: how a prey instruction reads ("highest combat", "fewest cards in hand"): its first word
# says which end of the measure it wants, the rest what it measures.
PREY_ENDS = {"highest": 1, "most": 1, "lowest": -1, "fewest": -1}
PREY_MEASURES = (*SKILLS, "clues", "remaining health", "remaining sanity", "cards in hand")


def prey_instruction(prey: str | None) -> tuple[int, str] | None:
    """AH-PREY-1: an instruction as (+1 for the most, -1 for the fewest; what it measures), or None
    when the box cannot weigh it (none printed, or a measure it does not track)."""
    end, _, measure = (prey or "").strip().lower().partition(" ")
    if end not in PREY_ENDS or measure not in PREY_MEASURES:
        return None
    return PREY_ENDS[end], measure


def prey_picks(end: int, values: Mapping[int, int]) -> tuple[int, ...]:
    """AH-PREY-1: the candidates the instruction leaves: those tied at its end of the measure."""
    best = max(value * end for value in values.values())
    return tuple(seat for seat, value in values.items() if value * end == best)


def per_investigator(amount: int, per_inv: bool, investigators: int) -> int:
    """AH-ACTAG-3 / AH-ACTAG-6: a per-investigator value is multiplied by the investigator count."""
    return amount * investigators if per_inv else amount


def doom_in_play(agenda_doom: int, other_doom: int) -> int:
    """AH-DOOM-3: doom on the agenda and on every other card in play counts."""
    return agenda_doom + other_doom


def agenda_advances(agenda_doom: int, other_doom: int, threshold: int, objective: bool) -> bool:
    """AH-DOOM-4 / AH-ACTAG-6: at the check step, doom in play reaching the threshold advances an agenda
    without an Objective (ambiguity 12: "reaching" read as >=)."""
    return not objective and doom_in_play(agenda_doom, other_doom) >= threshold


def group_spend(holdings: Mapping[int, int], spend: Mapping[int, int], required: int) -> None:
    """AH-ACTAG-4 / AH-COST-8: a group cost split in any proportion; each pays only from their own
    clues (AH-COST-5); the split must pay exactly the requirement (ambiguity 13)."""
    for seat, n in spend.items():
        if n < 0:
            raise Rejected(f"seat {seat} cannot spend a negative amount")
        if n > holdings.get(seat, 0):
            raise Rejected(f"seat {seat} holds {holdings.get(seat, 0)}, cannot spend {n}")
    total = sum(spend.values())
    if total != required:
        have = sum(holdings.values())
        if total < required:
            raise Rejected(f"{total} offered, {required} needed (the group holds {have})")
        raise Rejected(f"{total} offered, spend exactly {required}")


class Defeat(msgspec.Struct, frozen=True):
    """Why an investigator was defeated and the trauma that follows in campaign play."""

    cause: str  # "damage" | "horror" | "both" | "ability" | "resign"
    physical: int = 0
    mental: int = 0


def defeat_cause(damage: int, health: int, horror: int, sanity: int) -> str | None:
    """AH-DEFEAT-1 / AH-DMG-9: damage >= health or horror >= sanity defeats."""
    by_damage, by_horror = damage >= health, horror >= sanity
    if by_damage and by_horror:
        return "both"
    if by_damage:
        return "damage"
    if by_horror:
        return "horror"
    return None


def trauma_for(cause: str, choice: str | None = None) -> Defeat:
    """AH-TRAUMA-2/4/5, AH-CAMPDEF-1, AH-DEFEAT-2: one physical trauma for damage, one mental for
    horror, the player's pick of one when both, none for a card ability or resignation."""
    if cause == "damage":
        return Defeat(cause, physical=1)
    if cause == "horror":
        return Defeat(cause, mental=1)
    if cause == "both":
        if choice not in ("physical", "mental"):
            raise Rejected("defeated by damage and horror at once: choose physical or mental trauma")
        return Defeat(cause, physical=int(choice == "physical"), mental=int(choice == "mental"))
    return Defeat(cause)


def killed_or_insane(physical: int, mental: int, printed_health: int, printed_sanity: int) -> str | None:
    """AH-TRAUMA-3/4: trauma reaching the printed value kills or drives insane (ambiguity 11: >=)."""
    if physical >= printed_health:
        return "killed"
    if mental >= printed_sanity:
        return "insane"
    return None


class TestResult(msgspec.Struct, frozen=True):
    modified_skill: int
    difficulty: int
    success: bool
    autofail: bool
    autosuccess: bool


def skill_test_result(skill: int, modifier: int, difficulty: int, *, autofail: bool = False,
                      autosuccess: bool = False) -> TestResult:
    """ST.5/ST.6: modified skill (never below 0) against the difficulty (AH-DIFF-1: equal succeeds).

    AH-AUTO-2: automatic failure treats the skill as 0; AH-AUTO-3: automatic success treats the
    difficulty as 0. Ambiguity 10: an automatic failure always fails, even against difficulty 0.
    """
    modified = 0 if autofail else max(0, skill + modifier)
    target = 0 if autosuccess and not autofail else difficulty
    success = not autofail and passes(skill, modifier, target)
    return TestResult(modified, target, success, autofail, autosuccess)


def passes(skill: int, modifier: int, difficulty: int) -> bool:
    """ST.5/ST.6 without automatic results: the modified skill, never below 0, meets the difficulty."""
    return max(0, skill + modifier) >= difficulty


_SPEC = re.compile(r"^\s*([A-Za-z]+)\s*\(\s*([0-9]{1,4})\s*\)\s*$")  # [0-9]: \d is any script's digits


def parse_test_spec(text: str) -> tuple[str, int]:
    """AH-DIFF-2: a card-made test written "Willpower (4)" tests willpower against 4."""
    m = _SPEC.match(text)
    if not m or m.group(1).lower() not in SKILLS:
        raise Rejected(f"expected a test like 'Willpower (4)', not {text!r}")
    return m.group(1).lower(), int(m.group(2))


def xp_cost(level: int, *, exceptional: bool = False, upgrade_from: int | None = None) -> int:
    """AH-XP-3 (level, minimum 1), AH-XP-7 (upgrade pays the difference, minimum 1),
    AH-EXCEPT-1 (exceptional doubles the printed cost; ambiguity 16: doubling before the minimum)."""
    if level < 0 or (upgrade_from is not None and not 0 <= upgrade_from < level):
        raise Rejected("an upgrade goes from a lower level to a higher one")
    cost = level - (upgrade_from or 0)
    if exceptional:
        cost *= 2
    return max(1, cost)


def xp_earned(victory: Iterable[int], resolution_bonus: int) -> int:
    """AH-XP-2: victory points in the victory display plus the resolution's adjustment (not below 0)."""
    return max(0, sum(victory) + resolution_bonus)


def reference_side_label(side: str) -> str:
    return "Easy/Standard" if side == "easy_standard" else "Hard/Expert"
