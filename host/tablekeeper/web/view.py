"""What the phones' pages show, made on the station thread from the screens the displays were just
drawn from (``ui.compose``'s ``Screens``), so a page and the glass can never disagree. Beside each
display's screen: the open question, each seat's LED and counters and what its A and B buttons do
now, what undo would take back, and the last lines of the log in plain words. Encoded once per
change (msgspec) and handed to the page server's thread; the pages get it over their sockets.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import msgspec

from tablekeeper.core.game import Game
from tablekeeper.core.session import taken_back
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import SeatTrack, seat_track
from tablekeeper.errors import Rejected
from tablekeeper.station.counter_tracks import SLOTS, followed
from tablekeeper.ui.model import DisplayScreen, Lights, Screens

if TYPE_CHECKING:
    from tablekeeper.station.loop import Station

LOG_LINES: Final = 8


class LineView(msgspec.Struct, frozen=True):
    text: str
    emphasis: str  # key, normal, detail
    marked: bool = False


class DisplayView(msgspec.Struct, frozen=True):
    """One display's screen as a page draws it (the cover's panel when one is drawn over it)."""

    role: str
    title: str
    lines: tuple[LineView, ...]
    big: str | None = None
    banner: str | None = None
    banner_kind: str | None = None
    covered: bool = False
    legend: bool = False
    join_pin: str | None = None


class QuestionView(msgspec.Struct, frozen=True):
    text: str
    answers: tuple[str, ...]
    pointed: int
    seat: int | None = None


class CounterView(msgspec.Struct, frozen=True):
    track: str
    name: str
    value: int | None


class SeatView(msgspec.Struct, frozen=True):
    """A seat as its page shows it: its LED (steady: its turn or answer; blinking: it still owes a
    move), the command each button gives now, and the tracks its counters follow."""

    seat: int
    light: str  # steady, blinking, off
    a: str | None
    b: str | None
    counters: tuple[CounterView, ...]
    counter_missing: bool = False
    empty: bool = False


class PageView(msgspec.Struct, frozen=True):
    game: str
    seats: int
    displays: tuple[DisplayView, ...]
    question: QuestionView | None
    seat_views: tuple[SeatView, ...]
    undo: str | None
    log: tuple[str, ...]
    locked: bool
    over: str | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One published view: its number, its JSON, the game and state it shows (completion reads them)
    and the screens it was made from."""

    version: int
    body: bytes
    game: Game
    state: GameState
    screens: Screens


def display_view(screen: DisplayScreen) -> DisplayView:
    panel = screen.shown
    lines = tuple(LineView(line.text, line.emphasis.name.lower(), line.marked) for line in screen.lines())
    banner = screen.cover.banner if screen.cover is not None else screen.banner_text
    kind = screen.banner.kind.value if screen.cover is None and screen.banner is not None else None
    return DisplayView(screen.role, panel.title, lines, panel.big, banner, kind, screen.cover is not None,
                       screen.legend_shown, screen.join.pin if screen.join is not None else None)


def light_of(lights: Lights, seat: int) -> str:
    if lights.steady == seat:
        return "steady"
    return "blinking" if seat in lights.blinking else "off"


class Publisher:
    """The station's ``on_screens``: keeps the log's last lines, and when anyone is looking
    (``watching()``) makes the page view, handing a changed one to ``deliver`` (the server's thread)."""

    def __init__(self, deliver: Callable[[Snapshot], None], watching: Callable[[], bool]) -> None:
        self.deliver = deliver
        self.watching = watching
        self.version = 0
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self._body = b""
        self._screens: Screens | None = None
        self._seen: tuple[int, int] | None = None  # (log length, refusals) already in the log

    def __call__(self, station: Station) -> None:
        """After each redraw: a new screens (the only thing a page shows that can change) is published."""
        if station.screens is self._screens:
            return
        self._screens = station.screens
        self._note(station)
        if self.watching():
            self.publish(station)

    def publish(self, station: Station) -> None:
        """Make the view now (also when a page joins) and hand it on if it changed."""
        screens = station.screens
        if screens is None:
            return
        body = msgspec.json.encode(self.view(station, screens))
        if body == self._body:
            return
        self._body = body
        self.version += 1
        self.deliver(Snapshot(self.version, body, station.session.game, station.session.state, screens))

    def view(self, station: Station, screens: Screens) -> PageView:
        session, state = station.session, station.session.state
        game = session.game
        question = None
        if screens.question is not None:
            q = screens.question
            question = QuestionView(q.text, q.answers, q.pointed, q.seat)
        seats = tuple(self._seat(station, game, state, screens.lights, seat)
                      for seat in range(1, max(state.seats, _display_seats(screens)) + 1))
        return PageView(game.title or game.name, state.seats, tuple(display_view(d) for d in screens.displays),
                        question, seats, _undo_text(station), tuple(self.log), station.ui.locked, state.over)

    def _seat(self, station: Station, game: Game, state: GameState, lights: Lights, seat: int) -> SeatView:
        if seat > state.seats:
            return SeatView(seat, "off", None, None, (), empty=True)
        tracks = state.tracks
        followed_tracks = dict.fromkeys(t for slot in SLOTS if (t := followed(game, tracks, seat, slot)) is not None)
        counters = tuple(CounterView(t, _own_word(t, seat), tracks[t].value) for t in followed_tracks)
        return SeatView(seat, light_of(lights, seat), _button_text(game, state, seat_track(seat, "a")),
                        _button_text(game, state, seat_track(seat, "b")), counters,
                        counter_missing=seat in station.ui.missing_counters)

    def _note(self, station: Station) -> None:
        """Add to the log what happened since the last screens: the new entry's notices in plain words
        (its command when it has none), and a refusal."""
        session, stats = station.session, station.stats
        now = (session.log_length, stats.refused_all)
        if self._seen is None:
            self._seen = now
            return
        if now[0] > self._seen[0]:
            said = [note.text for note in session.notes]
            entry = session.undoable
            if said:
                self.log.extend(said)
            elif entry is not None and entry.index == session.log_length and entry.command is not None:
                self.log.append(entry.command.text())
        if now[1] > self._seen[1] and stats.last_refusal is not None:
            self.log.append(f"refused: {stats.last_refusal}")
        self._seen = now


def _display_seats(screens: Screens) -> int:
    seats = [int(role[4:]) for role in screens.roles if role.startswith("seat") and role[4:].isdigit()]
    return max(seats, default=0)


def _own_word(track: str, seat: int) -> str:
    """A seat's own track by its short name on that seat's card (``damage``); any other by its full name."""
    owner = SeatTrack.parse(track)
    return owner.track if owner is not None and owner.seat == seat else track


def _button_text(game: Game, state: GameState, role: str) -> str | None:
    """The command a seat button gives now, as the console would type it (None: it does nothing)."""
    with contextlib.suppress(Rejected):
        command = game.button(state, role, False)
        return command.text() if command is not None else None
    return None


def _undo_text(station: Station) -> str | None:
    """What the panel's BACK (undo) takes back now: a change still being counted, else the last entry."""
    pending = station.controls.pending
    if pending is not None:
        return f"cancel {pending.text()}"
    entry = station.session.undoable
    return taken_back(entry) if entry is not None else None
