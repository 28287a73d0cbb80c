"""What the station's displays show for Oathsworn (128x64 OLEDs: about 21 characters x 5 lines)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tablekeeper.core.chance import Deck
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.cards import COLOUR_NAMES, apply_upgrades, parse_card
from tablekeeper.games.oathsworn.odds import AttackOdds, Pile, attack_odds, check_pass
from tablekeeper.games.oathsworn.table import SEATS, data_of, might_cubes, seat

if TYPE_CHECKING:
    from tablekeeper.core.game import Game


def current_piles(state: GameState, side: str = "might") -> dict[str, Pile]:
    """The odds' view of the decks as they are right now (draw and discard piles)."""
    piles = {}
    for letter, colour in COLOUR_NAMES.items():
        deck = state.sources[f"{side}.{colour}"]
        assert isinstance(deck, Deck)
        draw = {name[1:]: n for st in deck.stages for name, n in st.items}
        merged: dict[str, int] = {}
        for face, n in draw.items():
            merged[face] = merged.get(face, 0) + n
        discard = {name[1:]: n for name, n in deck.discard.items}
        piles[letter] = Pile.of(letter, merged, discard)
    return piles


def plan_odds(state: GameState) -> AttackOdds | None:
    """OS-ATK-6..14: exact odds of the planned attack from the current decks; HP lost is capped by
    the die left on the target (OS-DMG-5: excess damage is ignored). None when there is no plan or
    it no longer fits the table (a location broken since)."""
    plan = state.get("plan")
    if not plan or plan.get("kind") == "check":
        return None
    try:
        return _plan_odds(state, plan)
    except (Rejected, KeyError, TypeError, ValueError):  # a plan an older version saved
        return None


def _plan_odds(state: GameState, plan: Any, white: int | None = None) -> AttackOdds | None:
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
    whites = int(plan.get("white", 0)) if white is None else white
    colours = might_cubes(state, n, unarmed=bool(plan.get("unarmed"))) + ["W"] * whites
    if not colours:
        return None
    steps = int(plan.get("empower", 0))
    if steps:
        colours = apply_upgrades(colours, steps)  # steps beyond black are lost (OS-TOK-5)
    counts: dict[str, int] = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    piles = current_piles(state)
    return _odds(tuple(sorted(piles.items())), tuple(sorted(counts.items())), defense,
                 int(plan.get("redraws", 0)), int(plan.get("bonus", 0)), cap)


BEST_UP_TO = 10  # white counts the panel compares for the best one


def best_white(state: GameState) -> tuple[int, AttackOdds] | None:
    """The white count (0..10) with the most HP expected; more whites can lower the hit chance."""
    plan = state.get("plan")
    if not plan or plan.get("kind") == "check":
        return None
    best: tuple[int, AttackOdds] | None = None
    try:
        for white in range(BEST_UP_TO + 1):
            odds = _plan_odds(state, plan, white)
            if odds is not None and (best is None or odds.expected_hp > best[1].expected_hp):
                best = (white, odds)
    except (Rejected, KeyError, TypeError, ValueError):
        return None
    return best


def break_chance(state: GameState, odds: AttackOdds) -> Fraction | None:
    """The chance the planned attack removes the target location's die (None for a plain DEFENSE)."""
    target = str(state.get("plan")["target"])
    if target.isdigit():
        return None
    die = state.value(f"boss.{target}")
    return sum((p for lost, p in odds.hp_lost.items() if lost >= die), Fraction(0))


@lru_cache(maxsize=256)
def _odds(piles: tuple[tuple[str, Pile], ...], counts: tuple[tuple[str, int], ...], defense: int, redraws: int,
          bonus: int, cap: int | None) -> AttackOdds:
    """Every display redraw asks again; the answer only changes when a deck or the plan does."""
    return attack_odds(dict(piles), dict(counts), defense, redraws=redraws, bonus=bonus, hp_cap=cap)


