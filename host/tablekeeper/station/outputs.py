"""What the table's outputs show after a change: the seat LEDs, a beep, and the counters' values. The
loop hands over a ``Changes`` record worked out from the game state before and after (what moved, not
a diff of two JSON views); ``OutputSink`` drives the parts it has from it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import msgspec

from tablekeeper.core.events import NoticeKind
from tablekeeper.core.game import Game
from tablekeeper.core.session import Note
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import SeatTrack, seat_track
from tablekeeper.ui import flow_lines
from tablekeeper.ui.model import Lights

if TYPE_CHECKING:  # gpiozero loads when the parts are made, after the game's first frame
    from tablekeeper.hw.outputs import Outputs

RESULT_SOUNDS = {Result.VICTORY: "victory", Result.DEFEAT: "defeat", Result.DRAW: "alert"}
ALERT_NOTICES = frozenset({NoticeKind.THRESHOLD, NoticeKind.DEFEAT})


class CounterSink(Protocol):
    """Where the game's seat-track values go back to the counters (``hw.counters.CounterManager``)."""

    def publish(self, seat: int, track: str, value: int | None, limit: int | None = None) -> None: ...

    def label(self, seat: int, track: str, text: str) -> None: ...


class Changes(msgspec.Struct, frozen=True):
    """What the outputs must show after the game moved from one state to another: the seat LEDs, the
    sound it calls for (None: none), and the seat tracks whose values changed (None: all of them)."""

    lights: Lights
    sound: str | None
    tracks: frozenset[str] | None


def changes(game: Game, before: GameState | None, after: GameState, notes: Sequence[Note]) -> Changes:
    """``before`` None: the station starts showing ``after`` (no sound, every track sent)."""
    lights = flow_lines.lights(after, game.flow)
    if before is None:
        return Changes(lights, None, None)
    sound = None
    if after.over and not before.over:
        sound = RESULT_SOUNDS[after.result] if after.result is not None else "alert"
    elif any(n.kind in ALERT_NOTICES for n in notes):
        sound = "alert"
    elif after.active_seat != before.active_seat and after.active_seat is not None:
        sound = "turn"
    moved = frozenset(name for name in {*before.tracks, *after.tracks} if _value(before, name) != _value(after, name))
    return Changes(lights, sound, moved)


def _value(state: GameState, track: str) -> int | None:
    counter = state.tracks.get(track)
    return counter.value if counter is not None else None


class OutputSink:
    """The seat LEDs and the beeper (``outputs``) and the counters (``counters``), each optional."""

    def __init__(self, outputs: Outputs | None = None, counters: CounterSink | None = None) -> None:
        self.outputs = outputs
        self.counters = counters

    def show(self, changes: Changes, game: Game, state: GameState) -> None:
        if self.outputs is not None:
            self.outputs.lights.show(changes.lights.steady, changes.lights.blinking)
            if changes.sound is not None:
                self.outputs.beeper.play(changes.sound)
        moved = changes.tracks
        self.publish(game, state, lambda seat, name: moved is None or seat_track(seat, name) in moved)

    def publish(self, game: Game, state: GameState, wanted: Callable[[int, str], bool]) -> None:
        """Send each counter slot its name in this game and the value and bound of the seat track it
        follows (Arkham's ``seat1.damage`` goes out as seat 1's ``hp`` and ``damage``, the HP die named
        "damage"); ``wanted(seat, "damage")``."""
        if self.counters is None:
            return
        from tablekeeper.station import counter_tracks  # the counters' slots: loaded with the counters

        for seat in state.seat_numbers():
            for slot in counter_tracks.SLOTS:
                self.counters.label(seat, slot, counter_tracks.label(game, state.tracks, seat, slot))
                name = counter_tracks.followed(game, state.tracks, seat, slot)
                owner = None if name is None else SeatTrack.parse(name)
                if name is not None and owner is not None and wanted(seat, owner.track):
                    counter = state.tracks[name]
                    self.counters.publish(seat, slot, counter.value, counter.hi)
