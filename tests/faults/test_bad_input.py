"""Bad input through the real command line: malformed station configs, scripts and save files.

Each is answered with one line naming the file and the key or line, exit code 2, no traceback, and
the file itself is left byte for byte as it was. Rejected script lines follow the play contract
instead: ``line N: reason`` on stderr, exit 0, or 1 with ``--strict``, and the session unchanged; a
word that should be a number and is not stops the script (one line, exit 2), what came before kept.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.core.session import Setup
from tablekeeper.core.store import Store, checksum

pytestmark = pytest.mark.usefixtures("fixture_registered")

BASE = """
[buses.main]
kind = "i2c"
port = 1

[[displays]]
role = "track"
driver = "ssd1306"
size = "128x64"
bus = "main"
address = 0x3C

[buttons.next]
pin = 5

[buttons.back]
pin = 6
"""

SPI = """
[buses.fast]
kind = "spi"
port = 0

[[displays]]
role = "tokens"
driver = "ssd1309"
size = "128x64"
bus = "fast"
device = 0
dc_pin = 24
"""


def edit(old: str, new: str, base: str = BASE) -> str:
    assert old in base
    return base.replace(old, new, 1)


# (case id, file content, text the one-line message must contain)
CONFIGS: list[tuple[str, str | bytes, str]] = [
    ("empty file", "", "buttons: no button has role 'next'"),
    ("not utf-8", b"\xff\xfe[buses]\x00\x81", "not UTF-8 text"),
    ("unclosed table header", "[buses.main\nkind = 'i2c'\n", "not valid TOML"),
    ("duplicate key", BASE + "[station]\nname = 'a'\nname = 'b'\n", "not valid TOML"),
    ("buses is a number", "buses = 3\n" + BASE.replace("[buses.main]\nkind = \"i2c\"\nport = 1\n", ""),
     "buses: expected a table"),
    ("bus without kind", edit('kind = "i2c"\n', ""), "buses.main.kind: missing (required)"),
    ("bus kind usb", edit('kind = "i2c"', 'kind = "usb"'), "buses.main.kind: 'usb' is not one of"),
    ("bus port as text", edit("port = 1", 'port = "1"'), "buses.main.port: expected an integer"),
    ("i2c port 40", edit("port = 1", "port = 40"), "buses.main.port: I2C port 40 is out of range"),
    ("spi port 2", BASE + SPI.replace("port = 0", "port = 2"), "buses.fast.port: SPI port 2"),
    ("bus speed 5 Hz", edit("port = 1", "port = 1\nspeed_hz = 5"), "buses.main.speed_hz"),
    ("displays as a table", edit("[[displays]]", "[displays]"), "displays: expected an array"),
    ("display entry not a table", "displays = [1]\n" + BASE.replace(BASE[BASE.index("[[displays]]"):
                                                                       BASE.index("[buttons.next]")], ""),
     "displays[0]: expected a table"),
    ("display role score", edit('role = "track"', 'role = "score"'), "displays[0].role: 'score'"),
    ("ssd1309 at 128x32", BASE + SPI.replace('size = "128x64"', 'size = "128x32"'), "displays[1].size"),
    ("display rotation 3", edit("address = 0x3C", "address = 0x3C\nrotation = 3"), "displays[0].rotation"),
    ("address above 0x77", edit("address = 0x3C", "address = 0x78"), "displays[0].address: 0x78"),
    ("two displays on one role", BASE + SPI.replace('role = "tokens"', 'role = "track"'),
     "displays[1].role: 'track' is already shown"),
    ("spi display with an address", BASE + SPI + "address = 0x3C\n", "displays[1].address: unknown key"),
    ("spi chip select 2", BASE + SPI.replace("device = 0", "device = 2"), "displays[1].device"),
    ("spi display without dc pin", BASE + SPI.replace("dc_pin = 24\n", ""), "displays[1].dc_pin: missing"),
    ("spi dc pin on MOSI", BASE + SPI.replace("dc_pin = 24", "dc_pin = 10"), "displays[1].dc_pin: BCM 10"),
    ("button pin true", edit("pin = 5", "pin = true"), "buttons.next.pin: expected an integer, got true/false"),
    ("button pin negative", edit("pin = 5", "pin = -1"), "buttons.next.pin: BCM -1"),
    ("button on the I2C data pin", edit("pin = 5", "pin = 2"), "buttons.next.pin: BCM 2 is already used"),
    ("button pull_up as text", edit("pin = 5", 'pin = 5\npull_up = "no"'), "buttons.next.pull_up"),
    ("buttons share a key", edit("pin = 6", 'pin = 6\nkey = "n"', edit("pin = 5", 'pin = 5\nkey = "n"')),
     "buttons.back.key: 'n' already presses buttons.next"),
    ("button table is a value", edit("[buttons.back]\npin = 6", "[buttons]\nback = 6"),
     "buttons.back: expected a table"),
    ("buzzer active_high as text", BASE + '[outputs.buzzer]\npin = 18\nactive_high = "yes"\n',
     "outputs.buzzer.active_high"),
    ("outputs unknown key", BASE + "[outputs.lamp]\npin = 18\n", "outputs.lamp: unknown key"),
    ("counter role sword", BASE + '[[counters]]\nvid_pid = "2E8A:0005"\nseat = 1\nrole = "sword"\n',
     "counters[0].role: 'sword'"),
    ("counter without seat", BASE + '[[counters]]\nvid_pid = "2E8A:0005"\nrole = "hp"\n',
     "counters[0].seat: missing (required)"),
    ("timing zero debounce", BASE + "[timing]\ndebounce_s = 0\n", "timing.debounce_s: 0.0 s is out of range"),
    ("timing unknown key", BASE + "[timing]\nhold_ms = 600\n", "timing.hold_ms: unknown key"),
    ("uart enabled as 1", BASE + "[uart]\nenabled = 1\n", "uart.enabled: expected true/false"),
    ("station name number", BASE + "[station]\nname = 7\n", "station.name: expected a string"),
]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tablekeeper: ")
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.parametrize(("content", "fragment"), [(c, f) for _i, c, f in CONFIGS], ids=[i for i, _c, _f in CONFIGS])
def test_malformed_config(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes,
                          fragment: str) -> None:
    path = tmp_path / "station.toml"
    raw = content.encode() if isinstance(content, str) else content
    path.write_bytes(raw)
    code, out, err = run_cli(capsys, "config", "check", str(path))
    assert_one_line_error(code, err, f"{path}: ", fragment)
    assert out == ""
    assert path.read_bytes() == raw


def test_the_base_config_of_this_table_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every case above breaks exactly one thing in a config that is otherwise accepted."""
    path = tmp_path / "station.toml"
    path.write_text(BASE + SPI)
    code, out, _err = run_cli(capsys, "config", "check", str(path))
    assert code == 0 and "ok (2 displays" in out


