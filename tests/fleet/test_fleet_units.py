"""The fleet's parts without a broker: the [fleet] table, command decoding, the board, the broker
files (checked against Mosquitto's own hashing) and the command line's one-line refusals."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.config import REFERENCE_CONFIG, parse_config
from tablekeeper.errors import ConfigError
from tablekeeper.fleet.board import Board
from tablekeeper.fleet.broker_config import hash_password
from tablekeeper.fleet.config import parse_fleet, read_password
from tablekeeper.fleet.messages import Event, Identify, NextGame, Refusal, Status, decode_command, encode
from tablekeeper.fleet.server import FleetServer
from tablekeeper.fleet.table import board_table

REFERENCE = Path(REFERENCE_CONFIG).read_text(encoding="utf-8")


def test_the_station_config_reads_a_fleet_table() -> None:
    cfg = parse_config(REFERENCE + '\n[fleet]\nbroker = "fleet.local"\nstation = "t7"\ntable = "Table 7"\n'
                       'username = "t7"\npassword_file = "/etc/tablekeeper/fleet.password"\n', source="s.toml")
    assert cfg.fleet is not None
    assert (cfg.fleet.broker, cfg.fleet.port, cfg.fleet.station, cfg.fleet.tls) == ("fleet.local", 1883, "t7", False)
    assert parse_config(REFERENCE, source="s.toml").fleet is None


@pytest.mark.parametrize(("table", "message"), [
    ({"broker": "b", "station": "t1", "prot": 1}, "s.toml: fleet.prot: unknown key (did you mean 'port'?)"),
    ({"broker": "b", "station": "t/1"}, "s.toml: fleet.station: Expected str matching regex"),
    ({"broker": "b", "station": "t1", "port": 70000}, "s.toml: fleet.port: Expected int <= 65535"),
    ({"station": "t1"}, "s.toml: fleet: missing required key broker"),
    ({"broker": "b", "station": "t1", "password_file": "p"}, "s.toml: fleet.password_file: needs fleet.username"),
    ({"broker": "b", "station": "t1", "ca_file": "ca.pem"}, "s.toml: fleet.ca_file: set fleet.tls = true"),
])
def test_a_bad_fleet_table_is_one_line_naming_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_fleet(table, "s.toml")
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_a_password_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fleet.password"
    path.write_text("s3cret\n", encoding="utf-8")
    path.chmod(0o644)
    with pytest.raises(ConfigError, match=r"readable by others \(mode 0644\); run: chmod 600"):
        read_password(path)
    path.chmod(0o600)
    assert read_password(path) == "s3cret"


def test_a_station_with_a_shared_password_file_does_not_start(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               ) -> None:
    secret = tmp_path / "pw"
    secret.write_text("x\n", encoding="utf-8")
    secret.chmod(0o640)
    config = tmp_path / "station.toml"
    config.write_text(REFERENCE + f'\n[fleet]\nbroker = "127.0.0.1"\nstation = "t1"\nusername = "t1"\n'
                      f'password_file = "{secret}"\n', encoding="utf-8")
    script = tmp_path / "keys.txt"
    script.write_text("space\n", encoding="utf-8")
    code = cli.main(["run", "--sim", "--config", str(config), "--script", str(script),
                     "--capture-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "readable by others" in err


@pytest.mark.parametrize(("payload", "reason"), [
    (b'{"cmd": "dance"}', "unknown command 'dance' (known: reset, lock, unlock, next_game, identify)"),
    (b"{not json", "JSON is malformed"),
    (b'{"cmd": "next_game"}', "command missing required field game"),
    (b'{"cmd": "identify", "seconds": 600}', "Expected float <= 60.0"),
    (b'{"cmd": "lock", "please": true}', "command contains unknown field please"),
    (b"x" * 5000, "command is 5000 bytes"),
])
def test_malformed_commands_are_refused_with_a_reason(payload: bytes, reason: str) -> None:
    refusal = decode_command(payload)
    assert isinstance(refusal, Refusal) and refusal.reason.startswith(reason)


def test_commands_round_trip() -> None:
    assert decode_command(encode(NextGame(game="arkham", id="7"))) == NextGame(game="arkham", id="7")
    assert decode_command(b'{"cmd": "identify"}') == Identify()


def test_generated_hashes_are_mosquitto_passwd_hashes(tmp_path: Path) -> None:
    line = hash_password("secret", salt=b"0123456789ab")
    _, seven, iterations, salt, digest = line.split("$")
    assert base64.b64decode(salt) == b"0123456789ab"
    assert (seven, iterations) == ("7", "101")
    assert base64.b64decode(digest) == hashlib.pbkdf2_hmac("sha512", b"secret", b"0123456789ab", 101)
    if shutil.which("mosquitto_passwd"):  # Mosquitto's own tool writes the same shape
        subprocess.run(["mosquitto_passwd", "-c", "-b", str(tmp_path / "p"), "u", "secret"], check=True,
                       capture_output=True)
        theirs = (tmp_path / "p").read_text().strip().split(":", 1)[1].split("$")
        assert [len(part) for part in theirs] == [len(part) for part in line.split("$")]
        assert base64.b64decode(theirs[4]) == hashlib.pbkdf2_hmac("sha512", b"secret", base64.b64decode(theirs[3]),
                                                                  int(theirs[2]))


def test_broker_config_writes_private_passwords_and_never_prints_them(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "broker"
    assert cli.main(["fleet", "broker-config", "t1", "t2", "--out", str(out), "--broker-user", "root"]) == 0
    printed = capsys.readouterr()
    secrets_dir = out / "secrets"
    for account in ("organiser", "t1", "t2"):
        password = (secrets_dir / f"{account}.password").read_text().strip()
        assert len(password) >= 20 and password not in printed.out + printed.err
        assert (secrets_dir / f"{account}.password").stat().st_mode & 0o777 == 0o600
        assert password not in (out / "passwd").read_text()
    assert (out / "passwd").stat().st_mode & 0o777 == 0o600
    acl = (out / "acl").read_text()
    assert "user t1\ntopic write tablekeeper/t1/status\ntopic write tablekeeper/t1/events\n" \
           "topic read tablekeeper/t1/cmd" in acl
    assert "user organiser\ntopic read tablekeeper/#\ntopic write tablekeeper/+/cmd" in acl
    conf = (out / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and f"acl_file {out / 'acl'}" in conf
    # a second run cannot replace passwords the stations already use
    assert cli.main(["fleet", "broker-config", "t1", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(("names", "message"), [
    (["t 1"], "station 't 1': use letters"), (["t1", "t1"], "named twice"), (["organiser"], "organiser's account"),
])
def test_broker_config_refuses_bad_station_names(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 names: list[str], message: str) -> None:
    assert cli.main(["fleet", "broker-config", *names, "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not (tmp_path / "b").exists()


def _feed(board: Board, record: Status | Event) -> None:
    kind = "status" if isinstance(record, Status) else "events"
    board.receive(f"tablekeeper/{record.station}/{kind}", encode(record))


def test_the_board_keeps_alerts_demos_restarts_and_offline_since() -> None:
    now = [1_800_000_000.0]
    board = Board(clock=lambda: now[0])
    _feed(board, Status(station="t1", table="Table 1", mode="playing", game="arkham", round=3, started_at=now[0],
                        displays={"track": "ok", "tokens": "failed"}, counters={"2": "missing"}))
    _feed(board, Event(station="t1", kind="started", at=now[0]))
    _feed(board, Event(station="t1", kind="demo_ended", at=now[0], game="arkham", length_s=120, finished=True))
    _feed(board, Event(station="t1", kind="demo_ended", at=now[0], game="arkham", length_s=60, finished=False))
    now[0] += 600  # a restart: a new start time
    _feed(board, Status(station="t1", table="Table 1", mode="attract", started_at=now[0]))
    _feed(board, Status(station="t2", table="Table 2", mode="offline"))
    board.receive("tablekeeper/t3/status", b"garbage")  # ignored, not a crash
    board.receive("tablekeeper/t4/status", encode(Status(station="t1", mode="playing")))  # forged name: ignored
    view = board.snapshot()
    t1, t2 = view.tiles
    assert (view.demos_today, view.average_demo_s) == (2, 90.0)
    assert (t1.mode, t1.restarts_today, t1.demos_today) == ("attract", 1, 2)
    assert "restarted 1x today" in t1.alerts
    assert t2.alerts[0].startswith("offline since ") and not t2.online
    text = board_table(view)
    assert "t2       Table 2  offline" in text and "demos today" in text and "average length 90 s" in text


def test_the_status_of_a_failed_display_and_missing_counter_are_alerts() -> None:
    board = Board()
    _feed(board, Status(station="t1", mode="playing", displays={"tokens": "failed"}, counters={"2": "missing"}))
    assert board.snapshot().tiles[0].alerts == ["tokens display failed", "seat 2 counter missing"]


def test_the_page_asks_for_its_password_off_loopback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fleet", "serve", "--broker", "127.0.0.1", "--bind", "0.0.0.0"]) == 2
    assert "--page-password-file" in capsys.readouterr().err
    server = FleetServer(("127.0.0.1", 0), board=Board(), organiser=None, password="letmein")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/state"
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url, timeout=5)
        assert refused.value.code == 401 and "Basic" in refused.value.headers["WWW-Authenticate"]
        request = urllib.request.Request(url, headers={
            "Authorization": "Basic " + base64.b64encode(b"organiser:letmein").decode()})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200 and b'"tiles":[]' in answer.read()
        bad = urllib.request.Request(f"http://127.0.0.1:{server.server_port}/command", method="POST",
                                     data=b'{"station": "t1", "cmd": "dance"}', headers={
                                         "Content-Type": "application/json",
                                         "Authorization": "Basic " + base64.b64encode(b"o:letmein").decode()})
        with pytest.raises(urllib.error.HTTPError) as rejected:
            urllib.request.urlopen(bad, timeout=5)
        assert rejected.value.code == 400 and b"unknown command 'dance'" in rejected.value.read()
    finally:
        server.shutdown()
        server.server_close()


def test_status_names_an_unreachable_broker_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fleet", "status", "--broker", "127.0.0.1", "--port", "1", "--wait", "0.5"]) == 2
    err = capsys.readouterr().err
    assert err == "tablekeeper: fleet broker: no answer from 127.0.0.1:1 within 0.5 s\n"


def test_the_fleet_modules_import_no_station_hardware() -> None:
    code = ("import sys, tablekeeper.commands.fleet, tablekeeper.fleet.server, tablekeeper.fleet.board; "
            "print(sorted(m for m in ('gpiozero', 'luma.oled', 'serial') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
