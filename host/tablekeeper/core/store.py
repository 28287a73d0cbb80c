"""Saves in SQLite: an append-only log per session, WAL with ``synchronous=FULL`` so an entry that
was acknowledged survives a pulled plug. Several save slots, campaign records that outlive a
session, small named counters (demo statistics), and JSON-lines export/import.

A file that is not a Tablekeeper store (corrupt, or another program's database) is refused with
one line and never written to.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekeeper.core.session import Entry, Setup
from tablekeeper.errors import StoreError

APPLICATION_ID = 0x54424B50  # "TBKP"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    slot TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    seats INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    campaign TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    slot TEXT NOT NULL REFERENCES sessions(slot) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (slot, idx)
);
CREATE TABLE IF NOT EXISTS campaigns (
    name TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
"""


@dataclass(frozen=True)
class SavedSession:
    slot: str
    setup: Setup
    entries: tuple[Entry, ...]


class Store:
    """One SQLite file. Open it with :meth:`open`; every write is its own committed transaction."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open(cls, path: str | Path) -> Store:
        p = Path(path)
        if p.is_dir():
            raise StoreError(f"{p}: is a directory, not a save file")
        if p.exists() and p.stat().st_size > 0:
            with p.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StoreError(f"{p}: not a Tablekeeper save file (not SQLite); left untouched")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(p, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{p}: cannot open save file: {exc}") from None
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id != APPLICATION_ID and tables:
                raise StoreError(f"{p}: a database of another program, not a Tablekeeper save; left untouched")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{p}: saved by a newer Tablekeeper (schema {version}); left untouched")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            if not tables:
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.executescript(SCHEMA)
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StoreError(f"{p}: save file is damaged ({check}); left untouched")
        except sqlite3.DatabaseError as exc:
            db.close()
            raise StoreError(f"{p}: damaged or not a save file ({exc}); left untouched") from None
        except StoreError:
            db.close()
            raise
        return cls(p, db)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sessions ------------------------------------------------------------------------------
    def slots(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT slot FROM sessions ORDER BY slot")]

    def create(self, slot: str, setup: Setup, campaign: str | None = None) -> SessionJournal:
        with self._write():
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))
            self._db.execute(
                "INSERT INTO sessions (slot, game, seats, seed, options, campaign) VALUES (?, ?, ?, ?, ?, ?)",
                (slot, setup.game, setup.seats, setup.seed, json.dumps(dict(setup.options)), campaign),
            )
        return SessionJournal(self, slot)

    def load(self, slot: str) -> SavedSession | None:
        row = self._db.execute("SELECT game, seats, seed, options FROM sessions WHERE slot = ?",
                               (slot,)).fetchone()
        if row is None:
            return None
        try:
            setup = Setup(str(row[0]), int(row[1]), int(row[2]), json.loads(row[3]))
            entries = tuple(Entry.from_json(json.loads(body)) for (body,) in self._db.execute(
                "SELECT body FROM entries WHERE slot = ? ORDER BY idx", (slot,)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreError(f"{self.path}: slot {slot!r} holds a damaged log ({exc})") from None
        return SavedSession(slot, setup, entries)

    def journal(self, slot: str) -> SessionJournal:
        return SessionJournal(self, slot)

    def append(self, slot: str, entry: Entry) -> None:
        with self._write():
            self._db.execute("INSERT INTO entries (slot, idx, body) VALUES (?, ?, ?)",
                             (slot, entry.index, json.dumps(entry.to_json(), separators=(",", ":"))))

    def delete(self, slot: str) -> None:
        with self._write():
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))

    # --- export / import ------------------------------------------------------------------------
    def export_lines(self, slot: str) -> Iterator[str]:
        saved = self.load(slot)
        if saved is None:
            raise StoreError(f"{self.path}: no session in slot {slot!r}")
        yield json.dumps({"tablekeeper": SCHEMA_VERSION, "setup": saved.setup.to_json()})
        for entry in saved.entries:
            yield json.dumps(entry.to_json(), separators=(",", ":"))

    def import_lines(self, slot: str, lines: list[str], source: str = "import") -> SavedSession:
        """Import a session exported by :meth:`export_lines`; validates everything before writing."""
        rows = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
        if not rows:
            raise StoreError(f"{source}: empty file")
        try:
            head = json.loads(rows[0][1])
            raw_setup = head["setup"]
            setup = Setup(str(raw_setup["game"]), int(raw_setup["seats"]), int(raw_setup["seed"]),
                          dict(raw_setup.get("options", {})))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise StoreError(f"{source}: line 1: not a Tablekeeper session export") from None
        entries: list[Entry] = []
        for n, line in rows[1:]:
            try:
                entry = Entry.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise StoreError(f"{source}: line {n}: bad log entry ({exc})") from None
            if entries and entry.index <= entries[-1].index:
                raise StoreError(f"{source}: line {n}: entry {entry.index} does not follow entry "
                                 f"{entries[-1].index}")
            entries.append(entry)
        with self._write():  # the slot is replaced whole or not at all
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))
            self._db.execute(
                "INSERT INTO sessions (slot, game, seats, seed, options, campaign) VALUES (?, ?, ?, ?, ?, NULL)",
                (slot, setup.game, setup.seats, setup.seed, json.dumps(dict(setup.options))),
            )
            for entry in entries:
                self._db.execute("INSERT INTO entries (slot, idx, body) VALUES (?, ?, ?)",
                                 (slot, entry.index, json.dumps(entry.to_json(), separators=(",", ":"))))
        return SavedSession(slot, setup, tuple(entries))

    # --- campaigns and counters ----------------------------------------------------------------
    def campaign(self, name: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT body FROM campaigns WHERE name = ?", (name,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def save_campaign(self, name: str, game: str, body: Mapping[str, Any]) -> None:
        with self._write():
            self._db.execute("INSERT OR REPLACE INTO campaigns (name, game, body) VALUES (?, ?, ?)",
                             (name, game, json.dumps(dict(body))))

    def bump(self, name: str, by: int = 1) -> int:
        with self._write():
            self._db.execute("INSERT INTO counters (name, value) VALUES (?, ?) "
                             "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", (name, by))
        return self.count(name)

    def count(self, name: str) -> int:
        row = self._db.execute("SELECT value FROM counters WHERE name = ?", (name,)).fetchone()
        return 0 if row is None else int(row[0])

    def integrity(self) -> str:
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def _write(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self._path = path

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                self._db.execute("ROLLBACK")
                raise StoreError(f"{self._path}: could not save: {err}") from None
        else:
            self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"{self._path}: could not save: {exc}") from None


@dataclass
class SessionJournal:
    """The store seen from one session: appends entries to its slot."""

    store: Store
    slot: str

    def append(self, entry: Entry) -> None:
        self.store.append(self.slot, entry)


__all__ = ["SavedSession", "SessionJournal", "Store"]
