"""Runs the counter firmware under CPython as a virtual board on a pseudo-terminal.

The firmware is the real application; only ``machine`` (pins, I2C), ``framebuf`` and
``micropython`` are the CPython fakes in ``firmware/fakes``. The serial side is the master end
of a pty passed in as ``--fd``; the host opens the slave end with pyserial as it would a
/dev/ttyACM device.

Control lines on stdin (one per line):
  press up|down|select   hold a button long enough to debounce, then release
  hold BUTTON SECONDS    keep a button down that long (the presence check before a REPL hand-back)
  cable 0|1              pull or reconnect the USB data link (the board stays powered)
  raw HEX                write raw bytes to the serial side (fault injection)
  quit                   stop
Every display change is printed to stdout as ``display <text>``; ``ready`` once running.

A board runs ``CounterApp.run``, which polls its buttons every 2 ms and its link every millisecond:
free on a microcontroller, but here it is a process on the computer running the station. So this
tool runs the application's own ``step`` (inputs, link, screen) only when the host writes, a
control line presses a button, or ``next_wake_ms`` says a timer is due (a button settling, the
presence check, a retransmission, the heartbeat).
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import sys
import time
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(FIRMWARE / "fakes"), str(FIRMWARE)]

import machine  # noqa: E402  (the fake, from firmware/fakes)
from counter import board  # noqa: E402
from counter.app import button_event  # noqa: E402
from counter.text_display import TextDisplay  # noqa: E402

_TICKS_MASK = (1 << 30) - 1
_POLL_S = 0.005


def ticks_ms() -> int:
    return (time.monotonic_ns() // 1_000_000) & _TICKS_MASK


class PtyTransport:
    """Non-blocking reads and writes on the pty master; a pulled cable drops both directions."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.connected = True
        self.hung_up = False  # no host has the port open (the master then reads as always ready)
        os.set_blocking(fd, False)

    def read_into(self, buf: bytearray) -> int:
        try:
            data = os.read(self.fd, len(buf))
        except BlockingIOError:
            self.hung_up = False
            return 0
        except OSError as exc:
            if exc.errno == errno.EIO:  # no host has the port open
                self.hung_up = True
                return 0
            raise
        self.hung_up = False
        if not self.connected:
            return 0
        buf[: len(data)] = data
        return len(data)

    def write(self, frame: bytes) -> None:
        if self.connected:
            self.write_raw(frame)

    def write_raw(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                return  # the host is not reading: like USB CDC, drop rather than stall the board
            view = view[written:]


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def _until(condition, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(_POLL_S)


async def _press(button, wake: asyncio.Event) -> None:
    """Hold until the app's debouncer has seen the press, then the same for the release, so a
    busy machine cannot turn a press into a glitch."""
    button.pin.set_level(0)
    wake.set()
    await _until(lambda: button.is_down)
    button.pin.set_level(1)
    wake.set()
    await _until(lambda: not button.is_down)


async def control(app, transport: PtyTransport, buttons: dict, wake: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode().strip()
        if not line or line == "quit":
            app.repl_requested = True
            wake.set()
            return
        command, _, arg = line.partition(" ")
        if command == "press" and arg in buttons:
            await _press(buttons[arg], wake)
        elif command == "hold" and arg.partition(" ")[0] in buttons:
            name, _, seconds = arg.partition(" ")
            buttons[name].pin.set_level(0)
            wake.set()
            await asyncio.sleep(float(seconds))
            buttons[name].pin.set_level(1)
            wake.set()
        elif command == "cable":
            transport.connected = arg == "1"
        elif command == "raw":
            transport.write_raw(bytes.fromhex(arg))
        emit("done " + line)


HUNG_UP_POLL_S = 0.02  # while no host has the port open, look this often for one


async def run_on_events(app, transport: PtyTransport, wake: asyncio.Event) -> None:
    """The application's ``step`` whenever a byte or a press arrives or its next timer is due; the
    same ending as ``CounterApp.run`` (the REPL request's acknowledgement leaves first)."""
    loop = asyncio.get_running_loop()
    watching = False
    while not app.repl_requested:
        app.step(ticks_ms())
        if transport.hung_up == watching:  # a hung-up master reads as ready for ever: poll instead
            if watching:
                loop.remove_reader(transport.fd)
            else:
                loop.add_reader(transport.fd, wake.set)
            watching = not watching
        timeout_s = app.next_wake_ms(ticks_ms()) / 1000
        if not watching:
            timeout_s = min(timeout_s, HUNG_UP_POLL_S)
        # a timer handle rather than wait_for: no task, no timeout exception, in every wake
        timer = loop.call_later(timeout_s, wake.set)
        await wake.wait()
        timer.cancel()
        wake.clear()
    if watching:
        loop.remove_reader(transport.fd)
    app.link.poll(ticks_ms())
    app.refresh()


async def main_async(args: argparse.Namespace) -> int:
    machine.set_unique_id(bytes.fromhex(args.uid))
    cfg = board.load_config(args.config)
    transport = PtyTransport(args.fd)
    display = TextDisplay(lambda text: emit("display " + text))
    app = board.build_app(
        cfg, machine, transport=transport, entropy=os.urandom, now_ms=ticks_ms(), delay_us=None, display=display
    )
    by_name = {}
    for name in cfg.buttons:
        for button in app.buttons:
            if button.event == button_event(name):
                by_name[name] = button
    wake = asyncio.Event()
    emit("ready")
    control_task = asyncio.create_task(control(app, transport, by_name, wake))
    try:
        await run_on_events(app, transport, wake)
    finally:
        control_task.cancel()
    emit("stopped")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fd", type=int, required=True, help="pty master file descriptor")
    parser.add_argument("--config", default='{"role": "hp", "display": {"kind": "none"}}', help="counter.json text")
    parser.add_argument("--uid", default="E661410403332A2B", help="board unique id, hex")
    args = parser.parse_args()
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