@pytest.mark.parametrize("make", ["directory", "missing"])
def test_config_path_that_is_not_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str) -> None:
    path = tmp_path / "station.toml"
    if make == "directory":
        path.mkdir()
    code, _out, err = run_cli(capsys, "config", "check", str(path))
    assert_one_line_error(code, err, str(path))


# --- scripts ------------------------------------------------------------------------------------

# Lines the fixture game rejects at the start of a session, each with the reason it names.
REJECTED_LINES = [
    ("fly away", "unknown verb 'fly'"),
    ("add dooom +1", "unknown track 'dooom'"),
    ("set doom 40", "doom cannot go above 12"),
    ("set doom", "usage: set TRACK VALUE"),
    ("choose 1", "there is nothing to choose"),
    ("rewind", "usage: rewind K"),
    ("rewind 9", "entry 9 is not an active command"),
    ("undo 2", "usage: undo"),
    ("undo", "nothing to undo"),
    ("redo", "nothing to redo"),
    ("draw sack", "unknown source 'sack'"),
    ("reveal bag", "usage: reveal SOURCE OUTCOME"),
    ("reveal deck zebra", "zebra"),
    ("press jump", "unknown button 'jump'"),
    ("hold", "usage: hold BUTTON"),
    ("press menu", "menu"),
    ('""', "unknown verb ''"),
    ('add "doom +1', "No closing quotation"),
]


