"""The organiser's picture of the fleet: one tile per station, built from the broker's messages.

Pure bookkeeping, fed ``(topic, payload, now)``; the page server and ``tablekeeper fleet status``
show its ``snapshot``. "Today" is the organiser's local calendar day, on the organiser's clock: a
station's own clock is never compared with anything (a Pi without a clock chip boots in the past and
is stepped later), so restarts and reboots are told by the ``run`` and ``boot`` IDs a station sends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime

import msgspec

from tablekeeper.fleet.messages import Event, Status, decode_event, decode_status, station_of

MAX_STATIONS = 1000  # a stray publisher cannot grow the board without bound
RECENT_EVENTS = 5


class Tile(msgspec.Struct, kw_only=True):
    """One station as the page shows it."""

    station: str
    table: str = ""
    mode: str = "offline"
    game: str | None = None
    round: int | None = None
    phase: str | None = None
    online: bool = False
    offline_since: float | None = None
    locked: bool = False
    restarts_today: int = 0
    reboots_today: int = 0
    uptime_s: int = 0
    demos_today: int = 0
    alerts: list[str] = []
    recent: list[str] = []
    version: str = ""
    seen_at: float = 0.0


class BoardView(msgspec.Struct, kw_only=True):
    """Everything on the page at one moment (``version`` grows with every change)."""

    version: int
    day: str
    tiles: list[Tile]
    demos_today: int
    average_demo_s: float | None


class Board:
    """Thread-safe: paho's thread calls ``receive``; page and terminal threads call ``snapshot``."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._tiles: dict[str, Tile] = {}
        self._status: dict[str, Status] = {}
        self._lengths: list[float] = []
        self._runs: dict[str, tuple[str, str]] = {}  # station -> (run, boot) last seen
        self._day = self._today()
        self._version = 0
        self.changed = threading.Condition()
        self._listeners: list[Callable[[], None]] = []

    def listen(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` (on the receiving thread, outside the lock) after each change; returns the
        function that stops it."""
        with self.changed:
            self._listeners.append(callback)

        def stop() -> None:
            with self.changed:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return stop

    def _today(self, at: float | None = None) -> str:
        return datetime.fromtimestamp(self.clock() if at is None else at).strftime("%Y-%m-%d")

    @property
    def version(self) -> int:
        with self.changed:
            return self._version

    def receive(self, topic: str, payload: bytes) -> bool:
        """Take one message; True when the board changed."""
        where = station_of(topic)
        if where is None:
            return False
        name, kind = where
        with self.changed:
            if name not in self._tiles and len(self._tiles) >= MAX_STATIONS:
                return False
            self._roll_day()
            now = self.clock()
            if kind == "status":
                status = decode_status(payload)
                if status is None or status.station != name:
                    return False
                self._on_status(status, now)
            elif kind == "events":
                event = decode_event(payload)
                if event is None or event.station != name:
                    return False
                self._on_event(event, now)
            else:
                return False
            self._version += 1
            self.changed.notify_all()
            listeners = list(self._listeners)
        for callback in listeners:
            callback()
        return True

    def wait_changed(self, since: int, timeout_s: float) -> int:
        """Block until the version passes ``since`` (or the timeout); returns the version."""
        with self.changed:
            self.changed.wait_for(lambda: self._version != since, timeout=timeout_s)
            return self._version

    def snapshot(self) -> BoardView:
        with self.changed:
            self._roll_day()
            tiles = [msgspec.structs.replace(t, alerts=list(t.alerts), recent=list(t.recent))
                     for _, t in sorted(self._tiles.items())]
            average = round(sum(self._lengths) / len(self._lengths), 1) if self._lengths else None
            return BoardView(version=self._version, day=self._day, tiles=tiles,
                             demos_today=len(self._lengths), average_demo_s=average)

    # --- under the lock -----------------------------------------------------------------------
    def _tile(self, name: str) -> Tile:
        tile = self._tiles.get(name)
        if tile is None:
            tile = self._tiles[name] = Tile(station=name)
        return tile

    def _roll_day(self) -> None:
        today = self._today()
        if today != self._day:
            self._day = today
            self._lengths.clear()
            for tile in self._tiles.values():
                tile.restarts_today = 0
                tile.reboots_today = 0
                tile.demos_today = 0

    def _on_status(self, status: Status, now: float) -> None:
        tile = self._tile(status.station)
        tile.table = status.table or tile.table
        tile.seen_at = now
        tile.version = status.version or tile.version
        if status.mode == "offline":
            if tile.online or tile.offline_since is None:
                tile.offline_since = now
            tile.online = False
            tile.mode = "offline"
        else:
            self._started(tile, status.run, status.boot)  # also catches a restart whose event this board missed
            tile.uptime_s = status.uptime_s
            self._status[status.station] = status
            tile.online = True
            tile.offline_since = None
            tile.mode = status.mode
            tile.game, tile.round, tile.phase = status.game, status.round, status.phase
            tile.locked = status.locked
        tile.alerts = self._alerts(tile)

    def _alerts(self, tile: Tile) -> list[str]:
        alerts: list[str] = []
        if not tile.online:
            since = datetime.fromtimestamp(tile.offline_since or self.clock()).strftime("%H:%M")
            alerts.append(f"offline since {since}")
        status = self._status.get(tile.station)
        if status is not None:
            alerts += [f"{role} display failed" for role, health in sorted(status.displays.items()) if health != "ok"]
            alerts += [f"seat {seat} counter missing" for seat, health in sorted(status.counters.items())
                       if health != "ok"]
            if status.last_error and tile.online:
                alerts.append(f"last error: {status.last_error}")
        if tile.reboots_today:
            alerts.append(f"rebooted {tile.reboots_today}x today")
        if tile.restarts_today > tile.reboots_today:
            alerts.append(f"restarted {tile.restarts_today - tile.reboots_today}x today")
        if tile.locked and tile.online:
            alerts.append("panel locked")
        return alerts

    def _started(self, tile: Tile, run: str | None, boot: str | None) -> None:
        """Note a run ID; a new one from a station already on the board is a restart (and a reboot
        when its boot ID changed too)."""
        if not run:
            return
        known = self._runs.get(tile.station)
        self._runs[tile.station] = (run, boot or "")
        if known is not None and known[0] != run:
            tile.restarts_today += 1
            if boot and known[1] and known[1] != boot:
                tile.reboots_today += 1

    def _on_event(self, event: Event, now: float) -> None:
        tile = self._tile(event.station)
        tile.seen_at = now
        if event.kind == "started":
            self._started(tile, event.run, event.boot)
        elif event.kind == "demo_ended" and event.length_s is not None:
            tile.demos_today += 1
            self._lengths.append(event.length_s)
        tile.recent = [*tile.recent, describe(event)][-RECENT_EVENTS:]
        tile.alerts = self._alerts(tile)


def describe(event: Event) -> str:
    """A short line for the tile's recent list."""
    if event.kind == "ack":
        return f"{event.cmd} done"
    if event.kind == "refused":
        return f"{event.cmd or 'command'} refused: {event.reason}"
    if event.kind == "demo_started":
        return f"demo started ({event.game})"
    if event.kind == "demo_ended":
        how = "finished" if event.finished else "walked away"
        return f"demo {how} after {event.length_s:.0f} s" if event.length_s is not None else f"demo {how}"
    if event.kind == "game_over":
        return f"game over: {event.result}"
    return event.kind
