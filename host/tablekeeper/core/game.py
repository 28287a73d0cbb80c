"""The base every game builds on: core verbs, the transaction that turns a command into events,
and ``apply`` for the event kinds all games share.

A game subclass declares its flow, its setup, and its own verbs as small handler functions of a
transaction. Handlers raise ``Rejected`` with a reason; because the transaction works on a copy,
a rejected command changes nothing.
"""

from __future__ import annotations

import functools
import random
import typing
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.chance import Bag, Deck, Dice, PressRandom, Source
from tablekeeper.core.events import Command, Event, Json, NoticeKind
from tablekeeper.core.flow import Flow
from tablekeeper.core.frozen import freeze, thaw
from tablekeeper.core.numbers import parse_number
from tablekeeper.core.state import EMPTY, GameState, Prompt, Result
from tablekeeper.core.tracks import Counter, SeatTrack, seat_track
from tablekeeper.core.view import Panel
from tablekeeper.errors import Rejected

MAX_EVENTS_PER_COMMAND = 2_000
FLOW_MODES = ("walk", "auto")  # the ``flow`` option: every step by hand, or automatic steps run themselves
BUTTON_NAMES = ("next", "back", "select", "up", "down", "menu")  # what ``press``/``hold`` name (and seatN.a/b)

Handler = Callable[["Txn", tuple[str, ...]], None]
ChoiceHandler = Callable[["Txn", int], None]


class Verb(msgspec.Struct, frozen=True):
    """A script/game verb: ``usage`` like ``"spend SEAT"``, a one-line ``help``."""

    usage: str
    help: str
    handler: Handler


class Txn:
    """One command's work in progress: emits events, applying each at once so hooks see the result."""

    def __init__(self, game: Game, state: GameState, rng: random.Random | None = None) -> None:
        self.game = game
        self.state = state
        self.events: list[Event] = []
        self._rng = rng
        self.auto_steps = 0  # steps this command ran by itself (a guard against a round of nothing)

    def pressed(self) -> None:
        """A step ran by itself: what follows draws as the press it saved would have."""
        if isinstance(self._rng, PressRandom):
            self._rng.press(self.state.auto_runs)

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            raise Rejected("no chance is allowed here")
        return self._rng

    def emit(self, kind: str, **data: Json) -> GameState:
        if len(self.events) >= MAX_EVENTS_PER_COMMAND:
            raise Rejected("this command set off an endless chain of effects; nothing was changed")
        # Values read back from the state are frozen (read-only mappings); the log stores JSON.
        event = Event(kind, {key: thaw(value) for key, value in data.items()})
        self.state = self.game.apply(self.state, event)
        self.events.append(event)
        return self.state

    # --- tracks ---------------------------------------------------------------------------------
    def value(self, track: str) -> int:
        return self.game.counter(self.state, track).value

    def set(self, track: str, value: int) -> None:
        counter = self.game.counter(self.state, track)
        counter.check(track, value)
        self.game.check_track(self.state, track, value)
        if value == counter.value:
            return
        old = counter.value
        self.emit("track.set", name=track, value=value)
        for threshold in counter.crossed(value):
            self.emit("notice", text=f"{track} reached {threshold}", category=NoticeKind.THRESHOLD.value)
            self.game.on_threshold(self, track, threshold)
        self.game.on_track(self, track, old, value)

    def add(self, track: str, delta: int) -> None:
        self.set(track, self.value(track) + delta)

    def define(self, track: str, value: int = 0, lo: int | None = 0, hi: int | None = None,
               thresholds: Sequence[int] = ()) -> None:
        self.emit("track.define", name=track, value=value, lo=lo, hi=hi, thresholds=list(thresholds))

    def drop(self, track: str) -> None:
        self.emit("track.drop", name=track)

    # --- data, prompts, notices ---------------------------------------------------------------
    def put(self, key: str, value: Json | msgspec.Struct) -> None:
        """Keep a game-specific value in the state: a field of the game's typed record (a value of
        the field's type, logged as JSON) or an untyped JSON value. None puts the field's default back."""
        self.emit("data.set", key=key, value=value)  # emit thaws a Struct to JSON

    def notice(self, text: str, kind: NoticeKind = NoticeKind.INFO) -> None:
        self.emit("notice", text=text, category=kind.value)

    def ask(self, prompt_id: str, text: str, options: Sequence[str], *, seat: int | None = None,
            context: Mapping[str, Json] | None = None) -> None:
        if not options:
            raise Rejected(f"nothing to choose for: {text}")
        self.emit("prompt.open", id=prompt_id, text=text, options=list(options), seat=seat,
                  context=dict(context or {}))

    def open_prompt(self) -> Prompt:
        """The question an answer is for: the core calls a handler only while one is open, and this
        says so once for every handler (a ``choose`` with nothing open is refused by the core first)."""
        prompt = self.state.prompt
        if prompt is None:
            raise Rejected("there is nothing to choose")
        return prompt

    def close_prompt(self) -> None:
        self.emit("prompt.close")

    def end(self, reason: str, *, result: Result) -> None:
        """The game is over: ``result`` says how (data), ``reason`` says why (shown to players)."""
        self.emit("over", result=result.value, reason=reason)

    # --- chance -------------------------------------------------------------------------------
    def draw(self, source: str, outcome: str | None = None) -> str:
        """Draw from a source: the device picks with the session's seeded generator, or the players
        report what they drew physically (``outcome``; a deck's report is matched to the card it
        names, ``Deck.match``). Both log the same event."""
        src = self.game.source(self.state, source)
        reported = outcome is not None
        if outcome is None:
            outcome = src.pick(self.rng)
        elif isinstance(src, Dice):
            src.check(outcome)
        elif isinstance(src, Deck):
            outcome = src.match(outcome)
        self.emit("source.drawn", source=source, outcome=outcome, reported=reported)
        self.game.on_draw(self, source, outcome)
        return outcome

    def source_op(self, source: str, op: str, outcome: str | None = None, n: int = 1, stage: int = 0) -> None:
        self.game.source(self.state, source)
        self.emit("source." + op, source=source, outcome=outcome, n=n, stage=stage)


