"""Stations for the fleet tests: the real station loop on simulated parts, run on its own thread."""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

import msgspec

from tablekeeper.commands.run import make_station
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.session import Session
from tablekeeper.fleet.board import Board
from tablekeeper.fleet.config import FleetConfig
from tablekeeper.fleet.organiser import BrokerLogin, Organiser
from tablekeeper.fleet.reporter import FleetReporter
from tablekeeper.intents import Quit
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_displays, make_outputs
from tests.fleet.brokers import Broker
from tests.station.station_game import GAME


def fleet_config(broker: Broker, station: str, **extra: object) -> FleetConfig:
    values: dict[str, object] = {"broker": "127.0.0.1", "port": broker.port, "station": station,
                                 "table": f"table {station[1:]}", "keepalive_s": 5, "heartbeat_s": 30.0}
    if broker.secure:
        values.update(username=station, password_file=broker.password_file(station))
    else:
        values.update(mqtt="3.1.1")
    if broker.ca_file is not None:
        values.update(tls=True, ca_file=broker.ca_file)
    values.update(extra)
    return FleetConfig(**values)  # type: ignore[arg-type]


class LiveStation:
    """A station (``demo``: in convention demo mode) reporting to ``broker``, its loop on a thread."""

    def __init__(self, broker: Broker, name: str, tmp: Path, *, demo: bool = False, **extra: object) -> None:
        config = msgspec.structs.replace(load_config(REFERENCE_CONFIG), fleet=fleet_config(broker, name, **extra))
        self.parts = SimulatedParts(config, display_mode=None, capture_dir=tmp / f"frames-{name}")
        clock = time.monotonic
        displays = make_displays(config, self.parts.open_device, clock=clock)
        args = argparse.Namespace(demo=demo, seed=1)
        self.station: Station = make_station(args, session=Session(GAME, seats=2, seed=1), store=None, config=config,
                                             displays=displays, clock=clock)
        self.station.sink.outputs = make_outputs(config, clock=clock, pin_factory=self.parts.pin_factory)
        assert config.fleet is not None
        self.reporter = FleetReporter(self.station, config.fleet)
        self.thread = threading.Thread(target=self.station.run, kwargs={"idle_wait_s": 0.05}, daemon=True)

    def start(self) -> LiveStation:
        self.reporter.start()
        self.thread.start()
        return self

    def stop(self) -> None:
        if not self.thread.is_alive() and not self.station.running:
            return
        self.station.put(Quit("test over"))
        self.thread.join(5)
        self.reporter.close()
        self.station.close()
        self.parts.close()


def organiser(broker: Broker, *, answer_s: float = 5.0) -> tuple[Organiser, Board]:
    board = Board()
    login = BrokerLogin(host="127.0.0.1", port=broker.port, username="organiser" if broker.secure else None,
                        password=broker.password("organiser"), keepalive_s=5, tls=broker.ca_file is not None,
                        ca_file=broker.ca_file)
    client = Organiser(login, board, answer_s=answer_s)
    client.start()
    client.wait_connected(10)
    return client, board
