"""``tablekeeper doctor``: check the box, one line per check, each OK or with a concrete remedy.

The hardware is reached only through :class:`Probes` (I2C bus nodes and addresses, SPI nodes,
GPIO access, USB serial ports, disk space), so tests and ``--sim`` swap in fakes while the
checks themselves stay the same code.
"""

from __future__ import annotations

import argparse
import getpass
import importlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Final, Protocol

from tablekeeper.appliance.paths import DATA_DIR_ENV, DEFAULT_CONFIG_PATH, STORE_FILE_NAME, data_dir
from tablekeeper.appliance.serial_console import serial_consoles, uart_pins_in_use
from tablekeeper.config import StationConfig, default_config_path, load_config
from tablekeeper.errors import ConfigError, StoreError

LOW_SPACE_BYTES: Final = 50 * 1024 * 1024
TIGHT_SPACE_BYTES: Final = 500 * 1024 * 1024
INSTALL_HINT: Final = "sudo hardware/pi/install.sh"


class Status(Enum):
    OK = "OK"
    WARN = "WARN"
    FAIL = "FAIL"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report; ``remedy`` says what to do when the status is not OK."""

    name: str
    status: Status
    detail: str
    remedy: str = ""

    def line(self) -> str:
        text = f"{self.status.value:<4}  {self.name}: {self.detail}"
        return f"{text}\n      -> {self.remedy}" if self.remedy else text


class PortInfo(Protocol):
    """The fields of ``serial.tools.list_ports_common.ListPortInfo`` the doctor reads."""

    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None


@dataclass(frozen=True)
class Probes:
    """Every way the doctor touches the machine."""

    node_exists: Callable[[Path], bool]
    node_accessible: Callable[[Path], bool]
    i2c_answers: Callable[[int, int], bool]  # (bus port, 7-bit address)
    gpio_chips: Callable[[], list[Path]]
    gpio_library: Callable[[], str | None]  # None when the pin library imports, else the problem
    list_ports: Callable[[], Sequence[PortInfo]]
    free_bytes: Callable[[Path], int]
    i2c_clock_hz: Callable[[int], int | None] = lambda _port: None  # None: the kernel does not say
    kernel_cmdline: Callable[[], str | None] = lambda: None  # None: not a Linux box (the check is skipped)
    label: str = "this machine"


def _i2c_answers(port: int, address: int) -> bool:
    """Probe like ``i2cdetect``: a quick write, falling back to a one-byte read."""
    from smbus2 import SMBus

    with SMBus(port) as bus:
        for probe in (bus.write_quick, bus.read_byte):
            try:
                probe(address)
                return True
            except OSError:
                continue
    return False


def _i2c_clock_hz(port: int) -> int | None:
    """The bus clock the device tree set (a big-endian u32), as the Pi's I2C driver exposes it."""
    node = Path(f"/sys/class/i2c-adapter/i2c-{port}/of_node/clock-frequency")
    try:
        raw = node.read_bytes()
    except OSError:
        return None
    return int.from_bytes(raw[:4], "big") if len(raw) >= 4 else None


def _kernel_cmdline() -> str | None:
    try:
        return Path("/proc/cmdline").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _gpio_library() -> str | None:
    try:
        importlib.import_module("lgpio")  # gpiozero's pin factory on Bookworm
    except ImportError:
        return "the lgpio module is not installed in this Python"
    return None


def _list_ports() -> Sequence[PortInfo]:
    from serial.tools import list_ports

    ports: Sequence[PortInfo] = list_ports.comports()
    return ports


def real_probes() -> Probes:
    return Probes(
        node_exists=lambda path: path.exists(),
        node_accessible=lambda path: os.access(path, os.R_OK | os.W_OK),
        i2c_answers=_i2c_answers,
        gpio_chips=lambda: sorted(Path("/dev").glob("gpiochip*")),
        gpio_library=_gpio_library,
        list_ports=_list_ports,
        free_bytes=lambda path: shutil.disk_usage(path).free,
        i2c_clock_hz=_i2c_clock_hz,
        kernel_cmdline=_kernel_cmdline,
    )


@dataclass
class _SimPort:
    device: str
    vid: int | None
    pid: int | None
    serial_number: str | None


