"""Night of the Zealot as data, through the verbs: the scenario reference cards read on the board
(a skull that counts the Ghouls beside you, a cultist's horror on a failure), enemies with their
printed numbers and keywords (health per investigator, retaliate, alert, massive, surge), locations
placed, revealed and removed by the scenario's own cards, Objectives the station checks."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.arkham import rules

from .helpers import answer, data, do, new, rejects, start_turn, to_step, track

FIXTURES = Path(__file__).resolve().parent / "fixtures"

# The Night of the Zealot Standard bag as the campaign guide lists it, written out here on purpose
# (not read from the package data): the independent side of the odds checks below.
STANDARD = {"+1": 1, "0": 2, "-1": 3, "-2": 2, "-3": 1, "-4": 1, "skull": 2, "cultist": 1, "tablet": 1,
            "autofail": 1, "elder_sign": 1}


def enumerated(skill: int, difficulty: int, values: dict[str, int | None]) -> Fraction:
    """Success over every single token of the bag, one by one (None: the automatic failure)."""
    good = sum(n for token, n in STANDARD.items()
               if values[token] is not None and max(0, skill + (values[token] or 0)) >= difficulty)
    return Fraction(good, sum(STANDARD.values()))


def gathering_values(ghouls: int, elder_sign: int) -> dict[str, int | None]:
    """The Gathering, Easy/Standard side: skull -X (X = Ghoul enemies at your location), cultist -1,
    tablet -2 (card 01104)."""
    numbers = {t: int(t) for t in ("+1", "0", "-1", "-2", "-3", "-4")}
    return {**numbers, "skull": -ghouls, "cultist": -1, "tablet": -2, "autofail": None, "elder_sign": elder_sign}


def odds(s: Session) -> str:
    return str(data(s, "odds")["exact"])


# --- the scenario reference card -------------------------------------------------------------------
@pytest.mark.rule("AH-CHAOS-2")
@pytest.mark.parametrize("ghouls", [0, 1, 2, 3])
@pytest.mark.parametrize(("skill", "difficulty"), [(5, 4), (3, 3), (2, 4), (6, 2)])
def test_the_gatherings_skull_counts_the_ghouls_at_the_investigators_location(ghouls: int, skill: int,
                                                                             difficulty: int) -> None:
    """Daisy (elder sign +0) tests in the Study. Ghoul Minions engaged with her or with Roland beside
    her count; a Swarm of Rats (no Ghoul) and a Ghoul in another room do not."""
    s = new()
    do(s, "location Hallway", "enemy seat1 Ghoul Minion at=Hallway", "enemy seat1 Swarm of Rats")
    for i in range(ghouls):
        do(s, f"enemy seat{1 + i % 2} Ghoul Minion")
    do(s, f"test seat2 willpower {skill} {difficulty}")
    expected = enumerated(skill, difficulty, gathering_values(ghouls, 0))
    assert odds(s) == f"{expected.numerator}/{expected.denominator}"
    assert data(s, "odds").get("notes") is None  # every enemy is placed: nothing unseen


def test_two_ghouls_at_your_location_skill_5_against_4_is_one_half() -> None:
    """The issue's reproduction: the box showed 5/8 (skull fixed at -1); the card gives 1/2."""
    s = new()
    do(s, "enemy seat2 Ghoul Minion", "enemy seat2 Ghoul Minion", "test seat2 willpower 5 4")
    assert odds(s) == "1/2"
    do(s, "reveal chaos skull")
    assert data(s, "test")["result"]["modified_skill"] == 3 and data(s, "test")["result"]["success"] is False


def test_a_ghoul_that_arrives_changes_the_odds_of_the_next_test() -> None:
    s = new()
    do(s, "test seat1 intellect 3 3")
    before = odds(s)
    do(s, "reveal chaos 0", "resolve", "enemy seat1 Ghoul Minion", "test seat1 intellect 3 3")
    assert (before, odds(s)) == ("3/8", "1/4")  # the two skulls stop passing


def test_a_pinned_symbol_value_stands_instead_of_the_board() -> None:
    s = new()
    do(s, "enemy seat1 Ghoul Minion", "enemy seat1 Ghoul Minion", "token-value skull 0",
       "test seat1 intellect 3 3")
    assert odds(s) == "3/8"  # the table said 0: the Ghouls no longer count


