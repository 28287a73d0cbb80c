"""The fleet organiser's page: every station's tile, live, and the buttons that steer them.

``GET /`` is the page; it opens one WebSocket, ``/live``, on which the server sends the whole board
whenever it changes (``{"type": "board", ...}``) and the page sends commands (``{"ref": ..., "station":
..., "cmd": ..., ...}``), each answered once the station has (``{"type": "delivery", "ref": ...,
"delivery": {...}}``): only then does the page say it was done. ``GET /state`` is the board as JSON
and ``POST /command`` the same command for a script, answered the same way. Everything passes the
guards of ``tablekeeper.web.guard`` first.
"""

from __future__ import annotations

import asyncio
import contextlib
from importlib import resources
from typing import Any, Final

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from tablekeeper.fleet.board import Board
from tablekeeper.fleet.config import StationName
from tablekeeper.fleet.messages import Refusal, decode_command
from tablekeeper.fleet.organiser import Delivery, Organiser
from tablekeeper.web.guard import Allowed, guarded
from tablekeeper.web.server import DEFAULT_LIMITS, Limits

MAX_SOCKETS: Final = 32  # open pages at once
MAX_IN_FLIGHT: Final = 8  # one page's commands awaiting their stations' answers
PUSH_EVERY_S: Final = 0.1  # at most ten board updates a second per page, however busy the fleet
STATUS_CODES: Final = {"done": 200, "refused": 409, "offline": 503, "queue_full": 429, "no_answer": 504,
                       "no_broker": 503}
HEADERS: Final = {"Cache-Control": "no-store", "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
                  "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; "
                                             "style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"}


class Target(msgspec.Struct):
    """Which station a command is for (its own fields travel beside this), and the page's reference."""

    station: StationName
    ref: str = ""


class OrganiserPage:
    """The page's routes over one board and one organiser client (``None``: no broker, commands refused)."""

    def __init__(self, board: Board, organiser: Organiser | None) -> None:
        self.board = board
        self.organiser = organiser
        self.page = resources.files("tablekeeper.web").joinpath("organiser.html").read_bytes()
        self.sockets = 0

    def app(self, *, allowed: Allowed, limits: Limits = DEFAULT_LIMITS, password: str | None = None) -> ASGIApp:
        routes = [Route("/", self.index), Route("/state", self.state),
                  Route("/command", self.command, methods=["POST"]), WebSocketRoute("/live", self.live)]
        return guarded(Starlette(routes=routes), allowed=allowed, max_body_bytes=limits.max_body_bytes,
                       password=password, realm="Tablekeeper fleet")

    # --- HTTP ---------------------------------------------------------------------------------
    async def index(self, _request: Request) -> Response:
        return Response(self.page, media_type="text/html; charset=utf-8", headers=HEADERS)

    async def state(self, _request: Request) -> Response:
        return Response(msgspec.json.encode(self._board_message()), media_type="application/json", headers=HEADERS)

    async def command(self, request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _problem(415, "send the command as JSON (Content-Type: application/json)")
        delivery = await self._deliver(await request.body())
        if isinstance(delivery, str):
            return _problem(400, delivery)
        return Response(msgspec.json.encode(delivery), status_code=STATUS_CODES[delivery.outcome],
                        media_type="application/json", headers=HEADERS)

    # --- the page's socket --------------------------------------------------------------------
    async def live(self, socket: WebSocket) -> None:
        if self.sockets >= MAX_SOCKETS:
            await socket.close(code=1013, reason="too many open pages")
            return
        self.sockets += 1
        try:
            await socket.accept()
            await self._converse(socket)
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets -= 1

    async def _converse(self, socket: WebSocket) -> None:
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()
        def wake() -> None:  # paho's thread
            loop.call_soon_threadsafe(changed.set)

        stop_listening = self.board.listen(wake)
        sending = asyncio.Lock()
        in_flight: set[asyncio.Task[None]] = set()

        async def send(message: object) -> None:
            async with sending:
                await socket.send_text(msgspec.json.encode(message).decode("utf-8"))

        async def push() -> None:
            shown: tuple[int, bool] | None = None
            sent_at = -PUSH_EVERY_S
            while True:
                changed.clear()  # before looking, so a change while sending wakes the next wait
                if (self.board.version, self._broker_up()) != shown:
                    await asyncio.sleep(max(0.0, sent_at + PUSH_EVERY_S - loop.time()))
                    message = self._board_message()
                    shown = (message["view"].version, message["broker"])
                    await send(message)
                    sent_at = loop.time()
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=5.0)  # also notices the broker link's changes

        async def answer(raw: bytes, ref: str) -> None:
            delivery = await self._deliver(raw)
            if isinstance(delivery, str):
                await send({"type": "error", "ref": ref, "detail": delivery})
            else:
                await send({"type": "delivery", "ref": ref, "delivery": delivery})

        pusher = asyncio.create_task(push())
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                raw = message.get("bytes") or (message.get("text") or "").encode("utf-8")
                ref = _ref_of(raw)
                if len(in_flight) >= MAX_IN_FLIGHT:
                    await send({"type": "delivery", "ref": ref, "delivery": {"outcome": "queue_full"}})
                    continue
                task = asyncio.create_task(answer(raw, ref))
                in_flight.add(task)
                task.add_done_callback(in_flight.discard)
        finally:
            stop_listening()
            pusher.cancel()
            for task in in_flight:
                task.cancel()

    # --- shared -------------------------------------------------------------------------------
    def _broker_up(self) -> bool:
        return self.organiser is not None and self.organiser.connected.is_set()

    def _board_message(self) -> dict[str, Any]:
        return {"type": "board", "broker": self._broker_up(), "view": self.board.snapshot()}

    async def _deliver(self, raw: bytes) -> Delivery | str:
        """The station's answer to one command, or a line saying why it was not sent."""
        try:
            target = msgspec.json.decode(raw, type=Target)
            fields = msgspec.json.decode(raw, type=dict[str, Any])
        except msgspec.DecodeError as exc:
            return str(exc).replace("`", "").replace("Object", "command")
        fields.pop("station", None)
        fields.pop("ref", None)
        command = decode_command(msgspec.json.encode(fields))
        if isinstance(command, Refusal):
            return command.reason
        if self.organiser is None:
            return Delivery(outcome="no_broker", station=target.station, cmd=str(fields.get("cmd", "")), id="")
        return await asyncio.wrap_future(self.organiser.deliver(target.station, command))


def _ref_of(raw: bytes) -> str:
    with contextlib.suppress(msgspec.DecodeError):
        ref = msgspec.json.decode(raw, type=dict[str, Any]).get("ref", "")
        return ref[:32] if isinstance(ref, str) else ""
    return ""


def _problem(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"outcome": "bad_request", "reason": detail}, status_code=status, headers=HEADERS)
