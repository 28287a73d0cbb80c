"""The Raspberry Pi install as an explicit plan: numbered steps of commands and files.

A plan is built first and then either printed (``--dry-run``, changes nothing) or applied. Every
file path is resolved under ``root`` so the whole plan can be applied to a scratch directory in
tests; commands go through an injected runner. Files the operator may have edited (the station
config) are never overwritten, and the boot config is backed up before its first change.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from tablekeeper.appliance.serial_console import DisableSerialConsole, find_cmdline
from tablekeeper.appliance.units import (
    DEFAULT_COUNTER_IDS,
    HARDWARE_GROUPS,
    SERVICE_NAME,
    UDEV_RULE_NAME,
    WATCHDOG_DROP_IN,
    ServiceSettings,
    render_system_watchdog,
    render_udev_rule,
    render_unit,
)
from tablekeeper.errors import InstallError

I2C_BAUDRATE_HZ: Final = 400_000
BOOT_CONFIG_CANDIDATES: Final = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
BOOT_CONFIG_BLOCK: Final = (
    "[all]",
    f"# Tablekeeper: I2C for the displays, fast mode ({I2C_BAUDRATE_HZ // 1000} kHz)",
    "dtparam=i2c_arm=on",
    f"dtparam=i2c_arm_baudrate={I2C_BAUDRATE_HZ}",
)
I2C_GPIO_OVERLAY: Final = "dtoverlay=i2c-gpio,bus={port},i2c_gpio_sda={sda},i2c_gpio_scl={scl}"
# Single-parameter lines the block replaces, wherever they stood before.
_REPLACED_BOOT_PARAMS: Final = ("dtparam=i2c_arm=", "dtparam=i2c_arm_baudrate=", "dtparam=i2c1_baudrate=")
BACKUP_SUFFIX: Final = ".tablekeeper-backup"
# Where Debian's bash-completion and zsh look for a command's completion script.
COMPLETION_FILES: Final = (("bash", Path("/usr/share/bash-completion/completions/tablekeeper")),
                           ("zsh", Path("/usr/share/zsh/vendor-completions/_tablekeeper")))
UART_OFF_LINE: Final = "enable_uart=0"

Runner = Callable[[Sequence[str]], int]


def run_command(argv: Sequence[str]) -> int:
    """The real runner: the command's own output goes straight to the terminal."""
    try:
        return subprocess.run(list(argv), check=False).returncode
    except FileNotFoundError:
        return 127


@dataclass(frozen=True, slots=True)
class Context:
    """Where an applied plan writes (``root``) and how it runs commands."""

    root: Path = Path("/")
    runner: Runner = run_command
    owner: str | None = None  # chown target for created directories; None leaves ownership alone

    def path(self, target: Path) -> Path:
        return self.root / target.relative_to("/")


class Action(Protocol):
    def describe(self) -> str: ...

    def apply(self, ctx: Context) -> None: ...


@dataclass(frozen=True, slots=True)
class Run:
    argv: tuple[str, ...]

    def describe(self) -> str:
        return "run: " + " ".join(self.argv)

    def apply(self, ctx: Context) -> None:
        code = ctx.runner(self.argv)
        if code != 0:
            raise InstallError(f"`{' '.join(self.argv)}` exited with status {code}")


SYSTEMD_BOOTED_MARKER: Final = Path("/run/systemd/system")  # sd_booted(3): present only when systemd is PID 1


@dataclass(frozen=True, slots=True)
class RunLive:
    """A command that talks to the running systemd or udev; skipped with a note when systemd is not PID 1.

    In a chroot or an image build there is nothing to reload: the files are in place and the next boot
    reads them.
    """

    argv: tuple[str, ...]

    def describe(self) -> str:
        return "run: " + " ".join(self.argv) + " (only when booted with systemd)"

    def apply(self, ctx: Context) -> None:
        if not ctx.path(SYSTEMD_BOOTED_MARKER).is_dir():
            print(f"    skipped `{' '.join(self.argv)}`: not booted with systemd (a chroot or image); "
                  "the next boot picks the change up")
            return
        Run(self.argv).apply(ctx)


@dataclass(frozen=True, slots=True)
class WriteFile:
    path: Path
    text: str
    mode: int = 0o644

    def describe(self) -> str:
        return f"write: {self.path} ({len(self.text.splitlines())} lines, mode {self.mode:o})"

    def apply(self, ctx: Context) -> None:
        target = ctx.path(self.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".new")
        temporary.write_text(self.text, encoding="utf-8")
        temporary.chmod(self.mode)
        os.replace(temporary, target)


