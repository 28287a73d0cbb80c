"""``tablekeeper fleet broker-config``: a Mosquitto config, ACL and password file for a convention.

Least privilege: each station's account may write only its own status and events and read only
its own commands; the organiser's account reads everything under ``tablekeeper/`` and writes only
commands. Passwords are generated here, stored hashed in Mosquitto 2's ``$7$`` format (PBKDF2 with
SHA-512, 101 iterations, a 12-byte salt: what ``mosquitto_passwd`` writes) and in plain text only in
one 0600 file per account for the station that logs in with it. They are never printed.
"""

from __future__ import annotations

import base64
import hashlib
import os
import pwd
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tablekeeper.errors import ConfigError
from tablekeeper.fleet.config import NAME_PATTERN
from tablekeeper.fleet.messages import ROOT, command_topic, events_topic, status_topic

ORGANISER: Final = "organiser"
PBKDF2_ITERATIONS: Final = 101  # Mosquitto 2.0's own choice for $7$ hashes
SALT_BYTES: Final = 12
MAX_STATIONS: Final = 500
BROKER_USER: Final = "mosquitto"  # the account Debian's broker runs as; it must be able to read ``passwd``


@dataclass(frozen=True, slots=True)
class BrokerFiles:
    """Where ``write_broker_config`` put each file."""

    config: Path
    acl: Path
    passwords: Path
    secrets: dict[str, Path]  # account -> its 0600 plain-text password file


def hash_password(password: str, *, salt: bytes | None = None, iterations: int = PBKDF2_ITERATIONS) -> str:
    """A ``mosquitto_passwd`` hash: ``$7$<iterations>$<salt b64>$<PBKDF2-SHA512 b64>``."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(stations: Sequence[str], organiser: str = ORGANISER) -> str:
    lines = ["# Tablekeeper fleet: each account's topics (everything else is refused).", "",
             f"user {organiser}", f"topic read {ROOT}/#", f"topic write {ROOT}/+/cmd", ""]
    for station in stations:
        lines += [f"user {station}", f"topic write {status_topic(station)}", f"topic write {events_topic(station)}",
                  f"topic read {command_topic(station)}", ""]
    return "\n".join(lines)


def config_text(*, port: int, bind: str, acl: Path, passwords: Path, persistence: Path | None,
                user: str = BROKER_USER) -> str:
    lines = ["# Tablekeeper fleet broker (Mosquitto 2). Start: mosquitto -c THIS_FILE", "",
             f"user {user}", "per_listener_settings false", "allow_anonymous false",
             f"password_file {passwords}", f"acl_file {acl}", "",
             f"listener {port} {bind}", "max_keepalive 300", "max_queued_messages 200", ""]
    if persistence is not None:
        lines += ["persistence true", f"persistence_location {persistence}/", ""]
    else:
        lines += ["persistence false", ""]
    lines += ["log_dest stderr", "log_type error", "log_type warning", "log_type notice", "log_type information",
              "connection_messages true", ""]
    return "\n".join(lines)


def check_names(stations: Iterable[str], organiser: str = ORGANISER) -> list[str]:
    names = list(stations)
    if not names:
        raise ConfigError("fleet broker-config: name at least one station")
    if len(names) > MAX_STATIONS:
        raise ConfigError(f"fleet broker-config: {len(names)} stations is more than {MAX_STATIONS}")
    seen: set[str] = set()
    for name in names:
        if not re.match(NAME_PATTERN, name):
            raise ConfigError(f"fleet broker-config: station {name!r}: use letters, digits, '-' and '_' "
                              "(at most 32, no '/', '+', '#' or spaces)")
        if name == organiser:
            raise ConfigError(f"fleet broker-config: station {name!r}: that name is the organiser's account")
        if name in seen:
            raise ConfigError(f"fleet broker-config: station {name!r} is named twice")
        seen.add(name)
    return names


def write_broker_config(directory: Path, stations: Sequence[str], *, port: int = 1883, bind: str = "0.0.0.0",
                        persistence: bool = False, organiser: str = ORGANISER,
                        user: str = BROKER_USER) -> BrokerFiles:
    """Write ``mosquitto.conf``, ``acl``, ``passwd`` and ``secrets/<account>.password`` under ``directory``.

    Refuses (one line, nothing written) when any of them already exists, so a re-run cannot
    replace passwords that stations already use.
    """
    names = check_names(stations, organiser)
    directory = directory.resolve()
    files = BrokerFiles(config=directory / "mosquitto.conf", acl=directory / "acl", passwords=directory / "passwd",
                        secrets={n: directory / "secrets" / f"{n}.password" for n in [organiser, *names]})
    for path in [files.config, files.acl, files.passwords, *files.secrets.values()]:
        if path.exists():
            raise ConfigError(f"{path}: already exists; choose another directory (nothing was written)")
    try:
        (directory / "secrets").mkdir(parents=True, exist_ok=True, mode=0o700)
        hashes = []
        for account, path in files.secrets.items():
            password = secrets.token_urlsafe(18)
            _write_private(path, password + "\n")
            hashes.append(f"{account}:{hash_password(password)}")
        _write_private(files.passwords, "\n".join(hashes) + "\n")
        _give_to(files.passwords, user)
        files.acl.write_text(acl_text(names, organiser), encoding="utf-8")
        data = directory / "data" if persistence else None
        if data is not None:
            data.mkdir(exist_ok=True)
        if data is not None:
            _give_to(data, user)
        files.config.write_text(config_text(port=port, bind=bind, acl=files.acl, passwords=files.passwords,
                                            persistence=data, user=user), encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{directory}: cannot write the broker files: {exc.strerror or exc}") from None
    return files


def _write_private(path: Path, text: str) -> None:
    """A file only its owner can read, created so (never briefly world-readable)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def _give_to(path: Path, user: str) -> None:
    """Run as root, hand ``path`` to the broker's account (Mosquitto reads it after dropping root)."""
    if os.geteuid() != 0 or user == "root":
        return
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return  # no such account here: the file is for another machine, and docs/fleet.md says to chown it
    os.chown(path, entry.pw_uid, entry.pw_gid)
