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
    p.add_argument("--port", type=option_number, default=None, help="broker port (default 1883, or 8883 with --tls)")
    p.add_argument("--bind", default="0.0.0.0", help="address the broker listens on (default all)")
    p.add_argument("--tls", nargs="+", default=[], metavar="NAME",
                   help="speak only TLS, with a certificate (from a CA made here) for these names of the broker: "
                        "the host names and addresses stations use in [fleet] broker")
    p.add_argument("--persistence", action="store_true", help="keep retained statuses across broker restarts")
    p.add_argument("--broker-user", default="mosquitto",
                   help="the account the broker runs as (default mosquitto, as Debian's service does)")
    p.set_defaults(func=broker_config_command)

    for name, helptext, func, account in (("serve", "serve the organiser's page", serve_command, "organiser"),
                                          ("status", "print every station as a table", status_command, "observer")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--broker", required=True, metavar="HOST", help="the fleet's MQTT broker")
        p.add_argument("--port", type=option_number, default=1883, help="broker port (default 1883)")
        p.add_argument("--username", default=account, help=f"broker account (default {account})")
        p.add_argument("--password-file", metavar="FILE",
                       help=f"the account's password file (mode 0600), e.g. secrets/{account}.password")
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
            p.add_argument("--page-cert", type=Path, metavar="FILE",
                           help="certificate (PEM) to serve the page over HTTPS")
            p.add_argument("--page-key", type=Path, metavar="FILE", help="the certificate's key (PEM, mode 0600)")
            p.add_argument("--page-host", action="append", default=[], metavar="NAME",
                           help="a name or address the organiser's browser uses for the page (repeatable); "
                                "requests naming anything else are refused")
        p.set_defaults(func=func)


def broker_config_command(args: argparse.Namespace) -> int:
    from tablekeeper.fleet.broker_config import write_broker_config

    port = args.port if args.port is not None else (8883 if args.tls else 1883)
    _check_port(port, "--port")
    files = write_broker_config(args.out, args.stations, port=port, bind=args.bind,
                                persistence=args.persistence, user=args.broker_user, tls_names=args.tls)
    print(f"wrote {files.config}, {files.acl} and {files.passwords} for {len(args.stations)} stations")
    print(f"each account's password is in {files.secrets[next(iter(files.secrets))].parent}/ACCOUNT.password "
          "(mode 0600); copy a station's to its password_file")
    if files.tls is not None:
        print(f"TLS on port {port}: copy {files.tls.ca_certificate} to each station's ca_file (tls = true); "
              f"keep {files.tls.ca_key} to yourself")
    return 0


def _login(args: argparse.Namespace) -> Any:
    from tablekeeper.fleet.config import read_password
    from tablekeeper.fleet.organiser import BrokerLogin, check_resolvable

    _check_port(args.port, "--port")
    if args.ca_file and not args.tls:
        raise ConfigError("--ca-file: add --tls to use it")
    check_resolvable(args.broker, args.port)  # a misspelt broker is named now, not discovered by a silent page
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


NO_BROKER_WARNING_S = 5.0


def serve_command(args: argparse.Namespace) -> int:
    """The page on ``--bind``; off loopback it needs a password and TLS (a password in clear text on the
    LAN is anyone's). The broker's name must resolve (exit 2 otherwise); a broker that resolves but
    does not answer is named in one line after a few seconds while the page serves and retries."""
    from tablekeeper.fleet.board import Board
    from tablekeeper.fleet.config import read_password
    from tablekeeper.fleet.organiser import Organiser
    from tablekeeper.web.guard import Allowed, is_loopback
    from tablekeeper.web.organiser import OrganiserPage
    from tablekeeper.web.server import Limits, PageServer, Tls, bind

    _check_port(args.page_port, "--page-port")
    if (args.page_cert is None) != (args.page_key is None):
        raise ConfigError("--page-cert and --page-key: give both, or neither")
    tls = None if args.page_cert is None else Tls(args.page_cert, args.page_key)
    for path in (tls.certificate, tls.key) if tls is not None else ():
        if not path.is_file():
            raise ConfigError(f"{path}: no such file (--page-cert/--page-key)")
    page_password = None
    if args.page_password_file:
        page_password = read_password(args.page_password_file, key="--page-password-file")
    if not is_loopback(args.bind):
        if page_password is None:
            raise ConfigError(f"--bind {args.bind}: the page would be open to the network; "
                              "give it a password with --page-password-file FILE (mode 0600)")
        if tls is None:
            raise ConfigError(f"--bind {args.bind}: the page's password would cross the network in clear text; "
                              "serve it over HTTPS with --page-cert FILE --page-key FILE")
    login = _login(args)
    sock = bind(args.bind, args.page_port)
    board = Board()
    organiser = Organiser(login, board)
    allowed = Allowed.for_bind(args.bind, args.page_host)
    limits = Limits()
    server = PageServer(OrganiserPage(board, organiser).app(allowed=allowed, limits=limits, password=page_password),
                        sock, limits=limits, tls=tls)
    organiser.start()
    stopped = threading.Event()

    def warn_if_silent() -> None:
        if not organiser.connected.wait(NO_BROKER_WARNING_S) and not stopped.is_set():
            why = organiser.refused or f"no answer yet from {login.host}:{login.port}"
            print(f"tablekeeper: fleet broker: {why}; the page says so and keeps trying", file=sys.stderr)

    threading.Thread(target=warn_if_silent, name="broker-warning", daemon=True).start()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda _n, _f: None)  # uvicorn stops on them and raises them again after
    host = f"[{args.bind}]" if ":" in args.bind else args.bind
    print(f"tablekeeper: the fleet page is at {server.scheme}://{host}:{server.port}/ "
          f"(answers to {', '.join(allowed.names)}; Ctrl-C stops)", file=sys.stderr)
    try:
        server.run()
    finally:
        stopped.set()
        organiser.close()
    return 0
