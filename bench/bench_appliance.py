"""Appliance benchmark: what demo mode adds to every station loop pass, what a demo start costs
(one counter bump in the store, ``synchronous=FULL``), and how long drawing the wiring SVG takes.

Run: ``.venv/bin/python bench/bench_appliance.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tablekeeper.appliance.wiring import render_wiring_svg
from tablekeeper.config import default_config_path, load_config
from tablekeeper.core.store import Store
from tablekeeper.demo.mode import DemoMode, DemoSettings, load_scripts


def per_call_us(fn: Callable[[int], object], calls: int) -> float:
    start = time.perf_counter()
    for i in range(calls):
        fn(i)
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    scripts = load_scripts()
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "bench.sqlite3") as store:
        demo = DemoMode(scripts, counters=store, now_s=0.0, settings=DemoSettings())
        attract_us = per_call_us(lambda i: demo.tick(i * 0.02), 20_000)
        demo.on_press("next", 500.0)
        guided_us = per_call_us(lambda i: demo.tick(500.0 + i * 0.001), 20_000)
        starts = []
        for i in range(200):
            demo.tick(10_000.0 + i * 200.0)  # idle timeout: back to the attract loop
            began = time.perf_counter()
            demo.on_press("next", 10_000.0 + i * 200.0 + 1.0)
            starts.append((time.perf_counter() - began) * 1e3)
    print(f"demo tick, attract loop (6 panels):  {attract_us:8.1f} us per loop pass")
    print(f"demo tick, guided (1 prompt panel):  {guided_us:8.1f} us per loop pass")
    print(f"  at a 50 Hz loop that is {attract_us * 50 / 1e4:.3f} % of one core")
    print(f"demo start incl. store bump:         {statistics.median(starts):8.2f} ms median, "
          f"{max(starts):.2f} ms max over {len(starts)}")
    cfg = load_config(default_config_path())
    draws = [0.0] * 20
    for i in range(len(draws)):
        began = time.perf_counter()
        render_wiring_svg(cfg)
        draws[i] = (time.perf_counter() - began) * 1e3
    print(f"wiring SVG of the reference build:   {statistics.median(draws):8.2f} ms median")


if __name__ == "__main__":
    main()
