"""``tablekeeper run``: the station on real hardware, or simulated on any computer.

With no Raspberry Pi GPIO present it falls back to the simulator with a one-line notice.
SIGTERM and SIGINT stop it cleanly (buttons, LEDs and displays released, exit code 0).
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from tablekeeper.core.numbers import option_number
from tablekeeper.errors import ConfigError, HardwareError, PackChangedError, ScriptError
from tablekeeper.schema import read_text
from tablekeeper.sim.modes import DISPLAY_MODES
from tablekeeper.station.splash import gpio_present, starting_frame
from tablekeeper.user_paths import output_dir

if TYPE_CHECKING:  # the station's modules load when it runs, so `tablekeeper --help` stays quick
    from tablekeeper.appliance.watchdog import Watchdog
    from tablekeeper.config import StationConfig, WebConfig
    from tablekeeper.core.session import Session
    from tablekeeper.sim.counter_table import CounterTable
    from tablekeeper.sim.simulator import SimulatedParts
    from tablekeeper.sim.textview import TextView
    from tablekeeper.station.loop import Station
    from tablekeeper.station.splash import Splash
    from tablekeeper.supervisor import Supervisor

DEFAULT_GAME = "arkham"
DEFAULT_CAPTURE_DIR = Path("captures")
FLEET_WAIT_S = 5.0  # a scripted run with [fleet] waits this long for the broker before it starts
SIM_WAIT_S = 0.02  # the simulator's window needs its events read often


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "run", help="run the station (buttons, displays, counters), or simulate it",
        description="Run the station. Without Raspberry Pi GPIO (or with --sim) the same station runs "
                    "on simulated parts: a window (pygame), the terminal (text, or luma's asciiblock) or image files "
                    "(capture, gifanim). Keyboard keys press the buttons; see the config's 'key' entries.")
    p.add_argument("--sim", action="store_true", help="simulate the hardware even on a Raspberry Pi")
    p.add_argument("--config", metavar="FILE",
                   help="station config (default: /etc/tablekeeper/station.toml once installed, else the "
                        "reference build, hardware/station.toml)")
    p.add_argument("--game", help=f"game to play (default: the saved one, else {DEFAULT_GAME})")
    p.add_argument("--seats", type=option_number, default=None, help="number of seats (players)")
    p.add_argument("--seed", type=option_number, default=1, help="seed for the station's draws (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, as for 'tablekeeper play' (repeatable)")
    p.add_argument("--pack", action="append", default=[], metavar="NAME|PATH",
                   help="a pack of content, as for 'tablekeeper play' (repeatable)")
    p.add_argument("--save", metavar="PATH",
                   help="keep the session in this SQLite file; resume if it holds one (on hardware the "
                        "default is the data directory's tablekeeper.sqlite3; the simulator saves only when asked)")
    p.add_argument("--slot", default="main", help="save slot name (default main)")
    p.add_argument("--display", choices=DISPLAY_MODES,
                   help="simulator output: readable text in the terminal, else luma.emulator's by name (default: "
                        "pygame with a screen, text in a terminal, else capture)")
    p.add_argument("--script", metavar="FILE",
                   help="simulate unattended: keys, 'press ROLE', 'hold ROLE [S]', 'wait S', "
                        "'counter SEAT up|down|select|roll|unplug|plug', 'type LINE' per line (fake clock), then exit")
    p.add_argument("--screens-dir", metavar="DIR", type=Path, default=None,
                   help="with --script: also keep the first screen of each kind each display showed, as PNGs "
                        "with an index (screens.jsonl), as docs/screens.md shows them")
    p.add_argument("--capture-dir", metavar="DIR", type=Path, default=DEFAULT_CAPTURE_DIR,
                   help=f"where capture/gifanim write their files (default {DEFAULT_CAPTURE_DIR}/)")
    p.add_argument("--no-counters", action="store_true",
                   help="simulate without the virtual counters (by default each [[counters]] entry runs the "
                        "counter firmware in a process of its own, beside the panel)")
    p.add_argument("--walk", action="store_true",
                   help="a new game waits for NEXT at every step (as the [station] walk setting)")
    p.add_argument("--demo", action="store_true", help="convention demo mode (attract loop, guided demos)")
    p.add_argument("--web", metavar="ADDR:PORT",
                   help="serve the phones' pages (the table's console, a panel per seat) on this address only "
                        "(0.0.0.0:8765 for every address; default: the config's [web] listen, else off)")
    p.set_defaults(func=run_command)


def make_station(args: argparse.Namespace, *, session: Session, store: Any, **parts: Any) -> Station:
    """A ``Station``, or with ``--demo`` a ``DemoStation`` whose visitors each get a fresh, unsaved game."""
    from tablekeeper import games
    from tablekeeper.core.session import Session
    from tablekeeper.station.loop import Station

    if not getattr(args, "demo", False):
        station = Station(session=session, **parts)
        station.ui = replace(station.ui, not_saving=bool(getattr(args, "not_saving", False)))
        set_aside = getattr(args, "set_aside", None)
        if set_aside is not None:
            # on the track display (as a failed save is) until the new game's first command is saved
            station.ui = replace(station.ui, save_problem=f"old game kept as {set_aside[1]}")
        return station
    from tablekeeper.demo.mode import DemoMode, MemoryCounts, load_scripts
    from tablekeeper.demo.station import DemoStation

    seeds = iter(range(args.seed + 1, 1 << 62))
    scripts = load_scripts()
    options = {script.game: dict(script.options) for script in scripts}

    def new_session(game_name: str) -> Session:
        game = games.load(game_name)
        return Session(game, seats=game.seats_default, seed=next(seeds), options=options.get(game_name, {}))

    demo = DemoMode(scripts, counters=store if store is not None else MemoryCounts(), now_s=parts["clock"]())
    return DemoStation(demo=demo, new_session=new_session, session=session, **parts)


def open_session(args: argparse.Namespace) -> tuple[Session, Any]:
    """The game session (resumed from ``--save`` when it holds one) and its store, if any."""
    from tablekeeper import games
    from tablekeeper.commands.sessions import open_session as open_game_session
    from tablekeeper.core.store import SaveReadOnlyError

    game_name = args.game or _saved_game(args) or DEFAULT_GAME
    game = games.load(game_name)
    play_args = argparse.Namespace(option=getattr(args, "option", []), pack=getattr(args, "pack", []),
                                   seats=args.seats, seed=args.seed,
                                   save=args.save, slot=args.slot,
                                   campaign=None, walk=getattr(args, "walk", False))
    try:
        session, store = open_game_session(game, play_args)
    except PackChangedError as exc:
        seats = set_aside_changed(args, exc)
        play_args.seats = args.seats if args.seats is not None else seats
        session, store = open_game_session(game, play_args)
    except SaveReadOnlyError as exc:
        from tablekeeper.commands.sessions import resume_unsaved

        session = resume_unsaved(game, play_args)
        print(f"tablekeeper: {exc}; playing on without saving (the track display says 'not saving')",
              file=sys.stderr)
        args.not_saving = True
        return session, None
    return session, store


def start_session(args: argparse.Namespace) -> tuple[Session, Any, Callable[[], Any] | None]:
    """``open_session``, but a new game whose ``--save`` file does not exist yet starts unsaved: the
    third value then makes the save and attaches the session to it (the caller does so once the
    game's first frame is out; SQLite and the save's files wait until then). The demo keeps its
    counts in the save, so it opens it first."""
    if not args.save or Path(args.save).exists() or getattr(args, "demo", False):
        return (*open_session(args), None)
    from tablekeeper import games
    from tablekeeper.commands.sessions import check_slot, new_session
    from tablekeeper.core.session import MAX_SEED

    check_slot(args.slot)
    if not -MAX_SEED - 1 <= args.seed <= MAX_SEED:
        raise ScriptError(f"--seed {args.seed}: too large to keep in a save (at most {MAX_SEED})")
    session = new_session(games.load(args.game or DEFAULT_GAME), argparse.Namespace(
        option=getattr(args, "option", []), pack=getattr(args, "pack", []), seats=args.seats, seed=args.seed,
        walk=getattr(args, "walk", False)))

    def create() -> Any:
        from tablekeeper.core.store import Store

        store = Store.open(args.save)
        try:
            store.create(args.slot, session.setup)
            session.journal = store.journal(args.slot)
        except BaseException:
            store.close()
            raise
        return store

    return session, None, create


def set_aside_changed(args: argparse.Namespace, exc: PackChangedError) -> int | None:
    """A box whose software or packs changed under a running game cannot replay that save; rather than
    stop the table (a service would refuse to restart it), the old game moves to a slot of its own,
    kept for a ``play`` with the old content, and a new game of the same kind begins in its place."""
    from tablekeeper.core.store import Store

    with Store.open(args.save) as store:
        saved = store.load(args.slot)
        kept = store.set_aside(args.slot)
    print(f"tablekeeper: {exc}", file=sys.stderr)
    print(f"tablekeeper: {args.save}: that game is kept in slot {kept!r}; a new game begins in slot "
          f"{args.slot!r}", file=sys.stderr)
    args.set_aside = (exc.pack, kept)
    return None if saved is None else saved.setup.seats


def _saved_game(args: argparse.Namespace) -> str | None:
    """The game a save's slot holds, read without writing (a read-only save still names its game)."""
    if not args.save or not Path(args.save).exists():
        return None
    from tablekeeper.core.store import inspect

    slot = inspect(args.save).slot(args.slot)
    return None if slot is None or slot.setup is None else slot.setup.game


