"""The systemd notify link, against a real AF_UNIX datagram socket standing in for systemd."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.appliance.watchdog import SocketNotifier, Watchdog


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield server
    server.close()


def _received(server: socket.socket) -> list[str]:
    messages = []
    while True:
        try:
            messages.append(server.recv(4096).decode())
        except BlockingIOError:
            return messages


def test_ready_feed_and_stopping_reach_systemd(notify_socket: socket.socket) -> None:
    env = {"NOTIFY_SOCKET": os.environ["NOTIFY_SOCKET"], "WATCHDOG_USEC": "10000000"}
    watchdog = Watchdog(env=env)
    assert watchdog.feed_interval_s == 5.0
    watchdog.ready("3 displays, 2 counters")
    sent = [watchdog.feed(now_s) for now_s in (100.0, 101.0, 104.9, 105.0, 109.9, 110.0)]
    watchdog.stopping()
    assert sent == [True, False, False, True, False, True]
    assert _received(notify_socket) == ["READY=1\nSTATUS=3 displays, 2 counters",
                                        "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1"]


def test_without_notify_socket_every_call_is_a_no_op() -> None:
    created = []
    watchdog = Watchdog(env={}, notifier_factory=lambda: created.append(1))  # type: ignore[arg-type,func-returns-value]
    watchdog.ready()
    assert watchdog.feed(1.0) is False
    watchdog.stopping()
    assert created == []


def test_a_watchdog_meant_for_another_pid_is_not_fed(notify_socket: socket.socket) -> None:
    env = {"NOTIFY_SOCKET": os.environ["NOTIFY_SOCKET"], "WATCHDOG_USEC": "10000000",
           "WATCHDOG_PID": str(os.getpid() + 1)}
    watchdog = Watchdog(env=env)
    assert watchdog.feed(0.0) is False
    watchdog.ready()
    assert _received(notify_socket) == ["READY=1\nSTATUS=running"]


def test_an_abstract_socket_name_is_reached(tmp_path: Path) -> None:
    """``NOTIFY_SOCKET=@name``: systemd's abstract-namespace socket (a leading NUL byte on the wire)."""
    name = f"tablekeeper-test-{os.getpid()}-{tmp_path.name}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        server.settimeout(5)
        Watchdog(env={"NOTIFY_SOCKET": "@" + name}).ready()
        assert server.recv(4096) == b"READY=1\nSTATUS=running"


def test_a_notification_that_cannot_be_sent_is_logged_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    notifier = SocketNotifier(str(tmp_path / "gone"))
    watchdog = Watchdog(env={"NOTIFY_SOCKET": notifier.address, "WATCHDOG_USEC": "2000000"},
                        notifier_factory=lambda: notifier)
    with caplog.at_level(logging.WARNING, logger="tablekeeper.appliance.watchdog"):
        watchdog.ready()
        assert watchdog.feed(0.0)
    assert notifier.failures == 2
    assert [r.getMessage() for r in caplog.records] == [
        f"systemd notification 'READY=1' not delivered to {notifier.address!r}: [Errno 2] No such file or directory"]