class Game:
    """Base class of a game: flow + setup data + verbs. Subclasses override the hooks they need."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    seats_min: ClassVar[int] = 1
    seats_max: ClassVar[int] = 4
    seats_default: ClassVar[int] = 2
    flow: ClassVar[Flow]
    # Option keys whose value names a data file: a session keeps the file's content, never the path.
    file_options: ClassVar[frozenset[str]] = frozenset()
    # The package whose data/ folder is the game's built-in pack (core/packs.py); None: it takes no packs.
    pack_package: ClassVar[str | None] = None
    # Counter slot (hp; the dial's damage, horror, clues, resources) -> the seat track it follows, None:
    # not used. A slot left out follows the seat track of its own name, if any (counter_tracks.py).
    counter_tracks: ClassVar[Mapping[str, str | None]] = {}
    # A track's name in the players' words where it is not its own (``agenda.doom``: "doom"); a seat
    # track's (``seat1.damage``) by the part after the seat.
    track_words: ClassVar[Mapping[str, str]] = {}
    # The game's typed record (boardgame.io's G): a frozen msgspec Struct whose fields all have
    # defaults; ``Txn.put`` of a field's name keeps the value there, converted from the log's JSON
    # once as the event is applied. None: every ``put`` lands in the untyped ``GameState.data``.
    record_type: ClassVar[type[msgspec.Struct] | None] = None

    # --- what a subclass provides -----------------------------------------------------------
    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        """Tracks, sources and data of a fresh game (pure; ``state`` has game/seats/seed set)."""
        return state

    def verbs(self) -> Mapping[str, Verb]:
        """Game-specific script verbs."""
        return {}

    def choices(self) -> Mapping[str, ChoiceHandler]:
        """Handlers for the game's prompts, by prompt id (the handler closes the prompt)."""
        return {}

    def check_track(self, state: GameState, track: str, value: int) -> None:
        """Raise ``Rejected`` if ``value`` breaks a game rule for ``track`` beyond its bounds."""

    def on_track(self, txn: Txn, track: str, old: int, new: int) -> None:
        """React to a track change (defeat checks and the like)."""

    def on_threshold(self, txn: Txn, track: str, threshold: int) -> None:
        """React to a counter reaching one of its thresholds."""

    def on_draw(self, txn: Txn, source: str, outcome: str) -> None:
        """React to a drawn outcome."""

    def after_command(self, txn: Txn) -> None:
        """Run once after every accepted command's own work (end-of-game checks and the like)."""

    def apply_game(self, state: GameState, event: Event) -> GameState:
        """Apply an event kind of the game's own (the shared kinds are handled by ``apply``)."""
        raise KeyError(f"unknown event kind {event.kind!r}")

    def owing(self, state: GameState) -> tuple[int, ...]:
        """The seats the current step still waits for; a game adds its own (a step without turns
        that still waits for each seat)."""
        return flowmod.owing(self.flow.step(state.phase, state.step), state)

    def pass_seat(self, txn: Txn, seat: int) -> None:
        """``pass SEAT``: the seat is done for this step or round (a game maps it to its own verb)."""
        flowmod.pass_seat(txn, self.flow, seat)

    def legend(self, state: GameState, seat: int) -> str | None:
        """What the seat's buttons mean now, for the last line of its display (None: the usual)."""
        return None

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        """The command a seat button means right now (``seatN.a``/``seatN.b``), or None."""
        return None

    def seat_name(self, state: GameState, seat: int) -> str:
        """What the table calls a seat (its investigator, its Spirit): "seat N" unless the game knows."""
        return f"seat {seat}"

    def track_label(self, state: GameState, track: str) -> str:
        """A track in the players' words ("Roland damage", "doom"): what the +/- buttons change."""
        owned = SeatTrack.parse(track)
        if owned is not None:
            return f"{self.seat_name(state, owned.seat)} {self.track_words.get(owned.track, _words(owned.track))}"
        return self.track_words.get(track, _words(track))

    def adjustable(self, state: GameState) -> list[str]:
        """Tracks the up/down buttons can change, the most useful first."""
        return list(state.tracks)

    def panels(self, state: GameState) -> dict[str, Panel]:
        """What each display role shows."""
        return default_panels(self, state)

    def campaign_record(self, state: GameState, previous: Mapping[str, Json] | None) -> dict[str, Json] | None:
        """What the campaign log keeps from this session, merged into ``previous`` (None: nothing).

        The runner stores it under the campaign's name when the game ends, and passes the stored
        record back to the next scenario as the option ``campaign`` (JSON text).
        """
        return None

    def campaign_begun(self, state: GameState, previous: Mapping[str, Json], slot: str,
                       slots: Collection[str]) -> dict[str, Json] | None:
        """The stored campaign log once this session (save slot ``slot``) has begun one of its scenarios,
        so the log can refuse between-scenario changes until it ends (None: nothing to change).
        ``slots`` are the save's slots; raise Rejected when the scenario cannot begin."""
        return None

    def view_tracks(self, state: GameState) -> dict[str, int | None]:
        return {name: c.value for name, c in state.tracks.items()}

    def names(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """The names a console offers for each kind of argument in the verbs' usage (``SEAT``,
        ``TRACK``, ``SOURCE``; a game adds its cards, places, Spirits under its own words)."""
        return {"SEAT": tuple(f"seat{s}" for s in state.seat_numbers()), "TRACK": tuple(state.tracks),
                "SOURCE": tuple(state.sources),
                "BUTTON": (*BUTTON_NAMES, *(seat_track(s, b) for s in state.seat_numbers() for b in "ab"))}

    def view_extra(self, state: GameState) -> dict[str, Json]:
        return {}

    # --- the engine --------------------------------------------------------------------------
    def new_state(self, seats: int, seed: int, options: Mapping[str, str] | None = None) -> GameState:
        """The state before any command: setup, then the flow's first step (deterministic)."""
        if not self.seats_min <= seats <= self.seats_max:
            raise Rejected(f"{self.name} takes {self.seats_min} to {self.seats_max} seats, not {seats}")
        options = dict(options or {})
        mode = options.pop("flow", "walk")
        if mode not in FLOW_MODES:
            raise Rejected(f"option flow={mode}: expected one of {', '.join(FLOW_MODES)}")
        record = self.record_type() if self.record_type is not None else None
        state = self.setup(GameState(game=self.name, seats=seats, seed=seed, auto=mode == "auto", record=record),
                           options)
        txn = Txn(self, state, PressRandom(seed, 0, 0, start=f"{seed}:setup"))
        flowmod.start(txn, self.flow)
        return txn.state

    def decide(self, state: GameState, command: Command, rng: random.Random | None = None) -> list[Event]:
        """Judge a command: the events it causes, or ``Rejected`` with a reason."""
        txn = Txn(self, state, rng)
        verb, args = command.verb, command.args
        self.flow.refuse_after_end(state, verb)
        game_verbs = self.verbs()
        if verb in game_verbs:
            game_verbs[verb].handler(txn, args)
        elif verb in CORE_VERBS:
            CORE_VERBS[verb].handler(txn, args)
        else:
            import difflib  # only for a refused verb: loading a game does not pay for it

            known = sorted({*CORE_VERBS, *game_verbs})
            close = difflib.get_close_matches(verb, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise Rejected(f"unknown verb {verb!r}{hint} (known: {', '.join(known)})")
        if not txn.events:
            raise Rejected(f"{command.text()}: nothing to do")
        self.after_command(txn)
        self.flow.judge_end(txn)
        flowmod.settle(txn, self.flow)
        return txn.events

    def apply(self, state: GameState, event: Event) -> GameState:
        fn = SHARED_APPLY.get(event.kind)
        new = fn(self, state, event) if fn is not None else self.apply_game(state, event)
        if event.kind == "notice" or not new.step:
            return new
        owing = self.owing(new)
        return new if owing == new.owing else replace(new, owing=owing)

    def counter(self, state: GameState, track: str) -> Counter:
        try:
            return state.tracks[track]
        except KeyError:
            raise Rejected(f"unknown track {track!r}") from None

    def source(self, state: GameState, name: str) -> Source:
        try:
            return state.sources[name]
        except KeyError:
            known = ", ".join(sorted(state.sources)) or "none"
            raise Rejected(f"unknown source {name!r} (sources: {known})") from None

    def all_verbs(self) -> dict[str, Verb]:
        return {**CORE_VERBS, **self.verbs()}

    def view(self, state: GameState) -> dict[str, Json]:
        """The JSON view scripts and tests rely on."""
        prompt = None
        if state.prompt is not None:
            prompt = {"id": state.prompt.id, "text": state.prompt.text,
                      "options": list(state.prompt.options), "seat": state.prompt.seat}
        out: dict[str, Json] = {
            "game": state.game,
            "seats": state.seats,
            "round": state.round,
            "phase": state.phase,
            "step": state.step,
            "step_label": self.flow.step(state.phase, state.step).title if state.step else "",
            "active_seat": state.active_seat,
            "lead": state.lead,
            "prompt": prompt,
            "tracks": self.view_tracks(state),
            "sources": {name: source_summary(src) for name, src in sorted(state.sources.items())},
            "over": state.over,
            "result": state.result.value if state.result is not None else None,
            "owing": list(state.owing),
        }
        out.update(self.view_extra(state))
        return out


# --- shared event kinds ---------------------------------------------------------------------------

def _apply_flow(game: Game, state: GameState, e: Event) -> GameState:
    return replace(state, round=int(e["round"]), phase=str(e["phase"]), step=str(e["step"]),
                   active_seat=e["seat"], done=tuple(e.get("done", ())), passes=tuple(e.get("passes", ())))


def _apply_track_set(game: Game, state: GameState, e: Event) -> GameState:
    tracks = dict(state.tracks)
    tracks[e["name"]] = tracks[e["name"]].with_value(int(e["value"]))
    return replace(state, tracks=tracks)


def _apply_track_define(game: Game, state: GameState, e: Event) -> GameState:
    tracks = dict(state.tracks)
    tracks[e["name"]] = Counter(int(e["value"]), e.get("lo"), e.get("hi"), tuple(e.get("thresholds", ())))
    return replace(state, tracks=tracks)


def _apply_track_drop(game: Game, state: GameState, e: Event) -> GameState:
    tracks = dict(state.tracks)
    tracks.pop(e["name"], None)
    return replace(state, tracks=tracks)


@functools.cache
def _record_fields(kind: type[msgspec.Struct]) -> Mapping[str, tuple[str, Any, Any]]:
    """A record's fields by the key the log names them (a Struct's ``rename``, e.g. "invader.slots"):
    key -> (attribute, type, default); read once per record type."""
    hints = typing.get_type_hints(kind)
    blank = kind()
    return {key: (name, hints[name], getattr(blank, name))
            for name, key in zip(kind.__struct_fields__, kind.__struct_encode_fields__, strict=True)}


def _apply_data(game: Game, state: GameState, e: Event) -> GameState:
    kind = game.record_type
    if kind is not None and state.record is not None and e["key"] in kind.__struct_encode_fields__:
        name, field_type, default = _record_fields(kind)[e["key"]]
        try:
            value = default if e["value"] is None else msgspec.convert(e["value"], field_type)
        except msgspec.ValidationError as exc:  # the path alone ("$.fight") does not say which record field
            raise msgspec.ValidationError(f"{game.name} record field {e['key']!r}: {exc}") from None
        return replace(state, record=replace(state.record, **{name: value}))
    data = dict(state.data)
    if e["value"] is None:
        data.pop(e["key"], None)
    else:
        data[e["key"]] = freeze(e["value"])
    return replace(state, data=data)


def _apply_prompt_open(game: Game, state: GameState, e: Event) -> GameState:
    return replace(state, prompt=Prompt(str(e["id"]), str(e["text"]), tuple(e["options"]), e.get("seat"),
                                        freeze(e.get("context") or {})))


def _apply_prompt_close(game: Game, state: GameState, e: Event) -> GameState:
    return replace(state, prompt=None)


def _apply_over(game: Game, state: GameState, e: Event) -> GameState:
    if "reason" not in e.data:  # logged before results were data: the text was all there was
        return replace(state, over=str(e["result"]))
    return replace(state, over=str(e["reason"]), result=Result(str(e["result"])))


def _apply_notice(game: Game, state: GameState, e: Event) -> GameState:
    if e.get("category") == NoticeKind.AUTO.value:
        return replace(state, auto_runs=state.auto_runs + 1)
    return state


def _apply_lead(game: Game, state: GameState, e: Event) -> GameState:
    return replace(state, lead=int(e["seat"]))


def _with_source(state: GameState, name: str, src: Source) -> GameState:
    sources = dict(state.sources)
    sources[name] = src
    return replace(state, sources=sources)


def _apply_source(game: Game, state: GameState, e: Event) -> GameState:
    name = str(e["source"])
    src = state.sources[name]
    op = e.kind.removeprefix("source.")
    outcome = e.get("outcome")
    n = int(e.get("n", 1) or 1)
    new: Source
    if isinstance(src, Bag):
        ops_bag: dict[str, Callable[[], Bag]] = {
            "drawn": lambda: src.drawn(outcome),
            "put": lambda: src.put(outcome, n),
            "take": lambda: src.take(outcome, n),
            "seal": lambda: src.seal(outcome),
            "release": lambda: src.release(outcome),
            "return": src.return_all,
        }
        new = ops_bag[op]()
    elif isinstance(src, Deck):
        stage = int(e.get("stage", 0) or 0)
        ops_deck: dict[str, Callable[[], Deck]] = {
            "drawn": lambda: src.drawn(outcome),
            "put": lambda: src.put(outcome, n, stage),
            "take": lambda: src.take(outcome, n, stage),
            "refresh": src.refresh,
        }
        new = ops_deck[op]()
    else:
        new = src  # dice keep no state
    return _with_source(state, name, new)


def source_summary(src: Source) -> dict[str, Json]:
    if isinstance(src, Bag):
        return {"type": "bag", "contents": src.contents.as_dict(), "out": src.out.as_dict(),
                "sealed": src.sealed.as_dict()}
    if isinstance(src, Deck):
        return {"type": "deck", "remaining": src.remaining, "discard": src.discard.total,
                "stage": (src.stage_index() or 0) + 1}
    return {"type": "dice", "faces": list(src.faces), "count": src.count}


SHARED_APPLY: dict[str, Callable[[Game, GameState, Event], GameState]] = {
    "flow": _apply_flow,
    "track.set": _apply_track_set,
    "track.define": _apply_track_define,
    "track.drop": _apply_track_drop,
    "data.set": _apply_data,
    "prompt.open": _apply_prompt_open,
    "prompt.close": _apply_prompt_close,
    "over": _apply_over,
    "notice": _apply_notice,
    "lead": _apply_lead,
    **{f"source.{op}": _apply_source for op in ("drawn", "put", "take", "seal", "release", "return", "refresh")},
}


# --- core verbs -------------------------------------------------------------------------------

def _words(name: str) -> str:
    return name.replace("_", " ").replace(".", " ")


def parse_int(text: str, what: str) -> int:
    """A number a player typed (``numbers.parse_number``: ASCII digits and a sign only)."""
    return parse_number(text, what)


def parse_seat(state: GameState, text: str) -> int:
    seat = parse_int(text.removeprefix("seat"), "seat")
    if seat not in state.seat_numbers():
        raise Rejected(f"no seat {seat} (seats 1..{state.seats})")
    return seat


def want(args: tuple[str, ...], n: int, usage: str) -> None:
    if len(args) != n:
        raise Rejected(f"usage: {usage}")


def _next(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 0, "next")
    flowmod.advance(txn, txn.game.flow)


def _next_forced(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 0, "next!")
    flowmod.advance(txn, txn.game.flow, force=True)


def _choose(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "choose N")
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("there is nothing to choose")
    n = parse_int(args[0], "choice")
    if not 1 <= n <= len(prompt.options):
        raise Rejected(f"choose 1..{len(prompt.options)} for: {prompt.text}")
    if prompt.id == "flow.next_seat":
        flowmod.choose_next_seat(txn, txn.game.flow, n - 1)
        return
    handler = txn.game.choices().get(prompt.id)
    if handler is None:
        raise Rejected(f"no handler for prompt {prompt.id!r}")
    handler(txn, n - 1)


def _set(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "set TRACK VALUE")
    txn.game.counter(txn.state, args[0])
    txn.set(args[0], parse_int(args[1], args[0]))


def _add(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "add TRACK +N|-N")
    txn.game.counter(txn.state, args[0])
    txn.add(args[0], parse_int(args[1], args[0]))


def _draw(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "draw SOURCE")
    txn.draw(args[0])


def _reveal(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) < 2:
        raise Rejected("usage: reveal SOURCE OUTCOME")
    txn.draw(args[0], " ".join(args[1:]))


def _pass(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "pass SEAT")
    txn.game.pass_seat(txn, parse_seat(txn.state, args[0]))


def _done(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "done SEAT")
    flowmod.seat_done(txn, txn.game.flow, parse_seat(txn.state, args[0]))


CORE_VERBS: dict[str, Verb] = {
    "next": Verb("next", "advance to the next turn or step (refused while seats still play the step)", _next),
    "next!": Verb("next!", "end the step even though seats still owe a move", _next_forced),
    "choose": Verb("choose N", "answer the open prompt with option N (1-based)", _choose),
    "set": Verb("set TRACK VALUE", "set a track to a value", _set),
    "add": Verb("add TRACK +N|-N", "change a track by N", _add),
    "draw": Verb("draw SOURCE", "the device draws from a bag, deck or dice", _draw),
    "reveal": Verb("reveal SOURCE OUTCOME", "report what was drawn physically", _reveal),
    "pass": Verb("pass SEAT", "the seat is done for this step or round (pass, done, end of turn)", _pass),
    "done": Verb("done SEAT", "a seat signals it is done (steps all seats play together)", _done),
}


def default_panels(game: Game, state: GameState) -> dict[str, Panel]:
    step = game.flow.step(state.phase, state.step).title if state.step else ""
    panels = {"track": Panel(f"Round {state.round}", (state.phase.replace("_", " ").title(), step),
                             big=None)}
    if state.prompt is not None:
        panels["tokens"] = Panel(state.prompt.text, tuple(f"{i}. {o}" for i, o in
                                                          enumerate(state.prompt.options, 1)))
    return panels


__all__ = ["EMPTY", "Game", "GameState", "Txn", "Verb", "thaw"]
