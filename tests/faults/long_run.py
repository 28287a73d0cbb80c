"""A long unattended run of the simulated station, meant to be started in a fresh process per game:
random panel presses, counter presses, counter unplugs and garbage on the counters' cables (noise
and frames with a valid CRC but nonsense inside), on a fake clock, with the game kept in a save as the
appliance keeps it (every command committed to SQLite before it is shown). The counters are polled on a real
thread under the station's ``Supervisor`` (in lock-step with the clock, so the run is replayable);
the station loop runs on this thread. Prints one JSON line of figures; exit 0 when the run ended
with no thread failure.

    python -m tests.faults.long_run --game arkham --minutes 30 --seed 1
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import random
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from tablekeeper import games
from tablekeeper.core.store import Store
from tablekeeper.hw import protocol as p
from tablekeeper.hw.counters import CounterManager, CounterMatch, PortDiscovery
from tablekeeper.intents import CounterConnected, CounterMissing, CounterValue, Intent
from tablekeeper.supervisor import Liveness, Supervisor, Worker
from tests.counters.boards import InProcessBoard, Rig
from tests.faults.test_button_mashing import Panel
from tests.faults.test_soak import forget_mock_pin_history

STEP_S = 0.02  # one loop pass of fake time
SAMPLE_EVERY_S = 60.0
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
BOARDS = (("hp", 1, "/dev/ttyACM0", b"\xe6\x61\x41\x04\x03\x33\x2a\x01"),
          ("hp", 2, "/dev/ttyACM1", b"\xe6\x61\x41\x04\x03\x33\x2a\x02"),
          ("dial", 1, "/dev/ttyACM2", b"\xe6\x61\x41\x04\x03\x33\x2a\x03"))


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * PAGE_BYTES


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


class LockStep:
    """The counters' thread, polled once per fake-clock step: the main thread hands it a step and
    waits until it has polled (so the run stays deterministic while the thread is real)."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self._go = threading.Semaphore(0)
        self._done = threading.Semaphore(0)
        self.polls = 0

    def target(self, liveness: Liveness) -> None:
        while not liveness.stop.is_set():
            if not self._go.acquire(timeout=0.05):
                continue
            try:
                liveness.beat()
                self.rig.manager.poll()
                for board in self.rig.boards:
                    board.step()
                self.rig.manager.poll()
                self.polls += 1
            finally:
                self._done.release()

    def step(self) -> bool:
        """One poll on the counters' thread; False if it did not answer within a second."""
        self._go.release()
        return self._done.acquire(timeout=1.0)


def garbage(rng: random.Random) -> bytes:
    """Noise, or a frame with a valid CRC that breaks the rules (as a damaged or foreign board might send)."""
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randbytes(rng.randint(1, 200))
    if kind == 1:  # another board's IDENT on this link
        uid = rng.randbytes(8)
        body = p.ident_body(p.Ident(uid, rng.choice(("hp", "dial", "dice")), (1, 0, 0), frozenset(), 7, 1))
        return p.encode_frame(p.build(p.MsgType.IDENT, 0, body))
    if kind == 2:  # a CHANGE with any slot, value and revision
        body = p.change_body(p.Change(rng.randrange(6), rng.randrange(0x10000), rng.randrange(0x10000)))
        return p.encode_frame(p.build(p.MsgType.CHANGE, rng.randint(1, 255), body))
    if kind == 3:  # a ROLL, CLAIM or an unknown type
        msg_type = rng.choice((int(p.MsgType.ROLL), int(p.MsgType.CLAIM), 0x55, int(p.MsgType.SET)))
        return p.encode_frame(p.build(msg_type, rng.randint(0, 255), rng.randbytes(rng.randint(0, 20))))
    if kind == 4:  # a wrong version
        return p.encode_frame(p.build(p.MsgType.CHANGE, 3, rng.randbytes(5), version=rng.randint(2, 255)))
    return p.encode_frame(p.build(p.MsgType.ERROR, 0, rng.randbytes(3)))


