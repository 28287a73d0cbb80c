"""The station config's optional ``[fleet]`` table: which broker, who this station is, how to log in."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

from tablekeeper.errors import ConfigError
from tablekeeper.schema import decode, read_text

NAME_PATTERN: Final = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$"
"""A station name is one MQTT topic level: no ``/``, ``+``, ``#`` or spaces."""

StationName = Annotated[str, msgspec.Meta(pattern=NAME_PATTERN)]


class FleetConfig(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Where the station reports and as whom; every field is a key of ``[fleet]``."""

    broker: Annotated[str, msgspec.Meta(min_length=1, max_length=253)]
    station: StationName
    table: Annotated[str, msgspec.Meta(max_length=40)] = ""
    port: Annotated[int, msgspec.Meta(ge=1, le=65535)] = 1883
    tls: bool = False
    ca_file: str | None = None
    username: str | None = None
    password_file: str | None = None
    keepalive_s: Annotated[int, msgspec.Meta(ge=2, le=600)] = 30
    heartbeat_s: Annotated[float, msgspec.Meta(ge=1, le=3600)] = 60.0
    mqtt: Literal["5", "3.1.1"] = "5"
    """MQTT 5 lets the broker say why it refused a publish; 3.1.1 is for older brokers."""


def parse_fleet(raw: Mapping[str, Any] | None, source: str) -> FleetConfig | None:
    """The ``[fleet]`` table as a ``FleetConfig`` (``None`` when the config has none)."""
    if raw is None:
        return None
    config = decode(raw, FleetConfig, source=source, prefix="fleet")
    if config.password_file is not None and config.username is None:
        raise ConfigError(f"{source}: fleet.password_file: needs fleet.username as well")
    if config.ca_file is not None and not config.tls:
        raise ConfigError(f"{source}: fleet.ca_file: set fleet.tls = true to use it")
    return config


def read_password(path: str | Path, *, key: str = "fleet.password_file") -> str:
    """The first line of a password file that only its owner may read (mode 0600 or stricter)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such password file ({key})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({key}): {exc.strerror or exc}") from None
    if stat.S_ISREG(mode) and stat.S_IMODE(mode) & 0o077:
        raise ConfigError(f"{path}: password file is readable by others (mode {stat.S_IMODE(mode):04o}); "
                          f"run: chmod 600 {path}")
    text = read_text(path, max_bytes=4096, what="password file")
    password = text.splitlines()[0].strip() if text.strip() else ""
    if not password:
        raise ConfigError(f"{path}: the password file is empty ({key})")
    return password
