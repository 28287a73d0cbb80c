"""Turning the phones' pages on: ``tablekeeper run --sim --web ADDR:PORT`` serves ``/`` and
``/seat/N`` (401 without the run's secret) and prints the link; ``[web]`` in the station config does
the same; a mistyped address, a taken port or a bad ``[web]`` key is one line and exit 2, before
anything is drawn."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.config import REFERENCE_CONFIG, WebConfig, parse_config
from tablekeeper.errors import ConfigError


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _status(port: int, path: str) -> int:
    page = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    page.request("GET", path)
    return page.getresponse().status


def test_run_sim_with_web_serves_the_pages_behind_the_secret(tmp_path: Path) -> None:
    port = _free_port()
    run = subprocess.Popen([sys.executable, "-m", "tablekeeper", "run", "--sim", "--web", f"127.0.0.1:{port}",
                            "--game", "earthborne", "--no-counters", "--display", "capture",
                            "--capture-dir", str(tmp_path / "frames"), "--save", str(tmp_path / "game.sqlite")],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    try:
        assert run.stderr is not None
        said = ""
        while "phones join at" not in said:
            line = run.stderr.readline()
            assert line, f"the run ended: {said}"
            said += line
        found = re.search(rf"phones join at http://127\.0\.0\.1:{port}/\?k=(\S+) .*PIN (\d+)", said)
        assert found is not None, said
        secret = found.group(1)
        assert _status(port, "/") == 401
        assert _status(port, "/seat/2") == 401
        assert _status(port, f"/?k={secret}x") == 401
        assert _status(port, f"/?k={secret}") == 200
        assert _status(port, f"/seat/2?k={secret}") == 200
    finally:
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=20) == 0


@pytest.mark.parametrize("given", ["nonsense", "8765", "127.0.0.1:", "127.0.0.1:99999", "::1:8765", ":8765"])
def test_a_mistyped_web_address_is_one_line_before_anything_is_drawn(given: str, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    frames = tmp_path / "frames"
    assert main(["run", "--sim", "--web", given, "--no-counters", "--display", "capture",
                 "--capture-dir", str(frames)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tablekeeper: --web: "), err
    assert not frames.exists() or not any(frames.iterdir())


def test_a_taken_port_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["run", "--sim", "--web", f"127.0.0.1:{port}", "--no-counters", "--display", "capture",
                     "--capture-dir", str(tmp_path / "frames"), "--save", str(tmp_path / "game.sqlite")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"tablekeeper: web listen 127.0.0.1:{port}: Address already in use", err
    assert not [line for line in err if "Traceback" in line]


def _with_web(table: str) -> str:
    return REFERENCE_CONFIG.read_text(encoding="utf-8") + "\n[web]\n" + table


def test_the_web_table_of_the_config() -> None:
    web = parse_config(_with_web('listen = "[::1]:8765"\nnames = ["Tablekeeper.local"]\n'), source="s.toml").web
    assert web == WebConfig("::1", 8765, ("tablekeeper.local",))
    assert web.listen == "[::1]:8765"
    assert parse_config(REFERENCE_CONFIG.read_text(encoding="utf-8"), source="s.toml").web is None  # off unless asked


@pytest.mark.parametrize(("table", "named"), [
    ('listen = "8765"\n', "s.toml: web.listen"),
    ('listen = "0.0.0.0:0"\n', "s.toml: web.listen"),
    ('listen = "127.0.0.1:8765"\nnames = ["a/b"]\n', "s.toml: web.names[0]"),
    ('listen = "127.0.0.1:8765"\nport = 1\n', "port"),
    ('names = ["x"]\n', "listen"),
])
def test_a_bad_web_table_is_one_error_naming_the_key(table: str, named: str) -> None:
    with pytest.raises(ConfigError) as refused:
        parse_config(_with_web(table), source="s.toml")
    assert named in str(refused.value) and "\n" not in str(refused.value)
