"""What the station shows and what its buttons mean for Earthborne; undo through a clear."""

from __future__ import annotations

from pathlib import Path

from tablekeeper.core.view import Priority
from tablekeeper.games.earthborne import GAME
from tablekeeper.station.controls import Controls
from tablekeeper.ui.legibility import Viewing
from tablekeeper.ui.render import fit
from tests.games.earthborne.helpers import do, in_play, session, to_turns, view
from tests.station.sentences import lines_read


def test_panels_show_every_word_on_the_reference_and_compact_displays() -> None:
    s = to_turns(session("location \"Lone Tree Station\" 3", "card \"A Very Long Card Name\" progress=2r harm=3",
                         "card Stump"))
    do(s, "test 1 fit 2")
    panels = GAME.panels(s.state)
    assert set(panels) >= {"track", "tokens", "seat1", "seat2"}
    for viewing in (Viewing.of((128, 64), "1.54in", 50), Viewing.of((128, 32), "0.91in", 50)):
        for panel in panels.values():
            # a DETAIL line (Fatigue 0 Injury 0) is shown whole where there is room, else left out
            kept = [line for i, line in enumerate(panel.lines) if panel.priority(i) is not Priority.DETAIL]
            assert lines_read(panel, viewing) in (panel.lines, tuple(kept))
    assert panels["track"].title == "Day 1 Round 1"
    assert panels["seat1"].lines[0] == "Fitness 1 vs 2: 25.0% to pass"  # the exact odds while the test waits
    assert panels["tokens"].title == "Odds"  # the odds screen names the deck the odds come from
    assert panels["tokens"].lines == ("Seat 1 tests Fitness: effort 1 vs difficulty 2", "chance to pass 1/4 (25.0%)",
                                      "Core set challenge deck", "checked card by card")
    assert GAME.panels(s.state)["seat2"].lines[:3] == ("Awareness 3 Fitness 2", "Spirit 2 Focus 1",
                                                        "Deck 24 Hand 6")
    assert panels["seat1"].title == "Seat 1 turn"


def test_odds_from_a_deck_nobody_checked_say_so_on_every_screen(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "Our deck"\ncards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0 },\n'
                    '  { id = "b", icon = "sun", awa = 0, fit = -1, spi = 0, foc = 0 }]\n')
    s = to_turns(session(options={"challenge": str(deck)}))
    do(s, "test 1 fit 2 energy=2")
    panels = GAME.panels(s.state)
    assert panels["seat1"].lines[0] == "Fitness 2 vs 2: 50.0% to pass (odds from an unverified deck)"
    assert panels["tokens"].lines[1:] == ("chance to pass 1/2 (50.0%)", "Our deck",
                                          "UNVERIFIED deck: odds from an unverified deck")


def test_tokens_panel_walks_through_a_clear() -> None:
    s = session("card C progress=1 entry=12", "progress card1 1")
    tokens = GAME.panels(s.state)["tokens"]
    assert tokens.title == "Resolve" and "entry 12" in " ".join(tokens.lines)
    do(s, "card Other harm=2 clear=x", "resolve")
    assert GAME.panels(s.state)["tokens"].title == "Cards in play (1)"


def test_prompt_is_shown_and_answered_with_seat_buttons() -> None:
    s = session("card B progress=1 harm=1", "step s", "progress card1 1", "harm card1 1", "resolve")
    assert GAME.panels(s.state)["tokens"].lines[-2:] == ("1. progress", "2. harm")
    assert GAME.legend(s.state, 3) == "A: progress, B: harm"  # every seat may answer; its last line says how
    assert GAME.button(s.state, "seat3.a", held=False).text() == "choose 1"  # type: ignore[union-attr]
    command = GAME.button(s.state, "seat1.b", held=False)
    assert command is not None and command.text() == "choose 2"
    s.perform(command)
    assert view(s)["clears"][0]["cleared_by"] == "harm"