@pytest.mark.rule("AH-CHAOS-2")
def test_the_midnight_masks_skull_counts_the_most_doom_on_a_cultist() -> None:
    s = new(scenario_id="midnight_masks")
    do(s, "enemy seat1 Acolyte")  # its own spawn instruction: any empty location (the players pick)
    answer(s, "Easttown")
    assert data(s, "enemies")["Acolyte"]["doom"] == 1  # placed on it as it enters play
    do(s, "enemy-doom Acolyte +1", "test seat1 intellect 3 1")
    values = {**gathering_values(2, 1), "cultist": -2, "tablet": -3}
    expected = enumerated(3, 1, values)
    assert odds(s) == f"{expected.numerator}/{expected.denominator}"


@pytest.mark.rule("AH-CHAOS-2")
def test_the_cultist_on_a_failed_test_costs_its_horror() -> None:
    s = new()
    do(s, "test seat2 intellect 2 4", "reveal chaos cultist", "resolve")
    assert track(s, "seat2.horror") == 1 and any("cultist: seat 2 takes 1 horror" in n for n in s.notices)
    do(s, "test seat2 intellect 5 4", "reveal chaos cultist", "resolve")  # a success: no horror
    assert track(s, "seat2.horror") == 1


def test_the_cultists_horror_is_asked_where_it_goes_when_an_ally_can_take_it() -> None:
    s = new()
    do(s, "asset seat1 Beat Cop health=2 sanity=2", "test seat1 willpower 1 4", "reveal chaos cultist", "resolve")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "soak" and prompt.options == ("rest on Roland", "1 horror on Beat Cop")
    do(s, "choose 2")
    assert track(s, "seat1.horror") == 0 and data(s, "assets")["1"]["Beat Cop"]["horror"] == 1


def test_hard_cultist_reveals_another_and_costs_two_horror_on_a_failure() -> None:
    s = new(difficulty="hard")
    do(s, "test seat2 intellect 2 4", "reveal chaos cultist")
    assert data(s, "test")["step"] == "ST.3"  # reveal another
    do(s, "reveal chaos -1", "resolve")
    assert track(s, "seat2.horror") == 2


def test_the_tablet_damages_only_beside_a_ghoul() -> None:
    s = new()
    do(s, "test seat1 intellect 5 1", "reveal chaos tablet", "resolve")
    assert track(s, "seat1.damage") == 0
    do(s, "enemy seat1 Ghoul Minion", "test seat1 intellect 5 1", "reveal chaos tablet", "resolve")
    assert track(s, "seat1.damage") == 1  # a success all the same: the tablet's damage is on its reveal


def test_the_tablet_asks_when_the_station_cannot_see_the_enemys_traits() -> None:
    s = new()
    do(s, "enemy seat1 Thing fight=1 health=1 evade=1 damage=0 horror=0", "test seat1 intellect 5 1")
    assert data(s, "odds")["notes"] == ["skull: counted only from the enemies the station can place"]
    do(s, "reveal chaos tablet", "resolve")
    assert s.state.prompt is not None and "is there a Ghoul enemy" in s.state.prompt.text
    answer(s, "yes")
    assert track(s, "seat1.damage") == 1


def test_hard_skull_on_a_failure_draws_a_ghoul_the_players_name() -> None:
    s = new(difficulty="hard")
    do(s, "test seat1 intellect 1 4", "reveal chaos skull", "resolve")
    assert s.state.prompt is not None and s.state.prompt.id == "step_draw"
    assert s.state.prompt.options == ("Flesh-Eater", "Ghoul Minion", "Icy Ghoul", "Ravenous Ghoul", "none found")
    answer(s, "Ravenous Ghoul")
    assert data(s, "enemies")["Ravenous Ghoul"]["engaged"] == 1


# --- enemies -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_an_enemy_named_alone_takes_the_scenarios_numbers_and_the_priest_scales(seats: int) -> None:
    s = new(seats=seats)
    do(s, "enemy seat1 Ghoul Minion", "enemy seat1 ghoul priest")  # case aside
    minion, priest = data(s, "enemies")["Ghoul Minion"], data(s, "enemies")["Ghoul Priest"]
    assert (minion["fight"], minion["health"], minion["evade"], minion["attack_damage"],
            minion["attack_horror"]) == (2, 2, 2, 1, 1)
    assert priest["health"] == 5 * seats and priest["keywords"] == ["hunter", "retaliate"]
    assert priest["victory"] == 2 and "Ghoul" in priest["traits"]


