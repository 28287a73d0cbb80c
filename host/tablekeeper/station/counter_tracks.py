"""Which seat track each slot of a counter follows in the game being played (docs/config.md, counters).

A maker plugs the same counters into every game, so the game, not the counter, says what its HP die
and its dial count; a slot the game has no track for is not used there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from tablekeeper.core.tracks import seat_track
from tablekeeper.hw.protocol import ROLE_SLOTS as ROLE_SLOTS

if TYPE_CHECKING:
    from tablekeeper.core.game import Game

# Every counter slot (``ROLE_SLOTS``: each role's, in wire order), and how the counters label them.
SLOTS: Final = tuple(slot for slots in ROLE_SLOTS.values() for slot in slots)
_LABELS: Final = {"hp": "HP counter", "damage": "dial DMG", "horror": "dial HOR", "clues": "dial CLU",
                  "resources": "dial RES"}
# A dial shows three letters a slot; the seat tracks' words the games have, shortened.
DIAL_SHORT: Final = {"damage": "DMG", "horror": "HOR", "clues": "CLU", "resources": "RES", "energy": "NRG",
                     "animus": "ANI", "injury": "INJ", "hp": "HP"}
UNUSED: Final = {"hp": "not used"}  # an HP die's screen has room for words; a dial's slot shows "--"


def followed(game: Game, tracks: Mapping[str, object], seat: int, slot: str) -> str | None:
    """The track (``seat1.damage``) that ``slot`` of seat ``seat``'s counter follows: the game's
    ``counter_tracks`` entry, else the slot's own name; None when the game has no such seat track."""
    suffix = game.counter_tracks.get(slot, slot)
    if suffix is None:
        return None
    name = seat_track(seat, suffix)
    return name if name in tracks else None


def unused_slots(game: Game, tracks: Mapping[str, object], seat: int, role: str) -> tuple[str, ...]:
    """The slots of a ``role`` counter on ``seat`` that follow nothing in this game."""
    return tuple(slot for slot in ROLE_SLOTS.get(role, ()) if followed(game, tracks, seat, slot) is None)


def unused_text(game: Game, seat: int, what: str) -> str:
    """The one notice for a counter (``what``: a role) or a slot that this game does not use."""
    label = _LABELS.get(what, f"{what} counter")
    return f"seat {seat} {label}: not used in {game.title or game.name}"


def label(game: Game, tracks: Mapping[str, object], seat: int, slot: str) -> str:
    """What a counter's screen calls ``slot`` in this game: the followed track in the game's words
    (Arkham's HP die "damage", Oathsworn's "HP"), three letters on a dial ("DMG", "NRG")."""
    name = followed(game, tracks, seat, slot)
    if name is None:
        return UNUSED.get(slot, "--")
    suffix = name.partition(".")[2]
    if slot != "hp":
        return DIAL_SHORT.get(suffix, suffix[:3].upper())
    return game.track_words.get(suffix) or ("HP" if suffix == "hp" else suffix.replace("_", " "))
