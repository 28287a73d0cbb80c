"""MIGHT cards written as ``W2``, ``Y3*``, ``R0`` (colour, value, ``*`` = critical; value 0 = blank)."""

from __future__ import annotations

from dataclasses import dataclass

from tablekeeper.core.numbers import is_number
from tablekeeper.errors import Rejected

COLOURS = ("W", "Y", "R", "B")  # OS-MIGHT-2: weakest to strongest
COLOUR_NAMES = {"W": "white", "Y": "yellow", "R": "red", "B": "black"}
COLOUR_LETTERS = {name: letter for letter, name in COLOUR_NAMES.items()}


@dataclass(frozen=True, slots=True)
class Card:
    colour: str
    value: int
    crit: bool = False

    @property
    def blank(self) -> bool:
        """OS-MIGHT-8 / AMB-1: a blank has no value and counts as 0."""
        return self.value == 0

    @property
    def name(self) -> str:
        return f"{self.colour}{self.value}{'*' if self.crit else ''}"

    @property
    def face(self) -> str:
        """The card without its colour, as a deck composition lists it (``2*``)."""
        return f"{self.value}{'*' if self.crit else ''}"


def parse_card(text: str) -> Card:
    """``W2*`` -> Card('W', 2, True); a clear rejection names the bad text."""
    raw = text.strip().upper()
    crit = raw.endswith("*")
    body = raw.rstrip("*")
    if len(body) < 2 or body[0] not in COLOURS or not is_number(body[1:], signed=False):
        raise Rejected(f"{text!r} is not a MIGHT card (write colour W/Y/R/B, value, optional *: W2, R4*)")
    return Card(body[0], int(body[1:]), crit)


def parse_face(colour: str, face: str) -> Card:
    return parse_card(colour + face)


def colour_of(text: str) -> str:
    """A colour given as a letter or a name (``R``, ``red``)."""
    raw = text.strip()
    if raw.upper() in COLOURS:
        return raw.upper()
    if raw.lower() in COLOUR_LETTERS:
        return COLOUR_LETTERS[raw.lower()]
    raise Rejected(f"{text!r} is not a MIGHT colour (white, yellow, red, black)")


def upgrade(colour: str) -> str:
    """OS-MIGHT-2 / OS-TOK-5: one step up; black cannot be upgraded."""
    i = COLOURS.index(colour)
    if i == len(COLOURS) - 1:
        raise Rejected("a black card cannot be upgraded any further")
    return COLOURS[i + 1]


def apply_upgrades(colours: list[str], steps: int, targets: list[int] | None = None) -> list[str]:
    """OS-ATK-14 / OS-TOK-5: ``steps`` one-step upgrades. ``targets`` names the card index of each
    step; without it each step goes to the strongest card that can still rise (concentrating
    upgrades, which draws the most criticals). A step that would go beyond black is lost; the
    attack still happens (see :func:`steps_lost`)."""
    out = list(colours)
    if steps < 0:
        raise Rejected("upgrade steps cannot be negative")
    if targets is not None and len(targets) != steps:
        raise Rejected(f"{steps} upgrades need {steps} card choices, got {len(targets)}")
    for k in range(steps):
        if targets is not None:
            i = targets[k]
            if not 0 <= i < len(out):
                raise Rejected(f"no card {i + 1} to upgrade (planned {len(out)} cards)")
        else:
            rising = [j for j, c in enumerate(out) if c != "B"]
            if not rising:
                break
            i = max(rising, key=lambda j: (COLOURS.index(out[j]), -j))
        if out[i] != "B":
            out[i] = upgrade(out[i])
    return out


def steps_lost(before: list[str], after: list[str], steps: int) -> int:
    """How many of ``steps`` upgrades went nowhere because their card was already black."""
    return steps - sum(COLOURS.index(b) - COLOURS.index(a) for a, b in zip(before, after, strict=True))
