"""Enemies that come into play by their own spawn instruction or out of a search of the encounter deck
and discard pile, driven through the verbs a table types: the table's word that one came in exhausted
holds whichever way it spawns, and whatever leaves the deck or the pile is taken out of that one's count."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.arkham import board, encounter, piles

from .helpers import answer, data, do, new, start_turn, to_step, track


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


# --- 3: an enemy searched out of the encounter deck and discard pile leaves the pile it was in ------------
def count_taking(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The box as it was: the enemy found came out of neither pile's count."""
    if protection == "protection-removed":
        monkeypatch.setattr(piles, "take", lambda txn, pile: None)


def piles_now(s: Session) -> tuple[int, int]:
    return track(s, "encounter.deck"), track(s, "encounter.discard")


def failed_hard_skull(s: Session) -> Session:
    """The Gathering, Hard/Expert (01104's back): a failed test with the skull draws a Ghoul enemy."""
    do(s, "test seat1 intellect 1 4", "reveal chaos skull", "resolve")
    assert s.state.prompt is not None and s.state.prompt.id == "step_draw"
    return s


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_the_hard_skull_takes_the_ghoul_from_the_deck_when_the_discard_pile_is_empty(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    count_taking(monkeypatch, protection)
    s = new(difficulty="hard")
    deck, discard = piles_now(s)
    assert discard == 0
    answer(failed_hard_skull(s), "Ravenous Ghoul")
    assert s.state.prompt is None  # only the deck could hold it: no question
    assert enemy(s, "Ravenous Ghoul")["engaged"] == 1
    taken = 0 if protection == "protection-removed" else 1
    assert piles_now(s) == (deck - taken, 0)


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize(("pile", "deck_taken", "discard_taken"), [("deck", 1, 0), ("discard pile", 0, 1)])
def test_the_hard_skull_asks_which_pile_when_both_could_hold_the_ghoul(
        monkeypatch: pytest.MonkeyPatch, protection: str, pile: str, deck_taken: int, discard_taken: int) -> None:
    count_taking(monkeypatch, protection)
    s = new(difficulty="hard")
    do(s, "set encounter.discard 3")
    deck, _ = piles_now(s)
    answer(failed_hard_skull(s), "Ghoul Minion")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "step_draw_pile"
    assert prompt.options == (f"the encounter deck ({deck})", "the encounter discard pile (3)")
    assert "Ghoul Minion" not in data(s, "enemies")  # it spawns once the pile is named
    answer(s, pile)
    assert enemy(s, "Ghoul Minion")["engaged"] == 1
    if protection == "protection-removed":
        assert piles_now(s) == (deck, 3)
        return
    assert piles_now(s) == (deck - deck_taken, 3 - discard_taken)
    assert f"skull: Ghoul Minion is taken out of the encounter {pile}" in data(s, "notices")


def test_none_found_takes_nothing() -> None:
    s = new(difficulty="hard")
    do(s, "set encounter.discard 3")
    before = piles_now(s)
    answer(failed_hard_skull(s), "none found")
    assert s.state.prompt is None and piles_now(s) == before and data(s, "enemies") == {}


def test_the_midnight_masks_cultist_deck_is_neither_encounter_pile() -> None:
    """Act 1 (01123) draws from the set-aside Cultist deck: a separate deck, never asked about."""
    s = new(scenario_id="midnight_masks")
    do(s, "set encounter.discard 3")
    before = piles_now(s)
    do(s, "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4")
    answer(s, "Ruth Turner")
    assert s.state.prompt is None and piles_now(s) == before
    assert enemy(s, "Ruth Turner")["location"] == "St. Mary's Hospital"


@pytest.mark.parametrize("discard", [0, 2])
def test_mysterious_chanting_with_no_cultist_in_play_draws_one_from_the_pile_it_names(discard: int) -> None:
    """Mysterious Chanting (01171), no Cultist enemy in play: the search finds an Acolyte. The Chanting is
    counted in the discard pile while it resolves but is no card the search could find, so with the
    pile empty before it the Acolyte came out of the deck without a question."""
    s = new(scenario_id="midnight_masks", seats=1)  # one draw: the deck's count moves for this card alone
    to_step(s, "mythos", "1.4")
    if discard:
        do(s, f"set encounter.discard {discard}")
    deck, _ = piles_now(s)
    answer(s, "Mysterious Chanting")
    answer(s, "Acolyte")
    if discard:
        assert s.state.prompt is not None and s.state.prompt.id == "step_draw_pile"
        answer(s, "discard pile")
    answer(s, "Easttown")  # Acolyte: any empty location
    assert enemy(s, "Acolyte")["location"] == "Easttown"
    assert piles_now(s) == ((deck, discard) if discard else (deck - 1, 1))


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_the_chanting_itself_is_no_card_of_the_discard_pile_to_search(monkeypatch: pytest.MonkeyPatch,
                                                                       protection: str) -> None:
    """Counted without that care, the discard pile's 1 (the Chanting) would raise a needless question."""
    if protection == "protection-removed":
        monkeypatch.setattr(piles, "searched", lambda state, source: piles.could_hold(
            state.value("encounter.deck"), state.value("encounter.discard")))
    s = new(scenario_id="midnight_masks", seats=1)
    to_step(s, "mythos", "1.4")
    answer(s, "Mysterious Chanting")
    answer(s, "Acolyte")
    prompt = s.state.prompt
    assert prompt is not None
    assert prompt.id == ("step_draw_pile" if protection == "protection-removed" else "spawn_where")


def test_the_pile_question_stops_the_automatic_run() -> None:
    """Played as `tablekeeper play` runs it: the question waits for its answer, and then the run goes on."""
    from tests.games.played import ok, opened

    play = opened("arkham", seats=2, difficulty="hard")
    ok(play, "set encounter.discard 2", "test seat1 intellect 1 4", "reveal chaos skull", "resolve")
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.id == "step_draw"
    ok(play, f"choose {prompt.options.index('Ghoul Minion') + 1}")
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.id == "step_draw_pile"
    ok(play, "choose 2")
    assert play.session.state.prompt is None and track(play.session, "encounter.discard") == 1


# --- 4: every encounter card stays counted somewhere -------------------------------------------------------
def encounter_cards_counted(s: Session) -> int:
    """Deck, discard pile, and the scenario's encounter cards in play (enemies and treacheries)."""
    in_play = [e for e in data(s, "enemies").values() if e.get("card")]
    return track(s, "encounter.deck") + track(s, "encounter.discard") + len(in_play) + len(data(s, "treacheries"))


def test_a_round_of_draws_defeats_and_searches_keeps_every_encounter_card_counted() -> None:
    """The Gathering, Hard: two draws (an enemy, a treachery that stays), the enemy defeated, the
    treachery discarded, then the skull's search finds a Ghoul in the discard pile; after each, the
    deck, the discard pile and the cards in play add up to the deck the scenario began with."""
    s = new(difficulty="hard")
    total = encounter_cards_counted(s)
    to_step(s, "mythos", "1.4")
    answer(s, "Ghoul Minion")
    answer(s, "Obscuring Fog")
    assert encounter_cards_counted(s) == total
    do(s, "harm-enemy Ghoul Minion 2", "discard-treachery Obscuring Fog")
    assert track(s, "encounter.discard") == 2 and encounter_cards_counted(s) == total
    answer(failed_hard_skull(s), "Ghoul Minion")
    answer(s, "discard pile")
    assert track(s, "encounter.discard") == 1 and encounter_cards_counted(s) == total


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_an_enemy_added_to_the_victory_display_leaves_play(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """An enemy typed into the victory display (``victory N NAME``, as a parley puts Ruth Turner, 01141,
    there) leaves the board, her doom with her, and counts for act 1's objective (Cultists in the victory
    display)."""
    if protection == "protection-removed":
        monkeypatch.setattr(board, "enemy_to_victory", lambda txn, name: None)
    s = new(scenario_id="midnight_masks")
    do(s, "enemy seat1 Ruth Turner", "enemy-doom Ruth Turner +1")
    discard = track(s, "encounter.discard")
    do(s, "victory 1 Ruth Turner")
    assert data(s, "victory")[-1] == 1 and track(s, "encounter.discard") == discard
    if protection == "protection-removed":
        assert "Ruth Turner" in data(s, "enemies")
        return
    assert "Ruth Turner" not in data(s, "enemies") and track(s, "doom.other") == 0


# --- 4: an enemy typed that another effect drew leaves the pile it was in -----------------------------
def count_typed(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The box as it was: an `enemy` line outside the 1.4 draw took nothing from either pile."""
    if protection == "protection-removed":
        monkeypatch.setattr(piles, "typed", lambda state, name: ())


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_an_enemy_typed_with_an_empty_discard_pile_leaves_the_deck(monkeypatch: pytest.MonkeyPatch,
                                                                    protection: str) -> None:
    count_typed(monkeypatch, protection)
    s = start_turn(new(), 1)
    deck, discard = piles_now(s)
    assert discard == 0
    do(s, "enemy seat1 Ghoul Minion")
    assert s.state.prompt is None and enemy(s, "Ghoul Minion")["engaged"] == 1
    assert piles_now(s) == (deck - (1 if protection == "on" else 0), 0)


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize(("pile", "deck_taken", "discard_taken"), [("deck", 1, 0), ("discard pile", 0, 1)])
def test_an_enemy_typed_when_both_piles_could_hold_it_asks_which(
        monkeypatch: pytest.MonkeyPatch, protection: str, pile: str, deck_taken: int, discard_taken: int) -> None:
    count_typed(monkeypatch, protection)
    s = start_turn(new(), 1)
    do(s, "set encounter.discard 2")
    deck, _ = piles_now(s)
    do(s, "enemy seat2 Ravenous Ghoul")
    if protection == "protection-removed":
        assert s.state.prompt is None and piles_now(s) == (deck, 2)
        return
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "enemy_pile" and prompt.seat == 2
    assert prompt.text == "Seat 2: where was Ravenous Ghoul found?"
    assert prompt.options == (f"the encounter deck ({deck})", "the encounter discard pile (2)")
    assert data(s, "enemies") == {}  # it spawns once the pile is named
    answer(s, pile)
    assert enemy(s, "Ravenous Ghoul")["engaged"] == 2
    assert piles_now(s) == (deck - deck_taken, 2 - discard_taken)
    assert f"Ravenous Ghoul is taken out of the encounter {pile}" in data(s, "notices")


def test_the_pile_question_keeps_what_the_line_typed() -> None:
    """The answer brings in the enemy exactly as its line was read: the typed numbers, flags and place
    travel with the question."""
    s = start_turn(new(), 1)
    do(s, "set encounter.discard 2", "enemy seat2 Ravenous Ghoul fight=5 exhausted at=Study")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "enemy_pile"
    answer(s, "discard pile")
    foe = enemy(s, "Ravenous Ghoul")
    assert (foe["fight"], foe["ready"], foe["location"], foe["engaged"]) == (5, False, "Study", None)


def test_an_enemy_typed_from_the_discard_pile_alone_takes_it_from_there() -> None:
    s = start_turn(new(), 1)
    do(s, "set encounter.deck 0", "set encounter.discard 3")
    before = piles_now(s)
    do(s, "enemy seat1 Ghoul Minion")
    assert s.state.prompt is None and before == (0, 3) and piles_now(s) == (0, 2)


def test_the_enemy_a_mythos_draw_is_naming_is_taken_once() -> None:
    """At 1.4 the `enemy` line for the seat whose card is being named is that card, already off the
    deck: nothing more is taken."""
    s = new(seats=1)
    to_step(s, "mythos", "1.4")
    deck, discard = piles_now(s)  # seat 1 has drawn (the deck counts it)
    do(s, "enemy seat1 Ghoul Minion")
    assert enemy(s, "Ghoul Minion")["engaged"] == 1 and piles_now(s) == (deck, discard)


@pytest.mark.parametrize("line", ["enemy seat1 Ghoul Priest", "enemy seat1 Ghoul Minion weakness",
                                  "enemy seat1 Sentry fight=1 health=3 evade=5 damage=1 horror=0"],
                         ids=["set aside", "weakness", "not in the data"])
def test_an_enemy_out_of_neither_pile_takes_nothing(line: str) -> None:
    s = start_turn(new(), 1)
    do(s, "set encounter.discard 2")
    before = piles_now(s)
    do(s, line)
    assert s.state.prompt is None and piles_now(s) == before and len(data(s, "enemies")) == 1
