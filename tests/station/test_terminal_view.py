"""The terminal view and keys: each game's screens as readable text at 80x24, one press per keystroke,
and Ctrl-C ending the simulator cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tablekeeper.cli import build_parser
from tablekeeper.commands.run import build_simulated
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.keyboard import KeyParser, TerminalKeys, key_name
from tablekeeper.sim.textview import compose_text

ROOT = Path(__file__).resolve().parents[2]


def started(game: str, seats: int, tmp_path: Path) -> tuple[Any, Any]:
    args = build_parser().parse_args(["run", "--sim", "--no-counters", "--game", game, "--seats", str(seats),
                                      "--capture-dir", str(tmp_path)])
    config = load_config(REFERENCE_CONFIG)
    station, parts, _store = build_simulated(config, args, display_mode=None, clock=FakeClock())
    station.start()
    return station, parts


@pytest.mark.parametrize(("game", "expected"), [
    ("arkham", {"track": ["Round 1"], "seat1": ["Roland", "Health 9"], "tokens": ["bag: 16"]}),
    ("spirit_island", {"track": ["Turn 1", "Setup"], "seat1": ["Energy:", "[0]", "Presence 2"]}),
    ("oathsworn", {"track": ["Chapter 1: story", "time used 0 of 16"], "seat1": ["Warden", "[6]", "animus 0 of 6"]}),
    ("earthborne", {"track": ["Day 1 Round 1"], "seat1": ["Awareness 3 Fitness 2", "Deck 24 Hand 6"]}),
])
def test_terminal_view_shows_round_phase_and_seat_values_as_text_in_80x24(
        game: str, expected: dict[str, list[str]], tmp_path: Path) -> None:
    station, parts = started(game, 2, tmp_path)
    try:
        pages = [compose_text(station.config, station.screens, page) for page in range(4)]
    finally:
        station.close()
        parts.close()
    for text in pages:
        lines = text.splitlines()
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
        assert "Esc or Ctrl-C quits" in text and "Space=NEXT" in text
    every = "\n".join(pages)
    for role, words in expected.items():
        assert f"+-{role}" in every
        for word in words:
            assert word in every, f"{word!r} not on the {role} box:\n{pages[0]}"


def test_two_keys_in_one_read_are_two_presses_and_escape_sequences_stay_whole() -> None:
    parser = KeyParser()
    keys, rest = parser.split("12\x1b[A\x1bOBq \r\x1b")
    assert [key_name(k) for k in keys] == ["1", "2", "up", "down", "q", "space", "enter"] and rest == "\x1b"
    keys, rest = parser.split("\x1b[1;5")  # a sequence split across two reads waits for its end
    assert keys == [] and rest == "\x1b[1;5"
    keys, rest = parser.split(rest + "B")  # Ctrl+Down: one keystroke, which no button takes
    assert [key_name(k) for k in keys] == [""] and rest == ""
    keys, rest = parser.split("\x1b", final=True)  # nothing followed the ESC: the Esc key
    assert [key_name(k) for k in keys] == ["escape"] and rest == ""


class _Parts:
    """Records what the terminal keys press."""

    def __init__(self) -> None:
        self.presses: list[str] = []
        self.counters = None

    def counter_for_key(self, _key: str) -> None:
        return None

    def button_for_key(self, key: str) -> Any:
        return key if key in ("space", "up", "1") else None

    def set_button(self, button: str, down: bool) -> None:
        if down:
            self.presses.append(button)


def _wait_for(done: Callable[[], bool], timeout_s: float = 5.0) -> None:
    """Give the key-reading thread time to act on what the test wrote to the terminal (bounded)."""
    deadline = time.monotonic() + timeout_s
    while not done() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_a_read_holding_several_keystrokes_presses_each_button() -> None:
    master, slave = os.openpty()
    parts = _Parts()
    stopped: list[bool] = []
    keys = TerminalKeys(parts, stop=lambda: stopped.append(True), fd=slave)  # type: ignore[arg-type]
    try:
        os.write(master, b"  \x1b[A1")  # one write: space, space, up, 1
        _wait_for(lambda: len(parts.presses) >= 4)
        assert parts.presses == ["space", "space", "up", "1"]
        os.write(master, b"\x1b")  # Esc alone quits
        _wait_for(lambda: bool(stopped))
        assert stopped
    finally:
        keys.close()
        os.close(master)
        os.close(slave)


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


class _HoldingParts(_Parts):
    """Records how long each button is held."""

    class config:  # stands in for StationConfig's timing
        class timing:
            hold_s = 0.2

    def __init__(self) -> None:
        super().__init__()
        self.held: list[tuple[str, float]] = []
        self._down_at = 0.0

    def button(self, role: str) -> Any:
        return role if role == "select" else None

    def set_button(self, button: str, down: bool) -> None:
        if down:
            self._down_at = time.monotonic()
        else:
            self.held.append((button, time.monotonic() - self._down_at))


def test_question_mark_holds_select_for_the_key_to_short_forms() -> None:
    master, slave = os.openpty()
    parts = _HoldingParts()
    keys = TerminalKeys(parts, stop=lambda: None, fd=slave)  # type: ignore[arg-type]
    try:
        os.write(master, b"?")
        _wait_for(lambda: bool(parts.held))
        assert parts.held and parts.held[0][0] == "select" and parts.held[0][1] >= 0.2  # longer than hold_s
    finally:
        keys.close()
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("how", ["ctrl-c", "hangup"])
def test_ctrl_c_ends_the_terminal_simulator_with_exit_0_and_one_line(tmp_path: Path, how: str) -> None:
    """As a terminal's Ctrl-C does: SIGINT to the whole foreground process group, counters included;
    or as a dropped SSH link does: SIGHUP. Either way the virtual counters' processes end too."""
    master, slave = os.openpty()
    os.set_inheritable(slave, True)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["COLUMNS"], env["LINES"] = "80", "24"
    proc = subprocess.Popen([sys.executable, "-m", "tablekeeper", "run", "--sim", "--game", "arkham", "--seats", "2",
                             "--capture-dir", str(tmp_path)],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
                            start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"Ctrl-C quits" not in seen and time.monotonic() < deadline:
            import select

            ready, _w, _x = select.select([master], [], [], 0.5)
            if ready:
                seen += os.read(master, 65536)
        assert b"Ctrl-C quits" in seen, seen[-500:]
        up_by = time.monotonic() + 10
        while not (counters := _children(proc.pid)) and time.monotonic() < up_by:
            time.sleep(0.02)  # polling for the virtual counter's process, not timing anything
        assert counters, "the virtual counter's process was not running"
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGHUP)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 0
    assert err.decode().splitlines() == ["tablekeeper: simulator stopped"]
    assert not [pid for pid in counters if Path(f"/proc/{pid}").exists()], "a virtual counter outlived the station"


