"""``tablekeeper counters``: list the counters plugged in, or hand one's REPL back for mpremote."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablekeeper.config import load_config
from tablekeeper.errors import HardwareError
from tablekeeper.hw.counters import CounterManager, CounterStatus
from tablekeeper.intents import Intent
from tablekeeper.station.parts import counter_matches

GREETING_S = 3.0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("counters", help="list MicroPython counters, or hand one's REPL back",
                                   description="Find the counters on USB and ask each who it is. "
                                               "Stop the station first: it holds the ports exclusively.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="list the counters that answer (the default)")
    listing.add_argument("--wait", type=float, default=GREETING_S, metavar="SECONDS",
                         help=f"how long to wait for answers (default {GREETING_S:g})")
    listing.add_argument("--config", type=Path, default=None, metavar="FILE",
                         help="station config whose [[counters]] add USB IDs to look for and name seats")
    listing.set_defaults(func=list_command)
    repl = actions.add_parser("repl", help="ask a counter to stop its app and free the REPL for mpremote")
    repl.add_argument("device", help="serial device, e.g. /dev/ttyACM0")
    repl.add_argument("--wait", type=float, default=GREETING_S, metavar="SECONDS")
    repl.set_defaults(func=repl_command)
    parser.set_defaults(func=list_command, wait=GREETING_S, config=None)


def _greet(manager: CounterManager, wait_s: float, done: Callable[[list[CounterStatus]], bool],
           clock: Callable[[], float] = time.monotonic) -> list[CounterStatus]:
    deadline = clock() + wait_s
    status = manager.status()
    while clock() < deadline:
        manager.poll()
        status = manager.status()
        if done(status):
            break
        time.sleep(0.01)
    return status


def list_command(args: argparse.Namespace, manager: CounterManager | None = None) -> int:
    intents: list[Intent] = []
    counters = counter_matches(load_config(args.config).counters) if args.config is not None else ()
    manager = manager or CounterManager(emit=intents.append, counters=counters)
    try:
        # Every port found on the first scan is opened at once, so an empty status means none.
        status = _greet(manager, args.wait, lambda s: all(c.state == "ready" for c in s))
    finally:
        manager.close()
    ready = [c for c in status if c.state == "ready"]
    if not status:
        print("no counters found (looking for USB 2E8A:0005; is MicroPython flashed? see firmware/README.md)")
        return 1
    for counter in status:
        if counter.state == "ready":
            seat = f"  seat {counter.seat}" if counter.seat else ""
            print(f"{counter.device}  {counter.role:<5} uid {counter.uid}{seat}")
        else:
            print(f"{counter.device}  no answer (not running the counter app, or busy)")
    return 0 if ready else 1


def repl_command(args: argparse.Namespace, manager: CounterManager | None = None) -> int:
    intents: list[Intent] = []
    manager = manager or CounterManager(emit=intents.append)
    try:
        status = _greet(manager, args.wait, lambda s: any(c.device == args.device and c.state == "ready" for c in s))
        if not any(c.device == args.device and c.state == "ready" for c in status):
            raise HardwareError(f"counter {args.device}: did not answer; is it plugged in and running the app?")
        manager.request_repl(args.device)
        link = manager.link(args.device)
        deadline = time.monotonic() + args.wait
        while link is not None and link.pending() and time.monotonic() < deadline:
            manager.poll()
            time.sleep(0.01)
        if link is not None and link.pending():
            raise HardwareError(f"counter {args.device}: did not acknowledge the REPL request")
    finally:
        manager.close()
    print(f"{args.device}: the counter asks for presence: hold any of its buttons for 2 s while its display "
          "says 'REPL? HOLD' (30 s to answer); it then resets into its REPL. Deploy with mpremote, "
          "then mpremote reset")
    return 0
