"""The core set's Forced effects at the end of a turn, a phase or the round happen when their cards say,
driven through the verbs a table types: Umôrdhoth (01157) readies at the end of each investigator's
turn, Relentless Dark Young (01179) heals 2 damage and the Ritual Site (01156) refills its clues at the
end of the round, Wizard of the Order (01170) takes doom at the end of the Mythos phase, and The
Gathering's agenda 3 (01107) moves the Ghouls toward the Parlor at the end of the Enemy phase and puts
doom on itself for those near it at the end of the round."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.session import Session
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham import data, forced

from .helpers import answer, do, new, refused_card, rejects, start_turn, to_step, track
from .helpers import data as viewed

WOODS = "Arkham Woods 1"  # an empty location of The Devourer Below, nobody there
STRAY = "Stray fight=1 health=1 evade=1 damage=1 horror=0"  # an enemy typed by hand: no trait, no hunter


def remove_protection(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The box as it was: the cards' Forced effects at these timing points are only their text."""
    if protection == "protection-removed":
        monkeypatch.setattr(forced, "happen", lambda txn, at, when="": None)


def enemy(s: Session, name: str) -> dict[str, object]:
    found: dict[str, object] = viewed(s, "enemies")[name]
    return found


# --- Umôrdhoth (01157) ---------------------------------------------------------------------------------
@pytest.mark.rule("AH-FORCED-3")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_umordhoth_readies_at_the_end_of_each_investigators_turn(monkeypatch: pytest.MonkeyPatch,
                                                                  protection: str) -> None:
    """Exhausted during seat 1's turn, it readies as that turn ends, and again at the end of seat 2's:
    each investigator's turn is its timing point, twice in the round, and it resolves each time."""
    remove_protection(monkeypatch, protection)
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Umordhoth")
    start_turn(s, 1)
    do(s, "enemy-state Umôrdhoth exhausted")
    do(s, "next")  # seat 1's turn ends
    assert s.state.active_seat == 2
    if protection == "protection-removed":
        assert enemy(s, "Umôrdhoth")["ready"] is False
        return
    assert enemy(s, "Umôrdhoth")["ready"] is True
    assert "Umôrdhoth readies (Forced, at the end of seat 1's turn)" in s.view()["notices"]
    do(s, "enemy-state Umôrdhoth exhausted", "next")  # seat 2's turn ends
    assert enemy(s, "Umôrdhoth")["ready"] is True and s.state.step == "2.3"
    assert "Umôrdhoth readies (Forced, at the end of seat 2's turn)" in s.view()["notices"]


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_a_turn_ended_by_resigning_readies_umordhoth_too(monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Seat 1 resigns in its turn: the turn ends there, and the end of a turn is the timing point."""
    remove_protection(monkeypatch, protection)
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Umordhoth")
    start_turn(s, 1)
    do(s, "enemy-state Umôrdhoth exhausted", "resign seat1")
    assert viewed(s, "eliminated") == {"1": "resign"} and s.state.active_seat == 2
    assert enemy(s, "Umôrdhoth")["ready"] is (protection == "on")


@pytest.mark.rule("AH-FORCED-2")
def test_a_ready_umordhoth_is_not_readied_again() -> None:
    """AH-FORCED-2: ready already, the Forced effect would change nothing and does not start."""
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Umordhoth")
    start_turn(s, 1)
    do(s, "next")
    assert not any("readies" in line for line in s.view()["notices"])


def test_umordhoth_readied_at_a_turns_end_engages_the_investigators_at_its_location_again() -> None:
    """Evaded in seat 1's turn (exhausted, so it engages nobody), it is ready again as that turn ends:
    a ready massive enemy counts as engaged with everyone at its location, so seat 2 moving away
    provokes its attack of opportunity."""
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Umordhoth")
    start_turn(s, 1)
    do(s, "evade Umôrdhoth")
    assert enemy(s, "Umôrdhoth")["ready"] is False
    do(s, "next")
    assert s.state.active_seat == 2 and enemy(s, "Umôrdhoth")["ready"] is True
    do(s, f"act seat2 move {WOODS}")
    assert (track(s, "seat2.damage"), track(s, "seat2.horror")) == (3, 3)


# --- Relentless Dark Young (01179) ---------------------------------------------------------------------
@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize(("damage", "left"), [(3, 1), (1, 0), (0, 0)])
def test_relentless_dark_young_heals_2_damage_at_the_end_of_the_round(
        monkeypatch: pytest.MonkeyPatch, protection: str, damage: int, left: int) -> None:
    remove_protection(monkeypatch, protection)
    s = new(scenario_id="devourer_below")
    do(s, f"enemy seat1 Relentless Dark Young at={WOODS}")
    if damage:
        do(s, f"harm-enemy Relentless Dark Young {damage}")
    to_step(s, "upkeep", "4.6")
    assert enemy(s, "Relentless Dark Young")["damage"] == damage  # through the whole round
    do(s, "next")  # the round ends
    assert s.state.round == 2
    if protection == "protection-removed":
        assert enemy(s, "Relentless Dark Young")["damage"] == damage
        return
    assert enemy(s, "Relentless Dark Young")["damage"] == left
    healed = [line for line in s.view()["notices"] if "heals" in line]
    assert healed == ([f"Relentless Dark Young heals {damage - left} damage (Forced, at the end of the round)"]
                      if damage else [])  # AH-FORCED-2: undamaged, nothing starts


# --- Wizard of the Order (01170) -----------------------------------------------------------------------
@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_wizard_of_the_order_takes_1_doom_at_the_end_of_each_mythos_phase(monkeypatch: pytest.MonkeyPatch,
                                                                         protection: str) -> None:
    """In play from round 1 (no Mythos phase then): 1 doom at the end of round 2's Mythos phase, 2 by the
    end of round 3's; the doom counts as doom in play."""
    remove_protection(monkeypatch, protection)
    s = new(scenario_id="devourer_below")
    do(s, "enemy seat1 Wizard of the Order")
    answer(s, WOODS)  # any empty location: the players say which
    to_step(s, "mythos", "1.5")
    assert s.state.round == 2
    expected = 0 if protection == "protection-removed" else 1
    assert enemy(s, "Wizard of the Order")["doom"] == expected and track(s, "doom.other") == expected
    to_step(s, "upkeep", "4.6")
    assert enemy(s, "Wizard of the Order")["doom"] == expected  # nothing more until the next Mythos phase
    to_step(s, "mythos", "1.4")
    assert enemy(s, "Wizard of the Order")["doom"] == expected
    to_step(s, "mythos", "1.5")
    assert enemy(s, "Wizard of the Order")["doom"] == 2 * expected
    if expected:
        assert "1 doom on Wizard of the Order (Forced, at the end of the Mythos phase)" in s.view()["notices"]


# --- Ritual Site (01156) --------------------------------------------------------------------------------
def at_the_ritual_site(seats: int) -> Session:
    """Seat 1 stands in the revealed Ritual Site (2 clues per investigator on it) in its turn."""
    s = new(scenario_id="devourer_below", seats=seats)
    start_turn(s, 1)
    do(s, "location Ritual Site", "enter seat1 Ritual Site")
    assert viewed(s, "locations")["Ritual Site"]["clues"] == 2 * seats
    return s


@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize("seats", [2, 3])
def test_the_ritual_site_refills_to_2_clues_per_investigator_at_the_end_of_the_round(
        monkeypatch: pytest.MonkeyPatch, protection: str, seats: int) -> None:
    remove_protection(monkeypatch, protection)
    s = at_the_ritual_site(seats)
    do(s, "act seat1 investigate", "reveal chaos +1", "resolve")  # intellect 3 + 1 against shroud 3: 1 clue
    assert viewed(s, "locations")["Ritual Site"]["clues"] == 2 * seats - 1 and track(s, "seat1.clues") == 1
    to_step(s, "upkeep", "4.6")
    do(s, "next")
    assert s.state.round == 2
    want = 2 * seats - (1 if protection == "protection-removed" else 0)
    assert viewed(s, "locations")["Ritual Site"]["clues"] == want
    if protection == "on":
        assert f"Ritual Site: 1 clue added, {2 * seats} on it (Forced, at the end of the round)" in s.view()["notices"]


def test_the_ritual_site_holding_its_clues_or_more_gets_none() -> None:
    """Only "fewer than 2 per investigator" starts it: a full site, or one a card put more clues on,
    keeps what it has."""
    s = at_the_ritual_site(2)
    do(s, "set seat1.clues 2", "act seat1 investigate", "reveal chaos autofail", "resolve")
    s2 = at_the_ritual_site(2)
    for session in (s, s2):
        to_step(session, "upkeep", "4.6")
        do(session, "next")
        assert viewed(session, "locations")["Ritual Site"]["clues"] == 4
        assert not any("Ritual Site:" in line for line in session.view()["notices"])


def test_an_unrevealed_ritual_site_gets_no_clues() -> None:
    """Its Forced effect is on the revealed side: put into play by act 1, nobody has entered it yet."""
    s = new(scenario_id="devourer_below")
    do(s, "location Ritual Site")
    to_step(s, "upkeep", "4.6")
    do(s, "next")
    place = viewed(s, "locations")["Ritual Site"]
    assert place["revealed"] is False and place["clues"] == 0


# --- They're Getting Out! (01107) -----------------------------------------------------------------------
def the_house(*enemies: str, agenda: int = 3) -> Session:
    """The Gathering after Trapped: the house in play, both investigators moved on to the Attic; the
    agenda ``agenda`` current; then the enemies named (``NAME at=PLACE`` lines)."""
    s = new()
    do(s, "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4", "enter seat1 Attic", "enter seat2 Attic", f"set agenda {agenda}")
    for line in enemies:
        do(s, f"enemy seat1 {line}")
    return s


def at(s: Session, name: str) -> object:
    return enemy(s, name)["location"]


@pytest.mark.rule("AH-FORCED-1")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_they_re_getting_out_moves_each_unengaged_ghoul_toward_the_parlor_at_the_end_of_the_enemy_phase(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """The Ghoul Minion in the Cellar goes to the Hallway, the one in the Hallway into the Parlor (the
    barrier keeps investigators out, not Ghouls), an exhausted one too; one engaged stays with its
    investigator, a Ghoul already in the Parlor stays, and an enemy that is no Ghoul stays put."""
    remove_protection(monkeypatch, protection)
    s = the_house("Ghoul Minion at=Cellar", "Ghoul Minion at=Hallway", "Ravenous Ghoul at=Parlor",
                  "Icy Ghoul", f"{STRAY} at=Cellar", "Ghoul Minion")
    assert at(s, "Icy Ghoul") == "Cellar" and enemy(s, "Ghoul Minion 3")["engaged"] == 1
    do(s, "enemy-state Icy Ghoul exhausted", "enemy-state Ghoul Minion 3 exhausted")  # no attack: no question
    to_step(s, "enemy", "3.4")
    where = {name: at(s, name) for name in ("Ghoul Minion", "Ghoul Minion 2", "Ravenous Ghoul", "Icy Ghoul",
                                            "Stray", "Ghoul Minion 3")}
    if protection == "protection-removed":
        assert where["Ghoul Minion"] == "Cellar" and where["Ghoul Minion 2"] == "Hallway"
        return
    assert where == {"Ghoul Minion": "Hallway", "Ghoul Minion 2": "Parlor", "Ravenous Ghoul": "Parlor",
                     "Icy Ghoul": "Hallway", "Stray": "Cellar", "Ghoul Minion 3": None}
    assert enemy(s, "Ghoul Minion 3")["engaged"] == 1
    assert "Ghoul Minion moves to Hallway (They're Getting Out!: toward Parlor)" in s.view()["notices"]


def test_the_ghouls_stay_while_another_agenda_is_current() -> None:
    s = the_house("Ghoul Minion at=Cellar", agenda=2)
    to_step(s, "enemy", "3.4")
    assert at(s, "Ghoul Minion") == "Cellar"


def test_a_ghoul_moving_in_beside_investigators_engages_one() -> None:
    """Ready, a Ghoul entering the investigators' location engages (AH-ENGM-3): with two there and no
    prey, the players say whom, and the round waits for the answer."""
    s = the_house("Ghoul Minion at=Cellar")
    do(s, "enter seat1 Hallway", "enter seat2 Hallway")
    to_step(s, "enemy", "3.4")
    assert s.state.prompt is not None and s.state.prompt.id == "prey"
    assert rejects(s, "next").startswith("answer the prompt first")
    answer(s, "seat 2")
    assert enemy(s, "Ghoul Minion")["engaged"] == 2


@pytest.mark.parametrize("auto", [False, True], ids=["pressed", "automatic"])
def test_two_equally_short_ways_are_the_leads_to_pick_and_the_round_waits(auto: bool) -> None:
    """A Ghoul in a passage joining the Attic and the Cellar has two ways of equal length toward the
    Parlor: the lead investigator picks, asked at the end of the Enemy phase; an automatic run stops
    there and goes on once answered."""
    s = Session(new().game, seats=2, seed=1, options={"flow": "auto"}) if auto else new()
    do(s, "set seat1.clues 4")
    start_turn(s, 1)
    do(s, "spend-clues seat1:4", "set agenda 3", "location Secret Passage 1 0 to=Attic,Cellar",
       "enemy seat1 Ghoul Minion at=Secret Passage")
    if auto:
        do(s, "pass 1", "pass 2")  # the turns end; the station runs through the Enemy phase by itself
    else:
        to_step(s, "enemy", "3.4")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "step_way" and prompt.seat == 1
    assert prompt.options == ("Attic", "Cellar") and (s.state.phase, s.state.step) == ("enemy", "3.4")
    answer(s, "Cellar")
    assert at(s, "Ghoul Minion") == "Cellar"
    if auto:
        assert (s.state.round, s.state.phase) == (2, "mythos")  # the run went on after the answer


@pytest.mark.rule("AH-DOOM-4")
@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_they_re_getting_out_places_doom_for_each_ghoul_in_the_hallway_or_parlor_at_the_end_of_the_round(
        monkeypatch: pytest.MonkeyPatch, protection: str) -> None:
    """Two Ghouls end the round in the Hallway or the Parlor; an enemy that is no Ghoul there and a Ghoul
    engaged in the Attic do not count: 2 doom on the agenda, which then waits for 1.3 to advance."""
    remove_protection(monkeypatch, protection)
    s = the_house("Ghoul Minion at=Hallway", "Ravenous Ghoul at=Parlor", f"{STRAY} at=Hallway", "Ghoul Minion")
    do(s, "enemy-state Ghoul Minion 2 exhausted", "set agenda.doom 8")  # engaged in the Attic, no attack
    to_step(s, "upkeep", "4.6")
    assert {at(s, n) for n in ("Ghoul Minion", "Ravenous Ghoul")} <= {"Hallway", "Parlor"}
    do(s, "next")  # the round ends
    assert s.state.round == 2 and s.state.over is None
    if protection == "protection-removed":
        assert track(s, "agenda.doom") == 8
        return
    assert track(s, "agenda.doom") == 10 and track(s, "agenda") == 3  # threshold met; it waits for 1.3
    assert "They're Getting Out!: 2 doom on the agenda (Ghoul Minion, Ravenous Ghoul)" in s.view()["notices"]
    to_step(s, "mythos", "1.3")
    assert s.state.over is not None  # 1.2 adds 1 more and 1.3 advances it: R3


# --- data the station cannot follow ---------------------------------------------------------------------
def test_a_treachery_with_an_enemys_forced_effect_is_one_line_naming_the_entry(tmp_path: Path) -> None:
    path, said = refused_card(tmp_path, 'kind = "treachery"\nforced = [{ at = "round_end", do = "heal", amount = 2 }]')
    assert str(path) in said and "sets.x.cards.Thing" in said
    assert "\n" not in said


@pytest.mark.parametrize(("entry", "says"), [
    ('{ at = "round_end", then = [{ do = "enemies_move", trait = "Ghoul" }] }',
     "enemies_move needs trait and location"),
    ('{ at = "round_end", then = [{ do = "doom_per_enemy", trait = "Ghoul" }] }',
     "doom_per_enemy needs trait and locations"),
    ('{ at = "dawn", then = [] }', "forced[0].at"),
])
def test_an_agenda_forced_effect_the_station_cannot_follow_is_one_line_naming_the_entry(
        tmp_path: Path, entry: str, says: str) -> None:
    path = tmp_path / "scenarios.toml"
    path.write_text('[scenarios.x]\ntitle = "X"\n[[scenarios.x.agendas]]\nname = "A"\ndoom = 3\n'
                    f'forced = [{entry}]\n[[scenarios.x.acts]]\nname = "B"\nclues = 2\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        data.load_scenarios(str(path))
    assert str(path) in str(caught.value) and "scenarios.x.agendas[0]" in str(caught.value)
    assert says in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("where", ["card", "act"])
def test_a_step_without_its_place_is_refused_wherever_it_is(tmp_path: Path, where: str) -> None:
    """Not only an agenda's Forced steps: a treachery's or an act's step that moves enemies needs where to."""
    step = '{ do = "enemies_move", trait = "Ghoul" }'
    if where == "card":
        path, said = refused_card(tmp_path, f'kind = "treachery"\nthen = [{step}]')
        assert "sets.x.cards.Thing" in said
    else:
        path = tmp_path / "scenarios.toml"
        path.write_text('[scenarios.x]\ntitle = "X"\n[[scenarios.x.agendas]]\nname = "A"\ndoom = 3\n'
                        f'[[scenarios.x.acts]]\nname = "B"\nclues = 2\nthen = [{step}]\n', encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            data.load_scenarios(str(path))
        said = str(caught.value)
        assert "scenarios.x.acts[0]" in said
    assert str(path) in said and "enemies_move needs trait and location" in said
    assert "\n" not in said
