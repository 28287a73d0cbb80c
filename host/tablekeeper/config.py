"""The station config: a TOML file describing one physical build (displays, buttons, outputs, counters).

It is read as a bounded regular file, decoded by msgspec (an unknown key is named with the nearest
known one), turned into frozen dataclasses and checked as a whole (pins used twice, pins a bus needs,
two displays on one address) so a wiring mistake is reported before any hardware is touched.
Every error is a ``ConfigError`` whose one-line message names the file and the key.
"""


import importlib
import re
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec

from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import ConfigError
from tablekeeper.schema import decode, parse_toml, read_text
from tablekeeper.ui.legibility import DEFAULT_DISTANCE_CM, PanelSizeError, Viewing, active_area_mm, role_kind

DRIVERS: Final = ("ssd1306", "sh1106", "ssd1309")
SIZES: Final = {"128x64": (128, 64), "128x32": (128, 32)}
MAX_SEATS: Final = 4
DISPLAY_ROLES: Final = ("track", "tokens", *(f"seat{n}" for n in range(1, MAX_SEATS + 1)))
PANEL_BUTTON_ROLES: Final = ("next", "back", "select", "up", "down", "menu")
SEAT_BUTTON_ROLES: Final = tuple(seat_track(n, k) for n in range(1, MAX_SEATS + 1) for k in ("a", "b"))
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


class BusConfig(msgspec.Struct, frozen=True):
    """An I2C or SPI bus the displays hang on; ``pins`` maps signal name -> BCM pin."""

    name: str
    kind: str  # "i2c" | "spi"
    port: int
    pins: tuple[tuple[str, int], ...]
    speed_hz: int | None = None


class DisplayConfig(msgspec.Struct, frozen=True):
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
    panel: str = "0.96in"  # a known module name or the active area ("21.7x10.9mm")
    distance_cm: float = DEFAULT_DISTANCE_CM["shared"]  # how far the reader's eyes are

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def viewing(self) -> Viewing:
        """Pixel pitch and reading distance, for sizing text in arcminutes."""
        return Viewing.of(self.size, self.panel, self.distance_cm)


class ButtonConfig(msgspec.Struct, frozen=True):
    """A push button between a BCM pin and ground (pull-up) or 3V3 (pull-down)."""

    name: str
    pin: int
    role: str
    pull_up: bool = True
    key: str = ""  # keyboard key that presses it in the simulator
    label: str = ""


class OutputConfig(msgspec.Struct, frozen=True):
    """An LED or buzzer on a BCM pin; ``active_high`` False means the pin sinks current."""

    name: str
    pin: int
    active_high: bool = True


class CounterConfig(msgspec.Struct, frozen=True):
    """How a USB serial counter is recognised and which seat it serves."""

    vid: int
    pid: int
    seat: int
    role: str
    serial: str | None = None

    @property
    def vid_pid(self) -> str:
        return f"{self.vid:04X}:{self.pid:04X}"


class TimingConfig(msgspec.Struct, frozen=True):
    """Button and display timing in seconds; the defaults suit cheap tactile switches."""

    debounce_s: float = 0.02
    hold_s: float = 0.6
    repeat_interval_s: float = 0.15
    pending_window_s: float = 1.5
    display_retry_s: float = 1.0
    display_retry_max_s: float = 30.0


