"""Press to last byte, end to end: a gpiozero mock pin edge in, the station loop on its own thread, a real
game on its heaviest ordinary screen, luma's drivers writing to emulated OLED chips, the save on.

Each figure runs from the pin edge to the last byte the loop sent for it (the frame that answers it and,
when an expensive view such as exact odds was missing, the frame that follows with it), plus the I2C
time those bytes take at 400 kHz (9 clock cycles a byte, one address and one control byte a write).
The save's fsync happens only when a command is entered (a pending +/- change when its window closes),
so it is not in these edges; ``bench_station`` measures it on its own line.

Run: ``.venv/bin/python bench/bench_press.py``. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tablekeeper.config import load_config
from tablekeeper.core.script import parse_line
from tablekeeper.station_cli import build_simulated

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 60  # per game; each press is two edges (down, up)
I2C_HZ = 400_000
CPU_SHARE = float(os.environ.get("TABLEKEEPER_BENCH_CPU_SHARE", "1"))  # set by run.py --pi

# game, options, script lines that bring up its heaviest ordinary screen, what that screen is
GAMES: list[tuple[str, list[str], list[str], str]] = [
    ("arkham", [], ["token add bless 10", "token add curse 10"],
     "Arkham, 10 bless + 10 curse in the bag (tokens display: four exact odds)"),
    ("oathsworn", ["part=encounter"], ["next", "token 1 redraw 2", "plan 1 head white=4 redraws=2"],
     "Oathsworn, planned attack with 4 extra whites and 2 redraws"),
    ("spirit_island", [], [], "Spirit Island, start of the game"),
    ("earthborne", [], [], "Earthborne Rangers, start of the game"),
]


class Wire:
    """Timestamps and counts every write luma makes to the emulated chips."""

    def __init__(self) -> None:
        self.last_s = 0.0
        self.bytes = 0

    def watch(self, chip: Any) -> None:
        command, data = chip.command, chip.data

        def timed_command(*cmd: int) -> None:
            command(*cmd)
            self.bytes += 2 + len(cmd)
            self.last_s = time.perf_counter()

        def timed_data(payload: Any) -> None:
            payload = list(payload)
            data(payload)
            self.bytes += 2 + len(payload)
            self.last_s = time.perf_counter()

        chip.command, chip.data = timed_command, timed_data


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_game(game: str, options: list[str], setup: list[str], save_dir: Path) -> dict[str, Any]:
    config = load_config(ROOT / "hardware" / "station.toml")
    args = argparse.Namespace(game=game, seats=2, seed=1, save=str(save_dir / f"{game}.sqlite"), slot="main",
                              capture_dir=save_dir, option=options, no_counters=True)
    station, parts, store = build_simulated(config, args, display_mode=None, clock=time.monotonic)
    wire = Wire()
    passes = threading.Condition()
    done_intents = [0]

    def on_pass(_now_s: float) -> None:
        with passes:
            done_intents[0] = station.stats.intents
            passes.notify_all()

    try:
        for text in setup:
            parsed = parse_line(text)
            if parsed is None or not station.session.perform(parsed.command).accepted:
                raise SystemExit(f"bench_press: {game}: setup line {text!r} was refused")
        station.start()
        for chip in parts.chips.values():
            wire.watch(chip)
        loop = threading.Thread(target=station.run, kwargs={"on_pass": on_pass}, daemon=True)
        loop.start()
        up, down = parts.button("up"), parts.button("down")
        assert up is not None and down is not None
        host_ms: list[float] = []
        i2c_ms: list[float] = []
        cpu_ms: list[float] = []
        edges = 0
        for n in range(PRESSES):
            button = up if n % 2 == 0 else down
            for is_down in (True, False):
                wire.bytes = 0
                wire.last_s = 0.0
                edges += 1
                cpu_start_s = time.process_time()
                start_s = time.perf_counter()
                parts.set_button(button, is_down)
                with passes:
                    passes.wait_for(lambda: done_intents[0] >= station.stats.intents > 0 and
                                    station.intents.empty(), timeout=5.0)
                if wire.last_s:
                    host_ms.append((wire.last_s - start_s) * 1000)
                    i2c_ms.append(wire.bytes * 9 / I2C_HZ * 1000)
                    cpu_ms.append((time.process_time() - cpu_start_s) * 1000)
                time.sleep(0.03)  # apart from the next edge by more than the debounce
        from tablekeeper.intents import Quit

        station.put(Quit("bench done"))
        loop.join(timeout=10)
        panel = station.frames_panels().get("tokens")
    finally:
        station.close()
        parts.close()
        if store is not None:
            store.close()
    total = [h + i for h, i in zip(host_ms, i2c_ms, strict=True)]
    return {"edges": edges, "answered": len(total), "host": host_ms, "i2c": i2c_ms, "total": total, "cpu": cpu_ms,
            "panel": panel}


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        for game, options, setup, label in GAMES:
            result = bench_game(game, options, setup, Path(tmp))
            total, host, i2c = result["total"], result["host"], result["i2c"]
            if not total:
                print(f"{game}: no edge reached a display ({label})")
                continue
            panel = result["panel"]
            shown = f"; tokens display: {' / '.join(panel.lines)}" if panel is not None else ""
            print(f"{game}: press to last byte incl. I2C: median {statistics.median(total):.1f} ms, "
                  f"p99 {pct(total, 0.99):.1f} ms over {result['answered']} presses (the "
                  f"{result['edges'] - result['answered']} releases sent no byte); {label}")
            cpu = result["cpu"]
            print(f"{game}:   CPU per press, every thread: median {statistics.median(cpu):.2f} ms, "
                  f"p99 {pct(cpu, 0.99):.2f} ms; at a steady {CPU_SHARE:g} of a core that alone is "
                  f"{statistics.median(cpu) / CPU_SHARE:.1f} / {pct(cpu, 0.99) / CPU_SHARE:.1f} ms "
                  "(a short burst can run inside the cap's 1 ms slice unslowed)")
            print(f"{game}:   of which host {statistics.median(host):.2f} ms median / p99 {pct(host, 0.99):.2f} ms, "
                  f"I2C {statistics.median(i2c):.2f} ms median / max {max(i2c):.2f} ms{shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
