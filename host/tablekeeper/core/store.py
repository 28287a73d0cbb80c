"""Saves in SQLite: an append-only log per session, WAL with ``synchronous=FULL`` so an entry that
was acknowledged survives a pulled plug, and a checkpoint after every write, before the caller
acknowledges it, so an acknowledged entry is in the main file and a lost or cut write-ahead log
cannot take it away. Several save slots, campaign records that outlive a session, small named
counters (demo statistics), and JSON-lines export/import.

Beside the save, ``<save>.tally`` records each slot's count of acknowledged entries and the last
one's checksum (synced after each write): a save that comes back shorter, or with a different last
entry (its journal lost before a checkpoint, an old copy put back), is refused naming how many are
missing instead of resuming short in silence.

A save is verified whole before it is resumed (SQLite's full integrity check, contiguous entry
numbers, a CRC32 per entry, UTF-8 bodies that parse as log entries); one that fails is refused with
one line pointing at ``tablekeeper saves check`` / ``export --good-only`` and is never written to.
One process at a time writes a save: a sidecar ``.lock`` file holds an ``flock`` and the holder's PID.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from tablekeeper.core import snapshot
from tablekeeper.core.session import MAX_SEED as MAX_SEED
from tablekeeper.core.session import Entry, Setup
from tablekeeper.errors import StoreError

APPLICATION_ID = 0x54424B50  # "TBKP"
SCHEMA_VERSION = 2
"""1: entries without checksums (still read, verified as far as they can be); 2: a CRC32 per entry."""

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
    crc INTEGER NOT NULL,
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
SNAPSHOTS = """
CREATE TABLE IF NOT EXISTS snapshots (
    slot TEXT NOT NULL REFERENCES sessions(slot) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    position INTEGER NOT NULL,
    last INTEGER NOT NULL,
    key TEXT NOT NULL,
    body BLOB NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (slot, idx)
)
"""
"""A slot's newest states (``core.snapshot``), each written with the entry it follows: a cache of the
log a resume starts from. An optional table: the schema version stays, a save without it still opens
(it is added when the save is next opened for writing), and an older Tablekeeper never reads it."""
KEEP_SNAPSHOTS = 2
"""Snapshots kept per slot: the newest, and one before it for an undo that reaches behind the newest."""

"""SQLite stores a signed 64-bit integer; a larger seed could never be saved."""


class SaveFullError(StoreError):
    """The disk (or the save) is full: the entry was not written and the command not acknowledged."""


class SaveReadOnlyError(StoreError):
    """The save (or its folder) cannot be written: a station may still play, unsaved, and say so."""


TALLY_SUFFIX = ".tally"
TALLY_VERSION = 1


def checksum(body: str) -> int:
    """The CRC32 stored beside each entry body (its canonical JSON, UTF-8)."""
    return zlib.crc32(body.encode("utf-8"))


def entry_body(entry: Entry) -> str:
    return json.dumps(entry.to_json(), separators=(",", ":"))


class SavedSession(msgspec.Struct, frozen=True):
    slot: str
    setup: Setup
    entries: tuple[Entry, ...]
    snapshots: tuple[snapshot.Stored, ...] = ()


class SlotCheck(msgspec.Struct, frozen=True):
    """What verifying one slot found: its good entries, and the first problem (``None``: all good)."""

    slot: str
    setup: Setup | None
    entries: tuple[Entry, ...]
    problem: str | None


class Verification(msgspec.Struct, frozen=True):
    """A whole save file checked: SQLite's integrity check and every slot's log."""

    path: Path
    integrity: str
    checksums: bool
    slots: tuple[SlotCheck, ...]
    missing: str | None = None
    """What the tally says is gone (acknowledged entries the file no longer holds), if anything."""

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and all(s.problem is None for s in self.slots) and self.missing is None

    def first_problem(self) -> str:
        if self.integrity != "ok":
            return f"integrity check: {self.integrity}"
        bad = next((s for s in self.slots if s.problem is not None), None)
        if bad is None:
            return self.missing or "no problem"
        return f"slot {bad.slot!r}: {bad.problem}"

    def slot(self, name: str) -> SlotCheck | None:
        return next((s for s in self.slots if s.slot == name), None)


def verify(db: sqlite3.Connection, path: Path, tally: Mapping[str, tuple[int, int]] | None = None) -> Verification:
    """Read every slot straight from the tables (``NOT INDEXED``, so a damaged index cannot hide or
    repeat rows) and check numbering, checksums, UTF-8 and entry shape, and against ``tally`` (what
    was acknowledged) that nothing is missing at the end; only reads."""
    integrity = "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check(8)"))
    columns = {str(r[1]) for r in db.execute("PRAGMA table_info(entries)")}
    checksums = "crc" in columns
    crc_column = "crc" if checksums else "NULL"
    sessions = db.execute("SELECT slot, game, seats, seed, options FROM sessions NOT INDEXED").fetchall()
    rows: dict[str, list[tuple[int, bytes, int | None]]] = {}
    for slot, idx, body, crc in db.execute(
            f"SELECT slot, idx, CAST(body AS BLOB), {crc_column} FROM entries NOT INDEXED"):
        rows.setdefault(str(slot), []).append((idx, bytes(body), crc))
    checks = []
    for slot, game, seats, seed, options in sorted(sessions, key=lambda r: str(r[0])):
        try:
            setup: Setup | None = Setup(str(game), int(seats), int(seed), dict(json.loads(options)))
        except (ValueError, TypeError):
            checks.append(SlotCheck(str(slot), None, (), "its setup row is damaged"))
            continue
        good, problem = _verify_log(sorted(rows.pop(str(slot), []), key=lambda r: r[0]), checksums)
        checks.append(SlotCheck(str(slot), setup, good, problem))
    for slot, orphans in sorted(rows.items()):
        checks.append(SlotCheck(slot, None, (), f"{len(orphans)} entries without a session row"))
    return Verification(path, integrity, checksums, tuple(checks), missing_entries(tuple(checks), tally or {}))


def missing_entries(checks: tuple[SlotCheck, ...], tally: Mapping[str, tuple[int, int]]) -> str | None:
    """The first slot whose file holds fewer acknowledged entries than its tally, or another last one."""
    held = {c.slot: c.entries for c in checks}
    for slot, (count, crc) in sorted(tally.items()):
        entries = held.get(slot, ())
        if len(entries) < count:
            return (f"slot {slot!r}: {count - len(entries)} of its {count} acknowledged entries are missing, "
                    f"the file holds {len(entries)} - its write-ahead log was lost or cut short, or an older "
                    "copy was put back")
        if count and checksum(entry_body(entries[count - 1])) != crc:
            return (f"slot {slot!r}: entry {count} is not the one acknowledged there - an older or another "
                    "copy of the save was put back")
    return None


class Tally:
    """``<save>.tally``: each slot's count of acknowledged entries and the last one's CRC32, rewritten
    and synced after each write. Lost or unreadable, it cannot tell anything and is started afresh."""

    def __init__(self, save: Path) -> None:
        self.path = save.with_name(save.name + TALLY_SUFFIX)
        self.slots = self.read(save)
        self._fd = -1

    @staticmethod
    def read(save: Path) -> dict[str, tuple[int, int]]:
        try:
            raw = json.loads(save.with_name(save.name + TALLY_SUFFIX).read_bytes())
            return {str(slot): (int(count), int(crc)) for slot, (count, crc) in raw["slots"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def record(self, slot: str, count: int, crc: int) -> None:
        self.slots[slot] = (count, crc)
        self._write()

    def forget(self, slot: str) -> None:
        if self.slots.pop(slot, None) is not None:
            self._write()

    def _write(self) -> None:
        data = json.dumps({"tally": TALLY_VERSION, "slots": {k: list(v) for k, v in self.slots.items()}},
                          separators=(",", ":")).encode("utf-8")
        try:
            if self._fd < 0:
                created = not self.path.exists()
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
                if created:  # the new name survives a power cut only once its folder is synced
                    folder = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
                    try:
                        os.fsync(folder)
                    finally:
                        os.close(folder)
            os.pwrite(self._fd, data, 0)
            os.ftruncate(self._fd, len(data))
            os.fdatasync(self._fd)
        except OSError as exc:  # the entry itself is saved; only the safety net is not
            logging.getLogger(__name__).warning("%s: cannot record the save's tally: %s", self.path,
                                                exc.strerror or exc)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _verify_log(rows: list[tuple[Any, bytes, int | None]], checksums: bool) -> tuple[tuple[Entry, ...], str | None]:
    good: list[Entry] = []
    for expected, (idx, raw, crc) in enumerate(rows, 1):
        if idx != expected:
            return tuple(good), f"entry {expected} is missing (found {idx!r} after {expected - 1})"
        if checksums and crc != zlib.crc32(raw):
            return tuple(good), f"entry {idx} fails its checksum"
        try:
            entry = Entry.from_json(json.loads(raw.decode("utf-8")))
        except UnicodeDecodeError:
            return tuple(good), f"entry {idx} is not UTF-8 text"
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return tuple(good), f"entry {idx} is not a log entry ({exc})"
        if entry.index != idx:
            return tuple(good), f"entry {idx} says it is entry {entry.index}"
        good.append(entry)
    return tuple(good), None


def refusal(path: Path, problem: str) -> str:
    """The one line for a save that cannot be verified whole."""
    return (f"{path}: cannot be verified whole ({problem}); not resumed, left untouched - "
            f"see 'tablekeeper saves check {path}', then 'tablekeeper saves export {path} --slot SLOT "
            f"--good-only > FILE' and 'tablekeeper saves import NEW.sqlite --file FILE'")


class SaveLock:
    """An exclusive ``flock`` on ``<save>.lock`` that records the holder's PID. The lock file stays
    (removing it would let two processes lock two different files); the kernel drops the lock
    when its holder exits, however it exits."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + ".lock")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            raise StoreError(f"{path}: cannot lock the save ({self.path}: {exc.strerror or exc})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise StoreError(f"{path}: in use by another Tablekeeper process (PID {holder}); "
                             "stop it or use another save file") from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"{path}: cannot lock the save: {exc.strerror or exc}") from None
        self._fd = fd
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # a full disk may refuse the PID; the lock itself holds

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the last descriptor releases the flock
            self._fd = -1


