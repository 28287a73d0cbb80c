"""How a phone joins the table: a secret drawn for this run of the station, carried in the link; a
short PIN that trades for the link where a phone cannot scan; the address a phone can reach; and the
link's QR code (segno), drawn on the track display and served as SVG for each seat on the table page.
"""

from __future__ import annotations

import base64
import contextlib
import io
import secrets
import socket
from dataclasses import dataclass
from typing import Final
from urllib.parse import quote

import segno

from tablekeeper.ui.model import JoinCard

SECRET_BYTES: Final = 10  # 80 bits, 16 characters of base32: the link still fits a version-3 code
PIN_DIGITS: Final = 6
ANY_ADDRESS: Final = ("0.0.0.0", "::", "")


def new_secret() -> str:
    """A fresh secret for the links: base32, upper case, no padding (16 characters)."""
    return base64.b32encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii").rstrip("=")


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def reachable_address(bound: str) -> str:
    """The address a phone on the LAN types for a page bound to ``bound``: that address itself, or
    for every address (0.0.0.0, ::) the one this machine's LAN traffic leaves from (no packet is
    sent: a UDP socket is only connected), else loopback."""
    if bound not in ANY_ADDRESS:
        return bound
    family, probe = (socket.AF_INET6, "fd00::1") if bound == "::" else (socket.AF_INET, "10.255.255.255")
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as sock:
        sock.connect((probe, 9))
        return str(sock.getsockname()[0])
    return "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Invitation:
    """This run's secret and PIN, and where the pages are reached (``address``: host and port)."""

    address: str
    secret: str
    pin: str
    scheme: str = "http"

    @classmethod
    def new(cls, host: str, port: int, scheme: str = "http") -> Invitation:
        name = f"[{host}]" if ":" in host else host
        return cls(f"{name}:{port}", new_secret(), new_pin(), scheme)

    def link(self, path: str = "/") -> str:
        return f"{self.scheme}://{self.address}{path}?k={quote(self.secret)}"

    def seat_link(self, seat: int) -> str:
        return self.link(f"/seat/{seat}")

    def card(self) -> JoinCard:
        """The track display's card: the table page's link as a QR code, the address and the PIN."""
        code = segno.make(self.link(), error="l", micro=False, boost_error=False)
        modules = tuple(tuple(bool(cell) for cell in row) for row in code.matrix)
        return JoinCard(self.link(), self.address, self.pin, modules)


def qr_svg(link: str) -> bytes:
    """``link`` as an SVG QR code (for the table page's seat codes)."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                                   svgns=True, title=None, desc=None)
    return out.getvalue()
