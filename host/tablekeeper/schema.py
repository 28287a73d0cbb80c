"""Reading the project's own files: bounded in size and type, decoded by msgspec into typed records.

Every file a user points the station at (the station config, a game's data file, a script) goes
through here, so a FIFO, ``/dev/zero``, a binary, a 3,000-deep table or a misspelt key each end as
one ``ConfigError`` line naming the file and the key, never a hang or a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import os
import re
import stat
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec

from tablekeeper import parsed_toml
from tablekeeper.errors import ConfigError

T = TypeVar("T")

MAX_DATA_BYTES: Final = 1_000_000
"""The largest data or config file read (the biggest shipped one is under 20 kB)."""

_AT: Final = r"(?s)^(?P<problem>.*?)(?: - at (?P<in_key>`key` in )?`\$(?P<path>[^`]*)`)?$"
_UNKNOWN: Final = r"^Object contains unknown field `(?P<field>[^`]*)`$"
_STEP: Final = r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\[\"([^\"]*)\"\]|(\[\.\.\.\])"
_NOT_GIVEN: Final = object()
# The patterns above and below are compiled on first use (``re`` keeps them): only a file with a problem
# needs them, and compiling them all cost a new game's first frame 3 M instructions.
_BARE_KEY: Final = r"^[A-Za-z0-9_-]+$"  # TOML's bare keys; any other key is shown quoted
_TOML_AT: Final = r"\(at line (\d+), column \d+\)"  # where tomllib's message says it stopped


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
    except ValueError as exc:  # tomllib's TOMLDecodeError (a ValueError): tomllib loads only to parse
        import tomllib

        if not isinstance(exc, tomllib.TOMLDecodeError):
            raise
        at = re.compile(_TOML_AT).search(str(exc))
        raise ConfigError(f"{source}: not valid TOML: {exc}", file=source,
                          line=int(at.group(1)) if at else None) from None
    except RecursionError:
        raise ConfigError(f"{source}: tables or arrays nested too deeply", file=source) from None


PARSED_KEPT_MAX_CHARS: Final = 64_000  # the shipped data files are under 10 kB; a huge one is parsed each time
PARSED_KEPT: Final = 32  # distinct texts kept: a few hundred kB at most


_PLAIN: Final = (str, int, float, bool)


def plain(value: Any) -> bool:
    """Whether msgpack gives ``value`` back as it is: TOML's dates and times would come back as text."""
    if type(value) is dict:
        return all(type(k) is str and plain(v) for k, v in value.items())
    if type(value) is list:
        return all(plain(v) for v in value)
    return type(value) in _PLAIN


@functools.lru_cache(maxsize=PARSED_KEPT)
def _parsed(text: str) -> dict[str, Any] | bytes:
    """The parse of ``text``, kept: as msgpack when it round-trips (each reader's copy is then one C-level
    decode, not a ``deepcopy``), else as the table itself. The splash's parse of the station config and
    the built-in packs' cached parses (already msgpack) are taken instead of parsing again."""
    handed = parsed_toml.take(text)
    if isinstance(handed, bytes):
        return handed
    doc = _loads(text) if handed is None else handed
    try:
        return msgspec.msgpack.encode(doc) if plain(doc) else doc
    except RecursionError:  # nested deeper than a walk recurses: kept as it is
        return doc


def _own_copy(text: str) -> dict[str, Any]:
    if len(text) > PARSED_KEPT_MAX_CHARS:
        return _loads(text)
    kept = _parsed(text)
    if isinstance(kept, bytes):
        try:
            doc = msgspec.msgpack.decode(kept)
        except ValueError:  # a damaged cache entry (msgspec.DecodeError, bad UTF-8): the text is the truth
            doc = None
        return doc if type(doc) is dict else _loads(text)
    try:
        return copy.deepcopy(kept)
    except RecursionError:  # deeper than deepcopy recurses (tomllib reads dotted keys without recursing)
        return _loads(text)


def _loads(text: str) -> dict[str, Any]:
    """``tomllib.loads``: the parser loads the first time a text is not handed on (a start whose config and
    packs come from their caches loads none)."""
    import tomllib

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
        raise ConfigError(f"{source}: tables or arrays nested too deeply", file=source, key=prefix or None) from None
    except msgspec.ValidationError as exc:
        key, problem = _explained(exc, kind, prefix=prefix, raw=raw)
        raise fail(source, key, problem) from None


def fail(source: str, key: str, problem: str) -> ConfigError:
    """The one-line error ``source: key: problem``, with the file and key kept as data."""
    return ConfigError(f"{source}: {key or '(top level)'}: {problem}", file=source, key=key)


