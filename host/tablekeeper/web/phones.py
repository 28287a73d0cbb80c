"""The phones' pages, served by the station itself: ``/`` the table page (the track and tokens
displays, the open question's answers as buttons, NEXT and undo, the console, the log, a code for
each seat) and ``/seat/N`` a seat's panel (its display, A and B, its LED, its counters).

Each page opens one socket, ``/live``: the server pushes the page view whenever the station's
screens change (``web.view``), and the page sends presses and lines that the station acknowledges
(``web.hub``). Every request names this run's secret (``?k=``, in the link the track display shows
as a QR code); without it a page gets the PIN form (401), and the right PIN trades for the link. The
server runs on a thread of its own with its own event loop; it only puts intents on the station's
queue and reads the views the station published.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
import socket
import sys
from importlib import resources
from typing import TYPE_CHECKING, Final
from urllib.parse import parse_qs, quote

from msgspec.structs import replace
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from tablekeeper.config import WebConfig
from tablekeeper.web.guard import Allowed, guarded
from tablekeeper.web.hub import SLOW_DOWN, Bucket, Client, Complete, Hello, Hub, Outbox, ack_message, decode, encoded
from tablekeeper.web.join import Invitation, qr_svg, reachable_address
from tablekeeper.web.server import DEFAULT_LIMITS, Limits, PageServer, bind
from tablekeeper.web.view import Publisher

if TYPE_CHECKING:
    from tablekeeper.station.loop import Station

MAX_SOCKETS: Final = 16  # pages open at once: a table's phones, with room to spare
PIN_WAIT_S: Final = 1.0  # after a wrong PIN no PIN is tried for this long (a guesser gets one a second)
PAGES: Final = ("table.html", "seat.html", "pin.html", "phones.js", "phones.css")
HEADERS: Final = {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
                  "Referrer-Policy": "same-origin",  # no link with its secret to another site
                  "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                                             "img-src 'self'; connect-src 'self'; form-action 'self'; "
                                             "base-uri 'none'; frame-ancestors 'none'"}
_TO: Final = re.compile(r"^/(seat/[1-9][0-9]?)?$")
_TYPES: Final = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                 "css": "text/css; charset=utf-8"}


class PhoneApp:
    """The routes over one hub: the pages, the PIN exchange, the seat codes and the socket."""

    def __init__(self, hub: Hub, invitation: Invitation) -> None:
        self.hub = hub
        self.invitation = invitation
        folder = resources.files("tablekeeper.web")
        self.files = {name: folder.joinpath(name).read_bytes() for name in PAGES}
        self._pin_open_s = 0.0

    def app(self, *, allowed: Allowed, limits: Limits = DEFAULT_LIMITS) -> ASGIApp:
        routes = [Route("/", self.table), Route("/seat/{seat:int}", self.seat),
                  Route("/join", self.join, methods=["POST"]), Route("/qr/{page}.svg", self.qr),
                  Route("/phones.js", self.asset), Route("/phones.css", self.asset), Route("/favicon.ico", _no_icon),
                  WebSocketRoute("/live", self.live)]
        return guarded(Starlette(routes=routes), allowed=allowed, max_body_bytes=limits.max_body_bytes)

    def allowed(self, given: str | None) -> bool:
        return given is not None and secrets.compare_digest(given.encode("utf-8"),
                                                            self.invitation.secret.encode("utf-8"))

    # --- pages --------------------------------------------------------------------------------
    async def table(self, request: Request) -> Response:
        return self._page(request, "table.html", "/")

    async def seat(self, request: Request) -> Response:
        seat = int(request.path_params["seat"])
        if not 1 <= seat <= 99:
            return PlainTextResponse("no such seat\n", 404, headers=HEADERS)
        return self._page(request, "seat.html", f"/seat/{seat}")

    def _page(self, request: Request, name: str, path: str) -> Response:
        if not self.allowed(request.query_params.get("k")):
            return self._pin_page(path, 401)
        return Response(self.files[name], media_type=_TYPES["html"], headers=HEADERS)

    def _pin_page(self, path: str, status: int, problem: str = "") -> Response:
        page = self.files["pin.html"].replace(b"{{to}}", path.encode()).replace(b"{{problem}}", problem.encode())
        return Response(page, status_code=status, media_type=_TYPES["html"], headers=HEADERS)

    async def asset(self, request: Request) -> Response:
        name = request.url.path.lstrip("/")
        return Response(self.files[name], media_type=_TYPES[name.rsplit(".", 1)[1]], headers=HEADERS)

    async def join(self, request: Request) -> Response:
        """The PIN form: the right PIN is answered with the link (its secret); one try a second."""
        form = parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=4)
        to = (form.get("to") or ["/"])[0]
        to = to if _TO.match(to) else "/"
        now = asyncio.get_running_loop().time()
        if now < self._pin_open_s:
            return self._pin_page(to, 429, "Too many tries: wait a second and try again.")
        given = (form.get("pin") or [""])[0].strip()
        if not secrets.compare_digest(given.encode("utf-8"), self.invitation.pin.encode("utf-8")):
            self._pin_open_s = now + PIN_WAIT_S
            return self._pin_page(to, 401, "That is not the PIN on the track display.")
        return RedirectResponse(f"{to}?k={quote(self.invitation.secret)}", 303, headers=HEADERS)

    async def qr(self, request: Request) -> Response:
        """The QR code of a page's link (``table``, ``seat2``), for the table page to show."""
        if not self.allowed(request.query_params.get("k")):
            return PlainTextResponse("this code needs the table's link\n", 403, headers=HEADERS)
        page = str(request.path_params["page"])
        if page == "table":
            link = self.invitation.link()
        elif re.fullmatch(r"seat[1-9][0-9]?", page):
            link = self.invitation.seat_link(int(page[4:]))
        else:
            return PlainTextResponse("no such page\n", 404, headers=HEADERS)
        return Response(qr_svg(link), media_type="image/svg+xml", headers=HEADERS)

    # --- the socket ---------------------------------------------------------------------------
    async def live(self, socket: WebSocket) -> None:
        if not self.allowed(socket.query_params.get("k")):
            await socket.close(code=1008)  # before accepting: the handshake is refused (403)
            return
        if self.hub.viewers >= MAX_SOCKETS:
            await socket.close(code=1013)
            return
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()
        outbox = Outbox(wake)
        await socket.accept()
        self.hub.opened(wake)
        client: Client | None = None
        writer = asyncio.create_task(self._write(socket, outbox))
        bucket = Bucket(loop.time())
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                parsed = decode(message.get("text") or message.get("bytes") or b"")
                if isinstance(parsed, str):
                    outbox.add(encoded({"t": "error", "detail": parsed}))
                elif not bucket.take(loop.time()):
                    if not isinstance(parsed, Hello | Complete):
                        outbox.add(ack_message(parsed.seq, SLOW_DOWN, kept=False))
                elif isinstance(parsed, Hello):
                    client, answer = self.hub.hello(parsed.client, outbox)
                    outbox.add(answer)
                elif isinstance(parsed, Complete):
                    outbox.add(self.hub.completions(parsed))
                elif client is None:
                    outbox.add(encoded({"t": "error", "detail": "say hello first"}))
                else:
                    intent = self.hub.intent_of(parsed)
                    reply = ack_message(parsed.seq, intent, kept=False) if isinstance(intent, str) \
                        else self.hub.submit(client, parsed.seq, intent)
                    if reply is not None:
                        outbox.add(reply)
        except WebSocketDisconnect:
            pass
        finally:
            writer.cancel()
            self.hub.closed(wake, client)

    async def _write(self, socket: WebSocket, outbox: Outbox) -> None:
        """The socket's one writer: acks and answers first, then the newest view it has not sent."""
        sent = 0
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                outbox.wake.clear()
                while outbox.messages:
                    message = outbox.messages.pop(0)
                    await socket.send_text(message.decode("utf-8"))
                latest = self.hub.latest
                if latest is not None and latest.version != sent:
                    sent = latest.version
                    await socket.send_text(f'{{"t":"view","v":{sent},"view":{latest.body.decode("utf-8")}}}')
                    continue
                if not outbox.messages:
                    await outbox.wake.wait()


