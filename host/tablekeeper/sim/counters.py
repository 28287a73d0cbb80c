"""Virtual counters: the real counter firmware, run by CPython in its own process on a pty.

Each ``VirtualCounter`` owns a pseudo-terminal; the firmware process holds the master end and
the host opens the slave path with pyserial, exactly as it opens /dev/ttyACM0. Buttons are pressed
and the display is read through the process's stdin/stdout. ``VirtualCounterBank.list_ports`` stands
in for ``serial.tools.list_ports.comports`` so ``CounterManager`` discovers them the usual way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekeeper.config import CounterConfig
from tablekeeper.errors import HardwareError

MICROPYTHON_VID = 0x2E8A
MICROPYTHON_PID = 0x0005


def firmware_dir() -> Path:
    """The counter firmware shipped inside the package (in a checkout, a link to ``firmware/``)."""
    path = Path(__file__).parents[1] / "firmware"
    if not (path / "tools" / "virtual_counter.py").is_file():
        raise HardwareError(f"virtual counters need the firmware sources; {path} has none")
    return path


@dataclass(frozen=True, slots=True)
class SimPortInfo:
    """The fields of pyserial's ListPortInfo that discovery reads."""

    device: str
    vid: int | None = MICROPYTHON_VID
    pid: int | None = MICROPYTHON_PID
    serial_number: str | None = None


class VirtualCounter:
    """One simulated board. ``plug`` powers it up on a fresh pty; ``unplug`` kills it;
    ``cable(False)`` drops the USB data link while the board keeps running (and its state)."""

    def __init__(self, role: str = "hp", *, uid: str = "E661410403332A2B", config: dict[str, Any] | None = None,
                 python: str = sys.executable, vid: int = MICROPYTHON_VID, pid: int = MICROPYTHON_PID) -> None:
        settings: dict[str, Any] = {"role": role, "display": {"kind": "none"}}
        settings.update(config or {})
        self.role = role
        self.uid = uid.upper()
        self.vid = vid
        self.pid = pid
        self._config = json.dumps(settings)
        self._python = python
        self._proc: subprocess.Popen[bytes] | None = None
        self._slave_fd = -1
        self.device = ""
        self.listed = False
        self._lines: list[str] = []
        self._cond = threading.Condition()
        self._reader: threading.Thread | None = None
        self.last_line_s = 0.0  # when the board last printed (a display change, a control answer)
        self.on_display: Callable[[], None] | None = None  # its display changed (the simulator redraws the panel)

    # -- life cycle -------------------------------------------------------------------------
    def plug(self, timeout_s: float = 10.0) -> None:
        master_fd, slave_fd = os.openpty()
        tty.setraw(slave_fd)  # no echo, no line discipline: a USB CDC port is raw bytes
        self._slave_fd = slave_fd
        self.device = os.ttyname(slave_fd)
        with self._cond:
            self._lines = []
        script = firmware_dir() / "tools" / "virtual_counter.py"
        self._proc = subprocess.Popen(
            [self._python, str(script), "--fd", str(master_fd), "--config", self._config, "--uid", self.uid],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(master_fd,),
            start_new_session=True,  # the terminal's Ctrl-C is the station's to handle; it closes the board
        )
        os.close(master_fd)
        self._reader = threading.Thread(target=self._read_stdout, name=f"virtual-counter-{self.uid}", daemon=True)
        self._reader.start()
        self.wait_for(lambda line: line == "ready", timeout_s)
        self.listed = True

    def unplug(self) -> None:
        """Pull the board out: the process ends and the port disappears."""
        self.listed = False
        proc = self._proc
        self._proc = None
        if proc is not None:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.kill()
            proc.wait()
        if self._slave_fd >= 0:
            os.close(self._slave_fd)
            self._slave_fd = -1

    def cable(self, connected: bool) -> None:
        """Connect or pull the data link; the port is listed only while connected."""
        self._command(f"cable {1 if connected else 0}")
        self.listed = connected

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # -- a player's hands and eyes ------------------------------------------------------------
    def press(self, button: str) -> None:
        self._command(f"press {button}")

    def hold(self, button: str, seconds: float) -> None:
        """Keep a button down for ``seconds`` of real time (the firmware's own clock); a hold that grants a
        REPL request stops the board before the hold is over."""
        try:
            self._command(f"hold {button} {seconds}", timeout_s=seconds + 5.0)
        except HardwareError:
            if self.running:
                raise

    def raw(self, data: bytes) -> None:
        """Write bytes straight onto the serial line (noise, a REPL banner, half a frame)."""
        self._command(f"raw {data.hex()}")

    @property
    def display(self) -> str:
        with self._cond:
            for line in reversed(self._lines):
                if line.startswith("display "):
                    return line[len("display "):]
        return ""

    def wait_for_display(self, predicate: Callable[[str], bool], timeout_s: float = 5.0) -> str:
        line = self.wait_for(lambda text: text.startswith("display ") and predicate(text[len("display "):]),
                             timeout_s, latest=True)
        return line[len("display "):]

    def wait_for(self, predicate: Callable[[str], bool], timeout_s: float, latest: bool = False) -> str:
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while True:
                candidates = self._lines[-1:] if latest else self._lines
                for line in candidates:
                    if predicate(line):
                        return line
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self.running:
                    why = "timed out" if self.running else "its process ended"
                    raise HardwareError(f"virtual counter {self.uid}: {why}; last lines {self._lines[-5:]}")
                self._cond.wait(remaining)

    def port_info(self) -> SimPortInfo:
        return SimPortInfo(self.device, self.vid, self.pid, self.uid)

    def _command(self, line: str, timeout_s: float = 5.0) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise HardwareError(f"virtual counter {self.uid} is unplugged")
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        self.wait_for(lambda text: text == "done " + line, timeout_s)
        with self._cond:
            self._lines.remove("done " + line)

    def _read_stdout(self) -> None:
        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            with self._cond:
                self.last_line_s = time.monotonic()
                self._lines.append(line)
                del self._lines[:-200]
                self._cond.notify_all()
            if self.on_display is not None and line.startswith("display "):
                self.on_display()
        with self._cond:
            self._cond.notify_all()


class VirtualCounterBank:
    """The boards on the simulated table; ``list_ports`` is what CounterManager scans."""

    def __init__(self) -> None:
        self.counters: list[VirtualCounter] = []

    def add(self, counter: VirtualCounter) -> VirtualCounter:
        self.counters.append(counter)
        return counter

    def list_ports(self) -> list[SimPortInfo]:
        return [c.port_info() for c in self.counters if c.listed and c.device]

    def close(self) -> None:
        for counter in self.counters:
            counter.unplug()

    @classmethod
    def for_config(cls, counters: Sequence[CounterConfig]) -> VirtualCounterBank:
        """One unplugged virtual counter per ``[[counters]]`` entry (its serial as the board id);
        call ``plug()`` on each to power it up."""
        bank = cls()
        for index, entry in enumerate(counters):
            uid = entry.serial or f"E6614104033300{index + 1:02X}"
            bank.add(VirtualCounter(entry.role, uid=uid, vid=entry.vid, pid=entry.pid))
        return bank