@dataclass(frozen=True, slots=True)
class CopyIfMissing:
    source: Path
    path: Path

    def describe(self) -> str:
        return f"copy: {self.source} -> {self.path} (only if {self.path} does not exist yet)"

    def apply(self, ctx: Context) -> None:
        target = ctx.path(self.path)
        if target.exists():
            print(f"    kept existing {self.path}")
            return
        if not self.source.is_file():
            raise InstallError(f"{self.source}: no such station config to copy")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.source, target)


@dataclass(frozen=True, slots=True)
class MakeDir:
    path: Path
    mode: int = 0o750

    def describe(self) -> str:
        return f"mkdir: {self.path} (mode {self.mode:o}, owned by the station user)"

    def apply(self, ctx: Context) -> None:
        target = ctx.path(self.path)
        target.mkdir(parents=True, exist_ok=True)
        target.chmod(self.mode)
        if ctx.owner is not None:
            shutil.chown(target, ctx.owner, ctx.owner)


@dataclass(frozen=True, slots=True)
class EnsureBootConfig:
    """Put the I2C block at the end of config.txt, dropping older settings of the same parameters."""

    path: Path
    block: tuple[str, ...] = BOOT_CONFIG_BLOCK

    def describe(self) -> str:
        return f"edit: {self.path}: " + "; ".join(line for line in self.block if not line.startswith(("[", "#")))

    def apply(self, ctx: Context) -> None:
        target = ctx.path(self.path)
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        new = edit_boot_config(old, self.block)
        if new == old:
            return
        backup = target.with_name(target.name + BACKUP_SUFFIX)
        if target.exists() and not backup.exists():
            shutil.copy2(target, backup)
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        WriteFile(self.path, new, mode=mode).apply(ctx)


def boot_config_block(extra_i2c_buses: Sequence[tuple[int, int, int]] = (), *,
                      uart_off: bool = False) -> tuple[str, ...]:
    """The block for config.txt: I2C on at 400 kHz, one bit-banged bus per (port, sda, scl), and the
    UART off when its pins (BCM 14/15) carry buttons."""
    overlays = tuple(I2C_GPIO_OVERLAY.format(port=port, sda=sda, scl=scl) for port, sda, scl in extra_i2c_buses)
    uart = (UART_OFF_LINE,) if uart_off else ()
    return (*BOOT_CONFIG_BLOCK, *overlays, *uart)


def edit_boot_config(text: str, block: Sequence[str] = BOOT_CONFIG_BLOCK) -> str:
    """The boot config with the Tablekeeper block as its last lines; unchanged if already so."""
    lines = text.splitlines()
    block = list(block)
    if lines[-len(block):] == block:
        return text
    replaced = _REPLACED_BOOT_PARAMS + tuple(line.split("i2c_gpio_sda")[0] for line in block
                                             if line.startswith("dtoverlay=i2c-gpio,"))
    if UART_OFF_LINE in block:
        replaced += ("enable_uart=",)
    kept = [line for line in lines if line not in block and not line.strip().startswith(replaced)]
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join([*kept, "", *block]).lstrip("\n") + "\n"


@dataclass(frozen=True, slots=True)
class Note:
    text: str

    def describe(self) -> str:
        return f"note: {self.text}"

    def apply(self, ctx: Context) -> None:
        print(f"    {self.text}")


@dataclass(frozen=True, slots=True)
class Step:
    title: str
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class InstallOptions:
    """Everything the installer is told on its command line."""

    service: ServiceSettings = field(default_factory=ServiceSettings)
    station_config_source: Path | None = None
    counter_ids: tuple[tuple[int, int], ...] = DEFAULT_COUNTER_IDS
    start_now: bool = False
    boot_config: Path | None = None  # None: the first of BOOT_CONFIG_CANDIDATES that exists
    extra_i2c_buses: tuple[tuple[int, int, int], ...] = ()  # (port, sda, scl) of bit-banged buses
    uart_pins_used: bool = False  # the config puts buttons on BCM 14/15: the serial console must leave them
    hardware_watchdog: bool = True  # systemd feeds the board's watchdog, so a hung system resets itself


