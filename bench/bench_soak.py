"""Soak benchmark: resident memory after accelerated hours of play (a fake clock, an input every two
seconds on average), and what the second hour added to the first. Targets: every process of the
station under 60 MB after two simulated hours; no growth beyond the log itself.

* the session alone: button presses through the panel controls and draws, every command
  committed to SQLite with ``synchronous=FULL``, in this process;
* the whole station: the station loop as the Pi wires it (simulated parts, six displays drawn, a
  save file), in a fresh process for two hours, its resident and peak memory from /proc at the end
  of each hour;
* the simulator writing an animated GIF (``tablekeeper run --script --display gifanim``, virtual
  counters included) for two simulated hours at an input every two minutes on average (the GIF encoder is
  the slow part), the peak resident memory of every process it starts (the station with its window,
  the virtual counter), sampled every 0.2 s while it runs.

Run: ``.venv/bin/python bench/bench_soak.py``. Prints figures; asserts nothing about time or size.
"""

from __future__ import annotations

import ctypes
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tablekeeper import games
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tablekeeper.station.controls import Controls

HOUR_S = 3600.0
MEAN_GAP_S = 2.0
BUTTONS = ("next", "up", "up", "down", "select", "back", "seat1.a", "seat2.a", "seat1.b")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def sqlite_kib() -> float:
    """SQLite's own heap in use (its page cache is most of it), when the sqlite3 module links the
    shared library; NaN when it does not."""
    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
    except OSError:
        return float("nan")
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return float(lib.sqlite3_memory_used()) / 1024


def log_kib(session: Session) -> float:
    """Python memory held by the session's in-memory log (the entries it keeps, their commands and
    events, and its checkpoint states), not counting what the current state also holds."""
    seen: set[int] = {id(session.state), id(session.initial)}

    def size(obj: object) -> int:
        if id(obj) in seen or isinstance(obj, type):
            return 0
        seen.add(id(obj))
        total = sys.getsizeof(obj)
        if isinstance(obj, dict):
            total += sum(size(k) + size(v) for k, v in obj.items())
        elif isinstance(obj, list | tuple | set | frozenset):
            total += sum(size(v) for v in obj)
        elif hasattr(obj, "__dataclass_fields__"):
            total += sum(size(getattr(obj, name)) for name in obj.__dataclass_fields__ if hasattr(obj, name))
        elif hasattr(obj, "__struct_fields__"):
            total += sum(size(getattr(obj, name)) for name in obj.__struct_fields__)
        return total

    return size(session.held()) / 1024


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


def play_hour(session: Session, controls: Controls, clock: FakeClock, rng: random.Random) -> int:
    """One accelerated hour of presses and draws; returns how many inputs it took."""
    end_s = clock.now_s + HOUR_S
    inputs = 0
    while clock.now_s < end_s:
        clock.now_s += rng.expovariate(1 / MEAN_GAP_S)
        inputs += 1
        try:
            batch = controls.tick(session.state)
            if rng.random() < 0.15 and session.state.sources:
                batch += [*controls.flush(), Command("draw", (rng.choice(sorted(session.state.sources)),))]
            else:
                batch += controls.press(rng.choice(BUTTONS), session.state)
        except Rejected:
            continue
        for cmd in batch:
            if cmd.verb != "menu" and not session.perform(cmd).accepted:
                break
    return inputs


