"""What the station's displays show for Oathsworn (128x64 OLEDs: about 21 characters x 5 lines)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from tablekeeper.core.odds import percent, percent_figure
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.core.view import Panel, Priority
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.cards import parse_card
from tablekeeper.games.oathsworn.odds import AttackOdds
from tablekeeper.games.oathsworn.plan import (
    best_white,
    break_chance,
    check_chances,
    plan_checked,
    plan_inputs,
    plan_odds,
)
from tablekeeper.games.oathsworn.record import CheckDraw, Draw, Last, Plan, kind_of, rec
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_LABELS,
    UNCHECKED,
    UNCHECKED_LEGEND,
    animus_max_checked,
    data_of,
    defense_checked,
    encounter_of,
    has_figure,
    seat,
    stage_label,
)

if TYPE_CHECKING:
    from tablekeeper.core.game import Game


def _time_line(state: GameState) -> str:
    used = state.value("time.used")
    size = state.tracks["time.used"].hi or 0
    half = (size + 1) // 2
    cells = "".join("#" if i < used else "." for i in range(size))
    return f"{cells[:half]}|{cells[half:]}"[:21]


def panels(game: Game, state: GameState) -> dict[str, Panel]:
    company = rec(state)
    part = company.part
    out: dict[str, Panel] = {}
    if part == "story":
        track_checked = data_of(state).chapter(company.chapter).verified  # M12: the printed track's layout
        out["track"] = Panel.ranked(f"Chapter {company.chapter}: story", (
            (f"time used {state.value('time.used')} of {state.tracks['time.used'].hi}"
             f"{'' if track_checked else UNCHECKED}", Priority.KEY),
            (_time_line(state), Priority.DETAIL),  # the same count drawn as slots, where there is room
            (f"iron {state.value('iron')}", Priority.NORMAL),
            (f"knockouts {state.value('knockouts')}", Priority.NORMAL)),
            big=str(state.value("time.used")), legend=(("#", "a used time slot"), ("|", "top row | bottom row"),
                                                        *(() if track_checked else (UNCHECKED_LEGEND,))))
    else:
        step = game.flow.step(state.phase, state.step).title if state.step else ""
        boss = [f"{k[5:]} {v.value}" for k, v in state.tracks.items() if k.startswith("boss.")]
        faceup = company.stage_faceup
        named = faceup is not None and encounter_of(state).card(str(faceup)).name
        fight = encounter_of(state)
        out["track"] = Panel(f"Round {state.round}: {step}", (
            "boss dice: " + ", ".join(boss),
            f"stage {company.stage_now}" + (f"; up next {stage_label(state, faceup)}" if named else ""),
            fight.name + ("" if fight.verified else UNCHECKED)),
            legend=() if fight.verified else (UNCHECKED_LEGEND,))
    out["tokens"] = _tokens_panel(state)
    secret = company.secret is not None
    for n in SEATS:
        record = seat(state, n)
        name = record.ally or record.cls
        marker = ">" if state.active_seat == n else " "
        if secret:
            out[f"seat{n}"] = Panel(f"{marker}{name}", ("secret choice",), big="?")
            continue
        held = [f"{count} {TOKEN_LABELS[kind]}" for kind, count in record.tokens.items() if count]
        lines = ["knocked out"] if record.down and not record.ally else []
        checked = defense_checked(state, n)
        animus_checked = animus_max_checked(state, n)
        most = f"{record.max_animus}{'' if animus_checked else UNCHECKED}"
        lines += [f"animus {state.value(seat_track(n, 'animus'))} of {most}",
                  f"defense {state.value(seat_track(n, 'defense'))}{'' if checked else UNCHECKED}",
                  *held]  # tokens on a second page if need be
        out[f"seat{n}"] = Panel(f"{marker}{name} HP", tuple(lines), big=str(state.value(seat_track(n, "hp"))),
                                legend=() if checked and animus_checked else (UNCHECKED_LEGEND,))
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
    if rec(state).draws:
        return "A: resolve the draw"
    if rec(state).attacks_due and has_figure(state, n):  # the owed attack: its target answers
        return "A: hits me B: no one"
    if state.step == "turns" and state.active_seat == n:
        solo = rec(state).players == 1
        return "A: end turn B: " + ("all done" if solo else "pass")
    return None


def _tokens_panel(state: GameState) -> Panel:
    record = rec(state)
    owed = record.losses_due
    if owed:  # OS-TALLY-9: the list the table ticks off (lose SEAT ITEM)
        return Panel("items to lose", tuple(f"seat {n}: {k} item{'s' if k > 1 else ''}" for n, k in owed.items()))
    if state.prompt is not None:
        return Panel(state.prompt.text, tuple(f"{i}. {o}" for i, o in enumerate(state.prompt.options, 1)))
    draws = record.draws
    if draws:
        return _draw_panel(draws[0], len(draws))
    if record.attacks_due:  # a drawn stage or reaction card still owes its attack
        return Panel(f"{stage_label(state, record.attacks_due[0])} attacks",
                     ("its target: A", "no target: B"))
    if record.plan is not None:
        plan_panel = _plan_or_check_panel(state, record.plan)
        if plan_panel is not None:
            return plan_panel
    last = record.last
    return Panel("last draw", (_last_words(last),) if last else ("nothing drawn yet",))


LAST_WORDS = {"attack": "an attack", "check": "a check", "story": "a story fight attack", "enemy": "an enemy attack",
              "escape": "an escape check"}


def _last_words(last: Last) -> str:
    return LAST_WORDS.get(kind_of(last), kind_of(last))


def _plan_or_check_panel(state: GameState, plan: Plan) -> Panel | None:
    if plan.kind == "check":
        chances = check_chances(state)
        return _check_panel(plan, chances) if chances is not None else Panel("check odds", ("working them out",))
    if plan_inputs(state) is None:
        return None
    odds = plan_odds(state)
    best_white(state)  # asked now too, so both are worked out in the one pass after the frame
    if odds is None:
        return Panel("attack odds", ("working them out",))
    return _plan_panel(state, plan, odds)


def _check_panel(plan: Plan, chances: dict[int, Fraction]) -> Panel:
    """Pass chance per white count, four counts a line, and the best count in the title."""
    best = max(chances, key=lambda w: (chances[w], -w))
    cells = [f"{w}:{percent_figure(p, 0)}" for w, p in chances.items()]
    lines = tuple(" ".join(cells[i:i + 4]) for i in range(0, len(cells), 4))
    return Panel(f"check {plan.difficulty}: best {best} white", lines,
                 big=percent(chances[best], 0),
                 legend=(("2:40", "with 2 white cards: 40% to pass"),))


def _plan_panel(state: GameState, plan: Plan, odds: AttackOdds) -> Panel:
    """OS-ATK-6..14 at a glance: whose attack on what with how many whites (up/down change them),
    the hit chance and HP expected, the chance to break the location, damage if it hits, the best
    white count."""
    lines = ["chance to hit", f"{plan.white} white cards", f"about {float(odds.expected_hp):.1f} HP"]
    broken = break_chance(state, odds)
    if broken is not None:
        lines.append(f"breaks it {percent(broken, 0)}")
    if odds.damage:
        likely = max(odds.damage.items(), key=lambda kv: kv[1])
        lines.append(f"{likely[0]} damage if hit")
    best = best_white(state)
    lines.append("best: working" if best is None else f"best: {best[0]} white")
    checked = plan_checked(state)
    return Panel(f"seat {plan.seat} attacks {plan.target}", tuple(lines),
                 big=f"{percent(odds.hit, 0)}{'' if checked else UNCHECKED}",
                 legend=() if checked else (UNCHECKED_LEGEND,))


def _draw_panel(ctx: Draw, queued: int) -> Panel:
    """The open draw: whose, the cards (``+`` marks a critical's extra card), the running result."""
    drawn = [rules.Drawn(parse_card(c), extra) for c, extra in ctx.cards]
    who = "company" if ctx.seat is None else f"seat {ctx.seat}"
    cards = " ".join(c + ("+" if extra else "") for c, extra in ctx.cards)
    total, blanks = rules.total(drawn), rules.counted_blanks(drawn)
    if isinstance(ctx, CheckDraw):
        title = f"check {ctx.difficulty} {who}"
        verdict = "pass" if rules.check_passes(drawn, ctx.difficulty) else "fail"
    else:
        title = f"{who} vs {ctx.target}"
        damage = total + ctx.bonus
        lost = damage // max(1, ctx.defense)
        verdict = "miss" if blanks >= 2 else f"hit {damage}, -{lost} HP"
    lines = [cards, f"total {total}, blanks {blanks}: {verdict}"]
    if queued > 1:
        lines.append(f"{queued - 1} more waiting")
    return Panel(title, tuple(lines), big=str(total),
                 legend=(("W2", "white card showing 2"), ("+", "extra card from a critical"), ("0*", "a critical")))
