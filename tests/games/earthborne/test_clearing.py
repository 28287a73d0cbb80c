"""The seed's clearing rules: tokens, thresholds, the four clearing steps, deferral, choices, credit."""

from __future__ import annotations

import pytest

from tests.games.earthborne.helpers import do, in_play, prompt, refused, session, to_turns, tracks, view


@pytest.mark.rule("ER-TOKEN-1")
def test_er_token_1_progress_and_harm_are_separate() -> None:
    s = session("card Doe progress=5 harm=5", "progress card1 2", "harm card1 1")
    assert tracks(s)["card1.progress"] == 2
    assert tracks(s)["card1.harm"] == 1


@pytest.mark.rule("ER-TOKEN-2")
def test_er_token_2_threshold_or_none_loads_and_shows() -> None:
    s = session("card Pool progress=3 harm=-")
    t = tracks(s)
    assert t["card1.progress_threshold"] == 3
    assert t["card1.harm_threshold"] is None
    line = s.game.panels(s.state)["tokens"].lines[0]
    assert "progress 0/3" in line
    assert line.endswith("harm 0")  # a bare count: no gauge for harm


@pytest.mark.rule("ER-TOKEN-3")
def test_er_token_3_per_ranger_threshold() -> None:
    s = session("card Ridge progress=2r", seats=3)
    assert tracks(s)["card1.progress_threshold"] == 6
    do(s, "progress card1 5")
    assert "card1" in in_play(s)
    do(s, "progress card1 1")
    assert "card1" not in in_play(s)


@pytest.mark.rule("ER-CLEAR-1")
def test_er_clear_1_equal_or_more_clears() -> None:
    s = session("card Spring progress=3", "progress card1 2")
    assert in_play(s)["card1"]["due"] == []
    assert view(s)["clears"] == []
    do(s, "progress card1 1")
    assert [c["card"] for c in view(s)["clears"]] == ["card1"]

    over = session("card Spring progress=3", "progress card1 2", "step effect", "progress card1 3")
    assert in_play(over)["card1"]["due"] == ["progress"]  # 5/3 still counts
    do(over, "resolve")
    assert view(over)["clears"][0]["cleared_by"] == "progress"


@pytest.mark.rule("ER-CLEAR-2")
def test_er_clear_2_four_steps_in_order() -> None:
    s = session("card C progress=2 clear=draw", "response after Y", "response before X", "progress card1 2")
    assert view(s)["awaiting"].startswith("X")
    # any other order is refused: no choice is offered, and naming a later effect is rejected
    assert prompt(s) is None
    assert "X comes first" in refused(s, "resolve Y")
    assert "X comes first" in refused(s, "resolve card1.clear")
    do(s, "resolve X")
    assert view(s)["awaiting"].startswith("C: Clear: draw")
    assert "card1" in in_play(s)
    do(s, "resolve")
    assert view(s)["awaiting"].startswith("Y")
    assert "card1" not in in_play(s)
    do(s, "resolve Y")
    assert view(s)["log"] == ["X", "card1.clear", "discard-check(card1)", "card1 discarded", "Y"]
    assert view(s)["work"] == []


@pytest.mark.rule("ER-CLEAR-3")
def test_er_clear_3_guide_entry_read_in_step_2() -> None:
    s = session("card C progress=2 entry=47", "progress card1 2")
    assert "read campaign guide entry 47" in view(s)["awaiting"]
    assert "discard-check(card1)" not in view(s)["log"]
    assert "card1" in in_play(s)
    do(s, "resolve")
    assert view(s)["log"][:2] == ["card1.clear", "discard-check(card1)"]


@pytest.mark.rule("ER-CLEAR-4")
def test_er_clear_4_recheck_keeps_card_without_enough_tokens() -> None:
    s = session("card Being harm=2 type=being", "response when Mend card=card1", "harm card1 2")
    assert view(s)["awaiting"].startswith("Mend")
    do(s, "harm card1 -1")  # inside the when step: removes one harm
    assert "card1" in in_play(s)
    do(s, "resolve")
    assert "card1" in in_play(s)
    assert tracks(s)["card1.harm"] == 1
    assert view(s)["clears"][0]["discarded"] is False
    assert "discard-check(card1)" in view(s)["log"]


@pytest.mark.rule("ER-CLEAR-5")
@pytest.mark.parametrize(("first", "order"), [(1, ["A", "B"]), (2, ["B", "A"])])
def test_er_clear_5_players_order_same_timing(first: int, order: list[str]) -> None:
    s = session("card C progress=1", "response after A", "response after B", "progress card1 1")
    p = prompt(s)
    assert p is not None and p["id"] == "effect.order"
    assert [o.split(" ")[0] for o in p["options"]] == ["A", "B"]
    do(s, f"choose {first}", "resolve", "resolve")
    assert view(s)["log"][-2:] == order