def station_child(hours: float, game_name: str, save: Path) -> int:
    """The station loop as the Pi wires it, on simulated parts and a fake clock, for ``hours``; prints
    its resident and peak memory and log length at the end of each hour. The emulated chips' call
    recorders (a test aid the Pi does not have) are emptied after every input so they do not count."""
    from tablekeeper.config import default_config_path, load_config
    from tablekeeper.sim.clock import FakeClock as SimClock
    from tablekeeper.sim.simulator import SimulatedParts
    from tablekeeper.station.loop import Station
    from tablekeeper.station.parts import make_buttons, make_displays, make_outputs
    from tablekeeper.station.script import advance

    config = load_config(default_config_path())
    clock = SimClock()
    parts = SimulatedParts(config, display_mode=None, capture_dir=save.parent)
    game = games.load(game_name)
    rng = random.Random(2)
    with Store.open(save) as store:
        session = Session(game, seats=game.seats_default, seed=1)
        session.journal = store.create("main", session.setup)
        displays = make_displays(config, parts.open_device, clock=clock)
        station = Station(session=session, config=config, displays=displays, clock=clock)
        station.buttons = make_buttons(config, emit=station.put, clock=clock, pin_factory=parts.pin_factory)
        station.sink.outputs = make_outputs(config, clock=clock, pin_factory=parts.pin_factory)
        station.start()

        def settle() -> None:
            station.poll(clock())
            station.drain()

        def pass_time(seconds: float) -> None:
            advance(station, clock, seconds, settle)

        hour = 1
        while clock() < hours * HOUR_S:
            if clock() >= hour * HOUR_S:
                print(f"{rss_mb():.1f} {peak_rss_mb():.1f} {session.log_length}", flush=True)
                hour += 1
            role = rng.choice(BUTTONS)
            button = parts.button(role)
            if button is None:
                continue
            parts.set_button(button, True)
            station.drain()
            pass_time(config.timing.hold_s + 0.1 if role in ("up", "down") and rng.random() < 0.2 else 0.08)
            parts.set_button(button, False)
            station.drain()
            pass_time(rng.expovariate(1 / MEAN_GAP_S))
            for chip in parts.chips.values():
                chip.calls.clear()
        print(f"{rss_mb():.1f} {peak_rss_mb():.1f} {session.log_length}", flush=True)  # still running
        station.close()
        parts.close()
    return 0


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def station_hours(hours: int, game: str, tmp: Path) -> tuple[list[tuple[float, float, int]], float]:
    """Resident and peak memory (MB) and log entries of a fresh station process at the end of each
    hour, and its wall time."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--station", str(hours), game, str(tmp / "station.sqlite")],
                          capture_output=True, text=True, check=True)
    marks = [line.split() for line in done.stdout.splitlines()]
    return [(float(rss), float(peak), int(entries)) for rss, peak, entries in marks], time.perf_counter() - start


GIF_GAP_S = 120.0


def family_rss_mb(pid: int) -> dict[int, float]:
    """Resident memory of a process and every process under it."""
    out: dict[int, float] = {}
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out[current] = int(line.split()[1]) / 1024
            for children in Path(f"/proc/{current}/task").glob("*/children"):
                todo += [int(c) for c in children.read_text().split()]
        except (OSError, ValueError):
            continue
    return out


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def process_name(argv: bytes, pid: int, root: int) -> str:
    """What a process of the simulator is: the station with its window, or a virtual counter."""
    if pid == root:
        return "station and window"
    return "virtual counter" if any(arg.endswith(b"virtual_counter.py") for arg in argv.split(b"\0")) else "other"


def gifanim_soak(game: str, hours: float, tmp: Path) -> tuple[list[tuple[str, float]], str, float]:
    """Peak resident memory (MB) of each process of a scripted gifanim run, named, its closing line,
    wall time."""
    rng = random.Random(3)
    lines, elapsed = [], 0.0
    while elapsed < hours * HOUR_S:
        lines.append(f"press {rng.choice(('next', 'up', 'down', 'select', 'back', 'seat1.a', 'seat2.a'))}")
        gap = rng.expovariate(1 / GIF_GAP_S)
        lines.append(f"wait {gap:.2f}")
        elapsed += gap
    script = tmp / "gif.keys"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tablekeeper", "run", "--sim", "--game", game, "--script",
                             str(script), "--display", "gifanim", "--capture-dir", str(tmp / "gif")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    peaks: dict[int, float] = {}
    names: dict[int, str] = {}
    station_argv = command_line(proc.pid)
    while proc.poll() is None:
        for member, mb in family_rss_mb(proc.pid).items():
            argv = command_line(member)
            if member != proc.pid and argv == station_argv:
                continue  # forked, not yet started its own program: its pages are still the station's
            peaks[member] = max(peaks.get(member, 0.0), mb)
            names.setdefault(member, process_name(argv, member, proc.pid))
        time.sleep(0.2)
    out, err = proc.communicate()
    closing = (out.strip().splitlines() or err.strip().splitlines() or ["(nothing printed)"])[-1]
    named = sorted(((names[pid], mb) for pid, mb in peaks.items()), key=lambda item: -item[1])
    return named, closing, time.perf_counter() - start


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--station":
        return station_child(float(sys.argv[2]), sys.argv[3], Path(sys.argv[4]))
    name = next(iter(games.names()), None)
    if name is None:
        print("no game installed; nothing to soak")
        return 0
    game = games.load(name)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "soak.sqlite") as store:
        session = Session(game, seats=game.seats_default, seed=1)
        session.journal = store.create("main", session.setup)
        clock = FakeClock()
        controls = Controls(game, clock=clock)
        start_mb, start_fds = rss_mb(), open_fds()
        wall = time.perf_counter()
        inputs1 = play_hour(session, controls, clock, rng)
        hour1_mb, entries1, sqlite1 = rss_mb(), session.log_length, sqlite_kib()
        inputs2 = play_hour(session, controls, clock, rng)
        hour2_mb, entries2, sqlite2 = rss_mb(), session.log_length, sqlite_kib()
        log2 = log_kib(session)
        wall_s = time.perf_counter() - wall
        fds = open_fds()
    print(f"{name}: resident memory at start | {start_mb:.1f} MB")
    print(f"{name}: resident memory after 1 h of play | {hour1_mb:.1f} MB | {inputs1} inputs, "
          f"{entries1} log entries (target < 60 MB)")
    print(f"{name}: resident memory after 2 h of play | {hour2_mb:.1f} MB | second hour added "
          f"{hour2_mb - hour1_mb:+.2f} MB for {inputs2} inputs, {entries2 - entries1} more entries")
    print(f"{name}: what the second hour added per logged command | "
          f"{(hour2_mb - hour1_mb) * 1024 / max(entries2 - entries1, 1):.2f} KiB resident; SQLite heap "
          f"{sqlite1:.0f} -> {sqlite2:.0f} KiB (page cache bound {Store.CACHE_KIB} KiB); the in-memory log "
          f"holds {log2 / max(entries2, 1):.2f} KiB per entry ({log2:.0f} KiB for {entries2})")
    print(f"{name}: open file descriptors start / after 2 h | {start_fds} / {fds}")
    print(f"{name}: 2 accelerated hours took | {wall_s:.1f} s wall | {HOUR_S * 2 / wall_s:,.0f}x real time")
    with tempfile.TemporaryDirectory() as tmp:
        (one, two), station_s = station_hours(2, name, Path(tmp))
    print(f"station loop (Pi wiring, simulated parts): resident memory after 1 h of play | {one[0]:.1f} MB | "
          f"peak {one[1]:.1f} MB, {one[2]} log entries (target < 60 MB)")
    print(f"station loop (Pi wiring, simulated parts): resident memory after 2 h of play | {two[0]:.1f} MB | "
          f"peak {two[1]:.1f} MB, {two[2]} log entries; the second hour added {two[0] - one[0]:+.1f} MB; "
          f"both hours in one process ran {station_s:.0f} s")
    with tempfile.TemporaryDirectory() as tmp:
        peaks, closing, wall_s = gifanim_soak(name, 2, Path(tmp))
    print(f"simulator, --display gifanim, 2 simulated hours: peak resident memory of each process | "
          f"{', '.join(f'{name} {mb:.1f}' for name, mb in peaks)} MB (target < 60 MB each); ran {wall_s:.0f} s")
    print(f"simulator, --display gifanim: {closing.removeprefix('tablekeeper: ')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
