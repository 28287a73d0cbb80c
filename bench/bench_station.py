"""Station benchmark: bytes on the display bus for a one-counter change (partial-update adapter vs
luma's full-frame ``display()``), and host time from a button edge on a mock pin to the bytes
handed to the display interface (median and p99 over 1,000 presses). The save's fsync is
measured on its own line.

Run: ``.venv/bin/python bench/bench_station.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory
from msgspec.structs import replace
from PIL import Image

from tablekeeper.config import DisplayConfig, load_config
from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow, Phase, Step, Turns
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.store import Store
from tablekeeper.core.tracks import Counter
from tablekeeper.core.view import Panel
from tablekeeper.hw.displays import PartialUpdate, make_device
from tablekeeper.hw.luma_devices import SH1106, SSD1306
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.oled import RecordingSerial
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_buttons, make_displays
from tablekeeper.ui.render import render_panel

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 1_000


class BenchGame(Game):
    """Two seats with HP and a doom track without a ceiling, so 1,000 presses never hit a bound."""

    name = "bench_station"
    flow = Flow((Phase("play", "Play", (Step("turns", turns=Turns.CLOCKWISE),)),))

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        tracks = {"doom": Counter(0, 0, None)}
        for seat in state.seat_numbers():
            tracks[f"seat{seat}.hp"] = Counter(9, 0, 9)
        return replace(state, tracks=tracks)


def wire_bytes(calls: list[tuple[str, bytes]]) -> int:
    """I2C bytes on the wire: each command/data call is one write (address + control byte + payload)."""
    return sum(2 + len(payload) for _kind, payload in calls)


def bench_bytes() -> list[str]:
    lines = []
    before = render_panel(Panel("Tokens", ("doom 3", "clues 2", "agenda 1a")), (128, 64))
    after = render_panel(Panel("Tokens", ("doom 4", "clues 2", "agenda 1a")), (128, 64))
    hp_before = render_panel(Panel("Roland", ("HP 7/9", "San 5/5"), big="7"), (128, 32))
    hp_after = render_panel(Panel("Roland", ("HP 6/9", "San 5/5"), big="6"), (128, 32))
    cases: list[tuple[str, type[SSD1306] | type[SH1106], tuple[int, int], Image.Image, Image.Image]] = [
             ("ssd1306 128x64, doom 3 -> 4", SSD1306, (128, 64), before, after),
             ("sh1106 128x64, doom 3 -> 4", SH1106, (128, 64), before, after),
             ("ssd1306 128x32, HP die 7 -> 6", SSD1306, (128, 32), hp_before, hp_after)]
    for label, driver, size, old, new in cases:
        luma_serial = RecordingSerial()
        luma_device = driver(serial_interface=luma_serial, width=size[0], height=size[1])
        luma_device.display(old)
        luma_serial.take()
        luma_device.display(new)
        luma_calls = luma_serial.take()
        luma_bytes = sum(len(p) for _k, p in luma_calls)

        serial = RecordingSerial()
        adapter = PartialUpdate(driver(serial_interface=serial, width=size[0], height=size[1]))
        adapter.display(old)
        serial.take()
        sent = adapter.display(new)
        calls = serial.take()
        lines.append(f"display bytes, {label}: adapter {sent} B vs luma {luma_bytes} B "
                     f"({100 * sent / luma_bytes:.1f}%); on the I2C wire {wire_bytes(calls)} B vs "
                     f"{wire_bytes(luma_calls)} B")
        same = adapter.display(new.copy())
        lines.append(f"display bytes, {label}, identical frame again: adapter {same} B vs luma {luma_bytes} B")
    return lines


class StampedSerial(RecordingSerial):
    """Records when the first and last bytes of a redraw are handed over (perf_counter)."""

    def __init__(self, stamps: list[float]) -> None:
        super().__init__()
        self._stamps = stamps

    def command(self, *cmd: int) -> None:
        self._stamps.append(time.perf_counter())

    def data(self, data: Any) -> None:
        bytes(data)
        self._stamps.append(time.perf_counter())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_latency(role: str, journal_path: Path | None) -> tuple[list[float], list[float], list[float]]:
    """Edge -> first bytes and edge -> last bytes (wall), and the loop thread's CPU time for the same
    span, in seconds, for ``PRESSES`` presses of ``role``."""
    config = load_config(ROOT / "hardware" / "station.toml")
    clock = FakeClock()
    factory = MockFactory()
    stamps: list[float] = []

    def open_device(display: DisplayConfig) -> Any:
        return make_device(display, StampedSerial(stamps))

    store = None
    session = Session(BenchGame(), seats=2, seed=1)
    if journal_path is not None:
        store = Store.open(journal_path)
        store.create("main", session.setup)
        session.journal = store.journal("main")
    displays = make_displays(config, open_device, clock=clock)
    station = Station(session=session, config=config, displays=displays, clock=clock)
    station.buttons = make_buttons(config, emit=station.put, clock=clock, pin_factory=factory)
    station.start()
    button = config.button(role)
    other = config.button("down")
    assert button is not None and other is not None
    first: list[float] = []
    last: list[float] = []
    cpu: list[float] = []
    gc.collect()
    for i in range(PRESSES):
        pressed = button if role != "up" or i % 2 == 0 else other  # + then - so the count keeps changing
        pin = factory.pin(pressed.pin)
        stamps.clear()
        cpu_start = time.thread_time()
        start = time.perf_counter()
        pin.drive_low()
        station.drain()
        cpu_end = time.thread_time()
        if stamps:
            first.append(stamps[0] - start)
            last.append(stamps[-1] - start)
            cpu.append(cpu_end - cpu_start)
        clock.advance(0.1)
        pin.drive_high()
        station.drain()
        clock.advance(0.1)
        station.poll(clock())
    station.close()
    factory.reset()
    if store is not None:
        store.close()
    return first, last, cpu


def bench_fsync(tmp: Path) -> list[float]:
    """One journal append (SQLite, WAL, synchronous=FULL) per accepted command."""
    store = Store.open(tmp / "fsync.sqlite3")
    session = Session(BenchGame(), seats=2, seed=1)
    store.create("main", session.setup)
    journal = store.journal("main")
    times: list[float] = []

    class Timed:
        def append(self, entry: Any) -> None:
            start = time.perf_counter()
            journal.append(entry)
            times.append(time.perf_counter() - start)

    session.journal = Timed()
    for _ in range(200):
        session.perform(Command("add", ("doom", "+1")))
    store.close()
    return times


def ms(values: list[float], summary: Callable[[list[float]], float]) -> str:
    return f"{summary(values) * 1000:.3f} ms"


def main() -> None:
    for line in bench_bytes():
        print(line)
    for role, what in (("up", "+/- press (pending count shown)"), ("next", "next press (command applied)")):
        first, last, cpu = bench_latency(role, None)
        print(f"button edge -> first display bytes, {what}: median {ms(first, statistics.median)}, "
              f"p99 {ms(first, lambda v: percentile(v, 0.99))} over {len(first)} presses (no save)")
        print(f"button edge -> last display bytes, {what}: median {ms(last, statistics.median)}, "
              f"p99 {ms(last, lambda v: percentile(v, 0.99))}")
        print(f"loop thread CPU time for the same, {what}: median {ms(cpu, statistics.median)}, "
              f"p99 {ms(cpu, lambda v: percentile(v, 0.99))} (excludes time the machine ran other work)")
    with tempfile.TemporaryDirectory() as tmp:
        times = bench_fsync(Path(tmp))
        print(f"save (SQLite append, synchronous=FULL, fsync) per command: median {ms(times, statistics.median)}, "
              f"p99 {ms(times, lambda v: percentile(v, 0.99))} over {len(times)} commands")
        first, _last, _cpu = bench_latency("next", Path(tmp) / "with_save.sqlite3")
        print(f"button edge -> first display bytes, next press with the save: median "
              f"{ms(first, statistics.median)}, p99 {ms(first, lambda v: percentile(v, 0.99))}")


if __name__ == "__main__":
    main()