def _check_header(p: Path) -> None:
    if p.is_dir():
        raise StoreError(f"{p}: is a directory, not a save file")
    if p.exists():
        if not p.is_file():
            raise StoreError(f"{p}: not a regular file (a device or pipe cannot be a save file)")
        if p.stat().st_size > 0:
            with p.open("rb") as fh:
                if fh.read(16) != b"SQLite format 3\x00":
                    raise StoreError(f"{p}: not a Tablekeeper save file (not SQLite); left untouched")


def _check_writable(p: Path) -> None:
    """A save on a read-only file system, or a file or folder this user may not write, is
    ``SaveReadOnlyError`` (the station then plays unsaved and says so)."""
    folder = p.parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        raise SaveReadOnlyError(f"{p}: its folder cannot be written")
    if p.exists() and not os.access(p, os.W_OK):
        raise SaveReadOnlyError(f"{p}: cannot be written")
    try:
        if folder.is_dir() and os.statvfs(folder).f_flag & os.ST_RDONLY:
            raise SaveReadOnlyError(f"{p}: its file system is read-only")
    except OSError:
        pass


def _check_identity(db: sqlite3.Connection, p: Path) -> int:
    """The number of tables; a foreign or newer database is refused."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    tables = int(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])
    if app_id != APPLICATION_ID and tables:
        raise StoreError(f"{p}: a database of another program, not a Tablekeeper save; left untouched")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(f"{p}: saved by a newer Tablekeeper (schema {version}); left untouched")
    return tables


def inspect(path: str | Path) -> Verification:
    """Verify a save without locking or writing it (``saves check``, ``list``, ``export``)."""
    p = Path(path)
    if not p.exists():
        raise StoreError(f"{p}: no such save file")
    _check_header(p)
    # Without a write-ahead log everything is in the file: ``immutable`` reads it without creating
    # any side file. With one (a running station, or a crash) it must be read too: ``mode=ro``.
    wal = p.with_name(p.name + "-wal").exists()
    try:
        db = sqlite3.connect(f"{p.resolve().as_uri()}?{'mode=ro' if wal else 'immutable=1'}", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"{p}: cannot open save file: {exc}") from None
    tally = Tally.read(p)
    try:
        if not _check_identity(db, p):
            return Verification(p, "ok", True, (), missing_entries((), tally))
        return verify(db, p, tally)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{p}: damaged beyond reading ({exc}); left untouched") from None
    finally:
        db.close()


class Store:
    """One SQLite file, locked for this process. Open it with :meth:`open`; every write is its own
    committed transaction."""

    SYNCHRONOUS: ClassVar[str] = "FULL"
    """``FULL`` syncs the write-ahead log at every commit; the power-cut test sets ``OFF`` to show it fails."""
    CACHE_KIB: ClassVar[int] = 256
    """SQLite's page cache is the save's share of a long session's memory: it fills as the log grows
    and stops at this bound (KiB; SQLite's own default is 2,000). Appends need few pages."""

    CHECKPOINT: ClassVar[bool] = True
    """Copy each write into the main file before it is acknowledged; the lost-journal test turns it off."""

    def __init__(self, path: Path, connection: sqlite3.Connection, lock: SaveLock | None = None,
                 checksums: bool = True, tally: Tally | None = None) -> None:
        self.path = path
        self._db = connection
        self._lock = lock
        self._checksums = checksums
        self._tally = tally or Tally(path)
        self._verified_logs: dict[str, tuple[Entry, ...]] = {}
        """Each slot's entries as the check at open parsed them, for ``load`` until the first write."""

    @classmethod
    def open(cls, path: str | Path) -> Store:
        p = Path(path)
        _check_header(p)
        if not p.parent.is_dir():  # a folder is made only where one is asked for (the station's data dir)
            raise StoreError(f"{p}: no folder {p.parent} to keep the save in (make it first, or name another path)")
        _check_writable(p)
        lock = SaveLock(p)
        try:
            _check_header(p)  # again, now that no other Tablekeeper can be creating it
            db = sqlite3.connect(p, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            lock.release()
            raise StoreError(f"{p}: cannot open save file: {exc}") from None
        tally = Tally(p)
        try:
            cls._bound_cache(db, p)
            found = cls._verified(db, p, tally.slots)
            cls._prepare(db, p, new=found is None)
        except BaseException:
            db.close()
            lock.release()
            raise
        store = cls(p, db, lock, found is None or found.checksums, tally)
        if found is not None:
            store._verified_logs = {check.slot: check.entries for check in found.slots}
        return store

    @classmethod
    def _bound_cache(cls, db: sqlite3.Connection, p: Path) -> None:
        """Set before the whole-file check reads pages (this already reads the file's header)."""
        try:
            db.execute(f"PRAGMA cache_size=-{cls.CACHE_KIB}")
        except sqlite3.DatabaseError as exc:
            raise StoreError(refusal(p, str(exc))) from None

    @staticmethod
    def _verified(db: sqlite3.Connection, p: Path, tally: Mapping[str, tuple[int, int]]) -> Verification | None:
        """The save verified whole (``None`` for a new, empty file); one that fails is refused. Reads only."""
        try:
            if not _check_identity(db, p):
                missing = missing_entries((), tally)
                if missing is not None:  # the journal held everything, even the tables, and is gone
                    raise StoreError(refusal(p, missing))
                return None
            found = verify(db, p, tally)
        except sqlite3.DatabaseError as exc:
            raise StoreError(refusal(p, str(exc))) from None
        if not found.ok:
            raise StoreError(refusal(p, found.first_problem()))
        return found

    @classmethod
    def _prepare(cls, db: sqlite3.Connection, p: Path, *, new: bool) -> None:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={cls.SYNCHRONOUS}")
            db.execute("PRAGMA foreign_keys=ON")
            if new:  # one transaction: a power cut leaves no file with half a schema
                db.executescript(f"BEGIN IMMEDIATE; PRAGMA application_id={APPLICATION_ID}; "
                                 f"PRAGMA user_version={SCHEMA_VERSION}; {SCHEMA} COMMIT;")
            db.execute(SNAPSHOTS)
        except sqlite3.Error as exc:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            if getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN):
                raise SaveReadOnlyError(f"{p}: cannot be written ({exc})") from None
            raise _save_error(p, exc, "cannot prepare the save") from None

    def close(self) -> None:
        self._db.close()
        self._tally.close()
        if self._lock is not None:
            self._lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- sessions ------------------------------------------------------------------------------
    def slots(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT slot FROM sessions ORDER BY slot")]

    def create(self, slot: str, setup: Setup, campaign: str | None = None) -> SessionJournal:
        if not -MAX_SEED - 1 <= setup.seed <= MAX_SEED:
            raise StoreError(f"{self.path}: seed {setup.seed} is too large to save (at most {MAX_SEED})")
        with self._write():
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))
            self._db.execute(
                "INSERT INTO sessions (slot, game, seats, seed, options, campaign) VALUES (?, ?, ?, ?, ?, ?)",
                (slot, setup.game, setup.seats, setup.seed, json.dumps(dict(setup.options)), campaign),
            )
        self._tally.record(slot, 0, 0)
        return SessionJournal(self, slot)

    def load(self, slot: str) -> SavedSession | None:
        row = self._db.execute("SELECT game, seats, seed, options FROM sessions WHERE slot = ?",
                               (slot,)).fetchone()
        if row is None:
            return None
        try:
            setup = Setup(str(row[0]), int(row[1]), int(row[2]), json.loads(row[3]))
            entries = self._verified_logs.get(slot)
            if entries is None:  # written since the check at open: read again
                entries = tuple(Entry.from_json(json.loads(body)) for (body,) in self._db.execute(
                    "SELECT body FROM entries WHERE slot = ? ORDER BY idx", (slot,)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreError(f"{self.path}: slot {slot!r} holds a damaged log ({exc})") from None
        return SavedSession(slot, setup, entries, self._snapshots(slot))

    def _snapshots(self, slot: str) -> tuple[snapshot.Stored, ...]:
        """The slot's snapshots as stored (the session checks each one before using it)."""
        try:
            rows = self._db.execute("SELECT idx, position, last, key, body, crc FROM snapshots WHERE slot = ?",
                                    (slot,)).fetchall()
        except sqlite3.DatabaseError as exc:
            logging.getLogger(__name__).warning("%s: snapshots unreadable (%s); replaying the log", self.path, exc)
            return ()
        out = []
        for idx, position, last, key, body, crc in rows:
            try:
                out.append(snapshot.Stored(int(idx), int(position), int(last), str(key), bytes(body), int(crc)))
            except (TypeError, ValueError):
                logging.getLogger(__name__).warning("%s: slot %r: a damaged snapshot row; not used", self.path, slot)
        return tuple(out)

    def journal(self, slot: str) -> SessionJournal:
        return SessionJournal(self, slot)

    def read(self, slot: str, first: int, last: int) -> tuple[Entry, ...]:
        """Entries ``first``..``last`` of a slot, checked (numbering, checksum) as a resume checks them:
        a session that keeps only its newest entries in memory reads older ones back here."""
        try:
            rows = self._db.execute(
                f"SELECT idx, body, {'crc' if self._checksums else 'NULL'} FROM entries "
                "WHERE slot = ? AND idx BETWEEN ? AND ? ORDER BY idx", (slot, first, last)).fetchall()
        except sqlite3.Error as exc:
            raise _save_error(self.path, exc, f"cannot read slot {slot!r} back") from None
        entries = []
        for expected, (idx, body, crc) in enumerate(rows, first):
            if idx != expected or (crc is not None and crc != checksum(body)):
                raise StoreError(f"{self.path}: slot {slot!r}: entry {expected} cannot be read back intact")
            try:
                entries.append(Entry.from_json(json.loads(body)))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise StoreError(f"{self.path}: slot {slot!r} holds a damaged log ({exc})") from None
        if len(entries) != max(last - first + 1, 0):
            raise StoreError(f"{self.path}: slot {slot!r}: entries {first}..{last} are not all in the save")
        return tuple(entries)

    def append(self, slot: str, entry: Entry, checkpoint: snapshot.Checkpoint | None = None) -> None:
        """Append ``entry``; with a ``checkpoint``, also keep it as the slot's newest snapshot, in the same
        transaction (so no extra sync). A state that cannot be encoded only loses its snapshot."""
        body = None if checkpoint is None else self._snapshot_body(slot, entry.index, checkpoint)
        with self._write():
            self._insert(slot, entry)
            if checkpoint is not None and body is not None:
                self._put_snapshot(slot, entry.index, checkpoint, body)
        self._tally.record(slot, entry.index, checksum(entry_body(entry)))

    def keep_snapshot(self, slot: str, index: int, checkpoint: snapshot.Checkpoint) -> bool:
        """Keep ``checkpoint`` as the slot's newest snapshot, taken with log entry ``index`` (the slot's
        newest), and drop the slot's snapshots under another key (no software here can use them). A
        cache: a state that cannot be encoded or a write that fails (a full disk) is one line to the log
        and False; the log is untouched either way."""
        body = self._snapshot_body(slot, index, checkpoint)
        if body is None:
            return False
        try:
            with self._write():
                self._put_snapshot(slot, index, checkpoint, body, only_this_key=True)
        except StoreError as exc:
            logging.getLogger(__name__).warning("%s: slot %r: snapshot at entry %d not kept (%s)", self.path, slot,
                                                index, exc)
            return False
        return True

    def _snapshot_body(self, slot: str, index: int, checkpoint: snapshot.Checkpoint) -> bytes | None:
        """The snapshot's bytes; a state that cannot be encoded is one line to the log and None."""
        try:
            return snapshot.encode(checkpoint.state)
        except (TypeError, ValueError, NotImplementedError) as exc:
            logging.getLogger(__name__).warning("%s: slot %r: no snapshot at entry %d (%s)", self.path, slot,
                                                index, exc)
            return None

    def _put_snapshot(self, slot: str, index: int, checkpoint: snapshot.Checkpoint, body: bytes, *,
                      only_this_key: bool = False) -> None:
        """Inside a write: the snapshot in; the slot keeps its ``KEEP_SNAPSHOTS`` newest (and, with
        ``only_this_key``, none under another key)."""
        self._db.execute("INSERT OR REPLACE INTO snapshots (slot, idx, position, last, key, body, crc) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", (slot, index, checkpoint.position, checkpoint.last,
                                                          checkpoint.key, body, zlib.crc32(body)))
        if only_this_key:
            self._db.execute("DELETE FROM snapshots WHERE slot = ? AND key != ?", (slot, checkpoint.key))
        self._db.execute("DELETE FROM snapshots WHERE slot = ? AND idx NOT IN (SELECT idx FROM snapshots "
                         "WHERE slot = ? ORDER BY idx DESC LIMIT ?)", (slot, slot, KEEP_SNAPSHOTS))

    def _insert(self, slot: str, entry: Entry) -> None:
        body = entry_body(entry)
        if self._checksums:
            self._db.execute("INSERT INTO entries (slot, idx, body, crc) VALUES (?, ?, ?, ?)",
                             (slot, entry.index, body, checksum(body)))
        else:  # a schema-1 save is extended in its own format
            self._db.execute("INSERT INTO entries (slot, idx, body) VALUES (?, ?, ?)", (slot, entry.index, body))

    def set_aside(self, slot: str) -> str:
        """Move a slot's game to a new slot name (``main-kept``, ``main-kept2`` …) and return it: a save
        that can no longer be replayed here is kept whole for later, and its own slot is free."""
        taken = set(self.slots())
        kept = next(name for n in range(1, len(taken) + 2)
                    if (name := f"{slot}-kept{n if n > 1 else ''}") not in taken)
        with self._write():
            self._db.execute("INSERT INTO sessions (slot, game, seats, seed, options, campaign) "
                             "SELECT ?, game, seats, seed, options, campaign FROM sessions WHERE slot = ?",
                             (kept, slot))
            self._db.execute("UPDATE entries SET slot = ? WHERE slot = ?", (kept, slot))
            self._db.execute("UPDATE snapshots SET slot = ? WHERE slot = ?", (kept, slot))
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))
        count_crc = self._tally.slots.get(slot)
        if count_crc is not None:
            self._tally.record(kept, *count_crc)
        self._tally.forget(slot)
        return kept

    def delete(self, slot: str) -> None:
        with self._write():
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))
        self._tally.forget(slot)

    # --- export / import ------------------------------------------------------------------------
    def export_lines(self, slot: str) -> Iterator[str]:
        saved = self.load(slot)
        if saved is None:
            raise StoreError(f"{self.path}: no session in slot {slot!r}")
        return export_lines(saved.setup, saved.entries)

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
        if not -MAX_SEED - 1 <= setup.seed <= MAX_SEED:
            raise StoreError(f"{source}: line 1: seed {setup.seed} is out of range")
        entries: list[Entry] = []
        for n, line in rows[1:]:
            try:
                entry = Entry.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise StoreError(f"{source}: line {n}: bad log entry ({exc})") from None
            if entry.index != len(entries) + 1:
                raise StoreError(f"{source}: line {n}: entry {entry.index} is not entry {len(entries) + 1} "
                                 "(entries are numbered 1, 2, 3, ...)")
            entries.append(entry)
        with self._write():  # the slot is replaced whole or not at all
            self._db.execute("DELETE FROM sessions WHERE slot = ?", (slot,))
            self._db.execute(
                "INSERT INTO sessions (slot, game, seats, seed, options, campaign) VALUES (?, ?, ?, ?, ?, NULL)",
                (slot, setup.game, setup.seats, setup.seed, json.dumps(dict(setup.options))),
            )
            for entry in entries:
                self._insert(slot, entry)
        self._tally.record(slot, len(entries), checksum(entry_body(entries[-1])) if entries else 0)
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
        self._verified_logs.clear()
        return _Transaction(self._db, self.path, checkpoint=self.CHECKPOINT)


