"""The install plan: applied to a scratch root with a recording runner, and the shell script's dry run."""

from __future__ import annotations

import dataclasses
import getpass
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tablekeeper.appliance.commands import install_options
from tablekeeper.appliance.install import (
    BACKUP_SUFFIX,
    Context,
    InstallOptions,
    apply_plan,
    boot_config_block,
    build_plan,
    edit_boot_config,
)
from tablekeeper.appliance.units import ServiceSettings, render_udev_rule, render_unit
from tablekeeper.errors import InstallError

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "hardware" / "station.toml"
STOCK_BOOT_CONFIG = "# stock\n#dtparam=i2c_arm=on\ndtparam=audio=on\n[cm4]\notg_mode=1\n[all]\ndtparam=i2c_arm=off\n"


class RecordingRunner:
    def __init__(self, fail_on: str | None = None) -> None:
        self.commands: list[tuple[str, ...]] = []
        self.fail_on = fail_on

    def __call__(self, argv: Sequence[str]) -> int:
        self.commands.append(tuple(argv))
        return 1 if self.fail_on is not None and self.fail_on in argv else 0


def _options(tmp_path: Path, **service: object) -> InstallOptions:
    source = tmp_path / "reference.toml"
    source.write_text("# reference build\n")
    settings = ServiceSettings(user="pi", data_dir=Path("/srv/tablekeeper"), **service)  # type: ignore[arg-type]
    return InstallOptions(service=settings, station_config_source=source)


def _scratch_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(STOCK_BOOT_CONFIG)
    (root / "run/systemd/system").mkdir(parents=True)  # booted with systemd
    return root