def run(game_name: str, minutes: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = games.load(game_name)
    capture = Path(tempfile.mkdtemp(prefix="tk-long-run-"))
    panel = Panel(game, capture)
    store = Store.open(capture / "save.sqlite")
    panel.session.journal = store.create("main", panel.session.setup)  # as ``run --save`` starts a game
    clock = panel.clock
    boards = [InProcessBoard(clock, role, device=device, uid=uid) for role, _seat, device, uid in BOARDS]
    rig = Rig(clock, boards)
    intents: list[Intent] = []

    def emit(intent: Intent) -> None:
        intents.append(intent)
        panel.station.put(intent)

    counters = tuple(CounterMatch(vid=0x2E8A, pid=0x0005, seat=seat, role=role, serial=uid.hex().upper())
                     for role, seat, _device, uid in BOARDS)
    rig.manager = CounterManager(emit=emit, counters=counters, clock=clock,
                                 discovery=PortDiscovery(list_ports=rig.list_ports, open_port=rig.open_port))
    panel.station.sink.counters = rig.manager
    lockstep = LockStep(rig)
    supervisor = Supervisor(clock=clock)
    supervisor.add(Worker("counters", lockstep.target, wedged_after_s=5.0))
    roles = [b.role for b in panel.config.buttons]
    held: set[tuple[str, str]] = set()
    end_s = clock() + minutes * 60.0
    next_sample_s = clock() + SAMPLE_EVERY_S
    samples: list[tuple[float, int, int]] = []
    figures = {"panel_presses": 0, "counter_presses": 0, "unplugs": 0, "garbage_frames": 0,
               "unhealthy_passes": 0, "stalled_steps": 0}
    try:
        while clock() < end_s:
            roll = rng.random()
            if roll < 0.02:
                role = rng.choice(roles)
                panel.set(role, role not in panel.down)
                figures["panel_presses"] += 1
            elif roll < 0.03:
                board = rng.choice(boards)
                key = (board.device, rng.choice(sorted(board.pins)))
                down = key not in held
                (held.add if down else held.discard)(key)
                board.pins[key[1]].set_level(0 if down else 1)
                figures["counter_presses"] += down
            elif roll < 0.0305:
                board = rng.choice(boards)
                board.cable = board.listed = not board.cable
                figures["unplugs"] += not board.cable
            elif roll < 0.034:
                board = rng.choice(boards)
                link = rig.manager.link(board.device)
                if link is not None and board.cable:
                    link.port.inbound.extend(garbage(rng))  # type: ignore[attr-defined]
                    figures["garbage_frames"] += 1
            clock.advance(STEP_S)
            if not lockstep.step():
                figures["stalled_steps"] += 1
            panel.loop_pass()
            if not supervisor.check(clock()):
                figures["unhealthy_passes"] += 1
            if clock() >= next_sample_s:
                next_sample_s += SAMPLE_EVERY_S
                forget_mock_pin_history(panel)
                gc.collect()
                samples.append((round(clock()), rss_bytes(), open_fds()))
            if rng.random() < 0.001:  # hands off for a while; every cable back in
                for role in list(panel.down):
                    panel.set(role, False)
                for board in boards:
                    board.cable = board.listed = True
        dropped = sum(link.dropped_frames for link in filter(None, (rig.manager.link(b.device) for b in boards)))
    finally:
        status = supervisor.status()
        supervisor.stop()
        rig.manager.close()
        panel.close()
        store.close()
    return {
        "game": game_name, "seed": seed, "simulated_s": round(clock()), **figures,
        "counter_polls": lockstep.polls,
        "thread_restarts": sum(s.restarts for s in status),
        "thread_errors": [s.last_error for s in status if s.last_error],
        "intents": len(intents),
        "counter_values": sum(isinstance(i, CounterValue) for i in intents),
        "counters_connected": sum(isinstance(i, CounterConnected) for i in intents),
        "counters_missing": sum(isinstance(i, CounterMissing) for i in intents),
        "refused_changes": rig.manager.refused_changes,
        "dropped_frames_on_open_links": dropped,
        "commands": panel.station.stats.commands, "refusals": panel.station.stats.refusals,
        "redraws": panel.station.stats.redraws, "log_entries": panel.session.log_length,
        "entries_in_memory": len(panel.session.held()[0]),
        "rss_kib": [rss // 1024 for _t, rss, _f in samples], "fds": [fds for _t, _r, fds in samples],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", required=True)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(name)s: %(message)s")  # thread failures only
    result = run(args.game, args.minutes, args.seed)
    print(json.dumps(result))
    return 0 if result["thread_restarts"] == 0 and not result["thread_errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