def run_command(args: argparse.Namespace) -> int:
    from tablekeeper.config import default_config_path, load_config

    if getattr(args, "screens_dir", None) is not None and args.script is None:
        raise ScriptError("--screens-dir: the screens are kept from a --script run only")
    config = load_config(args.config or default_config_path())
    args.walk = getattr(args, "walk", False) or config.walk  # a new game steps by hand (teaching)
    args.web_listen = web_config(config, getattr(args, "web", None))  # a mistyped --web: one line, before any part
    simulate = args.sim or args.script is not None or args.display is not None
    if not simulate and not gpio_present():
        print("tablekeeper: no Raspberry Pi GPIO here; running the simulator", file=sys.stderr)
        simulate = True
    if args.script is not None:
        return run_scripted(config, args)
    if simulate:
        return run_simulated(config, args)
    return run_hardware(config, args)


def _stop_on_signals(station: Station) -> None:
    from tablekeeper.intents import Quit

    def stop(signum: int, _frame: object) -> None:
        station.put(Quit(signal.Signals(signum).name))

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, stop)  # the terminal went away (an SSH link dropped): close the counters too


def run_hardware(config: StationConfig, args: argparse.Namespace) -> int:
    from tablekeeper.appliance.paths import store_path
    from tablekeeper.station.parts import hardware_opener, make_buttons, make_displays, make_outputs

    if args.save is None:  # the box keeps its game across power cuts without being asked
        path = store_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HardwareError(f"{path.parent}: cannot create the data directory: {exc.strerror}") from None
        args.save = str(path)
    clock = time.monotonic
    splash: Splash | None = getattr(args, "splash", None)  # the splash's frames are on the displays already
    ready = splash.hand_over(config) if splash is not None else {}
    displays = make_displays(config, hardware_opener(config), clock=clock, first="track", ready=ready)
    station: Station | None = None
    store: Any = None
    try:
        if "track" not in ready:
            show_starting(displays, config)  # before the other displays, the game's modules and the save load
        displays.open_rest()
        from tablekeeper.appliance.watchdog import Watchdog  # the rest loads after the first frame
        from tablekeeper.supervisor import Supervisor

        session, store, create_save = start_session(args)
        station = make_station(args, session=session, store=store, config=config, displays=displays, clock=clock)
        station.start()  # the game's first frame, before the save is made, gpiozero, the counters and the fleet
        if create_save is not None:
            store = create_save()
        station.buttons = _open_or_explain(lambda: make_buttons(config, emit=station.put, clock=clock))
        station.sink.outputs = _open_or_explain(lambda: make_outputs(config, clock=clock))
        _stop_on_signals(station)
        watchdog = Watchdog()
        supervisor = Supervisor(clock=clock)
        with counters_running(station, config, supervisor=supervisor), \
                fleet_running(station, config, supervisor=supervisor), web_running(station, config, args):
            station.start()  # again, with the parts attached: lights the active seat, tells the counters
            keep_as_played(splash, station, args, clock=clock)
            watchdog.ready()
            run_station_loop(station, supervisor, watchdog, clock=clock, sleep=time.sleep)
            watchdog.stopping()
    finally:
        if station is not None:
            station.close()
        else:
            displays.close()
        if store is not None:
            store.close()
    if station is not None:
        remember_screens(splash, station, args, clock=clock)
    return 0


