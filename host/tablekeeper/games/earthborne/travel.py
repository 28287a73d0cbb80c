"""The round's phases (path cards, Ranger turns, travel, refresh) and the day: travel, camping,
the day's end and the next day's setup."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.flow import Ending, Flow, Kind, Phase, Step, Stop
from tablekeeper.core.game import Txn, parse_seat, want
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import cards, engine, parsing, pathdeck, rangers, rules, tables, valley
from tablekeeper.games.earthborne.data import ASPECTS
from tablekeeper.games.earthborne.record import CampRecord, Place, Turns, rec


def _round_start(txn: Txn) -> None:
    """A new round: nobody has rested or taken a turn; role cards were readied at refresh."""
    txn.put("turns", Turns())
    txn.put("path_drawn", 0)
    txn.put("travel", None)


def _path_enter(txn: Txn) -> None:
    """ER-PATH-1: one path card per Ranger, the lead first, each resolved before the next."""
    if not rec(txn.state).path_built:
        txn.notice("build the path deck first: " + pathdeck.build_hint(txn.state))
    txn.notice(draw_line(txn.state))


def draw_line(state: GameState) -> str:
    """ER-PATH-1: how each Ranger draws this round's path card, from the lead on: with the seat's A
    button, so a group on the buttons alone learns it before ``next`` is refused. A deck the device
    knows is drawn by the button itself; from the group's own deck the Ranger draws, then presses it."""
    who = f"each Ranger, seat {state.lead} first" if state.seats > 1 else "the Ranger"
    if pathdeck.device_can_draw(state):
        return f"{who}: your seat's A draws your path card"
    return f"{who}: draw a path card, press your seat's A (or reveal path NAME)"


def _path_hold(state: GameState) -> str | None:
    """Phase 1 ends once the path deck and the location are on the table and each Ranger has drawn."""
    return _path_setup_missing(state) or path_draws_owed(state)


def path_owing(state: GameState) -> tuple[int, ...]:
    """ER-PATH-1: the Rangers still to draw this round's path card, in drawing order (the lead first),
    while the deck (or its discard, reshuffled) has a card for them."""
    drawn = rec(state).path_drawn
    if drawn >= state.seats or not pathdeck.has_cards(state):
        return ()
    first = tables.next_path_seat(state)
    return tuple((first - 1 + i) % state.seats + 1 for i in range(state.seats - drawn))


def path_draws_owed(state: GameState) -> str | None:
    """ER-PATH-1: Phase 1 waits for one path card per Ranger; ``next!`` goes on without them."""
    waiting = path_owing(state)
    if not waiting:
        return None
    return (f"each Ranger draws a path card before the Ranger turns; not drawn: "
            f"{', '.join(f'seat {s}' for s in waiting)} (their seat's A, pass SEAT, or reveal path NAME; "
            "next! goes on without)")


def _path_setup_missing(state: GameState) -> str | None:
    """ER-SETUP-1, ER-TRAVEL-2: the round's path cards come from a built path deck, at a location whose
    threshold travel is measured against, so Phase 1 ends only once both are on the table."""
    loc = tables.location(state)
    if loc is None:
        return "place the location first: location NAME [THRESHOLD]"
    if not loc.rtoken_clear and tables.location_threshold(state) is None:
        return (f"{loc.name} has no progress threshold yet: location \"{loc.name}\" N "
                "(the number on its card, Nr per Ranger)")
    if not rec(state).path_built:
        return "build the path deck first: " + pathdeck.build_hint(state)
    return None


def _turns_enter(txn: Txn) -> None:
    txn.notice("the group picks who goes first: turn SEAT; each turn: test, play a card, or rest")


def owing(state: GameState) -> tuple[int, ...]:
    """The Rangers the step waits for: in Phase 1 those still to draw a path card (ER-PATH-1), in the
    Ranger turns every Ranger until it rests (ER-ROUND-1)."""
    if (state.phase, state.step) == ("path", "draw"):
        return path_owing(state)
    if (state.phase, state.step) != ("turns", "turns"):
        return ()
    rested = tables.turns(state).rested
    return tuple(s for s in state.seat_numbers() if s not in rested)


def _turns_hold(state: GameState) -> str | None:
    """ER-ROUND-1: the travel phase waits until every Ranger has rested."""
    rested = tables.turns(state).rested
    waiting = [s for s in state.seat_numbers() if s not in rested]
    if waiting:
        return f"every Ranger must rest before travel; not rested: {', '.join(f'seat {s}' for s in waiting)}"
    return None


