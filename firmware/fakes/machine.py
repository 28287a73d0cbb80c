"""A small fake of MicroPython's ``machine`` for tests and the simulator.

Pins hold a level that tests (or the simulator's control channel) set; the I2C bus records
every write; the watchdog counts feeds. Runs under CPython and MicroPython alike.
"""

_unique_id = b"\xe6\x61\x41\x04\x03\x33\x2a\x2b"
resets = []


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.history = []
        if value is not None:
            self.level = value

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        self.history.append(self.level)
        return None

    def set_level(self, level):
        """What a finger or a wire does to the pin from outside."""
        self.level = 1 if level else 0


class I2C:
    def __init__(self, bus_id=0, scl=None, sda=None, freq=400000):
        self.bus_id = bus_id
        self.writes = []

    def writeto(self, address, buf, stop=True):
        self.writes.append((address, bytes(buf)))
        return len(buf)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def unique_id():
    return _unique_id


def set_unique_id(uid):
    global _unique_id
    _unique_id = bytes(uid)


def reset():
    resets.append(1)
    raise SystemExit("machine.reset")
