"""The fleet link's threads are supervised: a publishing loop that fails is restarted with back-off,
paho's network thread is started again if a callback's exception ended it, and the watchdog's
health counts the link."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tablekeeper.fleet.link import FleetLink
from tablekeeper.fleet.messages import Event, Lock, Status
from tablekeeper.supervisor import Supervisor
from tests.fleet.brokers import Broker, poll, wait_until
from tests.fleet.stations import fleet_config, organiser


def _link(broker: Broker, received: list[Any] | None = None) -> FleetLink:
    config = fleet_config(broker, "t1")
    sink = received if received is not None else []
    return FleetLink(config, on_command=sink.append, will=Status(station="t1", mode="offline"))


def test_a_failing_publish_is_restarted_and_the_link_carries_on(broker: Broker) -> None:
    link = _link(broker)
    supervisor = Supervisor(clock=time.monotonic)
    real_send = link._send
    failures = []

    def send_once_failing(record: Any) -> None:
        if not failures:
            failures.append(record)
            raise RuntimeError("a bug in the publishing loop")
        real_send(record)

    link._send = send_once_failing  # type: ignore[method-assign]
    link.start(supervisor)
    try:
        assert link.wait_connected(10)
        link.offer(Event(station="t1", kind="reset", at=1.0))
        wait_until(lambda: bool(failures), "the failure")
        wait_until(lambda: (supervisor.check(), supervisor.status()[0].restarts >= 1)[1], "the restart")
        link.offer(Event(station="t1", kind="reset", at=2.0))
        wait_until(lambda: link.stats().published >= 1, "a publish after the restart")
        assert supervisor.check()
    finally:
        link.close()
        supervisor.stop()


@pytest.mark.parametrize("watched", [True, False], ids=["watched", "not watched (the check can fail)"])
def test_a_dead_network_thread_is_started_again(broker: Broker, monkeypatch: pytest.MonkeyPatch,
                                                watched: bool) -> None:
    received: list[Any] = []
    link = _link(broker, received)
    if not watched:
        monkeypatch.setattr(FleetLink, "_keep_network_thread", lambda self: None)
    supervisor = Supervisor(clock=time.monotonic)
    link.start(supervisor)
    client, _board = organiser(broker)
    try:
        assert link.wait_connected(10)
        def subscribed() -> bool:  # the link subscribes once connected: ask until a command gets through
            if not received:
                client.send("t1", Lock(id="before"))
            return bool(received)

        assert poll(subscribed, 10, every_s=0.5), "no command reached the link while paho's thread ran"
        link.client.loop_stop()  # as if an exception in a callback had ended paho's thread
        client.send("t1", Lock(id="after"))
        read = poll(lambda: link.network_restarts >= 1 and any(c.id == "after" for c in received),
                    10 if watched else 3)
        assert read is watched  # unwatched, nobody reads the socket any more
    finally:
        client.close()
        link.close()
        supervisor.stop()