def explain(exc: msgspec.ValidationError, kind: type[Any], *, source: str, prefix: str = "",
            raw: Any = _NOT_GIVEN) -> str:
    """One line for a msgspec validation error: the file, the dotted key, the problem, a suggestion.

    msgspec writes a table key it does not know in advance as ``[...]`` (a deck's card face, say);
    given the ``raw`` value that failed, the key is found again and named."""
    key, problem = _explained(exc, kind, prefix=prefix, raw=raw)
    return f"{source}: {key or '(top level)'}: {problem}"


def _explained(exc: msgspec.ValidationError, kind: type[Any], *, prefix: str = "",
               raw: Any = _NOT_GIVEN) -> tuple[str, str]:
    """(dotted key, problem) of a msgspec validation error."""
    match = re.compile(_AT).match(str(exc))
    problem = match.group("problem") if match else str(exc)
    path = (match.group("path") or "") if match else ""
    steps = _steps(path)
    if raw is not _NOT_GIVEN:
        steps = _name_keys(raw, kind, steps, bad_key=bool(match and match.group("in_key")))
    unknown = re.compile(_UNKNOWN).match(problem)
    if unknown:
        field = unknown.group("field")
        key = _dotted(prefix, [*steps, field])
        known = _field_names(_type_at(kind, steps))
        import difflib  # only for a misspelt key: not on every start-up

        close = difflib.get_close_matches(field, known, n=1, cutoff=0.6)
        if not close:
            close = [k for k in known if k.startswith(field) or field.startswith(k)][:1]
        hint = f" (did you mean {close[0]!r}?)" if close else (f" (known: {', '.join(known)})" if known else "")
        return key, f"unknown key{hint}"
    key = _dotted(prefix, steps)
    problem = problem.replace("Object missing required field", "missing required key")
    problem = problem.replace("Object", "table").replace("`", "")
    return key, problem


def _steps(path: str) -> list[str | int | None]:
    """The steps of a msgspec path; ``None`` for a table key msgspec left out (``[...]``)."""
    out: list[str | int | None] = []
    for name, index, quoted, unnamed in re.compile(_STEP).findall(path):
        out.append(None if unnamed else int(index) if index else (name or quoted))
    return out


def _name_keys(raw: Any, kind: Any, steps: list[str | int | None], *, bad_key: bool) -> list[str | int | None]:
    """``steps`` with each unnamed table key replaced by the first entry that fails on its own
    (msgspec checks a table's entries in order, so that is the one it reported). With ``bad_key``
    the problem is a key itself, named the same way and added as the last step."""
    named: list[str | int | None] = []
    value, declared = raw, _unwrap(kind)
    walk = [*steps, None] if bad_key else steps
    for at, step in enumerate(walk):
        if step is None:
            key_type, value_type = _table_types(declared)
            keys_only = bad_key and at == len(walk) - 1
            found = None
            if isinstance(value, dict) and key_type is not None:
                for key, entry in value.items():
                    if not _converts(key, key_type) or (not keys_only and not _converts(entry, value_type)):
                        found = key
                        break
            if found is None:
                named.append(None)
                value, declared = _NOT_GIVEN, None
                continue
            named.append(str(found))
            value, declared = value[found], _unwrap(value_type)
            continue
        named.append(step)
        if isinstance(step, int):
            value = value[step] if isinstance(value, list) and 0 <= step < len(value) else _NOT_GIVEN
        else:
            value = value.get(step, _NOT_GIVEN) if isinstance(value, dict) else _NOT_GIVEN
        declared = _type_at(declared, [step]) if declared is not None else None
    return named


def _table_types(declared: Any) -> tuple[Any, Any]:
    if typing.get_origin(declared) in (dict, Mapping):
        args = typing.get_args(declared)
        if len(args) == 2:
            return args[0], args[1]
    return None, None


def _converts(value: Any, kind: Any) -> bool:
    try:
        msgspec.convert(value, type=kind, strict=True)
    except (msgspec.ValidationError, RecursionError):
        return False
    return True


def _dotted(prefix: str, steps: list[str | int | None]) -> str:
    text = prefix
    for step in steps:
        if isinstance(step, int):
            text += f"[{step}]"
        elif step is None:
            text += "[...]"
        elif not re.compile(_BARE_KEY).match(step):
            quoted = '"' + step.replace("\\", "\\\\").replace('"', '\\"') + '"'
            text += f".{quoted}" if text else quoted
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


def _type_at(kind: Any, steps: list[str | int | None]) -> Any:
    """The declared type found by walking ``steps`` through a Struct tree (``None`` when lost)."""
    current = _unwrap(kind)
    for step in steps:
        if isinstance(current, type) and issubclass(current, msgspec.Struct) and isinstance(step, str):
            hints = typing.get_type_hints(current, include_extras=True)
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


Step = str | int