def remembers(splash: Splash | None, args: argparse.Namespace) -> bool:
    """Whether this run keeps the screens a restart shows first: a splash with a key (the Pi's own run
    on a save), and not the demo, whose screens follow the clock."""
    return splash is not None and splash.key is not None and not getattr(args, "demo", False)


def remember_screens(splash: Splash | None, station: Station, args: argparse.Namespace, *,
                     clock: Callable[[], float]) -> None:
    """Keep what a start on this save will show first, for the next start's splash (``station.remembered``),
    as the save's files stand now (their stamp is part of the key): once closed, or while it runs. Not for
    the demo, whose screens follow the clock, nor for a game the save does not hold (not saving, or a
    write that failed): any old memory is dropped."""
    if splash is None or splash.key is None or not remembers(splash, args):
        return
    from tablekeeper.station.remembered import remember
    from tablekeeper.user_paths import cache_dir

    saved = not getattr(args, "not_saving", False) and station.stats.save_failures == 0
    remember(splash.key, str(cache_dir()), first_screens(station, args, clock=clock) if saved else [])


def keep_as_played(splash: Splash | None, station: Station, args: argparse.Namespace, *,
                   clock: Callable[[], float]) -> None:
    """``remember_screens`` also while the game goes, whenever the table has been quiet a moment
    (``remembered.KeepWhenQuiet``: no press, no change to the game, none waiting): a power cut is how
    most boxes are switched off."""
    if not remembers(splash, args):
        return
    from tablekeeper.station.remembered import KeepWhenQuiet

    def mark() -> tuple[int, int, int]:  # a press handled, an entry journalled, or another game
        return station.stats.intents, station.session.log_length, id(station.session.state)

    station.timed.append(KeepWhenQuiet(mark, lambda: remember_screens(splash, station, args, clock=clock),
                                       now_s=clock(), busy=lambda: not station.intents.empty()))


