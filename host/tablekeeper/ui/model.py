"""The screens every surface draws, as plain data: what each display shows (its panel, the banner at its
foot and why it is there, the track marked as selected, a panel drawn over it), the open question and
the answer pointed at, and the seat LEDs. ``ui.compose`` makes them from the game and the station's UI
state; the OLEDs turn them into pixels (``ui.paint``), the terminal view into text, a web page into
HTML. Nothing here knows about a display's size."""

from __future__ import annotations

from enum import Enum

import msgspec

from tablekeeper.core.view import Panel, Priority


class Lights(msgspec.Struct, frozen=True):
    """The seat LEDs: one steady (whose turn it is), others blinking (still owe in a shared step)."""

    steady: int | None
    blinking: frozenset[int]


class BannerKind(Enum):
    """Why a display's foot shows a line (an OLED draws it inverted)."""

    PENDING = "pending"  # a +/- change being counted, not entered yet
    ANSWER = "answer"  # the open question's answer that NEXT would choose
    MESSAGE = "message"  # a notice or a refusal, for a few seconds
    SAVE = "save"  # the last command could not be saved, or the save is not written at all
    COUNTER = "counter"  # this seat's counter went away
    SEAT = "seat"  # whether this seat owes a move, and what its buttons do
    WAITING = "waiting"  # whom a step played together still waits for
    SELECTED = "selected"  # the track +/- would change, before the first press


class Banner(msgspec.Struct, frozen=True):
    text: str
    kind: BannerKind


class Line(msgspec.Struct, frozen=True):
    """One line of a panel: its text, how much it matters on a small display, whether it names the
    selected track (an OLED marks it)."""

    text: str
    emphasis: Priority
    marked: bool


class Cover(msgspec.Struct, frozen=True):
    """A panel drawn over the display's own (the demo's prompts and attract loop), with a line pinned
    at its foot (a notice on the track display, else the demo's call to action or hint)."""

    panel: Panel
    banner: str | None = None


class JoinCard(msgspec.Struct, frozen=True):
    """How a phone joins the table: the link with its secret, the address and short PIN to type by
    hand, and the link's QR code as rows of modules (True: dark), which the track display draws."""

    link: str
    address: str
    pin: str
    modules: tuple[tuple[bool, ...], ...]


class DisplayScreen(msgspec.Struct, frozen=True):
    """What one display shows: ``panel`` (the game's, the menu, or the key to its short forms while
    ``legend_shown``), the ``banner`` at its foot, the ``selected`` track, a ``cover`` over it all, and
    the ``join`` card in place of everything while phones are invited."""

    role: str
    panel: Panel
    banner: Banner | None = None
    selected: str | None = None
    legend_shown: bool = False
    cover: Cover | None = None
    join: JoinCard | None = None

    @property
    def banner_text(self) -> str | None:
        return self.banner.text if self.banner is not None else None

    @property
    def shown(self) -> Panel:
        """The panel a person sees (the cover's, when there is one)."""
        return self.cover.panel if self.cover is not None else self.panel

    def lines(self) -> tuple[Line, ...]:
        """The shown panel's lines with their emphasis and the selected track's mark."""
        panel = self.shown
        selected = self.selected if self.cover is None else None
        return tuple(Line(text, panel.priority(i), selected is not None and names_track(text, selected))
                     for i, text in enumerate(panel.lines))


class Question(msgspec.Struct, frozen=True):
    """The open question: its text, its answers, the one NEXT would choose (0-based) and whose it is."""

    text: str
    answers: tuple[str, ...]
    pointed: int
    seat: int | None


class Screens(msgspec.Struct, frozen=True):
    """Every display's screen (in the station's display order), the open question, the seat LEDs, and
    the page a display with a long screen shows now (OLEDs page; a page that scrolls may ignore it)."""

    displays: tuple[DisplayScreen, ...]
    question: Question | None
    lights: Lights
    page: int = 0

    def display(self, role: str) -> DisplayScreen | None:
        return next((d for d in self.displays if d.role == role), None)

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(d.role for d in self.displays)


def names_track(line: str, track: str) -> bool:
    """Whether ``line`` is the selected track's (its first word, before a colon, is the track's name)."""
    words = line.strip().lower().split()
    return bool(words) and words[0].rstrip(":") == track.lower()
