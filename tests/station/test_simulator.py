"""``tablekeeper run`` in the simulator: scripted key presses on a fake clock, frames written to files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from tablekeeper.cli import main
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.sim.panel import PanelLayout
from tablekeeper.sim.simulator import choose_display_mode

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("station_game", "station_commands")


def run_script(tmp_path: Path, script: str, *extra: str) -> tuple[int, Path]:
    path = tmp_path / "keys.txt"
    path.write_text(script, encoding="utf-8")
    out = tmp_path / "frames"
    code = main(["run", "--sim", "--game", "station_game", "--script", str(path), "--capture-dir", str(out),
                 *extra])
    return code, out


def region(frame: Path, role: str) -> Image.Image:
    place = PanelLayout(load_config(REFERENCE_CONFIG)).displays[role]
    scale = 2
    return Image.open(frame).crop((place.x * scale, place.y * scale, (place.x + place.w) * scale,
                                   (place.y + place.h) * scale))


def test_scripted_capture_writes_frames_that_change_after_a_press(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_script(tmp_path, "# press + once, then next\npress up\nwait 2\nspace\n")
    assert code == 0
    frames = sorted(out.glob("panel_*.png"))
    assert len(frames) >= 4
    assert f"{len(frames)} frames written" in capsys.readouterr().out
    first, last = frames[0], frames[-1]
    assert Image.open(first).size == tuple(2 * n for n in PanelLayout(load_config(REFERENCE_CONFIG)).size)
    # the tokens display shows "doom 1" at the end, "doom 0" at the start
    assert ImageChops.difference(region(first, "tokens"), region(last, "tokens")).getbbox() is not None
    # pressing + showed the pending change in the banner of the tokens display (which named the track
    # +/- change before the press) in some frame in between
    def banner(frame: Path) -> Image.Image:
        tokens = region(frame, "tokens")
        return tokens.crop((0, tokens.height - 24, tokens.width, tokens.height))

    assert banner(first).getpixel((255, 23)), "no banner naming the track before the first press"
    banners = [f for f in frames if ImageChops.difference(banner(f), banner(first)).getbbox() is not None]
    assert banners, "no frame showed the pending change banner"


def test_same_script_gives_the_same_frames(tmp_path: Path) -> None:
    script = "press up\npress up\nwait 2\nhold next\npress back\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _code, a = run_script(tmp_path / "a", script)
    _code, b = run_script(tmp_path / "b", script)
    frames_a = sorted(a.glob("*.png"))
    frames_b = sorted(b.glob("*.png"))
    assert len(frames_a) == len(frames_b) > 3
    assert all(Image.open(x).tobytes() == Image.open(y).tobytes() for x, y in zip(frames_a, frames_b, strict=True))


def test_gifanim_writes_one_animation(tmp_path: Path) -> None:
    code, out = run_script(tmp_path, "space\nspace\n", "--display", "gifanim")
    assert code == 0
    gif = Image.open(out / "panel.gif")
    assert gif.n_frames >= 3


@pytest.mark.parametrize(("script", "message"), [
    ("space\nx\n", "keys.txt:2: 'x' is not a key"),
    ("press jump\n", "keys.txt:1: no button has role 'jump'"),
    ("wait soon\n", "keys.txt:1: 'soon' is not a number of seconds"),
    ("hold up 1 2\n", "keys.txt:1: usage: hold ROLE [SECONDS]"),
])
def test_script_errors_name_the_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], script: str,
                                                message: str) -> None:
    code, out = run_script(tmp_path, script)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("tablekeeper: ") and message in err and err.count("\n") == 1
    assert not list(out.glob("*.png"))


def test_display_mode_follows_the_screen() -> None:
    assert choose_display_mode(None, stdout_is_tty=False, env={"DISPLAY": ":0"}) == "pygame"
    assert choose_display_mode(None, stdout_is_tty=True, env={}) == "text"
    assert choose_display_mode(None, stdout_is_tty=False, env={}) == "capture"
    assert choose_display_mode(None, stdout_is_tty=True, env={"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}) \
        == "text"
    assert choose_display_mode("gifanim", stdout_is_tty=True, env={"DISPLAY": ":0"}) == "gifanim"


def test_help_texts(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["run", "--help"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--display {pygame,text,asciiblock,capture,gifanim}" in out and "--script FILE" in out


LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv[1]); from tablekeeper import games, cli; "
    "games.GAMES['station_game'] = 'tests.station.station_game'; sys.exit(cli.main(sys.argv[2:]))"
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_running_station_cleanly(tmp_path: Path, signum: int) -> None:
    out = tmp_path / "frames"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, str(ROOT), "run", "--game", "station_game",
                             "--capture-dir", str(out)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while not list(out.glob("panel_*.png")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting for the child to start up, not timing any logic
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signum)
        _stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert "no Raspberry Pi GPIO here; running the simulator" in stderr  # not a Pi: the fallback notice
    assert "Traceback" not in stderr


def test_window_keys_press_and_release_the_buttons(tmp_path: Path) -> None:
    import pygame

    from tablekeeper.sim.keyboard import PygameKeys
    from tablekeeper.sim.simulator import SimulatedParts

    config = load_config(REFERENCE_CONFIG)
    parts = SimulatedParts(config, display_mode="pygame", capture_dir=tmp_path)
    stopped: list[bool] = []
    keys = PygameKeys(parts, stop=lambda: stopped.append(True))
    try:
        pin = parts.pin_factory.pin(config.button("next").pin)  # type: ignore[union-attr]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" "))
        keys.pump()
        assert pin.state is False  # pulled to ground: pressed
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE, unicode=" "))
        keys.pump()
        assert pin.state is True
        select = parts.pin_factory.pin(config.button("select").pin)  # type: ignore[union-attr]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r"))
        keys.pump()
        assert select.state is False  # the Return key is the config's "enter"
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        keys.pump()
        assert stopped == [True]
    finally:
        parts.close()


def test_demo_mode_runs_in_the_simulator(tmp_path: Path) -> None:
    code, out = run_script(tmp_path, "space\nwait 1\nspace\n", "--demo")
    assert code == 0
    frames = sorted(out.glob("panel_*.png"))
    assert len(frames) >= 2
    # the attract loop's invitation on the tokens display gives way to the game once a visitor presses
    assert ImageChops.difference(region(frames[0], "tokens"), region(frames[-1], "tokens")).getbbox() is not None


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "chess"], "tablekeeper: unknown game 'chess'"),
    (["--game", "station_game", "--seats", "9"], "tablekeeper: station_game takes 1 to 4 seats, not 9"),
    (["--config", "/nonexistent/station.toml"], "tablekeeper: /nonexistent/station.toml: no such file"),
])
def test_run_refuses_bad_arguments_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               args: list[str], message: str) -> None:
    script = tmp_path / "keys.txt"
    script.write_text("space\n", encoding="utf-8")
    assert main(["run", "--sim", "--script", str(script), "--capture-dir", str(tmp_path / "out"), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


HARDWARE_LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv[1]); from tablekeeper import games, cli; "
    "from tablekeeper.commands import run as station_cli; "
    "games.GAMES['station_game'] = 'tests.station.station_game'; "
    "station_cli.gpio_present = lambda: True; sys.exit(cli.main(sys.argv[2:]))"
)


def test_hardware_path_with_no_displays_answering_runs_and_stops_cleanly(tmp_path: Path) -> None:
    """The Pi path on a machine without I2C: every display fails (and is retried), the buttons are on
    gpiozero's mock pins, systemd hears READY and STOPPING, the game is saved in the data directory."""
    import socket

    notify_path = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify_path))
    listener.settimeout(60)
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "TABLEKEEPER_DATA_DIR": str(tmp_path / "data"),
           "NOTIFY_SOCKET": str(notify_path)}
    proc = subprocess.Popen([sys.executable, "-c", HARDWARE_LAUNCH, str(ROOT), "run", "--game", "station_game",
                             "--config", str(REFERENCE_CONFIG)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        ready = listener.recv(4096).decode()
        assert ready.startswith("READY=1"), ready
        proc.send_signal(signal.SIGTERM)
        messages = []
        while not any(m.startswith("STOPPING=1") for m in messages):
            messages.append(listener.recv(4096).decode())
        _stdout, stderr = proc.communicate(timeout=30)
    finally:
        listener.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr and "simulator" not in stderr
    assert (tmp_path / "data" / "tablekeeper.sqlite3").is_file()


def test_a_scripted_run_with_the_text_view_says_what_to_use(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:


    script = tmp_path / "keys.txt"
    script.write_text("press next\n")
    assert main(["run", "--sim", "--no-counters", "--script", str(script), "--display", "text"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "use --display capture or gifanim" in err


def test_capture_writes_a_png_only_when_the_panels_pixels_change(tmp_path: Path) -> None:
    """An idle station redrawing the same picture (a display re-sent, a repeated frame) adds no file:
    capture mode's cost per hour is its changes, not its redraws."""
    from tablekeeper.sim.simulator import SimulatedParts

    config = load_config(REFERENCE_CONFIG)
    out = tmp_path / "captures"
    parts = SimulatedParts(config, display_mode="capture", capture_dir=out)
    track = config.display("track")
    assert track is not None
    try:
        device = parts.open_device(track)
        device.show()  # opened dark: the station's first frame switches it on (``PartialUpdate``)
        blank, marked = Image.new("1", device.size), Image.new("1", device.size)
        marked.putpixel((3, 3), 1)
        still = {"pressed": frozenset[str](), "lit_seat": None, "failed": frozenset[str]()}
        device.display(blank)
        assert parts.refresh(**still)
        written = parts.bytes_written
        for _ in range(3):  # the same pixels sent to the chip again, and nothing sent at all
            device.display(blank)
            assert not parts.refresh(**still)
            assert not parts.refresh(**still)
        assert len(list(out.glob("panel_*.png"))) == 1 and parts.bytes_written == written > 0
        device.display(marked)
        assert parts.refresh(**still)
        assert len(list(out.glob("panel_*.png"))) == 2
    finally:
        parts.close()
