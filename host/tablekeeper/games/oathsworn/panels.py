"""What the station's displays show for Oathsworn (128x64 OLEDs: about 21 characters x 5 lines)."""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from tablekeeper.core.chance import Deck
from tablekeeper.core.derived import VIEWS, Same
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel, Priority
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.cards import COLOUR_NAMES, apply_upgrades, parse_card
from tablekeeper.games.oathsworn.odds import AttackOdds, Pile, attack_odds, check_pass
from tablekeeper.games.oathsworn.table import SEATS, TOKEN_LABELS, data_of, might_cubes, seat

if TYPE_CHECKING:
    from tablekeeper.core.game import Game


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
    answering a press, when the odds are not worked out yet (``VIEWS`` computes them after it)."""
    inputs = plan_inputs(state)
    if inputs is None:
        return None
    whites = int(state.get("plan").get("white", 0))
    counts = inputs.counts(whites)
    known = None if counts is None else _KNOWN_ODDS.get(inputs.key(counts))
    if known is not None:  # worked out already (the best-count search tries every count): no second frame
        return known
    return VIEWS.get(("oathsworn.odds", inputs, whites), lambda: inputs.odds(whites), placeholder=None)


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
    plan = state.get("plan")
    if not plan or plan.get("kind") == "check":
        return None
    try:
        inputs = _plan_inputs(state, plan)
        if inputs is None or inputs.counts(int(plan.get("white", 0))) is None:
            return None
    except (Rejected, KeyError, TypeError, ValueError):  # a plan an older version saved
        return None
    return inputs


def _plan_inputs(state: GameState, plan: Any) -> PlanInputs | None:
    n = int(plan["seat"])
    target = str(plan["target"])
    cap: int | None = None
    if target.isdigit():
        defense = int(target)
    else:
        locations = dict(data_of(state).boss)
        if target not in locations or state.value(f"boss.{target}") == 0:
            return None
        defense, cap = locations[target], state.value(f"boss.{target}")
    cubes = tuple(might_cubes(state, n, unarmed=bool(plan.get("unarmed"))))
    return PlanInputs(tuple(sorted(current_piles(state).items())), cubes, int(plan.get("empower", 0)), defense,
                      int(plan.get("redraws", 0)), int(plan.get("bonus", 0)), cap)


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

    return VIEWS.get(("oathsworn.best", inputs), compute, placeholder=None)


def break_chance(state: GameState, odds: AttackOdds) -> Fraction | None:
    """The chance the planned attack removes the target location's die (None for a plain DEFENSE)."""
    target = str(state.get("plan")["target"])
    if target.isdigit():
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
    plan = state.get("plan")
    if not plan or plan.get("kind") != "check":
        return None
    pile = current_piles(state)["W"]
    difficulty, bonus = int(plan["difficulty"]), int(plan.get("bonus", 0))
    return VIEWS.get(("oathsworn.check", pile, difficulty, bonus),
                     lambda: {w: _check(pile, w, difficulty, bonus) for w in range(11)}, placeholder=None)


@lru_cache(maxsize=512)
def _check(pile: Pile, whites: int, difficulty: int, bonus: int) -> Fraction:
    return check_pass({"W": pile}, whites, difficulty, bonus)


def plan_odds_json(state: GameState) -> dict[str, Any] | None:
    chances = check_chances(state)
    if chances is not None:
        plan = state.get("plan")
        return {"kind": "check", "difficulty": int(plan["difficulty"]), "bonus": int(plan.get("bonus", 0)),
                "pass": {str(w): str(p) for w, p in chances.items()},
                "best_white": max(chances, key=lambda w: (chances[w], -w))}
    odds = plan_odds(state)
    if odds is None:
        return None
    plan = state.get("plan")
    best = best_white(state)
    broken = break_chance(state, odds)
    return {"kind": "attack", "seat": int(plan["seat"]), "target": str(plan["target"]),
            "white": int(plan.get("white", 0)),
            "hit": str(odds.hit), "hit_percent": round(float(odds.hit) * 100, 2),
            "expected_hp": str(odds.expected_hp),
            "damage_if_hit": {str(k): str(v) for k, v in odds.damage.items()},
            "hp_lost": {str(k): str(v) for k, v in odds.hp_lost.items()},
            "break": None if broken is None else str(broken),
            "best_white": None if best is None else best[0]}


