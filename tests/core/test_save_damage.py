"""Damaged saves are never resumed short: SQLite's full integrity check (indexes too), contiguous
entry numbers, a CRC32 per entry and UTF-8 bodies are verified before a save is opened for play.
The refusal is one line naming ``tablekeeper saves`` commands, and those export what is good."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.core.events import Command
from tablekeeper.core.session import Entry, Session
from tablekeeper.core.store import Store
from tablekeeper.errors import StoreError
from tests.core.fixture_game import GAME
from tests.faults.walk import FIXTURE_MODULE

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("fixture_registered")


@pytest.fixture
def fixture_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablekeeper import games
    monkeypatch.setitem(games.GAMES, "fixture", FIXTURE_MODULE)


def saved_game(path: Path, entries: int) -> Session:
    """A closed save (its write-ahead log checkpointed into the file) holding ``entries`` entries."""
    with Store.open(path) as store:
        session = Session(GAME, seats=2, seed=5)
        session.journal = store.create("main", session.setup)
        for n in range(entries):
            session.perform(Command("add", ("doom", "+1" if n % 2 == 0 else "-1")))
    assert not path.with_name(path.name + "-wal").exists()
    return session


def flip_a_bit_in_the_entries_index(path: Path, entry: int) -> None:
    """Flip the low bit of ``entry``'s number in the index's leaf cell (the table row is untouched)."""
    db = sqlite3.connect(path)
    (page,), = db.execute("SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_entries_1'").fetchall()
    db.close()
    raw = bytearray(path.read_bytes())
    size = int.from_bytes(raw[16:18], "big")
    base = (page - 1) * size
    assert raw[base] == 0x0A, "a leaf index page"
    pointer = int.from_bytes(raw[base + 8 + 2 * (entry - 1): base + 10 + 2 * (entry - 1)], "big")
    # cell: payload size (1 byte), record header (4 bytes: size, text 'main', int, int), 'main', idx
    assert raw[base + pointer + 5: base + pointer + 9] == b"main"
    assert raw[base + pointer + 9] == entry
    raw[base + pointer + 9] ^= 0x01
    path.write_bytes(bytes(raw))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused_untouched(path: Path, capsys: pytest.CaptureFixture[str], problem: str) -> None:
    before = path.read_bytes()
    with pytest.raises(StoreError, match="cannot be verified whole") as caught:
        Store.open(path)
    assert problem in str(caught.value) and "tablekeeper saves check" in str(caught.value)
    code, out, err = run_cli(capsys, "play", "fixture", "--save", str(path), "--script", "-")
    assert code == 2 and len(err.splitlines()) == 1 and problem in err and out == ""
    assert path.read_bytes() == before


def test_a_bit_flip_in_the_entries_index_is_refused_and_everything_is_exported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite"
    session = saved_game(path, 150)
    flip_a_bit_in_the_entries_index(path, 72)
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"  # the case it misses
    assert_refused_untouched(path, capsys, "integrity check")
    code, out, _err = run_cli(capsys, "saves", "check", str(path))
    assert code == 1 and "integrity check" in out and "150 entries, verified" in out
    code, out, err = run_cli(capsys, "saves", "export", str(path), "--slot", "main")
    assert code == 2 and "cannot be verified whole" in err
    code, out, _err = run_cli(capsys, "saves", "export", str(path), "--slot", "main", "--good-only")
    assert code == 0 and len(out.splitlines()) == 151  # the table rows themselves are intact
    export = tmp_path / "main.jsonl"
    export.write_text(out)
    code, _out, _err = run_cli(capsys, "saves", "import", str(tmp_path / "new.sqlite"), "--file", str(export))
    assert code == 0
    with Store.open(tmp_path / "new.sqlite") as store:
        saved = store.load("main")
    assert saved is not None
    assert Session(GAME, seats=2, seed=5, entries=saved.entries).state == session.state


def _body(path: Path, idx: int) -> str:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return str(db.execute("SELECT body FROM entries WHERE idx = ?", (idx,)).fetchone()[0])


def _set_body(path: Path, idx: int, body: bytes, crc: int | None = None) -> None:
    db = sqlite3.connect(path)
    if crc is None:
        db.execute("UPDATE entries SET body = CAST(? AS TEXT) WHERE idx = ?", (body, idx))
    else:
        db.execute("UPDATE entries SET body = CAST(? AS TEXT), crc = ? WHERE idx = ?", (body, crc, idx))
    db.commit()
    # The change must reach the file itself even if another connection lingers until garbage collection.
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def test_a_changed_digit_in_a_logged_event_fails_its_checksum(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite"
    saved_game(path, 30)
    body = _body(path, 11)
    digit = body.index('"value":') + len('"value":')
    changed = body[:digit] + str((int(body[digit]) + 1) % 10) + body[digit + 1:]
    json.loads(changed)
    _set_body(path, 11, changed.encode())
    assert_refused_untouched(path, capsys, "entry 11 fails its checksum")
    code, out, _err = run_cli(capsys, "saves", "check", str(path))
    assert code == 1 and "entries 1..10 are good" in out
    code, out, _err = run_cli(capsys, "saves", "export", str(path), "--slot", "main", "--good-only")
    assert code == 0 and len(out.splitlines()) == 11
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(("-wal", "-shm"))]  # reading wrote nothing


def test_invalid_utf8_in_a_body_is_refused_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite"
    saved_game(path, 12)
    bad = _body(path, 4).encode().replace(b'"add"', b'"\xffdd"')
    _set_body(path, 4, bad, crc=zlib.crc32(bad))  # a matching checksum: the UTF-8 check must catch it
    assert_refused_untouched(path, capsys, "entry 4 is not UTF-8 text")
    code, out, _err = run_cli(capsys, "saves", "list", str(path))
    assert code == 0 and "3 entries, DAMAGED" in out


def test_a_missing_entry_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite"
    saved_game(path, 12)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM entries WHERE idx = 6")
    db.commit()
    db.close()
    assert_refused_untouched(path, capsys, "entry 6 is missing")


OLD_SCHEMA = """
PRAGMA application_id=1413630800;
PRAGMA user_version=1;
CREATE TABLE sessions (slot TEXT PRIMARY KEY, game TEXT NOT NULL, seats INTEGER NOT NULL,
    seed INTEGER NOT NULL, options TEXT NOT NULL DEFAULT '{}', campaign TEXT);
