"""The fleet's parts without a broker: the [fleet] table, command decoding, the board, the broker
files (checked against Mosquitto's own hashing) and the command line's one-line refusals."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import msgspec
import pytest

from tablekeeper import cli
from tablekeeper.config import REFERENCE_CONFIG, parse_config
from tablekeeper.errors import ConfigError
from tablekeeper.fleet.board import Board
from tablekeeper.fleet.broker_config import hash_password
from tablekeeper.fleet.config import parse_fleet, read_password
from tablekeeper.fleet.messages import Event, Identify, NextGame, Refusal, Status, decode_command, encode
from tablekeeper.fleet.table import board_table
from tests.fleet.pages import page_server

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
    for account in ("organiser", "observer", "t1", "t2"):
        password = (secrets_dir / f"{account}.password").read_text().strip()
        assert len(password) >= 20 and password not in printed.out + printed.err
        assert (secrets_dir / f"{account}.password").stat().st_mode & 0o777 == 0o600
        assert password not in (out / "passwd").read_text()
    assert (out / "passwd").stat().st_mode & 0o777 == 0o600
    acl = (out / "acl").read_text()
    assert "user t1\ntopic write tablekeeper/t1/status\ntopic write tablekeeper/t1/events\n" \
           "topic read tablekeeper/t1/cmd" in acl
    assert "user organiser\ntopic read tablekeeper/#\ntopic write tablekeeper/+/cmd" in acl
    assert "user observer\ntopic read tablekeeper/+/status\ntopic read tablekeeper/+/events\n" in acl
    conf = (out / "mosquitto.conf").read_text().splitlines()
    assert "allow_anonymous false" in conf and f"acl_file {out / 'acl'}" in conf
    assert "use_username_as_clientid true" in conf  # one account's password cannot take another's client ID
    assert {"max_packet_size 17408", "max_connections 10", "max_queued_messages 200"} <= set(conf)
    # a second run cannot replace passwords the stations already use
    assert cli.main(["fleet", "broker-config", "t1", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(("names", "message"), [
    (["t 1"], "station 't 1': use letters"), (["t1", "t1"], "named twice"), (["organiser"], "organiser's account"),
    (["observer"], "observer's account"),
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
    _feed(board, Status(station="t1", table="Table 1", mode="playing", game="arkham", round=3, run="r1", boot="b1",
                        displays={"track": "ok", "tokens": "failed"}, counters={"2": "missing"}))
    _feed(board, Event(station="t1", kind="started", at=now[0], run="r1", boot="b1"))
    _feed(board, Event(station="t1", kind="demo_ended", at=now[0], game="arkham", length_s=120, finished=True))
    _feed(board, Event(station="t1", kind="demo_ended", at=now[0], game="arkham", length_s=60, finished=False))
    now[0] += 600  # a restart: a new run ID on the same boot
    _feed(board, Status(station="t1", table="Table 1", mode="attract", run="r2", boot="b1"))
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


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_uptime_and_restarts_do_not_follow_a_stepped_wall_clock(protection: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi without a clock chip starts on a saved time and is stepped by NTP later: here 40 days on,
    10 s after the start. Uptime stays 10 s (a monotonic count); the organiser tells a restart and a
    reboot by the run and boot IDs, even when the new start's wall-clock time is weeks in the past.
    With the protection removed (uptime from wall-clock start times, restarts from start times on the
    organiser's day), uptime reads 3,456,010 s and the reboot is missed."""
    from tablekeeper.fleet import board as board_module
    from tablekeeper.fleet import link as link_module
    from tablekeeper.fleet.config import FleetConfig
    from tablekeeper.fleet.link import FleetLink

    if protection != "on":
        monkeypatch.setattr(link_module, "_restamp", lambda status, at, _uptime: msgspec.structs.replace(
            status, at=at, uptime_s=int(at - status.started_at)))

        def by_start_time(self: Board, tile: object, _run: str | None, _boot: str | None) -> None:
            return None  # a start whose time is not today on the organiser's calendar was never counted

        monkeypatch.setattr(board_module.Board, "_started", by_start_time)
    wall, mono = [1_800_000_000.0], [100.0]
    link = FleetLink(FleetConfig(broker="127.0.0.1", station="t1"), on_command=lambda c: None,
                     will=Status(station="t1"), wall_clock=lambda: wall[0], monotonic=lambda: mono[0])
    first = Status(station="t1", mode="playing", started_at=wall[0], run="r1", boot="b1")
    mono[0] += 10
    wall[0] += 40 * 86400 + 10  # NTP steps the clock
    sent = link_module._restamp(first, link.wall_clock(), link.monotonic() - link.started_s)
    assert (sent.uptime_s == 10) is (protection == "on")
    organiser_clock = [1_800_000_000.0]
    board = Board(clock=lambda: organiser_clock[0])
    _feed(board, first)
    # the box loses power and boots on its saved (older) time: a new boot and a new run
    _feed(board, Status(station="t1", mode="attract", started_at=1_796_000_000.0, run="r2", boot="b2"))
    tile = board.snapshot().tiles[0]
    assert (tile.restarts_today, tile.reboots_today) == ((1, 1) if protection == "on" else (0, 0))
    if protection == "on":
        assert "rebooted 1x today" in tile.alerts and not any(a.startswith("restarted") for a in tile.alerts)


