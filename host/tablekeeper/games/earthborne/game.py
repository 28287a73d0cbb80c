"""Earthborne Rangers on the Tablekeeper core: setup, verbs, prompts, views and buttons.

Clearing (the seed rules ER-TOKEN/ER-CLEAR/ER-LOC) lives in ``engine``; pure rules in ``rules``;
the phases, travel and days in ``travel``; the verbs in ``cards``, ``rangers``, ``challenge`` and
``pathdeck``, listed in ``verbs``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from tablekeeper.core import packs as packlib
from tablekeeper.core.chance import Deck
from tablekeeper.core.events import Command, Event
from tablekeeper.core.flow import Flow
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter, SeatTrack, seat_track
from tablekeeper.core.view import Panel
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.earthborne import (
    cards,
    challenge,
    engine,
    panels,
    parsing,
    pathdeck,
    rangers,
    rules,
    tables,
    tracker,
    travel,
    verbs,
)
from tablekeeper.games.earthborne import data as datamod
from tablekeeper.games.earthborne.data import ASPECTS
from tablekeeper.games.earthborne.record import Aspects, EarthborneRecord, GameConfig, Place, rec


def _aspects_option(text: str, key: str) -> dict[str, int]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 4 or not all(is_number(p, signed=False) for p in parts):
        raise ConfigError(f"--option {key}={text}: expected AWA,FIT,SPI,FOC like 3,2,2,1")
    return dict(zip(ASPECTS, (int(p) for p in parts), strict=True))


def _then_carry_on(handler: ChoiceHandler) -> ChoiceHandler:
    """After an answer, tokens changed while the prompt was open may have made cards due."""
    def answered(txn: Txn, index: int) -> None:
        handler(txn, index)
        engine.end_of_command(txn)
    return answered


class Earthborne(Game):
    name = "earthborne"
    title = "Earthborne Rangers"
    seats_min = 1
    seats_max = 4
    seats_default = 2
    flow: ClassVar[Flow] = travel.FLOW
    record_type = EarthborneRecord
    file_options = frozenset({"rules", "challenge", "campaign", "path", "cards"})
    pack_package = datamod.PACKAGE  # its data/ folder is the pack "core"
    # Rangers have no hit points: the HP die and the dial's DMG count injuries (the third ends the day);
    # fatigue and energy move cards and tokens by their own verbs, so no counter sets them
    counter_tracks: ClassVar[Mapping[str, str | None]] = {"hp": "injury", "damage": "injury"}
    track_words: ClassVar[Mapping[str, str]] = {"awa": "awareness energy", "fit": "fitness energy",
                                                "spi": "spirit energy", "foc": "focus energy",
                                                "location.progress": "location progress",
                                                "location.harm": "location harm"}

    def seat_name(self, state: GameState, seat: int) -> str:
        return f"Ranger {seat}"

    def track_label(self, state: GameState, track: str) -> str:
        """A path card's tokens by the card's name ("Sitka Doe progress"), the rest as the core says."""
        key, _, kind = track.partition(".")
        card = tables.cards(state).get(key)
        if card is not None and kind in ("progress", "harm"):
            return f"{card.name} {kind}"
        return super().track_label(state, track)

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        """ER-SETUP-1: a day's setup. Options: rules/challenge/campaign/path/cards=PATH (edited data; a
        path file is then the path deck itself, a cards file more path cards the device knows), day=N,
        aspectsN=AWA,FIT,SPI,FOC, location=NAME[:THRESHOLD] (day 1 begins where the campaign starts),
        pathdeck=N (the group's path deck is already built with N cards)."""
        known = {"rules", "challenge", "campaign", "path", "cards", "day", "location", "pathdeck", "challenge_deck",
                 "day_track", packlib.PACKS_OPTION,
                 *(f"aspects{s}" for s in state.seat_numbers())}
        extra = sorted(set(options) - known)
        if extra:
            raise ConfigError(f"--option {extra[0]}: unknown earthborne option (known: {', '.join(sorted(known))})")
        loaded = datamod.load(options, packlib.active(options, "earthborne", datamod.PACKAGE))
        cfg = datamod.config(loaded)
        default = cfg.rules.default_aspects.as_dict()
        aspects = {str(s): _aspects_option(options[f"aspects{s}"], f"aspects{s}") if f"aspects{s}" in options
                   else dict(default) for s in state.seat_numbers()}
        day_text = options.get("day", "1")
        if not is_number(day_text, signed=False) or not 1 <= int(day_text) <= cfg.days:
            raise ConfigError(f"--option day={day_text}: expected a day 1..{cfg.days}")
        tracks: dict[str, Counter] = {"day": Counter(int(day_text), 1, cfg.days),
                                      "location.progress": Counter(0, 0), "location.harm": Counter(0, 0)}
        tracks.update(rangers.counter_defs(state.seats, aspects, cfg.rules.ranger_deck, cfg.rules.opening_hand))
        record = EarthborneRecord(cfg=cfg, aspects=msgspec.convert(aspects, dict[str, Aspects]),
                                  weather=rules.weather_for(int(day_text), cfg.weather))
        if "path" in options:
            path_deck = pathdeck.file_deck(cfg)
            record = msgspec.structs.replace(record, path_mode="file")
        else:
            count_text = options.get("pathdeck", "0")
            if not is_number(count_text, signed=False):
                raise ConfigError(f"--option pathdeck={count_text}: expected the number of cards in the path deck")
            path_deck = pathdeck.apply_path(Deck.plain("path", {}), "path.built", "", int(count_text))
            record = msgspec.structs.replace(record, path_built=int(count_text) > 0,
                                             path_fresh=int(count_text) > 0)
        sources = {"challenge": Deck.plain("challenge", [c.id for c in loaded.challenge]), "path": path_deck}
        location = self._location(cfg, options, int(day_text))
        record = msgspec.structs.replace(record, location=location)
        return replace(state, tracks=tracks, sources=sources, record=record)

    @staticmethod
    def _location(cfg: GameConfig, options: Mapping[str, str], day: int) -> Place | None:
        """ER-SETUP-1: the day's location: the one named, else on the campaign's first day its start."""
        text = options.get("location")
        if text is None:
            start = cfg.start
            if day != 1 or not start or start not in cfg.locations:
                return None
            text = cfg.locations[start].name
        name, sep, threshold = text.rpartition(":")
        if not sep:
            name, threshold = text, ""
        if not name:
            raise ConfigError(f"--option location={text}: expected NAME or NAME:THRESHOLD")
        try:
            return cards.location_record(cfg, name, threshold or None, None)
        except (Rejected, ValueError) as exc:
            raise ConfigError(f"--option location={text}: {exc}") from None

    def verbs(self) -> Mapping[str, Verb]:
        out = {name: Verb(usage, text, handler) for name, (usage, text, handler) in verbs.verb_table().items()}
        for name, (usage, text, handler) in travel.DAY_VERBS.items():
            out[name] = Verb(usage, text, verbs.guarded(handler))
        usage, text, handler = travel.NEWDAY
        out["newday"] = Verb(usage, text, handler)
        for name, (usage, text, handler) in tracker.VERBS.items():
            out[name] = Verb(usage, text, handler)  # campaign bookkeeping: also after the day's end
        out["next"] = Verb("next", "end the active Ranger's turn, or go on to the next step", travel.next_verb)
        out["next!"] = Verb("next!", "end the step for the Rangers still owing a move (a path card, a rest), "
                            "named in the log", travel.forced_next_verb)
        out["draw"] = Verb("draw challenge [effect] | draw path [SEAT] [extra]",
                           "the device draws (the waiting test's challenge card, a path card)", pathdeck.draw_verb)
        out["reveal"] = Verb("reveal challenge ID|ICON [ASPECT=N ..] [effect] "
                             "| reveal path NAME [SEAT] [extra|discard]",
                             "report the card turned over", pathdeck.reveal_verb)
        return out

    def choices(self) -> Mapping[str, ChoiceHandler]:
        handlers: dict[str, ChoiceHandler] = {
            "clear.order": engine.choose_clear_order, "clear.kind": engine.choose_kind,
            "effect.order": engine.choose_effect_order, "travel": travel.choose_travel,
            "path.build": travel.choose_path_deck,
            "gear.discard": rangers.choose_gear}
        return {prompt_id: _then_carry_on(handler) for prompt_id, handler in handlers.items()}

    def check_track(self, state: GameState, track: str, value: int) -> None:
        ended = tables.day_end(state)
        if ended is not None and ended.timing == "now":
            raise Rejected(f"day {state.value('day')} has ended ({ended.reason.replace('_', ' ')}): use newday")

    def on_track(self, txn: Txn, track: str, old: int, new: int) -> None:
        """A core ``add``/``set`` on a token track is one rules step of its own (ER-CLEAR-6)."""
        if track.endswith((".progress", ".harm")):
            kind = track.rpartition(".")[2]
            if new > old:
                by = cards.placement_by(txn.state, None)
                if by is not None:
                    for response in rec(txn.state).responses:
                        if response.window == f"place-{kind}" and response.seat == by:
                            tables.log(txn, response.label)
            engine.end_of_command(txn)

    def on_draw(self, txn: Txn, source: str, outcome: str) -> None:
        if source == "challenge":
            challenge.on_challenge(txn, outcome)
            engine.run(txn)

    def apply_game(self, state: GameState, event: Event) -> GameState:
        if event.kind in ("path.drawn", "path.discarded", "path.built", "path.reset"):
            deck = state.sources["path"]
            if not isinstance(deck, Deck):
                raise KeyError("path")
            sources = dict(state.sources)
            if event.kind == "path.reset":
                sources["path"] = pathdeck.file_deck(tables.cfg(state))
            else:
                sources["path"] = pathdeck.apply_path(deck, event.kind, str(event.get("card", "")),
                                                      int(event.get("n", 0) or 0), event.get("cards"))
            return replace(state, sources=sources)
        return super().apply_game(state, event)

    # --- views ---------------------------------------------------------------------------------
    def view_tracks(self, state: GameState) -> dict[str, int | None]:
        out: dict[str, int | None] = {name: c.value for name, c in state.tracks.items()}
        out["location.threshold"] = tables.location_threshold(state)
        for key, record in tables.cards(state).items():
            out[f"{key}.progress_threshold"] = rules.threshold(record, "progress", state.seats)
            out[f"{key}.harm_threshold"] = rules.threshold(record, "harm", state.seats)
        return out

    def view_extra(self, state: GameState) -> dict[str, Any]:
        ended = tables.day_end(state)
        kept = rec(state)
        cards = {}
        for key, record in tables.cards(state).items():
            progress, harm = tables.tokens(state, key)
            cards[key] = {**thaw(record), "progress_tokens": progress, "harm_tokens": harm,
                          "due": list(tables.reached(state, key))}
        test = engine.current_test(state)
        test_view = None
        if test is not None:
            test_view = {k: getattr(test, k) for k in ("seat", "aspect", "difficulty", "effort", "stage", "card",
                                                       "modifier", "total", "success", "icon", "current")}
            if test.stage == "draw":
                test_view["odds"] = challenge.chance_text(state, test.aspect, test.effort, test.difficulty)
                test_view["deck_file"] = challenge.deck_file(state)
                test_view["deck_verified"] = challenge.deck_verified(state)
        return {
            "cards": cards,
            "location": thaw(tables.location(state)),
            "awaiting": engine.awaiting(state),
            "work": [engine.frame_kind(f) for f in engine.frames(state)],
            "test": test_view,
            "log": list(kept.log),
            "clears": thaw(kept.clears),
            "responses": thaw(kept.responses),
            "turns": thaw(kept.turns),
            "weather": kept.weather,
            "crossed": list(kept.crossed),
            "record": thaw(kept.record),
            "travel": kept.travel,
            "day_end_reason": None if ended is None else ended.reason,
            "day_end_pending": None if ended is None else ended.timing,
            "gear": thaw(kept.gear),
            "missions": thaw(kept.missions),
            "rewards": list(kept.rewards),
            "notes": thaw(kept.notes),
            "known_path": sorted(kept.known_path),
            "path_built": kept.path_built,
            "unverified_data": list(tables.cfg(state).unverified),
            "content": datamod.content(tables.cfg(state)),
        }

    def panels(self, state: GameState) -> dict[str, Panel]:
        step = self.flow.step(state.phase, state.step).title if state.step else ""
        return panels.panels(state, step)

    def adjustable(self, state: GameState) -> list[str]:
        """The active seat's energy first, then the cards' tokens, the location, the other seats."""
        first = [state.active_seat] if state.active_seat else []
        seats = [*first, *(s for s in state.seat_numbers() if s not in first)]
        seat_tracks = [[seat_track(s, a) for a in (*ASPECTS, "fatigue", "injury")] for s in seats]
        card_tracks = [f"{k}.{kind}" for k in tables.cards(state) for kind in ("progress", "harm")]
        head = seat_tracks[0] if first else []
        rest = [t for group in (seat_tracks[1:] if first else seat_tracks) for t in group]
        return [*head, *card_tracks, "location.progress", "location.harm", *rest]

    def owing(self, state: GameState) -> tuple[int, ...]:
        return travel.owing(state)

    def pass_seat(self, txn: Txn, seat: int) -> None:
        """``pass SEAT`` in the Ranger turns is resting (ER-REST-1); in Phase 1 that Ranger drew its path
        card (ER-PATH-1, named or not); elsewhere the core's meaning."""
        if (txn.state.phase, txn.state.step) == ("turns", "turns"):
            rangers.rest_verb(txn, (str(seat),))
        elif (txn.state.phase, txn.state.step) == ("path", "draw"):
            parsing.guard(txn)
            pathdeck.seat_drew(txn, seat)
        else:
            super().pass_seat(txn, seat)

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        """Seat buttons keep one meaning (issue 20): A is done (resolve what is shown, draw my path
        card, end my turn, rest) or the first answer; B is the seat's own move (take a turn; held:
        exhausting the role card, ER-TURN-1) or the second answer. ``legend`` says which, per seat."""
        owner = SeatTrack.parse(role)
        if owner is None or owner.track not in ("a", "b"):
            return None
        seat, which = str(owner.seat), owner.track
        if state.prompt is not None:
            answer = 1 if which == "a" else 2
            return Command("choose", (str(answer),), origin="button") if answer <= len(state.prompt.options) else None
        # a Ranger still in the round, and no one else is midway through a turn
        playing = state.phase == "turns" and int(seat) not in tables.turns(state).rested \
            and state.active_seat in (None, int(seat))
        if which == "b":
            return Command("turn", (seat, "role") if held else (seat,), origin="button") if playing else None
        if engine.awaiting(state):
            return Command("resolve", (), origin="button")
        if pathdeck.draws_next(state, int(seat)):
            return Command("draw", ("path", seat), origin="button")
        if pathdeck.drew_unnamed_next(state, int(seat)):
            return Command("pass", (seat,), origin="button")  # the group's own deck: drawn, not named
        if _test_waits_for_card(state, int(seat)):
            return Command("draw", ("challenge",), origin="button")  # ER-TEST-1 step 3
        if playing and state.active_seat == int(seat):
            return Command("next", (), origin="button")  # end my turn
        if playing:
            return Command("rest", (seat,), origin="button")
        return None

    def names(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """Besides seats and tracks: the path cards the box knows (shipped or reported), the cards in
        play, the locations, path sets, aspects and challenge cards."""
        config = tables.cfg(state)
        path = tuple(dict.fromkeys([*config.path, *rec(state).known_path]))
        places = tuple(spec.name for spec in config.locations.values())
        return {**super().names(state), "NAME": path, "arrive:NAME": places, "camp:NAME": places,
                "location:NAME": places, "CARD": (*tables.cards(state), "location"), "SET": tuple(config.sets),
                "ASPECT": ASPECTS, "ID": tuple(config.challenge)}

    def legend(self, state: GameState, seat: int) -> str | None:
        """What A and B do now, in words, for the seat display's last line."""
        if state.over is not None:
            return None
        if state.prompt is not None:
            options = state.prompt.options
            text = f"A: {options[0]}" + (f", B: {options[1]}" if len(options) > 1 else "")
            return text + (" (others: +/- NEXT)" if len(options) > 2 else "")
        if engine.awaiting(state):
            return "A: done"
        if pathdeck.draws_next(state, seat):
            return "A: draw my path card"
        if pathdeck.drew_unnamed_next(state, seat):
            return "A: drew my path card"
        if _test_waits_for_card(state, seat):
            return "A: draw challenge card"
        turns = tables.turns(state)
        if state.phase != "turns" or seat in turns.rested:
            return None
        if state.active_seat == seat:
            return "A: end my turn"
        if state.active_seat is not None:
            return None  # another Ranger is midway through a turn
        others = [s for s in state.seat_numbers() if s != seat and s not in turns.rested]
        if turns.last == seat and others and state.active_seat is None:
            return "hold B to go again"  # ER-TURN-1: another Ranger first, unless the role card is exhausted
        return "A: rest, B: my turn"


def _test_waits_for_card(state: GameState, seat: int) -> bool:
    """ER-TEST-1: the seat's test has its effort committed and waits for its challenge card, so the
    seat's A draws it (ending the turn then would be refused)."""
    test = engine.current_test(state)
    return test is not None and test.stage == "draw" and test.seat == seat