def check_chances(state: GameState) -> dict[int, Fraction] | None:
    """OS-CHECK-2/3: the planned check's pass chance for 0..10 white cards, from the current deck."""
    plan = state.get("plan")
    if not plan or plan.get("kind") != "check":
        return None
    piles = current_piles(state)
    return {w: _check(piles["W"], w, int(plan["difficulty"]), int(plan.get("bonus", 0))) for w in range(11)}


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
        out["track"] = Panel(f"Ch{state.get('chapter')} story", (
            f"time {state.value('time.used')}/{state.tracks['time.used'].hi}", _time_line(state),
            f"iron {state.value('iron')} ko {state.value('knockouts')}"), big=str(state.value("time.used")))
    else:
        step = game.flow.step(state.phase, state.step).title if state.step else ""
        boss = " ".join(f"{k[5:9]}{v.value}" for k, v in state.tracks.items() if k.startswith("boss."))
        out["track"] = Panel(f"Round {state.round}", (step[:21], boss[:21], f"stage {state.get('stage_now')}"
                                                      f" up:{state.get('stage_faceup') or '-'}"[:21]))
    out["tokens"] = _tokens_panel(state)
    secret = bool(state.get("secret"))
    for n in SEATS:
        record = seat(state, n)
        name = record.ally or record.cls
        marker = ">" if state.active_seat == n else " "
        if secret:
            out[f"seat{n}"] = Panel(f"{marker}{name}"[:21], ("secret choice",), big="?")
            continue
        tokens = record.tokens
        status = "DOWN" if record.down and not record.ally else ""
        out[f"seat{n}"] = Panel(f"{marker}{name}"[:21], (
            f"an {state.value(f'seat{n}.animus')}/{state.value(f'seat{n}.animus_reserve')} "
            f"def {state.value(f'seat{n}.defense')}",
            f"rd{tokens['redraw']} em{tokens['empowered']} df{tokens['defense']}",
            status), big=str(state.value(f"seat{n}.hp")))
    return out


def _tokens_panel(state: GameState) -> Panel:
    owed = state.get("losses_due")
    if owed:  # OS-TALLY-9: the list the table ticks off (lose SEAT ITEM)
        return Panel("items to lose", tuple(f"seat {n}: {k} item{'s' if k > 1 else ''}" for n, k in owed.items()))
    if state.prompt is not None:
        return Panel(state.prompt.text[:21], tuple(f"{i}. {o}"[:21] for i, o in enumerate(state.prompt.options, 1)))
    draws = state.get("draws")
    if draws:
        return _draw_panel(draws[0], len(draws))
    chances = check_chances(state)
    if chances is not None:
        return _check_panel(state, chances)
    odds = plan_odds(state)
    if odds is not None:
        return _plan_panel(state, odds)
    last = state.get("last")
    return Panel("last", (str(last.get("kind")) if last else "-",))


def _check_panel(state: GameState, chances: dict[int, Fraction]) -> Panel:
    """Pass chance per white count, four counts a line, and the best count in the title."""
    best = max(chances, key=lambda w: (chances[w], -w))
    cells = [f"{w}:{float(p) * 100:.0f}" for w, p in chances.items()]
    lines = tuple(" ".join(cells[i:i + 4]) for i in range(0, len(cells), 4))
    return Panel(f"check {state.get('plan')['difficulty']} best w{best}"[:21], tuple(line[:21] for line in lines))


def _plan_panel(state: GameState, odds: AttackOdds) -> Panel:
    """OS-ATK-6..14 at a glance: whose attack on what with how many whites (up/down change them),
    the hit chance and HP expected, the chance to break the location, damage if it hits, the best
    white count."""
    plan = state.get("plan")
    title = f"S{plan['seat']}>{plan['target']} w{plan.get('white', 0)}"
    lines = [f"hit {float(odds.hit) * 100:.1f}% E{float(odds.expected_hp):.2f}HP"]
    broken = break_chance(state, odds)
    if broken is not None:
        lines.append(f"break {float(broken) * 100:.1f}%")
    if odds.damage:
        likely = max(odds.damage.items(), key=lambda kv: kv[1])
        lines.append(f"if hit {likely[0]}dmg {float(likely[1]) * 100:.0f}%")
    best = best_white(state)
    if best is not None:
        lines.append(f"best w{best[0]}: E{float(best[1].expected_hp):.2f}HP")
    return Panel(title[:21], tuple(line[:21] for line in lines))


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
        verdict = "miss" if blanks >= 2 else f"hit {damage} -{lost}HP"
    lines = [cards[:21], cards[21:42], f"{total} bl{blanks}: {verdict}"[:21]]
    if queued > 1:
        lines.append(f"{queued - 1} more waiting")
    return Panel(title[:21], tuple(line for line in lines if line))