@pytest.mark.rule("ER-CLEAR-6")
def test_er_clear_6a_success_step_finishes_before_the_clear() -> None:
    s = to_turns(session("card Feature progress=2 type=feature"))
    do(s, "test 1 awa 1", "reveal challenge sun7")
    do(s, "progress card1 2")
    assert "card1" in in_play(s)  # not yet: the success step is still resolving
    do(s, "rdraw 1")
    assert "card1" in in_play(s)
    do(s, "resolve")
    log = view(s)["log"]
    assert "card1" not in in_play(s)
    assert log.index("seat 1 draws 1") < log.index("discard-check(card1)")


@pytest.mark.rule("ER-CLEAR-6")
def test_er_clear_6b_challenge_effect_finishes_before_the_clear() -> None:
    s = to_turns(session("card Being harm=1 type=being icons=sun"))
    do(s, "test 1 awa 5", "reveal challenge sun7", "resolve")  # failure; then the Sun effect of card1
    assert view(s)["awaiting"].startswith("card1")
    do(s, "harm card1 1")
    assert "card1" in in_play(s)
    do(s, "fatigue 1 1")
    do(s, "resolve")
    log = view(s)["log"]
    assert "card1" not in in_play(s)
    assert log.index("seat 1 suffers 1 fatigue") < log.index("discard-check(card1)")


@pytest.mark.rule("ER-CLEAR-7")
def test_er_clear_7_card_cleared_by_the_result_loses_its_challenge_effect() -> None:
    s = to_turns(session("card F progress=3 type=feature icons=sun", "progress card1 2"))
    do(s, "test 1 awa 1 target=card1", "reveal challenge sun7")  # sun7 shows Sun
    assert view(s)["test"]["icon"] == "sun"
    do(s, "progress card1 1", "resolve")
    assert "card1" not in in_play(s)
    assert view(s)["work"] == []  # no Sun effect left to resolve
    assert "card1.sun" not in view(s)["log"]


@pytest.mark.rule("ER-CLEAR-8")
def test_er_clear_8_every_card_at_threshold_clears() -> None:
    s = session("card A progress=3", "card B progress=2", "step success effects",
                "progress card1 2", "progress card2 1", "progress card1 1", "progress card2 1")
    assert view(s)["clears"] == []
    do(s, "resolve")
    p = prompt(s)
    assert p is not None and p["id"] == "clear.order"
    do(s, "choose 2")
    assert [c["card"] for c in view(s)["clears"]] == ["card2", "card1"]
    assert in_play(s) == {}


@pytest.mark.rule("ER-CLEAR-9")
def test_er_clear_9_players_choose_the_kind() -> None:
    s = session("card Being progress=2 harm=3 type=being", "step s", "progress card1 2", "harm card1 3", "resolve")
    p = prompt(s)
    assert p is not None and p["options"] == ["progress", "harm"]
    do(s, "choose 2")
    assert view(s)["clears"][0]["cleared_by"] == "harm"


@pytest.mark.rule("ER-CLEAR-10")
def test_er_clear_10_no_threshold_never_clears() -> None:
    s = session("card Stump progress=- harm=-", "progress card1 5", "harm card1 5")
    assert tracks(s)["card1.progress"] == 5 and tracks(s)["card1.harm"] == 5
    assert view(s)["clears"] == [] and view(s)["work"] == []
    s = session("card Spring progress=3 harm=-", "harm card1 9")
    assert "card1" in in_play(s) and view(s)["clears"] == []


@pytest.mark.rule("ER-CLEAR-11")
def test_er_clear_11_clear_on_your_turn_is_yours() -> None:
    s = to_turns(session("card Being harm=1 type=being icons=sun",
                         "response when Hunt seat=1 you type=being", "response when Other seat=2 you"))
    do(s, "test 1 awa 5", "reveal challenge sun7", "resolve", "harm card1 1", "resolve")
    assert view(s)["awaiting"].startswith("seat 1: Hunt")
    do(s, "resolve")
    assert view(s)["clears"][0]["cleared_by_ranger"] == 1
    assert "Hunt" in view(s)["log"] and "Other" not in view(s)["log"]


@pytest.mark.rule("ER-CLEAR-11")
def test_er_clear_11_outside_a_turn_nobody_is_credited() -> None:
    s = session("card Being harm=1", "response when Hunt seat=1 you", "harm card1 1")
    assert view(s)["clears"][0]["cleared_by_ranger"] is None
    assert "Hunt" not in view(s)["log"]


def test_rejected_token_change_changes_nothing() -> None:
    s = session("card Doe progress=2")
    assert "only" in refused(s, "progress card1 -1") or "below" in refused(s, "progress card1 -1")
    assert "no card" in refused(s, "harm card9 1")
