"""Locations from the scenario's data: placed unrevealed with their printed numbers (or the cards
they may turn out to be), revealed with their clues (AH-CLUE-2), and connected by the symbols
printed on them. Pure functions of records; ``board.py`` keeps them in the state."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from tablekeeper.errors import Rejected
from tablekeeper.games.arkham.content import LocationCard, LocationSpec
from tablekeeper.games.arkham.records import Location
from tablekeeper.games.arkham.rules import per_investigator


def copies(name: str, spec: LocationSpec) -> list[str]:
    """The names a location is placed under: itself, or "NAME 1".."NAME k" for several copies."""
    return [name] if spec.copies == 1 else [f"{name} {i}" for i in range(1, spec.copies + 1)]


def placed(key: str, spec: LocationSpec) -> Location:
    """A location put into play from the data: unrevealed, its clues not yet placed; when it may be
    one of several cards, which one is asked when it is revealed."""
    return Location(shroud=spec.shroud or 0, clue_value=spec.clues or 0, per_investigator=spec.per_investigator,
                    spec=key, card=spec.card, candidates=tuple(v.name for v in spec.variants),
                    symbol=spec.symbol, links=spec.connects, victory=spec.victory, investigate=spec.investigate,
                    barrier=spec.barrier, on_enter=spec.on_enter, leave_test=spec.leave_test)


def variant(spec: LocationSpec, name: str) -> LocationCard:
    for card in spec.variants:
        if card.name == name:
            return card
    raise Rejected(f"no card {name!r} for this location (cards: {', '.join(v.name for v in spec.variants)})")


def as_card(place: Location, card: LocationCard) -> Location:
    """The location once known to be ``card``: its own numbers, symbol and connections."""
    return replace(place, variant=card.name, candidates=(), card=card.card or place.card,
                   shroud=place.shroud if card.shroud is None else card.shroud,
                   clue_value=place.clue_value if card.clues is None else card.clues,
                   per_investigator=card.per_investigator, victory=card.victory or place.victory,
                   symbol=card.symbol or place.symbol,
                   links=place.links if card.connects is None else card.connects,
                   on_enter=card.on_enter or place.on_enter, investigate=card.investigate or place.investigate,
                   leave_test=card.leave_test or place.leave_test)


def revealed(place: Location, investigators: int) -> tuple[Location, int]:
    """AH-CLUE-2: turned face up, its clue value (per investigator if so printed) placed on it."""
    clues = per_investigator(place.clue_value, place.per_investigator, investigators)
    return replace(place, revealed=True, clues=place.clues + clues, barrier=False), clues


def relinked(table: Mapping[str, Location]) -> dict[str, Location]:
    """Connections of the data's locations from their symbols (a typed location keeps its own)."""
    out = dict(table)
    for name, place in table.items():
        if place.spec is None or place.symbol is None:
            continue
        linked = sorted(other for other, there in table.items()
                        if other != name and there.symbol is not None and there.symbol in place.links)
        if tuple(linked) != place.connections:
            out[name] = replace(place, connections=tuple(linked))
    return out
