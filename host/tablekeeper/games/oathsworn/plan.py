"""A planned attack or check and its exact odds from the decks as they are now (OS-ATK-6..14,
OS-CHECK-2): the ``plan`` verb, the white-count track the up/down buttons change, and the odds every
display and the JSON view read."""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from msgspec.structs import replace

from tablekeeper.core import derived
from tablekeeper.core.chance import Deck
from tablekeeper.core.derived import Same
from tablekeeper.core.game import Txn
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn.args import Args, GameVerb, verb
from tablekeeper.games.oathsworn.cards import COLOUR_NAMES, apply_upgrades
from tablekeeper.games.oathsworn.odds import AttackOdds, Pile, attack_odds, check_pass
from tablekeeper.games.oathsworn.record import Plan, rec
from tablekeeper.games.oathsworn.table import broken, data_of, encounter_of, might_checked, might_cubes


def current_piles(state: GameState, side: str = "might") -> dict[str, Pile]:
    """The odds' view of the decks as they are right now (draw and discard piles)."""
    return dict(_piles(tuple(Same(state.sources[f"{side}.{colour}"]) for colour in COLOUR_NAMES.values())))


@lru_cache(maxsize=8)
def _piles(decks: tuple[Same, ...]) -> tuple[tuple[str, Pile], ...]:
    """By the deck objects themselves: a deck that changes is a new object."""
    piles = []
    for letter, same in zip(COLOUR_NAMES, decks, strict=True):
        deck = same.value
        assert isinstance(deck, Deck)
        merged: dict[str, int] = {}
        for st in deck.stages:
            for name, n in st.items:
                merged[name[1:]] = merged.get(name[1:], 0) + n
        discard = {name[1:]: n for name, n in deck.discard.items}
        piles.append((letter, Pile.of(letter, merged, discard)))
    return tuple(sorted(piles))


class PlanInputs(NamedTuple):
    """What a planned attack's odds depend on, whatever the white count (cheap to build: no odds)."""

    piles: tuple[tuple[str, Pile], ...]
    cubes: tuple[str, ...]  # the attacker's MIGHT cubes before the whites
    empower: int
    defense: int
    redraws: int
    bonus: int
    cap: int | None  # the HP left on the target location's die (OS-DMG-5)

    def counts(self, whites: int) -> tuple[tuple[str, int], ...] | None:
        colours = [*self.cubes, *(["W"] * whites)]
        if not colours:
            return None
        if self.empower:
            colours = apply_upgrades(colours, self.empower)  # steps beyond black are lost (OS-TOK-5)
        counts: dict[str, int] = {}
        for c in colours:
            counts[c] = counts.get(c, 0) + 1
        return tuple(sorted(counts.items()))

    def key(self, counts: tuple[tuple[str, int], ...]) -> OddsKey:
        return self.piles, counts, self.defense, self.redraws, self.bonus, self.cap

    def odds(self, whites: int) -> AttackOdds | None:
        counts = self.counts(whites)
        if counts is None:
            return None
        return _odds(self.key(counts))


def plan_odds(state: GameState) -> AttackOdds | None:
    """OS-ATK-6..14: exact odds of the planned attack from the current decks; HP lost is capped by
    the die left on the target (OS-DMG-5: excess damage is ignored). None when there is no plan or
    it no longer fits the table (a location broken since), and, while the station sends the frame
    answering a press, when the odds are not worked out yet (``derived`` computes them after it)."""
    inputs = plan_inputs(state)
    if inputs is None:
        return None
    plan = rec(state).plan
    whites = 0 if plan is None else plan.white
    counts = inputs.counts(whites)
    known = None if counts is None else _KNOWN_ODDS.get(inputs.key(counts))
    if known is not None:  # worked out already (the best-count search tries every count): no second frame
        return known
    return derived.get(("oathsworn.odds", inputs, whites), lambda: inputs.odds(whites), placeholder=None)


def plan_inputs(state: GameState) -> PlanInputs | None:
    """None when there is no attack plan or it no longer fits the table (no cube and no white,
    a broken or unknown target)."""
    if _LAST_INPUTS and _LAST_INPUTS[0][0] is state:  # one frame asks several times
        return _LAST_INPUTS[0][1]
    inputs = _checked_inputs(state)
    _LAST_INPUTS[:] = [(state, inputs)]
    return inputs


_LAST_INPUTS: list[tuple[GameState, PlanInputs | None]] = []  # the state of the frame being drawn