def test_a_seats_a_draws_only_its_own_path_card_in_turn(tmp_path: Path) -> None:
    """ER-PATH-1: one path card per Ranger from the lead Ranger: A offers the draw to the seat whose
    card is next, and to no seat once its card (or every card this round) was drawn."""
    deck = tmp_path / "path.toml"
    deck.write_text('cards = [{ name = "Fern", progress = "2", copies = 4 }]\n')
    s = session(options={"path": str(deck)})
    assert [GAME.legend(s.state, seat) for seat in (1, 2)] == ["A: draw my path card", None]
    assert GAME.button(s.state, "seat2.a", False) is None  # seat 1, the lead, draws first
    s.perform(GAME.button(s.state, "seat1.a", False))  # type: ignore[arg-type]
    assert [GAME.legend(s.state, seat) for seat in (1, 2)] == [None, "A: draw my path card"]
    assert GAME.button(s.state, "seat1.a", False) is None
    s.perform(GAME.button(s.state, "seat2.a", False))  # type: ignore[arg-type]
    assert [c["seat"] for c in in_play(s).values()] == [None, None] and len(in_play(s)) == 2
    assert [GAME.legend(s.state, seat) for seat in (1, 2)] == [None, None]
    assert GAME.button(s.state, "seat1.a", False) is None and GAME.button(s.state, "seat2.a", False) is None
    do(s, "lead 2", "next", "rest 1", "rest 2", "next", "next", "next")  # round 2: the new lead draws first
    assert [GAME.legend(s.state, seat) for seat in (1, 2)] == [None, "A: draw my path card"]


def test_a_seat_whose_test_waits_for_its_challenge_card_draws_it_with_a(tmp_path: Path) -> None:
    """ER-TEST-1: once the effort is committed, the tester's A draws the challenge card; it used to say
    "A: end my turn", a press the game then refused because the test was still waiting."""
    deck = tmp_path / "path.toml"
    deck.write_text('cards = [{ name = "Fern", progress = "2", copies = 4 }]\n')
    s = session(options={"path": str(deck)})
    do(s, "draw path 1", "draw path 2", "next", "turn 1", "test 1 awa 1")
    assert GAME.legend(s.state, 1) == "A: draw challenge card" and GAME.legend(s.state, 2) is None
    press = GAME.button(s.state, "seat1.a", False)
    assert press is not None and press.text() == "draw challenge"
    assert GAME.button(s.state, "seat2.a", False) is None
    do(s, press.text())
    assert view(s)["test"]["card"] is not None and view(s)["sources"]["challenge"]["remaining"] == 23
    assert GAME.legend(s.state, 1) == "A: done"


def test_seat_buttons_keep_one_meaning_through_the_round(tmp_path: Path) -> None:
    """A: done / rest / end my turn / first answer; B: the seat's own move (a turn) / second answer."""
    deck = tmp_path / "path.toml"
    deck.write_text('cards = [{ name = "Fern", progress = "2", copies = 4 }]\n')
    s = session(options={"path": str(deck)})  # a deck file: the device can draw for the seat
    assert GAME.button(s.state, "seat1.a", False).text() == "draw path 1"  # type: ignore[union-attr]
    assert GAME.legend(s.state, 1) == "A: draw my path card"
    assert GAME.button(s.state, "seat2.b", False) is None
    own = session("pathdeck 10")  # the group's own deck: A says the seat drew its card, unnamed
    assert GAME.button(own.state, "seat1.a", False).text() == "pass 1"  # type: ignore[union-attr]
    assert GAME.legend(own.state, 1) == "A: drew my path card" and GAME.button(own.state, "seat2.a", False) is None
    do(s, "draw path 1", "draw path 2", "next")  # each seat's A draws its path card (ER-PATH-1)
    assert GAME.legend(s.state, 1) == "A: rest, B: my turn"
    assert GAME.button(s.state, "seat1.a", False).text() == "rest 1"  # type: ignore[union-attr]
    assert GAME.button(s.state, "seat1.b", False).text() == "turn 1"  # type: ignore[union-attr]
    assert GAME.button(s.state, "seat1.b", True).text() == "turn 1 role"  # type: ignore[union-attr]
    do(s, "turn 1")
    assert GAME.legend(s.state, 1) == "A: end my turn"
    assert GAME.button(s.state, "seat1.a", False).text() == "next"  # type: ignore[union-attr]
    do(s, "play 1 Rope")  # the turn's one action (a turn with none would not count, ER-ROUND-1)
    do(s, "step effect")
    assert GAME.legend(s.state, 2) == "A: done"
    assert GAME.button(s.state, "seat2.a", False).text() == "resolve"  # type: ignore[union-attr]
    do(s, "resolve", "next")
    assert GAME.legend(s.state, 1) == "hold B to go again"  # ER-TURN-1: another Ranger first
    do(s, "rest 2", "rest 1")
    assert GAME.button(s.state, "seat1.a", False) is None and GAME.button(s.state, "seat1.b", False) is None
    assert GAME.legend(s.state, 1) is None  # a rested seat's buttons do nothing until the next round


