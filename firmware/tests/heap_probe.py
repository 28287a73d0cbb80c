"""Heap held by a started counter (its modules, role, link, buffers and display), measured as
``gc.mem_alloc()`` growth the way main.py builds it; ``machine`` is in ROM on a board, so the
fake one is loaded before the baseline. asyncio is left out: the WebAssembly port's asyncio is a
different, browser-loop implementation from the one frozen into the RP2040 firmware."""

import gc

import machine


class _NullTransport:
    def read_into(self, buf) -> int:
        return 0

    def write(self, frame) -> None:
        pass


_state: dict = {}


def start(role: str) -> None:
    """Build and start a counter the way main.py does; ``finish`` measures after this returns
    (the collector cannot free the one-off loaders while this call's frames still point at them)."""
    gc.collect()
    _state["before"] = gc.mem_alloc()
    _state["role"] = role
    from counter import board

    cfg = board.load_config('{"role": "' + role + '", "display": {"kind": "ssd1306", "height": 64}}')
    app = board.build_app(
        cfg, machine, transport=_NullTransport(), entropy=lambda count: bytes(count), now_ms=0, delay_us=None
    )
    board.unload("board")
    app.display.init_display()
    app.step(0)
    # The fake bus keeps a copy of every write for tests; a real bus keeps nothing.
    app.display._i2c.writes.clear()
    _state["app"] = app


def finish() -> int:
    gc.collect()
    used = gc.mem_alloc() - _state["before"]
    print("heap after start-up (" + _state["role"] + "): " + str(used) + " bytes")
    return used


def measure(role: str) -> int:
    """Both steps in one call (for CPython, where there is no such pinning)."""
    start(role)
    return finish()
