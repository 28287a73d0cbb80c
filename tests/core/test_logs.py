"""Logging reaches the journal with sd-daemon priorities, and stderr plainly elsewhere."""

from __future__ import annotations

import io
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.logs import configure, under_journal


@pytest.fixture(autouse=True)
def _restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


CONFIG = str(Path(__file__).resolve().parents[2] / "hardware" / "station.toml")


def _journal_file() -> tuple[io.TextIOWrapper, dict[str, str]]:
    handle = tempfile.TemporaryFile("w+")  # noqa: SIM115 (the test owns the stream)
    info = os.fstat(handle.fileno())
    return handle, {"JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"}


def test_under_systemd_each_line_carries_its_priority() -> None:
    stream, env = _journal_file()
    assert under_journal(env, stream)
    configure("info", env=env, stream=stream)
    log = logging.getLogger("tablekeeper.hw.counters")
    log.info("counter %s reconnected", "E66038")
    log.warning("display tokens failed")
    log.debug("not shown at info")
    stream.seek(0)
    assert stream.read().splitlines() == ["<6>tablekeeper.hw.counters: counter E66038 reconnected",
                                          "<4>tablekeeper.hw.counters: display tokens failed"]


def test_a_journal_stream_of_another_file_is_not_ours() -> None:
    stream, _env = _journal_file()
    assert not under_journal({"JOURNAL_STREAM": "1:2"}, stream)
    assert not under_journal({}, stream)


def test_outside_systemd_lines_are_plain_and_configure_replaces_its_handler(
        capsys: pytest.CaptureFixture[str]) -> None:
    stream = io.StringIO()
    configure("warning", env={}, stream=stream)
    configure("warning", env={}, stream=stream)
    logging.getLogger("tablekeeper.station.loop").warning("save is full")
    assert stream.getvalue() == "tablekeeper: WARNING tablekeeper.station.loop: save is full\n"


def test_verbose_flag_sets_info(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablekeeper.cli import main

    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    assert main(["--verbose", "config", "check", CONFIG]) == 0
    assert logging.getLogger().level == logging.INFO
    assert main(["--log-level", "error", "config", "check", CONFIG]) == 0
    assert logging.getLogger().level == logging.ERROR
