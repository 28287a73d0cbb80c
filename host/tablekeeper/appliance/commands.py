"""``tablekeeper appliance install|unit|udev``: set a Raspberry Pi up as a station, or print what it would get."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import ipaddress
import os
from pathlib import Path
from typing import Any

from tablekeeper.appliance.install import Context, InstallOptions, apply_plan, build_plan, print_plan
from tablekeeper.appliance.paths import DEFAULT_CONFIG_PATH, DEFAULT_SERVICE_DATA_DIR
from tablekeeper.appliance.serial_console import uart_pins_in_use
from tablekeeper.appliance.units import DEFAULT_COUNTER_IDS, ServiceSettings, render_udev_rule, render_unit
from tablekeeper.config import (
    I2C_FIXED_PINS,
    INSTALLED_CONFIG,
    REFERENCE_CONFIG,
    StationConfig,
    default_config_path,
    load_config,
)
from tablekeeper.core.numbers import option_number
from tablekeeper.errors import ConfigError, InstallError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("appliance", help="install the station as a systemd service on a Raspberry Pi",
                                   description="Set a Raspberry Pi up as a Tablekeeper appliance.")
    commands = parser.add_subparsers(dest="appliance_command", metavar="ACTION", required=True)

    install = commands.add_parser("install", help="enable I2C, groups, udev rule, data dir and the service")
    _service_options(install)
    install.add_argument("--dry-run", action="store_true", help="print every step and change nothing")
    install.add_argument("--station-config-source", type=Path, metavar="FILE",
                         help="station config copied to --config if that file does not exist yet")
    install.add_argument("--counter-id", action="append", default=[], metavar="VID:PID",
                         help="USB IDs of the counters (repeatable; default 2E8A:0005, MicroPython on RP2040)")
    install.add_argument("--start", action="store_true", help="start the service now instead of after a reboot")
    install.set_defaults(func=_install)

    unit = commands.add_parser("unit", help="print the systemd unit the installer writes")
    _service_options(unit)
    unit.set_defaults(func=_unit)

    udev = commands.add_parser("udev", help="print the udev rule for the counters")
    udev.add_argument("--counter-id", action="append", default=[], metavar="VID:PID")
    udev.set_defaults(func=_udev)

    hardware = subparsers.add_parser("hardware", help="documents drawn from the station config")
    drawings = hardware.add_subparsers(dest="hardware_command", metavar="ACTION", required=True)
    wiring = drawings.add_parser("wiring", help="draw the wiring diagram (SVG) for a station config")
    wiring.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help=f"station config (default: {INSTALLED_CONFIG} once installed, else the reference "
                             "build, hardware/station.toml)")
    wiring.add_argument("--out", type=Path, default=None, metavar="FILE", help="write here instead of stdout")
    wiring.set_defaults(func=_wiring)
    panel = drawings.add_parser("panel", help="draw the front panel (SVG, mm): cut-outs, holes, dimensions")
    panel.add_argument("--config", type=Path, default=None, metavar="FILE",
                       help=f"station config (default: {INSTALLED_CONFIG} once installed, else the reference "
                             "build, hardware/station.toml)")
    panel.add_argument("--out", type=Path, default=None, metavar="FILE", help="write here instead of stdout")
    panel.set_defaults(func=_wiring, drawing="panel")
    photos = drawings.add_parser("photos", help="photograph the simulated panel of each game (capture mode)")
    photos.add_argument("--out-dir", type=Path, default=Path("hardware/photos"), metavar="DIR",
                        help="where the PNGs go (default hardware/photos)")
    photos.add_argument("--config", type=Path, default=None, metavar="FILE", help="station config")
    photos.add_argument("--seats", type=option_number, default=4, help="players at the table (default 4)")
    photos.add_argument("--game", action="append", default=None, help="only this game (repeatable)")
    photos.add_argument("--readme-picture", type=Path, default=Path("docs/images/panel.png"), metavar="FILE",
                        help="also the README's panel picture, from docs/images/panel.keys (default "
                             "docs/images/panel.png; 'none' skips it)")
    photos.add_argument("--gallery", type=Path, default=Path("docs/screens.md"), metavar="FILE",
                        help="also the screen gallery: every kind of screen of each game's example script, its "
                             "pictures in images/screens/ beside it (default docs/screens.md; 'none' skips it)")
    photos.set_defaults(func=_photos)
    phones = drawings.add_parser("phones", help="photograph the phones' pages (headless Chromium, a phone's size) "
                                                "beside the simulated panel of the same run")
    phones.add_argument("--out", type=Path, default=Path("docs/images/phones.png"), metavar="FILE",
                        help="where the PNG goes (default docs/images/phones.png)")
    phones.set_defaults(func=_phones)


def _service_options(parser: argparse.ArgumentParser) -> None:
    defaults = ServiceSettings()
    parser.add_argument("--user", default=os.environ.get("SUDO_USER") or defaults.user,
                        help=f"the account the service runs as (default: the user who ran sudo, else {defaults.user})")
    parser.add_argument("--venv", type=Path, default=defaults.venv_dir, help="the project's virtualenv")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_SERVICE_DATA_DIR,
                        help="writable directory for saves and demo counts (put it on a writable "
                             "partition if the root file system is read-only)")
    parser.add_argument("--config", type=Path, default=DEFAULT_CONFIG_PATH, help="the station config the service reads")
    parser.add_argument("--watchdog-s", type=option_number, default=defaults.watchdog_s,
                        help="restart the station if its loop is silent this long")
    parser.add_argument("--demo", action="store_true", help="run the convention demo mode")


def _settings(args: argparse.Namespace) -> ServiceSettings:
    return ServiceSettings(user=args.user, venv_dir=args.venv, data_dir=args.data_dir, config_path=args.config,
                           watchdog_s=args.watchdog_s, demo=args.demo)


def parse_counter_ids(values: list[str]) -> tuple[tuple[int, int], ...]:
    ids = []
    for value in values:
        vid, sep, pid = value.partition(":")
        try:
            if not sep or len(vid) != 4 or len(pid) != 4:
                raise ValueError(value)
            ids.append((int(vid, 16), int(pid, 16)))
        except ValueError:
            raise ConfigError(f"--counter-id: {value!r} is not VID:PID in hex (2E8A:0005)") from None
    return tuple(ids) or DEFAULT_COUNTER_IDS


def install_options(service: ServiceSettings, *, station_config_source: Path | None, counter_id_values: list[str],
                    start_now: bool = False, root: Path = Path("/"), needs_network: bool = False) -> InstallOptions:
    """Options for the plan; the station config the service will read decides extra buses, counter IDs
    and whether the unit gets a network (``[fleet]``, or ``needs_network`` from a feature that serves
    pages to the LAN)."""
    station_file = _station_file(service, station_config_source, root)
    extra_buses: tuple[tuple[int, int, int], ...] = ()
    uart_pins_used = False
    counter_ids = parse_counter_ids(counter_id_values) if counter_id_values else ()
    if station_file is not None:
        cfg = load_config(station_file)
        extra_buses = tuple((bus.port, dict(bus.pins)["SDA"], dict(bus.pins)["SCL"]) for bus in cfg.buses
                            if bus.kind == "i2c" and bus.port not in I2C_FIXED_PINS)
        counter_ids = counter_ids or tuple(sorted({(c.vid, c.pid) for c in cfg.counters}))
        uart_pins_used = bool(uart_pins_in_use(cfg))
        service = with_network(service, cfg, needs_network=needs_network)
    elif needs_network:
        service = dataclasses.replace(service, network=True)
    return InstallOptions(service=service, station_config_source=station_config_source,
                          counter_ids=counter_ids or DEFAULT_COUNTER_IDS, start_now=start_now,
                          extra_i2c_buses=extra_buses, uart_pins_used=uart_pins_used)


def _station_file(service: ServiceSettings, source: Path | None, root: Path) -> Path | None:
    """The config the service will read: the one already installed, else the one the installer copies."""
    installed = root / service.config_path.relative_to("/")
    return installed if installed.exists() else source


def with_network(service: ServiceSettings, cfg: StationConfig, *, needs_network: bool = False) -> ServiceSettings:
    """The unit's network as the config needs it: IP for ``[fleet]`` (and ``[web]``, the phones' page, or
    ``needs_network``), the LAN only, plus the broker's own address when the config names one outside it."""
    fleet = cfg.fleet
    web = getattr(cfg, "web", None)
    if fleet is None and web is None and not needs_network:
        return dataclasses.replace(service, network=False, ip_allow=())
    allow = list(service.ip_allow)
    if fleet is not None:
        with contextlib.suppress(ValueError):  # a host name: reached on the LAN (its prefixes are allowed)
            allow.append(str(ipaddress.ip_address(fleet.broker)))
    return dataclasses.replace(service, network=True, ip_allow=tuple(dict.fromkeys(allow)))


