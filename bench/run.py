"""Run every ``bench/bench_*.py`` and print one table of their figures, with the machine it ran on.

Each benchmark is its own program (run alone with ``.venv/bin/python bench/bench_NAME.py``); this
runs them one after another in fresh interpreters, so one's imports and caches never colour the
next, and turns each printed line into a row. Figures carry their units; nothing here judges them.

Run: ``.venv/bin/python bench/run.py`` (``-k NAME`` for some, ``--markdown`` for docs/performance.md).
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


def run_bench(path: Path, timeout_s: float) -> tuple[list[str], float, str | None]:
    """The bench's printed lines, its wall time, and an error line if it failed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=ROOT, env=env,
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
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds allowed per bench (default 600)")
    args = parser.parse_args(argv)
    paths = sorted(p for p in BENCH_DIR.glob("bench_*.py") if not args.only or any(k in p.stem for k in args.only))
    rows: list[tuple[str, str]] = []
    failures = 0
    for path in paths:
        name = path.stem.removeprefix("bench_")
        print(f"running {path.name} ...", file=sys.stderr, flush=True)
        lines, elapsed_s, error = run_bench(path, args.timeout)
        for line in lines:
            rows.append((name, line))
        if error is not None:
            rows.append((name, error))
            failures += 1
        rows.append((name, f"(bench ran {elapsed_s:.1f} s)"))
    if args.markdown:
        for key, value in machine():
            print(f"- {key}: `{value}`")
        print("- command: `.venv/bin/python bench/run.py --markdown`\n")
        print("| bench | figure |\n|---|---|")
        for name, text in rows:
            print(f"| {name} | {cell(text)} |")
    else:
        for key, value in machine():
            print(f"{key}: {value}")
        width = max((len(name) for name, _ in rows), default=5)
        for name, text in rows:
            print(f"{name:<{width}}  {text}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
