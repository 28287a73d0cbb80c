"""Builds a counter app from ``counter.json`` and a ``machine`` module.

The board's main.py passes the real ``machine``; the simulator and the heap benchmark pass
the fake one, so all three go through the same construction.
"""

import sys

from counter.app import CounterApp, button_event
from counter.inputs import Button, Encoder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from counter.config import CounterConfig
    from counter.interfaces import DelayUs, Display, Entropy, Transport


def unload(name: str) -> None:
    """Forget a module that has done its one-off job so the collector can free its code."""
    sys.modules.pop("counter." + name, None)
    package = sys.modules.get("counter")
    if package is not None and hasattr(package, name):
        delattr(package, name)


def load_config(text: str) -> "CounterConfig":
    """Parse the config, then drop the parser: it is never needed again and RAM is scarce."""
    from counter import config as counter_config

    cfg = counter_config.parse(text)
    unload("config")
    return cfg


def _no_delay(us: int) -> None:
    """For a display driven by a fake pin: there is no chip timing to respect."""


def build_display(cfg: "CounterConfig", machine: "Any", delay_us: "DelayUs | None") -> "Display":
    """Import only the driver this board has."""
    if cfg.display_kind == "ssd1306":
        from counter.ssd1306 import Ssd1306

        i2c = machine.I2C(cfg.i2c_bus, sda=machine.Pin(cfg.sda), scl=machine.Pin(cfg.scl), freq=400_000)
        return Ssd1306(i2c, cfg.display_width, cfg.display_height)
    if cfg.display_kind == "tm1637":
        from counter.tm1637 import Tm1637

        return Tm1637(machine.Pin(cfg.tm_clk), machine.Pin(cfg.tm_dio), delay_us or _no_delay)
    from counter.text_display import TextDisplay

    return TextDisplay()


def build_app(cfg: "CounterConfig", machine: "Any", *, transport: "Transport", entropy: "Entropy", now_ms: int,
              delay_us: "DelayUs | None", display: "Display | None" = None) -> CounterApp:
    """Pins, inputs and display as ``cfg`` describes them, around a new ``CounterApp``."""
    pull_up = machine.Pin.PULL_UP
    buttons = []
    for name in cfg.buttons:
        pin = machine.Pin(cfg.buttons[name], machine.Pin.IN, pull_up)
        buttons.append(Button(pin, button_event(name), now_ms))
    encoder = None
    if cfg.encoder is not None:
        encoder = Encoder(
            machine.Pin(cfg.encoder[0], machine.Pin.IN, pull_up),
            machine.Pin(cfg.encoder[1], machine.Pin.IN, pull_up),
        )
    if display is None:
        display = build_display(cfg, machine, delay_us)
    return CounterApp(
        cfg,
        transport=transport,
        display=display,
        buttons=buttons,
        encoder=encoder,
        uid=machine.unique_id(),
        entropy=entropy,
        now_ms=now_ms,
    )
