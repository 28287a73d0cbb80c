"""Station idle benchmark: CPU used by a running station that nobody touches, over 60 s, and the
time from starting the process to the first frame on the displays. Targets: idle at most 0.5% of
the core (of the capped core under ``bench/run.py --pi``), every process counted; first frame of
the station loop within 1.5 s, the I2C time of its bytes included.

Two processes are measured, each started fresh:

* the station loop as the Pi runs it (``Station.run`` sleeping until an intent or a deadline, the
  counters thread woken by udev events, or where udev does not run, as in a container, by a 2 s
  look at /dev; a save file), on simulated parts: gpiozero mock pins and emulated OLED chips;
* ``tablekeeper run --sim --display capture``, the simulator as a person runs it.

CPU is user+system time from ``/proc/PID/stat`` of the process and every process under it (the
virtual counters' MicroPython processes too) over the window, so other load on the machine does not
count. Memory is the resident size of each of those processes. Both start from compiled bytecode: the
bench compiles the package first, as pip does when it installs the wheel.
Run: ``.venv/bin/python bench/bench_station_idle.py``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the child (the station) counts its own start-up: it should not load the bench's tools
    import subprocess

ROOT = Path(__file__).resolve().parents[1]
IDLE_S = float(os.environ.get("TABLEKEEPER_BENCH_IDLE_S", "60"))
I2C_HZ = 400_000
CPU_SHARE = float(os.environ.get("TABLEKEEPER_BENCH_CPU_SHARE", "1"))  # set by run.py --pi
WARM_UP_S = 2.0
SETTLED_S = 5.0  # the simulator counts as idle this long after its virtual counter's process started
SETTLE_MAX_S = 60.0
TICKS_PER_S = os.sysconf("SC_CLK_TCK")
STARTING: list[tuple[float, int]] = []  # when the station loop's "starting" frame was out, and its I2C bytes
FirstFrame = Callable[["subprocess.Popen[str]"], tuple[float, int]]  # waits for the first frame: when, I2C bytes


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far (fields 14 and 15 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_S


def family(pid: int) -> list[int]:
    """The process and every process under it, from /proc/PID/task/*/children."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        for children in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in children.read_text().split()]
    return out


def family_cpu_s(pid: int) -> dict[int, float]:
    times = {}
    for member in family(pid):
        with contextlib.suppress(OSError):
            times[member] = cpu_s(member)
    return times


def process_name(pid: int) -> str:
    """"virtual counter" for the counter firmware's process, else "station"."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    return "virtual counter" if any(arg.endswith(b"virtual_counter.py") for arg in argv) else "station"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def child(save: str, game: str = "arkham") -> int:
    """The station loop as on the Pi, minus the GPIO and I2C drivers: ``tablekeeper run``'s splash draws
    "starting..." on an emulated chip before the rest loads; prints 'ready' after the game's first frame."""
    import tablekeeper.cli  # noqa: F401  (as the console script enters, before the splash)
    from tablekeeper.hw.sim.oled import OledChip
    from tablekeeper.splash import show

    splash = show(["run"], open_interface=lambda track: OledChip(track.driver, track.width, track.height,
                                                                 record=False), on_pi=lambda: True)
    if splash is not None:  # the first frame ("starting...") is out: the game and its save load next
        print(f"first 0 {splash.interface.byte_count + 2 * splash.interface.transfers}", flush=True)

    from tablekeeper.cli import build_parser
    from tablekeeper.config import default_config_path, load_config
    from tablekeeper.station_cli import _stop_on_signals, build_simulated, counters_running

    args = build_parser("run").parse_args(["run", "--sim", "--game", game, "--save", save,
                                      "--capture-dir", str(Path(save).parent)])
    config = load_config(default_config_path())

    made: list[Any] = []  # the simulated parts, as soon as they exist

    def first_frame(station: Any) -> None:  # as run_hardware: before the buttons, LEDs and counters load
        station.start()
        wire = sum(chip.byte_count + 2 * chip.transfers for chip in made[0].chips.values())
        print(f"ready {wire}", flush=True)

    station, parts, store = build_simulated(config, args, display_mode=None, clock=time.monotonic, splash=splash,
                                            on_starting=made.append, on_station=first_frame)
    try:
        _stop_on_signals(station)
        with counters_running(station, config):
            station.start()  # again, with the parts attached: lights the active seat, tells the counters
            station.run()
    finally:
        station.close()
        parts.close()
        if store is not None:
            store.close()
    return 0


def measure(argv: list[str], first_frame: FirstFrame, settle: bool = False) -> dict[str, Any]:
    """Start ``argv``, wait for its first frame, then sample its CPU over the idle window."""
    import subprocess

    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)})
    try:
        STARTING.clear()
        ready_s, wire_bytes = first_frame(proc)
        startup_s = ready_s - start
        starting_s = STARTING[0][0] - start if STARTING else None
        starting_wire = STARTING[0][1] if STARTING else 0
        time.sleep(WARM_UP_S)
        give_up, seen = time.perf_counter() + SETTLE_MAX_S, None
        while settle and time.perf_counter() < give_up:  # the virtual counter powers up after the first frame
            if seen is None and any(process_name(p) == "virtual counter" for p in family(proc.pid)):
                seen = time.perf_counter()
            if seen is not None and time.perf_counter() - seen >= SETTLED_S:
                break
            time.sleep(0.2)
        cpu0, wall0 = family_cpu_s(proc.pid), time.perf_counter()
        time.sleep(IDLE_S)
        cpu1, wall1 = family_cpu_s(proc.pid), time.perf_counter()
        memory = [rss_mb(member) for member in family(proc.pid)]
        names = {member: process_name(member) for member in family(proc.pid)}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    used_s = sum(cpu1[p] - cpu0.get(p, 0.0) for p in cpu1)
    each = [(names.get(p, "?"), 100 * (cpu1[p] - cpu0.get(p, 0.0)) / (wall1 - wall0)) for p in cpu1]
    return {"startup_s": startup_s, "starting_s": starting_s, "i2c_s": wire_bytes * 9 / I2C_HZ,
            "starting_i2c_s": starting_wire * 9 / I2C_HZ,
            "cpu_pct": 100 * used_s / (wall1 - wall0), "each": each,
            "processes": len(cpu1), "rss_mb": memory, "window_s": wall1 - wall0}


def ready_line(proc: subprocess.Popen[str]) -> tuple[float, int]:
    """Waits for the game's first frame; the "starting" frame before it is noted in ``STARTING``."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.startswith("first "):
        STARTING.append((time.perf_counter(), int(line.split()[2])))
        line = proc.stdout.readline()
    word, _, wire = line.strip().partition(" ")
    if word != "ready":
        raise RuntimeError(f"station did not start: {line!r}")
    return time.perf_counter(), int(wire)


def first_capture(directory: Path) -> FirstFrame:
    def wait(proc: subprocess.Popen[str]) -> tuple[float, int]:
        while not any(directory.glob("*.png")):
            if proc.poll() is not None:
                raise RuntimeError(f"simulator exited with {proc.returncode}")
            time.sleep(0.002)
        return time.perf_counter(), 0

    return wait


def main() -> int:
    import argparse  # not in the child, which counts its own start-up

    parser = argparse.ArgumentParser()
    parser.add_argument("--child", metavar="SAVE", help=argparse.SUPPRESS)
    parser.add_argument("--game", default="arkham",
                        help="game on the displays (default arkham; the first screens fit their displays in every "
                             "game but Spirit Island, whose setup question turns a page every 3 s)")
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.game)
    import subprocess
    import tempfile

    # As installed: pip compiles the wheel's modules, so the Pi never compiles them at start-up. A
    # checkout run with PYTHONDONTWRITEBYTECODE set would compile every module at every start (5.8 s
    # instead of 4.3 s to the first frame at pi-speed zero2w before the start-up work of issue 17).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "host"), str(ROOT / "bench")],
                   stdout=subprocess.DEVNULL, check=False)
    with tempfile.TemporaryDirectory() as tmp:
        loop = measure([sys.executable, __file__, "--child", str(Path(tmp) / "loop.sqlite"), "--game", args.game],
                       ready_line)
        captures = Path(tmp) / "captures"
        sim = measure([sys.executable, "-m", "tablekeeper", "run", "--sim", "--display", "capture", "--game", args.game,
                       "--capture-dir", str(captures)], first_capture(captures), settle=True)
    for name, fig in (("station loop (Pi wiring, simulated parts)", loop), ("simulator (run --sim, capture)", sim)):
        capped = f" = {fig['cpu_pct'] / CPU_SHARE:.2f} % of the capped core" if CPU_SHARE < 1 else ""
        print(f"{name}: idle CPU over {fig['window_s']:.0f} s, {fig['processes']} processes | "
              f"{fig['cpu_pct']:.3f} % of one core{capped} | target <= 0.5 %")
        if len(fig["each"]) > 1:
            parts = ", ".join(f"{who} {pct / CPU_SHARE:.2f} %" for who, pct in fig["each"])
            print(f"{name}: idle CPU by process | {parts} of the {'capped ' if CPU_SHARE < 1 else ''}core")
        if fig["starting_s"] is not None:
            # the bytes on the bus by then: the track display's init and blanking, and the "starting" frame
            starting_i2c_s = fig["starting_i2c_s"]
            print(f"{name}: start-up to the 'starting' frame | {fig['starting_s'] * 1000:.0f} ms + "
                  f"{starting_i2c_s * 1000:.0f} ms I2C = {(fig['starting_s'] + starting_i2c_s) * 1000:.0f} ms | "
                  "target <= 1.5 s")
        if fig["i2c_s"]:
            print(f"{name}: start-up to the game's first frame | {fig['startup_s'] * 1000:.0f} ms + "
                  f"{fig['i2c_s'] * 1000:.0f} ms I2C = {(fig['startup_s'] + fig['i2c_s']) * 1000:.0f} ms | "
                  "target <= 1.5 s")
        else:
            print(f"{name}: start-up to first frame | {fig['startup_s'] * 1000:.0f} ms (emulated panel, no I2C)")
        sizes = ", ".join(f"{mb:.1f}" for mb in fig["rss_mb"])
        print(f"{name}: resident memory when idle, each process | {sizes} MB | target < 60 MB each")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:  # as main() would parse it, without loading argparse first
        sys.exit(child(sys.argv[2], *sys.argv[4:5]))
    sys.exit(main())
