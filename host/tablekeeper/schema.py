"""Reading the project's own files: bounded in size and type, decoded by msgspec into typed records.

Every file a user points the station at (the station config, a game's data file, a script) goes
through here, so a FIFO, ``/dev/zero``, a binary, a 3,000-deep table or a misspelt key each end as
one ``ConfigError`` line naming the file and the key, never a hang or a traceback.
"""

from __future__ import annotations

import copy
import functools
import os
import re
import stat
import tomllib
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec

from tablekeeper.errors import ConfigError

T = TypeVar("T")

MAX_DATA_BYTES: Final = 1_000_000
"""The largest data or config file read (the biggest shipped one is under 20 kB)."""

_AT = re.compile(r"^(?P<problem>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]*)`$")
_STEP = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\[\"([^\"]*)\"\]")


def read_bytes(path: str | Path, *, max_bytes: int = MAX_DATA_BYTES, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; anything else is one ``ConfigError`` line.

    Opened with ``O_NONBLOCK`` so a FIFO cannot block the open, and checked with ``fstat`` on the
    open descriptor so the type cannot change between the check and the read.
    """
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ConfigError(f"{name}: no such {what}") from None
    except IsADirectoryError:
        raise ConfigError(f"{name}: is a directory, not a {what}") from None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ConfigError(f"{name}: is a directory, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{name}: not a regular file (a device, pipe or socket cannot be a {what})")
        if info.st_size > max_bytes:
            raise ConfigError(f"{name}: {info.st_size} bytes is too large for a {what} (at most {max_bytes})")
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ConfigError(f"{name}: cannot read: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > max_bytes:
        raise ConfigError(f"{name}: grew past {max_bytes} bytes while being read")
    return data


def read_text(path: str | Path, *, max_bytes: int = MAX_DATA_BYTES, what: str = "file") -> str:
    """A bounded regular file decoded as UTF-8 (a binary file is one line naming the byte offset)."""
    data = read_bytes(path, max_bytes=max_bytes, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); is this the right file?") from None


def parse_toml(text: str, *, source: str) -> dict[str, Any]:
    """TOML text as a dict; syntax errors and absurd nesting are one line naming ``source``. Each
    distinct text is parsed once per process (every new game reads its data files again); each
    caller gets its own copy."""
    try:
        return _own_copy(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{source}: tables or arrays nested too deeply") from None


PARSED_KEPT_MAX_CHARS: Final = 64_000  # the shipped data files are under 10 kB; a huge one is parsed each time
PARSED_KEPT: Final = 32  # distinct texts kept: a few hundred kB at most


@functools.lru_cache(maxsize=PARSED_KEPT)
def _parsed(text: str) -> dict[str, Any]:
    return tomllib.loads(text)


def _own_copy(text: str) -> dict[str, Any]:
    if len(text) > PARSED_KEPT_MAX_CHARS:
        return tomllib.loads(text)
    kept = _parsed(text)
    try:
        return copy.deepcopy(kept)
    except RecursionError:  # deeper than deepcopy recurses (tomllib reads dotted keys without recursing)
        return tomllib.loads(text)


def read_toml(path: str | Path, *, max_bytes: int = MAX_DATA_BYTES, what: str = "file") -> dict[str, Any]:
    """A bounded TOML file as a dict."""
    return parse_toml(read_text(path, max_bytes=max_bytes, what=what), source=str(path))


def decode(raw: Any, kind: type[T], *, source: str, prefix: str = "") -> T:
    """``raw`` (from TOML or JSON) as ``kind`` (a ``msgspec.Struct`` tree with unknown fields forbidden).

    A problem is one ``ConfigError``: ``source: dotted.key: what is wrong``, and for an unknown key
    the nearest known key (``adress`` -> ``address``).
    """
    try:
        return msgspec.convert(raw, type=kind, strict=True)
    except RecursionError:
        raise ConfigError(f"{source}: tables or arrays nested too deeply") from None
    except msgspec.ValidationError as exc:
        raise ConfigError(explain(exc, kind, source=source, prefix=prefix)) from None


def explain(exc: msgspec.ValidationError, kind: type[Any], *, source: str, prefix: str = "") -> str:
    """One line for a msgspec validation error: the file, the dotted key, the problem, a suggestion."""
    match = _AT.match(str(exc))
    problem = match.group("problem") if match else str(exc)
    path = (match.group("path") or "") if match else ""
    steps = _steps(path)
    unknown = _UNKNOWN.match(problem)
    if unknown:
        field = unknown.group("field")
        key = _dotted(prefix, [*steps, field])
        known = _field_names(_type_at(kind, steps))
        import difflib  # only for a misspelt key: not on every start-up

        close = difflib.get_close_matches(field, known, n=1, cutoff=0.6)
        if not close:
            close = [k for k in known if k.startswith(field) or field.startswith(k)][:1]
        hint = f" (did you mean {close[0]!r}?)" if close else (f" (known: {', '.join(known)})" if known else "")
        return f"{source}: {key}: unknown key{hint}"
    key = _dotted(prefix, steps)
    problem = problem.replace("Object missing required field", "missing required key")
    problem = problem.replace("Object", "table").replace("`", "")
    return f"{source}: {key or '(top level)'}: {problem}"


def _steps(path: str) -> list[str | int]:
    out: list[str | int] = []
    for name, index, quoted in _STEP.findall(path):
        out.append(int(index) if index else (name or quoted))
    return out


def _dotted(prefix: str, steps: list[str | int]) -> str:
    text = prefix
    for step in steps:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text += f".{step}" if text else step
    return text


def _unwrap(kind: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(kind):
            if arg is not type(None):
                return _unwrap(arg)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(kind)[0])
    return kind


def _type_at(kind: Any, steps: list[str | int]) -> Any:
    """The declared type found by walking ``steps`` through a Struct tree (``None`` when lost)."""
    current = _unwrap(kind)
    for step in steps:
        if isinstance(current, type) and issubclass(current, msgspec.Struct) and isinstance(step, str):
            hints = typing.get_type_hints(current)
            current = _unwrap(hints.get(step))
        else:
            origin = typing.get_origin(current)
            args = typing.get_args(current)
            if origin in (list, tuple, frozenset, set) and args:
                current = _unwrap(args[0])
            elif origin in (dict, Mapping) and len(args) == 2:
                current = _unwrap(args[1])
            else:
                return None
    return current


def _field_names(kind: Any) -> tuple[str, ...]:
    if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        return tuple(kind.__struct_fields__)
    return ()
