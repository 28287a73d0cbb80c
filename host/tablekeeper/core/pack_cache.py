"""The built-in packs' files parsed once per install, not once per process: like Python's ``.pyc``, each
pack folder's TOML files, their parsed tables and the pack's SHA-256 are kept as msgpack in the user's
cache directory, found by the folder's path and each file's size and modification time (and this
format's version). A new game then reaches its first frame without parsing its data files or loading
``hashlib``. The cache is only ever a shortcut: an entry is used only when every file's text equals the
one it was made from, and a missing, stale, corrupt or unwritable cache means the files are parsed and
hashed as they always were (one debug line), never an error."""


import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import msgspec

from tablekeeper import parsed_toml
from tablekeeper.cache_files import entry_path as entry_path_of
from tablekeeper.cache_files import write_whole
from tablekeeper.schema import plain
from tablekeeper.user_paths import cache_dir

FORMAT: Final = 1  # bump when the entry's layout or what it holds changes
MAX_ENTRY_BYTES: Final = 4_000_000
log = logging.getLogger(__name__)


class CachedFile(msgspec.Struct, array_like=True, frozen=True):
    name: str
    size: int
    mtime_ns: int
    text: str
    doc: msgspec.Raw  # the parsed table as msgpack: decoded by each reader (``schema.parse_toml``)


class Entry(msgspec.Struct, array_like=True, frozen=True):
    format: int
    folder: str
    files: tuple[CachedFile, ...]
    sha256: str


class Stamp(msgspec.Struct, frozen=True):
    """A TOML file of the folder as listed: its name, size and modification time (the cache's key)."""

    name: str
    size: int
    mtime_ns: int


def stamps(folder: Path) -> list[Stamp]:
    """The folder's regular ``.toml`` files by name (``OSError`` when it cannot be listed)."""
    found = []
    with os.scandir(folder) as it:
        for item in it:
            if item.name.endswith(".toml") and item.is_file():
                info = item.stat()
                found.append(Stamp(item.name, info.st_size, info.st_mtime_ns))
    return sorted(found, key=lambda s: s.name)


def entry_path(folder: Path) -> Path | None:
    """Where ``folder``'s entry lives: its absolute path, escaped into one file name (None when too long)."""
    path = entry_path_of(str(cache_dir()), "parsed", str(folder), ".msgpack")
    return None if path is None else Path(path)


def load(folder: Path, found: Sequence[Stamp], texts: Sequence[str]) -> Entry | None:
    """``folder``'s entry when it was made from exactly these files (names, sizes, times and texts);
    its tables are handed on to ``schema.parse_toml``. None on any miss."""
    path = entry_path(folder)
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_ENTRY_BYTES + 1)
        entry = msgspec.msgpack.decode(data, type=Entry)
    except FileNotFoundError:
        return None
    except (OSError, msgspec.DecodeError) as exc:
        log.debug("parsed-data cache %s not used: %s", path, exc)
        return None
    if not fresh(entry, folder, found, texts):
        return None
    for item in entry.files:
        parsed_toml.hand_on(item.text, bytes(item.doc))
    return entry


def fresh(entry: Entry, folder: Path, found: Sequence[Stamp], texts: Sequence[str]) -> bool:
    """Whether ``entry`` was made from these files: same format, folder, stamps and texts."""
    return (entry.format == FORMAT and entry.folder == str(folder.absolute()) and len(entry.files) == len(found)
            and all((f.name, f.size, f.mtime_ns) == (s.name, s.size, s.mtime_ns) and f.text == text
                    for f, s, text in zip(entry.files, found, texts, strict=True)))


def store(folder: Path, found: Sequence[Stamp], texts: Sequence[str], docs: Sequence[dict[str, Any]],
          sha256: str) -> None:
    """Keep ``folder``'s parse for the next process; best effort (a read-only or full disk keeps nothing)."""
    path = entry_path(folder)
    if path is None or not all(plain(doc) for doc in docs):
        return
    entry = Entry(FORMAT, str(folder.absolute()), tuple(
        CachedFile(s.name, s.size, s.mtime_ns, text, msgspec.Raw(msgspec.msgpack.encode(doc)))
        for s, text, doc in zip(found, texts, docs, strict=True)),
        sha256)
    if not write_whole(str(path), msgspec.msgpack.encode(entry)):
        log.debug("parsed-data cache %s not written", path)