def _time_line(state: GameState) -> str:
    used = state.value("time.used")
    size = state.tracks["time.used"].hi or 0
    half = (size + 1) // 2
    cells = "".join("#" if i < used else "." for i in range(size))
    return f"{cells[:half]}|{cells[half:]}"[:21]


def panels(game: Game, state: GameState) -> dict[str, Panel]:
    part = str(state.get("part"))
    out: dict[str, Panel] = {}
    if part == "story":
        out["track"] = Panel.ranked(f"Chapter {state.get('chapter')}: story", (
            (f"time used {state.value('time.used')} of {state.tracks['time.used'].hi}", Priority.KEY),
            (_time_line(state), Priority.DETAIL),  # the same count drawn as slots, where there is room
            (f"iron {state.value('iron')}", Priority.NORMAL),
            (f"knockouts {state.value('knockouts')}", Priority.NORMAL)),
            big=str(state.value("time.used")), legend=(("#", "a used time slot"), ("|", "top row | bottom row")))
    else:
        step = game.flow.step(state.phase, state.step).title if state.step else ""
        boss = [f"{k[5:]} {v.value}" for k, v in state.tracks.items() if k.startswith("boss.")]
        faceup = state.get("stage_faceup")
        out["track"] = Panel(f"Round {state.round}: {step}", (
            "boss dice: " + ", ".join(boss),
            f"stage {state.get('stage_now')}" + (f"; up next {faceup}" if faceup else "")))
    out["tokens"] = _tokens_panel(state)
    secret = bool(state.get("secret"))
    for n in SEATS:
        record = seat(state, n)
        name = record.ally or record.cls
        marker = ">" if state.active_seat == n else " "
        if secret:
            out[f"seat{n}"] = Panel(f"{marker}{name}", ("secret choice",), big="?")
            continue
        held = [f"{count} {TOKEN_LABELS[kind]}" for kind, count in record.tokens.items() if count]
        lines = ["knocked out"] if record.down and not record.ally else []
        lines += [f"animus {state.value(f'seat{n}.animus')} of {record.max_animus}",
                  f"defense {state.value(f'seat{n}.defense')}", *held]  # tokens on a second page if need be
        out[f"seat{n}"] = Panel(f"{marker}{name} HP", tuple(lines), big=str(state.value(f"seat{n}.hp")))
    return out


def legend(state: GameState, n: int) -> str | None:
    """What seat n's A and B do now: A is "done" (end the turn, resolve, the first answer), B the
    second choice (pass for the round, the second answer)."""
    prompt = state.prompt
    if prompt is not None:
        if prompt.seat != n:
            return None
        second = f" B: {prompt.options[1]}" if len(prompt.options) > 1 else ""
        return f"A: {prompt.options[0]}{second}"
    if state.get("draws"):
        return "A: resolve the draw"
    if state.step == "turns" and state.active_seat == n:
        solo = int(state.get("players") or 0) == 1
        return "A: end turn B: " + ("all done" if solo else "pass")
    return None


def _tokens_panel(state: GameState) -> Panel:
    owed = state.get("losses_due")
    if owed:  # OS-TALLY-9: the list the table ticks off (lose SEAT ITEM)
        return Panel("items to lose", tuple(f"seat {n}: {k} item{'s' if k > 1 else ''}" for n, k in owed.items()))
    if state.prompt is not None:
        return Panel(state.prompt.text, tuple(f"{i}. {o}" for i, o in enumerate(state.prompt.options, 1)))
    draws = state.get("draws")
    if draws:
        return _draw_panel(draws[0], len(draws))
    if state.get("plan"):
        plan_panel = _plan_or_check_panel(state)
        if plan_panel is not None:
            return plan_panel
    last = state.get("last")
    return Panel("last draw", (_last_words(last),) if last else ("nothing drawn yet",))


