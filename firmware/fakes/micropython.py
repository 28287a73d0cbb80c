"""CPython stand-in for MicroPython's ``micropython`` module (firmware tests and simulator)."""

_kbd_intr_char = 3


def const(value):
    return value


def kbd_intr(char):
    """Record the interrupt character so tests can check the app disabled Ctrl-C."""
    global _kbd_intr_char
    _kbd_intr_char = char


def kbd_intr_char():
    return _kbd_intr_char