def first_screens(station: Station, args: argparse.Namespace, *, clock: Callable[[], float]) -> list[Any]:
    """The first frame a fresh station on ``station``'s game and config draws (its odds still to come,
    as ``Station.answer`` draws it), as each I2C display's chip would hold it."""
    from tablekeeper.hw.displays import native_pages
    from tablekeeper.hw.taken_over import TakenOver
    from tablekeeper.sim.oled import RecordingSerial
    from tablekeeper.station.remembered import Shown, Track

    class Drawn:  # the displays as the station sees them: only what it draws is kept
        def __init__(self) -> None:
            self.images: dict[str, Any] = {}

        def show(self, images: dict[str, Any]) -> int:
            self.images.update(images)
            return 0

        def failed(self) -> list[Any]:
            return []

    drawn = Drawn()
    restarted = argparse.Namespace(**{**vars(args), "set_aside": None})  # a restart sets nothing aside again
    fresh = make_station(restarted, session=station.session, store=None, config=station.config, displays=drawn,
                         clock=clock)
    with fresh.views.deferred():
        fresh.redraw()
    shown = []
    for role, track in Track.wired(station.config).items():
        image = drawn.images.get(role)
        if image is not None:
            pages = native_pages(TakenOver(track, RecordingSerial(record=False)), image)
            shown.append(Shown(role, track, tuple(pages)))
    return shown


