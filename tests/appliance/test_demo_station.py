"""Demo mode wired into the station on simulated parts: MockFactory buttons, emulated OLED chips, fake clock."""

from __future__ import annotations

from pathlib import Path

from tablekeeper import games
from tablekeeper.config import default_config_path, load_config
from tablekeeper.core.session import Session
from tablekeeper.core.view import Panel
from tablekeeper.demo.mode import (
    CALL_SHORT,
    CALL_TO_ACTION,
    DemoMode,
    DemoSettings,
    MemoryCounts,
    Mode,
    load_scripts,
    stats_panel,
)
from tablekeeper.demo.station import DemoStation
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.parts import make_buttons, make_displays
from tablekeeper.ui.render import render_panel

TIMING = DemoSettings(idle_reset_s=60.0, attract_frame_s=4.0, finished_show_s=10.0, operator_timeout_s=30.0)


class DemoRig:
    def __init__(self, capture_dir: Path) -> None:
        self.config = load_config(default_config_path())
        self.clock = FakeClock()
        self.parts = SimulatedParts(self.config, display_mode=None, capture_dir=capture_dir)
        self.counters = MemoryCounts()
        self.demo = DemoMode(load_scripts(), counters=self.counters, now_s=self.clock(), settings=TIMING)
        displays = make_displays(self.config, self.parts.open_device, clock=self.clock)
        self.station = DemoStation(demo=self.demo, new_session=lambda game: Session(games.load(game), seats=2,
                                                                                      seed=1),
                                   session=Session(games.load("arkham"), seats=2, seed=1), config=self.config,
                                   displays=displays, clock=self.clock)
        self.station.buttons = make_buttons(self.config, emit=self.station.put, clock=self.clock,
                                            pin_factory=self.parts.pin_factory)
        self.station.start()

    def tap(self, role: str) -> None:
        button = self.parts.button(role)
        assert button is not None
        self.parts.set_button(button, True)
        self.station.drain()
        self.pass_time(0.1)
        self.parts.set_button(button, False)
        self.station.drain()
        self.pass_time(0.05)

    def pass_time(self, seconds: float) -> None:
        target = self.clock() + seconds
        while self.clock() < target:
            self.clock.now_s = min(target, self.clock() + 0.25)  # the loop wakes at least every 0.5 s
            self.station.poll(self.clock())
            self.station.drain()

    def track_shows(self, panel: Panel, banner: str | None = None) -> bool:
        """Whether the track display shows ``panel`` (with ``banner`` at its foot), laid out on its glass."""
        track = self.config.display("track")
        assert track is not None
        expected = render_panel(panel, track.size, banner=banner, viewing=track.viewing)
        return self.parts.screens()["track"].tobytes() == expected.tobytes()


def test_visitor_follows_the_demo_on_the_real_station(tmp_path: Path) -> None:
    rig = DemoRig(tmp_path)
    arkham = rig.demo.scripts[0]
    assert arkham.game == "arkham"
    assert rig.track_shows(arkham.panel(arkham.attract, shorts=(CALL_SHORT,)), banner=CALL_TO_ACTION)

    rig.tap("next")  # a visitor: a fresh arkham session and the first prompt
    assert rig.demo.mode is Mode.GUIDED and rig.station.sessions_started == 1
    assert rig.track_shows(arkham.panel(arkham.steps[0].prompt, "Arkham Horror 1/7"))
    assert rig.station.session.view()["log_length"] == 0

    rig.tap("next")  # the prompted button reaches the game
    assert rig.station.session.view()["log_length"] == 1
    assert rig.track_shows(arkham.panel(arkham.steps[1].prompt, "Arkham Horror 2/7"))

    rig.tap("up")  # not the prompted button: a hint, and the game is untouched
    assert rig.station.session.view()["log_length"] == 1
    assert rig.track_shows(arkham.panel(arkham.steps[1].prompt, "Arkham Horror 2/7"), banner="That was UP: try SEAT1 A")

    rig.pass_time(TIMING.idle_reset_s)  # the visitor walks away
    assert rig.demo.mode is Mode.ATTRACT
    overlay = rig.station.overlay["track"]
    assert any(overlay == s.panel(s.attract, shorts=(CALL_SHORT,)) for s in rig.demo.scripts)
    assert rig.track_shows(overlay, banner=CALL_TO_ACTION)  # the call to action stays on screen
    assert rig.counters.values == {"demo.arkham.started": 1}


def test_holding_menu_and_back_shows_the_hidden_counts(tmp_path: Path) -> None:
    rig = DemoRig(tmp_path)
    rig.tap("next")
    menu, back = rig.parts.button("menu"), rig.parts.button("back")
    assert menu is not None and back is not None
    rig.parts.set_button(menu, True)
    rig.parts.set_button(back, True)
    rig.station.drain()
    rig.pass_time(TIMING.unlock_hold_s + 0.5)
    assert rig.demo.mode is Mode.OPERATOR
    assert rig.track_shows(stats_panel(rig.demo.counts(), rig.demo.scripts))
    assert rig.demo.counts()["arkham"] == (1, 0)
    assert rig.station.session.view()["log_length"] == 0  # the held BACK never reached the game as redo


def test_mashing_every_button_on_the_station_ends_back_in_the_attract_loop(tmp_path: Path) -> None:
    rig = DemoRig(tmp_path)
    roles = [b.role for b in rig.config.buttons]
    for i in range(60):
        rig.tap(roles[(i * 7) % len(roles)])
    assert sum(rig.counters.values.values()) >= 1  # the mashing did start demos
    rig.pass_time(TIMING.longest_wait_s + 1.0)
    assert rig.demo.mode is Mode.ATTRACT
    assert set(rig.station.overlay) == {d.role for d in rig.config.displays}  # every display back in the loop