def test_an_unknown_enemy_without_its_numbers_is_refused() -> None:
    s = new()
    reason = rejects(s, "enemy seat2 Byakhee")
    assert "not in the scenario's data" in reason and "Ghoul Minion" in reason  # never a silent 1/1/1


@pytest.mark.parametrize("seats", [2, 3])
def test_umordhoth_has_four_health_per_investigator_more_and_is_massive(seats: int) -> None:
    s = new(scenario_id="devourer_below", seats=seats)
    do(s, "enemy seat1 Umordhoth")  # accents aside
    foe = data(s, "enemies")["Umôrdhoth"]
    assert foe["health"] == 6 + 4 * seats and foe["engaged"] is None and foe["location"] == "Main Path"
    to_step(s, "enemy", "3.3")  # massive: it attacks every investigator at its location
    assert [track(s, f"seat{n}.damage") for n in range(1, seats + 1)] == [3] * seats
    assert data(s, "enemies")["Umôrdhoth"]["ready"] is False


def test_a_failed_attack_on_a_retaliate_enemy_brings_its_attack() -> None:
    s = start_turn(new(), 1)
    do(s, "enemy seat1 Ghoul Priest", "act seat1 fight Ghoul Priest", "reveal chaos -4", "resolve")
    assert track(s, "seat1.damage") == 2 and track(s, "seat1.horror") == 2
    assert data(s, "enemies")["Ghoul Priest"]["ready"] is True  # it does not exhaust


def test_a_failed_evasion_of_an_alert_enemy_brings_its_attack() -> None:
    s = start_turn(new(), 1)
    do(s, "enemy seat1 Sentry fight=1 health=3 evade=5 damage=1 horror=0 alert", "act seat1 evade Sentry",
       "reveal chaos 0", "resolve")
    assert track(s, "seat1.damage") == 1


@pytest.mark.rule("AH-ENEMY-2")
def test_a_surge_enemy_draws_another_card() -> None:
    s = new(scenario=str(FIXTURES / "surge-scenario.toml"), encounters=str(FIXTURES / "surge-encounters.toml"),
            scenario_id="surge_test")
    to_step(s, "mythos", "1.4")
    assert track(s, "encounter.deck") == 4  # 5 invented cards; the lead drew
    answer(s, "Whirling Bats")
    assert "Whirling Bats" in data(s, "enemies") and any("unverified" in n for n in s.notices)
    assert s.state.prompt.seat == 1 and track(s, "encounter.deck") == 3  # surge: the lead draws again
    answer(s, "Chill")
    assert track(s, "seat1.horror") == 1 and s.state.prompt.seat == 2  # now seat 2 draws


def test_false_lead_surges_when_its_drawer_has_no_clues() -> None:
    s = new(scenario_id="midnight_masks")
    to_step(s, "mythos", "1.4")
    answer(s, "False Lead")
    assert s.state.prompt.seat == 1 and any("gains surge" in n for n in s.notices)


def test_a_peril_treachery_is_announced_and_its_choice_offers_only_what_can_be_done() -> None:
    """Hunting Shadow (peril): spend 1 clue or take 2 damage; with no clue, the damage it is."""
    s = new(scenario_id="midnight_masks")
    to_step(s, "mythos", "1.4")
    answer(s, "Hunting Shadow")
    assert any("(peril): seat 1 resolves it alone" in n for n in s.notices)
    assert track(s, "seat1.damage") == 2 and s.state.prompt.seat == 2
    do(s, "set seat2.clues 1")
    answer(s, "Hunting Shadow")
    assert s.state.prompt.id == "step_choose" and s.state.prompt.options == ("spend 1 clue", "take 2 damage")
    do(s, "choose 1")
    assert track(s, "seat2.clues") == 0 and track(s, "seat2.damage") == 0


def test_a_revelation_test_fails_by_points() -> None:
    s = new()
    to_step(s, "mythos", "1.4")
    answer(s, "Grasping Hands")  # agility (3); Roland's agility is 2
    assert data(s, "test")["source"] == "Grasping Hands"
    assert s.state.prompt is None and track(s, "encounter.deck") == 25  # seat 2 waits for the test
    do(s, "reveal chaos -2", "resolve")  # 0 against 3: failed by 3
    assert track(s, "seat1.damage") == 3 and s.state.prompt.seat == 2