def run_station_loop(station: Station, supervisor: Supervisor, watchdog: Watchdog | None, *,
                     clock: Callable[[], float], sleep: Callable[[float], None],
                     on_pass: Callable[[float], object] | None = None, idle_wait_s: float | None = None) -> int:
    """The station loop on this thread, restarted with back-off if it fails. A thread that dies wakes
    the loop, which restarts it when its back-off has passed; the watchdog is fed at half its period,
    and only while every thread is healthy (``supervisor.Health``, a timed part of the loop: no pass
    without an intent or a deadline). Returns the restarts."""
    from tablekeeper.intents import Tick
    from tablekeeper.station.upkeep import OnceWhenIdle
    from tablekeeper.supervisor import Health, run_restarting

    settle_heap()
    station.timed.append(Health(supervisor, watchdog))
    if station.session.snapshot_due:  # resumed past stale snapshots (an update): a fresh one, after the first frame
        station.timed.append(OnceWhenIdle(station.session.keep_snapshot, now_s=clock(),
                                          busy=lambda: not station.intents.empty()))
    supervisor.on_change = lambda: station.put(Tick())
    return run_restarting("station", lambda: station.run(on_pass=on_pass, idle_wait_s=idle_wait_s), clock=clock,
                          sleep=sleep, should_restart=lambda: station.running)


def settle_heap() -> None:
    """Collect once, then keep what start-up built (modules, fonts, game data) out of later collections
    (``gc.freeze``): a full collection over it takes about 8 ms here, a tenth of a second on a Pi Zero,
    inside whichever press it lands on. The collector is on from here (``cli.main`` turns it off while
    a ``run`` starts)."""
    gc.collect()
    gc.freeze()
    gc.enable()


@contextmanager
def counters_running(station: Station, config: StationConfig, table: CounterTable | None = None, *,
                     wait_for_table: bool = False, supervisor: Supervisor | None = None) -> Iterator[None]:
    """The USB counters (and the simulator's virtual ones, ``table``), polled on a supervised thread
    (``supervisor``, else one of its own); their intents go on the station's queue. The virtual
    counters are powered up on that thread, so the first frame does not wait for them, unless
    ``wait_for_table`` (a script starts once all are seated)."""
    from tablekeeper.hw.counters import CounterManager, list_usb_ports, usb_discovery
    from tablekeeper.intents import CounterConnected
    from tablekeeper.sim.counter_table import roll_intent
    from tablekeeper.station.parts import counter_matches
    from tablekeeper.supervisor import Liveness, Supervisor, Worker

    if table is None:
        manager = CounterManager(emit=station.put, counters=counter_matches(config.counters),
                                 on_roll=lambda roll: station.put(roll_intent(roll)), discovery=usb_discovery())
    else:
        manager = table.manager_for(station.put, extra_ports=None if wait_for_table else list_usb_ports)
    station.sink.counters = manager
    watcher = Supervisor(clock=manager.clock) if supervisor is None else supervisor
    plugged = threading.Event()

    def watch(liveness: Liveness) -> None:
        if table is not None and not wait_for_table and not plugged.is_set():
            plugged.set()
            try:
                table.plug_all(liveness.stop)
            except HardwareError as exc:
                if not liveness.stop.is_set():  # stopping (Ctrl-C) closes a board still starting: no news
                    print(f"tablekeeper: {exc}", file=sys.stderr)
        manager.run(liveness.stop, beat=liveness.beat)

    if table is not None and wait_for_table:
        table.plug_all()
    watcher.add(Worker("counters", watch, wake=manager.wake))
    try:
        if table is not None and wait_for_table:
            seated = sum(1 for entry in table.entries if entry.seat)
            table.wait_until(lambda: sum(isinstance(i, CounterConnected) for i in table.emitted) >= seated,
                             "every virtual counter to take its seat")
        yield
    finally:
        watcher.stop()
        manager.close()
        station.sink.counters = None


