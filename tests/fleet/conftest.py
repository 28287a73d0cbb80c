"""Fixtures for the fleet tests: a real broker per test (see ``brokers.py``) and a summary line
saying which broker ran."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fleet.brokers import STATIONS, USED, Broker, broker_kind, mosquitto_version


@pytest.fixture
def make_broker(tmp_path: Path) -> Iterator[Callable[..., Broker]]:
    started: list[Broker] = []

    def make(stations: tuple[str, ...] = STATIONS, *, acl: bool = True, tls_names: tuple[str, ...] = (),
             drop: tuple[str, ...] = ()) -> Broker:
        broker = Broker(tmp_path / f"broker{len(started)}", stations, acl=acl, tls_names=tls_names, drop=drop)
        broker.start()
        started.append(broker)
        return broker

    yield make
    for broker in started:
        broker.stop()


@pytest.fixture
def broker(make_broker: Callable[..., Broker]) -> Broker:
    return make_broker()


def pytest_report_header() -> str:
    fallback = "amqtt (pure Python; no mosquitto on PATH)"
    return f"fleet broker: {mosquitto_version() if broker_kind() == 'mosquitto' else fallback}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if USED:
        names = [mosquitto_version() if kind == "mosquitto" else "amqtt (pure-Python fallback)"
                 for kind in sorted(USED)]
        terminalreporter.write_line(f"fleet tests ran against: {', '.join(names)}")
