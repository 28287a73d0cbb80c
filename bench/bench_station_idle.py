"""Station idle benchmark: CPU used by a running station that nobody touches, over 60 s, and the
time from starting the process to the first frame on the displays. Targets: idle at most 0.5% of
the core (of the capped core under ``bench/run.py --pi``), every process counted; first frame of
the station loop within 1.5 s, the I2C time of its bytes included.

Two processes are measured, each started fresh:

* the station loop as the Pi runs it (``Station.run`` sleeping until an intent or a deadline, the
  counters thread woken by udev events, or where udev does not run, as in a container, by a 2 s
  look at /dev; a save file), on simulated parts: gpiozero mock pins and emulated OLED chips;
* ``tablekeeper run --sim --display capture``, the simulator as a person runs it.

CPU is read from each process's CPU-time clock (``clock_gettime`` on the clock of PID: the
scheduler's nanoseconds for every thread of the process, threads that ended included) for the process
and every process under it (the virtual counters' processes too) over the window, so other load on the
machine does not count. ``/proc/PID/stat`` counts 10 ms ticks, which over 60 s at 1/12 of a core is
0.2 % of the capped core a tick: far too coarse for a 0.5 % target. Wake-ups are the threads' context
switches over the window (``/proc/PID/task/*/status``; a thread that ended in the window is not
counted there).

Two screens are idled on, each in both processes: Arkham with four seats that owe a move (their LEDs
blink: the worst ordinary idle) and Oathsworn at the start (nothing blinks, no page turns).

Each start-up case runs ``TABLEKEEPER_BENCH_STARTS`` times (5 unless set), and its figure is the median, the
starts beside it: one start under the cap varies by a few hundred ms.

Memory is the resident size of each of those processes. Both start from compiled bytecode: the
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
SETTLED_S = 5.0  # the simulator counts as idle this long after its virtual counter's process started,
# and once its processes used under 1 % of the core over 2 s (under the cap a start-up can take longer)
SETTLE_MAX_S = 60.0
STARTS = int(os.environ.get("TABLEKEEPER_BENCH_STARTS", "5"))  # each start-up case this many times, its median the
# figure: under the cap one start varies by a few hundred ms
SCREEN: list[str] = []  # what the station loop idled on (from its child)
IDLE_CASES = {  # game -> (seats, what its idle is): the worst ordinary idle, and a quiet one
    "arkham": ("4", "Arkham, 4 seats owing a move (LEDs blinking)"),
    "oathsworn": ("", "Oathsworn at the start (quiet)"),
}
STARTING: list[tuple[float, int, str]] = []  # when the splash's frame was out, its I2C bytes, and which it was
# ("starting", or "remembered": the screens the last run on the same save left for this start)
GAME_FRAME: list[tuple[float, int]] = []  # when the game's first frame was out (odds still ".."), its I2C bytes
# The station's process (``station_start.py``), entered from its compiled module as the console script enters
# ``tablekeeper.cli``; then SAVE GAME SEATS. The bench compiles bench/ with the package.
CHILD = [sys.executable, "-c", "import sys; sys.path.insert(0, 'bench'); from station_start import main; "
         "sys.exit(main(sys.argv[1:]))"]
FirstFrame = Callable[["subprocess.Popen[str]"], tuple[float, int]]  # waits for the first frame: when, I2C bytes


def cpu_s(pid: int) -> float:
    """CPU seconds of a process so far, to the nanosecond: every thread, those that ended included.
    The clock id of a process's CPU clock is ``~pid << 3 | 2`` (what glibc's ``clock_getcpuclockid``
    returns: CPUCLOCK_SCHED, the whole thread group)."""
    try:
        return time.clock_gettime_ns((~pid << 3) | 2) / 1e9
    except OSError as exc:  # the process is gone
        raise ProcessLookupError(pid) from exc


def wakeups(pid: int) -> int:
    """Context switches of the process's live threads so far (each is a sleep ended, or a preemption)."""
    total = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        with contextlib.suppress(OSError):
            for line in status.read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    total += int(line.split()[1])
    return total


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


def family_cpu_s(pid: int) -> dict[int, tuple[float, int]]:
    """CPU seconds and wake-ups of the process and every process under it."""
    times = {}
    for member in family(pid):
        with contextlib.suppress(OSError):
            times[member] = (cpu_s(member), wakeups(member))
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


