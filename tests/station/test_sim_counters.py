"""The simulator's virtual counters: the real firmware in processes of their own, found by the station's
CounterManager over ptys, pressed from a station script, drawn beside the panel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablekeeper.cli import build_parser, main
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.hw.sim.panel import PanelLayout
from tablekeeper.hw.sim.simulator import SimulatedParts
from tablekeeper.intents import CounterMissing, CounterValue
from tablekeeper.station import Station
from tablekeeper.station_cli import run_scripted

pytestmark = pytest.mark.usefixtures("station_game", "station_commands")

DICE_SEAT_2 = '\n[[counters]]\nvid_pid = "2E8A:0005"\nserial = "E6614104033300D2"\nseat = 2\nrole = "dice"\n'


def config_with(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "station.toml"
    path.write_text(REFERENCE_CONFIG.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return path


class Seen:
    """What the station and its parts looked like when the script ended."""

    def __init__(self) -> None:
        self.tracks: dict[str, int | None] = {}
        self.displays: list[str] = []
        self.emitted: list[Any] = []
        self.missing: set[int] = set()
        self.view: dict[str, Any] = {}
        self.message: str | None = None
        self.frames: dict[str, bytes] = {}
        self.station: Station | None = None

    def __call__(self, station: Station, parts: SimulatedParts) -> None:
        self.tracks = {name: counter.value for name, counter in station.session.state.tracks.items()}
        assert parts.counters is not None
        self.displays = [counter.display for counter in parts.counters.bank.counters]
        self.emitted = list(parts.counters.emitted)
        self.missing = set(station.missing_counters)
        self.view = station.session.view()
        self.message = station.message.text if station.message is not None else None
        self.frames = {role: image.tobytes() for role, image in station.images.items()}


def scripted(tmp_path: Path, script: str, *extra: str, config: Path = REFERENCE_CONFIG,
             game: str = "station_game") -> Seen:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "keys.txt"
    path.write_text(script, encoding="utf-8")
    args = build_parser().parse_args(["run", "--sim", "--game", game, "--script", str(path), "--capture-dir",
                                      str(tmp_path / "frames"), "--config", str(config), *extra])
    seen = Seen()
    assert run_scripted(load_config(config), args, at_end=seen) == 0
    return seen


def test_counter_presses_change_the_seat_and_a_panel_change_reaches_the_counter(tmp_path: Path) -> None:
    # two presses on seat 1's counter (9 -> 7), then the panel selects seat1.hp and presses + (-> 8)
    seen = scripted(tmp_path, "counter 1 down\ncounter 1 down\npress select\npress up\nwait 2\n")
    values = [(i.seat, i.track, i.value) for i in seen.emitted if isinstance(i, CounterValue)]
    assert values == [(1, "hp", 8), (1, "hp", 7)]
    assert seen.tracks["seat1.hp"] == 8 and seen.tracks["seat2.hp"] == 9
    assert seen.displays == ["8 | HP /9 | SEAT 1"]


def test_a_scripted_set_through_the_station_reaches_the_counter(tmp_path: Path) -> None:
    seen = scripted(tmp_path, "press select\npress down\npress down\npress down\nwait 2\n")
    assert seen.tracks["seat1.hp"] == 6
    assert seen.displays == ["6 | HP /9 | SEAT 1"]


def test_an_unplugged_counter_shows_missing_and_the_game_goes_on(tmp_path: Path) -> None:
    plugged = scripted(tmp_path / "a", "space\nspace\n")
    unplugged = scripted(tmp_path / "b", "counter 1 unplug\nspace\nspace\n")
    assert any(isinstance(i, CounterMissing) and i.seat == 1 for i in unplugged.emitted)
    assert unplugged.missing == {1} and plugged.missing == set()
    # the buttons play on exactly as with the counter there: two turns passed
    assert unplugged.view == plugged.view and unplugged.view["round"] == 2
    # seat 1's display says its counter is missing; seat 2's is as before
    assert plugged.frames["seat1"] != unplugged.frames["seat1"]
    assert plugged.frames["seat2"] == unplugged.frames["seat2"]


def test_a_counter_plugged_back_in_takes_its_seat_again(tmp_path: Path) -> None:
    back = scripted(tmp_path, "counter 1 unplug\nspace\ncounter 1 plug\ncounter 1 down\n")
    assert back.missing == set()
    assert back.tracks["seat1.hp"] == 8 and back.displays == ["8 | HP /9 | SEAT 1"]


@pytest.mark.parametrize(("script", "extra", "message"), [
    ("counter 3 up\n", (), "keys.txt:1: no virtual counter for seat 3 (counters: 1 hp)"),
    ("counter 1 roll\n", (), "keys.txt:1: no virtual dice counter for seat 1"),
    ("counter 1 jump\n", (), "keys.txt:1: usage: counter SEAT up|down|select|roll|unplug|plug"),
    ("counter 1 up\n", ("--no-counters",), "keys.txt:1: no virtual counters"),
])
def test_counter_script_errors_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str,
                                            extra: tuple[str, ...], message: str) -> None:
    path = tmp_path / "keys.txt"
    path.write_text(script, encoding="utf-8")
    code = main(["run", "--sim", "--game", "station_game", "--script", str(path), "--capture-dir",
                 str(tmp_path / "frames"), *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("tablekeeper: ") and message in err and err.count("\n") == 1


def test_counter_keys_and_layout(tmp_path: Path) -> None:
    from tablekeeper.hw.sim.counter_table import CounterTable

    config = load_config(config_with(tmp_path, DICE_SEAT_2))
    station_keys = {b.key for b in config.buttons if b.key}
    table = CounterTable(config.counters, taken_keys=station_keys)
    parts = SimulatedParts(config, display_mode=None, capture_dir=tmp_path, counters=table)
    try:
        keys = {key: parts.counter_for_key(key) for key in "asdfgh"}
        assert keys == {"a": (0, "up"), "s": (0, "down"), "d": (0, "select"),
                        "f": (1, "up"), "g": (1, "down"), "h": (1, "select")}
        assert not station_keys & set(keys)
        assert table.find(2, "roll") == 1 and table.find(1, "up") == 0 and table.find(1, "roll") is None
        bare = PanelLayout(config, ())
        assert len(parts.layout.counters) == 2 and parts.layout.size[0] > bare.size[0]
        assert parts.layout.displays == bare.displays  # the counters stand beside the panel, moving nothing
    finally:
        parts.close()


def test_no_counters_flag_runs_without_them(tmp_path: Path) -> None:
    seen: list[tuple[Any, tuple[int, int]]] = []

    def at_end(station: Station, parts: SimulatedParts) -> None:
        seen.append((parts.counters, parts.layout.size))

    path = tmp_path / "keys.txt"
    path.write_text("space\n", encoding="utf-8")
    args = build_parser().parse_args(["run", "--sim", "--game", "station_game", "--script", str(path),
                                      "--capture-dir", str(tmp_path / "frames"), "--no-counters"])
    assert run_scripted(load_config(REFERENCE_CONFIG), args, at_end=at_end) == 0
    config = load_config(REFERENCE_CONFIG)
    assert seen == [(None, PanelLayout(config, ()).size)]

