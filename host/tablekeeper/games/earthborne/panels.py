"""What each station display shows for Earthborne Rangers (~21 characters x 5 lines)."""

from __future__ import annotations

import textwrap

from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.games.earthborne import challenge, engine, rules, tables

WIDTH = 21
LINES = 5


def gauge(value: int, threshold: int | None) -> str:
    """ER-TOKEN-2: "2/3" against a threshold, a bare count when the card has none."""
    return str(value) if threshold is None else f"{value}/{threshold}"


def card_line(state: GameState, key: str) -> str:
    record = tables.card(state, key)
    progress, harm = tables.tokens(state, key)
    p = gauge(progress, rules.threshold(record, "progress", state.seats))
    h = gauge(harm, rules.threshold(record, "harm", state.seats))
    mark = "" if record.get("ready", True) else "x"
    number = key.removeprefix("card")
    return f"{number}{mark} {record['name'][:8]} P{p} H{h}"[:WIDTH]


def _wrap(text: str, lines: int) -> tuple[str, ...]:
    return tuple(textwrap.wrap(text, WIDTH, max_lines=lines, placeholder=" .."))


def odds_panel(state: GameState, test: engine.OpenTest) -> Panel:
    """While a test waits for its challenge card: the exact odds and the deck data they come from."""
    chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
    source = challenge.deck_file(state)
    verify = source.endswith(" (verify)")
    name = source.removesuffix(" (verify)").rpartition("/")[2]
    lines = (f"Seat {test.seat} {test.aspect.upper()} {test.effort} vs {test.difficulty}", chance,
             f"deck {name}", "VERIFY: placeholder" if verify else "your deck data")
    return Panel("Odds", tuple(line[:WIDTH] for line in lines))


def panels(state: GameState, step_title: str) -> dict[str, Panel]:
    day = state.value("day")
    loc = tables.location(state)
    threshold = tables.location_threshold(state)
    loc_line = f"Loc {gauge(state.value('location.progress'), threshold)}" + (f" {loc['name']}" if loc else "")
    weather = state.get("weather") or ""
    ended = tables.day_end(state)
    status = step_title if ended is None else f"day end: {ended['reason']}"
    out = {"track": Panel(f"Day {day} Round {state.round}"[:WIDTH],
                          (status[:WIDTH], loc_line[:WIDTH], str(weather)[:WIDTH]))}
    if state.prompt is not None:
        options = tuple(f"{i}.{o}"[:WIDTH] for i, o in enumerate(state.prompt.options, 1))
        out["tokens"] = Panel(state.prompt.text[:WIDTH], (*_wrap(state.prompt.text, 2), *options)[:LINES])
    elif engine.awaiting(state):
        out["tokens"] = Panel("Resolve", _wrap(str(engine.awaiting(state)), LINES))
    elif (test := engine.current_test(state)) is not None and test.stage == "draw":
        out["tokens"] = odds_panel(state, test)
    else:
        lines = tuple(card_line(state, k) for k in tables.cards(state))
        if len(lines) > LINES:
            lines = (*lines[:LINES - 1], f"+{len(lines) - LINES + 1} more")
        out["tokens"] = Panel(f"Cards ({len(tables.cards(state))})", lines)
    test = engine.current_test(state)
    rested = tables.turns(state)["rested"]
    for seat in state.seat_numbers():
        s = f"seat{seat}"
        energy = " ".join(f"{a[:2].upper()}{state.value(f'{s}.{a}')}" for a in ("awa", "fit", "spi", "foc"))
        # a seat display shows two lines under its title: energy, then the counts "cannot draw" needs
        seat_lines = [energy, f"deck {state.value(f'{s}.deck')} hand {state.value(f'{s}.hand')}",
                      f"fat {state.value(f'{s}.fatigue')} inj {state.value(f'{s}.injury')}"]
        if test is not None and test.seat == seat and test.stage == "draw":
            chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
            percent = chance.split()[-1].strip("()")
            seat_lines.insert(1, f"{test.aspect.upper()} {test.effort} vs {test.difficulty}: {percent}")
        flag = "turn" if state.active_seat == seat else ("rested" if seat in rested else "")
        out[s] = Panel(f"Seat {seat} {flag}".strip(), tuple(line[:WIDTH] for line in seat_lines))
    return out