def _install(args: argparse.Namespace) -> int:
    source = args.station_config_source.resolve() if args.station_config_source else None
    options = install_options(_settings(args), station_config_source=source, counter_id_values=args.counter_id,
                              start_now=args.start)
    steps = build_plan(options)
    if args.dry_run:
        print("Dry run: nothing is changed. The install would:")
        print_plan(steps)
        return 0
    if os.geteuid() != 0:
        raise InstallError("appliance install: needs root for /etc and /boot; run it with sudo "
                           "(or add --dry-run to see the steps)")
    apply_plan(steps, Context(owner=options.service.user))
    print("Installed. Check the box with: tablekeeper doctor")
    return 0


def _wiring(args: argparse.Namespace) -> int:
    from tablekeeper.appliance.panel import render_panel_svg
    from tablekeeper.appliance.wiring import render_wiring_svg

    config_path: Path = args.config or default_config_path()
    cfg = load_config(config_path)
    render = render_panel_svg if getattr(args, "drawing", "wiring") == "panel" else render_wiring_svg
    svg = render(cfg, source_name=_display_name(config_path))
    if args.out is None:
        print(svg, end="")
        return 0
    try:
        args.out.write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"--out: cannot write {args.out}: {exc.strerror}") from None
    print(f"wrote {args.out} from {config_path}")
    return 0


