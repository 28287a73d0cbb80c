"""Soak: many consecutive sessions, accelerated on a fake clock, played through the panel controls
and saved to SQLite, with traced Python memory, the process's resident memory (RSS, which also sees
C allocations: Pillow, SQLite, luma) and open file descriptors sampled after each one; and the
station loop on simulated parts redrawing its displays for hours of fake time.

A session's own log grows by design (the log is the truth), so growth is measured across sessions,
or with presses that enter nothing: once warmed up, nothing may keep memory or descriptors.
"""

from __future__ import annotations

import ctypes
import gc
import os
import random
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.core.events import Command
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tablekeeper.station.controls import Controls
from tests.faults.test_button_mashing import Panel
from tests.faults.walk import candidates, playable_games, primary_game

BUTTONS = ("up", "up", "down", "select", "next", "back", "seat1.a", "seat2.b")
WARM_UP = 3
SLACK_BYTES = 64 * 1024  # allocator and interning noise; a leak per session shows as far more
RSS_SLACK_BYTES = 2 * 1024 * 1024  # pages the allocators keep or hand back; a leak per redraw is far more
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                      "fsmblks", "uordblks", "fordblks", "keepcost")]


def _mallinfo2() -> Any:
    function = getattr(ctypes.CDLL(None), "mallinfo2", None)  # glibc 2.33 and later
    if function is not None:
        function.restype = _MallInfo2
    return function


MALLINFO2 = _mallinfo2()


def c_heap_bytes() -> int:
    """Bytes malloc has handed out and not had back (glibc's ``mallinfo2``; 0 where there is none).
    RSS alone can miss a leak that reuses memory freed earlier in the process but still resident."""
    if MALLINFO2 is None:
        return 0
    info = MALLINFO2()
    return int(info.uordblks + info.hblkhd)


def rss_bytes() -> int:
    """Resident memory now (``/proc/self/statm``'s second field, in pages), C allocations included."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * PAGE_BYTES


@dataclass
class Sample:
    session: int
    traced_bytes: int
    fds: int
    log_length: int
    rss: int = 0
    c_heap: int = 0


def play_one_session(game: Game, save: Path, clock: FakeClock, rng: random.Random, commands: int) -> int:
    """One evening: a fresh session in the save's main slot, half script lines, half button presses."""
    with Store.open(save) as store:
        session = Session(game, seats=game.seats_default, seed=rng.randrange(1000))
        session.journal = store.create("main", session.setup)
        controls = Controls(game, clock=clock, pending_window_s=1.5)
        while session.log_length < commands:
            clock.now_s += rng.choice((0.05, 0.3, 2.0))
            try:
                if rng.random() < 0.5:
                    pending = controls.tick(session.state)
                    role = rng.choice(BUTTONS)
                    act = controls.hold if rng.random() < 0.1 else controls.press
                    batch = pending + act(role, session.state)
                else:
                    line = candidates(game, session.state, rng)[0]
                    verb, *args = line.split()
                    batch = [*controls.flush(), Command(verb, tuple(args))]
            except Rejected:
                continue
            for cmd in batch:
                if cmd.verb != "menu" and not session.perform(cmd).accepted:
                    break
        return session.log_length


def soak(game: Game, tmp_path: Path, *, sessions: int, commands: int) -> list[Sample]:
    clock, rng = FakeClock(), random.Random(5)
    save = tmp_path / "soak.sqlite"
    samples = []
    tracemalloc.start()
    try:
        for n in range(sessions):
            length = play_one_session(game, save, clock, rng, commands)
            gc.collect()
            samples.append(Sample(n, tracemalloc.get_traced_memory()[0], open_fds(), length, rss_bytes(),
                                  c_heap_bytes()))
    finally:
        tracemalloc.stop()
    with Store.open(save) as store:
        assert store.integrity() == "ok"
    return samples


def assert_no_growth(samples: list[Sample], warm_up: int = WARM_UP) -> None:
    steady = samples[warm_up:]
    assert {s.fds for s in steady} == {samples[0].fds}, [s.fds for s in samples]
    half = len(steady) // 2
    early, late = max(s.traced_bytes for s in steady[:half]), max(s.traced_bytes for s in steady[half:])
    assert late <= early + SLACK_BYTES, [s.traced_bytes for s in samples]
    early_rss, late_rss = max(s.rss for s in steady[:half]), max(s.rss for s in steady[half:])
    assert late_rss <= early_rss + RSS_SLACK_BYTES, f"RSS grew: {[s.rss // 1024 for s in samples]} KiB"
    early_c, late_c = max(s.c_heap for s in steady[:half]), max(s.c_heap for s in steady[half:])
    assert late_c <= early_c + RSS_SLACK_BYTES, f"C heap grew: {[s.c_heap // 1024 for s in samples]} KiB"


def test_ten_sessions_leave_nothing_behind(tmp_path: Path) -> None:
    samples = soak(primary_game(), tmp_path, sessions=10, commands=24)
    assert all(s.log_length >= 24 for s in samples)
    assert_no_growth(samples)


def test_a_leak_would_be_seen(tmp_path: Path) -> None:
    """The check above is not blind: a session that keeps 10 KB per evening alive fails it."""
    kept: list[bytes] = []
    samples = []
    tracemalloc.start()
    try:
        for n in range(20):
            kept.append(bytes(10 * 1024) + bytes([n]))
            samples.append(Sample(n, tracemalloc.get_traced_memory()[0], open_fds(), 1))
    finally:
        tracemalloc.stop()
    with pytest.raises(AssertionError):
        assert_no_growth(samples)


