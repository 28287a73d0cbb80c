"""Run every ``bench/bench_*.py`` and print one table of their figures, with the machine it ran on.

Each benchmark is its own program (run alone with ``.venv/bin/python bench/bench_NAME.py``); this
runs them one after another in fresh interpreters, so one's imports and caches never colour the
next, and turns each printed line into a row. Figures carry their units; nothing here judges them.

Run: ``.venv/bin/python bench/run.py`` (``-k NAME`` for some, ``--markdown`` for docs/performance.md).
``--pi zero2w`` (or ``pi4``, ``pi5``, a fraction) runs every bench a second time with its CPU capped to
that share of one core by the ``pi-speed`` tool (a cgroup quota, root only) and prints both columns
side by side. The cap slows CPU only: bus and fsync times are not scaled, so the benches add I2C time
from the bytes they send and print fsync on its own lines. A capped x86 core stands in for a Pi; it is
not one.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
PI_SPEED = os.environ.get("PI_SPEED", str(ROOT.parent / "shared" / "tools" / "pi-speed"))
PI_SHARES = {"zero2w": 0.0833, "pi4": 0.2, "pi5": 0.4}  # pi-speed's presets: share of one core here


def machine() -> list[tuple[str, str]]:
    """What the figures depend on: kernel and architecture, CPU model and count, Python."""
    fields: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields.setdefault(key.strip().lower(), value.strip())
    except OSError:
        pass
    # x86 names the CPU in "model name"; a Raspberry Pi names the board in "Model" and the SoC in "Hardware"
    cpu = fields.get("model name") or " / ".join(
        v for v in (fields.get("model", "") if not fields.get("model", "").isdigit() else "",
                    fields.get("hardware", "")) if v) or platform.processor() or platform.machine()
    return [("machine", " ".join(platform.uname())), ("cpu", f"{cpu}, {os.cpu_count()} cores"),
            ("python", f"{platform.python_implementation()} {platform.python_version()}")]


def pi_share(preset: str) -> float:
    """The share of one core that ``--pi PRESET`` caps to (a preset name or a fraction in (0, 1])."""
    if preset in PI_SHARES:
        return PI_SHARES[preset]
    try:
        share = float(preset)
    except ValueError:
        share = 0.0
    if not 0 < share <= 1:
        raise SystemExit(f"run.py: --pi {preset!r}: choose zero2w, pi4, pi5 or a fraction in (0, 1]")
    return share


def run_bench(path: Path, timeout_s: float, pi: str | None = None) -> tuple[list[str], float, str | None]:
    """The bench's printed lines, its wall time, and an error line if it failed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    argv = [sys.executable, str(path)]
    if pi is not None:
        argv = [PI_SPEED, pi, *argv]
        env["TABLEKEEPER_BENCH_CPU_SHARE"] = str(pi_share(pi))
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        return [], time.perf_counter() - start, f"timed out after {timeout_s:.0f} s"
    elapsed_s = time.perf_counter() - start
    lines = [line.rstrip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return lines, elapsed_s, f"failed: {last}"
    return lines, elapsed_s, None


def cell(text: str) -> str:
    return text.strip().replace("|", "/")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the benchmarks and print one table.")
    parser.add_argument("-k", dest="only", action="append", default=[], help="run benches whose name has this")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table with the machine, for docs")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed per bench (default 900)")
    parser.add_argument("--pi", metavar="PRESET", help="also run each bench capped by pi-speed (zero2w, pi4, pi5)")
    args = parser.parse_args(argv)
    if args.pi is not None:
        pi_share(args.pi)
    paths = sorted(p for p in BENCH_DIR.glob("bench_*.py") if not args.only or any(k in p.stem for k in args.only))
    rows: list[tuple[str, str, str]] = []  # bench, figure here, figure capped
    failures = 0
    for path in paths:
        name = path.stem.removeprefix("bench_")
        columns: list[list[str]] = []
        for pi in (None, args.pi) if args.pi is not None else (None,):
            print(f"running {path.name}{f' at pi-speed {pi}' if pi else ''} ...", file=sys.stderr, flush=True)
            lines, elapsed_s, error = run_bench(path, args.timeout, pi)
            if error is not None:
                lines.append(error)
                failures += 1
            lines.append(f"(bench ran {elapsed_s:.1f} s)")
            columns.append(lines)
        here = columns[0]
        capped = columns[1] if len(columns) > 1 else []
        for i in range(max(len(here), len(capped))):
            rows.append((name, here[i] if i < len(here) else "", capped[i] if i < len(capped) else ""))
    header = ["bench", "this machine"] + ([f"pi-speed {args.pi} (a capped x86 core standing in for a Pi)"]
                                         if args.pi else [])
    if args.markdown:
        for key, value in machine():
            print(f"- {key}: `{value}`")
        command = "bench/run.py --markdown" + (f" --pi {args.pi}" if args.pi else "")
        print(f"- load average when it finished: `{' '.join(f'{v:.1f}' for v in os.getloadavg())}`")
        print(f"- command: `.venv/bin/python {command}`\n")
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for name, here_text, capped_text in rows:
            cells = [name, cell(here_text)] + ([cell(capped_text)] if args.pi else [])
            print("| " + " | ".join(cells) + " |")
    else:
        for key, value in machine():
            print(f"{key}: {value}")
        width = max((len(name) for name, _, _ in rows), default=5)
        for name, here_text, capped_text in rows:
            print(f"{name:<{width}}  {here_text}")
            if args.pi:
                print(f"{'':<{width}}  [{args.pi}] {capped_text}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
