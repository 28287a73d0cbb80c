"""The phones' pages: a press on a page to the OLED's last byte and to the page's update, and the idle
CPU of a station serving the pages with no page open and with four. Targets (at ``pi-speed zero2w``):
p99 press <= 100 ms; idle with no page as without the pages (<= 0.5 % of the capped core); with four
pages connected <= 2 %.

* **Press** (in this process): the station loop on its own thread on simulated parts (luma's drivers
  writing to emulated OLED chips, a save file) and the pages' server (uvicorn on its own thread, as
  ``run --web`` starts it), Arkham on its heaviest ordinary screen (10 bless and 10 curse: four exact
  odds on the tokens display). A page's socket (the ``websockets`` client) sends UP or DOWN presses in
  bursts of 1 to 4, each burst's pending change then left to close and be saved, as ``bench_press``
  does with the panel's buttons. Per press: from the send to the last byte on the chips plus those
  bytes' I2C time at 400 kHz, and from the send to the page's new view received whole (its JSON), and
  to the station's acknowledgement. The client's own work is inside the cap too (a phone's is not):
  the figures at the cap are pessimistic by its share.
* **Idle** (a child process): ``tablekeeper run --sim --display capture`` with Arkham, four seats
  owing a move (their LEDs blinking), without ``--web``, with ``--web`` and no page, and with four
  seat pages' sockets open (greeted, as a page keeps its socket). CPU from the process's CPU clock
  (every thread, its virtual counter's process included) over ``IDLE_S``.

Run: ``.venv/bin/python bench/bench_phones.py [--presses N] [--idle-s S]``. Prints figures; asserts
nothing about time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import msgspec.structs
from bench_press import BURSTS, EDGE_GAP_S, I2C_HZ, WINDOW_S, Wire, pct
from bench_station_idle import family, family_cpu_s
from websockets.sync.client import ClientConnection, connect

from tablekeeper.commands.run import build_simulated, settle_heap
from tablekeeper.config import WebConfig, load_config
from tablekeeper.core.script import parse_line
from tablekeeper.intents import Quit
from tablekeeper.web.phones import PhonePages

ROOT = Path(__file__).resolve().parents[1]
PRESSES = 100
IDLE_S = float(os.environ.get("TABLEKEEPER_BENCH_IDLE_S", "12"))
CPU_SHARE = float(os.environ.get("TABLEKEEPER_BENCH_CPU_SHARE", "1"))  # set by run.py --pi
SETUP = ["token add bless 10", "token add curse 10"]
clock = time.monotonic


class Page:
    """A page's socket as phones.js keeps it: greeted, numbering its presses, reading what comes."""

    def __init__(self, url: str, origin: str, name: str) -> None:
        self.ws: ClientConnection = connect(url, origin=origin, max_size=None)  # type: ignore[arg-type]
        self.ws.send(json.dumps({"t": "hello", "client": name}))
        self.seq = 0
        self.version = 0
        while self._next()[0] != "hello":
            pass

    def _next(self, timeout: float = 10.0) -> tuple[str, Any]:
        raw = self.ws.recv(timeout=timeout)
        text = raw if isinstance(raw, str) else raw.decode()
        if text.startswith('{"t":"view"'):  # a view: only its number is read, as the page's first step
            self.version = int(text[len('{"t":"view","v":'):text.index(",", 16)])
            return "view", self.version
        message = json.loads(text)
        return message["t"], message

    def drain(self) -> None:
        """Read what came since the last press (the view after a change was entered)."""
        with contextlib.suppress(TimeoutError):
            while True:
                self._next(timeout=0)

    def press(self, role: str) -> tuple[float, float]:
        """Send a press; the times (clock) its ack and the view after it arrived. The station acks a
        press when it has carried it out, before it draws: the view that follows the ack is the press's."""
        self.seq += 1
        self.ws.send(json.dumps({"t": "press", "seq": self.seq, "role": role}))
        acked = viewed = 0.0
        while not viewed:
            kind, body = self._next()
            if kind == "ack" and body["seq"] == self.seq:
                if body["refused"]:
                    raise SystemExit(f"bench_phones: a press was refused: {body['refused']}")
                acked = clock()
            elif kind == "view" and acked:
                viewed = clock()
        return acked, viewed

    def close(self) -> None:
        self.ws.close()