class PhonePages:
    """A station's phones' pages: the server on its own thread, the station's screens published to it."""

    def __init__(self, station: Station, web: WebConfig, *, limits: Limits = DEFAULT_LIMITS) -> None:
        self.station = station
        self.web = web
        self.limits = limits
        self.hub = Hub(station.put, station.clock, self._joined, hold_s=station.config.timing.hold_s)
        self.publisher = Publisher(self.hub.deliver, self.hub.watching)
        self.invitation: Invitation | None = None
        self.server: PageServer | None = None

    def start(self) -> Invitation:
        """Bind, serve, and hook the station (on its thread, before its loop runs): its screens go to
        the pages, seats without a display are composed for their pages, the join card is shown."""
        station, web = self.station, self.web
        sock = bind(web.host, web.port, what=f"web listen {web.listen}")
        address = reachable_address(web.host)
        invitation = Invitation.new(address, int(sock.getsockname()[1]))
        allowed = Allowed.for_bind(web.host, [address, *web.names, *_own_names()])
        app = PhoneApp(self.hub, invitation).app(allowed=allowed, limits=self.limits)
        self.server = PageServer(app, sock, limits=self.limits)
        self.server.start()
        self.invitation = invitation
        seats = tuple(f"seat{s}" for s in range(1, station.session.game.seats_max + 1))
        station.roles = (*station.roles, *(role for role in seats if role not in station.roles))
        station.on_screens = self.publisher
        station.ui = replace(station.ui, join=invitation.card(), join_shown=True)
        return invitation

    def _joined(self) -> None:
        """The station's thread: a page opened, so the join card gives way and the page gets a view."""
        station = self.station
        station.ui = replace(station.ui, join_shown=False)
        station.redraw()
        self.publisher.publish(station)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.station.on_screens = None


async def _no_icon(_request: Request) -> Response:
    return Response(status_code=204, headers=HEADERS)


def _own_names() -> list[str]:
    """This machine's name (and ``NAME.local``, as mDNS announces it) and the addresses it resolves to."""
    name = socket.gethostname().lower()
    names = [name, f"{name}.local"]
    with contextlib.suppress(OSError):
        names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
    return names


def announce(invitation: Invitation) -> None:
    """The run's line on standard error: the whole link (with its secret) and the PIN."""
    print(f"tablekeeper: phones join at {invitation.link()} (or open http://{invitation.address}/ and type PIN "
          f"{invitation.pin}); each seat's link is on the table page", file=sys.stderr)


