"""What each station display shows for Earthborne Rangers, in plain words (the renderer wraps and pages)."""

from __future__ import annotations

from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.games.earthborne import challenge, engine, rules, tables

ENERGY = (("awa", "Awareness"), ("fit", "Fitness"), ("spi", "Spirit"), ("foc", "Focus"))


def gauge(value: int, threshold: int | None) -> str:
    """ER-TOKEN-2: "2/3" against a threshold, a bare count when the card has none."""
    return str(value) if threshold is None else f"{value}/{threshold}"


def card_line(state: GameState, key: str) -> str:
    record = tables.card(state, key)
    progress, harm = tables.tokens(state, key)
    p = gauge(progress, rules.threshold(record, "progress", state.seats))
    h = gauge(harm, rules.threshold(record, "harm", state.seats))
    number = key.removeprefix("card")
    state_word = "" if record.get("ready", True) else " (exhausted)"
    return f"{number}. {record['name']}{state_word}: progress {p}, harm {h}"


def odds_panel(state: GameState, test: engine.OpenTest) -> Panel:
    """While a test waits for its challenge card: the exact odds and the deck data they come from."""
    chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
    source = challenge.deck_file(state)
    verify = source.endswith(" (verify)")
    name = source.removesuffix(" (verify)").rpartition("/")[2]
    lines = (f"Seat {test.seat} {test.aspect.upper()} {test.effort} vs {test.difficulty}", chance,
             f"deck {name}", "VERIFY: placeholder" if verify else "your deck data")
    return Panel("Odds", tuple(lines))


def panels(state: GameState, step_title: str) -> dict[str, Panel]:
    day = state.value("day")
    loc = tables.location(state)
    threshold = tables.location_threshold(state)
    loc_line = f"Location {gauge(state.value('location.progress'), threshold)}" + (f" {loc['name']}" if loc else "")
    weather = state.get("weather") or ""
    ended = tables.day_end(state)
    status = step_title if ended is None else f"day end: {ended['reason']}"
    out = {"track": Panel(f"Day {day} Round {state.round}", (status, loc_line, f"Weather: {weather}"))}
    if state.prompt is not None:
        options = tuple(f"{i}. {o}" for i, o in enumerate(state.prompt.options, 1))
        out["tokens"] = Panel("Question", (state.prompt.text, *options))
    elif engine.awaiting(state):
        out["tokens"] = Panel("Resolve", (str(engine.awaiting(state)),))
    elif (test := engine.current_test(state)) is not None and test.stage == "draw":
        out["tokens"] = odds_panel(state, test)
    else:
        lines = tuple(card_line(state, k) for k in tables.cards(state))  # the renderer pages a long list
        out["tokens"] = Panel(f"Cards ({len(tables.cards(state))})", lines)
    test = engine.current_test(state)
    rested = tables.turns(state)["rested"]
    for seat in state.seat_numbers():
        s = f"seat{seat}"
        energy = [f"{name} {state.value(f'{s}.{a}')}" for a, name in ENERGY]
        # most important first (a small seat display pages the rest): energy, the counts "cannot draw" needs
        seat_lines = [f"{energy[0]} {energy[1]}", f"{energy[2]} {energy[3]}",
                      f"Deck {state.value(f'{s}.deck')} Hand {state.value(f'{s}.hand')}",
                      f"Fatigue {state.value(f'{s}.fatigue')} Injury {state.value(f'{s}.injury')}"]
        if test is not None and test.seat == seat and test.stage == "draw":
            chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
            percent = chance.split()[-1].strip("()")
            seat_lines.insert(0, f"{test.aspect.upper()} {test.effort} vs {test.difficulty}: {percent}")
        flag = "turn" if state.active_seat == seat else ("rested" if seat in rested else "")
        out[s] = Panel(f"Seat {seat} {flag}".strip(), tuple(seat_lines))
    return out