CREATE TABLE entries (slot TEXT NOT NULL REFERENCES sessions(slot) ON DELETE CASCADE,
    idx INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (slot, idx));
CREATE TABLE campaigns (name TEXT PRIMARY KEY, game TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


def test_a_save_from_before_checksums_is_verified_as_far_as_it_can_be_and_extended(tmp_path: Path) -> None:
    session = Session(GAME, seats=2, seed=5)
    for n in range(6):
        session.perform(Command("add", ("doom", "+1" if n % 2 == 0 else "-1")))
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO sessions (slot, game, seats, seed) VALUES ('main', 'fixture', 2, 5)")
    for entry in session.entries:
        db.execute("INSERT INTO entries VALUES ('main', ?, ?)",
                   (entry.index, json.dumps(entry.to_json(), separators=(",", ":"))))
    db.commit()
    db.close()
    with Store.open(path) as store:
        saved = store.load("main")
        assert saved is not None and len(saved.entries) == 6
        store.append("main", Entry(7, "command", Command("next", ()), ()))
    db = sqlite3.connect(path)
    db.execute("DELETE FROM entries WHERE idx = 3")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="entry 3 is missing"):
        Store.open(path)


# --- one process at a time --------------------------------------------------------------------------

def test_a_second_open_names_the_holder_and_the_holder_keeps_saving(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    holder = Store.open(path)
    session = Session(GAME, seats=2, seed=5)
    session.journal = holder.create("main", session.setup)
    with pytest.raises(StoreError, match=rf"in use by another Tablekeeper process \(PID {os.getpid()}\)"):
        Store.open(path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    launch = (f"import sys; from tablekeeper import games; games.GAMES['fixture'] = {FIXTURE_MODULE!r};"
              "from tablekeeper.cli import main; raise SystemExit(main(sys.argv[1:]))")
    other = subprocess.run([sys.executable, "-c", launch, "play", "fixture", "--save", str(path), "--script", "-"],
                           input="add doom +1\n", capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert other.returncode == 2 and other.stderr.count("\n") == 1, other.stderr
    assert f"PID {os.getpid()}" in other.stderr and "Traceback" not in other.stderr
    assert session.perform(Command("add", ("doom", "+1"))).accepted  # the holder was not disturbed
    from tablekeeper.commands.doctor import Status, check_store
    checked = check_store(path)  # the doctor reads a running station's save without its lock
    assert checked is not None and checked.status is Status.OK, checked
    holder.close()
    with Store.open(path) as store:
        saved = store.load("main")
    assert saved is not None and len(saved.entries) == 1