@dataclass
class SimulatedParts:
    """The simulator's stand-ins: every configured display answers, every counter is plugged in.

    Tests remove parts (``missing_displays``, ``missing_counters``) to see the remedies.
    """

    config: StationConfig
    missing_displays: set[str] = field(default_factory=set)
    missing_counters: set[int] = field(default_factory=set)  # indexes into config.counters

    def probes(self) -> Probes:
        answering = {(self.config.bus(d.bus).port, d.address) for d in self.config.displays
                     if d.address is not None and d.role not in self.missing_displays}
        ports = [_SimPort(f"/dev/ttySIM{i}", c.vid, c.pid, c.serial or f"SIM{i:04d}")
                 for i, c in enumerate(self.config.counters) if i not in self.missing_counters]
        return Probes(
            node_exists=lambda _path: True,
            node_accessible=lambda _path: True,
            i2c_answers=lambda port, address: (port, address) in answering,
            gpio_chips=lambda: [Path("/dev/gpiochip0")],
            gpio_library=lambda: None,
            list_ports=lambda: ports,
            free_bytes=lambda path: shutil.disk_usage(path).free,
            i2c_clock_hz=lambda port: next((b.speed_hz for b in self.config.buses if b.port == port), None),
            label="the simulator",
        )


# --- checks ----------------------------------------------------------------------------------------
def check_config(path: Path) -> tuple[Check, StationConfig | None]:
    try:
        cfg = load_config(path)
    except ConfigError as exc:
        remedy = f"fix that key, then re-run: tablekeeper config check {path}"
        return Check("config", Status.FAIL, str(exc), remedy), None
    summary = (f"{path}: '{cfg.name}', {len(cfg.displays)} displays, {len(cfg.buttons)} buttons, "
               f"{len(cfg.counters)} counter(s)")
    return Check("config", Status.OK, summary), cfg


def check_i2c(cfg: StationConfig, probes: Probes) -> list[Check]:
    checks: list[Check] = []
    for bus in cfg.buses:
        node = Path(f"/dev/i2c-{bus.port}") if bus.kind == "i2c" else None
        displays = [d for d in cfg.displays if d.bus == bus.name]
        if node is None:
            for d in displays:
                spi_node = Path(f"/dev/spidev{bus.port}.{d.device}")
                if probes.node_exists(spi_node):
                    checks.append(Check(f"display {d.role}", Status.OK, f"SPI {spi_node} present"))
                else:
                    checks.append(Check(f"display {d.role}", Status.FAIL, f"{spi_node} does not exist",
                                        "enable SPI: add dtparam=spi=on to /boot/firmware/config.txt, reboot"))
            continue
        name = f"i2c bus {bus.name}"
        if not probes.node_exists(node):
            pins = dict(bus.pins)
            remedy = (f"enable I2C ({INSTALL_HINT} does it), then reboot" if bus.port in (0, 1) else
                      f"add dtoverlay=i2c-gpio,bus={bus.port},i2c_gpio_sda={pins['SDA']},i2c_gpio_scl={pins['SCL']}"
                      " to /boot/firmware/config.txt, then reboot")
            checks.append(Check(name, Status.FAIL, f"{node} does not exist", remedy))
            continue
        if not probes.node_accessible(node):
            checks.append(Check(name, Status.FAIL, f"{node} is not readable/writable by {getpass.getuser()}",
                                f"sudo usermod -aG i2c {getpass.getuser()}, then log out and back in"))
            continue
        clock_hz = probes.i2c_clock_hz(bus.port)
        if bus.speed_hz is not None and clock_hz is not None and clock_hz != bus.speed_hz:
            checks.append(Check(name, Status.WARN, f"{node} runs at {clock_hz // 1000} kHz, the config asks for "
                                                   f"{bus.speed_hz // 1000} kHz",
                                f"set dtparam=i2c_arm_baudrate={bus.speed_hz} in /boot/firmware/config.txt "
                                f"({INSTALL_HINT} does it), then reboot"))
        else:
            speed = f" at {clock_hz // 1000} kHz" if clock_hz else ""
            checks.append(Check(name, Status.OK, f"{node} present{speed}"))
        pins = dict(bus.pins)
        for d in displays:
            if d.address is None:
                continue
            where = f"{d.driver} at {d.address:#04x} on {node}"
            if probes.i2c_answers(bus.port, d.address):
                checks.append(Check(f"display {d.role}", Status.OK, f"{where} answers"))
            else:
                checks.append(Check(
                    f"display {d.role}", Status.FAIL, f"nothing answers at {d.address:#04x} on {node}",
                    f"check the {d.role} module's wiring (VCC 3V3, GND, SDA to BCM {pins['SDA']}, "
                    f"SCL to BCM {pins['SCL']}) and its address jumper; `i2cdetect -y {bus.port}` lists what answers"))
    if not cfg.displays:
        checks.append(Check("displays", Status.WARN, "the config lists no displays",
                            "add [[displays]] entries (see hardware/station.toml)"))
    return checks


