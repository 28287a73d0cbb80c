"""Between the station's thread and the page server's event loop: the latest page view the station
published, the open sockets it is pushed to, and the phones' presses and lines on their way in.

Every press or line a page sends has the page's own number (``seq``, counted per page, which keeps
its ``client`` name across reconnects). It goes on the station's queue once, as a ``FromPage``
intent wrapping the very ``ButtonIntent`` or ``Typed`` a button or the console gives; the station
acknowledges it when carried out, and the ack goes to whichever socket the page has then. A page
resends what was not acknowledged when it reconnects; what was already taken is acknowledged again,
never carried out twice. So a phone that sleeps or loses the network mid-press loses no press.
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

import msgspec

from tablekeeper.intents import ButtonIntent, FromPage, Gesture, Intent, Remote, Typed
from tablekeeper.station.controls import is_role
from tablekeeper.web.completion import complete
from tablekeeper.web.view import Snapshot

MAX_CLIENTS: Final = 64  # pages remembered for their acknowledgements
KEEP_OUTCOMES: Final = 64  # acknowledgements kept per page, to repeat after a reconnect
MAX_IN_FLIGHT: Final = 32  # a page's presses on the station's queue at once
MAX_LINE_CHARS: Final = 300
RATE_PER_S: Final = 15.0  # messages a socket may send each second, on average ...
BURST: Final = 40  # ... and at once
CLIENT: Final = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
SLOW_DOWN: Final = "too many messages at once: slow down"


class Hello(msgspec.Struct, tag="hello", tag_field="t", forbid_unknown_fields=True):
    client: str


class Press(msgspec.Struct, tag="press", tag_field="t", forbid_unknown_fields=True):
    seq: int
    role: str
    g: Literal["press", "hold", "release"] = "press"


class Line(msgspec.Struct, tag="line", tag_field="t", forbid_unknown_fields=True):
    seq: int
    text: str


class Complete(msgspec.Struct, tag="complete", tag_field="t", forbid_unknown_fields=True):
    ref: int
    text: str


Incoming = Hello | Press | Line | Complete
_DECODER: Final = msgspec.json.Decoder(Incoming)
_GESTURES: Final = {"press": Gesture.PRESS, "hold": Gesture.HOLD, "release": Gesture.RELEASE}


@dataclass
class Client:
    """One page across its reconnects: the last number it put on the queue, the answers kept, and the
    outbox of the socket it has now (None while it has none)."""

    last_put: int = 0
    in_flight: int = 0
    outcomes: OrderedDict[int, str | None] = field(default_factory=OrderedDict)
    outbox: Outbox | None = None


@dataclass
class Outbox:
    """What one socket still has to send (acks, completions) and the wake-up for its writer."""

    wake: asyncio.Event
    messages: list[bytes] = field(default_factory=list)

    def add(self, message: bytes) -> None:
        self.messages.append(message)
        self.wake.set()


class Bucket:
    """A token bucket on the event loop's clock: ``take`` is False once a socket sends too fast."""

    def __init__(self, now: float) -> None:
        self.tokens = float(BURST)
        self.at = now

    def take(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE_PER_S)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Hub:
    """``deliver`` and ``watching`` are the station thread's; everything else runs on the loop."""

    def __init__(self, put: Callable[[Intent], None], clock: Callable[[], float], joined: Callable[[], None], *,
                 hold_s: float = 0.6) -> None:
        self.put = put
        self.hold_s = hold_s
        self.clock = clock
        self.joined = joined
        self.loop: asyncio.AbstractEventLoop | None = None
        self.latest: Snapshot | None = None
        self.viewers = 0  # open sockets (the station publishes only while there are some)
        self.clients: OrderedDict[str, Client] = OrderedDict()
        self._wakes: set[asyncio.Event] = set()
        self._names: tuple[object, dict[str, tuple[str, ...]]] | None = None

    # --- the station's thread -----------------------------------------------------------------
    def deliver(self, snapshot: Snapshot) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._show, snapshot)

    def watching(self) -> bool:
        return self.viewers > 0

    # --- the loop -----------------------------------------------------------------------------
    def _show(self, snapshot: Snapshot) -> None:
        if self.latest is None or snapshot.version > self.latest.version:
            self.latest = snapshot
            for wake in self._wakes:
                wake.set()

    def opened(self, wake: asyncio.Event) -> None:
        """A socket is open: it is woken for each new view; the station is asked to publish now
        (and to take the join card off the track display: a phone has joined)."""
        self.loop = asyncio.get_running_loop()
        self._wakes.add(wake)
        self.viewers += 1
        self.put(Remote("page joined", self.joined))

    def closed(self, wake: asyncio.Event, client: Client | None) -> None:
        self._wakes.discard(wake)
        self.viewers -= 1
        if client is not None and client.outbox is not None and client.outbox.wake is wake:
            client.outbox = None

    def hello(self, name: str, outbox: Outbox) -> tuple[Client | None, bytes]:
        """The page ``name`` (re)connected: its acks go to ``outbox`` from now on; the answer says the
        last number already taken, so the page resends only what is newer or unanswered."""
        if not CLIENT.match(name):
            return None, encoded({"t": "error", "detail": "hello: a client name is 8-40 letters, digits, - or _"})
        client = self.clients.pop(name, None) or Client()
        self.clients[name] = client
        while len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)
        client.outbox = outbox
        return client, encoded({"t": "hello", "taken": client.last_put, "hold_s": self.hold_s})

    def submit(self, client: Client, seq: int, intent: ButtonIntent | Typed) -> bytes | None:
        """Put the page's ``seq`` on the station's queue once; an answer to send now, if any."""
        if seq <= client.last_put:
            if seq in client.outcomes:
                return ack_message(seq, client.outcomes[seq])
            return None  # on the queue still: acknowledged when carried out
        if client.in_flight >= MAX_IN_FLIGHT:
            return ack_message(seq, SLOW_DOWN, kept=False)
        client.last_put = seq
        client.in_flight += 1
        loop = asyncio.get_running_loop()

        def done(refusal: str | None) -> None:  # the station's thread
            loop.call_soon_threadsafe(self._acked, client, seq, refusal)

        self.put(FromPage(intent, done))
        return None

    def _acked(self, client: Client, seq: int, refusal: str | None) -> None:
        client.in_flight -= 1
        client.outcomes[seq] = refusal
        while len(client.outcomes) > KEEP_OUTCOMES:
            client.outcomes.popitem(last=False)
        if client.outbox is not None:
            client.outbox.add(ack_message(seq, refusal))

    def intent_of(self, message: Press | Line) -> ButtonIntent | Typed | str:
        """The intent a message asks for, or why it cannot be one."""
        if isinstance(message, Press):
            if not is_role(message.role):
                return f"unknown button {message.role!r}"
            return ButtonIntent(message.role, _GESTURES[message.g], self.clock())
        text = message.text
        if len(text) > MAX_LINE_CHARS or any(ord(c) < 32 for c in text):
            return f"a console line is one line of at most {MAX_LINE_CHARS} characters"
        return Typed(text)

    def completions(self, message: Complete) -> bytes:
        snapshot = self.latest
        if snapshot is None or len(message.text) > MAX_LINE_CHARS:
            return encoded({"t": "completions", "ref": message.ref, "choices": []})
        if self._names is None or self._names[0] is not snapshot.state:
            self._names = (snapshot.state, snapshot.game.names(snapshot.state))
        choices = complete(message.text, snapshot.game.all_verbs(), self._names[1])
        return encoded({"t": "completions", "ref": message.ref,
                      "choices": [{"line": c.line, "word": c.word, "hint": c.hint} for c in choices]})


def decode(raw: str | bytes) -> Incoming | str:
    """A page's message, or why it is not one."""
    try:
        message: Incoming = _DECODER.decode(raw)
        return message
    except msgspec.DecodeError as exc:
        return str(exc).replace("`", "")


def ack_message(seq: int, refusal: str | None, *, kept: bool = True) -> bytes:
    """The answer to a page's ``seq``: the refusal it met, and whether the station took it (a page
    resends nothing ``kept``; one not kept, slowed down or malformed, it shows as refused)."""
    return encoded({"t": "ack", "seq": seq, "refused": refusal, "kept": kept})


def encoded(message: object) -> bytes:
    """A message to a page, as the socket sends it (JSON)."""
    return msgspec.json.encode(message)
