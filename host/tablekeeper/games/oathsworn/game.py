"""Oathsworn on the station: the story part with its time track, then encounter rounds
(Refresh -> Oathsworn turns -> Encounter: stage card, minions -> End of round), then the tally.

Each seat is one Oathsworn (OS-GEN-3: the company is always 4, whatever the number of players);
``players`` only counts the people at the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import msgspec
from msgspec.structs import replace

import tablekeeper.games.oathsworn.draws as draws
import tablekeeper.games.oathsworn.encounter as encounter
import tablekeeper.games.oathsworn.epilogue as epilogue
import tablekeeper.games.oathsworn.panels as panels
import tablekeeper.games.oathsworn.plan as plan
import tablekeeper.games.oathsworn.story as story
import tablekeeper.games.oathsworn.turns as turns
from tablekeeper.core import flow as flowmod
from tablekeeper.core import packs as packlib
from tablekeeper.core.chance import Deck, Multiset
from tablekeeper.core.events import Command, Event
from tablekeeper.core.flow import Ending, Flow, Kind, Phase, Step, Stop, Turns
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.numbers import is_number, parse_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter, SeatTrack, seat_track
from tablekeeper.core.view import Panel
from tablekeeper.errors import ConfigError, NotANumber, Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.args import GameVerb
from tablekeeper.games.oathsworn.cards import COLOUR_NAMES
from tablekeeper.games.oathsworn.data import PACKAGE, Encounter, GameData, load_text
from tablekeeper.games.oathsworn.decks import flip_stage
from tablekeeper.games.oathsworn.record import NO_POSITIONS, Boxed, OathswornRecord, Part, SeatRecord, rec
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_KINDS,
    base_defense,
    encounter_of,
    has_figure,
    part,
    remember,
    seat,
)
from tablekeeper.games.oathsworn.table import seat as table_seat

PARTS = ("story", "encounter")


def _ambushed_round(state: GameState) -> bool:
    """OS-RND-2 / OS-ESET-11: an ambush skips Refresh and the Oathsworn phase of round 1."""
    return state.round == 1 and rec(state).ambushed


def _not_encounter(state: GameState) -> bool:
    return part(state) == "story"


def _draw_open(state: GameState) -> str | None:
    record = rec(state)
    if record.draws:
        return "finish the open draw first (redraw N or resolve)"
    if record.fight:
        return _fight_open(state)
    if record.secret:
        return "reveal the secret decision first (secret reveal)"
    if part(state) == "epilogue":
        return epilogue.what_is_left(state)
    return encounter.attack_owed(state)


def _fight_open(state: GameState) -> str:
    """OS-SCOMBAT-1: each Oathsworn draws one attack in a story round of combat; the story goes on
    once the last one has (the fight is then won, OS-SCOMBAT-5)."""
    owing = flowmod.seats_text(tuple(draws.fight_owing(state)))
    return f"the round of combat is still open: {owing} must draw an attack first (OS-SCOMBAT-1)"


def _no_minion_due(state: GameState) -> bool:
    """OS-MIN-1 with no minion left to activate: nothing for the table to do."""
    return not rec(state).minions_due


ENCOUNTER_SETUP = Stop("encounter setup: choose the lead (lead SEAT), build each hand (hand SEAT ...) and each "
                       "companion's archetype side (archetype SEAT CARD A|B); next begins round 1",
                       "OS-ESET-5, OS-ESET-8, OS-ESET-10", when=lambda s: s.round == 1)
"""Round 1's Refresh is where a group that has just finished the story (or opened an encounter) sets
the encounter up: the station stops there instead of running it."""

EPILOGUE = Stop("the encounter is over: tally (Tally Level, Loot and Losses)", "OS-END-2, OS-END-3, OS-TALLY-1",
                when=lambda s: part(s) == "epilogue")

FLOW = Flow(phases=(
    Phase("story", "Story", (Step("story", "Story part", leave=story.end_story, hold=_draw_open),),
          skip=lambda s: part(s) != "story"),
    Phase("refresh", "Refresh", (Step("refresh", "Refresh", enter=encounter.refresh, hold=_draw_open,
                                      kind=Kind.AUTO, stop=ENCOUNTER_SETUP),),
          skip=lambda s: _ambushed_round(s) or _not_encounter(s)),
    Phase("oathsworn", "Oathsworn", (Step("turns", "Turns", turns=Turns.UNTIL_PASS, turn_start=encounter.turn_start,
                                          leave=encounter.oathsworn_end, hold=_draw_open, kind=Kind.DECISION),),
          skip=lambda s: _ambushed_round(s) or _not_encounter(s)),
    Phase("encounter", "Encounter", (Step("stage", "Stage card", enter=encounter.stage_card,
                                          leave=encounter.stage_done, hold=_draw_open),
                                     Step("minions", "Minions", enter=encounter.minions, hold=_draw_open,
                                          idle=_no_minion_due))),
    Phase("end", "End of round", (Step("end", "End of round", enter=encounter.end_of_round, hold=_draw_open,
                                       kind=Kind.AUTO),)),
), stops=(EPILOGUE,), ending=Ending(rule="OS-TALLY-9"))


def might_deck(name: str, colour: str, faces: Mapping[str, int]) -> Deck:
    return Deck.plain(name, {f"{colour}{face}": count for face, count in faces.items()})


def stage_deck(counts: tuple[int, ...]) -> Deck:
    """OS-ESET-4: stage 1 cards on top of stage 2 on top of stage 3."""
    stages = tuple(Multiset.of({f"S{i + 1}.{k + 1}": 1 for k in range(n)}) for i, n in enumerate(counts))
    return Deck("stage", stages=stages, reshuffle=False)


def _option(options: Mapping[str, str], key: str, default: str) -> str:
    return str(options.get(key, default)).strip()


def _int_option(options: Mapping[str, str], key: str, default: int) -> int:
    raw = _option(options, key, str(default))
    try:
        return parse_number(raw, key)
    except NotANumber as exc:
        raise ConfigError(f"--option {key}={raw}: {exc.reason}") from None


KNOWN_OPTIONS = ("data", "difficulty", "chapter", "part", "classes", "companions", "hardcore", "ambush", "traits",
                 "hp", "lead", "roster", "encounter", packlib.PACKS_OPTION)


@dataclass(frozen=True)
class Options:
    """The setup options, checked once: a new option is read and validated here and nowhere else."""

    path: str
    data: GameData
    digest: str
    packs: str  # the packs the session chose, as recorded (core/packs.py)
    difficulty: str
    chapter: int
    encounter: Encounter
    part: Part
    classes: tuple[str, ...]
    companions: frozenset[int]
    hps: tuple[int, ...]
    roster: dict[str, Boxed]
    traits: dict[str, int]
    hardcore: bool
    ambushed: bool
    lead: int

    @property
    def max_hp(self) -> int:
        return self.data.difficulties[self.difficulty].max_hp


def read_options(options: Mapping[str, str]) -> Options:
    """Every option checked against the data it names; a bad one is one ConfigError line."""
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise ConfigError(f"unknown oathsworn option {unknown[0]!r} (options: {', '.join(sorted(KNOWN_OPTIONS))})")
    path = options.get("data") or ""
    d, digest = load_text(path or None, packlib.active(options, "oathsworn", PACKAGE))
    remember(d, digest)
    diff_name = _option(options, "difficulty", "free")
    if diff_name not in d.difficulties:
        raise ConfigError(f"--option difficulty={diff_name}: one of {', '.join(d.difficulties)}")
    max_hp = d.difficulties[diff_name].max_hp
    chapter = _int_option(options, "chapter", 1)
    last_chapter = int(d.company.get("chapters", 20))
    if not 1 <= chapter <= last_chapter:
        raise ConfigError(f"--option chapter={chapter}: a chapter from 1 to {last_chapter}")
    wanted = _option(options, "encounter", "")
    if wanted and wanted not in d.encounters:
        raise ConfigError(f"--option encounter={wanted}: one of {', '.join(d.encounters)}")
    fight = d.encounters[wanted] if wanted else d.chapter_encounter(chapter)
    start_part = _option(options, "part", "story")
    if start_part not in PARTS:
        raise ConfigError(f"--option part={start_part}: story or encounter")
    start: Part = "encounter" if start_part == "encounter" else "story"
    classes = tuple(c.strip() for c in _option(options, "classes", "Warden,Huntress,Priest,Witch").split(","))
    if len(classes) != 4 or any(c not in d.classes for c in classes):
        raise ConfigError(f"--option classes: four of {', '.join(sorted(d.classes))}")
    raw_companions = [x.strip() for x in _option(options, "companions", "").split(",") if x.strip()]
    if any(x not in ("1", "2", "3", "4") for x in raw_companions):
        raise ConfigError(f"--option companions={_option(options, 'companions', '')}: seats 1..4, e.g. 2,3")
    raw_hp = [x.strip() for x in _option(options, "hp", "").split(",")] if _option(options, "hp", "") else []
    if raw_hp and (len(raw_hp) != 4 or not all(is_number(x, signed=False) and 0 < int(x) <= max_hp for x in raw_hp)):
        raise ConfigError(f"--option hp={_option(options, 'hp', '')}: four HP values from 1 to {max_hp}, "
                          "e.g. hp=6,5,6,4")
    roster: dict[str, Boxed] = {}
    for item in _option(options, "roster", "").split(","):
        name, _, level = item.strip().rpartition(":")
        if not item.strip():
            continue
        if name not in d.classes or not is_number(level, signed=False):
            raise ConfigError(f"--option roster: CLASS:LEVEL pairs of boxed characters, not {item.strip()!r}")
        roster[name] = Boxed(int(level), (), "full")  # OS-LVL-4/5: boxed save bags
    traits: dict[str, int] = {}
    for item in _option(options, "traits", "").split(","):
        if item.strip():
            name, _, marks = item.strip().partition(":")
            if marks and not is_number(marks, signed=False):
                raise ConfigError(f"--option traits: NAME or NAME:MARKS (a whole number), not {item.strip()!r}")
            traits[name.lower()] = int(marks) if marks else 1
    lead = _int_option(options, "lead", 1)
    if lead not in SEATS:
        raise ConfigError("--option lead: a seat 1..4")
    return Options(path, d, digest, options.get(packlib.PACKS_OPTION, ""), diff_name, chapter, fight, start, classes,
                   frozenset(int(x) for x in raw_companions), tuple(int(x) for x in raw_hp), roster, traits,
                   _option(options, "hardcore", "0") in ("1", "yes", "true"),
                   _option(options, "ambush", "0") in ("1", "yes", "true"), lead)


def company_record(opts: Options, players: int, seats: Mapping[int, SeatRecord]) -> OathswornRecord:
    """What the whole company keeps: the chapter, its map and time track, loot and stage bookkeeping."""
    d = opts.data
    return OathswornRecord(
        data_path=opts.path, data_sha256=opts.digest, packs=opts.packs, players=players, difficulty=opts.difficulty,
        chapter=opts.chapter, encounter=opts.encounter.id, hardcore=opts.hardcore, ambushed=opts.ambushed,
        traits=opts.traits, part=opts.part, allies=tuple(d.company.get("allies", [])),
        player_aids=players * int(d.company.get("player_aids_each", 2)),  # OS-SETUP-9
        roster=opts.roster, seat1=seats[1], seat2=seats[2], seat3=seats[3], seat4=seats[4])


def seat_record(opts: Options, n: int) -> SeatRecord:
    """One Oathsworn as setup leaves it (OS-SETUP-1..8): class, items, no tokens, nothing on cooldown."""
    kind: Literal["full", "companion"] = "companion" if n in opts.companions else "full"
    cls = opts.classes[n - 1]
    return SeatRecord(cls=cls, kind=kind, items=tuple(opts.data.classes[cls]), tokens=dict.fromkeys(TOKEN_KINDS, 0),
                      positions=NO_POSITIONS, hand=(), max_animus=max_animus(opts, kind), level=opts.chapter)


def max_animus(opts: Options, kind: str) -> int:
    return rules.COMPANION_ANIMUS if kind == "companion" else opts.data.max_animus


def seat_tracks(opts: Options, n: int, kind: str) -> dict[str, Counter]:
    """OS-SETUP-1..3: the HP die, all animus gems on the reserve, the regeneration value."""
    hp = opts.hps[n - 1] if opts.hps else opts.max_hp  # OS-SETUP-1 / AMB-39
    total = max_animus(opts, kind)
    return {seat_track(n, "hp"): Counter(hp, 0, opts.max_hp), seat_track(n, "hp_max"): Counter(opts.max_hp, 1, 6),
            seat_track(n, "animus"): Counter(0, 0, total), seat_track(n, "animus_reserve"): Counter(total, 0, total),
            seat_track(n, "regen"): Counter(2 if kind == "companion" else opts.data.regen, 0, None)}  # OS-SETUP-2


def decks(d: GameData, fight: Encounter) -> dict[str, Any]:
    """MIGHT decks of both sides, the encounter's stage deck and the city and deepwood event decks
    (OS-SETUP-11)."""
    sources: dict[str, Any] = {}
    for letter, colour in COLOUR_NAMES.items():
        sources[f"might.{colour}"] = might_deck(f"might.{colour}", letter, d.might[letter])
        sources[f"enemy.{colour}"] = might_deck(f"enemy.{colour}", letter, d.enemy_might[letter])
    sources["stage"] = stage_deck(fight.stages)
    for which in ("city", "deepwood"):  # drawn cards are archived (no reshuffle)
        count = int(d.company.get(f"{which}_events", 6))
        sources[f"events.{which}"] = Deck.plain(f"events.{which}", {f"{which}{i}": 1 for i in range(1, count + 1)},
                                                False)
    return sources


class Oathsworn(Game):
    name = "oathsworn"
    title = "Oathsworn: Into the Deepwood"
    seats_min = 1
    seats_max = 4
    seats_default = 4
    flow = FLOW
    record_type = OathswornRecord
    file_options = frozenset({"data"})
    pack_package = PACKAGE  # its data/ folder is the pack "core"
    # the HP die is the HP die; the dial's RES counts Animus, its other slots are not used
    counter_tracks: ClassVar[Mapping[str, str | None]] = {"hp": "hp", "resources": "animus"}
    track_words: ClassVar[Mapping[str, str]] = {"hp": "HP", "time.used": "time used", "plan.white": "white cards"}

    def seat_name(self, state: GameState, seat: int) -> str:
        """The Oathsworn's class, or the ally standing in ("Warden")."""
        record = table_seat(state, seat)
        return record.ally or record.cls

    # --- setup --------------------------------------------------------------------------------
    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        opts = read_options(options)
        d = opts.data
        size = len(d.chapter(opts.chapter).track().order)
        tracks: dict[str, Counter] = {
            "time.used": Counter(0, 0, size),
            "iron": Counter(int(d.company.get("iron_per_oathsworn", 3)) * 4, 0, None),  # OS-SETUP-4
            "knockouts": Counter(0, 0, None),
        }
        records = {n: seat_record(opts, n) for n in SEATS}
        for n, record in records.items():
            tracks.update(seat_tracks(opts, n, record.kind))
        for name, _ in opts.encounter.boss:
            tracks[f"boss.{name}"] = Counter(6, 0, 6)  # OS-ESET-3: every HP die at 6
        state = replace(state, seats=4, tracks=tracks, sources=decks(d, opts.encounter), lead=opts.lead,
                        record=company_record(opts, state.seats, records))
        for n in SEATS:  # DEFENSE needs the data in place
            tracks[seat_track(n, "defense")] = Counter(base_defense(state, records[n]), 0, None)
        return replace(state, tracks=tracks)

    def new_state(self, seats: int, seed: int, options: Mapping[str, str] | None = None) -> GameState:
        state = super().new_state(seats, seed, options)
        if part(state) == "encounter":
            txn = Txn(self, state, random.Random(f"{seed}:faceup"))
            flip_stage(txn)
            state = txn.state
        return state

    # --- verbs --------------------------------------------------------------------------------
    def verbs(self) -> Mapping[str, Verb]:
        return VERBS

    def decide(self, state: GameState, command: Command, rng: random.Random | None = None) -> list[Event]:
        """The game's own verbs wait while a prompt is open, unless the verb answers that very prompt
        (``ally SEAT NAME`` while the ally question is open); while a story round of combat is open,
        only its attacks (and the verbs that serve them) go on (OS-SCOMBAT-1). The core verbs check
        for themselves."""
        own = VERBS.get(command.verb)
        if own is not None and state.prompt is not None and state.prompt.id not in own.answers:
            raise Rejected(flowmod.answer_first(state))
        record = rec(state)
        if own is not None and record.fight and not own.in_fight:
            raise Rejected(_fight_open(state))
        if record.data_logged is not None and record.data_logged != record.data_sha256:
            raise Rejected(f"{record.data_path or 'the game data'} changed since this session was saved: "
                           "restore that file to go on (the saved log assumes its numbers)")
        return super().decide(state, command, rng)

    def after_command(self, txn: Txn) -> None:
        """The log's first command records which data text the session runs on, so a resume from a
        changed file is refused instead of replaying different numbers."""
        super().after_command(txn)
        if rec(txn.state).data_logged is None:
            txn.put("data_logged", rec(txn.state).data_sha256)

    def choices(self) -> Mapping[str, ChoiceHandler]:
        return {"determination": draws.choose_determination, "location": draws.choose_location,
                "defense": draws.choose_defense, "ally": turns.choose_ally,
                "defeat": epilogue.choose_defeat, "archive": story.choose_archive,
                "token_pick": story.choose_token_pick}

    # --- tracks -------------------------------------------------------------------------------
    def check_track(self, state: GameState, track: str, value: int) -> None:
        owner = SeatTrack.parse(track)
        if owner is not None and owner.track == "animus":
            n = owner.seat
            if value > seat(state, n).max_animus:
                raise Rejected(f"{track} cannot exceed MAX ANIMUS {seat(state, n).max_animus}")
        if track == "time.used" and state.step != "story":
            raise Rejected("the time track belongs to the story part")

    def on_track(self, txn: Txn, track: str, old: int, new: int) -> None:
        owner = SeatTrack.parse(track)
        if owner is not None:
            n, what = owner.seat, owner.track
            if what in ("animus", "animus_reserve"):
                # OS-ANIM-5: reserve + available = MAX ANIMUS; one side follows the other
                total = seat(txn.state, n).max_animus
                other = "animus_reserve" if what == "animus" else "animus"
                txn.set(seat_track(n, other), total - new)
            elif what == "hp" and new == 0 and old > 0:
                encounter.knocked_out(txn, n)
            elif what == "hp_max":
                encounter.retune_hp_max(txn, n, new)
        elif track.startswith("minion.") and new == 0:
            encounter.minion_gone(txn, track.removeprefix("minion."))
        elif track.startswith("boss.") and new == 0 and old > 0:
            encounter.location_broken(txn, track.removeprefix("boss."))
        elif track == "plan.white":
            plan.plan_white_changed(txn, new)
        elif track == "time.used" and new > old:
            for slot in range(old + 1, new + 1):
                story.slot_filled(txn, slot)

    # --- own events ---------------------------------------------------------------------------
    def apply_game(self, state: GameState, event: Event) -> GameState:
        sources = dict(state.sources)
        name = str(event.get("source", "stage"))
        deck = sources[name]
        if not isinstance(deck, Deck):
            raise KeyError(name)
        if event.kind == "might.reshuffle":
            keep = Multiset.of([str(c) for c in event["keep"]])
            fresh = deck.discard
            for card, count in keep.items:
                fresh = fresh.remove(card, count)
            sources[name] = msgspec.structs.replace(deck, stages=(fresh,), discard=keep)
        elif event.kind == "might.reset":
            sources[name] = deck.refresh()
        elif event.kind == "stage.drop":
            # OS-BRK-2 (2): every card of an earlier stage leaves the deck for the discard pile
            below = int(event["below"])
            stages = list(deck.stages)
            discard = deck.discard
            for i in range(min(below - 1, len(stages))):
                discard = discard.merge(stages[i])
                stages[i] = Multiset()
            sources[name] = msgspec.structs.replace(deck, stages=tuple(stages), discard=discard)
        elif event.kind == "stage.rebuild":
            # OS-STAGE-6 / OS-BRK-2 (3): a new deck from the stage 3 cards of the discard pile
            held = {str(c) for c in event.get("keep", ())}
            s3 = Multiset.of({c: n for c, n in deck.discard.items if c.startswith("S3.") and c not in held})
            rest = Multiset.of({c: n for c, n in deck.discard.items if not (c.startswith("S3.") and c not in held)})
            sources[name] = msgspec.structs.replace(deck, stages=(Multiset(), Multiset(), s3), discard=rest)
        elif event.kind == "stage.reset":
            everything = deck.discard
            for st in deck.stages:
                everything = everything.merge(st)
            by_stage = [Multiset.of({c: n for c, n in everything.items if c.startswith(f"S{i}.")}) for i in (1, 2, 3)]
            sources[name] = msgspec.structs.replace(deck, stages=tuple(by_stage), discard=Multiset())
        else:
            raise KeyError(f"unknown event kind {event.kind!r}")
        return replace(state, sources=sources)

    # --- station ------------------------------------------------------------------------------
    def panels(self, state: GameState) -> dict[str, Panel]:
        return panels.panels(self, state)

    def adjustable(self, state: GameState) -> list[str]:
        first = state.active_seat or 1
        order = [first, *[n for n in SEATS if n != first]]
        names = [seat_track(n, what) for n in order for what in ("hp", "animus")]
        names += ["iron", "knockouts"]
        if state.step == "story":
            names.insert(0, "time.used")
        names += [t for t in state.tracks if t.startswith(("boss.", "minion."))]
        if "plan.white" in state.tracks:
            names.insert(0, "plan.white")  # up/down try other white counts for the planned attack
        return names

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        """Seat buttons keep one meaning: A is "done" (end this Oathsworn's turn, resolve the open
        draw, the first answer of a question put to the seat), B is the seat's second choice (pass
        for the round, the second answer). ``legend`` says so on the seat display."""
        owner = SeatTrack.parse(role)
        if owner is None:
            return None
        n, which = owner.seat, owner.track
        prompt = state.prompt
        if prompt is not None:
            if prompt.seat == n and (which == "a" or len(prompt.options) > 1):
                return Command("choose", ("1" if which == "a" else "2",), origin="button")
            return None
        if rec(state).draws:
            return Command("resolve", (), origin="button") if which == "a" else None
        if rec(state).attacks_due and has_figure(state, n):  # A: the owed attack hits me; B: it finds no one
            return Command("enemy", (str(n),), origin="button") if which == "a" else Command("noattack", (), "button")
        if state.step == "turns" and state.active_seat == n:
            return Command("next", (), origin="button") if which == "a" else Command("pass", (str(n),), "button")
        return None

    def legend(self, state: GameState, seat: int) -> str | None:
        """The seat display's last line: what A and B do for this seat now (None: nothing to do)."""
        return panels.legend(state, seat)

    def pass_seat(self, txn: Txn, seat: int) -> None:
        """OS-RND-4: the phase ends when every player declines more turns. With one player at the
        table that player's pass is everyone's: the Oathsworn phase ends (``next`` instead ends
        only this Oathsworn's turn, so the others can still act)."""
        state = txn.state
        if state.step == "turns" and rec(state).players == 1 and seat == state.active_seat:
            if state.prompt is not None:
                raise Rejected(flowmod.answer_first(state))
            reason = _draw_open(state)
            if reason:
                raise Rejected(reason)
            txn.notice("the player passes: the Oathsworn phase ends")
            flowmod.leave(txn, self.flow)
            return
        super().pass_seat(txn, seat)

    def view_extra(self, state: GameState) -> dict[str, Any]:
        record = rec(state)
        return {"part": part(state), "chapter": record.chapter, "difficulty": record.difficulty,
                "draws": thaw(record.draws), "last": thaw(record.last),
                "result": record.result, "odds": plan.plan_odds_json(state),
                "seats_detail": {str(n): thaw(record.seat(n)) for n in SEATS},
                "stage_faceup": record.stage_faceup, "encounter": _encounter_view(state)}


def _encounter_view(state: GameState) -> dict[str, Any]:
    """The encounter being fought: its name, whether its numbers were checked, the faceup card's name."""
    fight = encounter_of(state)
    faceup = rec(state).stage_faceup
    return {"id": fight.id, "name": fight.name, "verified": fight.verified,
            "up_next": None if faceup is None else fight.card(str(faceup)).name}


VERBS: dict[str, GameVerb] = {**story.VERBS, **encounter.VERBS, **turns.VERBS, **epilogue.VERBS, **draws.VERBS,
                               **plan.VERBS}

__all__ = ["FLOW", "VERBS", "Oathsworn"]
