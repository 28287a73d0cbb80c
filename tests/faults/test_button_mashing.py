"""Button mashing on the station: random presses, holds, releases and contact bounce on gpiozero mock
pins at a high rate, into the real station loop (simulated displays, a real game, a fake clock).

Checked: nothing raises, the intent queue stays bounded between loop passes and is empty after one,
every track stays within its bounds, and the session replays from its log to the same state.
The suite mashes 1,000 times; the stress run 10,000 times, for every game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.config import default_config_path, load_config
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.hw.buttons import MAX_REPEATS_PER_POLL
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_buttons, make_displays, make_outputs
from tests.faults.walk import playable_games, primary_game

MAX_BURST = 12  # pin events between two loop passes: a child with both hands on the panel


class Panel:
    """The reference build on simulated parts, wired as the station command wires it."""

    def __init__(self, game: Game, capture_dir: Path) -> None:
        self.config = load_config(default_config_path())
        self.clock = FakeClock()
        self.parts = SimulatedParts(self.config, display_mode=None, capture_dir=capture_dir)
        self.session = Session(game, seats=game.seats_default, seed=3)
        displays = make_displays(self.config, self.parts.open_device, clock=self.clock)
        self.station = Station(session=self.session, config=self.config, displays=displays, clock=self.clock)
        self.station.buttons = make_buttons(self.config, emit=self.station.put, clock=self.clock,
                                            pin_factory=self.parts.pin_factory)
        self.station.sink.outputs = make_outputs(self.config, clock=self.clock, pin_factory=self.parts.pin_factory)
        self.station.start()
        self.down: set[str] = set()

    def set(self, role: str, down: bool) -> None:
        button = self.parts.button(role)
        assert button is not None
        self.parts.set_button(button, down)
        (self.down.add if down else self.down.discard)(role)

    def loop_pass(self) -> None:
        """What one pass of ``Station.run`` does: handle what is queued, then the timed work."""
        self.station.drain()
        self.station.poll(self.clock())
        self.station.drain()

    def close(self) -> None:
        self.station.close()
        self.parts.close()


@pytest.fixture
def panel_factory(tmp_path: Path) -> Iterator[list[Panel]]:
    made: list[Panel] = []
    yield made
    for panel in made:
        panel.close()


def in_bounds(session: Session) -> list[str]:
    return [f"{name}={c.value} outside {c.lo}..{c.hi}" for name, c in session.state.tracks.items()
            if (c.lo is not None and c.value < c.lo) or (c.hi is not None and c.value > c.hi)]


def mash(panel: Panel, events: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    roles = [b.role for b in panel.config.buttons]
    bound = MAX_BURST + len(roles) * (MAX_REPEATS_PER_POLL + 2)
    largest_queue = done = 0
    while done < events:
        for _ in range(rng.randint(1, MAX_BURST)):
            role = rng.choice(roles)
            kind = rng.random()
            if kind < 0.6:  # a tap, or a release of a held button
                panel.set(role, role not in panel.down)
            elif kind < 0.8:  # contact bounce: a few edges inside the debounce time
                for _bounce in range(rng.randint(2, 5)):
                    panel.set(role, role not in panel.down)
                    panel.clock.advance(rng.uniform(0, panel.config.timing.debounce_s / 4))
            else:  # a hold: down, and time passes (hold fires, up/down auto-repeat)
                panel.set(role, True)
                panel.clock.advance(rng.uniform(0, 2 * panel.config.timing.hold_s))
            done += 1
            panel.clock.advance(rng.choice((0.0, 0.001, 0.005, 0.03, 0.2)))
        largest_queue = max(largest_queue, panel.station.intents.qsize())
        assert panel.station.intents.qsize() <= bound
        panel.loop_pass()
        assert panel.station.intents.empty()
        assert panel.station.running
        assert in_bounds(panel.session) == []
        if rng.random() < 0.02:  # hands off for a while: pending changes commit, the display settles
            for role in list(panel.down):
                panel.set(role, False)
            panel.clock.advance(3.0)
            panel.loop_pass()
    replayed = Session(panel.session.game, seats=panel.session.setup.seats, seed=panel.session.setup.seed,
                       entries=panel.session.entries)
    assert replayed.state == panel.session.state
    return {"largest_queue": largest_queue, "commands": panel.station.stats.commands,
            "log_length": panel.session.log_length, "rejected": panel.station.stats.refusals}


def test_a_thousand_mashes_on_the_station(panel_factory: list[Panel], tmp_path: Path) -> None:
    game = primary_game()
    panel_factory.append(Panel(game, tmp_path))
    figures = mash(panel_factory[0], 1_000, seed=1)
    assert figures["log_length"] > 0 and figures["rejected"] > 0


@pytest.mark.stress
@pytest.mark.parametrize("game", playable_games(), ids=lambda g: g.name)
def test_ten_thousand_mashes(game: Game, panel_factory: list[Panel], tmp_path: Path) -> None:
    panel_factory.append(Panel(game, tmp_path))
    figures = mash(panel_factory[0], 10_000, seed=2)
    print(f"{game.name}: {figures}")
