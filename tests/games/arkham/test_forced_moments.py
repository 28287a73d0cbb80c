"""The core set's enemies' Forced effects at moments of their own, driven through the verbs a table
types: Goat Spawn (01180) gives each investigator at its location 1 horror when it is defeated, Young
Deep One (01181) gives 1 horror to the investigator it has just engaged, Ruth Turner (01141) evaded goes
to the victory display, "Wolf-Man" Drew (01137) heals as he attacks, and the Yithian Observer (01177)
attacking makes its target discard a card at random or, with none in hand, hits harder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.session import Session
from tablekeeper.games.arkham import forced, verbs
from tablekeeper.games.arkham.record import rec

from .helpers import answer, do, new, refused_card, rejects, start_turn, track
from .helpers import data as viewed

WOODS = "Arkham Woods 1"  # an empty location of The Devourer Below, nobody there


def remove_protection(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The box as it was: these Forced effects are only their cards' text."""
    if protection == "protection-removed":
        monkeypatch.setattr(forced, "after", lambda txn, at, name, foe, seats: None)


def horror(s: Session) -> tuple[int, int]:
    return track(s, "seat1.horror"), track(s, "seat2.horror")


# --- Goat Spawn (01180) --------------------------------------------------------------------------------
@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_goat_spawn_defeated_gives_each_investigator_at_its_location_1_horror(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Engaged with seat 1 at the Main Path, where seat 2 stands too: its defeat by a fight costs both of
    them 1 horror; seat 3, elsewhere, takes none."""
    remove_protection(monkeypatch, protection)
    s = new(seats=3, scenario_id="devourer_below")
    do(s, f"enter seat3 {WOODS}", )
    answer(s, "Quiet Glade")  # a Woods card with no Forced effect on entering
    do(s, "enemy seat1 Goat Spawn")
    start_turn(s, 1)
    do(s, "harm-enemy Goat Spawn 2", "act seat1 fight Goat Spawn skill=9", "reveal chaos 0", "resolve")
    assert "Goat Spawn" not in viewed(s, "enemies")
    want = (1, 1, 0) if protection == "on" else (0, 0, 0)
    assert (*horror(s), track(s, "seat3.horror")) == want
    if protection == "on":
        assert "Goat Spawn (Forced, when it is defeated): seat 2 takes 1 horror" in s.view()["notices"]


def test_goat_spawn_defeated_at_a_location_nobody_holds_harms_nobody() -> None:
    """Unengaged at an empty location, damaged to defeat by a card's effect: nobody is there to take horror."""
    s = new(scenario_id="devourer_below")
    do(s, f"enemy seat1 Goat Spawn at={WOODS}", "harm-enemy Goat Spawn 3")
    assert "Goat Spawn" not in viewed(s, "enemies") and horror(s) == (0, 0)


def test_goat_spawn_horror_an_ally_could_take_is_a_question_and_the_round_waits() -> None:
    """Seat 1 has an ally that could take the horror: seat 1 is asked where it goes, and seat 2's
    horror waits behind that answer."""
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Goat Spawn", "asset seat1 Guard Dog health=3 sanity=1")
    do(s, "harm-enemy Goat Spawn 3")
    assert s.state.prompt is not None and s.state.prompt.id == "soak" and horror(s) == (0, 0)
    answer(s, "on Guard Dog")
    assert s.state.prompt is None and horror(s) == (0, 1)


# --- Young Deep One (01181) ----------------------------------------------------------------------------
@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_young_deep_one_spawning_engaged_gives_its_investigator_1_horror(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Drawn with no spawn instruction, it spawns engaged with the drawer: that engagement is its own,
    and seat 1 takes 1 horror; seat 2 none."""
    remove_protection(monkeypatch, protection)
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Young Deep One")
    assert viewed(s, "enemies")["Young Deep One"]["engaged"] == 1
    assert horror(s) == ((1, 0) if protection == "on" else (0, 0))
    if protection == "on":
        assert "Young Deep One (Forced, after it engages): seat 1 takes 1 horror" in s.view()["notices"]


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_young_deep_one_engaging_an_investigator_who_walks_in_gives_them_1_horror(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Ready and unengaged in the Woods, it engages seat 1 on entering: 1 horror to seat 1."""
    remove_protection(monkeypatch, protection)
    s = new(scenario_id="devourer_below")
    do(s, f"enemy seat1 Young Deep One at={WOODS}")
    assert horror(s) == (0, 0)
    start_turn(s, 1)
    do(s, f"act seat1 move {WOODS}")
    answer(s, "Quiet Glade")
    assert viewed(s, "enemies")["Young Deep One"]["engaged"] == 1
    assert horror(s) == ((1, 0) if protection == "on" else (0, 0))


def test_young_deep_one_engaged_by_the_investigator_is_no_engagement_of_its_own() -> None:
    """The engage action is the investigator's doing, not the enemy engaging them: no horror. This is the
    project's reading of "after it engages you"; no official ruling was found either way (docs/games/arkham.md)."""
    s = new(scenario_id="devourer_below")
    do(s, f"enter seat1 {WOODS}")
    answer(s, "Quiet Glade")
    do(s, "enemy seat1 Young Deep One at=Main Path exhausted")  # exhausted: it engages nobody by itself
    start_turn(s, 2)
    do(s, "act seat2 engage Young Deep One")
    assert viewed(s, "enemies")["Young Deep One"]["engaged"] == 2 and horror(s) == (0, 0)


@pytest.mark.parametrize("auto", [False, True], ids=["pressed", "automatic"])
def test_young_deep_one_hunting_into_an_ally_holder_asks_where_the_horror_goes_and_the_run_waits(
        auto: bool) -> None:
    """A hunter in the Woods moves to the Main Path in the Enemy phase and engages seat 1 there (its
    prey, lowest combat, weighed); seat 1's ally could take the horror: the question holds the Enemy
    phase, and an automatic run stops there and goes on once answered."""
    s = Session(new().game, seats=1, seed=1, options={"flow": "auto", "scenario_id": "devourer_below"}) if auto \
        else new(seats=1, scenario_id="devourer_below")
    do(s, f"enemy seat1 Young Deep One at={WOODS}", "asset seat1 Guard Dog health=3 sanity=1")
    start_turn(s, 1)
    do(s, "pass 1")
    if not auto:
        while s.state.prompt is None and s.state.phase != "upkeep":
            do(s, "next")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "soak" and s.state.phase == "enemy"
    assert viewed(s, "enemies")["Young Deep One"]["engaged"] == 1
    answer(s, "on Guard Dog")
    if auto:  # the run went on: its attack at 3.3 (the Dog gone, on seat 1), then the next round
        assert (s.state.round, s.state.phase) == (2, "mythos") and track(s, "seat1.horror") == 1
    else:
        assert s.state.phase == "enemy" and track(s, "seat1.horror") == 0


# --- Ruth Turner (01141) -------------------------------------------------------------------------------
def engaged_with_ruth() -> Session:
    s = new(scenario_id="midnight_masks")
    do(s, "enemy seat1 Ruth Turner", "enemy-doom Ruth Turner +1")  # she spawns at St. Mary's Hospital
    do(s, "enter seat1 \"St. Mary's Hospital\"")
    assert viewed(s, "enemies")["Ruth Turner"]["engaged"] == 1
    return s


@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_ruth_turner_evaded_by_a_test_goes_to_the_victory_display(monkeypatch: pytest.MonkeyPatch,
                                                                  protection: str) -> None:
    """Evaded by seat 1's evade action: she leaves play with her doom for the victory display, worth her
    printed victory 1, and act 1's objective counts her among the Cultists there."""
    remove_protection(monkeypatch, protection)
    s = engaged_with_ruth()
    start_turn(s, 1)
    do(s, "act seat1 evade Ruth Turner skill=9", "reveal chaos 0", "resolve")
    if protection == "protection-removed":
        assert viewed(s, "enemies")["Ruth Turner"]["ready"] is False and viewed(s, "victory") == []
        return
    assert "Ruth Turner" not in viewed(s, "enemies") and track(s, "doom.other") == 0
    assert viewed(s, "victory") == [1] and rec(s.state).victory_cards == ("Ruth Turner",)
    assert "Ruth Turner is added to the victory display (Forced, after it is evaded): victory 1" in s.view()["notices"]


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_ruth_turner_added_by_her_forced_effect_is_not_scored_again_by_hand(monkeypatch: pytest.MonkeyPatch,
                                                                             protection: str) -> None:
    """A table used to type `victory 1 Ruth Turner` after evading her: with her Forced effect doing it, the
    typed line is refused (one copy in the scenario), so she is scored once."""
    if protection == "protection-removed":
        monkeypatch.setattr(verbs, "all_in_victory", lambda state, name, card: False)
    s = engaged_with_ruth()
    do(s, "evade Ruth Turner")
    if protection == "protection-removed":
        do(s, "victory 1 Ruth Turner")
        assert viewed(s, "victory") == [1, 1]
        return
    assert "Ruth Turner is in the victory display already" in rejects(s, "victory 1 Ruth Turner")
    assert viewed(s, "victory") == [1] and rec(s.state).victory_cards == ("Ruth Turner",)


def test_ruth_turner_evaded_by_a_card_goes_to_the_victory_display_too() -> None:
    """An ability that evades her with no test (`evade`): the same Forced effect."""
    s = engaged_with_ruth()
    do(s, "evade Ruth Turner")
    assert "Ruth Turner" not in viewed(s, "enemies") and viewed(s, "victory") == [1]


def test_ruth_turner_failing_to_be_evaded_stays() -> None:
    s = engaged_with_ruth()
    start_turn(s, 1)
    do(s, "act seat1 evade Ruth Turner skill=1", "reveal chaos 0", "resolve")
    assert viewed(s, "enemies")["Ruth Turner"]["engaged"] == 1 and viewed(s, "victory") == []


# --- "Wolf-Man" Drew (01137) ---------------------------------------------------------------------------
DREW = '"Wolf-Man" Drew'


def engaged_with_drew(damage: int) -> Session:
    s = new(scenario_id="midnight_masks")
    do(s, "enemy seat1 Wolf-Man Drew", "enter seat1 Downtown")  # he spawns Downtown
    answer(s, "First Bank of Arkham")
    assert viewed(s, "enemies")[DREW]["engaged"] == 1
    if damage:
        do(s, f"harm-enemy Wolf-Man Drew {damage}")
    return s


@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_wolf_man_drew_heals_1_damage_when_he_attacks_in_the_enemy_phase(monkeypatch: pytest.MonkeyPatch,
                                                                         protection: str) -> None:
    """2 damage on him; his Enemy-phase attack on seat 1 heals 1 of it (and seat 1 takes his 2 damage)."""
    remove_protection(monkeypatch, protection)
    s = engaged_with_drew(2)
    start_turn(s, 1)
    do(s, "pass 1", "pass 2")
    while viewed(s, "enemies")[DREW]["ready"]:
        do(s, "next")
    assert track(s, "seat1.damage") == 2
    assert viewed(s, "enemies")[DREW]["damage"] == (1 if protection == "on" else 2)
    if protection == "on":
        assert f"{DREW} heals 1 damage (Forced, when it attacks)" in s.view()["notices"]


def test_wolf_man_drew_heals_on_an_attack_of_opportunity_too() -> None:
    """Seat 1 draws a card while engaged with him: his attack of opportunity heals him as well."""
    s = engaged_with_drew(1)
    start_turn(s, 1)
    do(s, "act seat1 draw")
    assert viewed(s, "enemies")[DREW]["damage"] == 0 and track(s, "seat1.damage") == 2


def test_wolf_man_drew_unharmed_heals_nothing_and_says_nothing() -> None:
    """AH-FORCED-2: no damage on him, the Forced effect would change nothing and does not start."""
    s = engaged_with_drew(0)
    start_turn(s, 1)
    do(s, "act seat1 draw")
    assert track(s, "seat1.damage") == 2 and not any("heals" in line for line in s.view()["notices"])


# --- Yithian Observer (01177) --------------------------------------------------------------------------
@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize(("hand", "left", "harm"), [(3, 2, (1, 1)), (0, 0, (2, 2))])
def test_yithian_observer_attacking_discards_a_card_or_with_an_empty_hand_hits_harder(
        monkeypatch: pytest.MonkeyPatch, protection: str, hand: int, left: int, harm: tuple[int, int]) -> None:
    """Its Enemy-phase attack on seat 1: with cards in hand seat 1 discards one at random and takes the
    printed 1 damage and 1 horror; with none, the attack deals 2 and 2."""
    if protection == "protection-removed":
        monkeypatch.setattr(forced, "attacks", lambda txn, name, seat: (0, 0))
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Yithian Observer", f"set seat1.hand {hand}")
    discard = track(s, "seat1.discard")
    start_turn(s, 1)
    do(s, "pass 1", "pass 2")
    while viewed(s, "enemies")["Yithian Observer"]["ready"]:
        do(s, "next")
    got = (track(s, "seat1.damage"), track(s, "seat1.horror"))
    if protection == "protection-removed":
        assert got == (1, 1) and track(s, "seat1.hand") == hand
        return
    assert got == harm and track(s, "seat1.hand") == left
    assert track(s, "seat1.discard") == discard + hand - left


@pytest.mark.parametrize("entry", ['{ at = "defeated", do = "heal" }', '{ at = "round_end", do = "horror" }',
                                   '{ at = "evaded", do = "horror" }', '{ at = "attacks", do = "doom" }'])
def test_an_enemys_forced_effect_the_station_cannot_follow_is_one_line_naming_the_entry(
        tmp_path: Path, entry: str) -> None:
    path, said = refused_card(tmp_path, 'kind = "enemy"\nfight = 1\nhealth = 1\n'
                                        f'evade = 1\ndamage = 1\nhorror = 1\nforced = [{entry}]')
    assert str(path) in said and "sets.x.cards.Thing" in said and "\n" not in said
