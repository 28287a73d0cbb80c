"""Where the automatic run stops in Arkham, through ``tablekeeper play`` and ``tablekeeper campaign``:
a campaign scenario's round 1 opens at a declared stop before its first round (2.1), where the group
buys cards with experience (AH-XP-1, AH-XP-3); the game's end takes only undo and the bookkeeping a
resolution asks for (AH-XP-2, AH-NEXT-1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.arkham.test_campaign_cli import Table
from tests.games.played import ok, opened, refused


@pytest.fixture
def table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Table:
    t = Table(tmp_path, capsys)
    t.ok("new", "night_of_the_zealot", "--seat", "1=roland", "--seat", "2=daisy")
    t.play(2, "victory 4", "bonus +2", "resolution R1", slot="a")  # 6 experience each
    return t


@pytest.mark.rule("AH-XP-1")
def test_the_next_scenario_takes_purchases_as_its_first_line(table: Table) -> None:
    view = table.play(2, "buy seat1 Knife 0", slot="b")  # --strict: a refused line fails here
    assert (view["step"], view["tracks"]["seat1.xp"], view["tracks"]["seat2.xp"]) == ("2.1", 5, 6)
    view = table.play(2, "next", "buy seat2 Knife 0", slot="b", code=1)  # the first round has begun
    assert (view["step"], view["tracks"]["seat2.xp"]) == ("2.2", 6)


@pytest.mark.rule("AH-XP-1")
def test_campaign_buy_while_the_next_scenario_is_open_buys_in_it(table: Table) -> None:
    assert table.play(2, slot="b")["step"] == "2.1"  # opened, not begun
    bought = table.ok("buy", "1", "Knife", "0")
    assert bought == "seat 1 buys Knife for 1 experience (in slot 'b', before its first round)"
    view = table.play(2, "next", slot="b")
    assert (view["step"], view["tracks"]["seat1.xp"]) == ("2.2", 5)
    assert "midnight_masks is being played (slot 'b')" in table.refused("buy", "2", "Knife", "0")
    table.play(2, "resolution R1", slot="b")
    assert "roland, 5 experience" in table.ok("show")  # the purchase reached the log with the scenario


def test_a_standalone_scenario_has_no_purchase_window() -> None:
    play = opened("arkham", seats=2)
    assert play.session.state.step == "2.2"  # nothing to buy without a campaign: the turns are open


@pytest.mark.rule("AH-ACTAG-11")
def test_after_a_resolution_only_its_bookkeeping_and_undo() -> None:
    play = ok(opened("arkham", seats=2), "resolution R1")
    for text in ("act seat1 draw", "next", "add agenda.doom +1", "draw chaos", "pass 1"):
        assert refused(play, text).startswith("the game is over (resolution R1)")
    ok(play, "victory 2", "bonus +1", "go-to devourer_below")
    assert play.session.state.over == "resolution R1"
    ok(play, "undo", "undo", "undo", "undo")
    assert play.session.state.over is None


@pytest.mark.rule("AH-CAMP-2")
def test_a_resolutions_trauma_experience_and_log_lines_are_taken_after_the_end(table: Table) -> None:
    """The Midnight Masks ends at a resolution; the campaign guide's entry then gives trauma, one
    investigator's experience and a line in the log: all accepted after the ending, all in the log."""
    view = table.play(2, "victory 2", "resolution R2", "bonus +1", "trauma seat1 mental", "trauma each physical 1",
                      "xp seat2 +2", "record The cultist Herman Collins got away", slot="c")
    assert view["over"] == "resolution R2"
    shown = table.ok("show")
    assert "seat 1: roland, 9 experience, trauma 1 physical 1 mental" in shown  # 6 + 2 victory + 1
    assert "seat 2: daisy, 11 experience, trauma 1 physical 0 mental" in shown  # and 2 of her own
    assert "midnight_masks: The cultist Herman Collins got away" in shown
    nxt = table.play(2, slot="d")  # the next scenario starts from the trauma
    assert (nxt["tracks"]["seat1.damage"], nxt["tracks"]["seat1.horror"]) == (1, 1)


def test_after_the_end_only_the_resolutions_bookkeeping_is_named() -> None:
    play = ok(opened("arkham", seats=2), "resolution R1")
    assert refused(play, "next") == ("the game is over (resolution R1): only undo and bonus, go-to, record, "
                                     "resolution, trauma, victory, xp")
    assert refused(play, "resolution R2") == "the scenario already ended (resolution R1)"
    assert refused(play, "trauma seat1 sanity").startswith("trauma is physical or mental")


@pytest.mark.rule("AH-XP-2")
def test_a_clueless_location_with_victory_points_joins_the_victory_display_as_the_scenario_ends() -> None:
    play = opened("arkham", seats=1)
    ok(play, "set seat1.clues 2", "spend-clues seat1:2", "act seat1 move Attic")  # the Attic: 2 clues, victory 1
    for token in ("0", "+1"):
        ok(play, "act seat1 investigate", f"reveal chaos {token}", "resolve")
    ok(play, "resolution R1")  # the Cellar (victory 1) was never revealed: it stays out
    view = play.session.view()
    assert view["victory"] == [1] and "Attic (no clues left) goes to the victory display: victory 1" in view["notices"]


@pytest.mark.rule("AH-ELIM-3")
def test_no_resolution_then_the_resolution_the_guide_sends_the_group_to(table: Table) -> None:
    view = table.play(2, "defeat seat1", "defeat seat2", "resolution R3", "trauma each mental", slot="n")
    assert (view["over"], view["resolution_to"]) == ("no resolution", "R3")
    log = table.log()
    assert log is not None and log["results"][-1]["resolution"] == "no resolution, then R3"  # type: ignore[index]


@pytest.mark.rule("AH-FW-3")
def test_the_last_investigators_turn_beginning_after_an_elimination_is_said() -> None:
    """Skids is eliminated on his turn; Agnes, the last to play, begins hers: the table is told, so
    the next NEXT is not taken for the end of the eliminated investigator's turn."""
    play = ok(opened("arkham", seats=2), "turn seat1", "act seat1 resign")
    view = play.session.view()
    assert view["active_seat"] == 2 and "seat 2's turn begins (the last investigator to take one this round)" in \
        view["notices"]


@pytest.mark.rule("AH-FW-3")
@pytest.mark.parametrize("walk", [False, True])
def test_the_last_turn_ended_by_an_elimination_ends_the_turns_as_a_pass_would(walk: bool) -> None:
    """The last investigator to play is defeated on their turn: nobody owes a turn, so the default
    flow goes on to the next round's draws by itself (it waited at 2.2 for a NEXT with nothing to
    do); a walked session still waits there."""
    play = ok(opened("arkham", seats=2, walk=walk), *(("next",) if walk else ()), "pass seat1", "hit seat2 9 0")
    state = play.session.state
    if walk:
        assert (state.round, state.step) == (1, "2.2")
    else:
        assert (state.round, state.step) == (2, "1.4") and state.prompt is not None
        assert state.prompt.id == "encounter_card"
