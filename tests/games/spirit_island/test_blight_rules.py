"""The Blight procedure, Vitality and Blight-card amounts (SI-BLIGHT-*, SI-VITALITY-*,
SI-BLIGHTCARD-*, SI-REPLACE-3) on the explicit land model and through the tracker."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper.games.spirit_island import blight as bl
from tablekeeper.games.spirit_island.data import BlightCard

from .helpers import answer_counts, attempt, record, run, session, to_step, tracks

CARD = BlightCard("Test Card", healthy_per_player=2, blighted_per_player=4, immediately="E")


def lands(**spec: dict[str, Any]) -> dict[str, bl.Land]:
    return {name: bl.Land(name, int(s.get("blight", 0)), int(s.get("vitality", 0)), list(s.get("presence", [])),
                          tuple(s.get("adjacent", ()))) for name, s in spec.items()}


@pytest.mark.rule("SI-BLIGHT-1")
def test_si_blight_1_exact_order_flip_place_destroy_cascade_finish_trigger() -> None:
    pool = bl.Pool(count=1, players=2, card=CARD)
    world = lands(L={"blight": 1, "presence": ["S:1"], "adjacent": ["M"]}, M={"adjacent": ["L"]})
    run_ = bl.BlightRun(pool, world, when_added=["when-effect"], after_added=["Scotland-5"])
    assert run_.add("L") == ["L"]  # step 4 stops for the players' cascade choice
    assert run_.add("M") == []
    run_.log.append(("counterattack",))  # step 5: the Ravage goes on with the surviving Dahan
    run_.finish()
    kinds = [e[0] for e in run_.log]
    assert kinds == ["take", "flip", "immediately", "place", "destroy_presence", "when", "cascade",
                     "take", "place", "when", "counterattack", "finish", "trigger", "trigger"]
    assert run_.log[1] == ("flip", "8")  # refilled to 4 x 2
    assert run_.log[3] == ("place", "L", "2")
    assert run_.log[7] == ("take", "7")  # M's Blight comes off the flipped card
    assert pool.count == 7 and pool.flipped
    assert world["L"].presence == [] and world["M"].blight == 1


@pytest.mark.rule("SI-BLIGHT-1")
def test_si_blight_1_tracker_holds_next_until_the_cascade_is_chosen() -> None:
    s = session(blight="Erosion of Will")
    run(s, "land A1 blight=1 presence1=1", "set seat1.presence 4", "set seat2.presence 3")
    to_step(s, "spirit", "growth")
    run(s, "set seat1.energy 2", "set blight.card 1", "blight A1")
    t = tracks(s)
    assert t["blight.flipped"] == 1 and t["blight.card"] == 6  # Erosion of Will: 3 per player
    # step 1, Immediately (applied): 2 Fear per player, each Spirit destroys 1 Presence and loses 1
    # Energy; then step 3 destroys seat 1's Presence in A1
    assert (t["seat1.presence"], t["seat2.presence"], t["seat1.energy"], t["seat2.energy"]) == (2, 2, 1, 0)
    assert t["fear.generated"] == 4
    held = attempt(s, "next")
    assert not held.accepted and "cascade" in str(held.reason)
    run(s, "cascade A2")
    assert tracks(s)["blight.card"] == 5
    assert s.view()["spirit_island"]["lands"]["A2"]["blight"] == 1


@pytest.mark.rule("SI-BLIGHT-3")
def test_si_blight_3_any_blight_during_the_ravage_step_counts_per_board() -> None:
    s = session(blight="Disintegrating Ecosystem")
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "invader", "ravage")
    run(s, "choose 2")  # land by land
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_blight"
    land = str(prompt.context["q"]["land"])
    assert land.startswith("A")
    # naming the land answers its Blight question: yes; it already had Blight, and it flips the card
    run(s, f"land {land} blight=1", "set blight.card 1", f"blight {land}")
    assert any("Immediately" in n for n in s.notices)
    while s.state.prompt is not None and s.state.prompt.id == "si.blight.unplaced":
        run(s, "choose 1")  # step 3: no Spirit has Presence there (none was placed in a land)
    # step 1: the flipped card's Immediately Blight on each board comes before the cascade
    refused = attempt(s, f"cascade {s.view()['spirit_island']['pending_cascades'][0]}")
    assert not refused.accepted and "Immediately" in str(refused.reason)
    run(s, "blight A8")  # a land with a Town on board A
    assert s.view()["spirit_island"]["actions"] == [f"Ravage in {land}", "Immediately: Disintegrating Ecosystem"]
    run(s, "blight B6")  # the last one ends the nested action
    assert s.view()["spirit_island"]["actions"] == [f"Ravage in {land}"]
    cascade = s.state.prompt
    assert cascade is not None and cascade.id == "si.blight.cascade"
    assert cascade.text.startswith(f"Blight cascades from {land}")
    run(s, "choose 1")
    answer_counts(s)
    assert sorted(record(s).ravage_blight_boards) == ["A", "B"]
    assert s.game.panels(s.state)["track"].lines[4] == "Ravage added Blight on board A, B"


@pytest.mark.rule("SI-BLIGHT-4")
def test_si_blight_4_no_presence_destroyed_twice_in_one_action() -> None:
    pool = bl.Pool(count=10, players=2, card=CARD)
    world = lands(A={"blight": 1, "presence": ["S:P"], "adjacent": ["B"]}, B={"adjacent": ["A"]})
    run_ = bl.BlightRun(pool, world, save=lambda piece, land: "B")  # saved and pushed to B
    pending = run_.add("A")
    while pending:
        pending = run_.add("B") + pending[1:]
    assert world["B"].presence == ["S:P"]
    assert [e for e in run_.log if e[0] == "destroy_presence"] == []
    assert "S:P" in run_.subject_to_destruction


@pytest.mark.rule("SI-VITALITY-1")
def test_si_vitality_1_one_vitality_stops_one_blight() -> None:
    for vitality, added in ((1, 1), (2, 0)):
        world = lands(L={"vitality": vitality})
        run_ = bl.BlightRun(bl.Pool(10, 2, CARD), world)
        run_.add("L", 2)
        assert world["L"].blight == added and world["L"].vitality == 0


@pytest.mark.rule("SI-VITALITY-2")
def test_si_vitality_2_no_prevention_where_blight_already_is() -> None:
    world = lands(L={"blight": 1, "vitality": 2, "adjacent": ["M"]}, M={})
    run_ = bl.BlightRun(bl.Pool(10, 2, CARD), world)
    cascades = run_.add("L")
    assert world["L"].blight == 2 and world["L"].vitality == 2 and cascades == ["L"]


@pytest.mark.rule("SI-VITALITY-3")
def test_si_vitality_3_fully_prevented_blight_has_no_side_effects() -> None:
    world = lands(L={"vitality": 1, "presence": ["S:1"]})
    run_ = bl.BlightRun(bl.Pool(10, 2, CARD), world, when_added=["Mining Rush"])
    run_.add("L")
    assert world["L"].blight == 0 and world["L"].vitality == 0 and world["L"].presence == ["S:1"]
    assert not any(e[0] in ("when", "take", "destroy_presence") for e in run_.log)


@pytest.mark.rule("SI-VITALITY-4")
def test_si_vitality_4_blight_that_gets_through_has_full_effects() -> None:
    world = lands(L={"vitality": 1, "presence": ["S:1"]})
    run_ = bl.BlightRun(bl.Pool(10, 2, CARD), world, when_added=["when blight added"])
    run_.add("L", 2)
    assert world["L"].blight == 1 and world["L"].presence == []
    assert [e[0] for e in run_.log].count("when") == 1


@pytest.mark.rule("SI-VITALITY-1")
def test_si_vitality_1_tracker_removes_the_vitality_used() -> None:
    s = session()
    run(s, "land A3 vitality=1")
    to_step(s, "spirit", "growth")
    before = tracks(s)["blight.card"]
    run(s, "blight A3 2")
    land = s.view()["spirit_island"]["lands"]["A3"]
    assert land["blight"] == 1 and land.get("vitality", 0) == 0 and land["presence"] == {}
    assert tracks(s)["blight.card"] == before - 1


@pytest.mark.rule("SI-BLIGHTCARD-1")
def test_si_blightcard_1_setup_and_flip_amounts() -> None:
    card = BlightCard("X", healthy_per_player=2, blighted_per_player=4)
    assert bl.setup_amount(card, 2) == 5
    assert bl.flip_amount(card, 2) == 8
    assert bl.setup_amount(None, 2, space_per_player=5) == 11


@pytest.mark.rule("SI-BLIGHTCARD-1")
def test_si_blightcard_1_tracker_starts_with_the_card_amount() -> None:
    assert tracks(session(seats=2))["blight.card"] == 5
    assert tracks(session(seats=3, blight="none"))["blight.card"] == 16


@pytest.mark.rule("SI-BLIGHTCARD-2")
def test_si_blightcard_2_removed_blight_returns_and_card_stays_blighted() -> None:
    s = session()
    run(s, "land A1 blight=2")
    to_step(s, "spirit", "growth")
    run(s, "set blight.card 1", "blight A3")  # flips
    run(s, "set blight.card 3", "remove-blight A1")
    t = tracks(s)
    assert t["blight.card"] == 4 and t["blight.flipped"] == 1
    assert not attempt(s, "set blight.flipped 0").accepted


@pytest.mark.rule("SI-REPLACE-3")
def test_si_replace_3_replaced_blight_goes_back_to_the_card() -> None:
    s = session(seats=2)
    run(s, "land A1 blight=1")
    assert tracks(s)["blight.card"] == 5
    run(s, "remove-blight A1")
    assert tracks(s)["blight.card"] == 6
    assert s.view()["spirit_island"]["lands"]["A1"]["blight"] == 0


@pytest.mark.rule("SI-END-2")
def test_si_end_2_blighted_island_running_out_is_defeat() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "set blight.card 1", "blight A1")  # flip
    run(s, "set blight.card 1", "blight A7")
    assert s.state.over is not None and s.state.over.startswith("defeat")


@pytest.mark.rule("SI-BLIGHT-4")
def test_si_blight_4_tracker_cascade_back_takes_another_presence() -> None:
    s = session()
    run(s, "land A1 blight=1 presence1=2", "land A2 blight=1")
    to_step(s, "spirit", "growth")
    run(s, "begin Power", "blight A1", "cascade A2", "cascade A1")
    lands = s.view()["spirit_island"]["lands"]
    assert lands["A1"]["presence"].get("1", 0) == 0 and lands["A1"]["blight"] == 3
    assert s.view()["spirit_island"]["pending_cascades"] == ["A1"]
    refused = attempt(s, "cascade A3")  # not next to A1
    assert not refused.accepted and "not adjacent to A1" in str(refused.reason)
    run(s, "cascade A5", "end")
    assert tracks(s)["seat1.presence"] == 0 and s.state.over is not None


@pytest.mark.rule("SI-VITALITY-3")
def test_si_vitality_3_tracker_prevented_blight_fires_nothing() -> None:
    s = session(adversary="sweden:5")  # Sweden 2 moved board A's setup Blight from A4 to A5
    run(s, "land A3 vitality=1 presence1=1")
    to_step(s, "spirit", "growth")
    before = tracks(s)
    run(s, "blight A3")
    assert not any("Mining Rush" in n for n in s.notices)
    assert tracks(s) == before  # no Blight left the card, no Presence lost
    assert s.view()["spirit_island"]["lands"]["A3"].get("vitality", 0) == 0


@pytest.mark.rule("SI-BLIGHT-1")
def test_si_blight_1_tracker_triggered_actions_wait_for_the_causing_action() -> None:
    s = session(adversary="scotland:5")
    run(s, "land A1 blight=1")
    to_step(s, "spirit", "growth")
    run(s, "begin Ravage in A1", "blight A1")
    assert not any("Triggered" in n for n in s.notices)
    run(s, "begin Immediately", "end")  # a nested action ending does not release them
    assert not any("Triggered" in n for n in s.notices)
    run(s, "cascade A2")
    assert s.view()["spirit_island"]["actions"] == ["Ravage in A1"]
    run(s, "end")
    # two Blight were added, so two identical triggered actions came due together: no order to ask
    assert s.state.prompt is None
    assert sum("Triggered action now: Runoff" in n for n in s.notices) == 2


@pytest.mark.rule("SI-TRIGGER-4")
def test_si_trigger_4_tracker_blight_alone_is_its_own_action() -> None:
    s = session(adversary="scotland:5")
    to_step(s, "spirit", "growth")
    run(s, "blight A3")  # no open action: the addition itself is the action
    assert any("Triggered action now: Runoff" in n for n in s.notices)
    assert s.view()["spirit_island"]["actions"] == []


def test_blight_addition_with_a_nested_action_ends_when_both_are_done() -> None:
    s = session(adversary="scotland:5")
    run(s, "land A1 blight=1")
    to_step(s, "spirit", "growth")
    run(s, "blight A1", "begin Immediately", "cascade A2")
    assert s.view()["spirit_island"]["actions"] == ["Blight in A1", "Immediately"]
    run(s, "end")
    assert s.view()["spirit_island"]["actions"] == []
    assert s.state.prompt is None  # two identical Runoff triggers: resolved without asking the order
    assert sum("Triggered action now: Runoff" in n for n in s.notices) == 2


@pytest.mark.rule("SI-BLIGHT-1")
def test_buttons_ask_the_immediately_blight_before_the_cascade() -> None:
    s = session(seats=1, blight="Disintegrating Ecosystem")
    to_step(s, "fast", "powers")
    run(s, "set blight.card 1", "blight")
    run(s, "choose 2")  # the land had Blight: this one flips the card, and will cascade
    assert tracks(s)["blight.flipped"] == 1
    run(s, "choose 1")  # seat 1 has no Presence there
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.startswith("The Blight card's Blight:")  # step 1 before step 4
    run(s, "choose 1", "choose 2")  # no Blight there, Vitality: prevented
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == 'Did the land it cascades into already have Blight?'
    assert s.view()["spirit_island"]["actions"] == ["Blight added"]
    run(s, "choose 1", "choose 2")
    assert s.state.prompt is None and s.view()["spirit_island"]["actions"] == []


@pytest.mark.rule("SI-BLIGHTCARD-1")
def test_blighted_island_effects_repeat_each_invader_phase() -> None:
    s = session(seats=1, blight="Downward Spiral")
    run(s, "set seat1.presence 4")
    to_step(s, "fast", "powers")
    run(s, "set blight.card 0")  # a correction that empties the card flips it
    assert tracks(s)["blight.flipped"] == 1
    for presence in (3, 2):
        to_step(s, "invader", "blighted_island")
        assert tracks(s)["seat1.presence"] == presence  # each Spirit destroys 1 Presence
        run(s, "next")
        to_step(s, "fast", "powers")


@pytest.mark.rule("SI-VITALITY-2")
def test_si_vitality_2_tracker_vitality_where_blight_is_prevents_nothing() -> None:
    s = session()
    run(s, "land A2 blight=1 vitality=2")
    to_step(s, "spirit", "growth")
    run(s, "blight A2")
    assert s.view()["spirit_island"]["lands"]["A2"]["blight"] == 2
    assert s.view()["spirit_island"]["lands"]["A2"]["vitality"] == 2
    assert s.view()["spirit_island"]["pending_cascades"] == ["A2"]


@pytest.mark.rule("SI-VITALITY-4")
def test_si_vitality_4_tracker_blight_that_gets_through_has_full_effects() -> None:
    s = session(adversary="russia:1")  # "when Blight is added" reaction from level 1
    run(s, "land A3 vitality=1 presence1=1")
    to_step(s, "spirit", "growth")
    presence = tracks(s)["seat1.presence"]
    run(s, "blight A3 2")
    land = s.view()["spirit_island"]["lands"]["A3"]
    assert (land["blight"], land.get("vitality", 0), land["presence"]) == (1, 0, {})
    assert tracks(s)["seat1.presence"] == presence - 1
    assert sum(1 for n in s.notices if n.startswith("When Blight is added to A3")) == 1


@pytest.mark.rule("SI-TRIGGER-1")
def test_si_trigger_1_tracker_an_older_trigger_waits_for_the_power_to_resolve() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    refused = attempt(s, "trigger Vengeance of the Dead")
    assert not refused.accepted and "no action is open" in str(refused.reason)
    run(s, "begin Power: Flash Floods", "destroy explorer")
    run(s, "trigger Vengeance of the Dead")  # the Power destroyed Dahan too
    assert not any(n.startswith("Triggered action now") for n in s.notices)
    run(s, "begin its second instruction", "end")  # still inside the Power
    assert not any(n.startswith("Triggered action now") for n in s.notices)
    run(s, "end")
    assert "Triggered action now: Vengeance of the Dead" in s.notices


@pytest.mark.rule("SI-BLIGHTCARD-1")
def test_blighted_island_presence_loss_is_taken_from_a_land_the_players_name() -> None:
    """Downward Spiral's every-phase loss comes off the board, so the station asks which land (the
    seat's track and its lands agree after), and the step then goes on by itself."""
    s = session(seats=1, blight="Downward Spiral")
    run(s, "land A5 presence1=1", "land A6 presence1=1", "set seat1.presence 3")  # one not in a land
    to_step(s, "fast", "powers")
    run(s, "set blight.card 0")
    to_step(s, "invader", "blighted_island")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == ("Blighted Island (Downward Spiral): seat 1 destroys 1 Presence "
                                                  "(1 to go): from which land?")
    assert prompt.options == ("A5", "A6", "one not in a land the station tracks")
    run(s, "choose 2")
    land_a6 = s.view()["spirit_island"]["lands"]["A6"]
    assert land_a6["presence"].get("1", 0) == 0 and tracks(s)["seat1.presence"] == 2
    assert s.state.prompt is None
