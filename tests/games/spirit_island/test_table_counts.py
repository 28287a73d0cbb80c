"""The island's Invader counts stay true (asked at setup, Build, Explore and Ravage, the rules'
answer offered first), each terrain's Invader Action ends before its triggers, and the smaller
fixes of the second pass, all through the verbs."""

from __future__ import annotations

import pytest

from tablekeeper import cli

from .helpers import answer_counts, attempt, detail, run, session, to_step, tracks


@pytest.mark.rule("SI-END-1")
def test_destroying_the_starting_pieces_after_three_turns_is_no_victory() -> None:
    s = session(seats=1, boards="1")
    start = tracks(s)
    assert start["island.explorers"] > 2  # the first Explore was confirmed: Explorers added
    for _ in range(3):
        to_step(s, "time", "passes")
        run(s, "next")
    t = tracks(s)
    assert t["island.towns"] + t["island.cities"] > 3  # the Builds were asked and counted
    run(s, "destroy explorer 2", "destroy town 2", "destroy city 1")
    assert s.state.over is None


def test_setup_counts_are_asked_not_assumed() -> None:
    s = session(seats=2, confirm=False)
    assert s.state.prompt is not None and s.state.prompt.text == "Setup: the pieces on the island?"
    assert s.state.prompt.options == ("as the rules place them: 4 Explorers, 4 Towns, 2 Cities", "piece by piece")
    run(s, "choose 2")
    piece = s.state.prompt
    assert piece is not None and piece.text == "Setup: how many explorers are on the island?"
    assert piece.options[0] == "4 Explorers"  # 2 per board, 2 boards: offered first
    run(s, "choose 2")  # none on these boards
    answer_counts(s)
    assert tracks(s)["island.explorers"] > 0  # only what the first Explore added
    assert tracks(s)["seat1.energy"] == 0


