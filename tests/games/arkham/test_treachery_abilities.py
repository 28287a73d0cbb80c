"""Treacheries in play with an [action] ability whose test, passed, discards them, activated as a table
types it (`act SEAT activate NAME [SKILL]`, or from the action menu): Locked Door (01174, combat or
agility (4)) and Dreams of R'lyeh (01182, willpower (3)). AH-ACTV-3 says who may activate them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.game import Txn
from tablekeeper.core.session import Session
from tablekeeper.games.arkham import board, effects, mythos, skilltest, threat
from tablekeeper.games.arkham.record import rec

from .helpers import answer, do, new, refused_card, rejects, to_step, track
from .helpers import data as viewed


def drawn(scenario: str, card: str) -> Session:
    """Round 2: seat 1 draws ``card`` at 1.4 (seat 2's card is discarded); seat 1's turn begins."""
    s = new(seats=2, scenario_id=scenario)
    to_step(s, "mythos", "1.4")
    answer(s, card)
    do(s, "choose 1")
    to_step(s, "investigation", "2.2")
    return do(s, "turn seat1")


def locked_door() -> Session:
    s = drawn("midnight_masks", "Locked Door")
    assert viewed(s, "treacheries")["Locked Door"]["location"] == "Your House"
    return s


def without_discarding(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The box as it was: the ability's test was a plain test, and the table discarded the card by hand."""
    if protection == "protection-removed":
        def plain(txn: Txn, seat: int, label: str, skill: str | None, base: int | None) -> None:
            test = threat.ability_test(txn.state, seat, label, skill)
            skilltest.begin(txn, seat, test.skill, effects.seat_info(txn.state, seat).skills[test.skill],
                            test.difficulty)
        monkeypatch.setattr(threat, "activated", plain)


# --- Locked Door (01174) ------------------------------------------------------------------------------
@pytest.mark.rule("AH-ACTV-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize("skill", ["combat", "agility"])
def test_locked_door_is_discarded_once_its_action_test_succeeds(monkeypatch: pytest.MonkeyPatch, protection: str,
                                                                 skill: str) -> None:
    """Seat 1 activates the Locked Door at its location, testing the skill it names (4); the test
    passes: the door goes to the encounter discard pile and Your House can be investigated again."""
    without_discarding(monkeypatch, protection)
    s = locked_door()
    assert rejects(s, "act seat1 investigate") == \
        "Your House cannot be investigated while Locked Door is attached to it"
    actions, discard = track(s, "seat1.actions"), track(s, "encounter.discard")
    do(s, f"act seat1 activate Locked Door {skill}")
    test = viewed(s, "test")
    assert (test["seat"], test["skill"], test["difficulty"]) == (1, skill, 4)
    assert track(s, "seat1.actions") == actions - 1
    base = effects.seat_info(s.state, 1).skills[skill]
    do(s, f"commit seat1 {5 - base}", "reveal chaos 0", "resolve")
    if protection == "protection-removed":
        assert "Locked Door" in viewed(s, "treacheries")  # the table discarded it by hand
        return
    assert viewed(s, "treacheries") == {} and track(s, "encounter.discard") == discard + 1
    assert "Locked Door is discarded (its test passed)" in viewed(s, "notices")
    do(s, "act seat1 investigate")  # the ban went with it
    assert viewed(s, "test")["kind"] == "investigate"


def test_locked_door_stays_when_its_test_fails() -> None:
    s = locked_door()
    do(s, "act seat1 activate 'Locked Door' agility", "reveal chaos -2", "resolve")
    assert "Locked Door" in viewed(s, "treacheries")
    assert rejects(s, "act seat1 investigate").startswith("Your House cannot be investigated")


@pytest.mark.rule("AH-ACTV-3")
def test_locked_door_is_activated_only_from_its_location() -> None:
    s = locked_door()
    do(s, "enter seat1 Rivertown")
    assert rejects(s, "act seat1 activate Locked Door combat") == \
        "seat 1 cannot activate Locked Door: it is at Your House, not at seat 1's location"
    do(s, "actions seat1")
    assert not any("Locked Door" in option for option in s.state.prompt.options)


def test_the_action_menu_offers_each_test_of_the_door() -> None:
    s = locked_door()
    do(s, "actions seat1")
    options = s.state.prompt.options
    assert "activate Locked Door combat" in options and "activate Locked Door agility" in options
    assert "investigate" not in options  # the door bars it: the menu does not offer a refused action
    answer(s, "activate Locked Door agility")
    assert viewed(s, "test")["skill"] == "agility" and viewed(s, "test")["source"] == "Locked Door"


@pytest.mark.parametrize(("line", "says"), [
    ("act seat1 activate Locked Door", "Locked Door: name the skill tested: combat (4) or agility (4)"),
    ("act seat1 activate Locked Door willpower",
     "Locked Door's ability tests combat (4) or agility (4), not willpower"),
])
def test_a_test_the_door_does_not_offer_is_refused(line: str, says: str) -> None:
    assert rejects(locked_door(), line) == says


def test_a_treachery_card_not_in_play_is_refused() -> None:
    s = new(seats=2, scenario_id="midnight_masks")
    to_step(s, "investigation", "2.2")
    do(s, "turn seat1")
    assert rejects(s, "act seat1 activate Locked Door combat") == \
        "no Locked Door in play to activate (treacheries in play: none)"
    do(s, "act seat1 activate Magnifying Glass")  # another card's ability: the station does not follow it


def test_a_treachery_without_an_action_ability_is_refused() -> None:
    s = new(seats=2)
    to_step(s, "mythos", "1.4")
    answer(s, "Obscuring Fog")
    do(s, "choose 1")
    to_step(s, "investigation", "2.2")
    do(s, "turn seat1")
    assert rejects(s, "act seat1 activate Obscuring Fog") == "Obscuring Fog has no action ability the station knows"


# --- Dreams of R'lyeh (01182) -------------------------------------------------------------------------
@pytest.mark.rule("AH-ACTV-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_dreams_of_rlyeh_is_discarded_once_its_willpower_test_succeeds(monkeypatch: pytest.MonkeyPatch,
                                                                        protection: str) -> None:
    without_discarding(monkeypatch, protection)
    s = drawn("devourer_below", "Dreams of R'lyeh")
    do(s, "act seat1 activate \"Dreams of R'lyeh\"")  # its one test: no skill to name
    test = viewed(s, "test")
    assert (test["skill"], test["difficulty"]) == ("willpower", 3)
    do(s, "commit seat1 3", "reveal chaos 0", "resolve")
    assert ("Dreams of R'lyeh" in viewed(s, "treacheries")) is (protection == "protection-removed")


@pytest.mark.rule("AH-ACTV-3")
def test_an_investigator_at_the_same_location_may_activate_anothers_dreams() -> None:
    """Dreams of R'lyeh in seat 1's threat area: seat 2, at the Main Path with seat 1, may activate it
    (and tests its own willpower); from another location it may not."""
    s = drawn("devourer_below", "Dreams of R'lyeh")
    do(s, "next")  # seat 1 ends its turn; seat 2's begins
    do(s, "actions seat2")
    assert "activate Dreams of R'lyeh" in s.state.prompt.options
    do(s, "choose 1")
    do(s, "act seat2 activate \"Dreams of R'lyeh\"")
    assert viewed(s, "test")["seat"] == 2
    do(s, "commit seat2 3", "reveal chaos 0", "resolve")
    assert viewed(s, "treacheries") == {}


def test_dreams_in_another_seats_threat_area_elsewhere_is_out_of_reach() -> None:
    s = drawn("devourer_below", "Dreams of R'lyeh")
    do(s, "next", "location Hidden Cove 1 1", "enter seat2 Hidden Cove")
    assert rejects(s, "act seat2 activate \"Dreams of R'lyeh\"") == \
        "seat 2 cannot activate Dreams of R'lyeh: it is in seat 1's threat area, not at seat 2's location"


def test_an_action_test_on_a_card_that_leaves_play_is_one_line_naming_the_entry(tmp_path: Path) -> None:
    path, said = refused_card(tmp_path, 'kind = "treachery"\naction_tests = [{ skill = "combat", difficulty = 2 }]')
    assert str(path) in said and "sets.x.cards.Thing" in said and "action_tests need stays" in said
    assert "\n" not in said


# --- Locked Door's revelation: the location with the most clues ---------------------------------------
def drawn_at_1_4(*setup: str) -> Session:
    s = new(seats=2, scenario_id="midnight_masks")
    do(s, *setup)
    to_step(s, "mythos", "1.4")
    return answer(s, "Locked Door")


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_locked_door_attaches_to_the_location_with_the_most_clues(monkeypatch: pytest.MonkeyPatch,
                                                                  protection: str) -> None:
    """Seat 2 has revealed Miskatonic University (4 clues); seat 1 draws the door at Your House (2):
    it goes to the university, not to the drawer's location."""
    if protection == "protection-removed":
        def at_drawer(txn: Txn, seat: int, name: str) -> None:
            mythos._stays(txn, seat, name, rec(txn.state).scenario.cards[name], name, at_location=True)
        monkeypatch.setattr(mythos, "attach_most_clues", at_drawer)
    s = drawn_at_1_4("enter seat2 Miskatonic University")
    place = viewed(s, "treacheries")["Locked Door"]["location"]
    assert place == ("Your House" if protection == "protection-removed" else "Miskatonic University")


def test_the_drawer_picks_among_locations_tied_for_the_most_clues() -> None:
    s = drawn_at_1_4("enter seat2 Rivertown")  # 2 clues there, 2 at Your House
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "attach_where" and prompt.seat == 1
    assert prompt.options == ("Rivertown", "Your House")
    answer(s, "Rivertown")
    assert viewed(s, "treacheries")["Locked Door"]["location"] == "Rivertown"
    assert s.state.prompt is not None and s.state.prompt.id == "encounter_card"  # seat 2 draws next


def test_a_second_locked_door_goes_where_none_is_attached() -> None:
    s = drawn_at_1_4("enter seat2 Miskatonic University")
    answer(s, "Locked Door")  # seat 2 draws the other copy: the university has one; Your House is next
    doors = viewed(s, "treacheries")
    assert (doors["Locked Door"]["location"], doors["Locked Door 2"]["location"]) == \
        ("Miskatonic University", "Your House")


# --- Dreams of R'lyeh (01182) while it is in the threat area ------------------------------------------
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_dreams_of_rlyeh_costs_its_bearer_1_willpower_and_1_sanity_until_it_is_discarded(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Drawn, it lowers seat 1's sanity by 1 and every willpower test seat 1 makes (its own test too)
    by 1; seat 2 is untouched; discarded by its test, both come back."""
    if protection == "protection-removed":
        monkeypatch.setattr(effects, "skill", lambda state, seat, name: effects.seat_info(state, seat).skills[name])
        monkeypatch.setattr(board, "bearer_sanity", lambda txn, seat, label, change: None)
    printed = new(seats=2, scenario_id="devourer_below")
    sanity, willpower = track(printed, "seat1.sanity"), effects.seat_info(printed.state, 1).skills["willpower"]
    s = drawn("devourer_below", "Dreams of R'lyeh")
    lower = 0 if protection == "protection-removed" else 1
    assert track(s, "seat1.sanity") == sanity - lower and track(s, "seat2.sanity") == track(printed, "seat2.sanity")
    do(s, "act seat1 activate \"Dreams of R'lyeh\"")
    assert viewed(s, "test")["base"] == willpower - lower
    do(s, "commit seat1 3", "reveal chaos 0", "resolve")
    assert "Dreams of R'lyeh" not in viewed(s, "treacheries") or protection == "protection-removed"
    assert track(s, "seat1.sanity") == sanity
    do(s, "test seat1 willpower 3 2")  # a willpower test typed with its value is the table's own


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_dreams_of_rlyeh_gives_its_sanity_back_when_its_bearer_is_eliminated(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Resigning discards the threat area (AH-ELIM-3 step 4) without the card's own discard: the
    sanity it took comes back there too."""
    if protection == "protection-removed":
        monkeypatch.setattr(board, "lift_bearer", lambda txn, label, gone: None)
    sanity = track(new(seats=2, scenario_id="devourer_below"), "seat1.sanity")
    s = drawn("devourer_below", "Dreams of R'lyeh")
    assert track(s, "seat1.sanity") == sanity - 1
    do(s, "resign seat1")
    assert "Dreams of R'lyeh" not in viewed(s, "treacheries")
    assert track(s, "seat1.sanity") == (sanity if protection == "on" else sanity - 1)


def test_dreams_of_rlyeh_drawn_with_horror_one_short_of_sanity_defeats() -> None:
    s = new(seats=2, scenario_id="devourer_below")
    do(s, f"set seat1.horror {track(s, 'seat1.sanity') - 1}")
    to_step(s, "mythos", "1.4")
    answer(s, "Dreams of R'lyeh")
    assert viewed(s, "eliminated") == {"1": "horror"}


def test_the_automatic_run_stops_at_the_tie_for_the_door() -> None:
    """Played as `tablekeeper play` runs it: round 2's draws stop at the Locked Door's question, and
    go on to seat 2's draw once the drawer has picked the location."""
    from tests.games.played import ok, opened

    play = opened("arkham", seats=2, scenario_id="midnight_masks")
    ok(play, "enter seat2 Rivertown", "pass seat1", "pass seat2")
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.id == "encounter_card"
    ok(play, f"choose {prompt.options.index('Locked Door') + 1}")
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.id == "attach_where" and play.session.state.step == "1.4"
    ok(play, f"choose {prompt.options.index('Rivertown') + 1}")
    assert play.session.view()["treacheries"]["Locked Door"]["location"] == "Rivertown"
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.id == "encounter_card" and prompt.seat == 2
