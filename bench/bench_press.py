"""Press to last byte, end to end: a gpiozero mock pin edge in, the station loop on its own thread, a real
game on its heaviest ordinary screen, luma's drivers writing to emulated OLED chips, the save on.

Presses come in bursts of 1 to 4 on up or down (all one way, so every press shows a new value; the
next burst of the same size goes back, so the value stays within 4 of where it started), and each
burst's pending change is then left to close, so it is entered into the save (SQLite, WAL,
``synchronous=FULL``) before the next burst. So the first press of a burst draws the pending-change
banner onto a display that has none (the common press at a table, and the costliest), the others
change its numbers. The bench shortens the pending window to ``WINDOW_S`` so the run stays short;
the window's length changes no cost.

Each press figure runs from the pin edge to the last byte the loop sent for it (the frame that answers
it and, when an expensive view such as exact odds was missing, the frame that follows with it), plus
the I2C time those bytes take at 400 kHz (9 clock cycles a byte, one address and one control byte a
write). Releases that send nothing are not counted as presses. The "entered" line runs from the
window's end to the last byte of the frames after it: the command, the save's commit with its fsync,
and the redraw (with Oathsworn's plan odds recomputed after the frame).

Run: ``.venv/bin/python bench/bench_press.py [--presses N] [--game NAME] [--profile]``. Prints figures;
asserts nothing about time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import msgspec.structs

from tablekeeper.commands.run import build_simulated, settle_heap
from tablekeeper.config import load_config
from tablekeeper.core.script import parse_line

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 200  # per game; each press is two edges (down, up)
BURSTS = (1, 1, 2, 2, 3, 3, 4, 4)  # presses per pending change, in turn: up, down, up, ...
WINDOW_S = 0.25  # the pending window the bench uses (the build's is 1.5 s)
EDGE_GAP_S = 0.03  # between an answered edge and the next: more than the debounce
I2C_HZ = 400_000
CPU_SHARE = float(os.environ.get("TABLEKEEPER_BENCH_CPU_SHARE", "1"))  # set by run.py --pi
clock = time.monotonic  # the station's clock and the wire's timestamps: one clock

# game, options, script lines that bring up its heaviest ordinary screen, what that screen is
GAMES: list[tuple[str, list[str], list[str], str]] = [
    ("arkham", [], ["token add bless 10", "token add curse 10"],
     "Arkham, 10 bless + 10 curse in the bag (tokens display: four exact odds)"),
    # seat 1's MIGHT track is one yellow cube: white=5 makes a 6-card plan, up/down 6 <-> 7 cards
    # (on the practice encounter, as the figures in docs/performance.md were measured)
    ("oathsworn", ["part=encounter", "encounter=practice"],
     ["next", "token 1 redraw 2", "plan 1 head white=5 redraws=2"],
     "Oathsworn, planned attack of 6 cards (1 yellow + 5 white) with 2 redraws"),
    ("spirit_island", [], [], "Spirit Island, start of the game"),
    ("earthborne", [], [], "Earthborne Rangers, start of the game"),
]


class Wire:
    """Timestamps and counts every write luma makes to the emulated chips."""

    def __init__(self) -> None:
        self.last_s = 0.0
        self.bytes = 0

    def reset(self) -> None:
        self.last_s, self.bytes = 0.0, 0

    def watch(self, chip: Any) -> None:
        command, data = chip.command, chip.data

        def timed_command(*cmd: int) -> None:
            command(*cmd)
            self.bytes += 2 + len(cmd)
            self.last_s = clock()

        def timed_data(payload: Any) -> None:
            payload = list(payload)
            data(payload)
            self.bytes += 2 + len(payload)
            self.last_s = clock()

        chip.command, chip.data = timed_command, timed_data


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_game(game: str, options: list[str], setup: list[str], save_dir: Path, *, presses: int = PRESSES,
               profile: cProfile.Profile | None = None) -> dict[str, Any]:
    config = load_config(ROOT / "hardware" / "station.toml")
    config = msgspec.structs.replace(config, timing=msgspec.structs.replace(config.timing, pending_window_s=WINDOW_S))
    args = argparse.Namespace(game=game, seats=2, seed=1, save=str(save_dir / f"{game}.sqlite"), slot="main",
                              capture_dir=save_dir, option=options, no_counters=True)
    station, parts, store = build_simulated(config, args, display_mode=None, clock=clock)
    wire = Wire()
    passes = threading.Condition()
    done_intents = [0]
    loop_cpu_s = [0.0]  # the loop thread's CPU time at the end of its last pass

    def on_pass(_now_s: float) -> None:
        with passes:
            done_intents[0] = station.stats.intents
            loop_cpu_s[0] = time.thread_time()
            passes.notify_all()

    def loop() -> None:
        if profile is None:
            station.run(on_pass=on_pass)
            return
        profile.runcall(station.run, on_pass=on_pass)

    def settled() -> bool:
        return done_intents[0] >= station.stats.intents > 0 and station.intents.empty()

    host_ms: list[float] = []
    i2c_ms: list[float] = []
    cpu_ms: list[float] = []
    loop_ms: list[float] = []
    place: list[int] = []  # each answered edge's place in its burst (0: the banner appears)
    entered_ms: list[float] = []
    entered_cpu_ms: list[float] = []
    edges = 0
    try:
        for text in setup:
            parsed = parse_line(text)
            if parsed is None or not station.session.perform(parsed.command).accepted:
                raise SystemExit(f"bench_press: {game}: setup line {text!r} was refused")
        station.start()
        settle_heap()  # as ``tablekeeper run`` does before its loop
        for chip in parts.chips.values():
            wire.watch(chip)
        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        up, down = parts.button("up"), parts.button("down")
        assert up is not None and down is not None
        pressed, burst = 0, 0
        while pressed < presses:
            size = min(BURSTS[burst % len(BURSTS)], presses - pressed)
            button = up if burst % 2 == 0 else down
            burst += 1
            for n in range(size):
                for is_down in (True, False):
                    wire.reset()
                    edges += 1
                    cpu_start_s = time.process_time()
                    loop_start_s = loop_cpu_s[0]
                    start_s = clock()
                    parts.set_button(button, is_down)
                    with passes:
                        passes.wait_for(settled, timeout=10.0)
                    if wire.last_s:
                        host_ms.append((wire.last_s - start_s) * 1000)
                        i2c_ms.append(wire.bytes * 9 / I2C_HZ * 1000)
                        cpu_ms.append((time.process_time() - cpu_start_s) * 1000)
                        loop_ms.append((loop_cpu_s[0] - loop_start_s) * 1000)
                        place.append(n)
                    time.sleep(EDGE_GAP_S)
            pressed += size
            # the window closes: the change is entered and saved, and the screens follow
            pending = station.controls.pending
            wire.reset()
            cpu_start_s = time.process_time()
            if pending is not None:
                end_s = pending.last_s + WINDOW_S
                with passes:
                    passes.wait_for(lambda: station.controls.pending is None and settled(), timeout=10.0)
                time.sleep(EDGE_GAP_S)  # the odds frame that may follow
                with passes:
                    passes.wait_for(settled, timeout=10.0)
                if wire.last_s:
                    entered_ms.append((wire.last_s - end_s) * 1000 + wire.bytes * 9 / I2C_HZ * 1000)
                    entered_cpu_ms.append((time.process_time() - cpu_start_s) * 1000)
            else:
                time.sleep(WINDOW_S)
        keep = keep_cost(station, args, save_dir)
        from tablekeeper.intents import Quit

        station.put(Quit("bench done"))
        thread.join(timeout=10)
        panel = station.panels.get("tokens")
    finally:
        station.close()
        parts.close()
        if store is not None:
            store.close()
    total = [h + i for h, i in zip(host_ms, i2c_ms, strict=True)]
    return {"edges": edges, "answered": len(total), "host": host_ms, "i2c": i2c_ms, "total": total, "cpu": cpu_ms,
            "loop": loop_ms, "place": place, "entered": entered_ms, "entered_cpu": entered_cpu_ms, "panel": panel,
            "keep": keep}


def keep_cost(station: Any, args: argparse.Namespace, save_dir: Path) -> tuple[float, float]:
    """CPU and wall ms of what ``remembered.KeepWhenQuiet`` does on the loop once the table is quiet (the
    restart's screens drawn afresh and written): a press that arrives just then waits at most that long.
    Run here while the loop sleeps, as the loop would run it."""
    from tablekeeper.commands.run import first_screens
    from tablekeeper.station.remembered import Key, remember

    start_s, cpu_s = time.perf_counter(), time.thread_time()
    remember(Key(("run",), "bench", args.save), str(save_dir / "cache"), first_screens(station, args, clock=clock))
    return (time.thread_time() - cpu_s) * 1000, (time.perf_counter() - start_s) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=PRESSES, help="presses per game")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--profile", action="store_true", help="cProfile the station loop thread; print the top")
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for game, options, setup, label in GAMES:
            if opts.game and game not in opts.game:
                continue
            profile = cProfile.Profile() if opts.profile else None
            result = bench_game(game, options, setup, Path(tmp), presses=opts.presses, profile=profile)
            total, host, i2c = result["total"], result["host"], result["i2c"]
            if not total:
                print(f"{game}: no edge reached a display ({label})")
                continue
            panel = result["panel"]
            shown = f"; tokens display: {' / '.join(panel.lines)}" if panel is not None else ""
            print(f"{game}: press to last byte incl. I2C: median {statistics.median(total):.1f} ms, "
                  f"p99 {pct(total, 0.99):.1f} ms, max {max(total):.1f} ms over {result['answered']} presses "
                  f"(the {result['edges'] - result['answered']} releases sent no byte); {label}")
            cpu = result["cpu"]
            print(f"{game}:   CPU per press, every thread: median {statistics.median(cpu):.2f} ms, "
                  f"p99 {pct(cpu, 0.99):.2f} ms; at a steady {CPU_SHARE:g} of a core that alone is "
                  f"{statistics.median(cpu) / CPU_SHARE:.1f} / {pct(cpu, 0.99) / CPU_SHARE:.1f} ms "
                  "(a short burst can run inside the cap's 1 ms slice unslowed)")
            loop = result["loop"]
            print(f"{game}:   of which the station loop thread: median {statistics.median(loop):.2f} ms, "
                  f"p99 {pct(loop, 0.99):.2f} ms")
            keep_cpu, keep_wall = result["keep"]
            print(f"{game}:   the restart's screens kept once the table is quiet (never inside a burst): "
                  f"{keep_cpu:.2f} ms CPU, {keep_wall:.1f} ms wall")
            if CPU_SHARE < 1:
                steady = [c / CPU_SHARE + i for c, i in zip(cpu, i2c, strict=True)]
                print(f"{game}:   CPU at a steady {CPU_SHARE:g} of a core plus I2C, press by press (a Pi that is "
                      f"slower at everything, not in slices): median {statistics.median(steady):.1f} ms, "
                      f"p99 {pct(steady, 0.99):.1f} ms")
            slowest = sorted(zip(total, cpu, i2c, result["place"], strict=True), reverse=True)[:3]
            print(f"{game}:   slowest presses (total / CPU / I2C ms, place in burst): " + ", ".join(
                f"{t:.1f} / {c:.2f} / {i:.1f} #{p + 1}" for t, c, i, p in slowest))
            print(f"{game}:   of which host {statistics.median(host):.2f} ms median / p99 {pct(host, 0.99):.2f} ms, "
                  f"I2C {statistics.median(i2c):.2f} ms median / max {max(i2c):.2f} ms{shown}")
            entered = result["entered"]
            if entered:
                print(f"{game}:   entered (window end to last byte, save included, incl. I2C): median "
                      f"{statistics.median(entered):.1f} ms, p99 {pct(entered, 0.99):.1f} ms over {len(entered)}; "
                      f"CPU median {statistics.median(result['entered_cpu']):.2f} ms")
            if profile is not None:
                out = io.StringIO()
                pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(45)
                pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(30)
                print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