@pytest.mark.rule("SI-INV-5")
def test_build_offers_what_the_rules_add_first() -> None:
    s = session(seats=1, boards="1")
    to_step(s, "spirit", "growth")
    run(s, "done 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.startswith("Build in ")
    # 2 Towns, 1 City: Towns outnumber Cities, a City
    assert prompt.options[0] == "as the rules place them: 1 City added"
    detail(s)
    assert s.state.prompt is not None and s.state.prompt.options[:2] == ("1 City", "nothing")
    before = tracks(s)
    run(s, "choose 2")  # the players built nothing (Fear card, say)
    assert tracks(s)["island.cities"] == before["island.cities"]
    assert attempt(s, "next").accepted


@pytest.mark.rule("SI-INV-6")
def test_explore_offers_the_rules_sources_first() -> None:
    s = session(seats=1, boards="1", confirm=False)
    run(s, "choose 1")  # setup counts
    prompt = s.state.prompt
    assert prompt is not None and prompt.text.startswith("Explore")
    # coastal land, and the land beside the Town
    assert prompt.options[0] == "as the rules place them: 2 Explorers added"


@pytest.mark.rule("SI-DEFEND-1")
@pytest.mark.rule("SI-INV-2")
@pytest.mark.rule("SI-INV-3")
def test_ravage_offers_the_damage_with_defend() -> None:
    s = session(seats=1, boards="1")
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    terrain = s.state.get("invader.slots")["ravage"][0]
    run(s, f"land A3 terrain={terrain} defend=40")
    run(s, "done 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[0].startswith("as the rules place them: no Blight")
    detail(s)
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_blight"
    # 2 Explorers 2 Towns 1 City (and the first Explore's) deal 9+, less Defend 40: none
    assert prompt.options[0].startswith("no Blight")
    run(s, "undo", "undo", "land A3 defend=0", "done 1")
    assert s.state.prompt is not None and s.state.prompt.options[0].startswith(
        "as the rules place them: Blight on the board")
    detail(s)
    assert s.state.prompt is not None and s.state.prompt.options[0].startswith("Blight added")


@pytest.mark.rule("SI-BLIGHT-1")
def test_button_ravage_is_one_invader_action_so_scotland_fires_after_it() -> None:
    s = session(seats=1, boards="1", adversary="scotland:5")
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    run(s, "done 1")
    assert s.state.get("ravage.blight_boards") == ()
    detail(s)
    run(s, "choose 1")  # Blight, as the damage says
    run(s, "choose 1", "choose 1", "choose 1")  # no Blight there, no Vitality, no Presence
    assert s.view()["spirit_island"]["actions"] == ["Ravage in " + s.state.get("invader.slots")["ravage"][0]]
    assert not any("Runoff" in n for n in s.notices)
    run(s, "choose 1")  # destroyed: the Dahan's counterattack as offered; the Ravage ends
    assert any(n.startswith("Triggered action now: Runoff") for n in s.notices)
    assert s.game.panels(s.state)["track"].lines[4] == "Ravage added Blight on board A"


@pytest.mark.rule("SI-INV-8")
def test_ravage_destroyed_pieces_leave_the_island_and_generate_fear() -> None:
    s = session(seats=1, boards="1")
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    run(s, "done 1")
    detail(s)
    blight = s.state.prompt
    assert blight is not None
    run(s, f"choose {1 + blight.options.index('no Blight') if 'no Blight' in blight.options else 1}")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_destroyed"
    before = tracks(s)
    run(s, f"choose {prompt.options.index('1 Town') + 1}")
    after = tracks(s)
    assert after["island.towns"] == before["island.towns"] - 1
    assert after["fear.generated"] == before["fear.generated"] + 1


def test_innate_is_refused_below_its_threshold() -> None:
    s = session(spirits="river,lightning")
    to_step(s, "spirit", "growth")
    run(s, "play 2 lightning's boon")
    assert s.view()["spirit_island"]["elements"]["seat2"] == {"fire": 1, "air": 1}
    to_step(s, "fast", "powers")
    refused = attempt(s, "innate 2")
    assert not refused.accepted and "needs 3 fire 2 air" in str(refused.reason)
    run(s, "element 2 fire fire air")
    run(s, "innate 2")
    assert attempt(s, "innate 1 fire=1").accepted is False  # seat 1 has no Fire
    assert attempt(s, "innate 1").accepted is False  # River's Innate is Slow


def test_set_a_deck_track_to_its_value_is_a_no_op_and_bad_events_option_is_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    s = session()
    run(s, "set terror 1", "set seat1.energy 0")
    assert not attempt(s, "set terror 2").accepted
    assert cli.main(["play", "spirit_island", "--option", "events=maybe"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tablekeeper: --option events='maybe': expected on or off"]


def test_fast_powers_is_shown_once_on_the_track_display() -> None:
    s = session()
    to_step(s, "fast", "powers")
    track = s.game.panels(s.state)["track"]
    assert track.title == "Fast Powers" and track.lines[0] == f"Turn {s.state.round}. A: done, B: seat menu"
    assert not any("Fast Powers" in line for line in track.lines)


@pytest.mark.parametrize(("adversary", "cards"), [("france:2", 10), ("russia:6", 14), ("sweden:0", 9)])
def test_adversary_level_sets_the_fear_deck(adversary: str, cards: int) -> None:
    s = session(seats=1, adversary=adversary)
    assert tracks(s)["fear.cards_left"] == cards


def test_unknown_adversary_is_a_config_error() -> None:
    from tablekeeper.errors import ConfigError

    with pytest.raises(ConfigError, match="expected one of france, russia, scotland, sweden"):
        session(adversary="england:3")


@pytest.mark.parametrize("answer", [1, 2])
def test_adversary_loss_condition_is_asked_as_its_step_ends(answer: int) -> None:
    s = session(seats=1, boards="1", adversary="scotland:1")
    to_step(s, "fast", "powers")
    run(s, "done 1", "choose 1")  # the Build's additions
    prompt = s.state.prompt
    assert prompt is not None and prompt.options == ("no, play on", "yes: the game is lost")
    assert prompt.text == "Scotland's loss condition: more Coastal lands with Cities than 2 per board?"
    run(s, f"choose {answer}")
    assert (s.state.over is None) == (answer == 1)
    if answer == 2:
        assert s.state.over == "defeat: Scotland: more Coastal lands with Cities than 2 per board"


def test_escalation_additions_are_asked_after_the_explore() -> None:
    s = session(seats=1, boards="1", adversary="france:0", invaders="report")
    run(s, "reveal invaders Jungle")
    answer_counts(s)
    run(s, "next")
    for card in ("Sands", "Wetland", "Mountain"):
        to_step(s, "invader", "explore")
        run(s, f"reveal invaders {card}")
        answer_counts(s)
        run(s, "next")
    to_step(s, "invader", "explore")
    run(s, "reveal invaders Wetland")  # a Stage II card with the escalation mark
    prompt = s.state.prompt
    assert prompt is not None and "Escalation adds" in prompt.options[0]
    run(s, "choose 2", "choose 1")  # terrain by terrain: the Explore's own additions
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Escalation in Wetland: what was added?"
    assert s.view()["spirit_island"]["actions"] == ["Escalation in Wetland"]


@pytest.mark.rule("SI-BADLANDS-3")
@pytest.mark.rule("SI-DEFEND-4")
def test_ravage_damage_counts_badlands_only_on_real_damage() -> None:
    s = session(seats=1, boards="1")
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    terrain = s.state.get("invader.slots")["ravage"][0]

    def offered(*lines: str) -> str:
        run(s, *lines, "done 1", "choose 2")
        prompt = s.state.prompt
        assert prompt is not None
        run(s, "undo", "undo", *(["undo"] * len(lines)))
        return prompt.options[0]

    full = int(offered().split("(")[1].split()[0])
    assert offered(f"land A3 terrain={terrain} defend={full - 1}") == "no Blight (1 Damage to the land)"
    assert offered(f"land A3 terrain={terrain} defend={full - 1} badlands=1") == "Blight added (2 Damage to the land)"
    assert offered(f"land A3 terrain={terrain} defend={full} badlands=1") == "no Blight (0 Damage to the land)"


@pytest.mark.rule("SI-FEAR-2")
def test_a_power_card_from_the_data_is_played_by_name() -> None:
    s = session()
    to_step(s, "spirit", "growth")
    run(s, "play 1 concealing")  # Concealing Shadows: 0 Energy, Fast, the Fear icon
    assert any("Fear icon" in n for n in s.notices)
    assert s.view()["spirit_island"]["played"]["seat1"][0]["name"] == "Concealing Shadows"
    run(s, "element 1 moon air")
    assert s.view()["spirit_island"]["elements"]["seat1"] == {"moon": 1, "air": 1}
    assert not attempt(s, "play 2 nothing like this").accepted


@pytest.mark.rule("SI-STRIFE-2")
@pytest.mark.rule("SI-INV-4")
def test_ravage_answers_follow_strife_and_the_dahan_recorded() -> None:
    s = session(seats=1, boards="1")
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    terrain = s.state.get("invader.slots")["ravage"][0]
    run(s, "done 1", "choose 2")
    prompt = s.state.prompt
    assert prompt is not None
    full = int(prompt.options[0].split("(")[1].split()[0])
    run(s, "undo", "undo", f"land A3 terrain={terrain} strife=1 dahan=4 defend={full - 3}", "done 1", "choose 2")
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[0] == "no Blight (0 Damage to the land)"  # the City's Strife
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_destroyed"
    # no damage reached the 4 Dahan: 8 damage back, Towns first (2 each), then Explorers
    towns = tracks(s)["island.towns"]
    assert prompt.options[0].startswith(f"{8 - 2 * towns} Explorers" if towns < 4 else "4 Towns")


def test_panel_next_on_a_seat_menu_closes_it_and_a_refused_item_says_why() -> None:
    from tablekeeper.station.controls import Controls

    s = session()
    to_step(s, "spirit", "growth")
    controls = Controls(s.game, clock=lambda: 0.0)
    for role in ("seat1.b", "next"):
        for command in controls.press(role, s.state):
            assert s.perform(command).accepted
    assert s.state.prompt is None and tracks(s)["fear.generated"] == 0
    run(s, "seat-menu 1", "more 1", "choose 4")  # "use an Innate Power" outside the Power phases
    assert s.state.prompt is None
    assert any(n == "Innate refused: Innate Powers are used in the Fast or Slow Power phase" for n in s.notices)


def test_unknown_spirit_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "spirit_island", "--option", "spirits=river,ocean"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown Spirit 'ocean'" in err[0] and "lightning, river" in err[0]


@pytest.mark.rule("SI-BLIGHT-2")
def test_si_blight_2_invaders_arriving_partway_through_a_ravage_add_no_damage() -> None:
    s = session(seats=2)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "spirit", "growth")
    run(s, "done 1", "done 2", "choose 2")  # the Ravage, board by board
    board_a = s.state.prompt
    assert board_a is not None and board_a.text.endswith("on board A: did it add Blight?")
    run(s, f"choose {board_a.options.index('no Blight') + 1 if 'no Blight' in board_a.options else 1}")
    run(s, "add island.towns 2")  # a flipped card adds Towns partway through the Ravage
    board_b = s.state.prompt
    assert board_b is not None and board_b.text.endswith("on board B: did it add Blight?")
    assert board_b.options == board_a.options  # the damage was settled when the Ravage began
    run(s, f"choose {board_b.options.index('no Blight') + 1 if 'no Blight' in board_b.options else 1}")
    destroyed = s.state.prompt
    assert destroyed is not None and destroyed.id == "si.counts.ravage_destroyed"
    towns = tracks(s)["island.towns"]
    run(s, f"choose {destroyed.options.index('2 Towns') + 1}")  # the counterattack may hit the new ones
    assert tracks(s)["island.towns"] == towns - 2
