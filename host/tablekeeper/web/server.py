"""Serving a page: uvicorn with the bounds a box on a convention's LAN needs.

uvicorn bounds header size, keep-alive idling, WebSocket message size and pings by its own settings;
two bounds it lacks are added by a small subclass of its HTTP/1.1 protocol: a connection may stay
open only ``request_deadline_s`` without sending a request's head (a connection that sends nothing,
or sends its head a byte at a time, is closed), and no more than ``max_connections`` are held at
once (sockets included). The listening socket is bound here, so a taken port or an unknown address
is one line from the caller rather than uvicorn's exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Final

import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

from tablekeeper.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one client may ask of a page server."""

    max_connections: int = 64
    request_deadline_s: float = 10.0  # from connect (or the last response) to a whole request head
    keepalive_s: float = 5.0
    max_header_bytes: int = 16 * 1024
    max_body_bytes: int = 4096
    max_socket_message_bytes: int = 4096
    socket_ping_s: float = 20.0  # a socket that answers no ping within this is closed


DEFAULT_LIMITS: Final = Limits()


@dataclass(frozen=True, slots=True)
class Tls:
    """A certificate and its key (PEM files) for HTTPS."""

    certificate: Path
    key: Path


class _BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head and a cap on connections."""

    limits: Limits = DEFAULT_LIMITS
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            transport.close()  # over the cap: closed before a byte is read
            return
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.limits.request_deadline_s, self._expire, self.cycle)

    def _expire(self, cycle: object) -> None:
        """No new request head since the deadline was set: close, unless the connection became a socket."""
        self._deadline = None
        transport = self.transport
        if self.cycle is cycle and not transport.is_closing() and transport.get_protocol() is self:
            transport.close()


def bind(host: str, port: int, *, what: str | None = None) -> socket.socket:
    """The listening socket, or one ``ConfigError`` line naming the address (``what``: how the user
    gave it, default the organiser's options)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        named = f"--bind {host}" if what is None else f"{what}: {host}"
        raise ConfigError(f"{named}: not an address of this machine ({exc.strerror})") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ConfigError(f"{what or f'--bind {host} --page-port {port}'}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


SHUTDOWN_S: Final = 3


class _QuietServer(uvicorn.Server):
    """uvicorn's server without its tick: uvicorn wakes ten times a second to look for a stop (and to
    refresh a Date header these pages do not send), a box's idle cost for nothing; this one sleeps
    until ``stop`` or a signal wakes it."""

    _loop: asyncio.AbstractEventLoop | None = None
    _stop: asyncio.Event | None = None

    async def main_loop(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        if not await self.on_tick(0):  # the default headers, once
            await self._stop.wait()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self.wake()

    def wake(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: it stopped already
                loop.call_soon_threadsafe(stop.set)


class PageServer:
    """One page app on one socket, served by uvicorn in the calling thread (``run``) or its own (``start``)."""

    def __init__(self, app: ASGIApp, sock: socket.socket, *, limits: Limits = DEFAULT_LIMITS,
                 tls: Tls | None = None) -> None:
        self.sock = sock
        self.limits = limits
        protocol = type("BoundedH11", (_BoundedH11,), {"limits": limits})
        options: dict[str, Any] = {}
        if tls is not None:
            options.update(ssl_certfile=str(tls.certificate), ssl_keyfile=str(tls.key))
        self.config = uvicorn.Config(
            app, http=protocol, ws="websockets-sansio", lifespan="off", log_config=None, access_log=False,
            server_header=False, date_header=False, timeout_keep_alive=max(1, round(limits.keepalive_s)),
            h11_max_incomplete_event_size=limits.max_header_bytes, limit_concurrency=limits.max_connections,
            ws_max_size=limits.max_socket_message_bytes, ws_ping_interval=limits.socket_ping_s,
            ws_ping_timeout=limits.socket_ping_s, timeout_graceful_shutdown=SHUTDOWN_S, **options)
        self.server = _QuietServer(self.config)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def scheme(self) -> str:
        return "https" if self.config.ssl_certfile else "http"

    def run(self) -> None:
        """Serve until ``stop`` (or, on the main thread, SIGINT/SIGTERM)."""
        asyncio.run(self.server.serve(sockets=[self.sock]))

    def start(self) -> None:
        """Serve on a thread of its own; returns once the socket accepts."""
        self._thread = threading.Thread(target=self.run, name="page", daemon=True)
        self._thread.start()
        while not self.server.started and self._thread.is_alive():
            self._thread.join(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.wake()
        if self._thread is not None:
            self._thread.join(SHUTDOWN_S + 2)
        with contextlib.suppress(OSError):
            self.sock.close()
