"""SQLite saves: resume exactly, refuse foreign or damaged files without touching them, export/import."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import StoreError
from tests.core.fixture_game import GAME


def play(session: Session, *lines: str) -> None:
    for line in lines:
        verb, *args = line.split()
        session.perform(Command(verb, tuple(args)))


def test_resume_gives_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "saves.sqlite"
    with Store.open(path) as store:
        s = Session(GAME, seats=2, seed=4)
        s.journal = store.create("main", s.setup)
        play(s, "draw bag", "next", "add doom +2", "undo", "redo", "next", "choose 2", "draw deck")
        expected, entries = s.state, s.log_length
    with Store.open(path) as store:
        saved = store.load("main")
        assert saved is not None and len(saved.entries) == entries
        again = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, entries=saved.entries)
        assert again.state == expected
        assert store.integrity() == "ok"
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_several_slots_and_campaign_records_and_counters(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite") as store:
        for slot in ("a", "b"):
            s = Session(GAME, seats=1, seed=1)
            s.journal = store.create(slot, s.setup)
            play(s, "add doom +1")
        assert store.slots() == ["a", "b"]
        store.save_campaign("night", "fixture", {"xp": {"1": 3}})
        store.bump("demos.started")
        store.bump("demos.started")
    with Store.open(tmp_path / "s.sqlite") as store:
        assert store.campaign("night") == {"xp": {"1": 3}}
        assert store.count("demos.started") == 2
        assert store.campaign("nope") is None


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"shopping list: milk, dice\n" * 40)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a Tablekeeper save file"):
        Store.open(path)
    assert path.read_bytes() == before


def test_another_programs_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_damaged_save_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store.open(path) as store:
        s = Session(GAME, seats=1, seed=1)
        s.journal = store.create("main", s.setup)
        play(s, *["add doom +1", "add doom -1"] * 200)
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    raw = bytearray(path.read_bytes())
    raw[4096 : 4096 * 3] = b"\xff" * (4096 * 2)  # scribble over two pages
    path.write_bytes(bytes(raw))
    with pytest.raises(StoreError, match="left untouched"):
        Store.open(path)
    assert path.read_bytes() == bytes(raw)


def test_export_import_round_trip(tmp_path: Path) -> None:
    with Store.open(tmp_path / "a.sqlite") as store:
        s = Session(GAME, seats=2, seed=9)
        s.journal = store.create("main", s.setup)
        play(s, "draw bag", "next", "next", "choose 1")
        lines = list(store.export_lines("main"))
    with Store.open(tmp_path / "b.sqlite") as other:
        saved = other.import_lines("copy", lines)
        again = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, entries=saved.entries)
        assert again.state == s.state
        with pytest.raises(StoreError, match="line 2: bad log entry"):
            other.import_lines("bad", [lines[0], "{not json"], source="bad.jsonl")


def test_the_save_page_cache_has_a_stated_bound(tmp_path: Path) -> None:
    """SQLite's page cache is the save's share of a long session's memory; it stops at CACHE_KIB
    (bench/bench_soak.py and docs/reliability.md give the figures)."""
    with Store.open(tmp_path / "s.sqlite") as store:
        assert store._db.execute("PRAGMA cache_size").fetchone()[0] == -Store.CACHE_KIB
    assert 0 < Store.CACHE_KIB < 2000