def ready_and_screen(proc: subprocess.Popen[str]) -> tuple[float, int]:
    """``ready_line``, then the child's line saying what is on the displays (kept in ``SCREEN``)."""
    ready = ready_line(proc)
    assert proc.stdout is not None
    SCREEN.append(proc.stdout.readline().strip().removeprefix("screen "))
    return ready


def quiet(pid: int, over_s: float = 2.0) -> bool:
    """Whether the processes used under 1 % of a core (of the capped core when capped) over ``over_s``:
    a virtual counter still starting under the cap (its imports, the greeting) is not idle yet."""
    before = sum(cpu for cpu, _ in family_cpu_s(pid).values())
    time.sleep(over_s)
    return sum(cpu for cpu, _ in family_cpu_s(pid).values()) - before < 0.01 * over_s * CPU_SHARE


def measure(argv: list[str], first_frame: FirstFrame, settle: bool = False, idle: bool = True) -> dict[str, Any]:
    """Start ``argv``, wait for its first frame, then sample its CPU over the idle window (``idle``;
    else stop it once its first frame is out: the start-up figures alone)."""
    import subprocess

    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)})
    try:
        STARTING.clear()
        GAME_FRAME.clear()
        ready_s, wire_bytes = first_frame(proc)
        startup_s = ready_s - start
        starting_s = STARTING[0][0] - start if STARTING else None
        starting_wire = STARTING[0][1] if STARTING else 0
        starting_kind = STARTING[0][2] if STARTING else ""
        if not idle:
            return {"startup_s": startup_s, "starting_s": starting_s, "starting_i2c_s": starting_wire * 9 / I2C_HZ,
                    "starting_kind": starting_kind, "i2c_s": wire_bytes * 9 / I2C_HZ,
                    "game_s": GAME_FRAME[0][0] - start if GAME_FRAME else None,
                    "game_i2c_s": GAME_FRAME[0][1] * 9 / I2C_HZ if GAME_FRAME else 0.0}
        time.sleep(WARM_UP_S)
        give_up, seen = time.perf_counter() + SETTLE_MAX_S, None
        while settle and time.perf_counter() < give_up:  # the virtual counter powers up after the first frame
            if seen is None and any(process_name(p) == "virtual counter" for p in family(proc.pid)):
                seen = time.perf_counter()
            if seen is not None and time.perf_counter() - seen >= SETTLED_S and quiet(proc.pid):
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
    window_s = wall1 - wall0
    used = {p: (cpu1[p][0] - cpu0.get(p, (0.0, 0))[0], cpu1[p][1] - cpu0.get(p, (0.0, 0))[1]) for p in cpu1}
    ended = [p for p in cpu0 if p not in cpu1]  # a process that ended in the window: its time is lost
    used_s = sum(cpu for cpu, _ in used.values())
    each = [(names.get(p, "?"), 100 * cpu / window_s, woke * 60 / window_s) for p, (cpu, woke) in used.items()]
    return {"ended": len(ended), "startup_s": startup_s, "starting_s": starting_s, "i2c_s": wire_bytes * 9 / I2C_HZ,
            "starting_i2c_s": starting_wire * 9 / I2C_HZ, "starting_kind": starting_kind,
            "game_s": GAME_FRAME[0][0] - start if GAME_FRAME else None,
            "game_i2c_s": GAME_FRAME[0][1] * 9 / I2C_HZ if GAME_FRAME else 0.0,
            "cpu_pct": 100 * used_s / (wall1 - wall0), "each": each,
            "processes": len(cpu1), "rss_mb": memory, "window_s": wall1 - wall0}


def ready_line(proc: subprocess.Popen[str]) -> tuple[float, int]:
    """Waits for the game's first frame; the "starting" frame before it is noted in ``STARTING``."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.startswith("first "):
        STARTING.append((time.perf_counter(), int(line.split()[2]), line.split()[3]))
        line = proc.stdout.readline()
    if line.startswith("game "):
        GAME_FRAME.append((time.perf_counter(), int(line.split()[1])))
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


def print_idle(name: str, fig: dict[str, Any]) -> None:
    capped = f" = {fig['cpu_pct'] / CPU_SHARE:.3f} % of the capped core" if CPU_SHARE < 1 else ""
    ended = f", {fig['ended']} ended in it (not counted)" if fig["ended"] else ""
    print(f"{name}: idle CPU over {fig['window_s']:.0f} s, {fig['processes']} processes{ended} | "
          f"{fig['cpu_pct']:.4f} % of one core{capped} | target <= 0.5 %")
    core = f"the {'capped ' if CPU_SHARE < 1 else ''}core"
    parts = ", ".join(f"{who} {pct / CPU_SHARE:.3f} % ({woke:.0f} wake-ups a minute)" for who, pct, woke in fig["each"])
    print(f"{name}: idle CPU by process | {parts} of {core}")


def starts(run: Callable[[], dict[str, Any]], first: dict[str, Any] | None = None) -> dict[str, Any]:
    """``run``'s figures over ``STARTS`` starts (``first``: one already measured, idle window and all): each
    time the median, every start's own figure kept beside it (``game_s_each`` and the like)."""
    import statistics

    figs = ([first] if first is not None else []) + [run() for _ in range(STARTS - (first is not None))]
    fig = dict(figs[0])
    for key in ("startup_s", "starting_s", "game_s"):
        values = [each[key] for each in figs if each[key] is not None]
        fig[key] = statistics.median(values) if values else None
        fig[f"{key}_each"] = values
    return fig


