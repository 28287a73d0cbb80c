"""The tracker at the table: turn order, card plays, Fear and Terror, the Invader deck, endings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.errors import ConfigError
from tablekeeper.games.spirit_island import data as datamod

from .helpers import answer_counts, attempt, record, run, session, to_step, together, tracks


@pytest.mark.rule("SI-TURN-1")
def test_si_turn_1_phase_order() -> None:
    s = session()
    seen: list[str] = []
    to_step(s, "spirit", "growth")
    for _ in range(40):
        answer_counts(s)
        pos = f"{s.state.phase}.{s.state.step}"
        if not seen or seen[-1] != pos:
            seen.append(pos)
        if s.state.round == 3:
            break
        if (s.state.round, pos, s.state.done) == (2, "spirit.growth", ()):
            run(s, "play 1 0 fast", "play 2 0 slow")  # a Power phase with nothing to use is skipped
        if together(s):
            for seat in (1, 2):
                if seat not in s.state.done:
                    run(s, f"done {seat}")
        else:
            run(s, "next")
    turn2 = seen[seen.index("spirit.growth", 1):]
    assert turn2[:turn2.index("time.passes") + 1] == [
        "spirit.growth", "fast.powers", "invader.ravage", "invader.build", "invader.explore",
        "invader.advance", "slow.powers", "time.passes"]


@pytest.mark.rule("SI-TURN-2")
def test_si_turn_2_card_plays_and_energy_paid_at_once() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "set seat1.energy 3", "set seat1.card_plays 2")
    run(s, "play 1 1 fast", "play 1 2 slow")
    assert tracks(s)["seat1.energy"] == 0
    out = attempt(s, "play 1 0 fast")
    assert not out.accepted and "may play 2" in str(out.reason)
    s2 = session()
    to_step(s2, "spirit", "growth")
    run(s2, "set seat1.energy 3", "set seat1.card_plays 2", "play 1 2 fast")
    out = attempt(s2, "play 1 2 slow")
    assert not out.accepted and tracks(s2)["seat1.energy"] == 1


@pytest.mark.rule("SI-TURN-2")
def test_si_turn_2_elements_gained_at_once() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "play 1 0 fast sun fire", "play 2 1 slow water")
    extra = s.view()["spirit_island"]
    assert extra["elements"]["seat1"] == {"sun": 1, "fire": 1}


@pytest.mark.rule("SI-TURN-3")
def test_si_turn_3_time_passes_clears_the_turn() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "play 1 1 fast sun", "land A3 defend=2")
    assert s.view()["spirit_island"]["lands"]["A3"]["defend"] == 2
    to_step(s, "time", "passes")
    assert tracks(s)["seat1.cards_played"] == 0
    assert s.view()["spirit_island"]["elements"]["seat1"] == {}
    assert s.view()["spirit_island"]["lands"]["A3"].get("defend", 0) == 0
    assert any("heal all Damage" in n for n in s.notices)


@pytest.mark.rule("SI-INV-1")
def test_si_inv_1_fear_card_earned_in_fast_resolves_before_ravage_one_in_ravage_next_turn() -> None:
    s = session(seats=1)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast")
    run(s, "fear 4")  # pool 4: one card
    to_step(s, "invader", "fear")
    assert s.state.prompt is not None and ", Terror Level I: " in s.state.prompt.text
    run(s, "choose 1", "next")
    assert s.state.step == "ravage"
    resolved = s.view()["spirit_island"]["fear_resolved"]
    assert len(resolved) == 1 and resolved[0]["phase"] == "fast"
    run(s, "fear 4")  # earned during the Ravage
    to_step(s, "time", "passes")
    assert len(s.view()["spirit_island"]["fear_resolved"]) == 1 and tracks(s)["fear.earned"] == 1
    run(s, "next")
    to_step(s, "invader", "fear")
    run(s, "choose 1")
    assert len(s.view()["spirit_island"]["fear_resolved"]) == 2


@pytest.mark.rule("SI-TERROR-1")
def test_si_terror_1_each_fear_card_uses_the_level_when_it_is_revealed() -> None:
    s = session(seats=1)
    run(s, "fear 8")  # two cards earned at TL I
    to_step(s, "invader", "fear")
    assert s.state.prompt is not None and ", Terror Level I: " in s.state.prompt.text
    run(s, "fear 4")  # the first card's Fear earns the third card: TL II from now on
    run(s, "choose 1")
    assert s.state.prompt is not None and ", Terror Level II: " in s.state.prompt.text
    run(s, "choose 1", "choose 1")  # the card earned during the step is resolved too
    resolved = s.view()["spirit_island"]["fear_resolved"]
    assert [c["terror"] for c in resolved] == [1, 2, 2]
    run(s, "next")
    assert s.state.step == "build"  # turn 1 has no Ravage card


@pytest.mark.rule("SI-INV-7")
def test_si_inv_7_tracker_advance() -> None:
    s = session()
    to_step(s, "invader", "advance")
    slots = record(s).slots.as_mapping()
    assert list(slots["explore"]) == [] and len(slots["ravage"]) == 1 and len(slots["build"]) == 1


@pytest.mark.rule("SI-INV-8")
def test_si_inv_8_destroying_buildings_generates_fear_removing_does_not() -> None:
    s = session()
    run(s, "fear 1", "destroy town A8")
    assert tracks(s)["fear.generated"] == 2
    run(s, "remove city A2")
    assert tracks(s)["fear.generated"] == 2
    run(s, "destroy city B2")
    assert tracks(s)["fear.generated"] == 4


@pytest.mark.rule("SI-FEARPOOL-1")
def test_si_fearpool_1_four_per_player() -> None:
    assert tracks(session(seats=3))["fear.pool"] == 12


@pytest.mark.rule("SI-FEARPOOL-2")
def test_si_fearpool_2_leftover_fear_carries_over() -> None:
    s = session(seats=1)
    run(s, "fear 3", "fear 3")
    t = tracks(s)
    assert t["fear.earned"] == 1 and t["fear.generated"] == 2 and t["fear.cards_left"] == 8


@pytest.mark.rule("SI-FEAR-1")
def test_si_fear_1_markers_added_to_the_pool_mid_game() -> None:
    s = session(seats=2)
    run(s, "fear 3", "add fear.pool +2")
    t = tracks(s)
    assert t["fear.pool"] == 10 and t["fear.generated"] == 3
    run(s, "fear 6")
    assert tracks(s)["fear.earned"] == 0
    run(s, "fear 1")
    assert tracks(s)["fear.earned"] == 1
    assert not attempt(s, "set fear.pool 0").accepted


@pytest.mark.rule("SI-TERROR-1")
def test_si_terror_1_third_card_exposes_terror_level_two() -> None:
    s = session(seats=1)
    run(s, "fear 8")
    assert tracks(s)["terror"] == 1
    run(s, "fear 4")
    assert tracks(s)["terror"] == 2
    run(s, "remove town A8")  # board A's one Town and one City; Explorers stay
    run(s, "remove city A2")
    assert s.state.over is not None and "no Towns or Cities" in s.state.over


@pytest.mark.rule("SI-DECK-1")
def test_si_deck_1_tracker_deals_twelve_cards_by_stage() -> None:
    s = session(seats=1, invaders="report")
    assert tracks(s)["invader.cards_left"] == 12
    stages = []
    run(s, "reveal invaders Jungle")
    answer_counts(s)
    run(s, "next")
    stages.append(1)
    for card in ("Sands", "Wetland", "Coastal", "Jungle", "Mountain", "Sands",
                 "Jungle+Sands", "Mountain+Wetland", "Sands+Wetland", "Jungle+Mountain", "Jungle+Wetland"):
        to_step(s, "invader", "explore")
        stages.append(tracks(s)["invader.stage"])
        run(s, f"reveal invaders {card}")
        answer_counts(s)
        run(s, "next")
    assert stages == [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    assert tracks(s)["invader.cards_left"] == 0


def test_reported_draw_outside_explore_and_of_a_wrong_stage_is_refused() -> None:
    s = session(invaders="report")
    out = attempt(s, "reveal invaders Coastal")
    assert not out.accepted and "Coastal" in str(out.reason)
    held = attempt(s, "next")
    assert not held.accepted and "reveal invaders" in str(held.reason)
    run(s, "reveal invaders Sands")
    answer_counts(s)
    run(s, "next")
    assert not attempt(s, "draw invaders").accepted


@pytest.mark.rule("SI-END-1")
def test_si_end_1_victory_at_once_mid_phase() -> None:
    s = session(seats=1)
    run(s, "fear 12")
    assert tracks(s)["terror"] == 2
    to_step(s, "fast")
    run(s, "remove city 1")  # the only land with a City: A2
    assert s.state.over is None
    run(s, "destroy town")  # the only Town, in A8
    assert s.state.over is not None and s.state.over.startswith("victory")
    assert s.state.phase == "fast"
    assert not attempt(s, "next").accepted


@pytest.mark.rule("SI-END-1")
def test_si_end_1_earning_the_last_fear_card_wins() -> None:
    s = session(seats=1)
    run(s, "fear 36")
    assert s.state.over == "victory: every Fear card has been earned"


@pytest.mark.rule("SI-END-2")
def test_si_end_2_empty_invader_deck_at_explore_is_defeat() -> None:
    s = session(seats=1)
    for _ in range(12):
        if s.state.over:
            break
        to_step(s, "invader", "explore")
        answer_counts(s)
        run(s, "next") if not s.state.over else None
    assert s.state.over == "defeat: the Invader deck is empty at Explore (time runs out)"


@pytest.mark.rule("SI-END-2")
def test_si_end_2_spirit_without_presence_is_defeat() -> None:
    s = session()
    run(s, "add seat2.presence -2")
    assert s.state.over == "defeat: seat 2's Spirit has no Presence on the island"


@pytest.mark.rule("SI-END-3")
def test_si_end_3_one_effect_winning_and_losing_is_a_victory() -> None:
    s = session(seats=1)
    run(s, "fear 24")
    assert tracks(s)["terror"] == 3
    run(s, "begin Power", "destroy city 1", "add seat1.presence -2")
    assert s.state.over is None
    run(s, "end")
    assert s.state.over is not None and s.state.over.startswith("victory (sacrifice)")


def test_undo_restores_fear_and_deck() -> None:
    s = session(seats=1)
    before = tracks(s)
    run(s, "fear 4")
    assert tracks(s)["fear.cards_left"] == 8
    assert s.undo().accepted
    assert tracks(s) == before


def test_bad_data_file_names_file_and_key(tmp_path: Path) -> None:
    text = datamod.load().source  # the packaged files load
    assert text == "spirit_island/data"
    bad = tmp_path / "si.toml"
    from importlib import resources
    good = resources.files("tablekeeper.games.spirit_island").joinpath("data/standard.toml").read_text("utf-8")
    bad.write_text(good.replace("pool_per_player = 4", 'pool_per_player = "four"'), encoding="utf-8")
    with pytest.raises(ConfigError, match=r"si.toml: fear.pool_per_player"):
        datamod.load(str(bad))
    with pytest.raises(ConfigError, match="no such data file"):
        datamod.load(str(tmp_path / "missing.toml"))


def test_option_data_loads_a_users_copy(tmp_path: Path) -> None:
    from importlib import resources
    good = resources.files("tablekeeper.games.spirit_island").joinpath("data/standard.toml").read_text("utf-8")
    copy = tmp_path / "five.toml"
    copy.write_text(good.replace("pool_per_player = 4", "pool_per_player = 5"), encoding="utf-8")
    assert tracks(session(seats=2, data=str(copy)))["fear.pool"] == 10


def test_unknown_option_and_blight_card_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown option"):
        session(colour="red")
    with pytest.raises(ConfigError, match="no blight card"):
        session(blight="Nope")
    with pytest.raises(ConfigError, match="boards"):
        session(boards="two")
    with pytest.raises(ConfigError, match="adversary"):
        session(adversary="france")
    assert tracks(session(seats=1, boards="2"))["island.towns"] == 2  # A8 and B6 as printed
    assert record(session(seats=1, boards="B,D")).boards == ("B", "D")


def test_cli_bad_option_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper import cli

    code = cli.main(["play", "spirit_island", "--option", "invaders=maybe", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and err.strip().count("\n") == 0 and "invaders" in err and "Traceback" not in err


def test_next_invader_card_odds_are_exact() -> None:
    from fractions import Fraction

    from tablekeeper.core.chance import Deck, Multiset
    from tablekeeper.games.spirit_island.odds import next_card_terrains

    terrains = ["Jungle", "Mountain", "Sands", "Wetland"]
    stage3 = Deck("invaders", (Multiset.of(datamod.load().invader_pools[2]),), reshuffle=False)
    odds = next_card_terrains(stage3, terrains)
    assert odds["Jungle"] == Fraction(1, 2) and odds["Coastal"] == 0
    s = session(seats=1, invaders="report")
    run(s, "reveal invaders Wetland")
    answer_counts(s)
    run(s, "next")
    view = s.view()["spirit_island"]["next_invader_card"]
    assert view == {"Jungle": "33.3%", "Mountain": "33.3%", "Sands": "33.3%", "Wetland": "0.0%", "Coastal": "0.0%"}