def travel_refusal(state: GameState) -> str | None:
    return rules.travel_refusal(state.value("location.progress"), tables.location(state), state.seats,
                                tables.cards(state))


def _travel_enter(txn: Txn) -> None:
    """ER-LOC-2, ER-LOC-3: the threshold is checked as the travel step begins; travel is optional."""
    offer(txn, quiet=True)


def offer(txn: Txn, quiet: bool = False) -> None:
    reason = travel_refusal(txn.state)
    if reason:
        if quiet:
            txn.notice(f"no travel: {reason}")
            return
        raise Rejected(f"cannot travel: {reason}")
    progress, threshold = txn.state.value("location.progress"), tables.location_threshold(txn.state)
    where = "every Ranger's token on it" if threshold is None else f"location {progress}/{threshold}"
    txn.ask("travel", f"Travel? ({where})", ["travel", "stay"])


def _travel_idle(state: GameState) -> bool:
    """ER-LOC-2: with too little progress (or a Ranger token missing) there is no travel to decide, so
    the step runs by itself into Refresh. A ready obstacle alone keeps it (the group may deal with it
    and offer travel again, ER-TRAVEL-1)."""
    if state.prompt is not None or rec(state).travel is not None:
        return False
    return rules.travel_refusal(state.value("location.progress"), tables.location(state), state.seats,
                                {}) is not None


def _travel_hold(state: GameState) -> str | None:
    if rec(state).travel == "travelled":
        return "the group travelled: arrive NAME, or camp NAME to end the day there"
    if rec(state).travel == "arrived" and not rec(state).path_built:
        return "build the new path deck (or camp here): " + pathdeck.build_hint(state)
    return None


def choose_travel(txn: Txn, index: int) -> None:
    """ER-TRAVEL-2: non-persistent path cards leave play, then the group picks where to go."""
    txn.close_prompt()
    if index == 1:
        txn.notice("the group stays")
        tables.log(txn, "stay")
        flowmod.leave(txn, FLOW)
        return
    for key in rules.leaves_on_travel(tables.cards(txn.state)):
        engine.remove_card(txn, key)
    txn.put("travel", "travelled")
    tables.log(txn, "travel")
    ways = _ways(txn.state)
    txn.notice("pick a connected location" + (f" ({ways})" if ways else "")
               + ": arrive NAME, or camp NAME to end the day there")


def _here(state: GameState) -> str | None:
    loc = tables.location(state)
    return None if loc is None or not loc.id else loc.id


def _ways(state: GameState) -> str:
    """The connected locations and each path's terrain, from where the group stands (ER-TRAVEL-2)."""
    here = _here(state)
    if here is None:
        return ""
    cfg = tables.cfg(state)
    return ", ".join(f"{cfg.locations[dest].name} by {valley.terrain_name(terrain).lower()}"
                     for dest, terrain in valley.reachable(cfg, here))


def _destination(txn: Txn, verb: str, name: str, terrain: str | None,
                 threshold: str | None) -> tuple[Place, str | None]:
    """ER-TRAVEL-2: the connected location the group goes to and the terrain of the path taken. On the
    Valley map the path must exist (its terrain is the map's); a card that lets the group go further
    (two paths away) is reported with the terrain it names: arrive NAME terrain=T."""
    state = txn.state
    cfg = tables.cfg(state)
    record = cards.location_record(cfg, name, threshold, None)
    here = _here(state)
    if here is None or record.id is None:
        return record, terrain
    ways = dict(valley.reachable(cfg, here))
    path_terrain = ways.get(record.id)
    if path_terrain is None:
        if terrain is None:
            raise Rejected(f"{record.name} is not connected to {cfg.locations[here].name} "
                           f"(connected: {_ways(state)}); a card that lets the group go further: "
                           f"{verb} \"{record.name}\" terrain=T")
        return record, terrain
    if terrain is not None and terrain != path_terrain:
        raise Rejected(f"the path from {cfg.locations[here].name} to {record.name} is "
                       f"{valley.terrain_name(path_terrain).lower()}, not {terrain}")
    return record, path_terrain


def _travel(txn: Txn, args: tuple[str, ...]) -> None:
    if args:
        raise Rejected("usage: travel")
    if txn.state.phase != "travel":
        raise Rejected("the group travels only in the travel phase (ER-LOC-2)")
    if rec(txn.state).travel is not None:
        raise Rejected("the group has already decided on travel this round")
    rangers.check_free(txn)
    offer(txn)


