"""Moving a station's fake clock as time would pass (``station.script.advance``), the station polled
and its intents handled after every deadline met on the way."""

from __future__ import annotations

from tablekeeper.sim.clock import FakeClock
from tablekeeper.station.loop import Station
from tablekeeper.station.script import advance


def pass_time(station: Station, clock: FakeClock, seconds: float) -> None:
    def settle() -> None:
        station.poll(clock())
        station.drain()

    advance(station, clock, seconds, settle)
