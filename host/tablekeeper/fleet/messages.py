"""What travels over MQTT: the topics, the retained status, the events and the organiser's commands.

Every payload is JSON encoded and decoded by msgspec from these records, so the station, the
organiser's page and ``docs/fleet.md`` agree on one schema (``v`` is its version).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec

SCHEMA: Final = 2
"""2: ``run`` and ``boot`` name the software's start and the box's boot; ``uptime_s`` is a monotonic count."""
ROOT: Final = "tablekeeper"
MAX_COMMAND_BYTES: Final = 4096
MAX_PAYLOAD_BYTES: Final = 16 * 1024
"""The largest status or event anyone reads (the broker's ``max_packet_size`` is set a little above)."""

Mode = Literal["attract", "demo", "playing", "menu", "offline"]
Health = Literal["ok", "failed", "missing"]
EventKind = Literal["started", "demo_started", "demo_ended", "game_over", "reset", "ack", "refused"]


def status_topic(station: str) -> str:
    return f"{ROOT}/{station}/status"


def events_topic(station: str) -> str:
    return f"{ROOT}/{station}/events"


def command_topic(station: str) -> str:
    return f"{ROOT}/{station}/cmd"


def station_of(topic: str) -> tuple[str, str] | None:
    """``tablekeeper/<station>/<kind>`` as (station, kind); ``None`` for any other topic."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != ROOT or not parts[1]:
        return None
    return parts[1], parts[2]


class Status(msgspec.Struct, kw_only=True, frozen=True):
    """The retained state of one station; the Last Will is the same record with ``mode = "offline"``."""

    station: str
    table: str = ""
    mode: Mode = "offline"
    game: str | None = None
    round: int | None = None
    phase: str | None = None
    seats: int | None = None
    active_seat: int | None = None
    over: str | None = None
    locked: bool = False
    displays: dict[str, Health] = {}
    counters: dict[str, Health] = {}
    last_error: str | None = None
    run: str = ""
    """Random per start of the software: a new one from a known station is a restart."""
    boot: str = ""
    """The kernel's boot ID: a new one is a reboot (or a power cut)."""
    uptime_s: int = 0
    """Seconds since the software started, from a monotonic clock (a stepped wall clock cannot move it)."""
    started_at: float = 0.0
    at: float = 0.0
    """Wall-clock times, for a person to read only: a Pi without a clock chip starts far in the past."""
    version: str = ""
    v: int = SCHEMA

    def same_state(self, other: Status | None) -> bool:
        """Equal apart from the clock fields (uptime, sent at), so a heartbeat is not a change."""
        return other is not None and msgspec.structs.replace(self, uptime_s=0, at=0.0) == \
            msgspec.structs.replace(other, uptime_s=0, at=0.0)


class Event(msgspec.Struct, kw_only=True, frozen=True, omit_defaults=True):
    """Something that happened at a station, or its answer to a command (``ack`` / ``refused``)."""

    station: str
    kind: EventKind
    at: float
    game: str | None = None
    length_s: float | None = None
    finished: bool | None = None
    result: str | None = None
    cmd: str | None = None
    id: str | None = None
    reason: str | None = None
    run: str | None = None
    boot: str | None = None
    v: int = SCHEMA


CommandId = Annotated[str, msgspec.Meta(max_length=64)]


class _Command(msgspec.Struct, tag_field="cmd", forbid_unknown_fields=True, frozen=True, kw_only=True):
    id: CommandId = ""


class Reset(_Command, tag="reset", frozen=True):
    """Back to the attract loop (demo mode) or close any menu and notice (a home game)."""


class Lock(_Command, tag="lock", frozen=True):
    """Ignore the panel's buttons until unlocked."""


class Unlock(_Command, tag="unlock", frozen=True):
    """Take the panel's buttons again."""


class NextGame(_Command, tag="next_game", frozen=True):
    """The game the next visitor's demo plays."""

    game: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class Identify(_Command, tag="identify", frozen=True):
    """Blink the seat LEDs and show the station's name, so a helper finds the table."""

    seconds: Annotated[float, msgspec.Meta(ge=1, le=60)] = 10.0


RemoteCommand = Reset | Lock | Unlock | NextGame | Identify
COMMAND_NAMES: Final = ("reset", "lock", "unlock", "next_game", "identify")

_encoder = msgspec.json.Encoder()
_command_decoder = msgspec.json.Decoder(RemoteCommand)
_status_decoder = msgspec.json.Decoder(Status)
_event_decoder = msgspec.json.Decoder(Event)


def encode(record: Status | Event | RemoteCommand) -> bytes:
    return _encoder.encode(record)


def command_name(command: RemoteCommand) -> str:
    return str(command.__struct_config__.tag)


class Refusal(msgspec.Struct, frozen=True):
    """Why a command payload was not carried out, and its ``id`` when one could be read."""

    reason: str
    id: str = ""
    cmd: str = ""


def decode_command(payload: bytes | bytearray) -> RemoteCommand | Refusal:
    """A command payload as a command, or a ``Refusal`` naming what is wrong with it."""
    if len(payload) > MAX_COMMAND_BYTES:
        return Refusal(f"command is {len(payload)} bytes (at most {MAX_COMMAND_BYTES})")
    try:
        command: RemoteCommand = _command_decoder.decode(payload)
        return command
    except msgspec.DecodeError as exc:
        ident, name = _salvage(payload)
        problem = str(exc).replace("Object", "command").replace("`", "")
        if "Invalid value" in problem and "$.cmd" in problem:
            problem = f"unknown command {name!r} (known: {', '.join(COMMAND_NAMES)})"
        return Refusal(problem, ident, name)


def _salvage(payload: bytes | bytearray) -> tuple[str, str]:
    """The ``id`` and ``cmd`` of a refused command, when it is JSON at all, so the refusal can name it."""
    try:
        raw = msgspec.json.decode(payload)
    except msgspec.DecodeError:
        return "", ""
    if not isinstance(raw, dict):
        return "", ""
    ident, name = raw.get("id", ""), raw.get("cmd", "")
    return (ident[:64] if isinstance(ident, str) else ""), (name[:40] if isinstance(name, str) else "")


def decode_status(payload: bytes) -> Status | None:
    if len(payload) > MAX_PAYLOAD_BYTES:
        return None
    try:
        return _status_decoder.decode(payload)
    except msgspec.DecodeError:
        return None


def decode_event(payload: bytes) -> Event | None:
    if len(payload) > MAX_PAYLOAD_BYTES:
        return None
    try:
        return _event_decoder.decode(payload)
    except msgspec.DecodeError:
        return None
