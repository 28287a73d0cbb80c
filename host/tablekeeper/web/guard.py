"""Who may ask a page anything, and how much: the ASGI middleware every page is wrapped in.

A page on the LAN (or on the organiser's laptop) is reachable from any web page a visitor opens in
the same browser: DNS rebinding gives a foreign site a name that points here, and a foreign page may
open a WebSocket to any address. So every request and every socket must name this server in
``Host`` (Starlette's ``TrustedHostMiddleware``) and, when it comes from a page, in ``Origin``; a
body is refused past a bound before it is read whole; off loopback a password is asked for.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def is_loopback(host: str) -> bool:
    """True for a loopback address or ``localhost`` (a page bound there needs no password)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Allowed:
    """The names this server answers to (a ``Host`` or an ``Origin`` must name one of them)."""

    names: tuple[str, ...]

    @classmethod
    def for_bind(cls, bind: str, extra: Iterable[str] = ()) -> Allowed:
        """Loopback's names, the bound address when it is one address (not 0.0.0.0 or ::), and ``extra``
        (the names the organiser types: ``fleet.local``, a LAN address)."""
        names = [*LOOPBACK_NAMES]
        if bind not in ("0.0.0.0", "::", ""):
            names.append(bind)
        names += [name.strip().lower() for name in extra if name.strip()]
        return cls(tuple(dict.fromkeys(n.strip("[]").lower() for n in names)))

    def host_patterns(self) -> list[str]:
        """The names as TrustedHostMiddleware compares them (an IPv6 address in brackets)."""
        return [f"[{n}]" if ":" in n else n for n in self.names]

    def origin_ok(self, origin: str) -> bool:
        try:
            parts = urlsplit(origin)
            host = parts.hostname
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and host is not None and host.lower() in self.names


class OriginGuard:
    """Refuses a request whose ``Origin`` names another site, and a WebSocket without one (a browser
    always sends it; a socket without one is not a page's). Plain clients (curl) send none on HTTP."""

    def __init__(self, app: ASGIApp, allowed: Allowed) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            origin = Headers(scope=scope).get("origin")
            if origin is None and scope["type"] == "websocket":
                await PlainTextResponse("a page's socket must say its Origin\n", 403)(scope, receive, send)
                return
            if origin is not None and not self.allowed.origin_ok(origin):
                await PlainTextResponse("Origin is not this page\n", 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """A request body past ``max_bytes`` is refused (413) by its Content-Length before it is read, or
    as soon as the bytes received pass the bound (a chunked body has no length)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isascii() or not declared.isdigit()
                                     or int(declared) > self.max_bytes):
            await _too_large(self.max_bytes)(scope, receive, send)
            return
        received = 0
        started = False

        async def bounded_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _BodyTooLarge
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, bounded_receive, watched_send)
        except _BodyTooLarge:
            if not started:
                await _too_large(self.max_bytes)(scope, receive, send)


class _BodyTooLarge(Exception):
    """Raised inside a handler's ``receive`` once a body passes the bound; BodyLimit answers 413."""


def _too_large(max_bytes: int) -> PlainTextResponse:
    return PlainTextResponse(f"a request body may hold at most {max_bytes} bytes\n", 413)


class PasswordGuard:
    """HTTP basic authentication with one password (the user name is not checked), compared in constant
    time; only ever over TLS or on loopback (``serve`` refuses anything else)."""

    def __init__(self, app: ASGIApp, password: str, realm: str) -> None:
        self.app = app
        self.password = password.encode("utf-8")
        self.realm = realm

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self._given(Headers(scope=scope)):
            headers = {"WWW-Authenticate": f'Basic realm="{self.realm}", charset="UTF-8"'}
            await PlainTextResponse("this page needs its password\n", 401, headers=headers)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _given(self, headers: Headers) -> bool:
        header = headers.get("authorization", "")
        if not header.startswith("Basic "):
            return False
        try:
            _user, _, given = base64.b64decode(header[6:], validate=True).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return False
        return secrets.compare_digest(given.encode("utf-8"), self.password)


def guarded(app: ASGIApp, *, allowed: Allowed, max_body_bytes: int, password: str | None = None,
            realm: str = "Tablekeeper") -> ASGIApp:
    """``app`` behind every guard, outermost first: Host, Origin, password, body size."""
    inner: ASGIApp = BodyLimit(app, max_body_bytes)
    if password is not None:
        inner = PasswordGuard(inner, password, realm)
    return TrustedHostMiddleware(OriginGuard(inner, allowed), allowed_hosts=allowed.host_patterns(),
                                 www_redirect=False)
