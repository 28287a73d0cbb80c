"""The organiser's page for the fleet tests: served by uvicorn on a free loopback port, on its own thread."""

from __future__ import annotations

from tablekeeper.fleet.board import Board
from tablekeeper.fleet.organiser import Organiser
from tablekeeper.web.guard import Allowed
from tablekeeper.web.organiser import OrganiserPage
from tablekeeper.web.server import DEFAULT_LIMITS, Limits, PageServer, bind


def page_server(board: Board, organiser: Organiser | None, *, password: str | None = None,
                limits: Limits = DEFAULT_LIMITS) -> PageServer:
    app = OrganiserPage(board, organiser).app(allowed=Allowed.for_bind("127.0.0.1"), limits=limits,
                                              password=password)
    server = PageServer(app, bind("127.0.0.1", 0), limits=limits)
    server.start()
    return server