def test_adjustable_puts_the_active_seat_first_and_up_down_add_tokens() -> None:
    s = to_turns(session("card Doe progress=3"), 2)
    names = GAME.adjustable(s.state)
    assert names[:4] == ["seat2.awa", "seat2.fit", "seat2.spi", "seat2.foc"]
    assert "card1.progress" in names and "location.progress" in names
    controls = Controls(GAME, clock=lambda: 0.0)
    while controls.selected(s.state) != "card1.progress":
        controls.press("select", s.state)
    for _ in range(3):
        controls.press("up", s.state)
    for command in controls.flush():
        assert s.perform(command).accepted
    assert view(s)["clears"][0]["card"] == "card1"  # a counted change is one rules step: the Doe clears


def test_undo_reverses_a_whole_clear() -> None:
    s = session("card Doe progress=2", "progress card1 1")
    do(s, "progress card1 1")
    assert in_play(s) == {}
    do(s, "undo")
    assert "card1" in in_play(s) and view(s)["tracks"]["card1.progress"] == 1 and view(s)["clears"] == []
    do(s, "redo")
    assert in_play(s) == {}


def test_many_cards_are_paged_whole_with_their_names() -> None:
    s = session(*(f"card \"Card Number {i}\" progress=3" for i in range(7)))
    tokens = GAME.panels(s.state)["tokens"]
    assert tokens.title == "Cards in play (7)" and len(tokens.lines) == 7
    viewing = Viewing.of((128, 64), "2.42in", 80)
    assert fit(tokens, viewing).pages > 1
    assert lines_read(tokens, viewing) == tokens.lines  # each card's line whole on some page


def test_a_seat_waits_while_another_ranger_is_midway_through_a_turn() -> None:
    s = to_turns(session())
    do(s, "turn 2")
    assert GAME.button(s.state, "seat1.a", False) is None and GAME.button(s.state, "seat1.b", False) is None
    assert GAME.legend(s.state, 1) is None and GAME.legend(s.state, 2) == "A: end my turn"


def test_cards_show_whose_they_are() -> None:
    s = session("card Doe progress=2", "card \"Lost Hiker\" area=reach seat=2 progress=2",
                "card Kit area=player seat=1")
    lines = GAME.panels(s.state)["tokens"].lines
    # known cards keep their data's thresholds (the test's made-up cards are marked unverified)
    assert lines == ("1. Doe: progress 0/2, harm 0/2 (unverified numbers)",
                     "2. Lost Hiker, near seat 2: progress 0/2, harm 0/1 (unverified numbers)",
                     "3. Kit, seat 1's area: progress 0, harm 0")


def test_the_first_screen_says_what_the_table_does_first() -> None:
    """ER-SETUP-1: the path deck is built (and the location placed) before the round's path cards: the
    track display's first line says so, in the words to type, until it is done."""
    s = session(options={"pathdeck": "0"})  # day 1 at Lone Tree Station, no path deck yet
    assert GAME.panels(s.state)["track"].lines[0] == "Build the path deck: pathdeck"
    do(s, "pathdeck 12")
    assert GAME.panels(s.state)["track"].lines[0] == "Draw path cards"
    assert GAME.panels(session(options={"day": "2"}).state)["track"].lines[0] == "Place the location: location NAME"
    assert GAME.panels(session("location Hollow X").state)["track"].lines[0] == "Give Hollow's threshold"
