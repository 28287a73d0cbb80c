"""The station config: a TOML file describing one physical build (displays, buttons, outputs, counters).

It is parsed into frozen dataclasses and checked as a whole (pins used twice, pins a bus needs,
two displays on one address) so a wiring mistake is reported before any hardware is touched.
Every error is a ``ConfigError`` whose one-line message names the file and the key.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from tablekeeper.errors import ConfigError

DRIVERS: Final = ("ssd1306", "sh1106", "ssd1309")
SIZES: Final = {"128x64": (128, 64), "128x32": (128, 32)}
MAX_SEATS: Final = 4
DISPLAY_ROLES: Final = ("track", "tokens", *(f"seat{n}" for n in range(1, MAX_SEATS + 1)))
PANEL_BUTTON_ROLES: Final = ("next", "back", "select", "up", "down", "menu")
SEAT_BUTTON_ROLES: Final = tuple(f"seat{n}.{k}" for n in range(1, MAX_SEATS + 1) for k in ("a", "b"))
BUTTON_ROLES: Final = PANEL_BUTTON_ROLES + SEAT_BUTTON_ROLES
REQUIRED_BUTTON_ROLES: Final = ("next", "back")
COUNTER_ROLES: Final = ("hp", "dial", "dice")
BCM_PINS: Final = range(0, 28)  # GPIO 0..27 are on the 40-pin header

# Pins the Pi's fixed-function buses take (BCM numbers). I2C buses other than 0 and 1 are
# bit-banged (``dtoverlay=i2c-gpio``) and name their own pins.
I2C_FIXED_PINS: Final = {0: {"SDA": 0, "SCL": 1}, 1: {"SDA": 2, "SCL": 3}}
SPI_PINS: Final = {
    0: {"MISO": 9, "MOSI": 10, "SCLK": 11, "CE0": 8, "CE1": 7},
    1: {"MISO": 19, "MOSI": 20, "SCLK": 21, "CE0": 18, "CE1": 17, "CE2": 16},
}
UART_PINS: Final = {"TXD": 14, "RXD": 15}
_VID_PID = re.compile(r"^[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}$")


@dataclass(frozen=True, slots=True)
class BusConfig:
    """An I2C or SPI bus the displays hang on; ``pins`` maps signal name -> BCM pin."""

    name: str
    kind: str  # "i2c" | "spi"
    port: int
    pins: tuple[tuple[str, int], ...]
    speed_hz: int | None = None


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """One OLED: which chip, how big, where it is wired and what it shows."""

    role: str
    driver: str
    width: int
    height: int
    bus: str
    address: int | None = None  # I2C only
    device: int | None = None  # SPI chip-select index
    dc_pin: int | None = None  # SPI only
    reset_pin: int | None = None  # SPI only, optional
    rotation: int = 0
    label: str = ""

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True, slots=True)
class ButtonConfig:
    """A push button between a BCM pin and ground (pull-up) or 3V3 (pull-down)."""

    name: str
    pin: int
    role: str
    pull_up: bool = True
    key: str = ""  # keyboard key that presses it in the simulator
    label: str = ""


@dataclass(frozen=True, slots=True)
class OutputConfig:
    """An LED or buzzer on a BCM pin; ``active_high`` False means the pin sinks current."""

    name: str
    pin: int
    active_high: bool = True


@dataclass(frozen=True, slots=True)
class CounterConfig:
    """How a USB serial counter is recognised and which seat it serves."""

    vid: int
    pid: int
    seat: int
    role: str
    serial: str | None = None

    @property
    def vid_pid(self) -> str:
        return f"{self.vid:04X}:{self.pid:04X}"


@dataclass(frozen=True, slots=True)
class TimingConfig:
    """Button and display timing in seconds; the defaults suit cheap tactile switches."""

    debounce_s: float = 0.02
    hold_s: float = 0.6
    repeat_interval_s: float = 0.15
    pending_window_s: float = 1.5
    display_retry_s: float = 1.0
    display_retry_max_s: float = 30.0


@dataclass(frozen=True, slots=True)
class StationConfig:
    """A whole station build, validated."""

    source: str
    buses: tuple[BusConfig, ...] = ()
    displays: tuple[DisplayConfig, ...] = ()
    buttons: tuple[ButtonConfig, ...] = ()
    leds: tuple[OutputConfig, ...] = ()
    buzzer: OutputConfig | None = None
    counters: tuple[CounterConfig, ...] = ()
    timing: TimingConfig = field(default_factory=TimingConfig)
    quiet: bool = False
    uart: bool = False
    name: str = "station"

    def bus(self, name: str) -> BusConfig:
        for bus in self.buses:
            if bus.name == name:
                return bus
        raise KeyError(name)

    def display(self, role: str) -> DisplayConfig | None:
        return next((d for d in self.displays if d.role == role), None)

    def button(self, role: str) -> ButtonConfig | None:
        return next((b for b in self.buttons if b.role == role), None)

    def led(self, seat: int) -> OutputConfig | None:
        return next((o for o in self.leds if o.name == f"seat{seat}"), None)

    def pin_map(self) -> dict[int, str]:
        """Every BCM pin the build uses -> the config key that claims it (for wiring and checks)."""
        return {pin: key for key, pin in _pin_claims(self)}


def _pin_claims(cfg: StationConfig) -> list[tuple[str, int]]:
    claims: list[tuple[str, int]] = []
    for bus in cfg.buses:
        claims += [(f"buses.{bus.name} ({signal})", pin) for signal, pin in bus.pins]
    if cfg.uart:
        claims += [(f"uart ({signal})", pin) for signal, pin in UART_PINS.items()]
    for i, d in enumerate(cfg.displays):
        if d.dc_pin is not None:
            claims.append((f"displays[{i}].dc_pin", d.dc_pin))
        if d.reset_pin is not None:
            claims.append((f"displays[{i}].reset_pin", d.reset_pin))
    claims += [(f"buttons.{b.name}.pin", b.pin) for b in cfg.buttons]
    claims += [(f"outputs.leds.{o.name}.pin", o.pin) for o in cfg.leds]
    if cfg.buzzer is not None:
        claims.append(("outputs.buzzer.pin", cfg.buzzer.pin))
    return claims


T = TypeVar("T")


class _Reader:
    """Typed access to one TOML table that reports errors as ``file: key: problem``."""

    def __init__(self, source: str, prefix: str, table: Any) -> None:
        self.source = source
        self.prefix = prefix
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: {prefix}: expected a table")
        self.table: dict[str, Any] = table
        self.seen: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def fail(self, name: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: {self.key(name)}: {problem}")

    def get(self, name: str, kind: type[T], default: T | None = None, *, required: bool = False) -> T:
        self.seen.add(name)
        if name not in self.table:
            if required:
                raise self.fail(name, "missing (required)")
            return default  # type: ignore[return-value]
        value = self.table[name]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(name, f"expected {_kind_name(kind)}, got {_kind_name(type(value))} {value!r}")
        return value

    def choice(self, name: str, options: tuple[str, ...], default: str | None = None) -> str:
        value = self.get(name, str, default, required=default is None)
        if value not in options:
            raise self.fail(name, f"{value!r} is not one of {', '.join(options)}")
        return value

    def pin(self, name: str) -> int:
        value = self.get(name, int, required=True)
        if value not in BCM_PINS:
            raise self.fail(name, f"BCM {value} is not a header GPIO (0..27)")
        return value

    def optional_pin(self, name: str) -> int | None:
        return self.pin(name) if name in self.table else None

    def seconds(self, name: str, default: float) -> float:
        value = self.get(name, float, default)
        if not 0 < value <= 60:
            raise self.fail(name, f"{value} s is out of range (0 < s <= 60)")
        return value

    def sub(self, name: str) -> _Reader:
        return _Reader(self.source, self.key(name), self.table[name])

    def done(self) -> None:
        for name in self.table:
            if name not in self.seen:
                raise self.fail(name, "unknown key")


def _kind_name(kind: type) -> str:
    return {int: "an integer", float: "a number", str: "a string", bool: "true/false", dict: "a table",
            list: "an array"}.get(kind, kind.__name__)


def load_config(path: str | Path) -> StationConfig:
    """Read and validate a station config file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    return parse_config(text, source=str(path))


