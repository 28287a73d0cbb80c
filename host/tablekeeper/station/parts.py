"""The station's hardware made from its config. The adapters in ``hw`` take pins, addresses and
seconds, as gpiozero's devices do; this is where those are read out of a ``StationConfig``.
Each adapter module loads only when its part is made, so the first frame does not wait for gpiozero."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablekeeper.config import CounterConfig, DisplayConfig, StationConfig
    from tablekeeper.hw.buttons import ButtonPanel, Emit
    from tablekeeper.hw.counters import CounterMatch
    from tablekeeper.hw.displays import DisplayBank
    from tablekeeper.hw.outputs import Outputs

Clock = Callable[[], float]
OpenDisplay = Callable[["DisplayConfig"], Any]


def make_displays(config: StationConfig, open_device: OpenDisplay, *, clock: Clock, first: str | None = None,
                  ready: Mapping[str, tuple[Any, list[bytes]]] | None = None) -> DisplayBank:
    """The configured displays, each opened by ``open_device`` (the Pi's buses, or emulated chips)."""
    from tablekeeper.hw.displays import DisplayBank

    def opener(display: DisplayConfig) -> Callable[[], Any]:
        return lambda: open_device(display)

    return DisplayBank({d.role: opener(d) for d in config.displays}, clock=clock,
                       retry_s=config.timing.display_retry_s, retry_max_s=config.timing.display_retry_max_s,
                       first=first, ready=ready)


def hardware_opener(config: StationConfig) -> OpenDisplay:
    """Opens a configured display on the Pi's real bus (luma's i2c/spi interfaces), only when called."""

    def open_device(display: DisplayConfig) -> Any:
        from tablekeeper.errors import ConfigError
        from tablekeeper.hw.displays import open_i2c, open_spi

        bus = config.bus(display.bus)
        if bus.kind == "i2c":
            if display.address is None:  # load_config requires it; a record built by hand may lack it
                raise ConfigError(f"{config.source}: {display.role} display: I2C needs an address")
            return open_i2c(display, port=bus.port, address=display.address)
        if display.device is None or display.dc_pin is None:
            raise ConfigError(f"{config.source}: {display.role} display: SPI needs device and dc_pin")
        return open_spi(display, port=bus.port, device=display.device, dc_pin=display.dc_pin,
                        reset_pin=display.reset_pin, speed_hz=bus.speed_hz)

    return open_device


def make_buttons(config: StationConfig, *, emit: Emit, clock: Clock, pin_factory: Any = None) -> ButtonPanel:
    from tablekeeper.hw.buttons import ButtonPanel, ButtonPin, ButtonTiming

    timing = config.timing
    return ButtonPanel((ButtonPin(b.role, b.pin, b.pull_up) for b in config.buttons), emit=emit, clock=clock,
                       timing=ButtonTiming(timing.debounce_s, timing.hold_s, timing.repeat_interval_s),
                       pin_factory=pin_factory)


def make_outputs(config: StationConfig, *, clock: Clock, pin_factory: Any = None) -> Outputs:
    """The seat LEDs (named ``seatN`` in the config) and the buzzer, silenced when the config is quiet."""
    from tablekeeper.hw.outputs import OutputPin, Outputs

    leds = {int(led.name.removeprefix("seat")): OutputPin(led.pin, led.active_high) for led in config.leds}
    buzzer = None if config.buzzer is None else OutputPin(config.buzzer.pin, config.buzzer.active_high)
    return Outputs(leds, buzzer, clock=clock, quiet=config.quiet, pin_factory=pin_factory)


def counter_matches(counters: Iterable[CounterConfig]) -> tuple[CounterMatch, ...]:
    """The ``[[counters]]`` entries as the counter manager matches boards against them."""
    from tablekeeper.hw.counters import CounterMatch

    return tuple(CounterMatch(c.vid, c.pid, c.seat, c.role, c.serial) for c in counters)