def test_the_status_of_a_failed_display_and_missing_counter_are_alerts() -> None:
    board = Board()
    _feed(board, Status(station="t1", mode="playing", displays={"tokens": "failed"}, counters={"2": "missing"}))
    assert board.snapshot().tiles[0].alerts == ["tokens display failed", "seat 2 counter missing"]


@pytest.mark.parametrize(("extra", "message"), [
    ([], "--bind 0.0.0.0: the page would be open to the network; give it a password with --page-password-file "
         "FILE (mode 0600)"),
    (["--page-password-file", "PW"], "--bind 0.0.0.0: the page's password would cross the network in clear text; "
                                     "serve it over HTTPS with --page-cert FILE --page-key FILE"),
])
def test_off_loopback_the_page_needs_a_password_and_tls(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        extra: list[str], message: str) -> None:
    secret = tmp_path / "pw"
    secret.write_text("letmein\n")
    secret.chmod(0o600)
    args = [str(secret) if a == "PW" else a for a in extra]
    assert cli.main(["fleet", "serve", "--broker", "127.0.0.1", "--bind", "0.0.0.0", *args]) == 2
    assert capsys.readouterr().err == f"tablekeeper: {message}\n"


def test_the_page_answers_with_its_password_and_refuses_a_bad_command() -> None:
    server = page_server(Board(), None, password="letmein")
    url = f"http://127.0.0.1:{server.port}/state"
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url, timeout=5)
        assert refused.value.code == 401 and "Basic" in refused.value.headers["WWW-Authenticate"]
        request = urllib.request.Request(url, headers={
            "Authorization": "Basic " + base64.b64encode(b"organiser:letmein").decode()})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 200 and b'"tiles":[]' in answer.read()
        bad = urllib.request.Request(f"http://127.0.0.1:{server.port}/command", method="POST",
                                     data=b'{"station": "t1", "cmd": "dance"}', headers={
                                         "Content-Type": "application/json",
                                         "Authorization": "Basic " + base64.b64encode(b"o:letmein").decode()})
        with pytest.raises(urllib.error.HTTPError) as rejected:
            urllib.request.urlopen(bad, timeout=5)
        assert rejected.value.code == 400 and b"unknown command 'dance'" in rejected.value.read()
    finally:
        server.stop()


@pytest.mark.parametrize("command", ["serve", "status"])
def test_an_unresolvable_broker_is_named_at_start(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt broker cannot heal by waiting: both commands stop at once with one line (exit 2)."""
    assert cli.main(["fleet", command, "--broker", "nosuch.invalid"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablekeeper: --broker nosuch.invalid: no such host (") and err.count("\n") == 1
    assert err.endswith("; check the name\n")


def test_status_names_an_unreachable_broker_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fleet", "status", "--broker", "127.0.0.1", "--port", "1", "--wait", "0.5"]) == 2
    err = capsys.readouterr().err
    assert err == "tablekeeper: fleet broker: no answer from 127.0.0.1:1 within 0.5 s\n"


def test_the_fleet_modules_import_no_station_hardware() -> None:
    code = ("import sys, tablekeeper.commands.fleet, tablekeeper.web.organiser, tablekeeper.fleet.board; "
            "print(sorted(m for m in ('gpiozero', 'luma.oled', 'serial') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