LAST_WORDS = {"attack": "an attack", "check": "a check", "story": "a story fight attack", "enemy": "an enemy attack",
              "escape": "an escape check"}


def _last_words(last: Any) -> str:
    return LAST_WORDS.get(str(last.get("kind")), str(last.get("kind")))


def _plan_or_check_panel(state: GameState) -> Panel | None:
    if state.get("plan").get("kind") == "check":
        chances = check_chances(state)
        return _check_panel(state, chances) if chances is not None else Panel("check odds", ("working them out",))
    if plan_inputs(state) is None:
        return None
    odds = plan_odds(state)
    best_white(state)  # asked now too, so both are worked out in the one pass after the frame
    if odds is None:
        return Panel("attack odds", ("working them out",))
    return _plan_panel(state, odds)


def _check_panel(state: GameState, chances: dict[int, Fraction]) -> Panel:
    """Pass chance per white count, four counts a line, and the best count in the title."""
    best = max(chances, key=lambda w: (chances[w], -w))
    cells = [f"{w}:{float(p) * 100:.0f}" for w, p in chances.items()]
    lines = tuple(" ".join(cells[i:i + 4]) for i in range(0, len(cells), 4))
    return Panel(f"check {state.get('plan')['difficulty']}: best {best} white", lines,
                 big=f"{float(chances[best]) * 100:.0f}%",
                 legend=(("2:40", "with 2 white cards: 40% to pass"),))


def _plan_panel(state: GameState, odds: AttackOdds) -> Panel:
    """OS-ATK-6..14 at a glance: whose attack on what with how many whites (up/down change them),
    the hit chance and HP expected, the chance to break the location, damage if it hits, the best
    white count."""
    plan = state.get("plan")
    lines = ["chance to hit", f"{plan.get('white', 0)} white cards", f"about {float(odds.expected_hp):.1f} HP"]
    broken = break_chance(state, odds)
    if broken is not None:
        lines.append(f"breaks it {float(broken) * 100:.0f}%")
    if odds.damage:
        likely = max(odds.damage.items(), key=lambda kv: kv[1])
        lines.append(f"{likely[0]} damage if hit")
    best = best_white(state)
    lines.append("best: working" if best is None else f"best: {best[0]} white")
    return Panel(f"seat {plan['seat']} attacks {plan['target']}", tuple(lines), big=f"{float(odds.hit) * 100:.0f}%")


def _draw_panel(ctx: Any, queued: int) -> Panel:
    """The open draw: whose, the cards (``+`` marks a critical's extra card), the running result."""
    drawn = [rules.Drawn(parse_card(str(c)), bool(extra)) for c, extra in ctx["cards"]]
    who = "company" if ctx["seat"] is None else f"seat {ctx['seat']}"
    cards = " ".join(str(c) + ("+" if extra else "") for c, extra in ctx["cards"])
    total, blanks = rules.total(drawn), rules.counted_blanks(drawn)
    if ctx["kind"] == "check":
        title = f"check {ctx['difficulty']} {who}"
        verdict = "pass" if rules.check_passes(drawn, int(ctx["difficulty"])) else "fail"
    else:
        title = f"{who} vs {ctx['target']}"
        damage = total + int(ctx.get("bonus", 0))
        lost = damage // max(1, int(ctx["defense"]))
        verdict = "miss" if blanks >= 2 else f"hit {damage}, -{lost} HP"
    lines = [cards, f"total {total}, blanks {blanks}: {verdict}"]
    if queued > 1:
        lines.append(f"{queued - 1} more waiting")
    return Panel(title, tuple(lines), big=str(total),
                 legend=(("W2", "white card showing 2"), ("+", "extra card from a critical"), ("0*", "a critical")))