def key_steps(key: str) -> tuple[Step, ...]:
    """``scenarios.x.agendas[0].doom`` or ``allies."Guard Dog".cost`` (as ``_dotted`` writes keys) as its steps."""
    return tuple(int(index) if index else (quoted.replace('\\"', '"') if quoted else name)
                 for name, quoted, index in re.compile(_KEY_STEP).findall(key))


def key_line(text: str, key: str) -> int | None:
    """The line of ``text`` (TOML) where ``key`` is written, or where its nearest written parent is:
    what a checker shows beside a problem. None when nothing of it is found (a key left out at the top)."""
    found = _KeyLines(text).scan()
    steps = key_steps(key)
    for end in range(len(steps), 0, -1):
        if steps[:end] in found:
            return found[steps[:end]]
    return None


class _KeyLines:
    """Where each key, array element and table header of a TOML text starts (line numbers from 1).

    Only the shape is read (tomllib has already judged the text); anything unexpected ends the scan
    with what was found so far."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.found: dict[tuple[Step, ...], int] = {}
        self.starts = [0] + [n + 1 for n, ch in enumerate(text) if ch == "\n"]

    def scan(self) -> dict[tuple[Step, ...], int]:
        with contextlib.suppress(IndexError, ValueError):  # a shape it does not know: stop there
            self._document()
        return self.found

    def _line(self) -> int:
        import bisect

        return bisect.bisect_right(self.starts, self.i)

    def _mark(self, path: tuple[Step, ...]) -> None:
        self.found.setdefault(path, self._line())

    def _blank(self, newlines: bool) -> None:
        s = self.s
        while self.i < len(s):
            ch = s[self.i]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.i += 1
            elif ch == "#":
                end = s.find("\n", self.i)
                self.i = len(s) if end < 0 else end
            else:
                return

    def _string(self) -> str:
        s, q = self.s, self.s[self.i]
        if s.startswith(q * 3, self.i):
            end = s.index(q * 3, self.i + 3)
            while s.startswith(q, end + 3):  # up to two quotes may close the string's content
                end += 1
            self.i = end + 3
            return ""
        j = self.i + 1
        while s[j] != q:
            j += 2 if q == '"' and s[j] == "\\" else 1
        text = s[self.i + 1:j]
        self.i = j + 1
        return text

    def _key(self) -> tuple[str, ...]:
        parts = []
        while True:
            self._blank(False)
            if self.s[self.i] in "\"'":
                parts.append(self._string())
            else:
                match = re.compile(_BARE_AT).match(self.s, self.i)
                if match is None:
                    raise ValueError("not a key")
                parts.append(match.group())
                self.i = match.end()
            self._blank(False)
            if self.s[self.i] != ".":
                return tuple(parts)
            self.i += 1

    def _value(self, path: tuple[Step, ...]) -> None:
        self._blank(False)
        ch = self.s[self.i]
        if ch in "\"'":
            self._string()
        elif ch == "[":
            self.i += 1
            index = 0
            while True:
                self._blank(True)
                if self.s[self.i] == "]":
                    self.i += 1
                    return
                self._mark((*path, index))
                self._value((*path, index))
                self._blank(True)
                if self.s[self.i] == ",":
                    self.i += 1
                    index += 1
        elif ch == "{":
            self.i += 1
            while True:
                self._blank(False)
                if self.s[self.i] == "}":
                    self.i += 1
                    return
                key = (*path, *self._key())
                self._mark(key)
                self.i = self.s.index("=", self.i) + 1
                self._value(key)
                self._blank(False)
                if self.s[self.i] == ",":
                    self.i += 1
        else:
            match = re.compile(_SCALAR_AT).match(self.s, self.i)
            self.i = match.end() if match else self.i + 1

    def _document(self) -> None:
        table: tuple[Step, ...] = ()
        arrays: dict[tuple[Step, ...], int] = {}  # an array of tables (its path) -> its last index
        while True:
            self._blank(True)
            if self.i >= len(self.s):
                return
            if self.s[self.i] == "[":
                double = self.s.startswith("[[", self.i)
                self.i += 2 if double else 1
                names = self._key()
                self.i += 2 if double else 1
                path: tuple[Step, ...] = ()
                for name in names[:-1]:
                    path = (*path, name)
                    self._mark(path)  # a table first met as a parent ([a.b] makes a)
                    if path in arrays:
                        path = (*path, arrays[path])
                path = (*path, names[-1])
                if double:
                    arrays[path] = arrays.get(path, -1) + 1
                    self._mark(path)
                    path = (*path, arrays[path])
                self._mark(path)
                table = path
            else:
                key = (*table, *self._key())
                self._mark(key)
                self.i = self.s.index("=", self.i) + 1
                self._value(key)


_BARE_AT: Final = r"[A-Za-z0-9_-]+"
_KEY_STEP: Final = r'([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|\[(\d+)\]'
_SCALAR_AT: Final = r"[^,\]\}\n#]+"