@pytest.mark.parametrize(("line", "reason"), REJECTED_LINES, ids=[line for line, _r in REJECTED_LINES])
def test_rejected_script_line_names_the_line_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, reason: str) -> None:
    script = tmp_path / "script.txt"
    script.write_text(f"# opening\n{line}\n")
    code, out, err = run_cli(capsys, "play", "fixture", "--script", str(script), "--json")
    assert code == 0
    assert len(err.splitlines()) == 1 and err.startswith("line 2: ") and reason in err, err
    assert json.loads(out)["log_length"] == 0
    code, _out, _err = run_cli(capsys, "play", "fixture", "--script", str(script), "--strict")
    assert code == 1
    assert script.read_text() == f"# opening\n{line}\n"


# Lines whose number is not one: the script stops there, one line, exit 2 (the lines before are kept).
MALFORMED_LINES = [
    ("add doom +x", "doom must be a whole number, not '+x'"),
    ("rewind x", "rewind K (a log entry number) must be a whole number, not 'x'"),
    ("rewind ³", "rewind K (a log entry number) must be a whole number, not '³' (digits 0-9 only)"),
    ("rewind ٣", "rewind K (a log entry number) must be a whole number, not '٣' (digits 0-9 only)"),
    ("set doom ３", "doom must be a whole number, not '３' (digits 0-9 only)"),
    ("set doom 1_0", "doom must be a whole number, not '1_0' (digits 0-9 only)"),
    ("add doom ++1", "doom must be a whole number, not '++1'"),
    ("add doom −1", "doom must be a whole number, not '−1' (digits 0-9 only)"),
    ('set doom " 3"', "doom must be a whole number, not ' 3'"),
    ("set doom " + "9" * 40, "doom must be a whole number of at most 12 digits, not '99999999999999999999'... "
                             "(40 characters)"),
]


@pytest.mark.parametrize(("line", "reason"), MALFORMED_LINES, ids=[line[:20] for line, _r in MALFORMED_LINES])
def test_a_number_that_is_not_one_stops_the_script(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   line: str, reason: str) -> None:
    save = tmp_path / "s.db"
    script = _write(tmp_path / "script.txt", f"add doom +2\n{line}\nadd doom +1\n".encode())
    code, out, err = run_cli(capsys, "play", "fixture", "--script", str(script), "--save", str(save), "--json")
    assert_one_line_error(code, err, f"line 2: {reason}")
    assert out == ""
    resumed = _write(tmp_path / "resume.txt", b"")
    code, out, _err = run_cli(capsys, "play", "fixture", "--script", str(resumed), "--save", str(save), "--json")
    assert code == 0 and json.loads(out)["tracks"]["doom"] == 2  # the line before was kept; none after ran


SCRIPT_FILES: list[tuple[str, Callable[[Path], list[str]], str]] = [
    ("missing script", lambda p: ["--script", str(p / "none.txt")], "none.txt: cannot read script"),
    ("script is a directory", lambda p: ["--script", str(p)], "cannot read script"),
    ("script not text", lambda p: ["--script", str(_write(p / "bin.txt", b"next\n\xff\xfe\x00\x9c\n"))],
     "bin.txt: cannot read script: not UTF-8 text"),
    ("option without =", lambda p: ["--option", "hard"], "--option 'hard': expected KEY=VALUE"),
    ("seats out of range", lambda p: ["--seats", "9"], "fixture takes 1 to 4 seats, not 9"),
]


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(("args", "fragment"), [(a, f) for _i, a, f in SCRIPT_FILES],
                         ids=[i for i, _a, _f in SCRIPT_FILES])