@contextmanager
def fleet_running(station: Station, config: StationConfig, *, wait_s: float = 0.0,
                  supervisor: Supervisor | None = None) -> Iterator[None]:
    """With a ``[fleet]`` table, report to the convention's broker on the link's own threads; a broker
    that is down never holds up the table (``wait_s``: how long a scripted run waits to connect)."""
    if config.fleet is None:
        yield
        return
    from tablekeeper.fleet.reporter import FleetReporter

    reporter = FleetReporter(station, config.fleet)
    reporter.start(supervisor)
    if wait_s > 0:
        reporter.link.wait_connected(wait_s)
    try:
        yield
    finally:
        reporter.close()


@contextmanager
def web_running(station: Station, config: StationConfig, args: argparse.Namespace) -> Iterator[None]:
    """With ``--web`` or a ``[web]`` table, the phones' pages on a thread of their own (started before
    the station's first screens, so the track display shows their join card); off otherwise."""
    web = args.web_listen if hasattr(args, "web_listen") else web_config(config, getattr(args, "web", None))
    if web is None:
        yield
        return
    from tablekeeper.web.phones import PhonePages, announce

    pages = PhonePages(station, web)
    announce(pages.start())
    try:
        yield
    finally:
        pages.stop()


def web_config(config: StationConfig, given: str | None) -> WebConfig | None:
    """``--web ADDR:PORT`` (keeping the config's names), else the config's ``[web]``, else None."""
    from tablekeeper.config import WebConfig, parse_listen

    if given is None:
        return config.web
    host, port = parse_listen(given, "--web")
    return WebConfig(host, port, config.web.names if config.web is not None else ())


def _open_or_explain(open_part: Callable[[], Any]) -> Any:
    from gpiozero.exc import GPIOZeroError

    try:
        return open_part()
    except GPIOZeroError as exc:
        raise HardwareError(f"GPIO: {exc}") from None


def show_starting(displays: Any, config: StationConfig) -> None:
    """A first frame before the game and its save load: the track display says the station is starting
    (the frame the Pi's splash draws before any of this loads)."""
    track = config.display("track")
    if track is not None:
        displays.show({"track": starting_frame(track.size)})


def build_simulated(config: StationConfig, args: argparse.Namespace, *, display_mode: str | None,
                    clock: Callable[[], float],
                    on_starting: Callable[[SimulatedParts], object] | None = None,
                    splash: Splash | None = None,
                    on_station: Callable[[Station], object] | None = None) -> tuple[Station, SimulatedParts, Any]:
    """The station on simulated parts; ``splash``: the track display already opened on an emulated
    chip and showing "starting..." (as ``tablekeeper run`` does on the Pi), handed to the displays.
    ``on_station`` sees the station before its buttons and LEDs are made (``run_hardware``'s order:
    the game's first frame goes out before gpiozero loads)."""
    from tablekeeper.sim.counter_table import CounterTable
    from tablekeeper.sim.simulator import SimulatedParts
    from tablekeeper.station.parts import make_buttons, make_displays, make_outputs

    table = None
    if config.counters and not getattr(args, "no_counters", False):
        table = CounterTable(config.counters, taken_keys=[b.key for b in config.buttons if b.key])
    parts = SimulatedParts(config, display_mode=display_mode, capture_dir=args.capture_dir, counters=table)
    ready = splash.hand_over(config) if splash is not None else {}
    if splash is not None:
        for role in ready:
            parts.chips[role] = splash.drawn[role].interface
    displays = make_displays(config, parts.open_device, clock=clock, first="track", ready=ready)
    try:
        if "track" not in ready:
            show_starting(displays, config)  # before the other displays, the game's modules and the save load
        if on_starting is not None:
            on_starting(parts)
        displays.open_rest()
        session, store, create_save = start_session(args)
    except BaseException:
        displays.close()
        parts.close()
        raise
    station = make_station(args, session=session, store=store, config=config, displays=displays, clock=clock)
    if on_station is not None:
        on_station(station)
    if create_save is not None:  # a new game's save is made after its first frame (``run_hardware``'s order)
        try:
            store = create_save()
        except BaseException:
            station.close()
            parts.close()
            raise
    # gpiozero loads here, after the first frame
    station.buttons = make_buttons(config, emit=station.put, clock=clock, pin_factory=parts.pin_factory)
    station.sink.outputs = make_outputs(config, clock=clock, pin_factory=parts.pin_factory)
    return station, parts, store


