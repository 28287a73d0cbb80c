"""Phase 1 waits for each Ranger's path card (ER-PATH-1): ``next`` is refused, naming who still draws,
until every Ranger has drawn one or the deck and its discard are empty; ``pass SEAT`` (the seat's A
button) says that Ranger drew it without naming it; ``next!`` goes on without and says so in the log,
and in the Ranger turns ends them for the Rangers who have not rested (ER-ROUND-1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.events import Command
from tablekeeper.games.earthborne import GAME, travel
from tests.games.earthborne.helpers import do, in_play, refused, session, view
from tests.games.played import ok, opened
from tests.games.played import refused as play_refused


@pytest.mark.rule("ER-PATH-1")
@pytest.mark.parametrize("protection", ["kept", "removed"])
def test_er_path_1_next_waits_for_each_rangers_path_card(protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if protection == "removed":
        monkeypatch.setattr(travel, "path_owing", lambda state: ())
    s = session(seats=3)
    if protection == "removed":  # without the hold, Phase 1 ends with no path card drawn
        do(s, "next")
        assert view(s)["phase"] == "turns" and in_play(s) == {}
        return
    assert refused(s, "next") == ("each Ranger draws a path card before the Ranger turns; not drawn: seat 1, seat 2, "
                                  "seat 3 (their seat's A, pass SEAT, or reveal path NAME; next! goes on without)")
    assert s.state.owing == (1, 2, 3)
    do(s, "reveal path Doe")
    assert "not drawn: seat 2, seat 3 " in refused(s, "next")
    do(s, "reveal path \"Stalking Cat\"", "reveal path \"Old Stump\"", "next")
    assert view(s)["phase"] == "turns"
    assert len(in_play(s)) == 3 and in_play(s)["card2"]["seat"] == 2  # the Cat's down arrow: within seat 2's reach


@pytest.mark.rule("ER-PATH-1")
def test_round_two_waits_for_its_path_cards_too_and_counts_from_the_lead() -> None:
    s = session("lead 2", "reveal path Doe", "reveal path Doe", "next", "rest 1", "rest 2", "next", "next", "next")
    assert (view(s)["round"], view(s)["phase"]) == (2, "path")
    assert "not drawn: seat 2, seat 1 " in refused(s, "next")  # the lead Ranger draws first
    do(s, "reveal path \"Old Stump\"")
    assert "not drawn: seat 1 " in refused(s, "next")


@pytest.mark.rule("ER-PATH-1")
def test_next_forced_goes_on_without_the_cards_but_not_without_a_path_deck() -> None:
    s = session("reveal path Doe")
    do(s, "next!")
    assert view(s)["phase"] == "turns" and len(in_play(s)) == 1
    assert view(s)["log"][-1] == "path: no card drawn for seat(s) 2 this round (next!)"
    unbuilt = session(options={"pathdeck": "0"})
    assert "path deck" in refused(unbuilt, "next!")  # the deck is built first, forced or not


@pytest.mark.rule("ER-PATH-1")
def test_an_empty_deck_waits_only_while_its_discard_can_be_reshuffled() -> None:
    s = session("pathdeck 1", "reveal path Doe")
    assert view(s)["sources"]["path"]["remaining"] == 0
    do(s, "next")  # nothing left to draw, nothing to reshuffle: Phase 1 ends
    assert view(s)["phase"] == "turns"
    reshuffled = session("pathdeck 1", "reveal path Doe", "discard card1")
    assert "not drawn: seat 2 " in refused(reshuffled, "next")  # the discard becomes the new deck
    do(reshuffled, "reveal path Doe", "next")
    assert view(reshuffled)["phase"] == "turns"


@pytest.mark.rule("ER-PATH-1")
def test_the_automatic_flow_stops_for_the_path_cards() -> None:
    """In the default (automatic) flow the station runs Travel (nothing to decide at 0 progress) and
    Refresh itself and stops at round 2's path cards, which only the table can draw."""
    play = ok(opened("earthborne", seats=1, seed=7), 'location "Lone Tree" 3', "pathdeck 12",
              'reveal path "Spiderline Stanchion"', "next", "rest 1")
    state = play.session.state
    assert (state.round, state.phase) == (2, "path")
    assert "not drawn: seat 1 " in play_refused(play, "next")
    ok(play, 'reveal path "Shale Scree"', "next")
    assert play.session.state.phase == "turns"