def _photos(args: argparse.Namespace) -> int:
    from tablekeeper.appliance.gallery import EXAMPLE_ARGS, PICTURES, take_gallery
    from tablekeeper.appliance.photos import run_in_subprocess, take_photos, take_readme_picture
    from tablekeeper.demo.mode import load_scripts
    from tablekeeper.user_paths import output_dir

    output_dir(args.out_dir, option="--out-dir")
    gallery = args.gallery.parent / PICTURES
    before = {p: p.read_bytes() for p in [*args.out_dir.glob("*.png"), args.readme_picture, args.gallery,
                                          *gallery.glob("*/*.png")] if p.is_file()}
    scripts = load_scripts(games=args.game)
    written = take_photos(scripts, args.out_dir, config=args.config, seats=args.seats)
    if str(args.readme_picture) != "none":
        keys = REFERENCE_CONFIG.resolve().parents[1] / "docs" / "images" / "panel.keys"
        written.append(take_readme_picture(keys, args.readme_picture))
    if str(args.gallery) != "none":
        games = args.game or list(EXAMPLE_ARGS)
        titles = {script.game: script.title for script in load_scripts()}
        written += take_gallery(games, args.gallery, titles=titles, run_cli=run_in_subprocess)
    for path in written:
        print(f"unchanged {path}" if before.get(path) == path.read_bytes() else f"wrote {path}")
    return 0


def _phones(args: argparse.Namespace) -> int:
    from tablekeeper.appliance.phone_picture import take_phone_picture

    print(f"wrote {take_phone_picture(args.out)}")
    return 0


def _display_name(path: Path) -> str:
    """Repo-relative when the file is inside the repository, so the drawing does not name a machine."""
    repo = REFERENCE_CONFIG.resolve().parents[1]
    try:
        return str(path.resolve().relative_to(repo))
    except ValueError:
        return path.name


def _unit(args: argparse.Namespace) -> int:
    """The unit for the config at ``--config`` when that file exists here (its ``[fleet]`` opens the network)."""
    settings = _settings(args)
    if settings.config_path.exists():
        settings = with_network(settings, load_config(settings.config_path))
    print(render_unit(settings), end="")
    return 0


def _udev(args: argparse.Namespace) -> int:
    print(render_udev_rule(parse_counter_ids(args.counter_id)), end="")
    return 0
