"""Moving a station's fake clock as time would pass: every deadline the station sets on the way is
met in order (a hold, a page turn, a notice running out), then the clock rests at the target."""

from __future__ import annotations

from tablekeeper.hw.sim.clock import FakeClock
from tablekeeper.station import Station


def pass_time(station: Station, clock: FakeClock, seconds: float) -> None:
    target = clock() + seconds
    while (deadline := station.next_deadline_s()) is not None and deadline + 1e-9 <= target:
        clock.now_s = max(clock.now_s, deadline + 1e-9)
        station.poll(clock())
        station.drain()
    clock.now_s = target
    station.poll(target)
    station.drain()
