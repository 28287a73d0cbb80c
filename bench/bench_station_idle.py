"""Station idle benchmark: CPU used by a running station that nobody touches, over 30 s, and the
time from starting the process to the first frame on the displays. Targets: idle at most 0.5% of
one core (event-driven, no busy polling); first frame under 1 s.

Two processes are measured, each started fresh:

* the station loop as the Pi runs it (``Station.run`` with its default wait, the counters thread
  scanning USB, a save file), on simulated parts: gpiozero mock pins and emulated OLED chips;
* ``tablekeeper run --sim --display capture``, the simulator as a person runs it.

CPU is the process's own user+system time from ``/proc/PID/stat`` over the window, so other load
on the machine does not count. Run: ``.venv/bin/python bench/bench_station_idle.py``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IDLE_S = 30.0
WARM_UP_S = 2.0
TICKS_PER_S = os.sysconf("SC_CLK_TCK")
FirstFrame = Callable[["subprocess.Popen[str]"], float]  # waits for the first frame, returns when


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (fields 14 and 15 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_S


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def child(save: str) -> int:
    """The station loop as on the Pi, minus the GPIO and I2C drivers; prints 'ready' after the first frame."""
    from tablekeeper.cli import build_parser
    from tablekeeper.config import default_config_path, load_config
    from tablekeeper.station_cli import _stop_on_signals, build_simulated, counters_running

    args = build_parser().parse_args(["run", "--sim", "--game", "arkham", "--save", save,
                                      "--capture-dir", str(Path(save).parent)])
    config = load_config(default_config_path())
    station, parts, store = build_simulated(config, args, display_mode=None, clock=time.monotonic)
    try:
        _stop_on_signals(station)
        with counters_running(station, config):
            station.start()
            print("ready", flush=True)
            station.run()
    finally:
        station.close()
        parts.close()
        if store is not None:
            store.close()
    return 0


def measure(argv: list[str], first_frame: FirstFrame) -> dict[str, float]:
    """Start ``argv``, wait for its first frame, then sample its CPU over the idle window."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)})
    try:
        startup_s = first_frame(proc) - start
        time.sleep(WARM_UP_S)
        cpu0, wall0 = cpu_s(proc.pid), time.perf_counter()
        time.sleep(IDLE_S)
        cpu1, wall1 = cpu_s(proc.pid), time.perf_counter()
        memory_mb = rss_mb(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {"startup_s": startup_s, "cpu_pct": 100 * (cpu1 - cpu0) / (wall1 - wall0), "rss_mb": memory_mb,
            "window_s": wall1 - wall0}


def ready_line(proc: subprocess.Popen[str]) -> float:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        raise RuntimeError(f"station did not start: {line!r}")
    return time.perf_counter()


def first_capture(directory: Path) -> FirstFrame:
    def wait(proc: subprocess.Popen[str]) -> float:
        while not any(directory.glob("*.png")):
            if proc.poll() is not None:
                raise RuntimeError(f"simulator exited with {proc.returncode}")
            time.sleep(0.002)
        return time.perf_counter()

    return wait


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", metavar="SAVE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    with tempfile.TemporaryDirectory() as tmp:
        loop = measure([sys.executable, __file__, "--child", str(Path(tmp) / "loop.sqlite")], ready_line)
        captures = Path(tmp) / "captures"
        sim = measure([sys.executable, "-m", "tablekeeper", "run", "--sim", "--display", "capture", "--game", "arkham",
                       "--capture-dir", str(captures)], first_capture(captures))
    for name, fig in (("station loop (Pi wiring, simulated parts)", loop), ("simulator (run --sim, capture)", sim)):
        print(f"{name}: idle CPU over {fig['window_s']:.0f} s | {fig['cpu_pct']:.2f} % of one core | target <= 0.5 %")
        print(f"{name}: start-up to first frame | {fig['startup_s'] * 1000:.0f} ms | target < 1 s")
        print(f"{name}: resident memory when idle | {fig['rss_mb']:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