def check_gpio(cfg: StationConfig, probes: Probes) -> Check:
    chips = probes.gpio_chips()
    if not chips:
        return Check("gpio", Status.FAIL, "no /dev/gpiochip* device",
                     "run this on the Raspberry Pi (or use --sim); a Pi without gpiochip needs a current kernel")
    blocked = [chip for chip in chips if not probes.node_accessible(chip)]
    if blocked:
        user = getpass.getuser()
        return Check("gpio", Status.FAIL, f"{blocked[0]} is not readable/writable by {user}",
                     f"sudo usermod -aG gpio {user}, then log out and back in")
    problem = probes.gpio_library()
    if problem is not None:
        return Check("gpio", Status.FAIL, problem, "install it into the project's venv: .venv/bin/pip install lgpio")
    pins = len(cfg.buttons) + len(cfg.leds) + (cfg.buzzer is not None)
    return Check("gpio", Status.OK, f"{chips[0]} accessible; {pins} button/LED/buzzer pins configured")


def check_serial_console(cfg: StationConfig, probes: Probes) -> Check | None:
    """Buttons on BCM 14/15 need the kernel's serial console off those pins."""
    pins = uart_pins_in_use(cfg)
    cmdline = probes.kernel_cmdline()
    if not pins or cmdline is None:
        return None
    consoles = serial_consoles(cmdline)
    where = "/".join(f"BCM {pin}" for pin in pins)
    if consoles:
        return Check("serial console", Status.FAIL, f"the kernel runs a console ({consoles[0]}) on the UART, "
                     f"and the config wires buttons to {where}",
                     f"run hardware/pi/install.sh again, or remove {consoles[0]} from "
                     "/boot/firmware/cmdline.txt, set enable_uart=0 in config.txt and reboot")
    return Check("serial console", Status.OK, f"off the UART; {where} free for buttons")


def check_counters(cfg: StationConfig, probes: Probes) -> list[Check]:
    ports = list(probes.list_ports())
    checks = []
    claimed: set[str] = set()
    for counter in cfg.counters:
        name = f"counter seat{counter.seat} {counter.role}"
        found = [p for p in ports if p.vid == counter.vid and p.pid == counter.pid and p.device not in claimed
                 and (counter.serial is None or p.serial_number == counter.serial)]
        if found:
            claimed.add(found[0].device)
            checks.append(Check(name, Status.OK, f"{found[0].device} (USB {counter.vid_pid}, "
                                                 f"serial {found[0].serial_number or '?'})"))
            continue
        wanted = f"USB {counter.vid_pid}" + (f" serial {counter.serial}" if counter.serial else "")
        others = [p.device for p in ports if p.vid == counter.vid and p.pid == counter.pid]
        remedy = (f"{', '.join(others)} has that ID but another serial: set serial in the config "
                  "(ls -l /dev/serial/by-id)") if others and counter.serial else (
            "plug it in with a data (not charge-only) USB cable; a board in BOOTSEL mode shows up as a "
            "drive instead: flash MicroPython and the counter app (firmware/README.md)")
        checks.append(Check(name, Status.FAIL, f"no serial port with {wanted}", remedy))
    if not cfg.counters:
        checks.append(Check("counters", Status.OK, "none configured"))
    return checks


def check_data_dir(directory: Path) -> tuple[Check, Path | None]:
    """Writable, or creatable by this user; returns the nearest existing directory for the space check."""
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    user = getpass.getuser()
    if not existing.is_dir():
        return Check("data dir", Status.FAIL, f"{existing} is a file, not a directory",
                     f"point {DATA_DIR_ENV} at a directory"), None
    if existing != directory:
        if os.access(existing, os.W_OK):
            return Check("data dir", Status.OK, f"{directory} will be created at first run"), existing
        return Check("data dir", Status.FAIL, f"{directory} does not exist and {user} cannot create it",
                     f"sudo install -d -o {user} -g {user} {directory}"), existing
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-"):
            pass
    except OSError as exc:
        return Check("data dir", Status.FAIL, f"{directory} is not writable: {exc.strerror}",
                     f"sudo chown {user} {directory} (on a read-only root, set {DATA_DIR_ENV} "
                     "to a directory on a writable partition)"), existing
    return Check("data dir", Status.OK, f"{directory} writable"), existing


