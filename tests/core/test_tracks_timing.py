"""Tracks with bounds/thresholds, two-kind token cards, time tracks; timing windows and triggers."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from msgspec.structs import replace

from tablekeeper.core import timing
from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow, Phase, Step
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter, SeatTrack, Slot, TimeTrack, TokenCard, seat_track
from tablekeeper.errors import Rejected


def test_counter_bounds_and_thresholds_reached_at_equal() -> None:
    c = Counter(1, 0, 5, thresholds=(3, 5))
    assert c.crossed(3) == (3,)
    assert c.crossed(5) == (3, 5)
    assert c.crossed(2) == ()
    with pytest.raises(Rejected, match="cannot go above 5"):
        c.check("doom", 6)
    with pytest.raises(Rejected, match="cannot go below 0"):
        c.check("doom", -1)


def test_token_card_kinds_without_threshold_never_trigger() -> None:
    card = TokenCard("path", progress_threshold=3, harm_threshold=None)
    card = card.add("harm", 10).add("progress", 2)
    assert card.reached() == ()
    assert card.add("progress", 1).reached() == ("progress",)
    both = TokenCard("x", 2, 2, 2, 2)
    assert both.reached() == ("progress", "harm")
    with pytest.raises(Rejected):
        card.add("progress", -5)


def test_time_track_fills_rows_in_order_and_checks_empty_slots() -> None:
    top = [Slot(1), Slot(2, on_place="ambush"), Slot(3)]
    bottom = [Slot(4, if_empty=(("end_of_story", "gain 2 iron"),)), Slot(5, if_empty=(("end_of_story", "heal"),))]
    track = TimeTrack.rows([top, bottom])
    placed = []
    for _ in range(4):
        track, slot = track.place()
        placed.append((slot.number, slot.on_place))
    assert placed == [(1, None), (2, "ambush"), (3, None), (4, None)]
    assert track.effects_if_empty("end_of_story") == ((5, "heal"),)
    track, _ = track.place()
    assert track.full
    with pytest.raises(Rejected, match="full"):
        track.place()


# --- timing, through a small game so the state is replayed like any other --------------------------

def _act(txn: Txn, args: tuple[str, ...]) -> None:
    """An action that triggers two effects and nests another action which triggers one."""
    timing.begin_action(txn, "outer")
    timing.trigger(txn, timing.effect("t1", timing.Window.AFTER, "outer trigger"))
    timing.begin_action(txn, "inner")
    timing.trigger(txn, timing.effect("t2", timing.Window.AFTER, "inner trigger"))
    inner_due = timing.end_action(txn)
    txn.put("order", [e["id"] for e in inner_due])
    outer_due = timing.end_action(txn)
    txn.put("order", [*txn.state.get("order"), *[e["id"] for e in outer_due]])


def _resolve_queue(txn: Txn) -> None:
    while (item := timing.pop_next(txn, "order")) is not None:
        txn.put("resolved", [*txn.state.get("resolved", ()), item["id"]])


def _queue(txn: Txn, args: tuple[str, ...]) -> None:
    timing.enqueue(txn, [
        timing.effect("after", timing.Window.AFTER, "After"),
        timing.effect("w1", timing.Window.WHEN, "When A"),
        timing.effect("before", timing.Window.BEFORE, "Before"),
        timing.effect("w2", timing.Window.WHEN, "When B"),
    ])
    _resolve_queue(txn)


def _order_choice(txn: Txn, index: int) -> None:
    item = timing.chosen(txn, index)
    txn.put("resolved", [*txn.state.get("resolved", ()), item["id"]])
    _resolve_queue(txn)


def _defer(txn: Txn, args: tuple[str, ...]) -> None:
    timing.defer(txn, {"card": args[0]})


def _finish_step(txn: Txn) -> None:
    txn.put("cleared", [d["card"] for d in timing.take_deferred(txn)])


def _loop(txn: Txn, args: tuple[str, ...]) -> None:
    while True:
        timing.begin_action(txn, "again")


class TimingGame(Game):
    name = "timing"
    flow = Flow((Phase("p", "P", (Step("a", leave=_finish_step), Step("b"))),))

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        return replace(state, tracks={"x": Counter(0, 0, 9)})

    def verbs(self) -> Mapping[str, Verb]:
        return {"act": Verb("act", "", _act), "queue": Verb("queue", "", _queue),
                "defer": Verb("defer CARD", "", _defer), "loop": Verb("loop", "", _loop)}

    def choices(self) -> Mapping[str, ChoiceHandler]:
        return {"order": _order_choice}


def perform(s: Session, text: str) -> None:
    verb, *args = text.split()
    out = s.perform(Command(verb, tuple(args)))
    assert out.accepted, out.reason


def test_triggers_come_due_when_their_own_action_completes() -> None:
    s = Session(TimingGame(), seats=1, seed=1)
    perform(s, "act")
    assert s.state.get("order") == ("t2", "t1")
    assert timing.depth(s.state) == 0


def test_windows_resolve_before_when_after_and_players_order_a_tie() -> None:
    s = Session(TimingGame(), seats=1, seed=1)
    perform(s, "queue")
    assert s.state.get("resolved") == ("before",)
    assert s.state.prompt is not None and s.state.prompt.options == ("When A", "When B")
    assert "when" in s.state.prompt.text
    perform(s, "choose 2")
    assert s.state.get("resolved") == ("before", "w2", "w1", "after")
    assert s.state.prompt is None


def test_deferred_items_resolve_when_the_rules_step_finishes() -> None:
    s = Session(TimingGame(), seats=1, seed=1)
    perform(s, "defer card1")
    perform(s, "defer card2")
    assert s.state.get("cleared") is None
    perform(s, "next")
    assert s.state.get("cleared") == ("card1", "card2")


def test_an_endless_loop_is_rejected_and_changes_nothing() -> None:
    s = Session(TimingGame(), seats=1, seed=1)
    before = s.state
    out = s.perform(Command("loop"))
    assert not out.accepted and "nested more than" in (out.reason or "")
    assert s.state is before


@pytest.mark.parametrize(("name", "value"), [("seat2.damage", SeatTrack(2, "damage")), ("seat1.a", SeatTrack(1, "a")),
                                             ("seat12.animus_reserve", SeatTrack(12, "animus_reserve"))])
def test_a_seat_track_is_written_and_read_in_one_spelling(name: str, value: SeatTrack) -> None:
    assert SeatTrack.parse(name) == value
    assert value.name == str(value) == seat_track(value.seat, value.track) == name


@pytest.mark.parametrize("name", ["doom", "boss.head", "seat2", "seat2.", "seat.hp", "seatx.hp", "seat-1.hp",
                                  "seats.hp", "round.seat2"])
def test_a_word_that_is_no_seats_track_parses_as_none(name: str) -> None:
    assert SeatTrack.parse(name) is None
