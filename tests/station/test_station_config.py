"""Station config: the reference build validates, and each malformed config fails with one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.cli import main
from tablekeeper.config import REFERENCE_CONFIG, default_config_path, load_config, parse_config
from tablekeeper.errors import ConfigError

MINIMAL = """
[buses.main]
kind = "i2c"
port = 1

[[displays]]
role = "track"
driver = "ssd1306"
size = "128x64"
bus = "main"
address = 0x3C

[buttons.next]
pin = 5

[buttons.back]
pin = 6
"""


@pytest.fixture(autouse=True)
def _only_config_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exercise the real CLI with just this subcommand, independent of the others' modules."""
    monkeypatch.setattr(cli, "COMMANDS", {"config": "tablekeeper.commands.config"})


def test_reference_build_is_valid() -> None:
    cfg = load_config(REFERENCE_CONFIG)
    assert {d.role for d in cfg.displays} == {"track", "tokens", "seat1", "seat2", "seat3", "seat4"}
    assert cfg.button("back") is not None and cfg.button("back").pin == 6  # type: ignore[union-attr]
    assert cfg.button("seat2.b").key == "w"  # type: ignore[union-attr]
    assert cfg.display("tokens").driver == "ssd1309"  # type: ignore[union-attr]
    assert cfg.display("tokens").panel == "2.42in"  # type: ignore[union-attr]
    assert cfg.display("seat1").size == (128, 64)  # type: ignore[union-attr]
    assert cfg.display("seat1").distance_cm == 50  # type: ignore[union-attr]
    assert cfg.counters[0].vid_pid == "2E8A:0005"
    assert cfg.buzzer is not None and cfg.buzzer.pin == 18
    pins = cfg.pin_map()
    assert pins[2] == "buses.main (SDA)" and pins[22] == "buses.left (SDA)"
    assert len(pins) == len(set(pins))


def test_minimal_config_defaults() -> None:
    cfg = parse_config(MINIMAL, source="mini.toml")
    assert cfg.button("next").role == "next" and cfg.button("next").pull_up  # type: ignore[union-attr]
    assert cfg.buzzer is None and cfg.leds == () and not cfg.quiet
    assert cfg.timing.hold_s == 0.6


def test_spi_display() -> None:
    text = MINIMAL + """
[buses.spi]
kind = "spi"
port = 0

[[displays]]
role = "tokens"
driver = "ssd1309"
size = "128x64"
bus = "spi"
device = 1
dc_pin = 24
reset_pin = 25
"""
    cfg = parse_config(text)
    tokens = cfg.display("tokens")
    assert tokens is not None and tokens.device == 1 and tokens.dc_pin == 24
    assert cfg.pin_map()[8] == "buses.spi (CE0)" and cfg.pin_map()[25] == "displays[1].reset_pin"


# Each case: (change to the minimal config, expected message after "bad.toml: ").
BAD = [
    (MINIMAL + "\n[displayz]\nx = 1\n", "displayz: unknown key (did you mean 'displays'?)"),
    (MINIMAL.replace("address = 0x3C", "adress = 0x3C"), "displays[0].adress: unknown key (did you mean 'address'?)"),
    (MINIMAL + "[timing]\ndebounce = 0.05\n", "timing.debounce: unknown key (did you mean 'debounce_s'?)"),
    (MINIMAL.replace('size = "128x64"', 'size = "128x64"\ncolour = "blue"'),
     "displays[0].colour: unknown key (known: role, driver, size, bus, address, device, dc_pin, reset_pin, "
     "rotation, label, panel, distance_cm)"),
    (MINIMAL.replace("[buttons.back]\npin = 6", "[buttons.back]\npin = 5"),
     "buttons.back.pin: BCM 5 is already used by buttons.next.pin"),
    (MINIMAL.replace("[buttons.back]\npin = 6", "[buttons.back]\npin = 3"),
     "buttons.back.pin: BCM 3 is already used by buses.main (SCL)"),
    (MINIMAL + '[[displays]]\nrole = "tokens"\ndriver = "sh1106"\nsize = "128x64"\n'
     'bus = "main"\naddress = 0x3C\n',
     "displays[1]: address 0x3c on bus 'main' is already taken by displays[0]"),
    (MINIMAL.replace("[buttons.back]\npin = 6", "[buttons.undo]\npin = 6\nrole = \"select\""),
     "buttons: no button has role 'back' (every station needs next and back)"),
    (MINIMAL.replace("[buttons.next]", "[buttons.go]"),
     "buttons.go.role: missing (required)"),
    (MINIMAL.replace('driver = "ssd1306"', 'driver = "ssd1351"'),
     "displays[0].driver: 'ssd1351' is not one of ssd1306, sh1106, ssd1309"),
    (MINIMAL.replace('size = "128x64"', 'size = "128x48"'),
     "displays[0].size: '128x48' is not one of 128x64, 128x32"),
    (MINIMAL.replace("address = 0x3C", 'address = "0x3C"'),
     "displays[0].address: expected an integer, got a string"),
    (MINIMAL.replace("pin = 6", "pin = 40"), "buttons.back.pin: BCM 40 is not a header GPIO (0..27)"),
    (MINIMAL.replace('bus = "main"', 'bus = "i2c0"'), "displays[0].bus: no bus named 'i2c0' under [buses]"),
    (MINIMAL.replace("address = 0x3C", "address = 0x3C\nrotation = 1"),
     "displays[0].rotation: 1 is not 0 or 2 (0°/180°; the screens are drawn landscape)"),
    (MINIMAL + '[[counters]]\nvid_pid = "2e8a-0005"\nseat = 1\nrole = "hp"\n',
     "counters[0].vid_pid: '2e8a-0005' is not four hex digits, a colon, four hex digits (2E8A:0005)"),
    (MINIMAL + '[[counters]]\nvid_pid = "2E8A:0005"\nseat = 5\nrole = "hp"\n',
     "counters[0].seat: 5 is not a seat (1..4)"),
    (MINIMAL + '[[counters]]\nvid_pid = "2E8A:0005"\nseat = 1\nrole = "hp"\n'
     '[[counters]]\nvid_pid = "2E8A:0005"\nseat = 2\nrole = "hp"\n',
     "counters[1]: 2E8A:0005 serial None is listed twice"),
    (MINIMAL + "[outputs.leds.seat9]\npin = 7\n",
     "outputs.leds.seat9: an LED is named after its seat: seat1..seat4"),
    (MINIMAL + "[outputs.buzzer]\npin = 6\n",
     "outputs.buzzer.pin: BCM 6 is already used by buttons.back.pin"),
    (MINIMAL.replace("port = 1", "port = 1\nsda = 2"),
     "buses.main.sda: I2C bus 1 has fixed pins; remove this key"),
    (MINIMAL + "[uart]\nenabled = true\n[buttons.menu]\npin = 14\n",
     "buttons.menu.pin: BCM 14 is already used by uart (TXD)"),
    (MINIMAL + "[timing]\ndebounce_s = 0.7\n",
     "timing.debounce_s: 0.7 s must be shorter than hold_s (0.6 s)"),
    (MINIMAL + "[station]\nquiet = \"yes\"\n", "station.quiet: expected true/false, got a string"),
    (MINIMAL.replace("pin = 5", "pin = 5\nkey = \"F13\""),
     "buttons.next.key: 'F13' is not a single character or one of space, enter, backspace, tab, escape, "
     "left, right, up, down"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m.split(":")[0] for _t, m in BAD])