def check_store(path: Path) -> Check | None:
    """The save file, when there is one: a damaged one would stop the station at every start."""
    if not path.exists():
        return None
    from tablekeeper.core.store import inspect

    remedy = (f"tablekeeper saves check {path}; export what is good, then move it aside "
              f"(mv {path} {path}.damaged); the station then starts a fresh game")
    try:
        found = inspect(path)  # reads only, without the lock: the station may be running
    except StoreError as exc:
        return Check("save file", Status.FAIL, str(exc), remedy)
    if not found.ok:
        return Check("save file", Status.FAIL, f"{path}: {found.first_problem()}", remedy)
    slots = found.slots
    return Check("save file", Status.OK, f"{path}: {len(slots)} saved game(s), integrity ok")


def check_free_space(directory: Path, probes: Probes) -> Check:
    free = probes.free_bytes(directory)
    text = f"{free / 1024 / 1024:.0f} MiB free under {directory}"
    remedy = "free some space: sudo apt-get clean; sudo journalctl --vacuum-size=50M"
    if free < LOW_SPACE_BYTES:
        return Check("free space", Status.FAIL, text, remedy)
    if free < TIGHT_SPACE_BYTES:
        return Check("free space", Status.WARN, text, remedy)
    return Check("free space", Status.OK, text)


def run_checks(config_path: Path, probes: Probes, directory: Path) -> list[Check]:
    """Every check in report order; hardware checks are skipped (and say so) when the config is invalid."""
    config_check, cfg = check_config(config_path)
    checks = [config_check]
    if cfg is None:
        skipped = "skipped: needs a valid config"
        checks += [Check(name, Status.FAIL, skipped, "fix the config first")
                   for name in ("i2c", "gpio", "counters")]
    else:
        checks += check_i2c(cfg, probes)
        checks.append(check_gpio(cfg, probes))
        console_check = check_serial_console(cfg, probes)
        if console_check is not None:
            checks.append(console_check)
        checks += check_counters(cfg, probes)
    data_check, existing = check_data_dir(directory)
    checks.append(data_check)
    store_check = check_store(directory / STORE_FILE_NAME)
    if store_check is not None:
        checks.append(store_check)
    if existing is not None:
        checks.append(check_free_space(existing, probes))
    return checks


def report(checks: Iterable[Check], print_line: Callable[[str], None] = print) -> int:
    """Print the lines and a summary; exit 0 when nothing failed, 1 otherwise."""
    checks = list(checks)
    for check in checks:
        print_line(check.line())
    failed = sum(c.status is Status.FAIL for c in checks)
    warned = sum(c.status is Status.WARN for c in checks)
    print_line(f"{len(checks)} checks: {len(checks) - failed - warned} ok, {warned} warnings, {failed} failed")
    return 1 if failed else 0


# --- command line ----------------------------------------------------------------------------------
def default_config() -> Path:
    """The installed station config if there is one, else the reference build in the repository."""
    return DEFAULT_CONFIG_PATH if DEFAULT_CONFIG_PATH.exists() else default_config_path()


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("doctor", help="check displays, GPIO, counters, data dir and config",
                                   description="Check the station's hardware and settings; each line is "
                                               "OK or says what to do.")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help=f"station config (default: {DEFAULT_CONFIG_PATH} if present, else the reference build)")
    parser.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                        help=f"data directory (default: ${DATA_DIR_ENV} or ~/.local/share/tablekeeper)")
    parser.add_argument("--sim", action="store_true", help="check against the simulator's parts")
    parser.set_defaults(func=doctor_command)


def doctor_command(args: argparse.Namespace) -> int:
    config_path: Path = args.config or default_config()
    directory: Path = args.data_dir or data_dir()
    if args.sim:
        try:
            probes = SimulatedParts(load_config(config_path)).probes()
        except ConfigError:
            probes = SimulatedParts(StationConfig(source=str(config_path))).probes()
    else:
        probes = real_probes()
    print(f"tablekeeper doctor: checking {probes.label}")
    return report(run_checks(config_path, probes, directory))
