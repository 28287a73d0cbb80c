"""``tablekeeper fleet``: broker-config (Mosquitto files for a convention), serve (the organiser's
page) and status (the same board as a table in the terminal)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from tablekeeper.core.numbers import option_number
from tablekeeper.errors import ConfigError

DEFAULT_PAGE_PORT = 8088


def register(subparsers: Any) -> None:
    fleet = subparsers.add_parser("fleet", help="a convention's stations on one MQTT broker",
                                  description="Report a convention's stations to one MQTT broker (Mosquitto) and "
                                              "watch and steer them from one page. See docs/fleet.md.")
    sub = fleet.add_subparsers(dest="fleet_command", metavar="SUBCOMMAND", required=True)

    p = sub.add_parser("broker-config", help="write a Mosquitto config, ACL and passwords for the stations")
    p.add_argument("stations", nargs="+", metavar="STATION", help="station names (their MQTT usernames)")
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="directory for the files (must be new)")
    p.add_argument("--port", type=option_number, default=1883, help="broker port (default 1883)")
    p.add_argument("--bind", default="0.0.0.0", help="address the broker listens on (default all)")
    p.add_argument("--persistence", action="store_true", help="keep retained statuses across broker restarts")
    p.add_argument("--broker-user", default="mosquitto",
                   help="the account the broker runs as (default mosquitto, as Debian's service does)")
    p.set_defaults(func=broker_config_command)

    for name, helptext, func in (("serve", "serve the organiser's page", serve_command),
                                 ("status", "print every station as a table", status_command)):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--broker", required=True, metavar="HOST", help="the fleet's MQTT broker")
        p.add_argument("--port", type=option_number, default=1883, help="broker port (default 1883)")
        p.add_argument("--username", default="organiser", help="broker account (default organiser)")
        p.add_argument("--password-file", metavar="FILE",
                       help="the account's password file (mode 0600), e.g. secrets/organiser.password")
        p.add_argument("--tls", action="store_true", help="connect with TLS")
        p.add_argument("--ca-file", metavar="FILE", help="CA certificate for --tls")
        if name == "status":
            p.add_argument("--wait", type=float, default=5.0, metavar="S",
                           help="how long to wait for the broker (default 5 s)")
        if name == "serve":
            p.add_argument("--bind", default="127.0.0.1",
                           help="address the page listens on (default 127.0.0.1; "
                                "anything else needs --page-password-file)")
            p.add_argument("--page-port", type=option_number, default=DEFAULT_PAGE_PORT,
                           help=f"port of the page (default {DEFAULT_PAGE_PORT})")
            p.add_argument("--page-password-file", metavar="FILE",
                           help="the page's password (mode 0600); the browser asks for it")
        p.set_defaults(func=func)


def broker_config_command(args: argparse.Namespace) -> int:
    from tablekeeper.fleet.broker_config import write_broker_config

    _check_port(args.port, "--port")
    files = write_broker_config(args.out, args.stations, port=args.port, bind=args.bind,
                                persistence=args.persistence, user=args.broker_user)
    print(f"wrote {files.config}, {files.acl} and {files.passwords} for {len(args.stations)} stations")
    print(f"each account's password is in {files.secrets[next(iter(files.secrets))].parent}/ACCOUNT.password "
          "(mode 0600); copy a station's to its password_file")
    return 0


def _login(args: argparse.Namespace) -> Any:
    from tablekeeper.fleet.config import read_password
    from tablekeeper.fleet.organiser import BrokerLogin

    _check_port(args.port, "--port")
    if args.ca_file and not args.tls:
        raise ConfigError("--ca-file: add --tls to use it")
    password = read_password(args.password_file, key="--password-file") if args.password_file else None
    return BrokerLogin(host=args.broker, port=args.port, username=args.username, password=password,
                       tls=args.tls, ca_file=args.ca_file)


def _check_port(port: int, flag: str) -> None:
    if not 1 <= port <= 65535:
        raise ConfigError(f"{flag}: {port} is not a TCP port (1..65535)")


def status_command(args: argparse.Namespace) -> int:
    from tablekeeper.fleet.board import Board
    from tablekeeper.fleet.organiser import Organiser, settle
    from tablekeeper.fleet.table import board_table

    board = Board()
    organiser = Organiser(_login(args), board)
    organiser.start()
    try:
        if not 0 < args.wait <= 60:
            raise ConfigError(f"--wait: {args.wait} s is out of range (0 < S <= 60)")
        organiser.wait_connected(args.wait)
        settle(board)
    finally:
        organiser.close()
    print(board_table(board.snapshot()))
    return 0


def serve_command(args: argparse.Namespace) -> int:
    from tablekeeper.fleet.board import Board
    from tablekeeper.fleet.config import is_loopback, read_password
    from tablekeeper.fleet.organiser import Organiser
    from tablekeeper.fleet.server import FleetServer

    _check_port(args.page_port, "--page-port")
    page_password = None
    if args.page_password_file:
        page_password = read_password(args.page_password_file, key="--page-password-file")
    elif not is_loopback(args.bind):
        raise ConfigError(f"--bind {args.bind}: the page would be open to the network; "
                          "give it a password with --page-password-file FILE (mode 0600)")
    login = _login(args)
    board = Board()
    organiser = Organiser(login, board)
    try:
        server = FleetServer((args.bind, args.page_port), board=board, organiser=organiser, password=page_password)
    except OSError as exc:
        raise ConfigError(f"--bind {args.bind} --page-port {args.page_port}: {exc.strerror or exc}") from None
    organiser.start()
    stop = threading.Event()

    def on_signal(_signum: int, _frame: object) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    thread = threading.Thread(target=server.serve_forever, name="fleet-page", daemon=True)
    thread.start()
    print(f"tablekeeper: the fleet page is at http://{args.bind}:{server.server_port}/ (Ctrl-C stops)",
          file=sys.stderr)
    try:
        stop.wait()
    finally:
        server.shutdown()
        server.server_close()
        organiser.close()
    return 0
