"""Board entry point: read counter.json, build the real parts, run the counter app.

If ``repl.flag`` exists (left by the host's REPL request) the app does not start, so the
REPL is free for ``mpremote``. A running watchdog cannot be stopped, hence the reset.
"""

import os
import select
import sys
import time

import machine

REPL_FLAG = "repl.flag"
WATCHDOG_MS = 5000


def _repl_requested_last_time() -> bool:
    try:
        os.remove(REPL_FLAG)
    except OSError:
        return False
    return True


def main() -> None:
    import asyncio

    from counter import board
    from counter.usb import UsbCdcTransport

    start = time.ticks_ms()

    def now_ms() -> int:
        """Milliseconds since start on the 30-bit tick circle: the plain int that the app's own
        tick arithmetic (counter/ticks.py) uses."""
        return time.ticks_diff(time.ticks_ms(), start) & 0x3FFFFFFF

    with open("counter.json") as handle:
        cfg = board.load_config(handle.read())
    transport = UsbCdcTransport(sys.stdin, sys.stdout, select.poll(), select.POLLIN)
    app = board.build_app(
        cfg, machine, transport=transport, entropy=os.urandom, now_ms=now_ms(), delay_us=time.sleep_us
    )
    board.unload("board")
    del board
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    asyncio.run(app.run(now_ms, wdt))
    transport.release()
    with open(REPL_FLAG, "w") as handle:
        handle.write("1")
    machine.reset()


if _repl_requested_last_time():
    print("tablekeeper counter: REPL requested; app not started")
else:
    main()
