"""counter.json parsing: defaults, and a message naming the key that is wrong."""

from counter import config as counter_config


def _error(text):
    try:
        counter_config.parse(text)
    except ValueError as exc:
        return str(exc)
    raise AssertionError("accepted: " + text)


def test_defaults_for_hp():
    cfg = counter_config.parse('{"role": "hp"}')
    assert cfg.max_value == 20
    assert cfg.display_kind == "ssd1306" and cfg.display_height == 32
    assert cfg.buttons == {"up": 10, "down": 11, "select": 12}
    assert cfg.encoder is None


def test_encoder_and_tm1637():
    cfg = counter_config.parse('{"role": "hp", "encoder": {"a": 14, "b": 15}, "display": {"kind": "tm1637"}}')
    assert cfg.encoder == (14, 15)
    assert cfg.display_kind == "tm1637"


def test_errors_name_the_key():
    assert _error('{"role": "hpp"}') == "counter.json: role must be one of hp, dial, dice"
    assert _error('{"role": "hp", "max": 0}') == "counter.json: max must be an integer 1..9999"
    assert _error('{"role": "dice", "dice": {"sides": 1}}') == "counter.json: dice.sides must be an integer 2..100"
    expected = "counter.json: buttons.left is not one of up, down, select"
    assert _error('{"role": "hp", "buttons": {"left": 3}}') == expected
    assert _error('{"role": "hp", "display": {"height": 48}}') == "counter.json: display.height must be 32 or 64"
    assert _error("{role: hp}") == "counter.json: not valid JSON"
