"""Moving a station's fake clock as time would pass (``station_script.advance``), the station polled
and its intents handled after every deadline met on the way."""

from __future__ import annotations

from tablekeeper.hw.sim.clock import FakeClock
from tablekeeper.station import Station
from tablekeeper.station_script import advance


def pass_time(station: Station, clock: FakeClock, seconds: float) -> None:
    def settle() -> None:
        station.poll(clock())
        station.drain()

    advance(station, clock, seconds, settle)