def refresher(station: Station, parts: SimulatedParts, text_view: TextView | None = None) -> Callable[[], None]:
    from tablekeeper.ui.state import tick_at

    def refresh() -> None:
        buttons = station.buttons.buttons if station.buttons is not None else {}
        pressed = frozenset(role for role, b in buttons.items() if b.is_down)
        lit = station.sink.outputs.lights.lit if station.sink.outputs is not None else None
        failed = frozenset(d.role for d in station.displays.failed())
        if text_view is not None:
            counters = parts.counters.views() if parts.counters is not None else ()
            text_view.show(station.screens, lit_seat=lit, failed=failed, counters=counters,
                           tick=tick_at(station.clock()))  # paced as the OLEDs
            return
        parts.refresh(pressed=pressed, lit_seat=lit, failed=failed)

    return refresh


def run_scripted(config: StationConfig, args: argparse.Namespace, *,
                 at_end: Callable[[Station, SimulatedParts], object] | None = None) -> int:
    """Run ``args.script`` on the simulator; ``at_end`` sees the station and its parts before they close."""
    from tablekeeper.sim.clock import FakeClock
    from tablekeeper.station.script import ScriptedRun, parse_script

    mode = args.display or "capture"
    if mode in ("capture", "gifanim"):
        output_dir(args.capture_dir, option="--capture-dir")
    lines = _read_script(args.script)
    clock = FakeClock()
    station, parts, store = build_simulated(config, args, display_mode=None, clock=clock)
    try:
        steps = parse_script(lines, parts, source=args.script, hold_s=config.timing.hold_s)
        parts.emulator = _emulator(parts, mode)
        refresh = refresher(station, parts)
        if args.screens_dir is not None:
            keep_screens(station, output_dir(args.screens_dir, option="--screens-dir"))
        with counters_running(station, config, parts.counters, wait_for_table=True), \
                fleet_running(station, config, wait_s=FLEET_WAIT_S):
            station.start()
            gc.enable()  # off while a ``run`` process starts (``cli.main``)
            station.drain()  # the counters' greetings
            if parts.counters is not None:
                parts.counters.sync()
            refresh()
            ScriptedRun(station, parts, clock, refresh, source=args.script).run(steps)
            station.session.keep_snapshot()  # a resume past stale snapshots: the next one starts from here
            if at_end is not None:
                at_end(station, parts)
    finally:
        station.close()
        parts.close()
        if store is not None:
            store.close()
    if mode in ("capture", "gifanim"):
        from tablekeeper.sim.simulator import write_rate

        print(f"tablekeeper: {parts.frames_shown} frames written to {args.capture_dir}/ "
              f"({write_rate(parts.bytes_written, clock())})")
    return 0


def keep_screens(station: Station, out_dir: Path) -> None:
    """Each redraw also offers the screens and their pictures to a ``ScreenShots`` in ``out_dir``."""
    from tablekeeper.sim.screenshots import ScreenShots

    shots, before = ScreenShots(out_dir), station.on_redraw

    def redrawn(drawn: Station) -> None:
        shots.take(drawn.screens, drawn.images)
        if before is not None:
            before(drawn)

    station.on_redraw = redrawn


