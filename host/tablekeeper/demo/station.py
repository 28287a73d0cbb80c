"""The station in convention demo mode: every button goes through ``DemoMode`` before the game.

A thin subclass of :class:`Station`: button intents are shown to the demo state machine first and
reach the game only when it forwards them; its panels are drawn over the game's; a new visitor
gets a fresh session of the game on show. Counters follow the same lock as the panel: their
presses reach a game only during a visitor's demo or with the settings unlocked, so the attract
loop never writes into the operator's saved game. Everything else is the ordinary station.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from tablekeeper.core.session import Session
from tablekeeper.core.view import Panel
from tablekeeper.demo.mode import DemoMode, DemoOutput, Mode
from tablekeeper.intents import ButtonIntent, CounterRolled, CounterValue, Intent
from tablekeeper.station.controls import Controls
from tablekeeper.station.loop import Station
from tablekeeper.ui.render import render_panel


class DemoStation(Station):
    """``new_session(game)`` makes the fresh, unsaved session each visitor plays."""

    def __init__(self, *, demo: DemoMode, new_session: Callable[[str], Session], **station: Any) -> None:
        super().__init__(**station)
        self.demo = demo
        self.new_session = new_session
        self.overlay: Mapping[str, Panel] = {}
        self.sessions_started = 0
        self._apply(demo.tick(self.clock()), None)

    def handle(self, intent: Intent) -> None:
        if isinstance(intent, CounterValue | CounterRolled) and not self.counters_unlocked():
            if isinstance(intent, CounterValue):  # the counter shows the game's value again
                self._publish(lambda seat, name: seat == intent.seat and name == intent.track)
            return
        if not isinstance(intent, ButtonIntent) or self.locked:
            super().handle(intent)
            return
        self._apply(self.demo.on_button(intent.role, intent.gesture.value, self.clock()), intent)
        self.redraw()

    def counters_unlocked(self) -> bool:
        """A visitor's own demo game, or the operator's unlocked settings: as for the panel's buttons."""
        return self.demo.mode in (Mode.GUIDED, Mode.SETTINGS)

    def poll(self, now_s: float) -> None:
        before = self.overlay
        fresh = self._apply(self.demo.tick(now_s), None)
        super().poll(now_s)
        if fresh or self.overlay != before:
            self.redraw()

    def next_deadline_s(self, *, blink: bool = True) -> float | None:
        due = [d for d in (super().next_deadline_s(blink=blink), self.demo.next_deadline_s()) if d is not None]
        return min(due, default=None)

    def frames(self) -> dict[str, Image.Image]:
        out = super().frames()
        for display in self.config.displays:
            panel = self.overlay.get(display.role)
            if panel is not None:  # a notice (a lost counter, the fleet's identify) still shows on the track
                banner = self.message.text if display.role == "track" and self.message is not None else None
                out[display.role] = render_panel(panel, display.size, banner=banner)
        return out

    def reset_to_attract(self) -> None:
        """The organiser's reset: back to the attract loop, whatever the visitor was doing."""
        self._apply(self.demo.reset(self.clock()), None)
        self.redraw()

    def _apply(self, out: DemoOutput, intent: ButtonIntent | None) -> bool:
        """Carry out one demo output; True when a fresh session was started."""
        self.overlay = out.panels
        if out.start_game is not None:
            self._fresh_session(out.start_game)
        elif out.reset:
            self.controls.pending = None
            self.message = None
        if out.forward is not None and intent is not None:
            super().handle(intent)
        return out.start_game is not None

    def _fresh_session(self, game: str) -> None:
        self.session = self.new_session(game)
        self.controls = Controls(self.session.game, clock=self.clock,
                                 pending_window_s=self.config.timing.pending_window_s)
        self.message = None
        self.unused_counters.clear()  # the new game may have a track for a counter the last one had not
        self._last_view = self.session.view()
        self._sync_outputs(self._last_view, first=True)
        self.sessions_started += 1
