"""``tablekeeper doctor``: every check reports OK or a concrete remedy, against fakes and the simulator."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec
import pytest

from tablekeeper.cli import main
from tablekeeper.commands.doctor import Check, SimulatedParts, Status, report, run_checks
from tablekeeper.config import default_config_path, load_config
from tablekeeper.core.store import Store

REFERENCE = default_config_path()


def _by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


def test_doctor_sim_reports_each_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["doctor", "--sim", "--config", str(REFERENCE), "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    cfg = load_config(REFERENCE)
    assert code == 0, out
    expected = ["config", "gpio", "data dir", "free space",
                *(f"i2c bus {bus.name}" for bus in cfg.buses),
                *(f"display {d.role}" for d in cfg.displays),
                *(f"counter seat{c.seat} {c.role}" for c in cfg.counters)]
    for name in expected:
        assert f"OK    {name}: " in out, name
    assert f"{len(expected)} checks: {len(expected)} ok, 0 warnings, 0 failed" in out
    assert f"{tmp_path} writable" in out


def test_a_silent_display_and_a_missing_counter_get_remedies(tmp_path: Path) -> None:
    cfg = load_config(REFERENCE)
    probes = SimulatedParts(cfg, missing_displays={"tokens"}, missing_counters={0}).probes()
    checks = _by_name(run_checks(REFERENCE, probes, tmp_path))
    tokens = checks["display tokens"]
    assert tokens.status is Status.FAIL
    assert tokens.detail == "nothing answers at 0x3d on /dev/i2c-1"
    assert "SDA to BCM 2" in tokens.remedy and "i2cdetect -y 1" in tokens.remedy
    assert checks["display track"].status is Status.OK
    counter = checks["counter seat1 hp"]
    assert counter.status is Status.FAIL and "USB 2E8A:0005" in counter.detail and counter.remedy
    lines: list[str] = []
    assert report(checks.values(), print_line=lines.append) == 1
    assert lines[-1].endswith("2 failed")


def test_missing_bus_nodes_name_the_overlay_to_add(tmp_path: Path) -> None:
    cfg = load_config(REFERENCE)
    probes = dataclasses.replace(SimulatedParts(cfg).probes(), node_exists=lambda path: path.name != "i2c-3")
    left = _by_name(run_checks(REFERENCE, probes, tmp_path))["i2c bus left"]
    assert left.status is Status.FAIL
    assert "dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=22,i2c_gpio_scl=23" in left.remedy


def test_a_slow_i2c_bus_is_a_warning_with_the_baudrate_line(tmp_path: Path) -> None:
    cfg = load_config(REFERENCE)
    probes = dataclasses.replace(SimulatedParts(cfg).probes(), i2c_clock_hz=lambda _port: 100_000)
    main_bus = _by_name(run_checks(REFERENCE, probes, tmp_path))["i2c bus main"]
    assert main_bus.status is Status.WARN
    assert main_bus.detail == "/dev/i2c-1 runs at 100 kHz, the config asks for 400 kHz"
    assert "dtparam=i2c_arm_baudrate=400000" in main_bus.remedy


def test_gpio_without_access_or_library(tmp_path: Path) -> None:
    cfg = load_config(REFERENCE)
    sim = SimulatedParts(cfg).probes()
    no_access = dataclasses.replace(sim, node_accessible=lambda path: not path.name.startswith("gpiochip"))
    gpio = _by_name(run_checks(REFERENCE, no_access, tmp_path))["gpio"]
    assert gpio.status is Status.FAIL and "usermod -aG gpio" in gpio.remedy
    no_lib = dataclasses.replace(sim, gpio_library=lambda: "the lgpio module is not installed in this Python")
    gpio = _by_name(run_checks(REFERENCE, no_lib, tmp_path))["gpio"]
    assert gpio.status is Status.FAIL and "pip install lgpio" in gpio.remedy


def test_data_dir_and_space_problems(tmp_path: Path) -> None:
    cfg = load_config(REFERENCE)
    sim = SimulatedParts(cfg).probes()
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("")
    assert _by_name(run_checks(REFERENCE, sim, a_file / "data"))["data dir"].status is Status.FAIL
    nested = tmp_path / "new" / "data"
    checks = _by_name(run_checks(REFERENCE, sim, nested))
    assert checks["data dir"].detail == f"{nested} will be created at first run"
    assert not nested.exists()  # the doctor looks; it does not create
    tight = dataclasses.replace(sim, free_bytes=lambda _path: 10 * 1024 * 1024)
    space = _by_name(run_checks(REFERENCE, tight, tmp_path))["free space"]
    assert space.status is Status.FAIL and "journalctl --vacuum-size" in space.remedy


def test_the_save_file_is_checked_when_there_is_one(tmp_path: Path) -> None:
    sim = SimulatedParts(load_config(REFERENCE)).probes()
    assert "save file" not in _by_name(run_checks(REFERENCE, sim, tmp_path))
    with Store.open(tmp_path / "tablekeeper.sqlite3") as store:
        store.bump("demo.arkham.started")
    ok = _by_name(run_checks(REFERENCE, sim, tmp_path))["save file"]
    assert ok.status is Status.OK and ok.detail.endswith("0 saved game(s), integrity ok")
    (tmp_path / "tablekeeper.sqlite3").unlink()
    (tmp_path / "tablekeeper.sqlite3").write_bytes(b"not a database at all")
    bad = _by_name(run_checks(REFERENCE, sim, tmp_path))["save file"]
    assert bad.status is Status.FAIL and "mv " in bad.remedy
    assert (tmp_path / "tablekeeper.sqlite3").read_bytes() == b"not a database at all"


def test_an_invalid_config_is_named_and_hardware_checks_say_why_they_were_skipped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "station.toml"
    bad.write_text(REFERENCE.read_text().replace("address = 0x3D\nrotation = 0", "address = 0x99\nrotation = 0", 1))
    code = main(["doctor", "--sim", "--config", str(bad), "--data-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert f"FAIL  config: {bad}: displays[1].address: 0x99 is not a 7-bit I2C address" in out
    assert "FAIL  gpio: skipped: needs a valid config" in out


@pytest.mark.parametrize(("cmdline", "status"), [
    ("console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait", Status.FAIL),
    ("console=ttyAMA0,115200 console=tty1 rootwait", Status.FAIL),
    ("console=tty1 root=PARTUUID=1234-02 rootwait", Status.OK),
])
def test_a_serial_console_on_the_button_pins_fails(tmp_path: Path, cmdline: str, status: Status) -> None:
    cfg = load_config(REFERENCE)
    probes = dataclasses.replace(SimulatedParts(cfg).probes(), kernel_cmdline=lambda: cmdline)
    console = _by_name(run_checks(REFERENCE, probes, tmp_path))["serial console"]
    assert console.status is status, console
    if status is Status.FAIL:
        assert "BCM 14/BCM 15" in console.detail and "cmdline.txt" in console.remedy


def test_the_serial_console_is_not_checked_when_no_button_uses_the_uart_pins(tmp_path: Path) -> None:
    cfg = load_config(REFERENCE)
    cfg = msgspec.structs.replace(cfg, buttons=tuple(b for b in cfg.buttons if b.pin not in (14, 15)))
    probes = dataclasses.replace(SimulatedParts(cfg).probes(), kernel_cmdline=lambda: "console=serial0,115200")
    from tablekeeper.commands.doctor import check_serial_console
    assert check_serial_console(cfg, probes) is None