def parse_config(text: str, *, source: str = "<config>") -> StationConfig:
    """Validate TOML text; ``source`` names the file in error messages."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    top = _Reader(source, "", raw)
    name, quiet = _station(top)
    cfg = StationConfig(
        source=source,
        name=name,
        quiet=quiet,
        uart=_uart(top),
        timing=_timing(top),
        buses=_tables(top, "buses", _bus),
        buttons=_tables(top, "buttons", _button),
        counters=_array(top, "counters", _counter),
        **_outputs(top),
    )
    displays = _array(top, "displays", lambda r, _i: _display(r, cfg))
    top.done()
    cfg = dataclasses.replace(cfg, displays=displays)
    _check_whole(cfg)
    return cfg


def _station(top: _Reader) -> tuple[str, bool]:
    top.seen.add("station")
    if "station" not in top.table:
        return "station", False
    r = top.sub("station")
    name, quiet = r.get("name", str, "station"), r.get("quiet", bool, False)
    r.done()
    return name, quiet


def _uart(top: _Reader) -> bool:
    if "uart" not in top.table:
        top.seen.add("uart")
        return False
    section = top.sub("uart")
    top.seen.add("uart")
    enabled = section.get("enabled", bool, False)
    section.done()
    return enabled


def _timing(top: _Reader) -> TimingConfig:
    top.seen.add("timing")
    if "timing" not in top.table:
        return TimingConfig()
    r = top.sub("timing")
    d = TimingConfig()
    timing = TimingConfig(
        debounce_s=r.seconds("debounce_s", d.debounce_s),
        hold_s=r.seconds("hold_s", d.hold_s),
        repeat_interval_s=r.seconds("repeat_interval_s", d.repeat_interval_s),
        pending_window_s=r.seconds("pending_window_s", d.pending_window_s),
        display_retry_s=r.seconds("display_retry_s", d.display_retry_s),
        display_retry_max_s=r.seconds("display_retry_max_s", d.display_retry_max_s),
    )
    r.done()
    if timing.debounce_s >= timing.hold_s:
        raise r.fail("debounce_s", f"{timing.debounce_s} s must be shorter than hold_s ({timing.hold_s} s)")
    return timing


def _tables(top: _Reader, name: str, build: Callable[[_Reader, str], T]) -> tuple[T, ...]:
    """A table of named sub-tables, e.g. ``[buttons.next]``."""
    top.seen.add(name)
    if name not in top.table:
        return ()
    section = top.sub(name)
    items = []
    for key in section.table:
        section.seen.add(key)
        items.append(build(section.sub(key), key))
    return tuple(items)


def _array(top: _Reader, name: str, build: Callable[[_Reader, int], T]) -> tuple[T, ...]:
    """An array of tables, e.g. ``[[displays]]``."""
    top.seen.add(name)
    if name not in top.table:
        return ()
    items = top.table[name]
    if not isinstance(items, list):
        raise top.fail(name, f"expected an array of tables ([[{name}]])")
    return tuple(build(_Reader(top.source, f"{name}[{i}]", item), i) for i, item in enumerate(items))


def _bus(r: _Reader, name: str) -> BusConfig:
    kind = r.choice("kind", ("i2c", "spi"))
    port = r.get("port", int, required=True)
    speed_hz = r.get("speed_hz", int, None)
    if speed_hz is not None and not 10_000 <= speed_hz <= 32_000_000:
        raise r.fail("speed_hz", f"{speed_hz} Hz is out of range (10 kHz..32 MHz)")
    pins: dict[str, int]
    if kind == "spi":
        if port not in SPI_PINS:
            raise r.fail("port", f"SPI port {port} does not exist on the header (0 or 1)")
        pins = dict(SPI_PINS[port])
    elif port in I2C_FIXED_PINS:
        for signal in ("sda", "scl"):
            if signal in r.table:
                raise r.fail(signal, f"I2C bus {port} has fixed pins; remove this key")
        pins = dict(I2C_FIXED_PINS[port])
    else:
        if not 2 <= port <= 31:
            raise r.fail("port", f"I2C port {port} is out of range (0..31)")
        pins = {"SDA": r.pin("sda"), "SCL": r.pin("scl")}
    r.done()
    return BusConfig(name=name, kind=kind, port=port, pins=tuple(pins.items()), speed_hz=speed_hz)


def _display(r: _Reader, cfg: StationConfig) -> DisplayConfig:
    role = r.choice("role", DISPLAY_ROLES)
    driver = r.choice("driver", DRIVERS)
    size = r.choice("size", tuple(SIZES))
    if driver == "ssd1309" and size != "128x64":
        raise r.fail("size", "the ssd1309 is only made as 128x64")
    rotation = r.get("rotation", int, 0)
    if rotation not in (0, 2):
        raise r.fail("rotation", f"{rotation} is not 0 or 2 (0°/180°; the screens are drawn landscape)")
    bus_name = r.get("bus", str, required=True)
    try:
        bus = cfg.bus(bus_name)
    except KeyError:
        raise r.fail("bus", f"no bus named {bus_name!r} under [buses]") from None
    width, height = SIZES[size]
    label = r.get("label", str, "")
    if bus.kind == "i2c":
        address = r.get("address", int, required=True)
        if not 0x03 <= address <= 0x77:
            raise r.fail("address", f"{address:#04x} is not a 7-bit I2C address (0x03..0x77)")
        r.done()
        return DisplayConfig(role=role, driver=driver, width=width, height=height, bus=bus_name,
                             address=address, rotation=rotation, label=label)
    device = r.get("device", int, required=True)
    chip_selects = sum(1 for signal, _pin in bus.pins if signal.startswith("CE"))
    if not 0 <= device < chip_selects:
        raise r.fail("device", f"SPI port {bus.port} has chip selects 0..{chip_selects - 1}, not {device}")
    dc_pin = r.pin("dc_pin")
    reset_pin = r.optional_pin("reset_pin")
    r.done()
    return DisplayConfig(role=role, driver=driver, width=width, height=height, bus=bus_name, device=device,
                         dc_pin=dc_pin, reset_pin=reset_pin, rotation=rotation, label=label)


def _button(r: _Reader, name: str) -> ButtonConfig:
    default_role = name if name in BUTTON_ROLES else None
    role = r.choice("role", BUTTON_ROLES, default_role)
    pin = r.pin("pin")
    key = r.get("key", str, "")
    if len(key) > 1 and key not in _NAMED_KEYS:
        raise r.fail("key", f"{key!r} is not a single character or one of {', '.join(_NAMED_KEYS)}")
    button = ButtonConfig(name=name, pin=pin, role=role, pull_up=r.get("pull_up", bool, True), key=key,
                          label=r.get("label", str, ""))
    r.done()
    return button


_NAMED_KEYS: Final = ("space", "enter", "backspace", "tab", "escape", "left", "right", "up", "down")


def _outputs(top: _Reader) -> dict[str, Any]:
    top.seen.add("outputs")
    if "outputs" not in top.table:
        return {"leds": (), "buzzer": None}
    section = top.sub("outputs")
    leds: tuple[OutputConfig, ...] = ()
    if "leds" in section.table:
        leds_table = section.sub("leds")
        leds = tuple(_output(leds_table.sub(key), key) for key in leds_table.table)
        for key in leds_table.table:
            if key not in {f"seat{n}" for n in range(1, MAX_SEATS + 1)}:
                raise leds_table.fail(key, "an LED is named after its seat: seat1..seat4")
        section.seen.add("leds")
    buzzer = _output(section.sub("buzzer"), "buzzer") if "buzzer" in section.table else None
    section.seen.add("buzzer")
    section.done()
    return {"leds": leds, "buzzer": buzzer}


def _output(r: _Reader, name: str) -> OutputConfig:
    pin = r.pin("pin")
    output = OutputConfig(name=name, pin=pin, active_high=r.get("active_high", bool, True))
    r.done()
    return output


def _counter(r: _Reader, _index: int) -> CounterConfig:
    vid_pid = r.get("vid_pid", str, required=True)
    if not _VID_PID.match(vid_pid):
        raise r.fail("vid_pid", f"{vid_pid!r} is not four hex digits, a colon, four hex digits (2E8A:0005)")
    seat = r.get("seat", int, required=True)
    if not 1 <= seat <= MAX_SEATS:
        raise r.fail("seat", f"{seat} is not a seat (1..{MAX_SEATS})")
    counter = CounterConfig(vid=int(vid_pid[:4], 16), pid=int(vid_pid[5:], 16), seat=seat,
                            role=r.choice("role", COUNTER_ROLES), serial=r.get("serial", str, None))
    r.done()
    return counter


def _check_whole(cfg: StationConfig) -> None:
    """Checks across sections: pins claimed twice, bus clashes, missing required buttons."""
    src = cfg.source
    owner: dict[int, str] = {}
    for key, pin in _pin_claims(cfg):
        if pin in owner:
            raise ConfigError(f"{src}: {key}: BCM {pin} is already used by {owner[pin]}")
        owner[pin] = key
    places: dict[tuple[str, int | None], int] = {}
    roles: dict[str, int] = {}
    for i, d in enumerate(cfg.displays):
        where = (d.bus, d.address if d.address is not None else d.device)
        if where in places:
            what = f"address {d.address:#04x}" if d.address is not None else f"chip select {d.device}"
            raise ConfigError(f"{src}: displays[{i}]: {what} on bus {d.bus!r} is already "
                              f"taken by displays[{places[where]}]")
        places[where] = i
        if d.role in roles:
            raise ConfigError(f"{src}: displays[{i}].role: {d.role!r} is already "
                              f"shown by displays[{roles[d.role]}]")
        roles[d.role] = i
    button_roles: dict[str, str] = {}
    keys: dict[str, str] = {}
    for b in cfg.buttons:
        if b.role in button_roles:
            raise ConfigError(f"{src}: buttons.{b.name}.role: {b.role!r} is already "
                              f"the role of buttons.{button_roles[b.role]}")
        button_roles[b.role] = b.name
        if b.key:
            if b.key in keys:
                raise ConfigError(f"{src}: buttons.{b.name}.key: {b.key!r} already "
                                  f"presses buttons.{keys[b.key]}")
            keys[b.key] = b.name
    for role in REQUIRED_BUTTON_ROLES:
        if role not in button_roles:
            raise ConfigError(f"{src}: buttons: no button has role {role!r} "
                              "(every station needs next and back)")
    seen_counters: set[tuple[int, int, str | None]] = set()
    for i, c in enumerate(cfg.counters):
        ident = (c.vid, c.pid, c.serial)
        if ident in seen_counters:
            raise ConfigError(f"{src}: counters[{i}]: {c.vid_pid} serial {c.serial!r} is listed twice")
        seen_counters.add(ident)


# The reference build ships inside the package (in a checkout, a link to hardware/station.toml).
REFERENCE_CONFIG: Final = Path(__file__).parent / "data" / "station.toml"
INSTALLED_CONFIG: Final = Path("/etc/tablekeeper/station.toml")


def default_config_path(installed: Path = INSTALLED_CONFIG) -> Path:
    """The box's own config once installed (``/etc/tablekeeper/station.toml``), else the reference
    build shipped with the package (the repository's ``hardware/station.toml``)."""
    return installed if installed.is_file() else REFERENCE_CONFIG
