"""The campaign log across scenarios, kept in the SQLite save store (AH-CAMP, AH-XP, AH-TRAUMA,
AH-KILLED, AH-NEXT, AH-JOIN, AH-EXCEPT)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import GAME, rules
from tablekeeper.games.arkham.campaign import Campaign

from .helpers import do, new, rejects, track


def play(log: Campaign, *lines: str) -> Session:
    session = Session(GAME, seats=len(log.body["players"]), seed=1, options=log.start_scenario())
    return do(session, *lines)


def campaign(**players: str) -> Campaign:
    return Campaign.new("night_of_the_zealot", "standard",
                        {int(k.removeprefix("seat")): v for k, v in (players or {"seat1": "roland",
                                                                                  "seat2": "daisy"}).items()})


@pytest.mark.rule("AH-CAMP-2")
def test_ah_camp_2_next_scenario_blocked_until_the_log_is_written() -> None:
    log = campaign()
    session = play(log, "resolution R1")
    with pytest.raises(Rejected, match="record the last scenario's results"):
        log.start_scenario()
    log.record(session.state)
    assert log.start_scenario()["scenario_id"] == "midnight_masks"


@pytest.mark.rule("AH-XP-2")
def test_ah_xp_2_victory_plus_resolution_bonus_added_to_unspent() -> None:
    log = campaign()
    log.investigator("roland")["xp"] = 1
    session = play(log, "victory 1", "victory 2", "resolution R1")
    gains = log.record(session.state, resolution_bonus=2)
    assert gains == {"roland": 5, "daisy": 5}
    assert log.investigator("roland")["xp"] == 6 and log.investigator("daisy")["xp"] == 5


@pytest.mark.rule("AH-XP-3")
def test_ah_xp_3_cost_is_the_level_minimum_one() -> None:
    assert (rules.xp_cost(0), rules.xp_cost(3)) == (1, 3)


@pytest.mark.rule("AH-XP-7")
def test_ah_xp_7_upgrade_pays_the_difference() -> None:
    assert rules.xp_cost(2, upgrade_from=0) == 2
    assert rules.xp_cost(5, upgrade_from=3) == 2
    assert rules.xp_cost(2, upgrade_from=1) == 1


@pytest.mark.rule("AH-EXCEPT-1")
def test_ah_except_1_exceptional_costs_double() -> None:
    assert rules.xp_cost(2, exceptional=True) == 4


@pytest.mark.rule("AH-XP-8")
def test_ah_xp_8_each_copy_paid_separately() -> None:
    log = campaign()
    log.investigator("roland")["xp"] = 3
    assert log.buy(1, "Extra Ammunition", 1) + log.buy(1, "Extra Ammunition", 1) == 2
    assert log.investigator("roland")["xp"] == 1
    with pytest.raises(Rejected, match="has 1 experience; Police Badge costs 2"):
        log.buy(1, "Police Badge", 2)


@pytest.mark.rule("AH-TRAUMA-4")
def test_ah_trauma_4_trauma_becomes_starting_damage_and_horror() -> None:
    log = campaign()
    log.investigator("roland").update(physical_trauma=2, mental_trauma=1)
    session = play(log)
    assert (track(session, "seat1.damage"), track(session, "seat1.horror")) == (2, 1)
    assert (track(session, "seat2.damage"), track(session, "seat2.horror")) == (0, 0)


def test_trauma_from_a_defeat_is_carried_to_the_next_scenario() -> None:
    log = campaign()
    session = play(log, "hit seat1 0 5", "resolution R1")  # Roland defeated by horror
    log.record(session.state)
    assert log.investigator("roland")["mental_trauma"] == 1
    nxt = play(log)
    assert track(nxt, "seat1.horror") == 1 and track(nxt, "seat1.mental_trauma") == 1


@pytest.mark.rule("AH-KILLED-1")
def test_ah_killed_1_a_killed_investigator_cannot_be_chosen_again() -> None:
    log = campaign()
    log.investigator("daisy")["physical_trauma"] = 4  # printed health 5
    session = play(log, "hit seat2 1", "resolution R1")  # starts with 4 damage
    log.record(session.state)
    assert log.investigator("daisy")["fate"] == "killed"
    with pytest.raises(Rejected, match="daisy is killed"):
        log.replace(2, "daisy")
    log.replace(2, "agnes")
    assert log.body["players"]["2"] == "agnes"


@pytest.mark.rule("AH-KILLED-2")
def test_ah_killed_2_an_empty_pool_loses_the_campaign() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"}, investigators=["roland"])
    log.investigator("roland")["physical_trauma"] = 8
    session = play(log, "hit seat1 1")  # starts with 8 damage
    assert session.state.over == "no resolution"
    log.record(session.state)
    with pytest.raises(Rejected, match="the campaign is lost"):
        log.replace(1, None)
    assert log.status == "lost"


@pytest.mark.rule("AH-NEXT-1")
def test_ah_next_1_a_resolution_may_send_the_group_elsewhere() -> None:
    log = campaign()
    log.record(play(log, "resolution R1").state)
    assert log.next_scenario() == "midnight_masks"
    log2 = campaign()
    log2.record(play(log2, "resolution R2").state, go_to="devourer_below")
    assert log2.next_scenario() == "devourer_below"


@pytest.mark.rule("AH-JOIN-1")
def test_ah_join_1_no_joining_mid_scenario() -> None:
    log = campaign()
    play(log)
    with pytest.raises(Rejected, match="only between scenarios"):
        log.join(3, "skids")


@pytest.mark.rule("AH-JOIN-3")
def test_ah_join_3_newcomer_takes_an_unused_investigator_fresh() -> None:
    log = campaign()
    log.investigator("daisy")["xp"] = 4
    log.leave(2)
    with pytest.raises(Rejected, match="daisy has already been used"):
        log.join(3, "daisy")
    log.join(3, "skids")
    assert log.investigator("skids") == {"xp": 0, "physical_trauma": 0, "mental_trauma": 0, "fate": None,
                                         "purchases": []}
    log.rejoin(2, "daisy")  # AH-JOIN-2: the leaver's record was kept
    assert log.investigator("daisy")["xp"] == 4


def test_a_campaign_through_the_cli_save_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """play --campaign: the log is written when a scenario ends and feeds the next slot."""
    import json

    from tablekeeper import cli

    save = str(tmp_path / "zealot.db")
    first = tmp_path / "one.script"
    first.write_text("hit seat1 0 5\nvictory 2\nbonus +1\nresolution R1\n", encoding="utf-8")
    common = ["play", "arkham", "--save", save, "--campaign", "zealot", "--json"]
    assert cli.main([*common, "--slot", "one", "--script", str(first)]) == 0
    capsys.readouterr()
    with Store.open(save) as store:
        log = store.campaign("zealot")
    assert log is not None
    assert log["investigators"]["roland"]["mental_trauma"] == 1 and log["investigators"]["daisy"]["xp"] == 3
    second = tmp_path / "two.script"
    second.write_text("\n", encoding="utf-8")
    assert cli.main([*common, "--slot", "two", "--script", str(second)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["scenario"] == "midnight_masks"
    assert view["tracks"]["seat1.horror"] == 1 and view["tracks"]["seat2.xp"] == 3


@pytest.mark.rule("AH-KILLED-1")
def test_ah_killed_1_a_killed_investigator_is_refused_at_setup() -> None:
    import json

    log = campaign()
    log.investigator("roland").update(physical_trauma=9, fate="killed")
    from tablekeeper.errors import ConfigError

    with pytest.raises(ConfigError, match="roland is killed: choose another investigator"):
        Session(GAME, seats=2, seed=1, options={"campaign": json.dumps(log.body)})
    session = Session(GAME, seats=2, seed=1, options={"campaign": json.dumps(log.body), "seat1": "wendy"})
    assert track(session, "seat1.physical_trauma") == 0 and track(session, "seat1.health") == 7


@pytest.mark.rule("AH-XP-8")
def test_buying_through_the_verb_before_the_scenario_starts() -> None:
    """`buy` in a campaign scenario before its first NEXT: each copy paid (AH-XP-3/8), exceptional
    doubled (AH-EXCEPT-1); the log the scenario ends with keeps the purchases and what is left."""
    import json

    log = campaign()
    log.investigator("roland")["xp"] = 6
    s = Session(GAME, seats=2, seed=1, options={"campaign": json.dumps(log.body)})
    assert track(s, "seat1.xp") == 6
    do(s, "buy seat1 Extra Ammunition 1", "buy seat1 Extra Ammunition 1", "buy seat1 Cat Burglar 1 exceptional")
    assert track(s, "seat1.xp") == 2
    assert rejects(s, "buy seat1 Sure Gamble 3") == "roland has 2 experience; Sure Gamble costs 3"
    assert rejects(s, "buy seat2 Knife 0 shiny") == "buy: unknown word 'shiny'"
    assert rejects(s, "buy seat1 Extra Amunition 1") == ("no player card 'Extra Amunition' in the card data "
                                                        "(arkham/data/cards.toml); nearest: Extra Ammunition")
    do(s, "next")
    assert rejects(s, "buy seat1 Knife 0") == ("cards are bought only between scenarios: "
                                              "before this scenario's first NEXT")
    do(s, "victory 1", "resolution R1")
    after = s.game.campaign_record(s.state, log.body)
    assert after is not None
    roland = after["investigators"]["roland"]
    assert [p["cost"] for p in roland["purchases"]] == [1, 1, 2] and roland["xp"] == 2 + 1


def test_buying_needs_a_campaign() -> None:
    assert rejects(new(), "buy seat1 Card 1") == ("cards are bought between the scenarios of a campaign "
                                                  "(play --campaign NAME)")


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize("line", ["The Ghoul Priest is still alive", "the ghoul priest is still alive."])
def test_a_campaign_whose_log_records_the_ghoul_priest_alive_shuffles_him_into_the_midnight_masks(
        monkeypatch: pytest.MonkeyPatch, protection: str, line: str) -> None:
    """The Gathering's result records the line the campaign guide has the table write; The Midnight Masks'
    setup reads it (01120's setup: the Ghoul Priest is shuffled into the encounter deck) without the
    table typing ``--option log=`` too."""
    if protection == "protection-removed":  # the log's record lines are not read by the next setup
        monkeypatch.setattr(Campaign, "logged_entries", lambda self, scenario: [])
    alive, gone = campaign(), campaign()
    for log, lines in ((alive, (f"record {line}", "resolution R1")), (gone, ("resolution R1",))):
        log.record(play(log, *lines).state)
    if protection == "on":
        assert alive.session_options({})["log"] == "ghoul_priest_alive" and "log" not in gone.session_options({})
    with_him, without = play(alive), play(gone)
    assert track(with_him, "encounter.deck") == track(without, "encounter.deck") + (protection == "on")
