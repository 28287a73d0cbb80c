"""The shared reader: bounded regular files, typed decoding, one line per problem."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import pytest

from tablekeeper.errors import ConfigError
from tablekeeper.schema import decode, parse_toml, read_text, read_toml


class Timing(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    debounce_s: float = 0.02


class Display(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    address: int
    role: str = "seat1"


class Station(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    timing: Timing = Timing()
    displays: tuple[Display, ...] = ()


def test_unknown_key_is_named_with_a_suggestion() -> None:
    with pytest.raises(ConfigError, match=r"^s.toml: displays\[1\]\.adress: unknown key \(did you mean 'address'\?\)$"):
        decode({"displays": [{"address": 1}, {"adress": 2}]}, Station, source="s.toml")
    with pytest.raises(ConfigError, match=r"timing\.debounce: unknown key \(did you mean 'debounce_s'\?\)"):
        decode({"timing": {"debounce": 1}}, Station, source="s.toml")


def test_wrong_type_and_missing_key_name_the_key() -> None:
    with pytest.raises(ConfigError, match=r"^s.toml: displays\[0\]\.address: Expected int, got str$"):
        decode({"displays": [{"address": "x"}]}, Station, source="s.toml")
    with pytest.raises(ConfigError, match=r"displays\[0\]: missing required key address"):
        decode({"displays": [{}]}, Station, source="s.toml")
    assert decode({"timing": {"debounce_s": 1}}, Station, source="s").timing.debounce_s == 1.0


def test_files_that_are_not_regular_or_too_big_are_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        read_text(fifo)
    with pytest.raises(ConfigError, match="not a regular file"):
        read_text("/dev/zero")
    with pytest.raises(ConfigError, match="is a directory"):
        read_text(tmp_path)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 2000)
    with pytest.raises(ConfigError, match="too large"):
        read_text(big, max_bytes=1000)
    binary = tmp_path / "ls"
    binary.write_bytes(b"\x7fELF\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8"):
        read_text(binary)


def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    with pytest.raises(ConfigError, match=r"deep.toml: .*nested too deeply|deep.toml: not valid TOML"):
        read_toml(deep)


def test_a_data_file_is_parsed_once_per_process_and_each_reader_gets_its_own_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from tablekeeper import games
    from tablekeeper.core.session import Session

    parsed: list[int] = []
    real = tomllib.loads

    def counting(text: str) -> dict[str, object]:
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(tomllib, "loads", counting)
    game = games.load("arkham")
    Session(game, seats=2, seed=1)  # reads its four data files (or finds them parsed by an earlier test)
    before = len(parsed)
    Session(game, seats=2, seed=2)  # a new game in the same process, as the demo mode starts one per visitor
    assert len(parsed) == before

    first = parse_toml("[a]\nb = [1, 2]\n", source="x.toml")
    first["a"]["b"].append(3)
    assert parse_toml("[a]\nb = [1, 2]\n", source="x.toml") == {"a": {"b": [1, 2]}}
