"""SELECT held shows each display's key to its short forms; the next SELECT press, or a timeout, puts
the screens back (issue 16: "where space forces a short form, SELECT shows a legend page")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_buttons, make_displays
from tablekeeper.ui.render import layout
from tablekeeper.ui.state import LEGEND_S
from tests.station import fake_time
from tests.station.station_game import StationGame


class ShortFormsGame(StationGame):
    """The station test game with a track display that uses a short form (or none, with ``plain``)."""

    plain = False

    def panels(self, state: GameState) -> dict[str, Panel]:
        legend = () if self.plain else (("Dm", "doom on the agenda"),)
        return {"track": Panel(f"Round {state.round}", (f"Dm {state.value('doom')}",), legend=legend)}


class Rig:
    def __init__(self, tmp_path: Path, *, plain: bool = False) -> None:
        self.config = load_config(REFERENCE_CONFIG)
        self.clock = FakeClock()
        self.parts = SimulatedParts(self.config, display_mode=None, capture_dir=tmp_path)
        game = ShortFormsGame()
        game.plain = plain
        displays = make_displays(self.config, self.parts.open_device, clock=self.clock)
        self.station = Station(session=Session(game, seats=2, seed=1), config=self.config, displays=displays,
                               clock=self.clock)
        self.station.buttons = make_buttons(self.config, emit=self.station.put, clock=self.clock,
                                            pin_factory=self.parts.pin_factory)
        self.station.start()

    def select(self, seconds: float = 0.1) -> None:
        """Press SELECT for ``seconds`` (longer than the hold time: a hold)."""
        button = self.parts.button("select")
        assert button is not None
        self.parts.set_button(button, True)
        self.pass_time(seconds)
        self.parts.set_button(button, False)
        self.pass_time(0.05)

    def pass_time(self, seconds: float) -> None:
        fake_time.pass_time(self.station, self.clock, seconds)

    def shown(self, role: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        assert self.station.screens is not None
        shown = self.station.screens.display(role)
        display = self.config.display(role)
        assert display is not None and shown is not None
        screen = layout(shown.panel, display.viewing, banner=shown.banner_text, selected=shown.selected)
        return screen.title, screen.rows, screen.banner

    def close(self) -> None:
        self.station.close()
        self.parts.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    rig = Rig(tmp_path)
    yield rig
    rig.close()


def test_holding_select_shows_the_key_and_the_next_press_puts_the_screen_back(rig: Rig) -> None:
    before = rig.shown("track")
    seat_before = rig.shown("seat1")
    selected = rig.station.controls.selected(rig.station.session.state)
    rig.select(rig.config.timing.hold_s + 0.2)
    title, rows, _banner = rig.shown("track")
    assert title == "Key to short forms" and " ".join(" ".join(rows).split()) == "Dm = doom on the agenda"
    assert rig.shown("seat1") == seat_before  # a display with no short forms keeps its screen
    rig.select()  # the next press only closes the key: the selected track stays
    assert rig.shown("track") == before
    assert rig.station.controls.selected(rig.station.session.state) == selected
    rig.select()  # with the key closed, SELECT steps through the tracks as before
    assert rig.station.controls.selected(rig.station.session.state) != selected


def test_holding_the_press_that_closes_the_key_leaves_the_selection_alone(rig: Rig) -> None:
    selected = rig.station.controls.selected(rig.station.session.state)
    rig.select(rig.config.timing.hold_s + 0.2)  # opens the key (its press stepped on, the hold stepped back)
    assert rig.station.controls.selected(rig.station.session.state) == selected
    rig.select(rig.config.timing.hold_s + 0.2)  # this press closed the key and stepped nothing: no step back
    assert rig.station.controls.selected(rig.station.session.state) == selected


def test_the_key_goes_away_by_itself(rig: Rig) -> None:
    before = rig.shown("track")
    rig.select(rig.config.timing.hold_s + 0.2)
    assert rig.shown("track")[0] == "Key to short forms"
    rig.pass_time(LEGEND_S - 1)
    assert rig.shown("track")[0] == "Key to short forms"
    rig.pass_time(1.5)
    assert rig.shown("track") == before


def test_a_script_holds_select_for_the_key_too(rig: Rig) -> None:
    from tablekeeper.intents import Typed

    rig.station.put(Typed("hold select", 1))
    rig.station.drain()
    assert rig.shown("track")[0] == "Key to short forms"
    rig.station.put(Typed("press select", 2))
    rig.station.drain()
    assert rig.shown("track")[0] == "Round 1"


def test_holding_select_with_no_short_forms_says_so(tmp_path: Path) -> None:
    rig = Rig(tmp_path, plain=True)
    try:
        rig.select(rig.config.timing.hold_s + 0.2)
        _title, _rows, banner = rig.shown("track")
        assert " ".join(" ".join(banner).split()) == "no short forms on the displays now"
    finally:
        rig.close()
