"""The station's side of the fleet: what it reports and how the organiser's commands reach it.

A ``FleetReporter`` is one of the station's timed parts, so everything here runs on the station
thread: each pass it compares a small status record with the last one sent and offers it to the
link only on a change, notes demo and game-over transitions as events, keeps the "link down" mark
on the track display, and blinks the LEDs while identifying. Commands arrive on paho's thread and
are put on the station's queue as ``Remote`` intents, so the session is still touched by one thread.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from msgspec.structs import replace
from PIL import Image, ImageDraw

from tablekeeper import __version__
from tablekeeper.fleet.config import FleetConfig
from tablekeeper.fleet.link import FleetLink
from tablekeeper.fleet.messages import (
    Event,
    EventKind,
    Health,
    Identify,
    Lock,
    Mode,
    NextGame,
    RemoteCommand,
    Reset,
    Status,
    Unlock,
    command_name,
)
from tablekeeper.intents import Remote, Tick

if TYPE_CHECKING:
    from tablekeeper.station.loop import Station
    from tablekeeper.supervisor import Supervisor

BLINK_S: Final = 0.25
MARK_SIZE: Final = 5  # pixels: the corner mark that says the fleet link is down

_DEMO_MODES: Final[dict[str, Mode]] = {"attract": "attract", "guided": "demo", "finished": "demo",
                                       "operator": "menu", "settings": "menu"}


BOOT_ID_FILE: Final = Path("/proc/sys/kernel/random/boot_id")


def boot_id(path: Path = BOOT_ID_FILE) -> str:
    """The kernel's ID of this boot (Linux), or "" where there is none: a new one means the box rebooted."""
    try:
        return path.read_text(encoding="ascii").strip()[:64]
    except (OSError, UnicodeDecodeError):
        return ""


