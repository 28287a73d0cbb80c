"""Soak: many consecutive sessions, accelerated on a fake clock, played through the panel controls
and saved to SQLite, with traced Python memory and open file descriptors sampled after each one.

A session's own log grows by design (the log is the truth), so growth is measured across sessions:
once warmed up, playing another evening must not leave memory or descriptors behind.
"""

from __future__ import annotations

import gc
import os
import random
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import pytest

from tablekeeper.controls import Controls
from tablekeeper.core.events import Command
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tests.faults.walk import candidates, playable_games

BUTTONS = ("up", "up", "down", "select", "next", "back", "seat1.a", "seat2.b")
WARM_UP = 3
SLACK_BYTES = 64 * 1024  # allocator and interning noise; a leak per session shows as far more


class FakeClock:
    def __init__(self) -> None:
        self.now_s = 0.0

    def __call__(self) -> float:
        return self.now_s


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@dataclass
class Sample:
    session: int
    traced_bytes: int
    fds: int
    log_length: int


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
            samples.append(Sample(n, tracemalloc.get_traced_memory()[0], open_fds(), length))
    finally:
        tracemalloc.stop()
    with Store.open(save) as store:
        assert store.integrity() == "ok"
    return samples


def assert_no_growth(samples: list[Sample]) -> None:
    steady = samples[WARM_UP:]
    assert all(s.log_length > 0 for s in samples)
    assert {s.fds for s in steady} == {samples[0].fds}, [s.fds for s in samples]
    half = len(steady) // 2
    early, late = max(s.traced_bytes for s in steady[:half]), max(s.traced_bytes for s in steady[half:])
    assert late <= early + SLACK_BYTES, [s.traced_bytes for s in samples]


def test_ten_sessions_leave_nothing_behind(tmp_path: Path) -> None:
    assert_no_growth(soak(playable_games()[0], tmp_path, sessions=10, commands=24))


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
def test_two_hundred_long_sessions(game: Game, tmp_path: Path) -> None:
    samples = soak(game, tmp_path, sessions=200, commands=300)
    assert_no_growth(samples)
    print(f"{game.name}: {len(samples)} sessions, traced {samples[WARM_UP].traced_bytes} -> "
          f"{samples[-1].traced_bytes} bytes, {samples[-1].fds} fds")
