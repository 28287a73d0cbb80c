"""The station in convention demo mode: every button goes through ``DemoMode`` before the game.

A thin subclass of :class:`Station`: button intents are shown to the demo state machine first and
reach the game only when it forwards them; its panels cover the game's (``UiState.cover``); a new
visitor gets a fresh session of the game on show. Counters follow the same lock as the panel: their
presses reach a game only during a visitor's demo or with the settings unlocked, so the attract
loop never writes into the operator's saved game. Everything else is the ordinary station.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec.structs import replace

from tablekeeper.core.session import Session
from tablekeeper.core.view import Panel
from tablekeeper.demo.mode import DemoMode, DemoOutput, Mode
from tablekeeper.intents import ButtonIntent, CounterRolled, CounterValue, Intent
from tablekeeper.station.loop import Station


class DemoStation(Station):
    """``new_session(game)`` makes the fresh, unsaved session each visitor plays."""

    def __init__(self, *, demo: DemoMode, new_session: Callable[[str], Session], **station: Any) -> None:
        super().__init__(**station)
        self.demo = demo
        self.new_session = new_session
        self.sessions_started = 0
        self._apply(demo.tick(self.clock()), None)

    @property
    def overlay(self) -> Mapping[str, Panel]:
        """The demo's panels over the game's, by display role."""
        return dict(self.ui.cover)

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, CounterValue | CounterRolled) and not self.counters_unlocked():
            if isinstance(intent, CounterValue):  # the counter shows the game's value again
                self.sink.publish(self.session.game, self.session.state,
                                  lambda seat, name: seat == intent.seat and name == intent.track)
            return
        if not isinstance(intent, ButtonIntent) or self.ui.locked:
            super().handle(intent)
            return
        self._apply(self.demo.on_button(intent.role, intent.gesture.value, self.clock()), intent)
        self.redraw()

    def counters_unlocked(self) -> bool:
        """A visitor's own demo game, or the operator's unlocked settings: as for the panel's buttons."""
        return self.demo.mode in (Mode.GUIDED, Mode.SETTINGS)

    def poll(self, now_s: float) -> None:
        before = self.ui.cover
        fresh = self._apply(self.demo.tick(now_s), None)
        super().poll(now_s)
        if fresh or self.ui.cover != before:
            self.redraw()

    def next_deadline_s(self, *, blink: bool = True) -> float | None:
        due = [d for d in (super().next_deadline_s(blink=blink), self.demo.next_deadline_s()) if d is not None]
        return min(due, default=None)

    def reset_to_attract(self) -> None:
        """The organiser's reset: back to the attract loop, whatever the visitor was doing."""
        self._apply(self.demo.reset(self.clock()), None)
        self.redraw()

    def _apply(self, out: DemoOutput, intent: ButtonIntent | None) -> bool:
        """Carry out one demo output; True when a fresh session was started."""
        self.ui = self.ui.covered(out.panels, out.call if out.panels else None)
        if out.start_game is not None:
            self.replace_session(self.new_session(out.start_game))
            self.sessions_started += 1
        elif out.reset:
            self.controls.pending = None
            self.ui = replace(self.ui, message=None)
        if out.forward is not None and intent is not None:
            super().handle(intent)
        return out.start_game is not None