class FleetReporter:
    """Reports ``station`` through ``link`` (made from ``config`` unless a test passes one)."""

    def __init__(self, station: Station, config: FleetConfig, *, link: FleetLink | None = None,
                 wall_clock: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic,
                 boot: str | None = None) -> None:
        self.station = station
        self.config = config
        self.wall_clock = wall_clock
        self.started_at = round(wall_clock(), 3)
        self.run = secrets.token_hex(8)
        self.boot = boot_id() if boot is None else boot
        will = Status(station=config.station, table=config.table, mode="offline", version=__version__,
                      started_at=self.started_at, run=self.run, boot=self.boot)
        self.link = link or FleetLink(config, on_command=self.command_received, will=will, wall_clock=wall_clock,
                                      monotonic=monotonic)
        self.last: Status | None = None
        self.last_error: str | None = None
        self.link_down = True
        self._failed: frozenset[str] = frozenset()
        self._missing: frozenset[int] = frozenset()
        self._demo_mode: str | None = None
        self._demo_since_s = 0.0
        self._demo_game: str | None = None
        self._over: str | None = None
        self._identify_until_s: float | None = None
        self._blink_at_s = 0.0
        self._blink_on = False
        self._marked: tuple[Image.Image, Image.Image] | None = None

    # --- wiring -------------------------------------------------------------------------------
    def start(self, supervisor: Supervisor | None = None) -> None:
        """Join the station's timed parts, mark its track display and connect (the publishing loop
        under ``supervisor`` when the station has one)."""
        self.station.timed.append(self)
        self.station.decorate = self.decorate
        self.link.on_link_change = lambda: self.station.put(Tick())  # the link's mark changes without a press
        self._observe(self.station.clock(), first=True)
        self.link.offer(Event(station=self.config.station, kind="started", at=self.started_at, run=self.run,
                              boot=self.boot))
        self.link.start(supervisor)

    def close(self) -> None:
        self.link.close()

    def command_received(self, command: RemoteCommand) -> None:
        """paho's thread: hand the command to the station's own loop."""
        self.station.put(Remote(command_name(command), lambda: self.carry_out(command)))

    # --- Timed --------------------------------------------------------------------------------
    def poll(self, now_s: float) -> None:
        self._observe(now_s)
        self._blink(now_s)
        down = not self.link.connected
        if down != self.link_down:
            self.link_down = down
            self.station.redraw()

    def next_deadline_s(self) -> float | None:
        return self._blink_at_s if self._identify_until_s is not None else None

    # --- status and events --------------------------------------------------------------------
    def status(self) -> Status:
        """The station as the organiser sees it now."""
        station = self.station
        state = station.session.state
        failed = {d.role for d in station.displays.failed()}
        displays: dict[str, Health] = {d.role: "failed" if d.role in failed else "ok" for d in station.config.displays}
        counters: dict[str, Health] = {str(c.seat): "missing" if c.seat in station.ui.missing_counters else "ok"
                                       for c in station.config.counters if c.seat}
        link_error = self.link.stats().last_refusal
        return Status(station=self.config.station, table=self.config.table, mode=self.mode(),
                      game=state.game or station.session.game.name, round=state.round, phase=state.phase,
                      seats=state.seats, over=state.over or None, active_seat=state.active_seat,
                      locked=station.ui.locked, displays=displays, counters=counters,
                      last_error=self.last_error or link_error, started_at=self.started_at,
                      run=self.run, boot=self.boot, version=__version__)

    def mode(self) -> Mode:
        demo = getattr(self.station, "demo", None)
        if demo is not None:
            return _DEMO_MODES.get(str(demo.mode.value), "demo")
        return "menu" if self.station.ui.menu.is_open else "playing"

    def _observe(self, now_s: float, *, first: bool = False) -> None:
        station = self.station
        failed = frozenset(d.role for d in station.displays.failed())
        if failed - self._failed:
            self.last_error = f"{', '.join(sorted(failed - self._failed))} display not answering"
        missing = station.ui.missing_counters
        if missing - self._missing:
            self.last_error = f"seat {', '.join(str(s) for s in sorted(missing - self._missing))} counter lost"
        self._failed, self._missing = failed, missing
        self._watch_demo(now_s, first=first)
        state = station.session.state
        over_text = state.over or None
        if over_text and over_text != self._over and not first:
            self._event("game_over", game=state.game, result=over_text)
        self._over = over_text
        status = self.status()
        if not status.same_state(self.last):
            self.last = status
            self.link.offer(status)

    def _watch_demo(self, now_s: float, *, first: bool) -> None:
        demo = getattr(self.station, "demo", None)
        if demo is None:
            return
        mode = str(demo.mode.value)
        before, self._demo_mode = self._demo_mode, mode
        if first or mode == before:
            return
        if mode == "guided":
            self._demo_since_s, self._demo_game = now_s, str(demo.script.game)
            self._event("demo_started", game=self._demo_game)
        elif before == "guided" and self._demo_game is not None:
            self._event("demo_ended", game=self._demo_game, length_s=round(now_s - self._demo_since_s, 1),
                        finished=mode == "finished")
            self._demo_game = None

    def _event(self, kind: EventKind, **fields: Any) -> None:
        self.link.offer(Event(station=self.config.station, kind=kind, at=round(self.wall_clock(), 3), **fields))

    # --- commands (station thread) ------------------------------------------------------------
    def carry_out(self, command: RemoteCommand) -> None:
        """Do what the organiser asked, then acknowledge it or say why not."""
        reason = self._apply(command)
        name = command_name(command)
        if reason is None:
            self._event("ack", cmd=name, id=command.id or None)
            if isinstance(command, Reset):
                self._event("reset")
        else:
            self._event("refused", cmd=name, id=command.id or None, reason=reason)
        self._observe(self.station.clock())

    def _apply(self, command: RemoteCommand) -> str | None:
        station = self.station
        demo_station = getattr(station, "reset_to_attract", None)
        if isinstance(command, Reset):
            station.reset()
            if demo_station is not None:
                demo_station()
        elif isinstance(command, Lock | Unlock):
            locked = isinstance(command, Lock)
            station.ui = replace(station.ui, locked=locked)
            station.say("panel locked by the organiser" if locked else "panel unlocked")
        elif isinstance(command, NextGame):
            demo = getattr(station, "demo", None)
            if demo is None:
                return "not in demo mode"
            return demo.choose_next(command.game)  # type: ignore[no-any-return]
        elif isinstance(command, Identify):
            now_s = station.clock()
            label = f"{self.config.station} {self.config.table}".strip()
            station.say(f"this is {label}", seconds=command.seconds)
            self._identify_until_s = now_s + command.seconds
            self._blink_at_s = now_s
        return None

    def _blink(self, now_s: float) -> None:
        if self._identify_until_s is None or now_s < self._blink_at_s:
            return
        outputs = self.station.sink.outputs
        if now_s >= self._identify_until_s:
            self._identify_until_s = None
            if outputs is not None:
                outputs.lights.light(self.station.session.state.active_seat)
            return
        self._blink_on = not self._blink_on
        self._blink_at_s = now_s + BLINK_S
        if outputs is not None:
            for led in outputs.lights.leds.values():
                led.value = self._blink_on

    # --- the mark -----------------------------------------------------------------------------
    def decorate(self, frames: dict[str, Image.Image]) -> dict[str, Image.Image]:
        """The track display's picture with a small hollow square in its corner while the link is down."""
        base = frames.get("track")
        if not self.link_down or base is None:
            return frames
        if self._marked is None or self._marked[0] is not base:
            marked = base.copy()
            draw = ImageDraw.Draw(marked)
            width = marked.size[0]
            draw.rectangle((width - MARK_SIZE - 1, 0, width - 1, MARK_SIZE), outline="white", fill="black")
            self._marked = (base, marked)
        return {**frames, "track": self._marked[1]}
