"""Arkham Horror: The Card Game on the rules core: the round as framework steps, doom and agenda,
investigators, the chaos bag with skill tests and exact odds, and what a campaign carries over."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, ClassVar

import msgspec

from tablekeeper.core import flow as flowmod
from tablekeeper.core.events import Command, Json
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.odds import percent
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import SeatTrack
from tablekeeper.core.view import Panel
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import (
    board,
    effects,
    panels,
    pending,
    reference,
    rules,
    setup,
    skilltest,
)
from tablekeeper.games.arkham.flow import FLOW
from tablekeeper.games.arkham.record import ArkhamRecord, rec

HARM_LIMITS = {"damage": "health", "horror": "sanity"}


class Arkham(Game):
    name = "arkham"
    title = "Arkham Horror: The Card Game"
    seats_min = 1
    seats_max = 4
    seats_default = 2
    flow = FLOW
    file_options = frozenset({"scenario", "chaos", "investigators", "assets", "encounters", "bag"})
    pack_package = "tablekeeper.games.arkham"  # its data/ folder is the pack "core"
    record_type = ArkhamRecord
    # the HP die counts damage taken (up); the dial's four slots are tracks of their own name
    counter_tracks: ClassVar[Mapping[str, str | None]] = {"hp": "damage"}
    track_words: ClassVar[Mapping[str, str]] = {"agenda.doom": "doom", "doom.other": "doom elsewhere",
                                                "agenda.threshold": "agenda threshold",
                                                "act.clues_required": "clues the act needs"}

    def seat_name(self, state: GameState, seat: int) -> str:
        """The investigator's first name ("Roland")."""
        return panels.seat_name(state, seat)

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        return setup.build(state, options)

    def verbs(self) -> Mapping[str, Verb]:
        from tablekeeper.games.arkham.verbs import VERBS  # with campaign and ArkhamDB: loaded after the first frame

        return VERBS

    def choices(self) -> Mapping[str, ChoiceHandler]:
        from tablekeeper.games.arkham import choices

        return choices.HANDLERS

    def check_track(self, state: GameState, track: str, value: int) -> None:
        """Bad input: damage beyond health, horror beyond sanity, an act needing no clues."""
        owner = SeatTrack.parse(track)
        if owner is not None and owner.track in HARM_LIMITS:
            limit = state.value(SeatTrack(owner.seat, HARM_LIMITS[owner.track]).name)
            if value > limit:
                raise Rejected(f"{track} {value} is beyond {HARM_LIMITS[owner.track]} {limit}")
        if track == "act.clues_required" and value < 1 and not effects.card(state, "act").objective:
            raise Rejected("act.clues_required cannot go below 1 for an act without an objective")

    def on_track(self, txn: Txn, track: str, old: int, new: int) -> None:
        if track == "encounter.deck" and new == 0:
            effects.reshuffle_encounters(txn)
        elif track in ("agenda", "act"):  # a card chosen by hand brings its own threshold
            need = effects.amount(effects.card(txn.state, track), effects.investigator_count(txn.state))
            txn.set("agenda.threshold" if track == "agenda" else "act.clues_required",
                    max(1, need) if track == "agenda" else need)

    def owing(self, state: GameState) -> tuple[int, ...]:
        """4.5: a seat holding more than 8 cards owes a discard; the round waits for it."""
        return super().owing(state) or effects.hand_owing(state)

    def pass_seat(self, txn: Txn, seat: int) -> None:
        """4.5: a seat over the hand size is done once it holds 8: its pass discards the excess (the
        player picks the cards); a seat with nothing to discard is told who the round waits for."""
        owing = effects.hand_owing(txn.state)
        if seat in owing:
            effects.discard_to_limit(txn, seat)
        elif owing:
            raise Rejected(f"seat {seat} has nothing to discard; {effects.over_hand_limit(txn.state)}")
        else:
            super().pass_seat(txn, seat)

    def after_command(self, txn: Txn) -> None:
        """AH-DMG-9 for tracks changed by hand (``set``/``add``, the counters): judged once the
        command's changes have all landed, so damage and horror set together count as both. Then
        whatever the command left waiting carries on (a card's steps, the next 1.4 draw, an
        Objective now met), and a step that now needs nobody runs on."""
        for seat in effects.live_seats(txn.state):
            effects.check_defeat(txn, seat)
        pending.resume(txn)
        effects.end_turns_if_all_taken(txn)
        flowmod.settle(txn, self.flow)

    def on_draw(self, txn: Txn, source: str, outcome: str) -> None:
        if source == "chaos":
            skilltest.on_reveal(txn, outcome)

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        return panels.button(state, role, held)

    def legend(self, state: GameState, seat: int) -> str | None:
        return panels.legend(state, seat)

    def names(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """Besides seats and tracks: the scenario's locations and enemies (set aside or in play), the
        allies the assets data knows, the treacheries in play, skills and action kinds."""
        info = rec(state).scenario
        places = tuple(dict.fromkeys([*board.locations(state), *info.locations]))
        foes = tuple(dict.fromkeys([*board.enemies(state), *info.enemies]))
        in_play = tuple(board.enemies(state))
        allies = tuple(rec(state).allies)
        treacheries = tuple(rec(state).treacheries)
        return {**super().names(state), "LOCATION": places, "location:NAME": places,
                "remove-location:NAME": places, "TARGET": (*places, *in_play), "ENEMY": in_play,
                "enemy:NAME": foes, "move-enemy:NAME": in_play, "enemy-mod:NAME": in_play,
                "enemy-state:NAME": in_play, "harm-enemy:NAME": in_play, "enemy-doom:NAME": in_play,
                "ally:NAME": allies, "discard-treachery:NAME": treacheries, "SKILL": rules.SKILLS,
                "KIND": rules.ACTION_KINDS}

    def adjustable(self, state: GameState) -> list[str]:
        return panels.adjustable(state)

    def panels(self, state: GameState) -> dict[str, Panel]:
        return panels.panels(self.flow, state)

    def campaign_record(self, state: GameState, previous: Mapping[str, Json] | None) -> dict[str, Json] | None:
        """The campaign log after this scenario (``play --save FILE --campaign NAME``): experience,
        trauma, killed/insane, the next scenario; the next session's setup reads it back."""
        if rec(state).mode != "campaign":
            return None
        from tablekeeper.games.arkham.campaign import Campaign

        # thawed: a copy of the log, as ``Campaign`` writes into its body
        return Campaign.after(thaw(rec(state).campaign_log) or previous, state).body

    def campaign_begun(self, state: GameState, previous: Mapping[str, Json], slot: str,
                       slots: Collection[str]) -> dict[str, Json] | None:
        """AH-JOIN-1 / AH-CAMP-2: the stored log marks this scenario as being played in ``slot``."""
        if rec(state).mode != "campaign" or state.over is not None:
            return None
        from tablekeeper.games.arkham.campaign import Campaign

        log = Campaign(previous)
        return log.body if log.begin(rec(state).scenario.id, slot, slots) else None

    def view_tracks(self, state: GameState) -> dict[str, int | None]:
        """An act with an Objective has no clue requirement to show (AH-ACTAG-5)."""
        out = super().view_tracks(state)
        if effects.card(state, "act").objective:
            out.pop("act.clues_required", None)
        return out

    @staticmethod
    def _odds_notes(state: GameState, seat: int) -> list[str]:
        """What an odds figure rests on that is not the printed game (or not on the board it sees)."""
        notes = []
        if not rec(state).scenario.verified:
            notes.append("odds from an unverified scenario reference card")
        unseen = reference.unseen(state, seat)
        if unseen:
            notes.append(f"{', '.join(unseen)}: counted only from the enemies the station can place")
        return notes

    def view_extra(self, state: GameState) -> dict[str, Json]:
        record = rec(state)
        scenario = record.scenario
        test = skilltest.current(state)
        odds: dict[str, Any] | None = None
        chance = skilltest.odds(state, test) if test is not None and test.result is None else None
        if chance is not None and test is not None:  # None also while the station answers a press
            odds = {"exact": f"{chance.numerator}/{chance.denominator}", "percent": percent(chance)}
            notes = self._odds_notes(state, test.seat)
            if notes:
                odds["notes"] = notes
        keys = ("eliminated", "fate", "removed", "victory", "grim", "records", "resolution", "resolution_to",
                "enemies", "locations", "at", "encounters", "assets", "treacheries")
        out: dict[str, Any] = {"scenario": scenario.id, "difficulty": scenario.difficulty,
                               "reference_side": rules.reference_side_label(scenario.side),
                               "test": None if test is None else msgspec.to_builtins(test), "odds": odds,
                               "investigators": {s: i.investigator for s, i in record.seats.items()},
                               "weaknesses": {s: list(i.weaknesses) for s, i in record.seats.items()}}
        out.update({k: thaw(getattr(record, k)) for k in keys})
        out["assets"] = out["assets"] or None  # none until an asset comes into play, as the view has always said
        out["scenario_source"] = {"card": scenario.card, "source": scenario.source, "verified": scenario.verified}
        out["empty"] = [loc for loc in sorted(board.locations(state)) if board.is_empty(state, loc)]  # AH-EMPTY-1
        return out


GAME = Arkham()
