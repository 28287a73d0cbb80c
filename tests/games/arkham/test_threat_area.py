"""Treacheries that stay in a threat area do what their cards say (the core set's Striking Fear):
Dissonant Voices (01165) forbids assets and events and is discarded at the end of the round; Frozen
in Fear (01164) tests willpower (3) at the end of its bearer's turn and leaves on a success."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.arkham import effects, forced, record, threat

from .helpers import answer, do, new, refused_card, rejects, to_step, track
from .helpers import data as viewed


def drawn(card: str, seats: int = 2) -> Session:
    """Round 2's encounter draws: seat 1 draws ``card``, seat 2's card is discarded."""
    s = new(seats=seats)
    to_step(s, "mythos", "1.4")
    answer(s, card)
    if seats > 1:
        do(s, "choose 1")
    assert s.state.prompt is None
    return s


def in_threat_area(s: Session, seat: int) -> list[str]:
    return sorted(label for label, t in viewed(s, "treacheries").items() if t["seat"] == seat and t["location"] is None)


# --- Dissonant Voices (01165) -------------------------------------------------------------------------
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_dissonant_voices_forbids_playing_assets_and_events(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """While it is in seat 1's threat area, seat 1 plays no asset, no event, no ally and takes no Play
    action: one line naming the card; seat 2 plays as before."""
    if protection == "protection-removed":
        monkeypatch.setattr(threat, "play_barred", lambda state, seat, cardtype: None)
    s = drawn("Dissonant Voices")
    assert in_threat_area(s, 1) == ["Dissonant Voices"]
    to_step(s, "investigation", "2.2")
    do(s, "turn seat1")
    lines = ("play seat1 1 asset", "play seat1 0 event", "play seat1 0 event fast", "ally seat1 Guard Dog",
             "act seat1 play")
    if protection == "protection-removed":
        do(s, *lines[:2])  # the box as it was: the cards are played
        return
    assert rejects(s, "play seat1 1 asset") == \
        "seat 1 cannot play an asset while Dissonant Voices is in their threat area"
    assert rejects(s, "play seat1 0 event") == \
        "seat 1 cannot play an event while Dissonant Voices is in their threat area"
    assert rejects(s, "play seat1 0 event fast").startswith("seat 1 cannot play an event while Dissonant Voices")
    assert rejects(s, "ally seat1 Guard Dog").startswith("seat 1 cannot play an asset while Dissonant Voices")
    assert rejects(s, "act seat1 play") == \
        "seat 1 cannot play assets or events while Dissonant Voices is in their threat area"
    do(s, "actions seat1")  # the action menu offers no ally to play
    assert not any(option.startswith("play ") for option in s.state.prompt.options)
    have = track(s, "seat2.resources")
    do(s, "choose 1", "act seat1 draw", "next", "play seat2 1 asset")  # seat 2 is not bound by it
    assert track(s, "seat2.resources") == have - 1


@pytest.mark.rule("AH-FORCED-1")
def test_dissonant_voices_is_discarded_at_the_end_of_the_round() -> None:
    s = drawn("Dissonant Voices")
    to_step(s, "upkeep", "4.6")
    assert in_threat_area(s, 1) == ["Dissonant Voices"]  # through the whole round
    discard = track(s, "encounter.discard")
    do(s, "next")  # the round ends: round 3 begins
    assert (s.state.round, s.state.step) == (3, "1.1")
    assert in_threat_area(s, 1) == [] and track(s, "encounter.discard") == discard + 1
    assert "Dissonant Voices is discarded (Forced, at the end of the round)" in s.notices
    to_step(s, "investigation", "2.2")
    do(s, "turn seat1", "play seat1 1 asset")  # round 3: seat 1 plays again


def test_a_treachery_typed_by_hand_forbids_nothing_and_stays() -> None:
    """A treachery the data does not list ("not listed: stays in my threat area") does only what the
    table does by hand: nothing is refused, and it stays until discard-treachery."""
    s = drawn("a treachery not listed: stays in my threat area")
    to_step(s, "investigation", "2.2")
    do(s, "turn seat1", "play seat1 1 asset", "next")
    to_step(s, "mythos", "1.2")
    assert in_threat_area(s, 1) == ["Treachery 2.1"]


# --- Frozen in Fear (01164) ---------------------------------------------------------------------------
def frozen_turn() -> Session:
    """Round 2, seat 1's turn, Frozen in Fear in seat 1's threat area."""
    s = drawn("Frozen in Fear")
    to_step(s, "investigation", "2.2")
    do(s, "turn seat1")
    assert in_threat_area(s, 1) == ["Frozen in Fear"]
    return s


@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize(("token", "stays"), [("0", False), ("-2", True)], ids=["success", "failure"])
def test_frozen_in_fear_tests_willpower_at_the_end_of_its_bearers_turn(token: str, stays: bool) -> None:
    """The seat ends its turn: the Forced willpower (3) test opens before the next turn; a success
    discards the card, a failure leaves it; then the turn ends."""
    s = frozen_turn()
    do(s, "next")  # seat 1 ends its turn
    test = viewed(s, "test")
    assert test is not None and (test["seat"], test["skill"], test["difficulty"]) == (1, "willpower", 3)
    assert test["source"] == "Frozen in Fear"
    assert s.state.active_seat == 1 and s.state.done == ()  # the turn is still ending
    assert rejects(s, "next") == "finish the skill test first (resolve)"
    assert rejects(s, "act seat1 draw") == "a skill test is running; resolve it first"
    discard = track(s, "encounter.discard")
    do(s, f"reveal chaos {token}", "resolve")
    assert in_threat_area(s, 1) == (["Frozen in Fear"] if stays else [])
    assert track(s, "encounter.discard") == discard + (0 if stays else 1)
    assert viewed(s, "test") is None and s.state.done == (1,) and s.state.active_seat == 2  # seat 2's turn
    do(s, "next")  # seat 2 has nothing to test: its turn ends at once
    assert s.state.phase != "investigation" or s.state.step != "2.2"


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_bearer_eliminated_by_the_forced_test_has_its_turns_end_happen_once(monkeypatch: pytest.MonkeyPatch,
                                                                               protection: str) -> None:
    """The turn's end began with the enemies' Forced effects (01157), then Frozen in Fear's test; failed,
    it defeats its bearer, whose turn ends there: those effects do not happen a second time (a card that
    puts doom at the end of each turn would otherwise put it twice)."""
    ends: list[str] = []
    happen = forced.happen

    def spy(txn: object, at: str, when: str = "") -> None:
        if at == "turn_end":
            ends.append(when)
        happen(txn, at, when)  # type: ignore[arg-type]

    s = frozen_turn()
    monkeypatch.setattr(forced, "happen", spy)
    if protection == "protection-removed":  # the elimination does not see that the turn's end had begun
        monkeypatch.setattr(effects, "rec", lambda state: msgspec.structs.replace(record.rec(state), turn_end=None))
    do(s, "set seat1.horror 4", "next")  # seat 1 ends its turn: the Forced test opens
    do(s, "reveal chaos cultist", "resolve")  # failed, with 1 horror more: seat 1 is defeated
    assert viewed(s, "eliminated") == {"1": "horror"} and s.state.active_seat == 2
    assert ends == ["at the end of seat 1's turn"] * (1 if protection == "on" else 2)


def test_frozen_in_fear_stops_the_automatic_run_as_the_last_turn_ends() -> None:
    """Played as `tablekeeper play` runs it (the station goes on by itself): the last investigator to
    play passes its whole turn; the run stops at the Forced test in 2.2, and goes on through the Enemy
    and Upkeep phases only once the test is resolved."""
    from tests.games.played import ok, opened

    play = opened("arkham", seats=2)
    ok(play, "pass seat1", "pass seat2")  # round 2's encounter draws
    prompt = play.session.state.prompt
    assert prompt is not None and prompt.id == "encounter_card"
    ok(play, f"choose {prompt.options.index('Frozen in Fear') + 1}", "choose 1", "pass seat2", "pass seat1")
    state = play.session.state
    assert (state.round, state.step, state.active_seat) == (2, "2.2", 1)
    assert play.session.view()["test"]["source"] == "Frozen in Fear"
    assert "Frozen in Fear: Forced, at the end of seat 1's turn: test willpower (3); a success discards it" \
        in play.session.view()["notices"]
    ok(play, "reveal chaos 0", "resolve")
    state = play.session.state
    assert state.round == 3 and play.session.view()["treacheries"] == {}


def test_two_copies_of_frozen_in_fear_are_tested_one_after_the_other() -> None:
    s = new(seats=1)
    for _ in range(2):  # rounds 2 and 3: seat 1 draws Frozen in Fear; the first test in round 2 fails
        to_step(s, "mythos", "1.4")
        answer(s, "Frozen in Fear")
        to_step(s, "investigation", "2.2")
        do(s, "next")
        if s.state.round == 2:
            do(s, "reveal chaos -2", "resolve")
    assert in_threat_area(s, 1) == ["Frozen in Fear", "Frozen in Fear 2"]
    assert viewed(s, "test")["source"] == "Frozen in Fear"
    do(s, "reveal chaos 0", "resolve")
    assert viewed(s, "test")["source"] == "Frozen in Fear 2" and s.state.active_seat == 1  # the turn waits
    do(s, "reveal chaos -2", "resolve")
    assert in_threat_area(s, 1) == ["Frozen in Fear 2"] and s.state.step == "2.3"


def test_an_investigator_defeated_by_the_failed_test_ends_the_turn_there() -> None:
    """The cultist token's horror on the failure (The Gathering, Standard) defeats seat 1: its threat
    area is discarded and seat 2's turn begins; nothing is left waiting for seat 1's turn to end."""
    s = frozen_turn()
    do(s, "set seat1.horror 4", "next", "reveal chaos cultist", "resolve")
    assert viewed(s, "eliminated") == {"1": "horror"} and viewed(s, "treacheries") == {}
    assert (s.state.active_seat, s.state.done) == (2, (1,))
    do(s, "next")
    assert s.state.step == "2.3"


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_without_the_forced_test_the_turn_would_end_with_the_card_unchallenged(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    if protection == "protection-removed":
        monkeypatch.setattr(threat, "threat_area", lambda state, seat: {})
    s = frozen_turn()
    do(s, "next")
    assert (viewed(s, "test") is not None) is (protection == "on")


@pytest.mark.parametrize(("entry", "says"), [
    ('stays = "location"\ndiscard = { at = "round_end" }', 'discard and no_play need stays = "threat_area"'),
    ('stays = "threat_area"\ndiscard = { at = "round_end", test = { skill = "willpower", difficulty = 3 } }',
     "only a turn_end discard has a test"),
    ('stays = "threat_area"\ndiscard = { at = "dawn" }', "discard.at"),
])
def test_a_forced_discard_the_station_cannot_follow_is_one_line_naming_the_entry(tmp_path: Path, entry: str,
                                                                                 says: str) -> None:
    path, said = refused_card(tmp_path, f'kind = "treachery"\n{entry}')
    assert str(path) in said and "sets.x.cards.Thing" in said
    assert says in said and "\n" not in said


# --- on the screens -----------------------------------------------------------------------------------
@pytest.mark.parametrize("viewing", ["1.54in seat", "1.3in seat", "0.96in shared", "0.91in seat"])
def test_a_lasting_treachery_stays_on_its_seats_display(viewing: str) -> None:
    """A treachery that stays in play is on the display where the table reads that seat's state, whole
    on some frame of every display size the station drives, with the seat's own status line below:
    the one in the seat's threat area, and the one attached to the location it is at."""
    from tablekeeper.ui.compose import seat_line
    from tests.station.sentences import lines_read
    from tests.station.test_render import VIEWINGS

    s = new(seats=2)
    to_step(s, "mythos", "1.4")
    answer(s, "Dissonant Voices")  # seat 1's threat area
    answer(s, "Obscuring Fog")  # attached to seat 2's location, the Study, where seat 1 is too
    to_step(s, "investigation", "2.2")
    panels = s.game.panels(s.state)
    seat1, seat2 = panels["seat1"], panels["seat2"]
    assert seat1.lines[-2:] == ("Threat area: Dissonant Voices", "At Study: Obscuring Fog")
    assert seat2.lines[-1] == "At Study: Obscuring Fog" and not any("Threat" in line for line in seat2.lines)
    for seat, panel in ((1, seat1), (2, seat2)):
        shown = lines_read(panel, VIEWINGS[viewing], seat_line(s.state, s.game, seat))
        lasting = tuple(line for line in panel.lines if line.startswith(("Threat area:", "At Study:")))
        assert lasting and set(lasting) <= set(shown)  # whole on some frame (the clues line may drop out)
    do(s, "turn seat1", "next", "next")  # the round ends: Dissonant Voices leaves, and the screen with it
    to_step(s, "mythos", "1.1")
    assert not any("Threat area" in line for line in s.game.panels(s.state)["seat1"].lines)


