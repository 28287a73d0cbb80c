"""``tablekeeper fleet broker-config``: a Mosquitto config, ACL and password file for a convention.

Least privilege: each station's account may write only its own status and events and read only
its own commands; the organiser's account (the page) reads everything under ``tablekeeper/`` and
writes only commands; the observer's (``fleet status``) only reads. Each account's client ID is its
user name (``use_username_as_clientid``), so one account's password cannot take over, and so knock
off, another account's connection. Packets, queues and connections are bounded. Passwords are
generated here, stored hashed in Mosquitto 2's ``$7$`` format (PBKDF2 with SHA-512, 101 iterations,
a 12-byte salt: what ``mosquitto_passwd`` writes) and in plain text only in one 0600 file per
account for the station that logs in with it. They are never printed. ``--tls`` also makes a
certificate authority and the broker's certificate (``fleet.tls``); the listener then speaks only TLS.
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
from tablekeeper.fleet.messages import MAX_PAYLOAD_BYTES, ROOT, command_topic, events_topic, status_topic
from tablekeeper.fleet.tls import TlsFiles, tls_paths

ORGANISER: Final = "organiser"
OBSERVER: Final = "observer"
MAX_PACKET_BYTES: Final = MAX_PAYLOAD_BYTES + 1024  # the largest payload anyone reads, its topic and header
SPARE_CONNECTIONS: Final = 8  # beyond one per station: the page, the status command, a person's tools
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
    tls: TlsFiles | None = None


def hash_password(password: str, *, salt: bytes | None = None, iterations: int = PBKDF2_ITERATIONS) -> str:
    """A ``mosquitto_passwd`` hash: ``$7$<iterations>$<salt b64>$<PBKDF2-SHA512 b64>``."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(stations: Sequence[str], organiser: str = ORGANISER) -> str:
    lines = ["# Tablekeeper fleet: each account's topics (everything else is refused).", "",
             f"user {organiser}", f"topic read {ROOT}/#", f"topic write {ROOT}/+/cmd", "",
             f"user {OBSERVER}", f"topic read {ROOT}/+/status", f"topic read {ROOT}/+/events", ""]
    for station in stations:
        lines += [f"user {station}", f"topic write {status_topic(station)}", f"topic write {events_topic(station)}",
                  f"topic read {command_topic(station)}", ""]
    return "\n".join(lines)


def config_text(*, port: int, bind: str, acl: Path, passwords: Path, persistence: Path | None,
                user: str = BROKER_USER, stations: int = 1, tls: TlsFiles | None = None) -> str:
    lines = ["# Tablekeeper fleet broker (Mosquitto 2). Start: mosquitto -c THIS_FILE", "",
             f"user {user}", "per_listener_settings false", "allow_anonymous false",
             f"password_file {passwords}", f"acl_file {acl}", "",
             f"listener {port} {bind}",
             "# one account, one connection: a station's password cannot take another's client ID",
             "use_username_as_clientid true", f"max_connections {stations + SPARE_CONNECTIONS}",
             "max_keepalive 300", f"max_packet_size {MAX_PACKET_BYTES}", "max_inflight_messages 20",
             "max_queued_messages 200", "max_queued_bytes 1048576", ""]
    if tls is not None:
        lines += [f"cafile {tls.ca_certificate}", f"certfile {tls.certificate}", f"keyfile {tls.key}",
                  "tls_version tlsv1.2", "require_certificate false", ""]
    if persistence is not None:
        lines += ["persistence true", f"persistence_location {persistence}/", ""]
    else:
        lines += ["persistence false", ""]
    lines += ["log_dest stderr", "log_type error", "log_type warning", "log_type notice", "log_type information",
              "connection_messages true", ""]
    return "\n".join(lines)


def check_names(stations: Iterable[str], organiser: str = ORGANISER) -> list[str]:
    reserved = (organiser, OBSERVER)
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
        if name in reserved:
            raise ConfigError(f"fleet broker-config: station {name!r}: that name is the {name}'s account")
        if name in seen:
            raise ConfigError(f"fleet broker-config: station {name!r} is named twice")
        seen.add(name)
    return names


def write_broker_config(directory: Path, stations: Sequence[str], *, port: int = 1883, bind: str = "0.0.0.0",
                        persistence: bool = False, organiser: str = ORGANISER,
                        user: str = BROKER_USER, tls_names: Sequence[str] = ()) -> BrokerFiles:
    """Write ``mosquitto.conf``, ``acl``, ``passwd`` and ``secrets/<account>.password`` under ``directory``
    (and with ``tls_names``, the names stations use for the broker, a CA and the broker's certificate).

    Refuses (one line, nothing written) when any of them already exists, so a re-run cannot
    replace passwords that stations already use.
    """
    names = check_names(stations, organiser)
    directory = directory.resolve()
    tls = tls_paths(directory / "tls") if tls_names else None
    files = BrokerFiles(config=directory / "mosquitto.conf", acl=directory / "acl", passwords=directory / "passwd",
                        secrets={n: directory / "secrets" / f"{n}.password" for n in [organiser, OBSERVER, *names]},
                        tls=tls)
    tls_files = [tls.ca_certificate, tls.ca_key, tls.certificate, tls.key] if tls is not None else []
    for path in [files.config, files.acl, files.passwords, *files.secrets.values(), *tls_files]:
        if path.exists():
            raise ConfigError(f"{path}: already exists; choose another directory (nothing was written)")
    if tls is not None:
        from tablekeeper.fleet.tls import check_names as check_tls_names

        check_tls_names(tls_names)
    try:
        if tls is not None:
            from tablekeeper.fleet.tls import write_authority

            write_authority(tls, tls_names)
            _give_to(tls.key, user)
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
                                            persistence=data, user=user, stations=len(names), tls=tls),
                                encoding="utf-8")
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
