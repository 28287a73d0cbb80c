"""What each station display shows for Earthborne Rangers, in plain words (the renderer wraps and pages)."""

from __future__ import annotations

from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel, Priority
from tablekeeper.games.earthborne import challenge, engine, rules, tables

ENERGY = (("awa", "Awareness"), ("fit", "Fitness"), ("spi", "Spirit"), ("foc", "Focus"))
ASPECT_NAMES = dict(ENERGY)
AREAS = {"reach": ", near seat {seat}", "player": ", seat {seat}'s area", "along": ""}  # along the way: nobody's


def gauge(value: int, threshold: int | None) -> str:
    """ER-TOKEN-2: "2/3" against a threshold, a bare count when the card has none."""
    return str(value) if threshold is None else f"{value}/{threshold}"


def card_line(state: GameState, key: str) -> str:
    """One card in play, by its full name and whose it is: the renderer wraps and pages, never cuts."""
    record = tables.card(state, key)
    progress, harm = tables.tokens(state, key)
    p = gauge(progress, rules.threshold(record, "progress", state.seats))
    h = gauge(harm, rules.threshold(record, "harm", state.seats))
    number = key.removeprefix("card")
    state_word = "" if record.get("ready", True) else " (exhausted)"
    area = str(record.get("area", "along"))
    where = AREAS.get(area, f", {area}").format(seat=record.get("seat"))
    return f"{number}. {record['name']}{state_word}{where}: progress {p}, harm {h}"


def odds_line(test: engine.OpenTest, percent: str) -> str:
    return f"{ASPECT_NAMES.get(test.aspect, test.aspect)} {test.effort} vs {test.difficulty}: {percent} to pass"


def odds_panel(state: GameState, test: engine.OpenTest) -> Panel:
    """While a test waits for its challenge card: the exact odds and the deck data they come from."""
    chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
    source = challenge.deck_file(state)
    verify = source.endswith(" (verify)")
    name = source.removesuffix(" (verify)").rpartition("/")[2]
    aspect = ASPECT_NAMES.get(test.aspect, test.aspect)
    return Panel.ranked("Odds", (
        (f"Seat {test.seat} tests {aspect}: effort {test.effort} vs difficulty {test.difficulty}", Priority.KEY),
        (f"chance to pass {chance}", Priority.KEY),
        (f"deck {name}", Priority.NORMAL),
        ("VERIFY: placeholder" if verify else "your deck data", Priority.NORMAL)))


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
        out["tokens"] = Panel.question("Question", state.prompt.text, options)
    elif engine.awaiting(state):
        out["tokens"] = Panel("Resolve", (str(engine.awaiting(state)),))
    elif (test := engine.current_test(state)) is not None and test.stage == "draw":
        out["tokens"] = odds_panel(state, test)
    else:
        lines = tuple(card_line(state, k) for k in tables.cards(state))  # the renderer pages a long list
        out["tokens"] = Panel(f"Cards in play ({len(lines)})" if lines else "No cards in play", lines)
    test = engine.current_test(state)
    rested = tables.turns(state)["rested"]
    for seat in state.seat_numbers():
        s = f"seat{seat}"
        energy = [f"{name} {state.value(f'{s}.{a}')}" for a, name in ENERGY]
        # most important first (a small seat display pages the rest): energy, the counts "cannot draw" needs
        seat_lines = [(f"{energy[0]} {energy[1]}", Priority.KEY), (f"{energy[2]} {energy[3]}", Priority.KEY),
                      (f"Deck {state.value(f'{s}.deck')} Hand {state.value(f'{s}.hand')}", Priority.NORMAL),
                      (f"Fatigue {state.value(f'{s}.fatigue')} Injury {state.value(f'{s}.injury')}", Priority.NORMAL)]
        if test is not None and test.seat == seat and test.stage == "draw":
            chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
            seat_lines.insert(0, (odds_line(test, chance.split()[-1].strip("()")), Priority.KEY))
        flag = "turn" if state.active_seat == seat else ("rested" if seat in rested else "")
        out[s] = Panel.ranked(f"Seat {seat} {flag}".strip(), tuple(seat_lines))
    return out