def test_ancient_evils_can_advance_the_agenda_at_once() -> None:
    s = new()
    to_step(s, "mythos", "1.4")
    do(s, "set agenda.doom 2")
    answer(s, "Ancient Evils")
    assert track(s, "agenda") == 2 and s.state.prompt.id == "step_choose"  # agenda 1's reverse side asks


# --- locations -----------------------------------------------------------------------------------
def test_the_study_is_set_up_and_act_1_opens_the_house() -> None:
    s = new()
    assert data(s, "at") == {"1": "Study", "2": "Study"} and data(s, "locations")["Study"]["clues"] == 4
    do(s, "enemy seat1 Swarm of Rats", "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4")  # Trapped: the rooms come in, the Study's enemies go, everyone to the Hallway
    assert set(data(s, "locations")) == {"Hallway", "Cellar", "Attic", "Parlor"}
    assert data(s, "at") == {"1": "Hallway", "2": "Hallway"} and data(s, "enemies") == {}
    assert "location Study" in data(s, "removed")
    assert data(s, "locations")["Hallway"]["connections"] == ["Attic", "Cellar", "Parlor"]
    do(s, "act seat1 move Attic")
    assert track(s, "seat1.horror") == 1  # the Attic's forced effect on entering


def test_the_parlor_bars_the_way_until_the_barrier_is_passed() -> None:
    s = new()
    do(s, "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4")
    assert "nobody can move into Parlor" in rejects(s, "act seat1 move Parlor")


def test_the_barrier_is_passed_by_clues_at_round_end_in_the_hallway_and_the_priest_arrives() -> None:
    s = new()
    do(s, "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4", "set seat1.clues 6")
    assert "spent as the round ends" in rejects(s, "spend-clues seat1:6")
    to_step(s, "upkeep", "4.6")
    assert "The Barrier: the investigators at Hallway may spend 6 clues now (spend-clues SEAT:N ...); next ends " \
        "the round without" in s.view()["notices"]  # the table is told why the round waits
    do(s, "spend-clues seat1:6")  # The Barrier turns over: the Parlor is revealed, the Priest spawns
    assert data(s, "locations")["Parlor"]["revealed"] is True
    # both are in the Hallway: its prey (highest combat) picks Roland (4) over Daisy (2), no question
    assert s.state.prompt is None
    assert "Ghoul Priest's prey, highest combat: seat 1 (seat 1 4, seat 2 2 printed)" in s.view()["notices"]
    priest = data(s, "enemies")["Ghoul Priest"]
    assert priest["health"] == 10 and priest["engaged"] == 1


@pytest.mark.rule("AH-ACTAG-5")
def test_objective_met_is_refused_while_the_ghoul_priest_is_alive() -> None:
    s = new()
    do(s, "set act 3", "enemy seat1 Ghoul Priest")
    start_turn(s, 1)
    assert rejects(s, "advance act objective") == \
        "the objective is not met: Ghoul Priest is still in play (defeat the Ghoul Priest)"
    do(s, "harm-enemy Ghoul Priest 10")  # defeated: the act's Objective is met and it advances
    assert data(s, "victory") == [2]  # the Priest's victory points
    assert s.state.prompt is not None and s.state.prompt.id == "resolution"
    do(s, "choose 1")
    assert s.state.over == "resolution R1"