def test_bad_script_or_option_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 args: Callable[[Path], list[str]], fragment: str) -> None:
    argv = args(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    code, _out, err = run_cli(capsys, "play", "fixture", *argv)
    assert_one_line_error(code, err, fragment)
    assert {p: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


# --- save files ---------------------------------------------------------------------------------

def _sqlite(path: Path, *sql: str) -> Path:
    db = sqlite3.connect(path)
    for statement in sql:
        db.execute(statement)
    db.commit()
    db.close()
    return path


def _save_with(path: Path, *bodies: str, game: str = "fixture") -> Path:
    """A real save whose log holds these raw entry bodies."""
    with Store.open(path) as store:
        store.create("main", Setup(game, 2, 1, {}))
        for index, body in enumerate(bodies, 1):
            store._db.execute("INSERT INTO entries (slot, idx, body, crc) VALUES ('main', ?, ?, ?)",
                              (index, body, checksum(body)))
    return path


def _entry(**fields: object) -> str:
    return json.dumps({"index": 1, "kind": "command", "command": {"verb": "next", "args": []}, "events": [],
                       "target": None, **fields})


SAVES: list[tuple[str, Callable[[Path], Path], str]] = [
    ("text file", lambda p: _write(p / "s.sqlite", b"my campaign notes\n"), "not a Tablekeeper save file"),
    ("another program's database", lambda p: _sqlite(p / "s.sqlite", "CREATE TABLE photos (id INTEGER)"),
     "a database of another program"),
    ("newer schema", lambda p: _sqlite(p / "s.sqlite", "PRAGMA application_id=1413630800",
                                       "PRAGMA user_version=99", "CREATE TABLE x (id INTEGER)"),
     "saved by a newer Tablekeeper"),
    ("truncated database", lambda p: _write(p / "s.sqlite", b"SQLite format 3\x00" + b"\x10\x00" + b"\x00" * 80),
     "left untouched"),
    ("slot of another game", lambda p: _save_with(p / "s.sqlite", game="arkham"),
     "slot 'main' holds a arkham session, not fixture"),
    ("entry not JSON", lambda p: _save_with(p / "s.sqlite", "{next"), "slot 'main': entry 1 is not a log entry"),
    ("entry is a list", lambda p: _save_with(p / "s.sqlite", "[1, 2]"), "slot 'main': entry 1 is not a log entry"),
    ("entry is null", lambda p: _save_with(p / "s.sqlite", "null"), "slot 'main': entry 1 is not a log entry"),
    ("entry index not a number", lambda p: _save_with(p / "s.sqlite", _entry(index="x")), "entry 1 is not a log entry"),
    ("entry of unknown kind", lambda p: _save_with(p / "s.sqlite", _entry(kind="boom")), "cannot be replayed"),
    ("undo with nothing to undo", lambda p: _save_with(p / "s.sqlite", _entry(kind="undo", command=None)),
     "cannot be replayed"),
    ("rewind to a missing entry", lambda p: _save_with(p / "s.sqlite", _entry(kind="rewind", target=9)),
     "cannot be replayed"),
    ("event of unknown kind", lambda p: _save_with(p / "s.sqlite", _entry(events=[{"kind": "zzz"}])),
     "cannot be replayed"),
    ("events not a list", lambda p: _save_with(p / "s.sqlite", _entry(events=5)), "entry 1 is not a log entry"),
    ("a step this version's flow no longer has", lambda p: _save_with(p / "s.sqlite", _entry(events=[
        {"kind": "flow", "round": 1, "phase": "mythos", "step": "retired", "seat": None, "done": [], "passes": []}])),
     "cannot be replayed ('mythos.retired')"),
]


@pytest.mark.parametrize(("make", "fragment"), [(m, f) for _i, m, f in SAVES], ids=[i for i, _m, _f in SAVES])
def test_bad_save_file_is_refused_and_left_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     make: Callable[[Path], Path], fragment: str) -> None:
    save = make(tmp_path)
    before = save.read_bytes()
    script = _write(tmp_path / "script.txt", b"next\nadd doom +1\n")
    code, out, err = run_cli(capsys, "play", "fixture", "--save", str(save), "--script", str(script))
    assert_one_line_error(code, err, str(save), fragment)
    assert out == ""
    assert save.read_bytes() == before
    assert not any(p.name.endswith(("-wal", "-journal")) and p.stat().st_size for p in tmp_path.iterdir())


def test_save_path_that_is_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(capsys, "play", "fixture", "--save", str(tmp_path))
    assert_one_line_error(code, err, str(tmp_path), "is a directory")


GOOD_EXPORT = [json.dumps({"tablekeeper": 1, "setup": {"game": "fixture", "seats": 2, "seed": 1, "options": {}}}),
               _entry()]

IMPORTS: list[tuple[str, bytes | None, str]] = [
    ("missing file", None, "cannot read"),
    ("empty file", b"\n\n", "empty file"),
    ("not utf-8", b"\xff\xfe\x00", "cannot read"),
    ("header not JSON", b"tablekeeper\n", "line 1: not a Tablekeeper session export"),
    ("header without setup", b'{"tablekeeper": 1}\n', "line 1: not a Tablekeeper session export"),
    ("setup is a list", b'{"tablekeeper": 1, "setup": [1]}\n', "line 1: not a Tablekeeper session export"),
    ("seats not a number", json.dumps({"setup": {"game": "fixture", "seats": "two", "seed": 1}}).encode(),
     "line 1: not a Tablekeeper session export"),
    ("entry not JSON", (GOOD_EXPORT[0] + "\n\n{oops\n").encode(), "line 3: bad log entry"),
    ("entry is a list", (GOOD_EXPORT[0] + "\n[1]\n").encode(), "line 2: bad log entry"),
    ("entry without kind", (GOOD_EXPORT[0] + '\n{"index": 1}\n').encode(), "line 2: bad log entry"),
]


@pytest.mark.parametrize(("content", "fragment"), [(c, f) for _i, c, f in IMPORTS], ids=[i for i, _c, _f in IMPORTS])
def test_bad_import_is_refused_and_the_target_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   content: bytes | None, fragment: str) -> None:
    target = tmp_path / "target.sqlite"
    with Store.open(target) as store:
        store.create("main", Setup("fixture", 2, 1, {}))
    before = target.read_bytes()
    source = tmp_path / "session.jsonl"
    if content is not None:
        source.write_bytes(content)
    code, out, err = run_cli(capsys, "saves", "import", str(target), "--slot", "main", "--file", str(source))
    assert_one_line_error(code, err, str(source), fragment)
    assert out == ""
    assert target.read_bytes() == before
    if content is not None:
        assert source.read_bytes() == content


