"""A fresh scenario from the data files and the game options (pure: same options, same state)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from tablekeeper.core import packs as packlib
from tablekeeper.core.chance import Bag, Multiset
from tablekeeper.core.numbers import is_number, parse_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter, seat_track
from tablekeeper.errors import ConfigError, NotANumber, Rejected
from tablekeeper.games.arkham import places, records
from tablekeeper.games.arkham.bags import load_bag
from tablekeeper.games.arkham.content import EncounterCard
from tablekeeper.games.arkham.data import (
    PACKAGE,
    Card,
    Scenario,
    load_allies,
    load_investigators,
    load_scenarios,
    load_tokens,
    reference_side,
    symbol_token,
)
from tablekeeper.games.arkham.decks import WEAKNESS_SEP
from tablekeeper.games.arkham.record import ArkhamRecord
from tablekeeper.games.arkham.rules import ACTIONS_PER_TURN, per_investigator

DEFAULT_INVESTIGATORS = ("roland", "daisy", "skids", "agnes")
STARTING_RESOURCES = 5  # setup (outside the seeds)
OPENING_HAND = 5  # setup (outside the seeds)
DECK_SIZE = 30  # a typical deck size; `--option deck=N` for another
ENCOUNTER_DECK = 26
SEAT_TRACKS = ("health", "sanity", "damage", "horror", "clues", "resources", "actions", "hand", "deck",
               "discard", "physical_trauma", "mental_trauma", "xp")

KNOWN_OPTIONS = {"scenario", "scenario_id", "chaos", "investigators", "assets", "difficulty", "mode", "encounter",
                 "deck", "count_eliminated", "campaign", "campaign_id", "encounters", "bag", "log",
                 packlib.PACKS_OPTION}
SEAT_OPTIONS = {"physical_trauma", "mental_trauma", "xp", "elder_sign", "deck", "weaknesses"}


def _int_option(options: Mapping[str, str], key: str, default: int, lo: int = 0) -> int:
    raw = options.get(key)
    if raw is None:
        return default
    try:
        value = parse_number(raw, key)
    except NotANumber as exc:
        if key == "deck" or key.endswith(".deck"):  # a deck list is a file: it goes to the campaign log
            raise ConfigError(f"--option {key}={raw}: {key} is how many cards the deck holds (a whole number), "
                              "not a deck list; a campaign keeps deck lists: tablekeeper campaign FILE NAME deck "
                              "SEAT DECK.toml") from None
        raise ConfigError(f"--option {key}={raw}: {exc.reason}") from None
    if value < lo:
        raise ConfigError(f"--option {key}={raw}: must be at least {lo}")
    return value


def check_options(options: Mapping[str, str], seats: int) -> None:
    for key in options:
        seat, _, field = key.partition(".")
        if key in KNOWN_OPTIONS:
            continue
        if seat.startswith("seat") and is_number(seat[4:], signed=False) and 1 <= int(seat[4:]) <= seats \
                and (field in SEAT_OPTIONS or not field):
            continue
        raise ConfigError(f"--option {key}: unknown option (known: {', '.join(sorted(KNOWN_OPTIONS))}, "
                          f"seatN, seatN.{{{','.join(sorted(SEAT_OPTIONS))}}})")


def _starting_deck(options: Mapping[str, str], seat: int) -> int:
    """The cards a seat shuffles at setup (AH-DB-2: the deck size plus its investigator-specific cards and
    weaknesses): ``seatN.deck`` (the campaign's kept list sets it), else ``deck``, else a typical 30."""
    common = _int_option(options, "deck", DECK_SIZE, OPENING_HAND)
    return _int_option(options, seat_track(seat, "deck"), common, OPENING_HAND)


def card_amount(card: Card, investigators: int) -> int:
    return 0 if card.amount is None else per_investigator(card.amount, card.per_investigator, investigators)


def with_campaign(options: Mapping[str, str]) -> dict[str, str]:
    """``campaign`` (set by ``play --campaign NAME``) is the stored campaign log as JSON: the next
    scenario, difficulty, investigators, trauma and experience come from it; explicit options win."""
    raw = options.get("campaign")
    explicit = {k: v for k, v in options.items() if k != "campaign"}
    if raw is None:
        return explicit
    import json  # only a campaign's game reads JSON: a new game's first frame does not wait for it

    from tablekeeper.games.arkham.campaign import Campaign

    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise ConfigError(f"campaign log: not JSON ({exc})") from None
    try:
        return Campaign.load(body, source="campaign log").session_options(explicit)
    except Rejected as exc:
        raise ConfigError(f"campaign log: {exc.reason}") from None


def _campaign_log(raw: str | None) -> Any:
    """The campaign log a campaign's game keeps in its state (JSON, checked by ``with_campaign``)."""
    if raw is None:
        return None
    import json

    return json.loads(raw)


def build(state: GameState, given: Mapping[str, str]) -> GameState:
    check_options(given, state.seats)
    options = with_campaign(given)
    beyond = sorted(k for k in options
                    if k.startswith("seat") and is_number(k[4:], signed=False) and int(k[4:]) > state.seats)
    if "campaign" in given and beyond:  # a player of the log would be dropped without a word
        players = sum(1 for k in options if k.startswith("seat") and is_number(k[4:], signed=False))
        raise ConfigError(f"campaign log: {players} players are in the campaign: play it with --seats {players} "
                          "(or let a player leave first: tablekeeper campaign FILE NAME leave SEAT)")
    packs = packlib.active(options, "arkham", PACKAGE)
    scenarios, campaigns = load_scenarios(options.get("scenario"), options.get("encounters"), packs)
    sid = options.get("scenario_id", "the_gathering" if "the_gathering" in scenarios else next(iter(scenarios)))
    if sid not in scenarios:
        raise ConfigError(f"--option scenario_id={sid}: unknown scenario (known: {', '.join(sorted(scenarios))})")
    scenario = scenarios[sid]
    difficulty = options.get("difficulty", "standard")
    side = reference_side(difficulty)
    token_kinds, bags = load_tokens(options.get("chaos"), packs)
    campaign = options.get("campaign_id", scenario.campaign)
    if campaign not in bags:
        raise ConfigError(f"--option campaign_id={campaign}: no chaos bag for it (bags: {', '.join(sorted(bags))})")
    tokens = dict(token_kinds)
    reference = dict(scenario.reference.get(side, {}))
    for symbol, effect in reference.items():
        if symbol not in tokens:
            raise ConfigError(f"scenario {sid}: reference.{side}.{symbol}: unknown token")
        tokens[symbol] = symbol_token(effect)
    bag_counts = bags[campaign][difficulty]
    if options.get("bag"):
        bag_counts = load_bag(options["bag"], difficulty, tokens)
    mode = options.get("mode", "campaign")
    if mode not in ("campaign", "standalone"):
        raise ConfigError(f"--option mode={mode}: expected campaign or standalone")
    people = load_investigators(options.get("investigators"), packs)
    tracks: dict[str, Counter] = {}
    seats: dict[str, records.Seat] = {}
    chosen: list[str] = []
    for seat in state.seat_numbers():
        inv_id = options.get(f"seat{seat}", DEFAULT_INVESTIGATORS[(seat - 1) % len(DEFAULT_INVESTIGATORS)])
        if inv_id not in people:
            known = ", ".join(sorted(people))
            raise ConfigError(f"--option seat{seat}={inv_id}: unknown investigator (known: {known})")
        if inv_id in chosen:
            raise ConfigError(f"--option seat{seat}={inv_id}: already at the table")
        chosen.append(inv_id)
        inv = people[inv_id]
        physical = _int_option(options, seat_track(seat, "physical_trauma"), 0)
        mental = _int_option(options, seat_track(seat, "mental_trauma"), 0)
        deck = _starting_deck(options, seat) - OPENING_HAND
        weaknesses = tuple(t.strip() for t in options.get(seat_track(seat, "weaknesses"), "").split(WEAKNESS_SEP)
                           if t.strip())
        values = {"health": inv.health, "sanity": inv.sanity, "damage": min(physical, inv.health - 1),
                  "horror": min(mental, inv.sanity - 1), "clues": 0, "resources": STARTING_RESOURCES,
                  "actions": ACTIONS_PER_TURN, "hand": OPENING_HAND, "deck": deck, "discard": 0,
                  "physical_trauma": physical, "mental_trauma": mental,
                  "xp": _int_option(options, seat_track(seat, "xp"), 0)}
        for name in SEAT_TRACKS:
            lo = 1 if name in ("health", "sanity") else 0
            tracks[seat_track(seat, name)] = Counter(values[name], lo, None)
        elder = options.get(seat_track(seat, "elder_sign"))
        seats[str(seat)] = records.Seat(
            investigator=inv_id, name=inv.name, printed_health=inv.health, printed_sanity=inv.sanity,
            skills=dict(inv.skills),
            elder_sign=inv.elder_sign if elder is None else _int_option(options, seat_track(seat, "elder_sign"), 0,
                                                                        lo=-99),
            elder_sign_per=inv.elder_sign_per if elder is None else "", weaknesses=weaknesses)
    n = state.seats
    tracks["agenda"] = Counter(1, 1, len(scenario.agendas))
    tracks["agenda.doom"] = Counter(0, 0, None)
    tracks["agenda.threshold"] = Counter(card_amount(scenario.agendas[0], n) or 1, 1, None)
    tracks["doom.other"] = Counter(0, 0, None)
    tracks["act"] = Counter(1, 1, len(scenario.acts))
    tracks["act.clues_required"] = Counter(card_amount(scenario.acts[0], n), 0, None)
    cards, deck_names, deck_size = _logged_setup(scenario, options.get("log", ""))
    tracks["encounter.deck"] = Counter(_int_option(options, "encounter", deck_size), 0, None)
    tracks["encounter.discard"] = Counter(0, 0, None)
    bag = Bag("chaos", Multiset.of(bag_counts))
    locations, at = _board(scenario, state.seat_numbers())
    record = ArkhamRecord(
        scenario=records.ScenarioInfo(
            id=sid, title=scenario.title, campaign=campaign, difficulty=difficulty, side=side,
            agendas=scenario.agendas, acts=scenario.acts, sequence=tuple(campaigns.get(campaign, ())),
            cards=cards, deck=deck_names, locations=dict(scenario.locations),
            reference=reference, card=scenario.card, source=scenario.source, verified=scenario.verified),
        tokens=tokens, seats=seats, allies=load_allies(options.get("assets"), packs),
        mode="standalone" if mode == "standalone" else "campaign",
        count_eliminated=options.get("count_eliminated", "true") != "false",
        campaign_log=_campaign_log(given.get("campaign")), locations=locations, at=at)
    return replace(state, tracks=tracks, sources={"chaos": bag}, record=record)


def _logged_setup(scenario: Scenario, log: str) -> tuple[dict[str, EncounterCard], dict[str, int], int]:
    """The encounter cards, the deck's names and its size once the setup has read the campaign log
    (``--option log=ENTRY,...``): a card whose entry is there is shuffled in (01120's setup: the Ghoul
    Priest, still alive). An entry the scenario's setup does not read is refused."""
    entries = {e.strip() for e in log.split(",") if e.strip()}
    known = {c.log for c in scenario.logged}
    if entries - known:
        raise ConfigError(f"--option log={log}: {scenario.title}'s setup reads no entry "
                          f"{sorted(entries - known)[0]!r} (it reads: {', '.join(sorted(known)) or 'none'})")
    cards, deck, size = dict(scenario.cards), dict(scenario.deck), scenario.deck_size or ENCOUNTER_DECK
    for logged in scenario.logged:
        if logged.log in entries:
            cards[logged.name] = logged.card
            deck[logged.name] = deck.get(logged.name, 0) + 1
            size += 1
    return cards, deck, size


def _board(scenario: Scenario, seats: Sequence[int]) -> tuple[dict[str, records.Location], dict[str, str]]:
    """The scenario's setup: its starting locations in play (unrevealed), every investigator at the
    starting one, which is then revealed with its clues (AH-CLUE-2: the first entry)."""
    table: dict[str, records.Location] = {}
    for key in scenario.start:
        spec = scenario.locations[key]
        for name in places.copies(key, spec):
            table[name] = places.placed(key, spec)
    at: dict[str, str] = {}
    if scenario.start_at is not None:
        first = scenario.start_at
        if first not in table:
            table[first] = places.placed(first, scenario.locations[first])
        table[first], _ = places.revealed(table[first], len(seats))
        at = {str(seat): first for seat in seats}
    return places.relinked(table), at