class WebConfig(msgspec.Struct, frozen=True):
    """The phones' page (``[web]``): the one address and port it listens on, and names besides that
    address (``tablekeeper.local``) that a phone may reach it by."""

    host: str
    port: int
    names: tuple[str, ...] = ()

    @property
    def listen(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_listen(text: str, what: str) -> tuple[str, int]:
    """``ADDR:PORT`` (``[::1]:8765`` for IPv6) -> (address, port), or one ``ConfigError`` naming ``what``.
    An address is required: the page is bound only where it is asked to be (``0.0.0.0`` says every one)."""
    host, sep, port_text = text.strip().rpartition(":")
    host = host.removeprefix("[").removesuffix("]") if host.startswith("[") else host
    if not sep or not host or (":" in host and not text.strip().startswith("[")):
        raise ConfigError(f"{what}: {text!r} is not ADDR:PORT (e.g. 192.168.1.20:8765, or 0.0.0.0:8765 for "
                          "every address)")
    if not port_text.isascii() or not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(f"{what}: {text!r}: the port must be a number 1..65535")
    return host, int(port_text)


class StationConfig(msgspec.Struct, frozen=True):
    """A whole station build, validated."""

    source: str
    buses: tuple[BusConfig, ...] = ()
    displays: tuple[DisplayConfig, ...] = ()
    buttons: tuple[ButtonConfig, ...] = ()
    leds: tuple[OutputConfig, ...] = ()
    buzzer: OutputConfig | None = None
    counters: tuple[CounterConfig, ...] = ()
    timing: TimingConfig = msgspec.field(default_factory=TimingConfig)
    quiet: bool = False
    walk: bool = False  # new games wait for NEXT at every step (teaching); else automatic steps run
    uart: bool = False
    name: str = "station"
    fleet: Any = None  # the optional [fleet] table, as the fleet's own reader returns it
    web: WebConfig | None = None  # the optional [web] table: the station serves the phones' page

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


class _Table(msgspec.Struct, forbid_unknown_fields=True):
    """A TOML table with a fixed set of keys (an unknown key is an error naming the nearest one)."""


class _Station(_Table):
    name: str = "station"
    quiet: bool = False
    walk: bool = False


class _Uart(_Table):
    enabled: bool = False


class _Timing(_Table):
    debounce_s: float = 0.02
    hold_s: float = 0.6
    repeat_interval_s: float = 0.15
    pending_window_s: float = 1.5
    display_retry_s: float = 1.0
    display_retry_max_s: float = 30.0


class _Bus(_Table):
    kind: str
    port: int
    speed_hz: int | None = None
    sda: int | None = None
    scl: int | None = None


class _Display(_Table):
    role: str
    driver: str
    size: str
    bus: str
    address: int | None = None
    device: int | None = None
    dc_pin: int | None = None
    reset_pin: int | None = None
    rotation: int = 0
    label: str = ""
    panel: str | None = None
    distance_cm: float | None = None


class _Button(_Table):
    pin: int
    role: str | None = None
    pull_up: bool = True
    key: str = ""
    label: str = ""


class _Output(_Table):
    pin: int
    active_high: bool = True


class _Outputs(_Table):
    leds: dict[str, Any] = msgspec.field(default_factory=dict)
    buzzer: dict[str, Any] | None = None


class _Web(_Table):
    listen: str
    names: list[str] = msgspec.field(default_factory=list)


class _Counter(_Table):
    vid_pid: str
    seat: int
    role: str
    serial: str | None = None


class _Top(_Table):
    """The file's top level; named sub-tables are decoded one by one so a message names them."""

    station: _Station = msgspec.field(default_factory=_Station)
    uart: _Uart = msgspec.field(default_factory=_Uart)
    timing: _Timing = msgspec.field(default_factory=_Timing)
    buses: dict[str, Any] = msgspec.field(default_factory=dict)
    displays: list[Any] = msgspec.field(default_factory=list)
    buttons: dict[str, Any] = msgspec.field(default_factory=dict)
    outputs: _Outputs = msgspec.field(default_factory=_Outputs)
    counters: list[Any] = msgspec.field(default_factory=list)
    fleet: dict[str, Any] | None = None
    web: Any = None


_WORDS: Final = (("Expected object", "expected a table"), ("Expected array", "expected an array"),
                 ("Expected int", "expected an integer"), ("Expected float", "expected a number"),
                 ("Expected str", "expected a string"), ("Expected bool", "expected true/false"),
                 ("got object", "got a table"), ("got array", "got an array"), ("got int", "got an integer"),
                 ("got float", "got a number"), ("got str", "got a string"), ("got bool", "got true/false"),
                 ("Expected int | null", "expected an integer"), ("Expected str | null", "expected a string"))


def _decode(raw: Any, kind: type[T], source: str, prefix: str = "") -> T:
    """:func:`tablekeeper.schema.decode`, worded for people editing TOML (tables, not objects)."""
    try:
        return decode(raw, kind, source=source, prefix=prefix)
    except ConfigError as exc:
        text = str(exc)
        for schema_word, toml_word in sorted(_WORDS, key=lambda w: -len(w[0])):
            text = text.replace(schema_word, toml_word)
        missing = _MISSING.match(text)
        if missing:
            text = f"{missing['head']}.{missing['key']}: missing (required)"
        raise ConfigError(text) from None


_MISSING: Final = re.compile(r"^(?P<head>.*): missing required key (?P<key>\w+)$")


class _Key:
    """Names one key in messages: ``file: dotted.key: problem``."""

    def __init__(self, source: str, prefix: str) -> None:
        self.source = source
        self.prefix = prefix

    def fail(self, name: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: {self.prefix}.{name}: {problem}" if name
                           else f"{self.source}: {self.prefix}: {problem}")

    def choice(self, name: str, value: str, options: tuple[str, ...]) -> str:
        if value not in options:
            raise self.fail(name, f"{value!r} is not one of {', '.join(options)}")
        return value

    def pin(self, name: str, value: int | None) -> int:
        if value is None:
            raise self.fail(name, "missing (required)")
        if value not in BCM_PINS:
            raise self.fail(name, f"BCM {value} is not a header GPIO (0..27)")
        return value

    def absent(self, name: str, value: object, why: str = "unknown key") -> None:
        if value is not None:
            raise self.fail(name, why)


def load_config(path: str | Path) -> StationConfig:
    """Read and validate a station config file (a bounded regular file: never a FIFO or a device)."""
    text = read_text(path, what="file")
    return parse_config(text, source=str(path))


def parse_config(text: str, *, source: str = "<config>") -> StationConfig:
    """Validate TOML text; ``source`` names the file in error messages."""
    top = _decode(parse_toml(text, source=source), _Top, source)
    timing = _timing(top.timing, source)
    cfg = StationConfig(
        source=source,
        name=top.station.name,
        quiet=top.station.quiet,
        walk=top.station.walk,
        uart=top.uart.enabled,
        timing=timing,
        buses=tuple(_bus(_decode(raw, _Bus, source, f"buses.{name}"), _Key(source, f"buses.{name}"), name)
                    for name, raw in top.buses.items()),
        buttons=tuple(_button(_decode(raw, _Button, source, f"buttons.{name}"), _Key(source, f"buttons.{name}"),
                              name) for name, raw in top.buttons.items()),
        counters=tuple(_counter(_decode(raw, _Counter, source, f"counters[{i}]"), _Key(source, f"counters[{i}]"))
                       for i, raw in enumerate(top.counters)),
        fleet=_fleet(top.fleet, source),
        web=_web(top.web, source),
        **_outputs(top.outputs, source),
    )
    displays = tuple(_display(_decode(raw, _Display, source, f"displays[{i}]"), _Key(source, f"displays[{i}]"), cfg)
                     for i, raw in enumerate(top.displays))
    cfg = msgspec.structs.replace(cfg, displays=displays)
    _check_whole(cfg)
    return cfg


def _fleet(raw: dict[str, Any] | None, source: str) -> Any:
    """The optional ``[fleet]`` table, read by the fleet's own module where it is installed."""
    if raw is None:
        return None
    try:
        fleet_config = importlib.import_module("tablekeeper.fleet.config")
    except ModuleNotFoundError as exc:
        if exc.name not in ("tablekeeper.fleet", "tablekeeper.fleet.config"):
            raise
        return raw
    return fleet_config.parse_fleet(raw, source)


def _web(raw: Any, source: str) -> WebConfig | None:
    if raw is None:
        return None
    web = _decode(raw, _Web, source, "web")
    host, port = parse_listen(web.listen, f"{source}: web.listen")
    for i, name in enumerate(web.names):
        if not name.strip() or any(c in name for c in "/ :@"):
            raise ConfigError(f"{source}: web.names[{i}]: {name!r} is not a host name")
    return WebConfig(host, port, tuple(n.strip().lower() for n in web.names))


def _timing(raw: _Timing, source: str) -> TimingConfig:
    key = _Key(source, "timing")
    for name in TimingConfig.__struct_fields__:
        value = getattr(raw, name)
        if not 0 < value <= 60:
            raise key.fail(name, f"{value} s is out of range (0 < s <= 60)")
    timing = TimingConfig(**{name: float(getattr(raw, name)) for name in TimingConfig.__struct_fields__})
    if timing.debounce_s >= timing.hold_s:
        raise key.fail("debounce_s", f"{timing.debounce_s} s must be shorter than hold_s ({timing.hold_s} s)")
    return timing


def _bus(raw: _Bus, key: _Key, name: str) -> BusConfig:
    kind = key.choice("kind", raw.kind, ("i2c", "spi"))
    port, speed_hz = raw.port, raw.speed_hz
    if speed_hz is not None and not 10_000 <= speed_hz <= 32_000_000:
        raise key.fail("speed_hz", f"{speed_hz} Hz is out of range (10 kHz..32 MHz)")
    pins: dict[str, int]
    if kind == "spi":
        if port not in SPI_PINS:
            raise key.fail("port", f"SPI port {port} does not exist on the header (0 or 1)")
        key.absent("sda", raw.sda)
        key.absent("scl", raw.scl)
        pins = dict(SPI_PINS[port])
    elif port in I2C_FIXED_PINS:
        key.absent("sda", raw.sda, f"I2C bus {port} has fixed pins; remove this key")
        key.absent("scl", raw.scl, f"I2C bus {port} has fixed pins; remove this key")
        pins = dict(I2C_FIXED_PINS[port])
    else:
        if not 2 <= port <= 31:
            raise key.fail("port", f"I2C port {port} is out of range (0..31)")
        pins = {"SDA": key.pin("sda", raw.sda), "SCL": key.pin("scl", raw.scl)}
    return BusConfig(name=name, kind=kind, port=port, pins=tuple(pins.items()), speed_hz=speed_hz)


def _display(raw: _Display, key: _Key, cfg: StationConfig) -> DisplayConfig:
    role = key.choice("role", raw.role, DISPLAY_ROLES)
    driver = key.choice("driver", raw.driver, DRIVERS)
    size = key.choice("size", raw.size, tuple(SIZES))
    if driver == "ssd1309" and size != "128x64":
        raise key.fail("size", "the ssd1309 is only made as 128x64")
    if raw.rotation not in (0, 2):
        raise key.fail("rotation", f"{raw.rotation} is not 0 or 2 (0°/180°; the screens are drawn landscape)")
    try:
        bus = cfg.bus(raw.bus)
    except KeyError:
        raise key.fail("bus", f"no bus named {raw.bus!r} under [buses]") from None
    width, height = SIZES[size]
    panel = raw.panel if raw.panel is not None else _default_panel(driver, size)
    try:
        active_area_mm(panel, (width, height))
    except PanelSizeError as exc:
        raise key.fail("panel", str(exc)) from None
    distance_cm = DEFAULT_DISTANCE_CM[role_kind(role)] if raw.distance_cm is None else float(raw.distance_cm)
    if not 10.0 <= distance_cm <= 500.0:
        raise key.fail("distance_cm", f"{raw.distance_cm:g} is not a reading distance in cm (10..500)")
    common = DisplayConfig(role=role, driver=driver, width=width, height=height, bus=raw.bus,
                           rotation=raw.rotation, label=raw.label, panel=panel, distance_cm=distance_cm)
    if bus.kind == "i2c":
        for name in ("device", "dc_pin", "reset_pin"):
            key.absent(name, getattr(raw, name), "unknown key for a display on an I2C bus")
        if raw.address is None:
            raise key.fail("address", "missing (required)")
        if not 0x03 <= raw.address <= 0x77:
            raise key.fail("address", f"{raw.address:#04x} is not a 7-bit I2C address (0x03..0x77)")
        return msgspec.structs.replace(common, address=raw.address)
    key.absent("address", raw.address)
    if raw.device is None:
        raise key.fail("device", "missing (required)")
    chip_selects = sum(1 for signal, _pin in bus.pins if signal.startswith("CE"))
    if not 0 <= raw.device < chip_selects:
        raise key.fail("device", f"SPI port {bus.port} has chip selects 0..{chip_selects - 1}, not {raw.device}")
    dc_pin = key.pin("dc_pin", raw.dc_pin)
    reset_pin = None if raw.reset_pin is None else key.pin("reset_pin", raw.reset_pin)
    return msgspec.structs.replace(common, device=raw.device, dc_pin=dc_pin, reset_pin=reset_pin)


def _default_panel(driver: str, size: str) -> str:
    """The module a driver and size usually come as, for configs that name no ``panel``."""
    if size == "128x32":
        return "0.91in"
    return {"sh1106": "1.3in", "ssd1309": "2.42in"}.get(driver, "0.96in")


def _button(raw: _Button, key: _Key, name: str) -> ButtonConfig:
    role = raw.role if raw.role is not None else (name if name in BUTTON_ROLES else None)
    if role is None:
        raise key.fail("role", "missing (required)")
    key.choice("role", role, BUTTON_ROLES)
    pin = key.pin("pin", raw.pin)
    if len(raw.key) > 1 and raw.key not in _NAMED_KEYS:
        raise key.fail("key", f"{raw.key!r} is not a single character or one of {', '.join(_NAMED_KEYS)}")
    return ButtonConfig(name=name, pin=pin, role=role, pull_up=raw.pull_up, key=raw.key, label=raw.label)


_NAMED_KEYS: Final = ("space", "enter", "backspace", "tab", "escape", "left", "right", "up", "down")


def _outputs(raw: _Outputs, source: str) -> dict[str, Any]:
    seats = {f"seat{n}" for n in range(1, MAX_SEATS + 1)}
    leds = []
    for name, table in raw.leds.items():
        if name not in seats:
            raise ConfigError(f"{source}: outputs.leds.{name}: an LED is named after its seat: seat1..seat4")
        leds.append(_output(_decode(table, _Output, source, f"outputs.leds.{name}"),
                            _Key(source, f"outputs.leds.{name}"), name))
    buzzer = None
    if raw.buzzer is not None:
        buzzer = _output(_decode(raw.buzzer, _Output, source, "outputs.buzzer"), _Key(source, "outputs.buzzer"),
                         "buzzer")
    return {"leds": tuple(leds), "buzzer": buzzer}


def _output(raw: _Output, key: _Key, name: str) -> OutputConfig:
    return OutputConfig(name=name, pin=key.pin("pin", raw.pin), active_high=raw.active_high)


def _counter(raw: _Counter, key: _Key) -> CounterConfig:
    if not _VID_PID.match(raw.vid_pid):
        raise key.fail("vid_pid", f"{raw.vid_pid!r} is not four hex digits, a colon, four hex digits (2E8A:0005)")
    if not 1 <= raw.seat <= MAX_SEATS:
        raise key.fail("seat", f"{raw.seat} is not a seat (1..{MAX_SEATS})")
    return CounterConfig(vid=int(raw.vid_pid[:4], 16), pid=int(raw.vid_pid[5:], 16), seat=raw.seat,
                         role=key.choice("role", raw.role, COUNTER_ROLES), serial=raw.serial)


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
    seat_roles: dict[tuple[int, str], int] = {}
    for i, c in enumerate(cfg.counters):
        ident = (c.vid, c.pid, c.serial)
        if ident in seen_counters:
            raise ConfigError(f"{src}: counters[{i}]: {c.vid_pid} serial {c.serial!r} is listed twice")
        seen_counters.add(ident)
        if (c.seat, c.role) in seat_roles:
            raise ConfigError(f"{src}: counters[{i}].role: seat {c.seat} already has a {c.role!r} counter "
                              f"(counters[{seat_roles[c.seat, c.role]}])")
        seat_roles[c.seat, c.role] = i


# The reference build ships inside the package (in a checkout, a link to hardware/station.toml).
REFERENCE_CONFIG: Final = Path(__file__).parent / "data" / "station.toml"
INSTALLED_CONFIG: Final = Path("/etc/tablekeeper/station.toml")


def default_config_path(installed: Path = INSTALLED_CONFIG) -> Path:
    """The box's own config once installed (``/etc/tablekeeper/station.toml``), else the reference
    build shipped with the package (the repository's ``hardware/station.toml``)."""
    return installed if installed.is_file() else REFERENCE_CONFIG
