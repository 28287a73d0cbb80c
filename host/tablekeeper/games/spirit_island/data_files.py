"""The one reader of Spirit Island's data files (table data, Spirits, Power Cards): the packaged
copy under ``data/`` or a user's file option, parsed and checked once per file and kept.

The key is a hash of the option value, which for a saved session carries the file's content, so a
replayed save never meets data parsed from another copy; a few are kept (a station that plays for
days with users' files must not keep every copy it ever read)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from importlib import resources
from typing import TypeVar, cast

from tablekeeper.core.file_options import option_file
from tablekeeper.schema import parse_toml

T = TypeVar("T")

KEEP = 16  # parsed files kept: the three packaged ones and a few users' copies
_CACHE: OrderedDict[tuple[str, str], object] = OrderedDict()


def _packaged(name: str) -> tuple[str, str]:
    text = resources.files("tablekeeper.games.spirit_island").joinpath(f"data/{name}").read_text("utf-8")
    return f"spirit_island/data/{name}", text


def load_tables(names: tuple[str, ...], path: str | None,
                convert: Callable[[list[tuple[Mapping[str, object], str]]], T]) -> T:
    """The packaged files ``names`` and then the file option ``path`` (whose tables replace the
    packaged ones), parsed, as ``convert`` turns the parsed documents and their labels into a record."""
    key = ("+".join(names), hashlib.sha256((path or "").encode()).hexdigest())
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return cast(T, _CACHE[key])  # stored below by this ``convert``
    files = [_packaged(name) for name in names]
    if path is not None:
        files.append(option_file(path))
    value = convert([(parse_toml(text, source=source), source) for source, text in files])
    _CACHE[key] = value
    while len(_CACHE) > KEEP:
        _CACHE.popitem(last=False)
    return value


def load(name: str, path: str | None, convert: Callable[[Mapping[str, object], str], T]) -> T:
    """``data/NAME`` from the package (``path`` None) or the file option ``path``, as ``convert``
    turns the parsed TOML (and a label naming the file) into a typed record."""
    key = (name, hashlib.sha256((path or "").encode()).hexdigest())
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return cast(T, _CACHE[key])  # stored below by this ``convert``
    if path is None:
        source, text = _packaged(name)
    else:
        source, text = option_file(path)
    value = convert(parse_toml(text, source=source), source)
    _CACHE[key] = value
    while len(_CACHE) > KEEP:
        _CACHE.popitem(last=False)
    return value