def _checked_inputs(state: GameState) -> PlanInputs | None:
    plan = rec(state).plan
    if plan is None or plan.kind == "check":
        return None
    try:
        inputs = _plan_inputs(state, plan)
        if inputs is None or inputs.counts(plan.white) is None:
            return None
    except (Rejected, KeyError):  # a plan an older version saved
        return None
    return inputs


def _plan_inputs(state: GameState, plan: Plan) -> PlanInputs | None:
    n = plan.seat
    target = plan.target
    cap: int | None = None
    if is_number(target, signed=False):
        defense = int(target)
    else:
        locations = dict(encounter_of(state).boss)
        if target not in locations or broken(state, target):
            return None
        defense, cap = locations[target], state.value(f"boss.{target}")
    cubes = tuple(might_cubes(state, n, unarmed=bool(plan.unarmed)))
    return PlanInputs(tuple(sorted(current_piles(state).items())), cubes, plan.empower, defense, plan.redraws,
                      plan.bonus, cap)


BEST_UP_TO = 10  # white counts the panel compares for the best one


def best_white(state: GameState) -> tuple[int, AttackOdds] | None:
    """The white count (0..10) with the most HP expected; more whites can lower the hit chance.
    Eleven exact odds: worked out after the frame answering a press, like the plan's own odds."""
    inputs = plan_inputs(state)
    if inputs is None:
        return None

    def compute() -> tuple[int, AttackOdds] | None:
        best: tuple[int, AttackOdds] | None = None
        for white in range(BEST_UP_TO + 1):
            odds = inputs.odds(white)
            if odds is not None and (best is None or odds.expected_hp > best[1].expected_hp):
                best = (white, odds)
        return best

    return derived.get(("oathsworn.best", inputs), compute, placeholder=None)


def break_chance(state: GameState, odds: AttackOdds) -> Fraction | None:
    """The chance the planned attack removes the target location's die (None for a plain DEFENSE)."""
    plan = rec(state).plan
    target = "" if plan is None else plan.target
    if is_number(target, signed=False):
        return None
    die = state.value(f"boss.{target}")
    return sum((p for lost, p in odds.hp_lost.items() if lost >= die), Fraction(0))


OddsKey = tuple[tuple[tuple[str, Pile], ...], tuple[tuple[str, int], ...], int, int, int, int | None]
_KNOWN_ODDS: OrderedDict[OddsKey, AttackOdds] = OrderedDict()
KNOWN_ODDS_MAX = 256


def _odds(key: OddsKey) -> AttackOdds:
    """The best-count search and the plan's own count share these (one deck state, many counts)."""
    known = _KNOWN_ODDS.get(key)
    if known is None:
        piles, counts, defense, redraws, bonus, cap = key
        known = attack_odds(dict(piles), dict(counts), defense, redraws=redraws, bonus=bonus, hp_cap=cap)
        _KNOWN_ODDS[key] = known
        while len(_KNOWN_ODDS) > KNOWN_ODDS_MAX:
            _KNOWN_ODDS.popitem(last=False)
    _KNOWN_ODDS.move_to_end(key)
    return known


def check_chances(state: GameState) -> dict[int, Fraction] | None:
    """OS-CHECK-2/3: the planned check's pass chance for 0..10 white cards, from the current deck
    (None while the station is still sending the frame that answers a press)."""
    plan = rec(state).plan
    if plan is None or plan.kind != "check":
        return None
    pile = current_piles(state)["W"]
    difficulty, bonus = plan.difficulty, plan.bonus
    return derived.get(("oathsworn.check", pile, difficulty, bonus),
                     lambda: {w: _check(pile, w, difficulty, bonus) for w in range(11)}, placeholder=None)


@lru_cache(maxsize=512)
def _check(pile: Pile, whites: int, difficulty: int, bonus: int) -> Fraction:
    return check_pass({"W": pile}, whites, difficulty, bonus)


def plan_checked(state: GameState) -> bool:
    """Whether every number the planned attack's odds use was checked: the decks, the attacker's
    MIGHT and the target's DEFENSE (a location's comes from the encounter data)."""
    plan = rec(state).plan
    if plan is None or plan.kind == "check":
        return "might" not in data_of(state).unverified
    target = plan.target
    return might_checked(state, plan.seat) and (is_number(target, signed=False) or encounter_of(state).verified)


