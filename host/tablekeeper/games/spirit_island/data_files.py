"""The one reader of Spirit Island's data files (table data, Spirits, Power Cards): the packaged
copy under ``data/`` or a user's file option, with the entries of the session's packs added, parsed
and checked once per file and kept.

The key is a hash of the option value, which for a saved session carries the file's content, and
of the packs' hashes, so a replayed save never meets data parsed from another copy; a few are kept
(a station that plays for days with users' files must not keep every copy it ever read)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any, TypeVar, cast

from tablekeeper.core import packs as packlib
from tablekeeper.core.file_options import option_file
from tablekeeper.schema import parse_toml

T = TypeVar("T")

PACKAGE = "tablekeeper.games.spirit_island"
KEEP = 16  # parsed files kept: the packaged ones and a few users' copies
_CACHE: OrderedDict[tuple[str, str], object] = OrderedDict()

# What a pack's copy of each file adds: a table of entries by key (None), or an array of tables
# whose rows are named by that field (a dotted path reaches into a table).
PACK_TABLES: dict[str, dict[str, str | None]] = {
    "spirits.toml": {"spirits": None},
    "powers.toml": {"cards": "name"},
    "adversaries.toml": {"adversaries": None},
    "boards.toml": {"boards": None},
    "fear_cards.toml": {"fear_cards": "name"},
    "blight_cards.toml": {"blight_cards.cards": "name"},
}


def with_packs(name: str, doc: dict[str, Any], source: str, packs: Sequence[packlib.Pack]) -> dict[str, Any]:
    """``doc`` with the entries each pack's copy of ``name`` adds; a pack's copy holding anything
    else, or a name already taken, is one line naming the pack's file."""
    added = packlib.layers([p for p in packs if p.where != packlib.BUILTIN_WHERE], name)
    if not added:
        return doc
    tables = PACK_TABLES.get(name, {})
    found = [packlib.Layer(packlib.BUILTIN, source, doc), *added]
    packlib.only(found, tuple(tables))
    from tablekeeper.games.spirit_island.pack import SCHEMA  # the schema reads this module's readers

    spec = SCHEMA.spec(name)
    if spec is not None:
        packlib.check_entries(found, spec)
    out = dict(doc)
    for table, id_field in tables.items():
        if id_field is None:
            merged: Any = {key: value for _, key, value in packlib.entries(found, table)}
        else:
            merged = [value for _, _, value in packlib.rows(found, table, id_field)]
        parent, _, child = table.rpartition(".")
        if parent:  # a table inside a table ([[blight_cards.cards]])
            out[parent] = {**packlib.at(out, parent, {}), child: merged}
        else:
            out[table] = merged
    return out


def _key(names: str, path: str | None, packs: Sequence[packlib.Pack]) -> tuple[str, str]:
    digest = hashlib.sha256((path or "").encode())
    for pack in packs:
        digest.update(pack.sha256.encode())
    return names, digest.hexdigest()


def _packaged(name: str) -> tuple[str, str]:
    text = resources.files(PACKAGE).joinpath(f"data/{name}").read_text("utf-8")
    return f"spirit_island/data/{name}", text


def load_tables(names: tuple[str, ...], path: str | None,
                convert: Callable[[list[tuple[Mapping[str, object], str]]], T],
                packs: Sequence[packlib.Pack] = ()) -> T:
    """The packaged files ``names`` (with the entries the ``packs`` add) and then the file option
    ``path`` (whose tables replace the packaged ones), parsed, as ``convert`` turns the parsed
    documents and their labels into a record."""
    key = _key("+".join(names), path, packs)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return cast(T, _CACHE[key])  # stored below by this ``convert``
    parts: list[tuple[Mapping[str, object], str]] = []
    for name in names:
        source, text = _packaged(name)
        parts.append((with_packs(name, parse_toml(text, source=source), source, packs), source))
    if path is not None:
        source, text = option_file(path)
        parts.append((parse_toml(text, source=source), source))
    value = convert(parts)
    _CACHE[key] = value
    while len(_CACHE) > KEEP:
        _CACHE.popitem(last=False)
    return value


def load(name: str, path: str | None, convert: Callable[[Mapping[str, object], str], T],
         packs: Sequence[packlib.Pack] = ()) -> T:
    """``data/NAME`` from the package (``path`` None) or the file option ``path``, with what the
    ``packs`` add, as ``convert`` turns the parsed TOML (and a label naming the file) into a typed record."""
    key = _key(name, path, packs)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return cast(T, _CACHE[key])  # stored below by this ``convert``
    source, text = _packaged(name) if path is None else option_file(path)
    value = convert(with_packs(name, parse_toml(text, source=source), source, packs), source)
    _CACHE[key] = value
    while len(_CACHE) > KEEP:
        _CACHE.popitem(last=False)
    return value
