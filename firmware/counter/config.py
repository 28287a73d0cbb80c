"""The board's ``counter.json``: which role it plays and where its parts are wired.

Parsing is pure (text in, settings out) so a mistake is reported with the key that is wrong
instead of surfacing as a pin error later.
"""

import json

ROLES = ("hp", "dial", "dice")
DISPLAYS = ("ssd1306", "tm1637", "none")

_DEFAULT_BUTTONS = {"up": 10, "down": 11, "select": 12}


class CounterConfig:
    """Plain settings; the parsing code lives in functions so the board can unload it."""

    role = "hp"
    max_value = 20
    dice_count = 2
    dice_sides = 6
    display_kind = "ssd1306"
    display_width = 128
    display_height = 32
    i2c_bus = 0
    sda = 4
    scl = 5
    tm_clk = 2
    tm_dio = 3
    buttons: dict
    encoder: tuple | None = None


def _build(cfg: CounterConfig, data: dict) -> CounterConfig:
    if not isinstance(data, dict):
        raise ValueError("counter.json: top level must be an object")
    role = data.get("role")
    if role not in ROLES:
        raise ValueError("counter.json: role must be one of hp, dial, dice")
    cfg.role = role
    cfg.max_value = _int(data, "max", 20, 1, 9999)
    dice = _section(data, "dice", {})
    cfg.dice_count = _int(dice, "count", 2, 1, 16, "dice.")
    cfg.dice_sides = _int(dice, "sides", 6, 2, 100, "dice.")
    display = _section(data, "display", {"kind": "ssd1306"})
    kind = display.get("kind", "ssd1306")
    if kind not in DISPLAYS:
        raise ValueError("counter.json: display.kind must be one of ssd1306, tm1637, none")
    cfg.display_kind = kind
    cfg.display_width = _int(display, "width", 128, 64, 128, "display.")
    cfg.display_height = _int(display, "height", 32, 32, 64, "display.")
    if cfg.display_height not in (32, 64):
        raise ValueError("counter.json: display.height must be 32 or 64")
    cfg.i2c_bus = _int(display, "i2c", 0, 0, 1, "display.")
    cfg.sda = _int(display, "sda", 4, 0, 29, "display.")
    cfg.scl = _int(display, "scl", 5, 0, 29, "display.")
    cfg.tm_clk = _int(display, "clk", 2, 0, 29, "display.")
    cfg.tm_dio = _int(display, "dio", 3, 0, 29, "display.")
    buttons = _section(data, "buttons", _DEFAULT_BUTTONS)
    cfg.buttons = {}
    for name in buttons:
        if name not in _DEFAULT_BUTTONS:
            raise ValueError("counter.json: buttons." + name + " is not one of up, down, select")
        cfg.buttons[name] = _int(buttons, name, 0, 0, 29, "buttons.")
    encoder = _optional_section(data, "encoder")
    cfg.encoder = None
    if encoder is not None:
        cfg.encoder = (_int(encoder, "a", 0, 0, 29, "encoder."), _int(encoder, "b", 0, 0, 29, "encoder."))
    return cfg


def _section(data: dict, key: str, default: dict) -> dict:
    value = _optional_section(data, key)
    return default if value is None else value


def _optional_section(data: dict, key: str) -> dict | None:
    value = data.get(key)
    if value is not None and not isinstance(value, dict):
        raise ValueError("counter.json: " + key + " must be an object")
    return value


def _int(section: dict, key: str, default: int, low: int, high: int, prefix: str = "") -> int:
    value = section.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or value > high:
        raise ValueError("counter.json: " + prefix + key + " must be an integer " + str(low) + ".." + str(high))
    return value


def parse(text: str) -> CounterConfig:
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("counter.json: not valid JSON") from None
    return _build(CounterConfig(), data)
