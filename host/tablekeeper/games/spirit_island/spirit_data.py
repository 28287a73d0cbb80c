"""Spirits by name (``data/spirits.toml``): their unique Power Cards and Innate Power thresholds, so a
seat can pick a played card from the panel and the station can check an Innate's threshold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from tablekeeper.core.packs import Pack
from tablekeeper.errors import ConfigError
from tablekeeper.games.spirit_island import data_files
from tablekeeper.schema import decode

ELEMENTS = ("sun", "moon", "fire", "air", "water", "earth", "plant", "animal")
SPEEDS = ("fast", "slow")


class SpiritCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    cost: int
    speed: str
    elements: tuple[str, ...] = ()


class Innate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    speed: str
    levels: tuple[dict[str, int], ...]


class Spirit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    cards: tuple[SpiritCard, ...] = ()
    innates: tuple[Innate, ...] = ()


class SpiritBook(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    spirits: dict[str, Spirit]


def _check(book: SpiritBook, source: str) -> None:
    for key, spirit in book.spirits.items():
        for i, card in enumerate(spirit.cards):
            where = f"{source}: spirits.{key}.cards[{i}]"
            if card.speed not in SPEEDS:
                raise ConfigError(f"{where}.speed: expected fast or slow, got {card.speed!r}")
            if card.cost < 0:
                raise ConfigError(f"{where}.cost: expected a whole number >= 0, got {card.cost}")
            bad = [e for e in card.elements if e not in ELEMENTS]
            if bad:
                raise ConfigError(f"{where}.elements: unknown element {bad[0]!r} ({', '.join(ELEMENTS)})")
        for i, innate in enumerate(spirit.innates):
            where = f"{source}: spirits.{key}.innates[{i}]"
            if innate.speed not in SPEEDS:
                raise ConfigError(f"{where}.speed: expected fast or slow, got {innate.speed!r}")
            for j, level in enumerate(innate.levels):
                bad = [e for e in level if e not in ELEMENTS]
                if bad or any(n < 1 for n in level.values()):
                    raise ConfigError(f"{where}.levels[{j}]: expected ELEMENT = N >= 1 "
                                      f"({', '.join(ELEMENTS)})")


def _parse(raw: Mapping[str, object], source: str) -> SpiritBook:
    book = decode(raw, SpiritBook, source=source)
    _check(book, source)
    return book


def load(path: str | None = None, packs: Sequence[Pack] = ()) -> SpiritBook:
    """The packaged Spirits, or a user's copy at ``path``, and the packs' Spirits."""
    return data_files.load("spirits.toml", path, _parse, packs)


def levels_met(innate: Innate, have: dict[str, int]) -> int:
    """How many of the Innate's thresholds the elements meet (0: none, the Power is refused)."""
    return sum(1 for level in innate.levels if all(have.get(e, 0) >= n for e, n in level.items()))


def threshold_text(level: dict[str, int]) -> str:
    return " ".join(f"{n} {e}" for e, n in level.items())
