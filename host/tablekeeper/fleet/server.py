"""``tablekeeper fleet serve``: the organiser's page, live over Server-Sent Events, from the stdlib.

``GET /`` is the page, ``GET /state`` the board as JSON, ``GET /events`` a stream that sends the
board whenever it changes, ``POST /command`` (JSON ``{"station": ..., "cmd": ..., ...}``) sends a
command. On loopback it is open; bound anywhere else every request needs the page password
(HTTP basic auth). Commands must be JSON, which a cross-site form cannot send.
"""

from __future__ import annotations

import base64
import binascii
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Final

import msgspec

from tablekeeper.fleet.board import Board
from tablekeeper.fleet.config import StationName
from tablekeeper.fleet.messages import Refusal, RemoteCommand, decode_command
from tablekeeper.fleet.organiser import Organiser

MAX_STREAMS: Final = 32  # open pages at once; each holds one thread
KEEPALIVE_S: Final = 15.0  # a comment line this often tells proxies and the page the stream is alive
MAX_BODY: Final = 4096


class CommandRequest(msgspec.Struct):
    """The page's command: which station (the command's own fields travel beside it)."""

    station: StationName


class FleetServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], *, board: Board, organiser: Organiser | None,
                 password: str | None) -> None:
        super().__init__(address, FleetHandler)
        self.board = board
        self.organiser = organiser
        self.password = password
        self.page = resources.files("tablekeeper.fleet").joinpath("page.html").read_bytes()
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self.stopping = threading.Event()

    def shutdown(self) -> None:
        self.stopping.set()
        with self.board.changed:
            self.board.changed.notify_all()
        super().shutdown()


class FleetHandler(BaseHTTPRequestHandler):
    server: FleetServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return  # one line per request would bury the terminal; the page is the log

    # --- auth ---------------------------------------------------------------------------------
    def _allowed(self) -> bool:
        password = self.server.password
        if password is None:
            return True
        header = self.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                _user, _, given = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
            except (binascii.Error, UnicodeDecodeError):
                given = ""
            if secrets.compare_digest(given.encode(), password.encode()):
                return True
        self.send_response(HTTPStatus.UNAUTHORIZED)
        self.send_header("WWW-Authenticate", 'Basic realm="Tablekeeper fleet", charset="UTF-8"')
        self.send_header("Content-Length", "0")
        self.end_headers()
        return False

    # --- routes -------------------------------------------------------------------------------
    def do_GET(self) -> None:
        if not self._allowed():
            return
        if self.path == "/":
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", self.server.page)
        elif self.path == "/state":
            self._send(HTTPStatus.OK, "application/json", msgspec.json.encode(self.server.board.snapshot()))
        elif self.path == "/events":
            self._stream()
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")

    def do_POST(self) -> None:
        if not self._allowed():
            return
        if self.path != "/command":
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")
            return
        length = int(self.headers.get("Content-Length") or 0)
        if self.headers.get_content_type() != "application/json" or not 0 < length <= MAX_BODY:
            self._reply(HTTPStatus.BAD_REQUEST, "send a JSON command of at most 4 kB")
            return
        body = self.rfile.read(length)
        try:
            target = msgspec.json.decode(body, type=CommandRequest)
        except msgspec.DecodeError as exc:
            self._reply(HTTPStatus.BAD_REQUEST, str(exc).replace("`", ""))
            return
        command = decode_command(_without_station(body))
        if isinstance(command, Refusal):
            self._reply(HTTPStatus.BAD_REQUEST, command.reason)
            return
        organiser = self.server.organiser
        if organiser is None or not organiser.connected.is_set():
            self._reply(HTTPStatus.SERVICE_UNAVAILABLE, "not connected to the broker")
            return
        organiser.send(target.station, _with_id(command))
        self._reply(HTTPStatus.ACCEPTED, "sent")

    # --- helpers ------------------------------------------------------------------------------
    def _stream(self) -> None:
        if not self.server.streams.acquire(blocking=False):
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/plain", b"too many open pages\n")
            return
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            board = self.server.board
            version = -1
            while not self.server.stopping.is_set():
                if board.version != version:
                    view = board.snapshot()
                    version = view.version
                    self.wfile.write(b"data: " + msgspec.json.encode(view) + b"\n\n")
                else:
                    self.wfile.write(b": alive\n\n")
                self.wfile.flush()
                board.wait_changed(version, KEEPALIVE_S)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.server.streams.release()
            self.close_connection = True

    def _reply(self, status: HTTPStatus, text: str) -> None:
        self._send(status, "application/json", msgspec.json.encode({"result": status.phrase.lower(), "detail": text}))

    def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def _without_station(body: bytes) -> bytes:
    raw = msgspec.json.decode(body, type=dict[str, Any])
    raw.pop("station", None)
    return msgspec.json.encode(raw)


def _with_id(command: RemoteCommand) -> RemoteCommand:
    return command if command.id else msgspec.structs.replace(command, id=secrets.token_hex(4))