def test_applied_plan_writes_every_file_and_runs_every_command(tmp_path: Path) -> None:
    root = _scratch_root(tmp_path)
    options = _options(tmp_path)
    runner = RecordingRunner()
    apply_plan(build_plan(options, root=root), Context(root=root, runner=runner, owner=getpass.getuser()),
               print_line=lambda _line: None)

    boot = (root / "boot/firmware/config.txt").read_text()
    assert boot.endswith("[all]\n# Tablekeeper: I2C for the displays, fast mode (400 kHz)\n"
                         "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    assert "dtparam=i2c_arm=off" not in boot and "otg_mode=1" in boot and "dtparam=audio=on" in boot
    assert (root / f"boot/firmware/config.txt{BACKUP_SUFFIX}").read_text() == STOCK_BOOT_CONFIG
    assert (root / "etc/modules-load.d/tablekeeper.conf").read_text().splitlines()[-1] == "i2c-dev"
    assert (root / "etc/udev/rules.d/60-tablekeeper-counters.rules").read_text() == render_udev_rule()
    assert (root / "etc/systemd/system/tablekeeper.service").read_text() == render_unit(options.service)
    assert (root / "etc/tablekeeper/station.toml").read_text() == "# reference build\n"
    data = root / "srv/tablekeeper"
    assert data.is_dir() and (data.stat().st_mode & 0o777) == 0o700

    watchdog = (root / "etc/systemd/system.conf.d/60-tablekeeper-watchdog.conf").read_text().splitlines()
    assert "[Manager]" in watchdog and "RuntimeWatchdogSec=15s" in watchdog
    assert ("systemctl", "daemon-reexec") in runner.commands  # PID 1 reads system.conf.d again

    assert ("usermod", "--append", "--groups", "gpio,i2c,dialout", "pi") in runner.commands
    assert ("udevadm", "control", "--reload-rules") in runner.commands
    assert runner.commands[-3:] == [
        ("systemd-analyze", "verify", "/etc/systemd/system/tablekeeper.service"),
        ("systemctl", "daemon-reload"),
        ("systemctl", "enable", "tablekeeper.service"),
    ]


def test_second_run_changes_nothing_and_keeps_the_operators_config(tmp_path: Path) -> None:
    root = _scratch_root(tmp_path)
    options = _options(tmp_path)
    ctx = Context(root=root, runner=RecordingRunner())
    apply_plan(build_plan(options, root=root), ctx, print_line=lambda _line: None)
    boot = (root / "boot/firmware/config.txt").read_text()
    (root / "etc/tablekeeper/station.toml").write_text("# edited on the box\n")

    apply_plan(build_plan(options, root=root), ctx, print_line=lambda _line: None)

    assert (root / "boot/firmware/config.txt").read_text() == boot
    assert (root / f"boot/firmware/config.txt{BACKUP_SUFFIX}").read_text() == STOCK_BOOT_CONFIG
    assert (root / "etc/tablekeeper/station.toml").read_text() == "# edited on the box\n"


def test_a_failing_command_stops_the_install_naming_the_step(tmp_path: Path) -> None:
    root = _scratch_root(tmp_path)
    runner = RecordingRunner(fail_on="usermod")
    with pytest.raises(InstallError, match=r"step 2 \(Add pi to the groups.*usermod.*status 1"):
        apply_plan(build_plan(_options(tmp_path), root=root), Context(root=root, runner=runner),
                   print_line=lambda _line: None)
    assert not (root / "etc/systemd/system/tablekeeper.service").exists()


def test_extra_buses_replace_an_older_overlay_for_the_same_bus_only() -> None:
    old = ("dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=5,i2c_gpio_scl=6\n"
           "dtoverlay=i2c-gpio,bus=7,i2c_gpio_sda=8,i2c_gpio_scl=9\n")
    block = boot_config_block([(3, 22, 23)])
    new = edit_boot_config(old, block)
    assert new.splitlines()[0] == "dtoverlay=i2c-gpio,bus=7,i2c_gpio_sda=8,i2c_gpio_scl=9"
    assert new.splitlines()[-1] == "dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=22,i2c_gpio_scl=23"
    assert "i2c_gpio_sda=5" not in new
    assert edit_boot_config(new, block) == new


def test_boot_config_edit_is_idempotent_and_handles_an_empty_file() -> None:
    once = edit_boot_config(STOCK_BOOT_CONFIG)
    assert edit_boot_config(once) == once
    assert edit_boot_config("").startswith("[all]\n")
    assert once.count("dtparam=i2c_arm_baudrate=") == 1


def _run_install_sh(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TMPDIR"}
    env["PATH"] = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"
    return subprocess.run(["bash", str(REPO / "hardware/pi/install.sh"), *args], capture_output=True, text=True,
                          check=False, timeout=60, env=env, cwd=tmp_path)


def test_install_script_dry_run_lists_every_step_and_changes_nothing(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    data = tmp_path / "data"
    result = _run_install_sh(tmp_path, "--dry-run", "--user", "pi", "--venv", str(venv), "--data-dir", str(data))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    sudo = "" if os.geteuid() == 0 else "sudo "
    assert f"run: {sudo}apt-get install -y python3-venv python3-dev python3-pip i2c-tools" in out
    # The venv is made and filled by root; the build, which runs project code, is not, and runs on the
    # venv's interpreter (the system python3 only makes the venv).
    assert f"run: {sudo}install -d -o root -g root -m 0755 {venv}" in out
    assert f"run: {sudo}python3 -m venv {venv}" in out
    assert f"{venv}/bin/python -m pip wheel --no-deps --quiet --wheel-dir /tmp/tablekeeper-wheel.XXXXXX {REPO}" in out
    assert out.index("python3 -m venv") < out.index("-m pip wheel")
    wheel = "/tmp/tablekeeper-wheel.XXXXXX/tablekeeper-*.whl[pi]"
    assert f"run: {sudo}{venv}/bin/pip install --quiet --upgrade {wheel}" in out
    assert f"run: {sudo}ln -sf {venv}/bin/tablekeeper /usr/local/bin/tablekeeper" in out
    options = install_options(ServiceSettings(user="pi", venv_dir=venv, data_dir=data),
                              station_config_source=REPO / "hardware/station.toml", counter_id_values=[])
    assert options.extra_i2c_buses == ((3, 22, 23), (4, 24, 25))  # the reference build's bit-banged buses
    steps = build_plan(options)
    for number, step in enumerate(steps, 1):
        assert f"[{number}/{len(steps)}] {step.title}" in out
        for action in step.actions:
            assert action.describe() in out
    assert not venv.exists() and not data.exists()
    assert list(tmp_path.iterdir()) == []


def test_install_script_dry_run_on_a_python_without_the_dependencies(tmp_path: Path) -> None:
    """A fresh clone on the system python3 (no msgspec): the shell's plan, then one line saying what the
    installer's own steps need, exit 0 and no traceback."""
    bare = tmp_path / "bin"
    bare.mkdir()
    shim = bare / "python3"
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -S \"$@\"\n")  # -S: the standard library only
    shim.chmod(0o755)
    env = {"PATH": f"{bare}:/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(["bash", str(REPO / "hardware/pi/install.sh"), "--dry-run", "--user", "pi",
                             "--venv", str(tmp_path / "venv")], capture_output=True, text=True, check=False,
                            timeout=60, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr and result.stderr == ""
    assert "[shell 4/4]" in result.stdout
    [note] = [line for line in result.stdout.splitlines() if "not listed here" in line]
    assert "python3 lacks its dependency msgspec" in note and "pip install" in note
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin"]


@pytest.mark.skipif(os.geteuid() != 0, reason="the station user defaults to the one running it")
def test_install_script_dry_run_as_root_shows_the_default_user(tmp_path: Path) -> None:
    result = _run_install_sh(tmp_path, "--dry-run", "--venv", str(tmp_path / "venv"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == ("install.sh: as root an install needs --user NAME; this plan shows the "
                                     "default station user, pi")
    assert "--user pi" in result.stdout
    real = _run_install_sh(tmp_path, "--venv", str(tmp_path / "venv"))
    assert real.returncode == 2 and "pass --user NAME" in real.stderr and real.stdout == ""


def test_install_script_rejects_unknown_options(tmp_path: Path) -> None:
    result = _run_install_sh(tmp_path, "--dry-run", "--colour", "blue")
    assert result.returncode == 2
    assert result.stderr.strip() == "install.sh: unknown option '--colour' (try --help)"


def test_a_real_install_without_root_stops_before_any_step(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.cli import main

    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["appliance", "install", "--user", "pi"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == ("tablekeeper: appliance install: needs root for /etc and /boot; "
                                    "run it with sudo (or add --dry-run to see the steps)")
    assert "[1/" not in captured.out


def test_a_bad_counter_id_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.cli import main

    assert main(["appliance", "udev", "--counter-id", "2E8A-0005"]) == 2
    assert capsys.readouterr().err.strip() == "tablekeeper: --counter-id: '2E8A-0005' is not VID:PID in hex (2E8A:0005)"


def test_live_reloads_are_skipped_with_a_note_when_systemd_is_not_running(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _scratch_root(tmp_path)
    (root / "run/systemd/system").rmdir()
    runner = RecordingRunner()
    apply_plan(build_plan(_options(tmp_path), root=root), Context(root=root, runner=runner, owner=getpass.getuser()),
               print_line=lambda _line: None)
    assert ("systemctl", "enable", "tablekeeper.service") in runner.commands  # works offline
    live = (("udevadm", "control"), ("systemctl", "daemon-reload"), ("systemctl", "daemon-reexec"))
    assert not [argv for argv in runner.commands if argv[:2] in live]
    assert capsys.readouterr().out.count("not booted with systemd") == 4


@pytest.mark.parametrize("uart_pins_used", [True, False])
def test_the_serial_console_leaves_the_button_pins(tmp_path: Path, uart_pins_used: bool) -> None:
    root = _scratch_root(tmp_path)
    cmdline = root / "boot/firmware/cmdline.txt"
    stock = "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 rootwait\n"
    cmdline.write_text(stock)
    (root / "boot/firmware/config.txt").write_text(STOCK_BOOT_CONFIG + "enable_uart=1\n")
    options = dataclasses.replace(_options(tmp_path), uart_pins_used=uart_pins_used)
    for _ in range(2):
        apply_plan(build_plan(options, root=root), Context(root=root, runner=RecordingRunner(),
                                                            owner=getpass.getuser()), print_line=lambda _line: None)
    boot = (root / "boot/firmware/config.txt").read_text().splitlines()
    if uart_pins_used:
        assert cmdline.read_text() == "console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 rootwait\n"
        assert (root / f"boot/firmware/cmdline.txt{BACKUP_SUFFIX}").read_text() == stock
        assert boot[-1] == "enable_uart=0" and "enable_uart=1" not in boot
    else:
        assert cmdline.read_text() == stock and "enable_uart=1" in boot


def test_the_reference_config_uses_the_uart_pins_so_the_installer_frees_them(tmp_path: Path) -> None:
    options = install_options(ServiceSettings(), station_config_source=REFERENCE, counter_id_values=[],
                              root=tmp_path)
    assert options.uart_pins_used
