"""The station process that ``bench_station_idle.py`` starts and times: the station loop as the Pi runs
it (``tablekeeper run``), on simulated parts. It prints ``first``, ``game`` and ``ready`` lines as its
frames go out, then ``screen`` (what it idles on).

A module of its own, entered as the console script enters ``tablekeeper.cli``: ``python -c`` imports it
from its compiled bytecode. Run as a script, the bench's 400 lines were compiled from source at every
start, about 27 M instructions (6 % of a start) that the Pi's ``tablekeeper`` never spends."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def child(save: str, game: str = "arkham", seats: str = "") -> int:
    """The station loop as on the Pi, minus the GPIO and I2C drivers: ``tablekeeper run``'s splash draws
    "starting..." on an emulated chip before the rest loads; prints 'ready' after the game's first frame."""
    import gc

    gc.disable()  # as ``cli.main`` does for ``run`` until the station settles its heap
    import tablekeeper.cli  # noqa: F401  (as the console script enters, before the splash)
    from tablekeeper.sim.oled import OledChip
    from tablekeeper.station.splash import show

    words = ["run", "--game", game, "--save", save, *(["--seats", seats] if seats else [])]  # as the Pi's unit runs it
    splash = show(words, open_interface=lambda track: OledChip(track.driver, track.width, track.height,
                                                               record=False), on_pi=lambda: True)
    if splash is not None:  # the first frame is out (the remembered screens, or "starting..."): the game loads next
        drawn = sum(chip.byte_count + 2 * chip.transfers for chip in splash.interfaces)
        print(f"first 0 {drawn} {'remembered' if splash.remembered else 'starting'}", flush=True)

    from tablekeeper.cli import build_parser
    from tablekeeper.commands.run import (
        _stop_on_signals,
        build_simulated,
        counters_running,
        keep_as_played,
        remember_screens,
        settle_heap,
    )
    from tablekeeper.config import default_config_path, load_config

    args = build_parser("run").parse_args(["run", "--sim", "--game", game, "--save", save,
                                      "--capture-dir", str(Path(save).parent), *(["--seats", seats] if seats else [])])
    config = load_config(default_config_path())

    made: list[Any] = []  # the simulated parts, as soon as they exist

    def wire() -> int:
        return sum(chip.byte_count + 2 * chip.transfers for chip in made[0].chips.values())

    def first_frame(station: Any) -> None:  # as run_hardware: before the buttons, LEDs and counters load
        before = station.on_redraw

        def drawn(station: Any) -> None:  # the game's own first frame: its odds (a view computed later) ".."
            print(f"game {wire()}", flush=True)
            station.on_redraw = before
            if before is not None:
                before(station)

        station.on_redraw = drawn
        station.start()  # the game's frame, then the frame with its odds once they are computed
        station.on_redraw = before
        print(f"ready {wire()}", flush=True)

    station, parts, store = build_simulated(config, args, display_mode=None, clock=time.monotonic, splash=splash,
                                            on_starting=made.append, on_station=first_frame)
    try:
        _stop_on_signals(station)
        with counters_running(station, config):
            station.start()  # again, with the parts attached: lights the active seat, tells the counters
            keep_as_played(splash, station, args, clock=time.monotonic)
            settle_heap()  # as ``run_station_loop`` does before the loop
            print(idle_screen(station), flush=True)
            station.run()
    finally:
        station.close()
        parts.close()
        if store is not None:
            store.close()
    remember_screens(splash, station, args, clock=time.monotonic)  # as ``run_hardware`` does once closed
    return 0


def idle_screen(station: Any) -> str:
    """What the idle window looks at: the game's step, the seats whose LEDs blink, the displays turning pages."""
    state = station.session.state
    blinking = station.sink.outputs.lights.blinking if station.sink.outputs is not None else frozenset()
    return (f"screen {station.session.game.name} {state.phase}.{state.step}, {state.seats} seats; "
            f"LEDs blinking: {' '.join(map(str, sorted(blinking))) or 'none'}; "
            f"pages turning: {' '.join(sorted(station.ui.paged)) or 'none'}")


def main(argv: list[str]) -> int:
    """``SAVE GAME [SEATS]``, read without argparse (the station loads it itself, and it is counted there)."""
    return child(*argv[:3])
