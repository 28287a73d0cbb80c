"""The shapes of the parts the firmware is handed, for the type check only.

MicroPython has no ``typing`` module and ignores annotations, so modules import this file under
``if TYPE_CHECKING:`` (a plain ``False`` at run time); it is never loaded on a board.
"""

from collections.abc import Callable
from typing import Protocol

Entropy = Callable[[int], bytes]
TicksMs = Callable[[], int]
DelayUs = Callable[[int], None]


class Transport(Protocol):
    """A byte pipe to the host that never blocks."""

    def read_into(self, buf: bytearray) -> int: ...

    def write(self, frame: bytes) -> None: ...


class Display(Protocol):
    """Shows a screen: an optional large text and a few short lines."""

    def init_display(self) -> None: ...

    def show(self, big: str | None, lines: tuple[str, ...]) -> None: ...


class HostRequests(Protocol):
    """What the link calls when a valid host request arrives; True when it was acceptable."""

    def on_set(self, slot: int, value: int, limit: int, rev_seen: int, now_ms: int) -> bool: ...

    def on_roll_request(self, count: int, sides: int, now_ms: int) -> bool: ...

    def on_seat(self, seat: int, now_ms: int) -> bool: ...

    def on_label(self, slot: int, text: str) -> bool: ...

    def on_repl(self) -> None: ...


class Outgoing(Protocol):
    """What a role sends to the host (the link)."""

    def send_change(self, slot: int, value: int, rev: int, now_ms: int) -> None: ...

    def send_roll(self, roll_id: int, sides: int, faces: bytearray, count: int, now_ms: int) -> None: ...


class Watchdog(Protocol):
    def feed(self) -> None: ...
