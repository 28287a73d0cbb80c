"""The parsed-data cache of the built-in packs: what it gives back is what tomllib and SHA-256 give for
the same files, and an entry that does not match the files, or a cache that cannot be read or written,
is passed over without a word to the user."""

from __future__ import annotations

import math
import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tablekeeper import parsed_toml, schema
from tablekeeper.core import pack_cache, packs

GAMES = Path(packs.__file__).parent.parent / "games"
SHIPPED = sorted(p.parent.parent.name for p in GAMES.glob("*/data/pack.toml"))


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (``1 == 1.0 == True`` is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)))


@pytest.fixture(autouse=True)
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    forget()
    return tmp_path / "cache"


def forget() -> None:
    """This process's memory of parses: what a new process would start without."""
    schema._parsed.cache_clear()
    parsed_toml._HANDED.clear()


def copied(game: str, tmp_path: Path) -> Path:
    root = tmp_path / game / "data"
    shutil.copytree(GAMES / game / "data", root)
    return root


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_file_comes_back_from_the_cache_as_tomllib_parses_it(game: str) -> None:
    root = GAMES / game / "data"
    first = packs.read_builtin(game, root)  # a miss: parsed, hashed, kept
    forget()
    found = pack_cache.stamps(root)
    entry = pack_cache.load(root, found, [f.text for f in first.files])
    assert entry is not None
    assert [f.name for f in entry.files] == sorted(p.name for p in root.glob("*.toml"))
    for item in entry.files:
        shipped = tomllib.loads((root / item.name).read_text(encoding="utf-8"))
        assert same(msgspec.msgpack.decode(item.doc), shipped), item.name
    assert entry.sha256 == packs._digest(first.files)
    forget()
    again = packs.read_builtin(game, root)  # a hit
    assert again == first
    for f in again.files:
        assert same(schema.parse_toml(f.text, source=f.label), tomllib.loads(f.text)), f.name


def test_a_hit_neither_parses_nor_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    root = GAMES / "arkham" / "data"
    first = packs.read_builtin("arkham", root)
    forget()

    def refused(*_: object) -> Any:
        raise AssertionError("parsed or hashed on a hit")

    monkeypatch.setattr(tomllib, "loads", refused)
    monkeypatch.setattr(packs, "_digest", refused)
    again = packs.read_builtin("arkham", root)
    assert again.sha256 == first.sha256
    for f in again.files:
        schema.parse_toml(f.text, source=f.label)


@pytest.mark.parametrize("protection", [True, False], ids=["as-shipped", "protection-removed"])
def test_an_edit_that_keeps_the_size_and_time_is_not_answered_from_the_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, protection: bool) -> None:
    root = copied("arkham", tmp_path)
    before = packs.read_builtin("arkham", root)
    path = root / "chaos.toml"
    text = path.read_text(encoding="utf-8")
    info = path.stat()
    edited = _same_length_edit(text)
    path.write_text(edited, encoding="utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert pack_cache.stamps(root) == pack_cache.stamps(root)  # the key is unchanged
    if not protection:  # the key alone decides, as if the texts were not compared
        monkeypatch.setattr(pack_cache, "fresh", lambda entry, folder, found, texts: True)
    forget()
    after = packs.read_builtin("arkham", root)
    doc = schema.parse_toml(edited, source="chaos.toml")
    assert same(doc, tomllib.loads(edited))  # a parse is handed on by its text: an edited text is parsed
    if protection:
        assert after.sha256 == packs._digest(after.files) != before.sha256
    else:
        assert after.sha256 == before.sha256  # the stale hash: what the comparison of texts prevents


def _same_length_edit(text: str) -> str:
    """``text`` with one number's last digit changed: same length, different value."""
    for i, ch in enumerate(text):
        if ch.isdigit() and text[i - 1] in " =[,":
            return text[:i] + ("1" if ch != "1" else "2") + text[i + 1:]
    raise AssertionError("no number to change")


def test_a_damaged_table_inside_a_fitting_entry_is_parsed_from_the_text(tmp_path: Path) -> None:
    root = copied("arkham", tmp_path)
    good = packs.read_builtin("arkham", root)
    path = pack_cache.entry_path(root)
    assert path is not None
    entry = msgspec.msgpack.decode(path.read_bytes(), type=pack_cache.Entry)
    bad = [msgspec.Raw(b"\xa2\xff\xfe"), msgspec.Raw(msgspec.msgpack.encode([1, 2]))]  # not UTF-8; not a table
    files = tuple(msgspec.structs.replace(f, doc=bad[i % 2]) for i, f in enumerate(entry.files))
    path.write_bytes(msgspec.msgpack.encode(msgspec.structs.replace(entry, files=files)))
    forget()
    again = packs.read_builtin("arkham", root)
    assert again == good
    for f in again.files:
        assert same(schema.parse_toml(f.text, source=f.label), tomllib.loads(f.text)), f.name


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other-format", "other-folder", "empty"])
def test_a_damaged_entry_is_passed_over_and_written_again(tmp_path: Path, damage: str) -> None:
    root = copied("arkham", tmp_path)
    good = packs.read_builtin("arkham", root)
    path = pack_cache.entry_path(root)
    assert path is not None and path.is_file()
    data = path.read_bytes()
    entry = msgspec.msgpack.decode(data, type=pack_cache.Entry)
    path.write_bytes({"garbage": b"\x93not msgpack at all" * 40, "truncated": data[:len(data) // 2],
                      "other-format": msgspec.msgpack.encode(msgspec.structs.replace(entry, format=0)),
                      "other-folder": msgspec.msgpack.encode(msgspec.structs.replace(entry, folder="/else")),
                      "empty": b""}[damage])
    forget()
    assert pack_cache.load(root, pack_cache.stamps(root), [f.text for f in good.files]) is None
    again = packs.read_builtin("arkham", root)
    assert again == good
    assert path.read_bytes() == data  # written afresh


def test_a_cache_that_cannot_be_written_or_read_changes_nothing(tmp_path: Path, cache_home: Path) -> None:
    cache_home.parent.mkdir(parents=True, exist_ok=True)
    cache_home.write_text("a file where the cache folder would be")
    root = copied("oathsworn", tmp_path)
    first = packs.read_builtin("oathsworn", root)
    forget()
    assert packs.read_builtin("oathsworn", root) == first
    assert cache_home.read_text() == "a file where the cache folder would be"
