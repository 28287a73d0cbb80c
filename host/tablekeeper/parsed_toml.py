"""TOML texts already parsed in this process, handed on to the next reader of the same text: the Pi's
start-up splash parses the station config with the standard library before msgspec loads, and the
config's checks then take that parse instead of parsing the same file again. The built-in packs' files come
the same way from their cache (``core/pack_cache.py``). Standard library only, so the splash can use it
before its frame."""

from __future__ import annotations

from typing import Any

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