def test_a_big_value_never_cuts_the_row_beside_it() -> None:
    """The glass wraps text around the big value's columns, so the text view must not cut a row that
    fills them (it cut "Act 1 needs 8 clues" to "clue[0]")."""
    from tablekeeper.core.view import Panel
    from tablekeeper.sim.textview import display_box
    from tablekeeper.ui.model import DisplayScreen
    from tablekeeper.ui.render import layout

    track = next(d for d in load_config(REFERENCE_CONFIG).displays if d.role == "track")
    panel = Panel("Round 1", ("Act 1 needs 8 clues",), big="0")  # one row on the glass beside the "0"
    screen = layout(panel, track.viewing)
    rows = display_box(track, DisplayScreen("track", panel), 0)
    first = screen.rows[0]
    assert first in rows[2] and rows[2].rstrip("|]").endswith("0")


def test_a_terminal_too_small_gets_one_line_naming_the_size_and_the_view_once_resized(tmp_path: Path) -> None:
    """At 60x20 the view would garble: one line says the size it needs; resized to 80x24 (SIGWINCH
    makes the station draw again), the whole view comes back."""
    import io

    from tablekeeper.sim.textview import TextView

    station, parts = started("earthborne", 2, tmp_path)
    size = [(60, 20)]
    out = io.StringIO()
    try:
        view = TextView(station.config, out, size=lambda: size[0])
        assert view.show(station.screens, lit_seat=None, failed=frozenset())
        drawn = out.getvalue().rsplit("\x1b[2J", 1)[1]
        assert "\n" not in drawn and len(drawn) <= 60 and "80x24" in drawn and "60x20" in drawn
        assert not view.show(station.screens, lit_seat=None, failed=frozenset())  # nothing new to draw
        size[0] = (80, 24)
        assert view.show(station.screens, lit_seat=None, failed=frozenset())
        drawn = out.getvalue().rsplit("\x1b[2J", 1)[1]
        assert "Esc or Ctrl-C quits" in drawn and "+-track" in drawn
    finally:
        station.close()
        parts.close()


def test_the_terminal_simulator_draws_again_when_the_terminal_is_resized(tmp_path: Path) -> None:
    """``run --sim`` in a 60x20 terminal says the size it needs in one line; the terminal made 80x24
    (the window resized: the kernel sends SIGWINCH), the panel is drawn."""
    import fcntl
    import select
    import struct
    import termios

    def set_size(fd: int, columns: int, rows: int) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    master, slave = os.openpty()
    set_size(master, 60, 20)
    os.set_inheritable(slave, True)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "COLUMNS", "LINES")}
    proc = subprocess.Popen([sys.executable, "-m", "tablekeeper", "run", "--sim", "--no-counters", "--game", "arkham",
                             "--seats", "2", "--capture-dir", str(tmp_path)],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
                            start_new_session=True)
    os.close(slave)

    def read_until(marker: bytes) -> bytes:
        seen = b""
        deadline = time.monotonic() + 60
        while marker not in seen and time.monotonic() < deadline:
            ready, _w, _x = select.select([master], [], [], 0.5)
            if ready:
                seen += os.read(master, 65536)
        return seen

    try:
        small = read_until(b"80x24")
        assert b"60x20" in small and b"80x24" in small, small[-300:]
        assert b"Ctrl-C quits" not in small
        set_size(master, 80, 24)
        os.killpg(proc.pid, signal.SIGWINCH)  # as the terminal does on a resize (it comes with TIOCSWINSZ on a tty)
        drawn = read_until(b"Ctrl-C quits")
        assert b"Ctrl-C quits" in drawn and b"+-track" in drawn, drawn[-300:]
        os.kill(proc.pid, signal.SIGHUP)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