def test_malformed_config_is_one_line_naming_file_and_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, source="bad.toml")
    assert str(info.value) == f"bad.toml: {message}"
    assert "\n" not in str(info.value)


def test_toml_syntax_error_names_file_and_line() -> None:
    with pytest.raises(ConfigError, match=r"^bad\.toml: not valid TOML: .*line 2"):
        parse_config("[station]\nname = \n", source="bad.toml")


@pytest.mark.parametrize(("text", "message"), BAD[:6] + BAD[-6:])
def test_config_check_cli_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                                 message: str) -> None:
    path = tmp_path / "station.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"tablekeeper: {path}: {message}\n"


def test_config_check_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(tmp_path / "nope.toml")]) == 2
    assert capsys.readouterr().err == f"tablekeeper: {tmp_path / 'nope.toml'}: no such file\n"


def test_config_check_cli_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(REFERENCE_CONFIG)]) == 0
    out = capsys.readouterr().out
    assert "ok (6 displays, 14 buttons, 4 LEDs, a buzzer, 1 counter; 25 pins in use)" in out


def test_installed_config_wins_over_the_reference(tmp_path: Path) -> None:
    installed = tmp_path / "station.toml"
    assert default_config_path(installed) == REFERENCE_CONFIG
    installed.write_text(MINIMAL, encoding="utf-8")
    assert default_config_path(installed) == installed


def test_config_check_as_a_program(tmp_path: Path) -> None:
    """The installed entry point: exit 0 on the reference build; exit 2 and one line, no traceback, on a bad one."""
    import subprocess
    import sys

    ok = subprocess.run([sys.executable, "-m", "tablekeeper", "config", "check", str(REFERENCE_CONFIG)],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stdout.startswith(f"{REFERENCE_CONFIG}: ok (6 displays")
    bad = tmp_path / "station.toml"
    bad.write_text(MINIMAL.replace("[buttons.back]\npin = 6", "[buttons.back]\npin = 2"), encoding="utf-8")
    fail = subprocess.run([sys.executable, "-m", "tablekeeper", "config", "check", str(bad)],
                          capture_output=True, text=True, check=False)
    assert fail.returncode == 2 and fail.stdout == ""
    assert fail.stderr == f"tablekeeper: {bad}: buttons.back.pin: BCM 2 is already used by buses.main (SDA)\n"


def test_config_check_reports_text_size_per_display_and_passes_the_reference(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(REFERENCE_CONFIG)]) == 0
    out = capsys.readouterr().out
    assert "track        2.42in 0.430 mm/px at 80 cm: smallest text 9 px = 3.9 mm = 16.6 arcmin" in out
    assert "seat1        1.54in 0.274 mm/px at 50 cm: smallest text 9 px = 2.5 mm = 16.9 arcmin" in out
    assert "WARNING" not in out


def test_config_check_warns_when_text_is_under_16_arcmin(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(Path(__file__).resolve().parents[2] / "hardware" / "compact.toml")]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "track" in line]
    assert lines == ["  track        0.96in 0.170 mm/px at 80 cm: smallest text 13 px = 2.2 mm = 9.5 arcmin"
                     "  WARNING: under 16 arcmin, hard to read; a bigger panel or distance_cm <= 47"]


@pytest.mark.parametrize(("extra", "message"), [
    ('panel = "3 bananas"', "displays[0].panel: '3 bananas' is neither a known module"),
    ("distance_cm = 5", "displays[0].distance_cm: 5 is not a reading distance in cm"),
])
def test_bad_panel_or_distance_is_one_line(extra: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(MINIMAL.replace('size = "128x64"', f'size = "128x64"\n{extra}'), source="bad.toml")