@pytest.mark.rule("AH-DOOM-4")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_an_agenda_with_an_objective_never_advances_by_doom(protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Devourer Below's last agenda has an Objective (defeat Umôrdhoth): doom piling up on it
    advances nothing at 1.3. With the rule's Objective check removed, the same doom would end the
    scenario: the test tells the two apart."""
    if protection == "protection-removed":
        monkeypatch.setattr(rules, "agenda_advances",
                            lambda doom, other, threshold, objective: doom + other >= threshold)
    s = new(scenario_id="devourer_below")
    do(s, "set agenda 4", "set agenda.doom 9")
    while s.state.over is None and (s.state.round, s.state.step) != (2, "1.4"):
        do(s, f"pass {s.state.owing[0]}" if s.state.step == "2.2" and s.state.owing else "next")
    if protection == "in place":
        assert track(s, "agenda") == 4 and s.state.over is None and track(s, "agenda.doom") == 10
    else:
        assert s.state.over is not None


def test_the_midnight_masks_objective_counts_cultists_in_the_victory_display() -> None:
    s = new(scenario_id="midnight_masks")
    cultists = ["\"Wolf-Man\" Drew", "Herman Collins", "Peter Warren", "Victoria Devereux", "Ruth Turner"]
    for name in cultists:
        do(s, f"victory 1 {name}")
    assert "5 of 6 Cultist enemies" in rejects(s, "advance act objective")
    do(s, "victory 1 Acolyte")  # the sixth unique Cultist: the act advances by itself
    assert s.state.over == "resolution R1"


def test_a_location_that_may_be_one_of_several_cards_asks_which_as_it_is_revealed() -> None:
    s = start_turn(new(scenario_id="midnight_masks"), 1)
    do(s, "act seat1 move Rivertown", "act seat1 move Easttown", "act seat1 move Downtown")
    assert s.state.prompt is not None and s.state.prompt.options == ("First Bank of Arkham", "Arkham Asylum")
    answer(s, "Arkham Asylum")
    downtown = data(s, "locations")["Downtown"]
    assert (downtown["shroud"], downtown["clues"], downtown["victory"]) == (4, 4, 1)
    assert downtown["variant"] == "Arkham Asylum"


def test_the_arkham_woods_are_four_unknown_copies_each_revealed_as_one_of_six() -> None:
    s = start_turn(new(scenario_id="devourer_below"), 1)
    woods = sorted(n for n in data(s, "locations") if n.startswith("Arkham Woods"))
    assert woods == ["Arkham Woods 1", "Arkham Woods 2", "Arkham Woods 3", "Arkham Woods 4"]
    do(s, "act seat1 move Arkham Woods 2")
    assert len(s.state.prompt.options) == 6
    answer(s, "Old House")
    do(s, "act seat1 investigate")
    assert (data(s, "test")["skill"], data(s, "test")["difficulty"]) == ("willpower", 2)


def test_the_devourers_second_act_advances_when_someone_enters_the_ritual_site() -> None:
    s = new(scenario_id="devourer_below")
    do(s, "set seat1.clues 6")
    start_turn(s, 1)
    do(s, "spend-clues seat1:6")
    assert "Ritual Site" in data(s, "locations") and track(s, "act") == 2
    do(s, "enter seat1 Ritual Site")
    assert track(s, "act") == 3 and s.state.prompt is not None and s.state.prompt.id == "step_discarded"


# --- issue 27: names and the hand size -----------------------------------------------------------
def test_names_are_their_words_in_every_verb_quoted_or_not() -> None:
    s = start_turn(new(), 1)
    do(s, "enemy seat1 Ghoul Minion", "enemy-mod Ghoul Minion fight +1", "enemy-state Ghoul Minion exhausted",
       "enemy-state Ghoul Minion ready", "enemy-doom Ghoul Minion +1", "location Hallway",
       "act seat1 fight Ghoul Minion")
    assert data(s, "test")["target"] == "Ghoul Minion" and data(s, "test")["difficulty"] == 3
    do(s, "reveal chaos 0", "resolve", 'act seat1 fight "Ghoul Minion"', "reveal chaos 0", "resolve")
    assert "Ghoul Minion" not in data(s, "enemies")
    do(s, "ally seat1 Beat Cop", "hit seat2 1", "enemy seat2 Ravenous Ghoul")
    answer(s, "the encounter deck")  # the defeated Ghoul Minion is in the discard pile: which pile is asked
    do(s, "move-enemy Ravenous Ghoul Hallway", "hit seat1 1 0 Beat Cop=1/0", "exhaust seat1 Beat Cop",
       "harm-enemy ravenous ghoul 1")
    assert data(s, "enemies")["Ravenous Ghoul"]["location"] == "Hallway"
    assert data(s, "assets")["1"]["Beat Cop"] == {"health": 2, "sanity": 2, "damage": 1, "horror": 0,
                                                  "exhausted": True}


def test_a_nine_card_hand_at_hand_size_is_told_and_owed() -> None:
    """The issue's reproduction: 4.5 stopped with no word, `owing` empty, `pass` said "next goes on"
    and `next` was refused. Now the seat owes a discard, is told so, and its pass discards to 8."""
    s = Session(new().game, seats=2, seed=1, options={"flow": "auto"})
    do(s, "act seat1 draw", "act seat1 draw", "act seat1 draw", "next", "pass seat2")
    assert (s.state.step, s.state.owing) == ("4.5", (1,))
    assert s.notices[-1] == "seat 1 holds 9 cards: discard 1 (discard seat1 1, or pass seat1)"
    assert rejects(s, "pass seat2").startswith("seat 2 has nothing to discard")
    assert rejects(s, "next").startswith("seat 1 holds 9 cards")
    assert s.game.button(s.state, "seat1.a", False).text() == "pass seat1"
    assert s.game.legend(s.state, 1) == "A: discard down to 8"
    do(s, "pass seat1")
    assert track(s, "seat1.hand") == 8 and (s.state.round, s.state.step) == (2, "1.4")


@pytest.mark.parametrize(("scenario", "size"), [("the_gathering", 26), ("midnight_masks", 21), ("devourer_below", 29)])
def test_the_encounter_deck_is_the_scenarios_sets(scenario: str, size: int) -> None:
    """The Devourer Below adds one of the four Agents sets unseen: 25 cards plus that set's 4."""
    assert track(new(scenario_id=scenario), "encounter.deck") == size


def test_a_burned_house_leaves_the_midnight_masks_once_everyone_is_out() -> None:
    s = new(scenario_id="midnight_masks")
    assert "move them first" in rejects(s, "remove-location Your House")
    do(s, "enter seat1 Rivertown", "enter seat2 Rivertown", "remove-location Your House")
    locations = data(s, "locations")
    assert "Your House" not in locations and "Your House" not in locations["Rivertown"]["connections"]


@pytest.mark.rule("AH-ENGM-3")
@pytest.mark.rule("AH-PREY-1")
def test_a_printed_prey_picks_whom_the_enemy_engages_without_a_question() -> None:
    """The catalogue's example: A (combat 4) and B (combat 2) at one location, prey "highest combat"."""
    s = new()
    do(s, "enemy seat2 Ghoul Priest at=Study")  # both begin in the Study
    assert s.state.prompt is None
    assert data(s, "enemies")["Ghoul Priest"]["engaged"] == 1
    assert "Ghoul Priest's prey, highest combat: seat 1 (seat 1 4, seat 2 2 printed)" in s.view()["notices"]


@pytest.mark.rule("AH-PREY-1")
def test_a_prey_on_remaining_health_reads_the_damage_taken_and_asks_only_among_a_tie() -> None:
    s = new(seats=3)  # Roland health 9, Daisy 5, Skids 8
    do(s, "set seat1.damage 5")  # all three begin in the Study
    do(s, "enemy seat1 Ravenous Ghoul at=Study")  # lowest remaining health: Roland 4
    assert data(s, "enemies")["Ravenous Ghoul"]["engaged"] == 1
    s = new(seats=3)
    do(s, "set seat1.damage 4")
    do(s, "enemy seat1 Ravenous Ghoul at=Study")  # Roland 5 and Daisy 5 tie: the players pick between them
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "prey" and prompt.options == ("seat 1", "seat 2")
    do(s, "choose 2")
    assert data(s, "enemies")["Ravenous Ghoul"]["engaged"] == 2


@pytest.mark.rule("AH-PREY-1")
def test_an_enemy_spawning_on_its_prey_is_weighed_the_same_way() -> None:
    """The Masked Hunter spawns engaged with the investigator with the most clues (any location)."""
    s = new(scenario_id="midnight_masks")
    do(s, "set seat2.clues 2", "enemy seat1 The Masked Hunter")
    assert s.state.prompt is None
    assert data(s, "enemies")["The Masked Hunter"]["engaged"] == 2
    s = new(scenario_id="midnight_masks")
    do(s, "enemy seat1 The Masked Hunter")  # no clues anywhere: a tie, so the players say
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "spawn_prey" and prompt.options == ("seat 1", "seat 2")


def test_a_prey_the_box_cannot_weigh_is_the_players_pick() -> None:
    assert rules.prey_instruction("highest combat") == (1, "combat")
    assert rules.prey_instruction("fewest cards in hand") == (-1, "cards in hand")
    assert rules.prey_instruction("only Roland Banks") is None and rules.prey_instruction(None) is None
    assert rules.prey_picks(-1, {1: 3, 2: 1, 3: 1}) == (2, 3)