@pytest.mark.rule("ER-PATH-1")
def test_pass_seat_counts_a_path_card_drawn_but_not_named_from_the_lead_on() -> None:
    """A group that does not name its cards (the buttons alone): ``pass SEAT`` is that Ranger's card,
    the group's deck one card shorter; the Rangers draw in order, the lead first."""
    s = session("lead 2", seats=3)
    assert s.state.owing == (2, 3, 1)
    assert refused(s, "pass 1") == "seat 2 draws the next path card (one per Ranger from the lead, ER-PATH-1)"
    do(s, "pass 2")
    assert view(s)["sources"]["path"]["remaining"] == 11 and in_play(s) == {}
    assert view(s)["log"][-1] == "path: seat 2 drew a card, not named" and s.state.owing == (3, 1)
    do(s, "reveal path Doe", "pass 1")  # named and unnamed cards mix: seat 3's Doe is in play
    assert list(in_play(s)) == ["card1"] and view(s)["sources"]["path"]["remaining"] == 9
    assert refused(s, "pass 1").startswith("each Ranger has drawn this round's path card (3 of 3)")
    do(s, "next")
    assert view(s)["phase"] == "turns"


@pytest.mark.rule("ER-PATH-1")
def test_pass_seat_from_a_deck_the_device_knows_draws_the_card(tmp_path: Path) -> None:
    deck = tmp_path / "path.toml"
    deck.write_text('cards = [{ name = "Fern", progress = "2", copies = 4 }]\n')
    s = session("pass 1", options={"path": str(deck)})
    assert in_play(s)["card1"]["name"] == "Fern"
    assert s.state.owing == (2,)


@pytest.mark.rule("ER-PATH-1")
def test_phase_1_opens_saying_each_ranger_draws_with_their_seats_a_button(tmp_path: Path) -> None:
    """A group on the buttons alone learns how a Ranger draws as Phase 1 opens, before ``next`` is
    refused: the line names the seat's A button, the button the game maps to that Ranger's draw (the
    group's own deck: A says it was drawn; a deck the device knows: A draws it)."""
    own = session("lead 2", "reveal path Doe", "reveal path Doe", "next", "rest 1", "rest 2", "next", "next", "next")
    assert (view(own)["round"], view(own)["phase"]) == (2, "path")
    assert own.notices == ("each Ranger, seat 2 first: draw a path card, press your seat's A (or reveal path NAME)",)
    assert GAME.button(own.state, "seat2.a", False) == Command("pass", ("2",), "button")
    deck = tmp_path / "path.toml"
    deck.write_text('cards = [{ name = "Fern", progress = "2", copies = 4 }]\n')
    known = session("draw path", "draw path", "next", "rest 1", "rest 2", "next", "next", "next",
                    options={"path": str(deck)})
    assert known.notices == ("each Ranger, seat 1 first: your seat's A draws your path card",)
    assert GAME.button(known.state, "seat1.a", False) == Command("draw", ("path", "1"), "button")
    solo = session("reveal path Doe", "next", "rest 1", "next", "next", "next", seats=1)
    assert solo.notices == ("the Ranger: draw a path card, press your seat's A (or reveal path NAME)",)


@pytest.mark.rule("ER-PATH-1")
def test_choosing_the_built_path_deck_says_how_each_ranger_draws_from_it() -> None:
    """Phase 1's question (which path deck the group built) answered: the deck is built from the Valley's
    sets, so the device knows its cards, and the line says each seat's A draws them."""
    s = session(options={"pathdeck": "0"})
    do(s, "next")
    assert view(s)["prompt"] is not None and view(s)["prompt"]["id"] == "path.build"
    do(s, "choose 1")
    assert s.notices[-1] == "each Ranger, seat 1 first: your seat's A draws your path card"
    assert GAME.button(s.state, "seat1.a", False) == Command("draw", ("path", "1"), "button")


@pytest.mark.rule("ER-ROUND-1")
def test_next_forced_ends_the_ranger_turns_for_those_who_did_not_rest() -> None:
    """The docs' promise: in the Ranger turns ``next`` waits for every rest and ``next!`` forces it,
    ending the turn under way and naming the Rangers who did not rest in the log."""
    s = session("reveal path Doe", "reveal path Doe", "next", "rest 1", "turn 2", "next")
    assert "not rested: seat 2" in refused(s, "next")
    do(s, "turn 2", "next!")
    assert (view(s)["phase"], s.state.active_seat) == ("travel", None)
    assert view(s)["log"][-1] == "turns: seat(s) 2 did not rest this round (next!)"
