"""TOML texts already parsed, handed on to the next reader of the same text: the Pi's start-up splash
parses the station config before msgspec loads, and the config's checks then take that parse instead of
parsing the same file again. The built-in packs' files come the same way from their cache
(``core/pack_cache.py``); the station config's parse is kept beside them (``load_kept``), so a start
whose config did not change loads no TOML parser at all. Standard library only, so the splash can use
it before its frame."""

from __future__ import annotations

import contextlib
import marshal
from typing import Any, Final

from tablekeeper.cache_files import entry_path, write_whole

FORMAT: Final = 1  # of a kept parse: bump when what it holds changes
MAX_KEPT_BYTES: Final = 1 << 20

_HANDED: dict[str, dict[str, Any] | bytes] = {}
HANDED_MAX = 32  # a game's data files and the config: each is taken once


def hand_on(text: str, doc: dict[str, Any] | bytes) -> None:
    """Keep ``doc`` (``tomllib.loads(text)``, which the caller will not change, or the same as msgpack) for
    the next parse of ``text``."""
    if len(_HANDED) < HANDED_MAX:
        _HANDED[text] = doc


def take(text: str) -> dict[str, Any] | bytes | None:
    """The parse handed on for ``text``, once; None when there is none."""
    return _HANDED.pop(text, None)


def kept_path(path: str, cache: str) -> str | None:
    """Where the parse of the TOML file at ``path`` is kept under ``cache`` (None: the name is too long)."""
    return entry_path(cache, "parsed", path, ".toml.marshal")


def load_kept(text: str, kept: str | None) -> dict[str, Any]:
    """``tomllib.loads(text)``, taken from the file ``kept`` when it holds the parse of this very text
    (a C-level ``marshal`` load), else parsed and kept there for the next process (best effort: a
    missing, stale, damaged or unwritable file only means parsing). Raises as ``tomllib.loads`` does."""
    if kept is not None:
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            with open(kept, "rb") as file:
                form, was, doc = marshal.loads(file.read(MAX_KEPT_BYTES))
            if form == FORMAT and was == text and type(doc) is dict:
                return doc
    import tomllib

    doc = tomllib.loads(text)
    if kept is not None:
        with contextlib.suppress(ValueError):  # TOML dates do not marshal: nothing kept
            write_whole(kept, marshal.dumps((FORMAT, text, doc)))
    return doc
