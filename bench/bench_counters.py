"""Counter benchmark: host <-> counter round trip over a real pty (pyserial on the host, the
firmware app in its own CPython process) and the firmware's heap after start-up under MicroPython.

Run: ``.venv/bin/python bench/bench_counters.py [--rounds N]``. Prints figures and ratios to
the targets (p99 round trip under 5 ms; heap under 40 KB of the RP2040's ~190 KB); asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from tablekeeper.hw.counters import CounterManager, CounterMatch, PortDiscovery
from tablekeeper.intents import Intent
from tablekeeper.sim.counters import VirtualCounter, VirtualCounterBank

ROOT = Path(__file__).resolve().parents[1]
RTT_TARGET_MS = 5.0
HEAP_TARGET_BYTES = 40 * 1024


def _wait(manager: CounterManager, condition: object, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        manager.poll()
        if callable(condition) and condition():
            return
        fds = manager.filenos()
        select.select(fds, [], [], 0.001) if fds else time.sleep(0.001)
    raise SystemExit("counter did not answer in time")


def round_trips(rounds: int) -> list[float]:
    """Milliseconds from writing a SET to reading its ACK, one at a time."""
    bank = VirtualCounterBank()
    intents: list[Intent] = []
    manager = CounterManager(emit=intents.append, counters=(CounterMatch(vid=0x2E8A, pid=5, seat=1, role="hp"),),
                             discovery=PortDiscovery(list_ports=bank.list_ports, scan_interval_s=0.05))
    counter = bank.add(VirtualCounter("hp"))
    counter.plug()
    try:
        _wait(manager, lambda: bool(intents))
        link = manager.link(counter.device)
        assert link is not None
        samples = []
        for index in range(rounds):
            start = time.perf_counter()
            manager.publish(1, "hp", index % 20, 20)
            while link.pending():
                select.select([link.port.fileno()], [], [], 0.01)
                manager.poll()
            samples.append((time.perf_counter() - start) * 1000)
        return samples
    finally:
        manager.close()
        bank.close()


def heap_after_start(role: str) -> int | None:
    node = shutil.which("node")
    if node is None:
        return None
    result = subprocess.run([node, str(ROOT / "firmware" / "tools" / "run_mpy.mjs"), "--heap", role],
                            capture_output=True, text=True, timeout=120, check=True)
    match = re.search(r"heap after start-up \(\w+\): (\d+) bytes", result.stdout)
    return int(match.group(1)) if match else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    samples = sorted(round_trips(args.rounds))
    median = statistics.median(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"round trip over a pty, {len(samples)} SET->ACK exchanges:")
    print(f"  median {median:.2f} ms, p99 {p99:.2f} ms, max {samples[-1]:.2f} ms "
          f"(p99 is {p99 / RTT_TARGET_MS:.2f}x the {RTT_TARGET_MS:.0f} ms target)")
    print(f"  load average {load_before:.1f} on {os.cpu_count()} cores when it started (tails grow with load)")
    for role in ("hp", "dial", "dice"):
        used = heap_after_start(role)
        if used is None:
            print(f"heap after start-up ({role}): node not found, skipped")
            continue
        print(f"heap after start-up ({role}, MicroPython 1.27 WebAssembly): {used / 1024:.1f} KB "
              f"({used / HEAP_TARGET_BYTES:.2f}x the 40 KB target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
