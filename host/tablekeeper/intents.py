"""What the station loop is asked to do: button and counter threads put these on one queue.

Intents are facts about the hardware ("seat 2's counter now reads 5"), not game commands; the
station thread alone turns them into commands, so the session is never touched from two threads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Gesture(Enum):
    """What a finger did to a button."""

    PRESS = "press"  # went down (after debounce)
    HOLD = "hold"  # stayed down for the hold time
    REPEAT = "repeat"  # still down: one auto-repeat tick after the hold
    RELEASE = "release"  # came back up


@dataclass(frozen=True, slots=True)
class ButtonIntent:
    """A button with ``role`` (``next``, ``seat2.a``, ...) did ``gesture`` at ``at_s`` (station clock)."""

    role: str
    gesture: Gesture
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class CounterValue:
    """A counter on ``seat`` now shows ``value`` on ``track`` (e.g. ``hp``)."""

    seat: int
    track: str
    value: int
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class CounterConnected:
    """A counter for ``seat`` answered on ``port`` (e.g. ``/dev/ttyACM0``)."""

    seat: int
    port: str
    role: str = "hp"
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class CounterMissing:
    """A counter for ``seat`` stopped answering or was unplugged; ``reason`` is shown to players."""

    seat: int
    reason: str = ""
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class CounterRolled:
    """A dice counter on ``seat`` rolled ``faces`` with ``sides``-sided dice (a press or a station request)."""

    seat: int
    sides: int
    faces: tuple[int, ...]
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed with no input (lets pending changes and display retries run on schedule)."""

    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class Quit:
    """Stop the station cleanly (SIGTERM, SIGINT, end of a script)."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class Typed:
    """A command line typed at the station's console (a script line in the simulator): the way to
    enter what buttons cannot express, such as a card's name and thresholds."""

    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class Remote:
    """An order from outside the table (the fleet organiser's ``name`` command); ``carry_out`` runs on
    the station thread, so a remote command never touches the session from another thread."""

    name: str
    carry_out: Callable[[], None]


@dataclass(frozen=True, slots=True)
class FromPage:
    """A button gesture or a console line from a phone's page, carried out as the button's or the
    console's own; ``done`` is told on the station thread once it is (the refusal it met, or None),
    so the page knows its press was not lost."""

    intent: ButtonIntent | Typed
    done: Callable[[str | None], None]


Intent = (ButtonIntent | CounterValue | CounterConnected | CounterMissing | CounterRolled | Tick | Quit | Typed | Remote
          | FromPage)
