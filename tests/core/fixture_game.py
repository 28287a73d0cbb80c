"""A small game used to test the engine itself: two phases, turns of every kind, a bag, a deck,
dice, a bounded track with a threshold, and a prompt."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from tablekeeper.core.chance import Bag, Deck, Dice, Multiset
from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow, Phase, Step, Turns
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb, parse_seat
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import Counter


def _doom(txn: Txn) -> None:
    txn.add("doom", 1)


def _ask_weather(txn: Txn) -> None:
    txn.put("asked", [*txn.state.typed(FixtureRecord).asked, txn.state.round])
    txn.ask("weather", "Which weather?", ["sun", "rain"])


def _weather(txn: Txn, index: int) -> None:
    txn.close_prompt()
    txn.put("weather", ["sun", "rain"][index])


def _spend(txn: Txn, args: tuple[str, ...]) -> None:
    seat = parse_seat(txn.state, args[0]) if args else txn.state.active_seat
    txn.add(f"seat{seat}.actions", -1)


FLOW = Flow(
    phases=(
        Phase("mythos", "Mythos", (Step("doom", enter=_doom), Step("weather", enter=_ask_weather)),
              skip=lambda s: s.round == 1),
        Phase("action", "Action", (Step("turns", turns=Turns.CLOCKWISE),)),
        Phase("free", "Free", (Step("chosen", turns=Turns.CHOSEN),)),
        Phase("fight", "Fight", (Step("rounds", turns=Turns.UNTIL_PASS),)),
        Phase("power", "Power", (Step("together", turns=Turns.TOGETHER),)),
    )
)


class FixtureRecord(msgspec.Struct, frozen=True):
    """The fixture's typed record: what the weather prompt chose, and the rounds it was asked in."""

    weather: str = ""
    asked: tuple[int, ...] = ()


class Fixture(Game):
    name = "fixture"
    title = "Fixture"
    flow = FLOW
    record_type = FixtureRecord

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        tracks = {"doom": Counter(0, 0, 12, thresholds=(3,))}
        for seat in state.seat_numbers():
            tracks[f"seat{seat}.actions"] = Counter(3, 0, 3)
        sources = {
            "bag": Bag("bag", Multiset.of({"+1": 2, "0": 3, "-1": 3, "skull": 2, "bless": 1})),
            "deck": Deck.plain("deck", {"a": 2, "b": 1}),
            "dice": Dice("dice", ("1", "2", "3", "4", "5", "6"), count=2),
        }
        data = {"campaign": json.loads(options["campaign"])} if "campaign" in options else {}
        return replace(state, tracks=tracks, sources=sources, data=data)

    def verbs(self) -> Mapping[str, Verb]:
        return {"spend": Verb("spend [SEAT]", "spend an action", _spend)}

    def choices(self) -> Mapping[str, ChoiceHandler]:
        return {"weather": _weather}

    def on_threshold(self, txn: Txn, track: str, threshold: int) -> None:
        if track == "doom":
            txn.end("defeat: doom reached 3", result=Result.DEFEAT)

    def campaign_record(self, state: GameState, previous: Mapping[str, Any] | None) -> dict[str, Any] | None:
        defeats = int((previous or {}).get("defeats", 0))
        return {"defeats": defeats + (1 if state.over and state.over.startswith("defeat") else 0)}

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        if role.endswith(".a"):
            return Command("spend", (role.split(".")[0],), origin="button")
        return None


GAME = Fixture()