def test_a_good_export_imports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The import table above breaks a file this test shows is otherwise accepted."""
    source = _write(tmp_path / "session.jsonl", "\n".join(GOOD_EXPORT).encode())
    code, out, _err = run_cli(capsys, "saves", "import", str(tmp_path / "t.sqlite"), "--file", str(source))
    assert code == 0 and "imported 1 entries" in out


@pytest.mark.parametrize(("action", "fragment"), [("list", "no such save file"), ("export", "no such save file")])
def test_saves_on_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str,
                                 fragment: str) -> None:
    code, _out, err = run_cli(capsys, "saves", action, str(tmp_path / "none.sqlite"))
    assert_one_line_error(code, err, fragment)
    assert not (tmp_path / "none.sqlite").exists()


def test_export_of_an_empty_slot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = _save_with(tmp_path / "s.sqlite")
    before = save.read_bytes()
    code, _out, err = run_cli(capsys, "saves", "export", str(save), "--slot", "other")
    assert_one_line_error(code, err, "no session in slot 'other'")
    assert save.read_bytes() == before



def test_import_with_a_repeated_index_keeps_the_slot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = _save_with(tmp_path / "target.sqlite", _entry())
    source = _write(tmp_path / "session.jsonl", "\n".join([GOOD_EXPORT[0], _entry(), _entry()]).encode())
    code, _out, err = run_cli(capsys, "saves", "import", str(target), "--slot", "main", "--file", str(source))
    assert_one_line_error(code, err, str(source), "line 3")
    with Store.open(target) as store:
        saved = store.load("main")
    assert saved is not None and len(saved.entries) == 1


# --- issue 13: files of the wrong kind, absurd sizes and amounts --------------------------------

COUNTER = '[[counters]]\nvid_pid = "2E8A:0005"\nseat = 1\nrole = "hp"\nserial = "{serial}"\n'


@pytest.mark.parametrize(("content", "fragment"), [
    ("a = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
    ("x" + ".x" * 3000 + " = 1\n", "x: unknown key"),
    (BASE + COUNTER.format(serial="A") + COUNTER.format(serial="B"),
     "counters[1].role: seat 1 already has a 'hp' counter (counters[0])"),
    (BASE + "[timing]\ndebounce = 0.05\n", "timing.debounce: unknown key (did you mean 'debounce_s'?)"),
    (edit("address = 0x3C", "adress = 0x3C"), "displays[0].adress: unknown key (did you mean 'address'?)"),
], ids=["arrays 3000 deep", "tables 3000 deep", "two hp counters on seat 1", "debounce", "adress"])
def test_config_problems_found_by_issue_13(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                                           fragment: str) -> None:
    path = tmp_path / "station.toml"
    path.write_text(content)
    code, out, err = run_cli(capsys, "config", "check", str(path))
    assert_one_line_error(code, err, f"{path}: ", fragment)
    assert out == ""


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "fifo.toml"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize(("make", "fragment"), [
    (lambda p: "/dev/zero", "not a regular file"),
    (_fifo, "not a regular file"),
    (lambda p: str(_write(p / "big.toml", b"# " + b"x" * 2_000_000 + b"\n")), "too large"),
], ids=["/dev/zero", "a FIFO", "2 MB"])
def test_config_that_is_not_a_small_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 make: Callable[[Path], str], fragment: str) -> None:
    path = make(tmp_path)
    for argv in (["config", "check", path], ["run", "--sim", "--config", path, "--display", "capture"]):
        code, _out, err = run_cli(capsys, *argv)
        assert_one_line_error(code, err, path, fragment)


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--seed", "1" * 30], "--seed 111111111111111111111111111111: too large to keep in a save"),
    (["--slot", ""], "--slot '': not a slot name"),
    (["--slot", "a\nb"], "not a slot name"),
    (["--seats", "3"], "holds a 2-seat session; --seats 3 cannot change it"),
], ids=["30-digit seed", "empty slot", "slot with a newline", "seats 3 on a two-seat save"])
def test_save_options_that_cannot_be_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                          fragment: str) -> None:
    save = _save_with(tmp_path / "s.sqlite")
    before = save.read_bytes()
    script = _write(tmp_path / "script.txt", b"next\n")
    code, out, err = run_cli(capsys, "play", "fixture", "--save", str(save), "--script", str(script), *argv)
    assert_one_line_error(code, err, fragment)
    assert out == "" and save.read_bytes() == before


def test_a_20_mb_token_is_one_rejected_line_not_a_hang(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _write(tmp_path / "script.txt", b"add doom " + b"9" * 20_000_000 + b"\nadd doom +1\n")
    code, out, err = run_cli(capsys, "play", "fixture", "--script", str(script), "--json")
    assert code == 0
    assert err.startswith("line 1: 20000010 characters is too long") and len(err.splitlines()) == 1
    assert json.loads(out)["tracks"]["doom"] == 1


@pytest.mark.parametrize(("game", "line"), [
    ("arkham", "set seat1.resources 1000000000"),
    ("arkham", "add agenda.doom +1000000000"),
    ("spirit_island", "set fear.pool 1000000000"),
    ("earthborne", "set location.progress 1000000000"),
    ("oathsworn", "set iron 1000000000"),
])
def test_a_track_without_its_own_bound_stops_at_the_core_bound(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, line: str) -> None:
    script = _write(tmp_path / "script.txt", f"{line}\n".encode())
    code, _out, err = run_cli(capsys, "play", game, "--script", str(script), "--strict")
    assert code == 1 and err.startswith("line 1: ") and "cannot go above 9999" in err, err


# --- output folders a user names ------------------------------------------------------------------

@pytest.mark.parametrize("where", ["a file", "under /proc"])
@pytest.mark.parametrize("argv", [["run", "--sim", "--display", "capture", "--script", "{script}", "--capture-dir"],
                                  ["run", "--sim", "--script", "{script}", "--screens-dir"],
                                  ["hardware", "photos", "--game", "fixture", "--out-dir"]],
                         ids=["run --capture-dir", "run --screens-dir", "hardware photos --out-dir"])
def test_an_output_folder_that_cannot_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str,
                                                 argv: list[str]) -> None:
    target = _write(tmp_path / "plain.txt", b"x") if where == "a file" else Path("/proc/tablekeeper-captures")
    script = _write(tmp_path / "script.txt", b"press next\n")
    option = argv[-1]
    code, out, err = run_cli(capsys, *[a.format(script=script) for a in argv], str(target))
    assert_one_line_error(code, err, f"{option} {target}: ")
    assert out == ""


@pytest.mark.parametrize("make", [lambda p: "/dev/zero", _fifo], ids=["/dev/zero", "a FIFO"])
def test_a_save_that_is_not_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           make: Callable[[Path], str]) -> None:
    save = make(tmp_path)
    code, _out, err = run_cli(capsys, "play", "fixture", "--save", save, "--script", "-")
    assert_one_line_error(code, err, save, "not a regular file")
    code, _out, err = run_cli(capsys, "saves", "check", save)
    assert_one_line_error(code, err, save, "not a regular file")


# --- mistakes once accepted in silence, and messages that misled -------------------------------

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["arkham", "spirit_island", "oathsworn", "earthborne"])
def test_rewind_with_a_superscript_digit_is_one_line_in_every_game(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """``'³'.isdigit()`` is true and ``int('³')`` fails: this was a traceback in all four games."""
    monkeypatch.setattr("sys.stdin", io.StringIO("rewind ³\n"))
    code, out, err = run_cli(capsys, "play", game, "--script", "-")
    assert_one_line_error(code, err, "line 1: rewind K (a log entry number) must be a whole number, not '³'")
    assert out == ""


def _zealot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    save = tmp_path / "z.db"
    assert run_cli(capsys, "campaign", str(save), "z", "new", "night_of_the_zealot", "--seat", "1=roland")[0] == 0
    deck = REPO / "docs" / "games" / "arkham-deck.toml"
    assert run_cli(capsys, "campaign", str(save), "z", "deck", "1", str(deck), "--xp", "6")[0] == 0
    return save


@pytest.mark.parametrize(("argv", "fragment"), [
    (["Shotgn", "4", "--remove", "Knife"], "no player card 'Shotgn' in the card data (arkham/data/cards.toml); "
                                           "nearest: Shotgun"),
    (["Shotgun", "4", "--class", "guardain", "--remove", "Knife"],
     "unknown class 'guardain' (classes: guardian, seeker, rogue, mystic, survivor, neutral); nearest: guardian"),
    (["Shotgun", "3", "--remove", "Knife"], "Shotgun is level 4 in the card data, not 3"),
    (["Shotgun", "4", "--class", "seeker", "--remove", "Knife"], "Shotgun is a guardian card, not seeker"),
], ids=["misspelt card", "misspelt class", "wrong level", "wrong class"])
def test_a_purchase_the_card_data_does_not_know_spends_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    save = _zealot(tmp_path, capsys)
    code, out, err = run_cli(capsys, "campaign", str(save), "z", "buy", "1", *argv)
    assert_one_line_error(code, err, fragment)
    assert out == ""
    code, out, _err = run_cli(capsys, "campaign", str(save), "z", "show")
    assert code == 0 and "roland, 6 experience" in out
    code, out, _err = run_cli(capsys, "campaign", str(save), "z", "buy", "1", "Shotgun", "4", "--remove", "Knife")
    assert (code, out.strip()) == (0, "seat 1 buys Shotgun for 4 experience")  # the table's cases break only one thing


def test_a_refused_typed_line_fails_a_simulator_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _write(tmp_path / "keys.txt", b"press next\ntype nxt\npress next\n")
    code, out, err = run_cli(capsys, "run", "--sim", "--no-counters", "--display", "capture", "--capture-dir",
                             str(tmp_path / "frames"), "--script", str(script))
    assert_one_line_error(code, err, f"{script}:2: unknown verb 'nxt'")
    assert out == ""


@pytest.mark.parametrize("line", ["type rewind ³", "type set agenda.doom １", "type add agenda.doom 1_0"])
def test_the_station_console_refuses_a_number_that_is_not_one(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              line: str) -> None:
    script = _write(tmp_path / "keys.txt", f"{line}\n".encode())
    code, _out, err = run_cli(capsys, "run", "--sim", "--no-counters", "--display", "capture", "--capture-dir",
                              str(tmp_path / "frames"), "--script", str(script))
    assert_one_line_error(code, err, f"{script}:1: ", "must be a whole number, not", "(digits 0-9 only)")


def test_a_window_with_no_screen_says_so(tmp_path: Path) -> None:
    """No desktop session: SDL would fall back to a window drawn nowhere, and the run exit 0."""
    script = _write(tmp_path / "keys.txt", b"press next\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["PYTHONPATH"] = str(REPO / "host")
    result = subprocess.run([sys.executable, "-m", "tablekeeper", "run", "--sim", "--no-counters", "--display",
                             "pygame", "--script", str(script)], capture_output=True, text=True, env=env,
                            cwd=tmp_path, timeout=120, check=False)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("tablekeeper: --display pygame: no screen to open a window on")
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""


@pytest.mark.parametrize("argv", [
    ["play", "fixture", "--script", "{script}", "--save", "{missing}/x.db"],
    ["run", "--sim", "--no-counters", "--display", "capture", "--capture-dir", "{tmp}/frames", "--script", "{script}",
     "--save", "{missing}/x.db"],
    ["campaign", "{missing}/x.db", "z", "new", "night_of_the_zealot", "--seat", "1=roland"],
    ["hardware", "wiring", "--out", "{missing}/w.svg"],
    ["hardware", "panel", "--out", "{missing}/p.svg"],
    ["run", "--sim", "--no-counters", "--display", "capture", "--capture-dir", "{missing}/frames", "--script",
     "{script}"],
], ids=["play --save", "run --save", "campaign new", "hardware wiring --out", "hardware panel --out",
        "run --capture-dir"])
def test_no_folder_is_made_that_nobody_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 argv: list[str]) -> None:
    script = _write(tmp_path / "keys.txt", b"press next\n")
    missing = tmp_path / "nonexistent" / "dir"
    words = [a.format(script=script, missing=missing, tmp=tmp_path) for a in argv]
    code, out, err = run_cli(capsys, *words)
    assert_one_line_error(code, err, str(missing))
    assert out == ""
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize(("option", "fragment"), [
    ("scenario=nosuch.toml", "--option scenario=nosuch.toml: no such data file"),
    ("scenario={tmp}", "--option scenario={tmp}: is a directory, not a data file"),
    ("deck={repo}/hardware/station.toml", "deck is how many cards the deck holds (a whole number), not a deck "
                                          "list; a campaign keeps deck lists: tablekeeper campaign FILE NAME deck"),
    ("seat1.deck=２８", "--option seat1.deck=２８: seat1.deck is how many cards the deck holds"),
], ids=["missing scenario file", "scenario is a folder", "deck file for a deck size", "full-width deck size"])
def test_an_option_value_is_refused_for_what_is_wrong_with_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             option: str, fragment: str) -> None:
    script = _write(tmp_path / "script.txt", b"next\n")
    words = {"tmp": tmp_path, "repo": REPO}
    code, out, err = run_cli(capsys, "play", "arkham", "--option", option.format(**words), "--script", str(script))
    assert_one_line_error(code, err, fragment.format(**words))
    assert out == ""
