"""The simulator's virtual counters: the real firmware in processes of their own, found by the station's
CounterManager over ptys, pressed from a station script, drawn beside the panel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablekeeper.cli import build_parser, main
from tablekeeper.commands.run import run_scripted
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core.chance import Dice
from tablekeeper.core.events import Command
from tablekeeper.intents import CounterMissing, CounterRolled, CounterValue
from tablekeeper.sim.panel import PanelLayout
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.counter_input import dice_source
from tablekeeper.station.loop import Station

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
        self.commands: list[Command] = []

    def __call__(self, station: Station, parts: SimulatedParts) -> None:
        self.tracks = {name: counter.value for name, counter in station.session.state.tracks.items()}
        assert parts.counters is not None
        self.displays = [counter.display for counter in parts.counters.bank.counters]
        self.emitted = list(parts.counters.emitted)
        self.missing = set(station.ui.missing_counters)
        self.view = station.session.view()
        self.message = station.ui.message.text if station.ui.message is not None else None
        self.frames = {role: image.tobytes() for role, image in station.images.items()}
        self.commands = [entry.command for entry in station.session.entries if entry.command is not None]


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
    from tablekeeper.sim.counter_table import CounterTable

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



def rolls(seen: Seen) -> list[CounterRolled]:
    return [i for i in seen.emitted if isinstance(i, CounterRolled)]


def test_a_dice_counter_roll_is_shown_and_reported_into_the_game(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from tablekeeper import games

    monkeypatch.setitem(games.GAMES, "dice_game", "tests.station.dice_game")
    seen = scripted(tmp_path, "counter 2 roll\n", config=config_with(tmp_path, DICE_SEAT_2), game="dice_game")
    [roll] = rolls(seen)
    assert roll.seat == 2 and roll.sides == 6 and len(roll.faces) == 2  # the virtual counter's 2d6
    faces = " ".join(map(str, roll.faces))
    assert seen.message == f"seat 2 rolled {faces}"
    [command] = seen.commands
    assert (command.verb, command.args, command.origin) == ("reveal", ("attack", faces), "counter")


def test_a_roll_with_no_dice_source_is_only_shown(tmp_path: Path) -> None:
    seen = scripted(tmp_path, "counter 2 roll\ncounter 2 roll\n", config=config_with(tmp_path, DICE_SEAT_2))
    _first, second = rolls(seen)
    assert seen.message == "seat 2 rolled " + " ".join(map(str, second.faces))
    assert seen.commands == []  # station_game has no dice: nothing goes into the game
    assert seen.displays[1].startswith(" ".join(map(str, second.faces)) + " | 2d6")


def test_dice_source_matches_sides_and_count() -> None:
    d6 = tuple(str(face) for face in range(1, 7))
    sources = {"bag": object(), "b": Dice("b", d6, count=3), "a": Dice("a", d6, count=2),
               "odd": Dice("odd", ("1", "1", "2"), count=2)}
    assert dice_source(sources, 6, 2) == "a"
    assert dice_source(sources, 6, 3) == "b"
    assert dice_source(sources, 6, 1) is None
    assert dice_source(sources, 2, 2) == "odd"
    assert dice_source({}, 6, 2) is None


def test_window_keys_press_a_virtual_counters_buttons(tmp_path: Path) -> None:
    import pygame

    from tablekeeper.sim.counter_table import CounterTable
    from tablekeeper.sim.keyboard import PygameKeys

    config = load_config(REFERENCE_CONFIG)
    table = CounterTable(config.counters, taken_keys={b.key for b in config.buttons if b.key})
    parts = SimulatedParts(config, display_mode="pygame", capture_dir=tmp_path, counters=table)
    try:
        table.plug_all()
        [board] = table.bank.counters
        board.wait_for_display(lambda text: text == "20 | HP /20 | NO HOST")  # no station: its own value
        keys = PygameKeys(parts, stop=lambda: None)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, unicode="s"))  # seat 1's "down"
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_s, unicode="s"))
        keys.pump()
        assert board.wait_for_display(lambda text: text.startswith("19 |")) == "19 | HP /20 | NO HOST"
        assert parts.counter_for_key("space") is None  # the station's own keys stay the station's
    finally:
        parts.close()
    assert not board.running


def test_the_terminal_view_shows_each_counter_with_its_seat_role_value_and_keys(tmp_path: Path) -> None:
    from tablekeeper.sim.textview import compose_text

    texts: list[str] = []

    def at_end(station: Station, parts: SimulatedParts) -> None:
        assert parts.counters is not None
        texts.append(compose_text(station.config, station.screens, 0, counters=parts.counters.views()))

    args = build_parser().parse_args(["run", "--sim", "--game", "station_game", "--script",
                                      str(_script(tmp_path, "counter 1 down\nwait 1\n")), "--capture-dir",
                                      str(tmp_path / "frames")])
    assert run_scripted(load_config(REFERENCE_CONFIG), args, at_end=at_end) == 0
    lines = texts[0].splitlines()
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, texts[0]
    top = next(i for i, line in enumerate(lines) if "+-counter seat 1 hp" in line)
    box = [line[:26] for line in lines[top:top + 6]]
    assert box[1] == "|8                       |" and "HP /9" in box[2] and "SEAT 1" in box[3], texts[0]
    assert "=+" in box[4] and "=-" in box[4] and "=sel" in box[4]


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "keys.txt"
    path.write_text(text, encoding="utf-8")
    return path
