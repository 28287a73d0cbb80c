"""Spirits by key (``data/spirits.toml``): their unique Power Cards, Innate Powers (thresholds and
what each level does), presence tracks and setup, so a seat can pick a played card from the panel,
the station can check an Innate's threshold, and uncovering a track space sets the Spirit's Energy
per turn, Card Plays and elements."""

# Annotations stay objects here (no ``from __future__ import annotations``): msgspec reads these records'
# annotations at the first decode of every start, and compiles and evaluates each one given as a string.
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec

from tablekeeper.core.numbers import is_number
from tablekeeper.core.packs import Pack
from tablekeeper.errors import ConfigError
from tablekeeper.games.spirit_island import data_files
from tablekeeper.games.spirit_island.data import Piece
from tablekeeper.schema import decode

ELEMENTS = ("sun", "moon", "fire", "air", "water", "earth", "plant", "animal")
SPEEDS = ("fast", "slow")
EXTRAS = ("any", "reclaim one")  # track spaces that are neither a number nor an element

Whole = Annotated[int, msgspec.Meta(ge=0)]


class SpiritCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    cost: Whole
    speed: Literal["fast", "slow"]
    elements: tuple[str, ...] = ()


class InnateLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    threshold: dict[str, Annotated[int, msgspec.Meta(ge=1)]]
    effect: str = ""


class Innate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    speed: Literal["fast", "slow"]
    levels: Annotated[tuple[InnateLevel, ...], msgspec.Meta(min_length=1)]
    fast_with: dict[str, Annotated[int, msgspec.Meta(ge=1)]] = {}  # these elements make it Fast


class Start(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where setup puts some of the Spirit's Presence on its starting board: the highest-numbered
    land of a terrain (``no_dahan``: one without Dahan), land N, 1 in each of the N lands with the
    most Dahan, or somewhere the station does not track (``where``: said to the players)."""

    count: Annotated[int, msgspec.Meta(ge=1)]
    terrain: str = ""
    no_dahan: bool = False
    land: Annotated[int, msgspec.Meta(ge=0, le=8)] = 0
    most_dahan: Whole = 0
    where: str = ""


class Spirit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    energy_track: Annotated[tuple[str, ...], msgspec.Meta(min_length=1)] = ("1",)
    plays_track: Annotated[tuple[str, ...], msgspec.Meta(min_length=1)] = ("1",)
    verified: bool = False
    source: str = ""
    setup: str = ""
    start: tuple[Start, ...] = ()
    special_rules: tuple[str, ...] = ()
    defend_at_sacred_sites: Whole = 0
    slow_as_fast_per: str = ""  # each of these elements lets one Slow Power be used as if Fast
    # Sworn to Victory: for each Dahan a Ravage destroys, 1 of its Presence within this Range is destroyed
    presence_per_ravaged_dahan_within: Whole | None = None
    # Choke the Land with Green: a Ravage or Build in a land with its Sacred Site may be stopped by
    # destroying 1 of its Presence there
    stops_invaders_at_sacred_sites: bool = False
    # To Dream a Thousand Deaths: what its Powers would destroy becomes this much Fear per piece
    # instead (explorer, town, city), and the pieces named in ``pushes_instead`` are pushed
    destroys_as_fear: dict[Piece, Whole] = {}
    pushes_instead: tuple[Piece, ...] = ()
    cards: tuple[SpiritCard, ...] = ()
    innates: tuple[Innate, ...] = ()


class SpiritBook(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    spirits: dict[str, Spirit]

    def find(self, text: str) -> str | None:
        """The key of the Spirit typed by key or by name (any case)."""
        wanted = text.strip().lower()
        for key, spirit in self.spirits.items():
            if wanted in (key.lower(), spirit.name.lower()):
                return key
        return None


@dataclass(frozen=True, slots=True)
class TrackState:
    """What a Spirit's uncovered presence track spaces give each turn."""

    energy: int
    plays: int
    elements: tuple[str, ...]  # gained every turn
    any_elements: int  # elements of the player's choice every turn
    reclaim_one: bool


def track_state(spirit: Spirit, energy_uncovered: int, plays_uncovered: int) -> TrackState:
    """The highest uncovered number on each track, and every uncovered element or extra; the first
    space of each track is uncovered from the start, ``*_uncovered`` count the spaces beyond it."""
    energy_spaces = spirit.energy_track[:1 + energy_uncovered]
    plays_spaces = spirit.plays_track[:1 + plays_uncovered]
    spaces = (*energy_spaces, *plays_spaces)
    return TrackState(
        energy=max((int(s) for s in energy_spaces if is_number(s, signed=False)), default=0),
        plays=max((int(s) for s in plays_spaces if is_number(s, signed=False)), default=0),
        elements=tuple(s for s in spaces if s in ELEMENTS),
        any_elements=sum(1 for s in spaces if s == "any"),
        reclaim_one="reclaim one" in spaces)


def _check(book: SpiritBook, source: str) -> None:
    for key, spirit in book.spirits.items():
        for i, card in enumerate(spirit.cards):
            bad = [e for e in card.elements if e not in ELEMENTS]
            if bad:
                raise ConfigError(f"{source}: spirits.{key}.cards[{i}].elements: unknown element {bad[0]!r} "
                                  f"({', '.join(ELEMENTS)})")
        for i, innate in enumerate(spirit.innates):
            for j, level in enumerate(innate.levels):
                bad = [e for e in (*level.threshold, *innate.fast_with) if e not in ELEMENTS]
                if bad:
                    raise ConfigError(f"{source}: spirits.{key}.innates[{i}].levels[{j}].threshold: unknown "
                                      f"element {bad[0]!r} ({', '.join(ELEMENTS)})")
        for track in ("energy_track", "plays_track"):
            for i, space in enumerate(getattr(spirit, track)):
                if not (is_number(space, signed=False) or space in ELEMENTS or space in EXTRAS):
                    raise ConfigError(f"{source}: spirits.{key}.{track}[{i}]: {space!r} is no number, element "
                                      f"or {' / '.join(EXTRAS)}")
            if not is_number(getattr(spirit, track)[0], signed=False):
                raise ConfigError(f"{source}: spirits.{key}.{track}[0]: the first space must be a number")


def _parse(raw: Mapping[str, object], source: str) -> SpiritBook:
    book = decode(raw, SpiritBook, source=source)
    _check(book, source)
    return book


def load(path: str | None = None, packs: Sequence[Pack] = ()) -> SpiritBook:
    """The packaged Spirits and the packs', or a user's copy at ``path``."""
    return data_files.load("spirits.toml", path, _parse, packs)


def levels_met(innate: Innate, have: dict[str, int]) -> int:
    """How many of the Innate's thresholds the elements meet (0: none, the Power is refused)."""
    return sum(1 for level in innate.levels if meets(level.threshold, have))


def meets(threshold: Mapping[str, int], have: Mapping[str, int]) -> bool:
    return all(have.get(e, 0) >= n for e, n in threshold.items())


def threshold_text(level: Mapping[str, int]) -> str:
    return " ".join(f"{n} {e}" for e, n in level.items())
