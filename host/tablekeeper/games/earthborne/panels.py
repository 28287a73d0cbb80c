"""What each station display shows for Earthborne Rangers, in plain words (the renderer wraps and pages)."""

from __future__ import annotations

from tablekeeper.core.odds import percent
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel, Priority
from tablekeeper.games.earthborne import challenge, engine, rules, tables, tracker
from tablekeeper.games.earthborne.frames import OpenTest
from tablekeeper.games.earthborne.record import rec

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
    state_word = "" if record.ready else " (exhausted)"
    where = AREAS.get(record.area, f", {record.area}").format(seat=record.seat)
    checked = "" if record.verified else " (unverified numbers)"
    return f"{number}. {record.name}{state_word}{where}: progress {p}, harm {h}{checked}"


def odds_line(test: OpenTest, percent: str) -> str:
    return f"{ASPECT_NAMES.get(test.aspect, test.aspect)} {test.effort} vs {test.difficulty}: {percent} to pass"


def odds_panel(state: GameState, test: OpenTest) -> Panel:
    """While a test waits for its challenge card: the exact odds and the deck data they come from."""
    chance = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
    verified = challenge.deck_verified(state)
    name = tables.cfg(state).challenge_deck.name or "challenge deck"
    aspect = ASPECT_NAMES.get(test.aspect, test.aspect)
    return Panel.ranked("Odds", (
        (f"Seat {test.seat} tests {aspect}: effort {test.effort} vs difficulty {test.difficulty}", Priority.KEY),
        (f"chance to pass {chance.removesuffix(challenge.UNVERIFIED)}", Priority.KEY),
        (name, Priority.NORMAL),
        ("checked card by card" if verified else "UNVERIFIED deck: odds from an unverified deck",
         Priority.KEY if not verified else Priority.NORMAL)))


def first_step(state: GameState) -> str | None:
    """ER-SETUP-1: what the table does before the round's path cards can be drawn (the location, its
    threshold, the path deck), in place of the step's title; None when nothing comes first."""
    if state.phase != "path":
        return None
    loc = tables.location(state)
    if loc is None:
        return "Place the location: location NAME"
    if not loc.rtoken_clear and tables.location_threshold(state) is None:
        return f"Give {loc.name}'s threshold"
    if not rec(state).path_built:
        return "Build the path deck: pathdeck"
    return None


def panels(state: GameState, step_title: str) -> dict[str, Panel]:
    day = state.value("day")
    loc = tables.location(state)
    threshold = tables.location_threshold(state)
    if loc is not None and loc.rtoken_clear:
        gauge_text = f"Location tokens {len(loc.rtokens)}/{state.seats}"
    else:
        gauge_text = f"Location {gauge(state.value('location.progress'), threshold)}"
    weather = rec(state).weather or ""
    ended = tables.day_end(state)
    status = (first_step(state) or step_title) if ended is None else f"day end: {ended.reason}"
    # the gauge and the weather fit a small display's first screen; the location's name is shown
    # where there is room (it is on the table), with a word when its numbers were not checked
    track_lines = [(status, Priority.KEY), (gauge_text, Priority.KEY), (f"Weather {weather}", Priority.NORMAL)]
    if loc is not None:
        checked = loc.verified
        track_lines.append((loc.name + ("" if checked else " (unverified)"),
                      Priority.DETAIL if checked else Priority.NORMAL))
    track_lines += [(line, Priority.DETAIL) for line in tracker.mission_lines(state)]
    out = {"track": Panel.ranked(f"Day {day} Round {state.round}", tuple(track_lines))}
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
    rested = tables.turns(state).rested
    for seat in state.seat_numbers():
        s = f"seat{seat}"
        energy = [f"{name} {state.value(f'{s}.{a}')}" for a, name in ENERGY]
        fatigue, injury = state.value(f"{s}.fatigue"), state.value(f"{s}.injury")
        # most important first (a small seat display pages the rest): energy, the counts "cannot draw" needs
        seat_lines = [(f"{energy[0]} {energy[1]}", Priority.KEY), (f"{energy[2]} {energy[3]}", Priority.KEY),
                      (f"Deck {state.value(f'{s}.deck')} Hand {state.value(f'{s}.hand')}", Priority.NORMAL),
                      (f"Fatigue {fatigue} Injury {injury}",  # none of either: only where there is room
                       Priority.NORMAL if fatigue or injury else Priority.DETAIL)]
        if test is not None and test.seat == seat and test.stage == "draw":
            p = challenge.chance(state, test.aspect, test.effort, test.difficulty)
            shown = "?" if p is None else percent(p)
            line = odds_line(test, shown) + ("" if challenge.deck_verified(state) else challenge.UNVERIFIED)
            seat_lines.insert(0, (line, Priority.KEY))
        flag = "turn" if state.active_seat == seat else ("rested" if seat in rested else "")
        out[s] = Panel.ranked(f"Seat {seat} {flag}".strip(), tuple(seat_lines))
    return out
