"""Arkham Horror: The Card Game on the rules core: the round as framework steps, doom and agenda,
investigators, the chaos bag with skill tests and exact odds, and what a campaign carries over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablekeeper.core.events import Command, Json
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.odds import percent
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import effects, panels, rules, setup, skilltest
from tablekeeper.games.arkham.flow import FLOW
from tablekeeper.games.arkham.verbs import VERBS

HARM_LIMITS = {"damage": "health", "horror": "sanity"}


class Arkham(Game):
    name = "arkham"
    title = "Arkham Horror: The Card Game"
    seats_min = 1
    seats_max = 4
    seats_default = 2
    flow = FLOW
    file_options = frozenset({"scenario", "chaos", "investigators"})

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        return setup.build(state, options)

    def verbs(self) -> Mapping[str, Verb]:
        return VERBS

    def choices(self) -> Mapping[str, ChoiceHandler]:
        return {"trauma": _choose_trauma, "lead": _choose_lead, "prey": _choose_prey,
                "attack_order": _choose_attacker, "hunter_move": _choose_hunter_way}

    def check_track(self, state: GameState, track: str, value: int) -> None:
        """Bad input: damage beyond health, horror beyond sanity, an act needing no clues."""
        seat_text, _, name = track.partition(".")
        if name in HARM_LIMITS and seat_text.startswith("seat"):
            limit = state.value(f"{seat_text}.{HARM_LIMITS[name]}")
            if value > limit:
                raise Rejected(f"{track} {value} is beyond {HARM_LIMITS[name]} {limit}")
        if track == "act.clues_required" and value < 1 and not effects.card(state, "act").get("objective"):
            raise Rejected("act.clues_required cannot go below 1 for an act without an objective")

    def on_track(self, txn: Txn, track: str, old: int, new: int) -> None:
        seat_text, _, name = track.partition(".")
        if name in ("damage", "horror", "health", "sanity") and seat_text.startswith("seat"):
            effects.check_defeat(txn, int(seat_text[4:]))
        elif track == "encounter.deck" and new == 0:
            effects.reshuffle_encounters(txn)
        elif track in ("agenda", "act"):  # a card chosen by hand brings its own threshold
            need = effects.amount(effects.card(txn.state, track), effects.investigator_count(txn.state))
            txn.set("agenda.threshold" if track == "agenda" else "act.clues_required",
                    max(1, need) if track == "agenda" else need)

    def on_draw(self, txn: Txn, source: str, outcome: str) -> None:
        if source == "chaos":
            skilltest.on_reveal(txn, outcome)

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        return panels.button(state, role, held)

    def adjustable(self, state: GameState) -> list[str]:
        return panels.adjustable(state)

    def panels(self, state: GameState) -> dict[str, Panel]:
        return panels.panels(self.flow, state)

    def campaign_record(self, state: GameState, previous: Mapping[str, Json] | None) -> dict[str, Json] | None:
        """The campaign log after this scenario (``play --save FILE --campaign NAME``): experience,
        trauma, killed/insane, the next scenario; the next session's setup reads it back."""
        if state.get("mode") != "campaign":
            return None
        from tablekeeper.games.arkham.campaign import Campaign

        return Campaign.after(previous, state).body

    def view_extra(self, state: GameState) -> dict[str, Json]:
        scenario = state.get("scenario")
        test = skilltest.current(state)
        odds = None
        if test is not None and test["result"] is None:
            chance = skilltest.odds(state, test)
            odds = {"exact": f"{chance.numerator}/{chance.denominator}", "percent": percent(chance)}
        keys = ("eliminated", "fate", "removed", "victory", "grim", "resolution", "enemies", "locations", "at",
                "encounters", "assets")
        out: dict[str, Any] = {"scenario": scenario["id"], "difficulty": scenario["difficulty"],
                               "reference_side": rules.reference_side_label(scenario["side"]),
                               "test": test, "odds": odds,
                               "investigators": {s: i["investigator"] for s, i in state.get("seats").items()}}
        out.update({k: thaw(state.get(k)) for k in keys})
        return out


def _resume_turns(txn: Txn, resume: Any) -> None:
    """After a choice, carry on with what it interrupted: hunters, attacks, or who goes next."""
    from tablekeeper.games.arkham import board

    board.resume(txn)
    if resume and txn.state.prompt is None and txn.state.over is None:
        effects.ask_next_turn(txn)


def _choose_trauma(txn: Txn, index: int) -> None:
    """AH-TRAUMA-5: defeated by both at once, the player takes one trauma of their choice."""
    prompt = txn.state.prompt
    assert prompt is not None  # the core calls a choice handler only for the open prompt
    seat, resume = int(prompt.context["seat"]), prompt.context.get("resume")
    txn.close_prompt()
    effects.eliminate(txn, seat, rules.trauma_for("both", ("physical", "mental")[index]))
    _resume_turns(txn, resume)


def _choose_lead(txn: Txn, index: int) -> None:
    """AH-ELIM-3 step 5: the remaining players pick a new lead investigator."""
    prompt = txn.state.prompt
    assert prompt is not None
    seat, resume = int(prompt.context["seats"][index]), prompt.context.get("resume")
    txn.close_prompt()
    txn.emit("lead", seat=seat)
    txn.notice(f"seat {seat} is the lead investigator")
    _resume_turns(txn, resume)


def _choose_prey(txn: Txn, index: int) -> None:
    """AH-ENGM-3: the enemy's prey instruction picks whom it engages among several."""
    from tablekeeper.games.arkham import board

    prompt = txn.state.prompt
    assert prompt is not None
    name, seat = str(prompt.context["enemy"]), int(prompt.context["seats"][index])
    txn.close_prompt()
    board.engage(txn, name, seat)
    board.resume(txn)


def _choose_attacker(txn: Txn, index: int) -> None:
    """3.3: the attacked investigator picks which engaged enemy attacks next."""
    from tablekeeper.games.arkham import board

    prompt = txn.state.prompt
    assert prompt is not None
    name = str(prompt.context["enemies"][index])
    txn.close_prompt()
    board.continue_attacks(txn, name)


def _choose_hunter_way(txn: Txn, index: int) -> None:
    """3.2: a hunter with two equally short ways goes the way its prey (the players) picks."""
    from tablekeeper.games.arkham import board

    prompt = txn.state.prompt
    assert prompt is not None
    name, way = str(prompt.context["enemy"]), str(prompt.context["ways"][index])
    txn.close_prompt()
    board.move_hunters(txn, (name, way))


GAME = Arkham()