def spread(fig: dict[str, Any], key: str = "game_s") -> str:
    """How the starts behind a median went, when there were several."""
    each = fig.get(f"{key}_each", [])
    return f" (median of {len(each)} starts: {', '.join(f'{s * 1000:.0f}' for s in each)} ms)" if len(each) > 1 else ""


def print_startup(name: str, fig: dict[str, Any]) -> None:
    if fig["starting_s"] is not None and fig["starting_kind"] == "remembered":
        # every display opened and its remembered screen sent whole: the game's screens, before it loads
        drawn_s, bus_s = fig["starting_s"], fig["starting_i2c_s"]
        print(f"{name}: start-up to the game's screens, remembered (the splash draws them) | "
              f"{drawn_s * 1000:.0f} ms + {bus_s * 1000:.0f} ms I2C = {(drawn_s + bus_s) * 1000:.0f} ms"
              f"{spread(fig, 'starting_s')} | target <= 2.0 s at pi-speed zero2w")
    elif fig["starting_s"] is not None:
        # the bytes on the bus by then: the track display's init and blanking, and the "starting" frame
        starting_i2c_s = fig["starting_i2c_s"]
        print(f"{name}: start-up to the 'starting' frame | {fig['starting_s'] * 1000:.0f} ms + "
              f"{starting_i2c_s * 1000:.0f} ms I2C = {(fig['starting_s'] + starting_i2c_s) * 1000:.0f} ms | "
              "target <= 1.5 s")
    if fig["game_s"] is not None and fig["starting_kind"] == "remembered":
        changed = max(0.0, fig["game_i2c_s"] - fig["starting_i2c_s"])
        print(f"{name}: start-up to the game's own first frame over them (odds still '..'; only what differs is "
              f"sent) | {fig['game_s'] * 1000:.0f} ms + {changed * 1000:.0f} ms I2C{spread(fig)}")
    elif fig["game_s"] is not None:
        print(f"{name}: start-up to the game's first frame (odds still '..') | {fig['game_s'] * 1000:.0f} ms + "
              f"{fig['game_i2c_s'] * 1000:.0f} ms I2C = {(fig['game_s'] + fig['game_i2c_s']) * 1000:.0f} ms"
              f"{spread(fig)} | target <= 2.0 s at pi-speed zero2w")
    if fig["i2c_s"] and fig["starting_kind"] == "remembered":
        changed = max(0.0, fig["i2c_s"] - fig["starting_i2c_s"])
        print(f"{name}: start-up to the game's first frame with its odds | {fig['startup_s'] * 1000:.0f} ms + "
              f"{changed * 1000:.0f} ms I2C (the odds drawn over the remembered screens)")
    elif fig["i2c_s"]:
        print(f"{name}: start-up to the game's first frame with its odds | {fig['startup_s'] * 1000:.0f} ms + "
              f"{fig['i2c_s'] * 1000:.0f} ms I2C = {(fig['startup_s'] + fig['i2c_s']) * 1000:.0f} ms | "
              "target <= 1.5 s")
    else:
        print(f"{name}: start-up to first frame | {fig['startup_s'] * 1000:.0f} ms (emulated panel, no I2C)")