def find_boot_config(root: Path) -> Path:
    for candidate in BOOT_CONFIG_CANDIDATES:
        if (root / candidate.relative_to("/")).exists():
            return candidate
    return BOOT_CONFIG_CANDIDATES[0]


def build_plan(options: InstallOptions, *, root: Path = Path("/")) -> list[Step]:
    """The ordered steps; the same list is printed by a dry run and executed by a real one."""
    service = options.service
    unit_path = Path("/etc/systemd/system") / SERVICE_NAME
    udev_path = Path("/etc/udev/rules.d") / UDEV_RULE_NAME
    boot_config = options.boot_config or find_boot_config(root)
    steps = [
        Step(f"Enable I2C at {I2C_BAUDRATE_HZ // 1000} kHz" + (
                f" and {len(options.extra_i2c_buses)} extra bus(es)" if options.extra_i2c_buses else ""), (
            EnsureBootConfig(boot_config, boot_config_block(options.extra_i2c_buses,
                                                            uart_off=options.uart_pins_used)),
            WriteFile(Path("/etc/modules-load.d/tablekeeper.conf"), "# I2C device nodes for the displays\ni2c-dev\n"),
        )),
    ]
    if options.uart_pins_used:
        steps.append(Step("Take the serial console off BCM 14/15 (the config uses them for buttons)", (
            DisableSerialConsole(find_cmdline(root)),
        )))
    steps += [
        Step(f"Add {service.user} to the groups {', '.join(HARDWARE_GROUPS)}", (
            *(Run(("groupadd", "--force", "--system", group)) for group in HARDWARE_GROUPS),
            Run(("usermod", "--append", "--groups", ",".join(HARDWARE_GROUPS), service.user)),
        )),
        Step("Install the udev rule for the counters (ModemManager leaves them alone)", (
            WriteFile(udev_path, render_udev_rule(options.counter_ids)),
            RunLive(("udevadm", "control", "--reload-rules")),
            RunLive(("udevadm", "trigger", "--action=add", "--subsystem-match=tty")),
        )),
    ]
    if not service.state_directory:
        steps.append(Step(f"Create the data directory {service.data_dir}", (MakeDir(service.data_dir, 0o700),)))
    if options.station_config_source is not None:
        steps.append(Step(f"Install the station config {service.config_path}", (
            CopyIfMissing(options.station_config_source, service.config_path),
        )))
    if options.hardware_watchdog:
        steps.append(Step("Let the hardware watchdog reset the box if the system hangs", (
            WriteFile(WATCHDOG_DROP_IN, render_system_watchdog()),
            RunLive(("systemctl", "daemon-reexec")),
        )))
    tablekeeper = str(service.venv_dir / "bin" / "tablekeeper")
    steps.append(Step("Install tab completion for bash and zsh", tuple(
        action for shell, path in COMPLETION_FILES
        for action in (Run(("install", "-d", "-m", "0755", str(path.parent))),
                       Run((tablekeeper, "completion", shell, "--output", str(path)))))))
    steps.append(Step(f"Install and enable the systemd service {SERVICE_NAME}", (
        WriteFile(unit_path, render_unit(service)),
        Run(("systemd-analyze", "verify", str(unit_path))),
        RunLive(("systemctl", "daemon-reload")),
        Run(("systemctl", "enable", SERVICE_NAME)),
    )))
    if options.start_now:
        steps.append(Step("Start the service now", (RunLive(("systemctl", "restart", SERVICE_NAME)),)))
    else:
        steps.append(Step("Finish", (Note("reboot once (sudo reboot) so I2C, udev and group changes apply; "
                                          "the service then starts by itself"),)))
    return steps


def print_plan(steps: Sequence[Step], *, print_line: Callable[[str], None] = print) -> None:
    for number, step in enumerate(steps, 1):
        print_line(f"[{number}/{len(steps)}] {step.title}")
        for action in step.actions:
            print_line(f"    {action.describe()}")


def apply_plan(steps: Sequence[Step], ctx: Context, *, print_line: Callable[[str], None] = print) -> None:
    """Run each step in order; the first failure stops the install with the step named."""
    for number, step in enumerate(steps, 1):
        print_line(f"[{number}/{len(steps)}] {step.title}")
        for action in step.actions:
            try:
                action.apply(ctx)
            except InstallError as exc:
                raise InstallError(f"step {number} ({step.title}): {exc}") from None
            except OSError as exc:
                raise InstallError(f"step {number} ({step.title}): {action.describe()}: {exc}") from None
