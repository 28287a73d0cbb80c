"""The real firmware app in this process behind a fake serial port, on one fake clock.

The host's ``CounterManager`` and the firmware's ``CounterApp`` talk through two byte queues,
so whole conversations (greeting, pairing, changes, reconnects) run deterministically.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tablekeeper.sim.clock import FakeClock
from tests.counters.firmware_env import load_firmware_module


@dataclass(frozen=True, slots=True)
class FakePortInfo:
    device: str
    vid: int | None = 0x2E8A
    pid: int | None = 0x0005
    serial_number: str | None = None


class FakeSerial:
    """The host's end of a cable: what the board wrote waits in ``inbound``."""

    def __init__(self, board: InProcessBoard) -> None:
        self.board = board
        self.inbound = bytearray()
        self.closed = False
        self.written = bytearray()

    def read(self, size: int = 1) -> bytes:
        if self.closed or not self.board.cable:
            raise OSError(5, "Input/output error")
        data = bytes(self.inbound[:size])
        del self.inbound[:size]
        return data

    def write(self, data: bytes, /) -> int:
        if self.closed or not self.board.cable:
            raise OSError(5, "Input/output error")
        self.written.extend(data)
        self.board.transport.incoming.extend(data)
        return len(data)

    def close(self) -> None:
        self.closed = True

    def fileno(self) -> int:
        raise OSError("a fake port has no file descriptor")


class BoardTransport:
    """The board's end of the cable (same shape as the firmware's USB transport)."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.host: FakeSerial | None = None

    def read_into(self, buf: bytearray) -> int:
        count = min(len(buf), len(self.incoming))
        buf[:count] = self.incoming[:count]
        del self.incoming[:count]
        return count

    def write(self, frame: bytes) -> None:
        if self.host is not None and not self.host.closed:
            self.host.inbound.extend(frame)


class InProcessBoard:
    """One counter running the real firmware app with fake pins."""

    def __init__(self, clock: FakeClock, role: str = "hp", *, device: str = "/dev/ttyACM0",
                 uid: bytes = b"\xe6\x61\x41\x04\x03\x33\x2a\x2b", vid: int = 0x2E8A, pid: int = 0x0005) -> None:
        machine: Any = load_firmware_module("machine")
        board_mod: Any = load_firmware_module("counter.board")
        text_display: Any = load_firmware_module("counter.text_display")
        support: Any = load_firmware_module("support")
        self.clock = clock
        self.device = device
        self.uid = uid
        self.vid = vid
        self.pid = pid
        self.cable = True
        self.listed = True
        self.transport = BoardTransport()
        self.display = text_display.TextDisplay()
        machine.set_unique_id(uid)
        cfg = board_mod.load_config('{"role": "' + role + '", "max": 20, "display": {"kind": "none"}}')
        self.app = board_mod.build_app(cfg, machine, transport=self.transport, entropy=support.Entropy(),
                                       now_ms=self.now_ms(), delay_us=None, display=self.display)
        self.pins = {name: button.pin for name, button in zip(cfg.buttons, self.app.buttons, strict=True)}

    def now_ms(self) -> int:
        return int(self.clock() * 1000) & ((1 << 30) - 1)

    def open(self, device: str) -> FakeSerial:
        port = FakeSerial(self)
        self.transport.host = port
        return port

    def port_info(self) -> FakePortInfo:
        return FakePortInfo(self.device, self.vid, self.pid, self.uid.hex().upper())

    def step(self) -> None:
        self.app.step(self.now_ms())

    def press(self, name: str, rig: Rig) -> None:
        pin = self.pins[name]
        pin.set_level(0)
        rig.run(0.03)
        pin.set_level(1)
        rig.run(0.03)


class Rig:
    """A host manager and some boards on one fake clock."""

    def __init__(self, clock: FakeClock, boards: list[InProcessBoard]) -> None:
        self.clock = clock
        self.boards = boards
        self.manager: Any = None

    def list_ports(self) -> list[FakePortInfo]:
        return [b.port_info() for b in self.boards if b.listed]

    def open_port(self, device: str) -> FakeSerial:
        for board in self.boards:
            if board.device == device:
                return board.open(device)
        raise KeyError(device)

    def run(self, seconds: float, step_s: float = 0.002) -> None:
        """Advance the shared clock in small steps, letting both ends work at each."""
        end = self.clock() + seconds
        while self.clock() < end:
            self.clock.advance(step_s)
            self.manager.poll()
            for board in self.boards:
                board.step()
            self.manager.poll()