def bench_presses(save_dir: Path, presses: int) -> dict[str, list[float]]:
    config = load_config(ROOT / "hardware" / "station.toml")
    config = msgspec.structs.replace(config, timing=msgspec.structs.replace(config.timing, pending_window_s=WINDOW_S))
    args = argparse.Namespace(game="arkham", seats=2, seed=1, save=str(save_dir / "arkham.sqlite"), slot="main",
                              capture_dir=save_dir, option=[], no_counters=True)
    station, parts, store = build_simulated(config, args, display_mode=None, clock=clock)
    pages = PhonePages(station, WebConfig("127.0.0.1", 0))
    wire = Wire()
    passes = threading.Condition()
    done_intents = [0]

    def on_pass(_now_s: float) -> None:
        with passes:
            done_intents[0] = station.stats.intents
            passes.notify_all()

    def settled() -> bool:
        return done_intents[0] >= station.stats.intents > 0 and station.intents.empty()

    out: dict[str, list[float]] = {"oled": [], "i2c": [], "view": [], "ack": []}
    page: Page | None = None
    try:
        for text in SETUP:
            parsed = parse_line(text)
            if parsed is None or not station.session.perform(parsed.command).accepted:
                raise SystemExit(f"bench_phones: setup line {text!r} was refused")
        invitation = pages.start()
        station.start()
        settle_heap()
        for chip in parts.chips.values():
            wire.watch(chip)
        thread = threading.Thread(target=station.run, kwargs={"on_pass": on_pass}, daemon=True)
        thread.start()
        page = Page(invitation.link("/live").replace("http", "ws", 1), f"http://{invitation.address}", "bench-page-1")
        time.sleep(0.2)  # the join card gives way to the game: its frame is not a press's
        pressed, burst = 0, 0
        while pressed < presses:
            size = min(BURSTS[burst % len(BURSTS)], presses - pressed)
            role = "up" if burst % 2 == 0 else "down"
            burst += 1
            for _ in range(size):
                with passes:
                    passes.wait_for(settled, timeout=10.0)
                page.drain()
                wire.reset()
                start_s = clock()
                acked_s, viewed_s = page.press(role)
                with passes:
                    passes.wait_for(settled, timeout=10.0)
                if wire.last_s:
                    out["oled"].append((wire.last_s - start_s) * 1000 + wire.bytes * 9 / I2C_HZ * 1000)
                    out["i2c"].append(wire.bytes * 9 / I2C_HZ * 1000)
                    out["view"].append((viewed_s - start_s) * 1000)
                    out["ack"].append((acked_s - start_s) * 1000)
                time.sleep(EDGE_GAP_S)
            pressed += size
            with passes:  # the window closes: the change is entered and saved
                passes.wait_for(lambda: station.controls.pending is None and settled(), timeout=10.0)
            time.sleep(EDGE_GAP_S)
        station.put(Quit("bench done"))
        thread.join(timeout=10)
    finally:
        if page is not None:
            page.close()
        pages.stop()
        station.close()
        parts.close()
        if store is not None:
            store.close()
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def idle(tmp: Path, *, web: bool, pages: int, idle_s: float) -> float:
    """% of one core a ``run --sim`` station used over ``idle_s`` with ``pages`` seat pages open."""
    captures = tmp / f"captures-{web}-{pages}"
    port = free_port()
    argv = [sys.executable, "-m", "tablekeeper", "run", "--sim", "--display", "capture", "--game", "arkham",
            "--seats", "4", "--save", str(captures / "game.sqlite"), "--capture-dir", str(captures),
            *(["--web", f"127.0.0.1:{port}"] if web else [])]
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)})
    opened: list[Page] = []
    try:
        link = None
        deadline = time.monotonic() + 120
        while web and link is None and time.monotonic() < deadline:
            assert proc.stderr is not None
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                raise SystemExit(f"bench_phones: run --sim --web exited with {proc.returncode}")
            found = re.search(r"phones join at (\S+)", line)
            link = found.group(1) if found else None
        if proc.stderr is not None:  # what it says from now on is read and dropped, so it never blocks
            threading.Thread(target=proc.stderr.read, daemon=True).start()
        while not any(captures.glob("*.png")) and time.monotonic() < deadline:
            time.sleep(0.05)
        secret = link.split("?k=", 1)[1] if link else ""
        for seat in range(1, pages + 1):
            opened.append(Page(f"ws://127.0.0.1:{port}/live?k={secret}", f"http://127.0.0.1:{port}",
                               f"bench-seat-{seat}"))
        settle_until = time.monotonic() + 60
        time.sleep(5.0)  # start-up done, the virtual counter powered up, the pages' first views sent
        while time.monotonic() < settle_until and _busy(proc.pid):
            pass
        cpu0, wall0 = family_cpu_s(proc.pid), time.perf_counter()
        time.sleep(idle_s)
        cpu1, wall1 = family_cpu_s(proc.pid), time.perf_counter()
        used = sum(cpu1[p][0] - cpu0.get(p, (0.0, 0))[0] for p in cpu1)
        return 100 * used / (wall1 - wall0)
    finally:
        for page in opened:
            page.close()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _busy(pid: int, over_s: float = 2.0) -> bool:
    """Whether the processes used 1 % of a core (of the capped core when capped) or more over ``over_s``."""
    before = sum(cpu for cpu, _ in family_cpu_s(pid).values())
    time.sleep(over_s)
    return sum(cpu for cpu, _ in family_cpu_s(pid).values()) - before >= 0.01 * over_s * CPU_SHARE and bool(family(pid))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=PRESSES)
    parser.add_argument("--idle-s", type=float, default=IDLE_S)
    opts = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        got = bench_presses(Path(tmp), opts.presses)
        n = len(got["oled"])
        for key, what in (("oled", "to the OLED's last byte incl. I2C"), ("view", "to the page's new view"),
                          ("ack", "to the station's ack on the page")):
            values = got[key]
            print(f"page press {what}: median {statistics.median(values):.1f} ms, p99 {pct(values, 0.99):.1f} ms, "
                  f"max {max(values):.1f} ms over {n} presses | target p99 <= 100 ms at zero2w")
        print(f"page press: I2C of the answering frames median {statistics.median(got['i2c']):.1f} ms; Arkham, "
              "10 bless + 10 curse (tokens display: four exact odds), UP/DOWN in bursts of 1-4")
        core = "the capped core" if CPU_SHARE < 1 else "one core"
        figures = {}
        for label, web, pages in (("no --web", False, 0), ("--web, no page", True, 0), ("--web, 4 pages", True, 4)):
            figures[label] = idle(Path(tmp), web=web, pages=pages, idle_s=opts.idle_s) / CPU_SHARE
        print(f"idle CPU, run --sim, Arkham 4 seats owing (LEDs blinking), over {opts.idle_s:.0f} s each, % of {core}: "
              + ", ".join(f"{label} {value:.3f} %" for label, value in figures.items())
              + " | targets: no page as without, <= 0.5 %; 4 pages <= 2 %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