def export_lines(setup: Setup, entries: tuple[Entry, ...]) -> Iterator[str]:
    """A session as JSON lines: a header with the setup, then one line per entry."""
    yield json.dumps({"tablekeeper": SCHEMA_VERSION, "setup": setup.to_json()})
    for entry in entries:
        yield entry_body(entry)


def _save_error(path: Path, exc: sqlite3.Error, what: str = "could not save") -> StoreError:
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL:
        return SaveFullError(f"{path}: {what}: the disk is full ({exc}); nothing was lost, "
                             "free some space and it saves again")
    return StoreError(f"{path}: {what}: {exc}")


class _Transaction:
    """``BEGIN IMMEDIATE`` .. ``COMMIT``; on any failure the transaction is gone (SQLite may already
    have rolled it back itself, e.g. on a full disk) and one ``StoreError`` is raised."""

    def __init__(self, db: sqlite3.Connection, path: Path, *, checkpoint: bool = True) -> None:
        self._db = db
        self._path = path
        self._checkpoint = checkpoint

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _save_error(self._path, exc) from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                self._rollback()
                raise _save_error(self._path, err) from None
            if self._checkpoint:
                self._copy_into_main_file()
            return
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise _save_error(self._path, exc) from None

    def _copy_into_main_file(self) -> None:
        """The committed write into the main file and the journal emptied, before anyone is told it is
        saved. A checkpoint that cannot finish (a reader holds the journal, the disk is full) leaves the
        write safe in the synced journal, and the tally still notices if that journal is lost."""
        try:
            busy, _frames, _copied = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as exc:
            logging.getLogger(__name__).warning("%s: checkpoint failed: %s", self._path, exc)
            return
        if busy:
            logging.getLogger(__name__).info("%s: checkpoint deferred (a reader holds the journal)", self._path)

    def _rollback(self) -> None:
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # SQLite ended it itself; nothing of it was kept
                self._db.execute("ROLLBACK")


class SessionJournal(msgspec.Struct):
    """The store seen from one session: appends entries to its slot and reads them back."""

    store: Store
    slot: str

    def append(self, entry: Entry) -> None:
        self.store.append(self.slot, entry)

    def append_with(self, entry: Entry, checkpoint: snapshot.Checkpoint) -> None:
        self.store.append(self.slot, entry, checkpoint)

    def keep(self, index: int, checkpoint: snapshot.Checkpoint) -> bool:
        return self.store.keep_snapshot(self.slot, index, checkpoint)

    def read(self, first: int, last: int) -> tuple[Entry, ...]:
        return self.store.read(self.slot, first, last)


__all__ = ["SaveFullError", "SaveReadOnlyError", "SavedSession", "SessionJournal", "SlotCheck", "Store",
           "Verification", "inspect", "verify"]