# --- The Gathering's agenda 2 (01106) ---------------------------------------------------------------
def test_rise_of_the_ghouls_counts_the_discarded_cards_out_of_the_encounter_deck() -> None:
    """Agenda 2 turns over (its back, 01106): the encounter discard pile is shuffled into the deck,
    then cards are discarded from the top until a Ghoul enemy is, and the lead draws it. The cards
    discarded on the way leave the deck for the discard pile and the Ghoul leaves it for play, so the
    deck the next draw comes from holds what it really does. (Before: no shuffle, and both piles
    kept their counts, as though nothing had been discarded or drawn.)"""
    s = new(seats=2)
    to_step(s, "investigation", "2.2")
    do(s, "set agenda 2", "set encounter.deck 20", "set encounter.discard 3", "advance agenda card")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (23, 0)  # the pile shuffled in
    prompt = s.state.prompt
    assert prompt is not None and prompt.seat == 1 and "until a Ghoul enemy is discarded" in prompt.text
    assert prompt.options == ("Flesh-Eater", "Ghoul Minion", "Icy Ghoul", "Ravenous Ghoul", "none found")
    answer(s, "Ghoul Minion")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.endswith("how many cards were discarded before Ghoul Minion?")
    assert prompt.options[0] == "0" and prompt.options[-1] == "22"
    answer(s, "4")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (18, 4)
    assert viewed(s, "enemies")["Ghoul Minion"]["engaged"] == 1  # the lead drew it
    do(s, "harm-enemy Ghoul Minion 2")  # defeated: it joins the discarded cards
    assert track(s, "encounter.deck") + track(s, "encounter.discard") == 23


def test_rise_of_the_ghouls_with_no_ghoul_left_discards_the_whole_deck() -> None:
    s = new(seats=1)
    do(s, "set agenda 2", "set encounter.deck 5", "advance agenda card")
    answer(s, "none found")
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (5, 0)  # reshuffled at once
    assert viewed(s, "enemies") == {}


def test_the_devourers_first_agenda_counts_its_discards_too() -> None:
    """The Devourer Below's agenda 1 (01143) discards the same way, for a Monster spawned at the Main
    Path with 1 doom."""
    s = new(seats=2, scenario_id="devourer_below")
    do(s, "set encounter.discard 2", "advance agenda card")
    deck = track(s, "encounter.deck")
    assert track(s, "encounter.discard") == 0 and "until a Monster enemy is discarded" in s.state.prompt.text
    do(s, "choose 1", "choose 3")  # the first Monster listed turned up, 2 cards before it
    assert (track(s, "encounter.deck"), track(s, "encounter.discard")) == (deck - 3, 2)
    (foe,) = viewed(s, "enemies").values()
    assert foe["location"] == "Main Path" and foe["doom"] == 1