def plan_odds_json(state: GameState) -> dict[str, Any] | None:
    chances = check_chances(state)
    plan = rec(state).plan
    if chances is not None and plan is not None:
        return {"kind": "check", "difficulty": plan.difficulty, "bonus": plan.bonus,
                "pass": {str(w): str(p) for w, p in chances.items()},
                "best_white": max(chances, key=lambda w: (chances[w], -w)), "verified": plan_checked(state)}
    odds = plan_odds(state)
    if odds is None or plan is None:
        return None
    best = best_white(state)
    broken = break_chance(state, odds)
    return {"kind": "attack", "seat": plan.seat, "target": plan.target, "white": plan.white,
            "hit": str(odds.hit), "hit_percent": round(float(odds.hit) * 100, 2),
            "expected_hp": str(odds.expected_hp),
            "damage_if_hit": {str(k): str(v) for k, v in odds.damage.items()},
            "hp_lost": {str(k): str(v) for k, v in odds.hp_lost.items()},
            "break": None if broken is None else str(broken),
            "best_white": None if best is None else best[0], "verified": plan_checked(state)}


# --- the plan verb ---------------------------------------------------------------------------------

def drop_plan(txn: Txn) -> None:
    """The plan is gone (cleared, or its attack is being made): no odds, no white-count track."""
    if rec(txn.state).plan is not None:
        txn.put("plan", None)
    if "plan.white" in txn.state.tracks:
        txn.drop("plan.white")


def plan_white_changed(txn: Txn, white: int) -> None:
    """The up/down buttons moved the white-count track: the plan follows."""
    plan = rec(txn.state).plan
    if plan is not None and plan.white != white:
        txn.put("plan", replace(plan, white=white))


PLAN_LIMITS = {"white": 20, "empower": 30, "redraws": 5, "bonus": 50}


def plan(txn: Txn, a: Args) -> None:
    """``plan SEAT TARGET [white=N] [empower=N] [redraws=N] [unarmed]``: the attack the display
    shows exact odds for; ``plan check DIFFICULTY [bonus=N]`` a check's pass chance for every white
    count 0..10 (OS-CHECK-2: choosing the count is the decision); ``plan off`` clears it."""
    if a.has("off"):
        drop_plan(txn)
        return
    if a.has("check"):
        difficulty, bonus = a.num("DIFFICULTY"), a.num("bonus", 0)
        if not 1 <= difficulty <= 60 or not 0 <= bonus <= 20:
            raise Rejected("a check's difficulty goes from 1 to 60, its bonus from 0 to 20")
        drop_plan(txn)
        txn.put("plan", Plan(kind="check", difficulty=difficulty, bonus=bonus))
        return
    n, target = a.num("SEAT"), a.word("TARGET")
    locations = dict(encounter_of(txn.state).boss)
    if not is_number(target, signed=False) and target not in locations:
        raise Rejected(f"target is a DEFENSE number or a boss location, not {target!r}")
    if is_number(target, signed=False) and int(target) < 1:
        raise Rejected("DEFENSE is at least 1")
    if not is_number(target, signed=False) and broken(txn.state, target):
        raise Rejected(f"{target} is broken; plan against a location with a die (OS-DMG-6)")
    numbers = {key: a.num(key) for key in PLAN_LIMITS if a.has(key)}
    for key, value in numbers.items():
        if not 0 <= value <= PLAN_LIMITS[key]:
            raise Rejected(f"plan {key} goes from 0 to {PLAN_LIMITS[key]}, not {value}")
    if a.flag("unarmed"):
        numbers["unarmed"] = 1
    txn.put("plan", Plan(seat=n, target=target, white=numbers.get("white", 0), empower=numbers.get("empower", 0),
                         redraws=numbers.get("redraws", 0), bonus=numbers.get("bonus", 0),
                         unarmed=numbers.get("unarmed", 0)))  # an attack plan replaces a check plan
    white = numbers.get("white", 0)
    if "plan.white" in txn.state.tracks:
        txn.set("plan.white", white)
    else:  # the up/down buttons change the planned white count (OS-SCOMBAT-2: 0 to 10 matter)
        txn.define("plan.white", white, 0, PLAN_LIMITS["white"])
    if plan_inputs(txn.state) is None:
        raise Rejected("no odds for this plan: the seat cannot attack that way")


VERBS: dict[str, GameVerb] = {"plan": verb(
    "plan off | plan check DIFFICULTY [bonus=N] | plan SEAT TARGET [white=N] [empower=N] [redraws=N] [bonus=N] "
    "[unarmed]", "show exact attack or check odds", plan, in_fight=True)}