def cut_power(child_argv: list[str]) -> None:
    """A run on the save whose power is cut a while after its start (SIGKILL, nothing closed): long enough
    for the station to remember its screens as the game stands (``remembered.QUIET_S``)."""
    import subprocess

    from tablekeeper.station.remembered import QUIET_S

    proc = subprocess.Popen(child_argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        ready_and_screen(proc)
        time.sleep(QUIET_S + 2.0)
    finally:
        proc.kill()
        proc.wait()
    STARTING.clear()
    GAME_FRAME.clear()


def forget(save: Path) -> None:
    """Drop the screens remembered for ``save`` (``tablekeeper.station.remembered``)."""
    from tablekeeper.station.remembered import memory_path
    from tablekeeper.user_paths import cache_dir

    path = memory_path(str(save), str(cache_dir()))
    if path is not None:
        Path(path).unlink(missing_ok=True)


def startup_cases(tmp: Path, game: str, seats: str, first: dict[str, Any]) -> list[dict[str, Any]]:
    """The start-up figures, each over ``STARTS`` starts: a new game (``first`` the one the idle window
    followed), the same save again with its screens remembered, with nothing remembered, after a power cut."""
    saves = iter([tmp / f"new{n}.sqlite" for n in range(1, STARTS)])
    same_save = [*CHILD, str(tmp / "loop.sqlite"), game, seats]
    new_games = []

    def new_game() -> dict[str, Any]:
        new_games.append(next(saves))
        return measure([*CHILD, str(new_games[-1]), game, seats], ready_and_screen, idle=False)

    figures = [starts(new_game, first=first)]
    for save in new_games:
        forget(save)
    # the Pi's ordinary start: the same save again, as the last run left it
    figures.append(starts(lambda: measure(same_save, ready_and_screen, idle=False)))

    # the same with nothing remembered: the first start after an update, or after a power cut just after a change
    def cold() -> dict[str, Any]:
        forget(tmp / "loop.sqlite")
        return measure(same_save, ready_and_screen, idle=False)

    figures.append(starts(cold))

    def after_cut() -> dict[str, Any]:  # its screens remembered as it stood when the power was cut
        cut_power(same_save)
        return measure(same_save, ready_and_screen, idle=False)

    figures.append(starts(after_cut))
    return figures


def main() -> int:
    import argparse  # not in the child, which counts its own start-up

    parser = argparse.ArgumentParser()
    parser.add_argument("--game", action="append", choices=sorted(IDLE_CASES),
                        help="idle on this game's screen (default: both; Arkham with four seats owing a move, "
                             "their LEDs blinking, and Oathsworn at the start, where nothing blinks; the first game's "
                             "run gives the start-up figures)")
    args = parser.parse_args()
    import subprocess
    import tempfile

    # As installed: pip compiles the wheel's modules, so the Pi never compiles them at start-up. A
    # checkout run with PYTHONDONTWRITEBYTECODE set would compile every module at every start (5.8 s
    # instead of 4.3 s to the first frame at pi-speed zero2w before the start-up work of issue 17).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "host"), str(ROOT / "bench")],
                   stdout=subprocess.DEVNULL, check=False)
    for number, game in enumerate(args.game or list(IDLE_CASES)):
        seats, case = IDLE_CASES[game]
        with tempfile.TemporaryDirectory() as tmp:
            SCREEN.clear()
            with_seats = ["--seats", seats] if seats else []
            child_argv = [*CHILD, str(Path(tmp) / "loop.sqlite"), game, seats]
            loop = measure(child_argv, ready_and_screen)  # a new game: nothing remembered for this save yet
            if number == 0:
                loop, resumed, cold, after_cut = startup_cases(Path(tmp), game, seats, first=loop)
            forget(Path(tmp) / "loop.sqlite")
            captures = Path(tmp) / "captures"
            sim = measure([sys.executable, "-m", "tablekeeper", "run", "--sim", "--display", "capture", "--game", game,
                           *with_seats, "--capture-dir", str(captures)], first_capture(captures), settle=True)
        print(f"idle screen, {case} | {SCREEN[0] if SCREEN else '?'}")
        for name, fig in (("station loop (Pi wiring, simulated parts)", loop), ("simulator (run --sim, capture)", sim)):
            print_idle(f"{name}, {case}", fig)
            if number == 0:
                print_startup(f"{name}, a new game", fig) if fig is loop else print_startup(name, fig)
        if number == 0:
            print_startup("station loop, the same save started again (its screens remembered)", resumed)
            print_startup("station loop, the same save started again (nothing remembered)", cold)
            print_startup("station loop, the same save after a power cut (remembered as it stood)", after_cut)
            sizes = ", ".join(f"{mb:.1f}" for mb in fig["rss_mb"])
            print(f"{name}, {case}: resident memory when idle, each process | {sizes} MB | target < 60 MB each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