def _need_travelled(txn: Txn, verb: str) -> None:
    if rec(txn.state).travel != "travelled":
        raise Rejected(f"{verb}: the group has not travelled (travel in the travel phase first)")


def _terrain(options: dict[str, str], verb: str) -> str | None:
    extra = sorted(set(options) - {"terrain", "icons"})
    if extra:
        raise Rejected(f"{verb}: unknown option {extra[0]}= (terrain, icons)")
    return options.get("terrain")


def _arrive(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-TRAVEL-2: set up the new location, then build its path deck (a guided step)."""
    words, options = parsing.split_args(args)
    if not words:
        raise Rejected("usage: arrive NAME [THRESHOLD] [terrain=T] [icons=..]")
    _need_travelled(txn, "arrive")
    terrain = _terrain(options, "arrive")
    name, threshold = _place_words(txn, words)
    record, terrain = _destination(txn, "arrive", name, terrain, threshold)
    if "icons" in options:
        record = replace(record, icons=tuple(i for i in options["icons"].split(",") if i))
    cards.set_location(txn, record)
    txn.put("record", CampRecord(record.name, None if record.id else record.progress, terrain))
    txn.put("travel", "arrived")
    txn.emit("path.built", n=0)  # the old path deck is set aside; the new one is built from its sets
    txn.put("path_built", False)
    if pathdeck.build_if_known(txn):
        txn.notice("run the arrival setup on the location's back (report the path cards it draws: reveal path "
                   "NAME; a card it discards from the deck: reveal path NAME discard), then next")
    else:
        txn.notice("build the new path deck: " + pathdeck.build_hint(txn.state)
                   + "; run the arrival setup on the location's back, then next")


def _pathdeck(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-TRAVEL-2, ER-SETUP-1: the group reports the path deck it built (the arrival setup then draws
    from it; ``next`` goes on)."""
    pathdeck.build(txn, args)


def _place_words(txn: Txn, words: list[str]) -> tuple[str, str | None]:
    """A place's name (quoted or not) and the threshold after it, if any."""
    cfg = tables.cfg(txn.state)
    return parsing.name_and_threshold(words, lambda n: valley.find_location(cfg, n) is not None)


def _camp(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-TRAVEL-2, ER-DAY-1: camping at the connected location the group travelled to ends the day;
    that location (and its threshold, when known) and the terrain are recorded for the next day.
    A bare ``camp`` after ``arrive`` camps at the location just placed instead of building its deck."""
    words, options = parsing.split_args(args)
    name_given, threshold_given = _place_words(txn, words)
    words = [name_given, *([threshold_given] if threshold_given else [])] if words else []
    status = rec(txn.state).travel
    arrived = status == "arrived" and (not rec(txn.state).path_built or rec(txn.state).path_fresh)
    if status != "travelled" and not arrived:
        raise Rejected("camp: the group has not travelled (travel in the travel phase first)")
    terrain = _terrain(options, "camp")
    loc = tables.location(txn.state)
    if words and not arrived:
        cfg = tables.cfg(txn.state)
        if len(words) == 1 and valley.find_location(cfg, words[0]) is None:
            record = Place(words[0])  # its threshold is asked the next day
        else:
            record, terrain = _destination(txn, "camp", words[0], terrain, words[1] if len(words) == 2 else None)
        name = record.name
        threshold = None if record.id or record.progress == "-" else record.progress
    elif arrived and loc is not None and (not words or words[0] == loc.name):
        name = loc.name
        threshold = None if loc.id else loc.progress
        terrain = terrain or (rec(txn.state).record or CampRecord()).terrain
    elif arrived:
        raise Rejected(f"the group arrived at {loc.name if loc else 'a location'}: camp there with a bare camp")
    else:
        raise Rejected("camp NAME [THRESHOLD] [terrain=T]: name the location the group travelled to "
                       "(it camps there, not where it left), or arrive there first")
    txn.put("record", CampRecord(name, threshold, terrain))
    txn.put("travel", "camped")
    tables.log(txn, f"camp at {name}")
    tables.end_day(txn, "camped")


def _refresh_enter(txn: Txn) -> None:
    """ER-REFRESH-1: each Ranger draws 1 (none left ends the day), energy = aspects, all cards ready."""
    for seat in txn.state.seat_numbers():
        if not rangers.ranger_draw(txn, seat, 1):
            return
        for aspect, value in rules.refreshed_energy(tables.seat_aspects(txn.state, seat)).items():
            tables.set_tokens(txn, seat_track(seat, aspect), value)
    txn.put("cards", {k: replace(record, ready=True) for k, record in tables.cards(txn.state).items()})
    txn.put("turns", replace(tables.turns(txn.state), role_exhausted=()))
    txn.notice("refresh done: 1 card drawn, energy back to the aspects, all cards ready")


def _newday(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-DAY-1, ER-SETUP-1: the next day on the track: its weather and entries, energy = aspects,
    6 cards in hand, the challenge deck shuffled, the location where the group camped."""
    if args:
        raise Rejected("usage: newday")
    ended = tables.day_end(txn.state)
    if ended is None or ended.timing != "now":
        raise Rejected("the day has not ended yet")
    day = txn.state.value("day") + 1
    if day > tables.cfg(txn.state).days:
        txn.end("the campaign's last day is over", result=Result.DRAW)
        return
    if txn.state.prompt is not None:
        txn.close_prompt()
    txn.put("day_end", None)
    txn.put("work", [])
    tables.set_tokens(txn, "day", day)
    start_day(txn)
    flowmod.move(txn, round_no=1, phase=FLOW.phases[0].id, step=FLOW.phases[0].steps[0].id, seat=None)
    _round_start(txn)
    _path_enter(txn)


def start_day(txn: Txn) -> None:
    """ER-SETUP-1: each day is set up fresh: energy and hands from the aspects and full decks, the
    location where the group camped with no tokens, no path or player-area cards, no gear, mission
    cards without tokens, the challenge deck shuffled and a new path deck to build."""
    state = txn.state
    day = state.value("day")
    weather = rules.weather_for(day, tables.cfg(state).weather)
    txn.put("weather", weather)
    hand = tables.rule(state).opening_hand
    deck = tables.rule(state).ranger_deck
    for seat in state.seat_numbers():
        for aspect in ASPECTS:
            tables.set_tokens(txn, seat_track(seat, aspect), tables.seat_aspects(txn.state, seat)[aspect])
        tables.set_tokens(txn, seat_track(seat, "fatigue"), 0)
        tables.set_tokens(txn, seat_track(seat, "injury"), 0)
        tables.set_tokens(txn, seat_track(seat, "deck"), deck - hand)
        tables.set_tokens(txn, seat_track(seat, "hand"), hand)
    kept = {}
    for key, record in tables.cards(txn.state).items():
        if record.area == "mission":
            kept[key] = replace(record, rtokens=())
            tables.set_tokens(txn, f"{key}.progress", 0)
            tables.set_tokens(txn, f"{key}.harm", 0)
        else:
            txn.drop(f"{key}.progress")
            txn.drop(f"{key}.harm")
    txn.put("cards", kept)
    txn.put("gear", {})
    camp = rec(state).record or CampRecord()
    if camp.location:
        name, threshold = camp.location, camp.threshold
        known = valley.find_location(tables.cfg(state), name) is not None
        if known or threshold:
            cards.place_location(txn, name, None if known else str(threshold), None)
        else:
            cards.set_location(txn, Place(name))
            txn.notice(f"set the location's threshold: location \"{name}\" N")
    else:
        txn.put("location", None)
        tables.set_tokens(txn, "location.progress", 0)
        tables.set_tokens(txn, "location.harm", 0)
    txn.source_op("challenge", "refresh")
    if rec(txn.state).path_mode == "file":
        txn.emit("path.reset")
    else:
        txn.emit("path.built", n=0)
        txn.put("path_built", False)
        pathdeck.build_if_known(txn)
    entries = tables.cfg(txn.state).entries.get(str(day), ())
    txn.notice(f"day {day}: weather {weather or '(see the tracker)'}"
               + (f"; read entries {', '.join(entries)}" if entries else ""))


def next_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``next``; in Phase 1 with the location placed but no path deck built, it asks which deck the
    group built (one for each terrain that reaches the location) rather than going on without one."""
    state = txn.state
    if (not args and state.phase == "path" and state.prompt is None and not rec(state).path_built
            and _path_setup_missing(state) is not None and tables.location_threshold(state) is not None
            and not engine.busy(state)):
        options = pathdeck.choices(state)
        if options:
            parsing.guard(txn)
            txn.ask("path.build", "Which path deck did the group build?", [b.short for b in options],
                    context={"terrains": [b.text for b in options]})
            return
    rangers.next_verb(txn, args, FLOW)


def forced_next_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``next!``: as everywhere, it ends the step for the Rangers still owing a move: in Phase 1 those
    who have not drawn a path card (ER-PATH-1), in the Ranger turns those who have not rested
    (ER-ROUND-1). What was skipped goes in the log; the path deck and the location stay required."""
    want(args, 0, "next!")
    state = txn.state
    skipped = owing(state) if state.prompt is None and state.over is None else ()
    if not skipped or (state.phase == "path" and _path_setup_missing(state) is not None):
        flowmod.advance(txn, FLOW, force=True)
        return
    parsing.guard(txn)
    rangers.check_free(txn)
    seats = ", ".join(str(s) for s in skipped)
    if state.phase == "path":
        tables.log(txn, f"path: no card drawn for seat(s) {seats} this round (next!)")
        txn.notice(f"Phase 1 ends with {rec(state).path_drawn} of {state.seats} path card(s) drawn")
    else:
        rangers.end_turn(txn)
        if _day_over(txn.state):
            return  # the turn's end ended the day (ER-INJURY-1): newday, not travel, comes next
        tables.log(txn, f"turns: seat(s) {seats} did not rest this round (next!)")
        txn.notice(f"the Ranger turns end without a rest for seat(s) {seats}")
    flowmod.leave(txn, FLOW)


def choose_path_deck(txn: Txn, index: int) -> None:
    """The answer to Phase 1's question: that path deck is built; the group draws from it, then next."""
    options = pathdeck.choices(txn.state)
    txn.close_prompt()
    pathdeck.put_built(txn, options[index])
    txn.notice(draw_line(txn.state))


def _lead(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-SETUP-1: the group elects a lead Ranger. Not while the round's path cards are part drawn:
    they go one per Ranger from the lead (ER-PATH-1), and a new lead then would give one Ranger two
    cards and another none."""
    if len(args) != 1:
        raise Rejected("usage: lead SEAT")
    seat = parse_seat(txn.state, args[0])
    drawn = rec(txn.state).path_drawn
    if txn.state.phase == "path" and 0 < drawn < txn.state.seats and seat != txn.state.lead:
        raise Rejected(f"the path cards of this round are being drawn from the lead (seat {txn.state.lead}); "
                       f"seat {tables.next_path_seat(txn.state)} draws next: elect the new lead once each "
                       "Ranger has drawn (or undo the draws)")
    txn.emit("lead", seat=seat)


def _day_over(state: GameState) -> bool:
    ended = tables.day_end(state)
    return ended is not None and ended.timing == "now"


DAY_OVER = Stop("the day is over: newday sets up the next one", "ER-DAY-1", when=_day_over)
"""A day that ends inside the station's own steps (a Ranger who cannot draw at Refresh) stops there:
nothing of the next round runs before the table has set up the next day."""

FLOW = Flow(
    phases=(
        Phase("path", "Path cards", (Step("draw", "Draw path cards", enter=_path_enter, hold=_path_hold,
                                          kind=Kind.TABLE),)),
        Phase("turns", "Ranger turns", (Step("turns", "Ranger turns", enter=_turns_enter, hold=_turns_hold,
                                             kind=Kind.DECISION, idle=lambda s: not owing(s)),)),
        Phase("travel", "Travel", (Step("travel", "Travel", enter=_travel_enter, hold=_travel_hold,
                                        kind=Kind.DECISION, idle=_travel_idle),)),
        Phase("refresh", "Refresh", (Step("refresh", "Refresh", enter=_refresh_enter, kind=Kind.AUTO),)),
    ),
    round_start=_round_start,
    stops=(DAY_OVER,),
    ending=Ending(frozenset({"mission", "reward", "note"}), rule="ER-DAY-1"),
)

DAY_VERBS = {
    "travel": ("travel", "offer travel again (after an obstacle is dealt with)", _travel),
    "arrive": ("arrive NAME [THRESHOLD] [terrain=T]", "after travelling: the new location", _arrive),
    "camp": ("camp NAME [THRESHOLD] [terrain=T]", "after travelling: camp at that location, ending the day",
             _camp),
    "pathdeck": ("pathdeck [N | SET ... [valley=N]]", "the group built a new path deck: the sets named "
                 "for it, those sets, or N cards (after arriving, on a new day)", _pathdeck),
    "lead": ("lead SEAT", "elect the lead Ranger", _lead),
}
NEWDAY = ("newday", "after the day ended: set up the next day", _newday)
