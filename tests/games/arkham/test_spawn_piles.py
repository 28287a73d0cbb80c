"""Enemies that come into play by their own spawn instruction or out of a search of the encounter deck
and discard pile, driven through the verbs a table types: the table's word that one came in exhausted
holds whichever way it spawns, and whatever leaves the deck or the pile is taken out of that one's count."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.arkham import encounter

from .helpers import answer, data, do, new


def enemy(s: Session, name: str) -> dict[str, Any]:
    found: dict[str, Any] = data(s, "enemies")[name]
    return found


def keep_table_word(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The box as it was: a card's own spawn instruction built the enemy ready whatever the table said."""
    if protection == "protection-removed":
        original = encounter.spawn_card

        def ready_always(*args: Any, **kwargs: Any) -> None:
            kwargs.pop("ready", None)
            original(*args, **kwargs)

        monkeypatch.setattr(encounter, "spawn_card", ready_always)


def open_the_house(s: Session) -> Session:
    """The Gathering's act 1 (01108) puts the Hallway, Attic, Cellar and Parlor into play."""
    do(s, "set seat1.clues 4", "next")
    while s.state.step != "2.2" or s.state.active_seat is None:
        do(s, "next" if s.state.step != "2.2" else "turn seat1")
    return do(s, "spend-clues seat1:4")


# --- 1: `enemy SEAT NAME exhausted` for a card with its own spawn instruction -----------------------
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_an_icy_ghoul_typed_exhausted_spawns_exhausted_at_the_cellar(monkeypatch: pytest.MonkeyPatch,
                                                                    protection: str) -> None:
    """Icy Ghoul (01119) spawns at the Cellar by its own text; seat 2 is there. Exhausted, it engages
    nobody; built ready, it would engage seat 2 at once."""
    keep_table_word(monkeypatch, protection)
    s = open_the_house(new())
    do(s, "enter seat2 Cellar", "enemy seat1 Icy Ghoul exhausted")
    ghoul = enemy(s, "Icy Ghoul")
    if protection == "protection-removed":
        assert ghoul["ready"] is True and ghoul["engaged"] == 2
        return
    assert ghoul["ready"] is False and ghoul["engaged"] is None and ghoul["location"] == "Cellar"


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_an_acolyte_typed_exhausted_stays_exhausted_at_the_empty_location_picked(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Acolyte (01169) spawns at an empty location the players pick: the question comes between the
    table's word and the spawn, and the word survives it."""
    keep_table_word(monkeypatch, protection)
    s = new(scenario_id="midnight_masks")
    do(s, "enemy seat1 Acolyte exhausted")
    answer(s, "Easttown")
    assert enemy(s, "Acolyte")["ready"] is (protection == "protection-removed")
    assert enemy(s, "Acolyte")["location"] == "Easttown" and enemy(s, "Acolyte")["doom"] == 1


def test_an_enemy_typed_without_exhausted_by_its_spawn_instruction_is_ready() -> None:
    s = open_the_house(new())
    do(s, "enter seat2 Cellar", "enemy seat1 Icy Ghoul")
    assert enemy(s, "Icy Ghoul")["ready"] is True and enemy(s, "Icy Ghoul")["engaged"] == 2