@pytest.mark.stress
@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.name)
def test_sixty_longer_sessions_per_game(game: Game, tmp_path: Path) -> None:
    samples = soak(game, tmp_path, sessions=60, commands=100)
    assert_no_growth(samples)
    print(f"{game.name}: {len(samples)} sessions, traced {samples[0].traced_bytes} -> "
          f"{samples[-1].traced_bytes} bytes, RSS {samples[0].rss // 1024} -> {samples[-1].rss // 1024} KiB, "
          f"{samples[-1].fds} fds")


# --- the station loop ----------------------------------------------------------------------------

# Button sequences that redraw the displays (pending banners, selection, sound toggles) but enter
# nothing into the game, so the log stays put and any growth is the station's own.
NO_LOG_SEQUENCES = (("up", "up", "back"), ("down", "back"), ("select",), ("menu",), ("select", "up", "back"))
# The simulator's chips record every bus write and gpiozero's mock pins every level, for tests to
# inspect; neither exists on the Pi, so they are left out of the count.
SIMULATION_ONLY = ("*/tablekeeper/sim/oled.py", "*/gpiozero/pins/mock.py")
TRACE_FRAMES = 12  # deep enough that an allocation made inside those recorders is seen as theirs


def press_for_a_while(panel: Panel, rng: random.Random, sequences: int) -> None:
    for _ in range(sequences):
        for role in rng.choice(NO_LOG_SEQUENCES):
            panel.set(role, True)
            panel.loop_pass()
            panel.clock.advance(0.05)
            panel.set(role, False)
            panel.loop_pass()
            panel.clock.advance(0.05)
        panel.clock.advance(rng.choice((0.1, 2.0, 5.0)))  # banners and messages time out
        panel.loop_pass()


def forget_mock_pin_history(panel: Panel) -> None:
    """gpiozero's mock pins keep every level change for tests to inspect; the Pi's keep nothing, so
    the history is dropped before RSS is measured (tracemalloc leaves it out by filename)."""
    for pin in panel.parts.pin_factory.pins.values():
        clear = getattr(pin, "clear_states", None)
        if clear is not None:
            clear()


def station_soak(panel: Panel, blocks: int, sequences: int, *, trace: bool = True) -> list[Sample]:
    """Warm up untraced (fonts, caches, first frames), then sample after each block of presses
    (``trace=False``: RSS, C heap and descriptors only, which is several times faster)."""
    rng = random.Random(9)
    log_length = panel.session.log_length
    for _ in range(WARM_UP):
        press_for_a_while(panel, rng, sequences)
    samples = []
    if trace:
        tracemalloc.start(TRACE_FRAMES)
    try:
        for n in range(blocks):
            press_for_a_while(panel, rng, sequences)
            forget_mock_pin_history(panel)
            gc.collect()
            traced = 0
            if trace:
                snapshot = tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, pattern, all_frames=True) for pattern in SIMULATION_ONLY])
                traced = sum(stat.size for stat in snapshot.statistics("filename"))
                del snapshot
                gc.collect()
            samples.append(Sample(n, traced, open_fds(), panel.session.log_length, rss_bytes(), c_heap_bytes()))
    finally:
        tracemalloc.stop()
    assert panel.session.log_length == log_length, "the soak's presses were meant to enter nothing"
    return samples


class CLeak:
    """Keeps 64 KiB of C memory (malloc, touched so it is resident) per redraw: the kind of leak a
    C extension could have, invisible to tracemalloc."""

    def __init__(self, per_redraw: int = 64 * 1024) -> None:
        self.libc = ctypes.CDLL(None)
        self.libc.malloc.restype = ctypes.c_void_p
        self.libc.malloc.argtypes = [ctypes.c_size_t]
        self.libc.free.argtypes = [ctypes.c_void_p]
        self.per_redraw = per_redraw
        self.blocks: list[int] = []

    def __call__(self, _station: object) -> None:
        block = self.libc.malloc(self.per_redraw)
        ctypes.memset(block, 0x5A, self.per_redraw)
        self.blocks.append(block)

    def free(self) -> None:
        for block in self.blocks:
            self.libc.free(block)
        self.blocks.clear()


@pytest.mark.parametrize("leak", [False, True], ids=["as is", "with a C leak per redraw"])
def test_station_loop_redrawing_for_a_while_leaves_nothing_behind(tmp_path: Path, leak: bool) -> None:
    """The soak measures RSS: with a 64 KiB-per-redraw leak in C memory (which tracemalloc cannot
    see) the same check fails."""
    panel = Panel(primary_game(), tmp_path)
    c_leak = CLeak()
    try:
        if leak:
            panel.station.on_redraw = c_leak
            with pytest.raises(AssertionError, match=r"RSS grew|C heap grew"):
                assert_no_growth(station_soak(panel, blocks=5, sequences=12, trace=False), warm_up=0)
        else:  # RSS, C heap and descriptors; the traced soak (Python's own heap by file) is the stress one
            assert_no_growth(station_soak(panel, blocks=5, sequences=12, trace=False), warm_up=0)
    finally:
        panel.close()
        c_leak.free()


@pytest.mark.stress
def test_station_loop_for_an_accelerated_day(tmp_path: Path) -> None:
    panel = Panel(primary_game(), tmp_path)
    try:
        samples = station_soak(panel, blocks=16, sequences=150)
        assert_no_growth(samples, warm_up=0)
        print(f"station: {panel.clock() / 3600:.1f} h on the fake clock, traced {samples[0].traced_bytes} -> "
              f"{samples[-1].traced_bytes} bytes, RSS {samples[0].rss // 1024} -> {samples[-1].rss // 1024} KiB, "
              f"{samples[-1].fds} fds")
    finally:
        panel.close()