def _emulator(parts: SimulatedParts, mode: str) -> Any:
    from tablekeeper.sim.simulator import make_emulator

    return make_emulator(mode, parts.layout.size, parts.capture_dir)


def _read_script(path: str) -> list[str]:
    if path == "-":
        return sys.stdin.readlines()
    try:
        return read_text(path, what="script").splitlines()
    except ConfigError as exc:
        raise ScriptError(f"{path}: cannot read script: {str(exc).removeprefix(f'{path}: ')}") from None


def run_simulated(config: StationConfig, args: argparse.Namespace) -> int:
    from tablekeeper.intents import Quit
    from tablekeeper.sim.keyboard import KeyboardInput
    from tablekeeper.sim.simulator import choose_display_mode
    from tablekeeper.supervisor import Supervisor

    mode = choose_display_mode(args.display, stdout_is_tty=sys.stdout.isatty())
    if mode in ("capture", "gifanim"):
        output_dir(args.capture_dir, option="--capture-dir")
    clock = time.monotonic
    started_s = clock()
    station, parts, store = build_simulated(config, args, display_mode=None, clock=clock)
    keyboard: KeyboardInput | None = None
    text_view = None
    try:
        if mode == "text":
            from tablekeeper.sim.textview import TextView

            text_view = TextView(config)
        else:
            parts.emulator = _emulator(parts, mode)
        refresh = refresher(station, parts, text_view)
        keyboard = KeyboardInput.for_mode(mode, parts, stop=lambda: station.put(Quit("window closed")))
        _stop_on_signals(station)
        if text_view is not None and hasattr(signal, "SIGWINCH"):  # a resized terminal is drawn again
            from tablekeeper.intents import Tick

            signal.signal(signal.SIGWINCH, lambda _signum, _frame: station.put(Tick()))
        if mode == "pygame":
            print("tablekeeper: simulated station in a window; keys press the buttons, Esc quits", file=sys.stderr)
        elif mode in ("capture", "gifanim"):
            print(f"tablekeeper: no screen or terminal here; writing the panel's frames to {args.capture_dir}/ "
                  "(Ctrl-C stops; --script FILE presses buttons unattended)", file=sys.stderr)

        def on_pass(_now_s: float) -> None:
            if keyboard is not None:
                keyboard.pump()
            refresh()

        supervisor = Supervisor(clock=clock)
        # under systemd (an installed box without GPIO falls back to this simulator) the same handshake
        # as on the Pi: READY once up, the watchdog fed from the loop; outside systemd it does nothing
        from tablekeeper.appliance.watchdog import Watchdog

        watchdog = Watchdog()
        with counters_running(station, config, parts.counters, supervisor=supervisor), \
                fleet_running(station, config, supervisor=supervisor), web_running(station, config, args):
            station.start()  # (a counter plugged into this computer works too)
            refresh()
            watchdog.ready()
            # a window must have its events read often; keys in a terminal arrive on their own thread
            run_station_loop(station, supervisor, watchdog, clock=clock, sleep=time.sleep, on_pass=on_pass,
                             idle_wait_s=SIM_WAIT_S if mode == "pygame" else None)
            watchdog.stopping()
    finally:
        if keyboard is not None:
            keyboard.close()
        if text_view is not None:
            text_view.close()
        station.close()
        parts.close()
        if store is not None:
            store.close()
        if mode in ("capture", "gifanim"):
            from tablekeeper.sim.simulator import write_rate

            print(f"tablekeeper: {parts.frames_shown} frames written to {args.capture_dir}/ "
                  f"({write_rate(parts.bytes_written, time.monotonic() - started_s)})", file=sys.stderr)
    if text_view is not None:
        print("tablekeeper: simulator stopped", file=sys.stderr)
    return 0
