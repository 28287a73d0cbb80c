"""The island's Invaders stay true land by land on the real boards: setup places the printed pieces,
Build, Explore and Ravage offer each land's own rules' answer first (issue 27: one board's
Invaders were treated as if they stood in one land), a cascade offers only adjacent lands, a hand
change is placed in a land, and each land's Invader Action ends before its triggers, all through
the verbs."""

from __future__ import annotations

from typing import Any

import pytest

from tablekeeper import cli
from tablekeeper.core.session import Session
from tablekeeper.errors import ConfigError

from .helpers import answer_counts, attempt, detail, run, session, to_step, tracks


def lands(s: Session) -> dict[str, dict[str, Any]]:
    view: dict[str, dict[str, Any]] = s.view()["spirit_island"]["lands"]
    return view


def count(s: Session, land: str, key: str) -> int:
    return int(lands(s)[land].get(key, 0))


def totals_match_the_lands(s: Session) -> bool:
    t = tracks(s)
    return all(t[f"island.{k}"] == sum(count(s, name, k) for name in lands(s))
               for k in ("explorers", "towns", "cities"))


def to_turn_two_ravage(seats: int = 2, **options: str) -> Session:
    """Turn 2's Ravage in Mountain; the Spirits' Presence placed by their setup (A5 and B5), so
    no Blight in a Mountain land asks about Presence."""
    options.setdefault("spirits", "river,lightning"[:5] if seats == 1 else "river,lightning")
    s = session(seats, 3, True, **options)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "invader", "ravage")
    return s


def test_setup_places_the_printed_pieces_land_by_land() -> None:
    s = session(seats=2, confirm=False)
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Setup: the pieces on the island?"
    assert prompt.options[0] == "as printed on boards A, B: 2 Cities, 2 Towns, 12 Dahan, Blight in A4, B4"
    run(s, "choose 1")
    assert (count(s, "A2", "cities"), count(s, "A2", "dahan"), count(s, "A8", "towns")) == (1, 1, 1)
    assert (count(s, "B2", "cities"), count(s, "B6", "towns"), count(s, "A4", "blight"), count(s, "B4", "blight")) \
        == (1, 1, 1, 1)
    assert (tracks(s)["island.cities"], tracks(s)["island.towns"]) == (2, 2)
    assert tracks(s)["blight.card"] == 5  # setup Blight comes from the box, not the card


def test_setup_can_leave_the_lands_empty() -> None:
    s = session(seats=1, confirm=False)
    run(s, "choose 2")
    assert all(count(s, name, "cities") == 0 and count(s, name, "towns") == 0 for name in lands(s))
    answer_counts(s)
    assert tracks(s)["island.towns"] == 0


@pytest.mark.rule("SI-INV-6")
def test_explore_adds_in_each_land_with_a_source() -> None:
    s = session(seats=1, confirm=False)
    run(s, "choose 1")  # the printed pieces
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Explore in Mountain: what was added?"
    # A1 is Coastal; A6 is inland but next to A8's Town
    assert prompt.options[0] == "as the rules place them: A1, A6: 1 Explorer added"
    run(s, "choose 1")
    assert (count(s, "A1", "explorers"), count(s, "A6", "explorers")) == (1, 1)


@pytest.mark.rule("SI-INV-5")
def test_build_adds_a_town_in_each_land_not_two_cities_on_a_board() -> None:
    s = session(seats=2)
    to_step(s, "spirit", "growth")
    run(s, "done 1", "done 2")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in Mountain: what was added?"
    # each Mountain land holds one Explorer: a Town each (the old answer read a board's Town and
    # City as one land and offered "2 Cities")
    assert prompt.options[0] == "as the rules place them: A1, A6, B2, B7: 1 Town added"
    towns = tracks(s)["island.towns"]
    run(s, "choose 1")
    assert [count(s, n, "towns") for n in ("A1", "A6", "B2", "B7")] == [1, 1, 1, 1]
    assert tracks(s)["island.towns"] == towns + 4 and tracks(s)["island.cities"] == 2
    assert totals_match_the_lands(s)


@pytest.mark.rule("SI-INV-5")
def test_build_land_by_land_offers_a_city_where_towns_outnumber_cities() -> None:
    s = session(seats=1)
    to_step(s, "spirit", "growth")
    run(s, "done 1", "choose 1")  # turn 1: Towns in A1 and A6
    to_step(s, "spirit", "growth")
    to_step(s, "invader", "build")  # turn 2 builds in Jungle
    detail(s)
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in A3: what was added?"
    assert prompt.options[:2] == ("1 Town", "nothing")  # an Explorer only
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Build in A8: what was added?"
    assert prompt.options[0] == "1 City"  # its Town outnumbers its Cities
    run(s, "choose 2")  # the players built nothing there (a Fear card, say)
    assert (count(s, "A3", "towns"), count(s, "A8", "cities")) == (1, 0)


@pytest.mark.rule("SI-INV-2")
@pytest.mark.rule("SI-INV-3")
@pytest.mark.rule("SI-INV-4")
def test_ravage_deals_each_lands_own_damage() -> None:
    s = to_turn_two_ravage()
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Ravage in Mountain: what happened?"
    # per land (the old answer put a board's Invaders in one land: "16 Damage to the land")
    assert prompt.options[0] == ("as the rules place them: A1: 3 Damage, Blight; "
                                 "A6, B7: 3 Damage, Blight, 1 Dahan lost; B2: 6 Damage, Blight")
    detail(s)
    first = s.state.prompt
    assert first is not None and first.text == "Ravage in A1: did it add Blight?"
    assert first.options == ("Blight added (3 Damage)", "no Blight")
    run(s, "choose 1")
    assert count(s, "A1", "blight") == 1
    nxt = s.state.prompt
    assert nxt is not None and nxt.text == "Ravage in A1: what did the Dahan destroy?"
    assert nxt.options[0] == "nothing"  # no Dahan in A1
    run(s, "choose 1")
    a6 = s.state.prompt
    assert a6 is not None and a6.options[0] == "Blight added (3 Damage, 1 Dahan lost)"
    run(s, "choose 1")
    assert count(s, "A6", "dahan") == 0 and totals_match_the_lands(s)


def test_ravage_as_the_rules_place_it_writes_counts_the_victory_check_reads() -> None:
    s = to_turn_two_ravage()
    run(s, "choose 1")
    assert [count(s, n, "blight") for n in ("A1", "A6", "B2", "B7")] == [1, 1, 1, 1]
    assert totals_match_the_lands(s)
    assert s.state.over is None and s.state.prompt is None


@pytest.mark.rule("SI-END-1")
def test_destroying_the_starting_pieces_after_three_turns_is_no_victory() -> None:
    """The Builds and Explores were counted land by land: the printed City and Town gone, the
    Invaders the turns added keep the game going."""
    s = session(seats=1)
    for _ in range(3):
        to_step(s, "time", "passes")
        run(s, "next")
    t = tracks(s)
    assert t["island.explorers"] > 2 and t["island.towns"] + t["island.cities"] > 3
    run(s, "destroy city A2", "destroy town A8")
    assert s.state.over is None and totals_match_the_lands(s)


@pytest.mark.rule("SI-BLIGHT-1")
def test_a_cascade_offers_only_the_adjacent_lands() -> None:
    s = session(seats=2)
    run(s, "land A1 blight=1")  # A1 will cascade when the Ravage adds Blight there
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "invader", "ravage")
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.blight.cascade"
    assert prompt.text == ("Blight cascades from A1: into which adjacent land? (one on another board that touches it: "
                           "cascade LAND)")
    assert prompt.options == ("A2", "A4", "A5", "A6")  # board A's printed adjacency
    refused = attempt(s, "cascade A3")
    assert not refused.accepted and "not adjacent to A1" in str(refused.reason)
    run(s, "choose 2")  # A4, which holds its setup Blight: it cascades again
    prompt = s.state.prompt
    assert prompt is not None and prompt.options == ("A1", "A2", "A3", "A5")
    run(s, "cascade A3")
    assert (count(s, "A4", "blight"), count(s, "A3", "blight")) == (2, 1)


@pytest.mark.rule("SI-TRIGGER-1")
@pytest.mark.rule("SI-TRIGGER-2")
def test_sworn_to_victory_destroys_thunderspeakers_presence_near_a_ravage_that_killed_dahan() -> None:
    """Thunderspeaker (seat 1, board A: Presence in A3 and A7) with Presence next to A6: the
    Ravage in Mountain destroys A6's Dahan, so after that land's Ravage it destroys 1 Presence
    within 1 of A6, the players saying which (before, its Presence stayed on the panel)."""
    s = to_turn_two_ravage(spirits="thunderspeaker,lightning")
    run(s, "presence 1 A5 +1", "presence 1 A8 +1")  # both next to A6; A3 and A7 are not
    before = tracks(s)["seat1.presence"]
    run(s, "choose 1")  # as the rules place them: A6 loses its Dahan
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.blight.lose_presence" and prompt.seat == 1
    assert prompt.text == "Sworn to Victory (Ravage in A6): seat 1 destroys 1 Presence (1 to go): from which land?"
    assert prompt.options == ("A5", "A8")
    assert "Ravage in A6" not in s.view()["spirit_island"]["actions"]  # a triggered action: after the Ravage
    run(s, "choose 2")
    assert (lands(s)["A8"]["presence"], lands(s)["A5"]["presence"]) == ({}, {"1": 1})
    assert tracks(s)["seat1.presence"] == before - 1
    assert lands(s)["A3"]["presence"] == {"1": 1} and lands(s)["A7"]["presence"] == {"1": 1}
    answer_counts(s)  # B7's Dahan too, but seat 1 has no Presence near it and Lightning is not sworn
    assert tracks(s)["seat1.presence"] == before - 1 and tracks(s)["seat2.presence"] == 2


@pytest.mark.rule("SI-TRIGGER-2")
def test_sworn_to_victory_asks_about_presence_the_station_has_not_placed() -> None:
    s = to_turn_two_ravage(spirits="thunderspeaker,lightning")
    run(s, "presence 1 A5 +1", "add seat1.presence +1")  # one more Presence, in no land the station knows
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.options == ("A5", "one not in a land the station tracks", "none within range")
    run(s, "choose 3")
    assert lands(s)["A5"]["presence"] == {"1": 1} and tracks(s)["seat1.presence"] == 4


@pytest.mark.rule("SI-TRIGGER-2")
@pytest.mark.rule("SI-END-2")
def test_sworn_to_victory_taking_the_last_presence_loses_the_game() -> None:
    s = to_turn_two_ravage(seats=1, spirits="thunderspeaker")
    run(s, "presence 1 A5 +1", "presence 1 A3 -1", "presence 1 A7 -1")  # its one Presence, next to A6
    run(s, "choose 1")
    assert lands(s)["A5"]["presence"] == {} and tracks(s)["seat1.presence"] == 0
    assert s.state.over is not None and "no Presence" in s.state.over


def test_a_hand_change_of_the_island_count_is_placed_in_a_land() -> None:
    s = session(seats=2)
    to_step(s, "spirit", "growth")
    run(s, "add island.towns 1")  # a Power added a Town
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "A Town was added: in which land?"
    assert len(prompt.options) == 16
    run(s, f"choose {prompt.options.index('A5') + 1}")
    assert count(s, "A5", "towns") == 1 and totals_match_the_lands(s)
    run(s, "remove town")  # three lands hold a Town: which one?
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "A Town was removed: from which land?"
    assert prompt.options == ("A5", "A8", "B6")
    run(s, "choose 1")
    assert count(s, "A5", "towns") == 0 and totals_match_the_lands(s)
    run(s, "destroy city A2")  # a land named: no question
    assert s.state.prompt is None and count(s, "A2", "cities") == 0


@pytest.mark.rule("SI-DEFEND-1")
@pytest.mark.rule("SI-INV-2")
@pytest.mark.rule("SI-INV-3")
def test_ravage_offers_the_damage_with_defend() -> None:
    s = session(seats=2)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    run(s, "land A1 defend=40")
    to_step(s, "invader", "ravage")
    assert s.state.prompt is not None and s.state.prompt.options[0].startswith("as the rules place them: A1: 0 Damage;")
    detail(s)
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[0] == "no Blight (0 Damage)"


@pytest.mark.rule("SI-BADLANDS-3")
@pytest.mark.rule("SI-DEFEND-4")
def test_ravage_damage_counts_badlands_only_on_real_damage() -> None:
    s = session(seats=2)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")

    def offered(*lines: str) -> str:
        run(s, *lines)
        to_step(s, "invader", "ravage")
        detail(s)
        prompt = s.state.prompt
        assert prompt is not None and prompt.text == "Ravage in A1: did it add Blight?"
        while s.state.phase != "fast":
            assert s.undo().accepted
        return prompt.options[0]

    assert offered() == "Blight added (3 Damage)"  # an Explorer and a Town
    assert offered("land A1 defend=2") == "no Blight (1 Damage)"
    assert offered("land A1 defend=2 badlands=1") == "Blight added (2 Damage)"
    assert offered("land A1 defend=3 badlands=1") == "no Blight (0 Damage)"


@pytest.mark.rule("SI-STRIFE-2")
@pytest.mark.rule("SI-INV-4")
def test_ravage_answers_follow_strife_and_the_dahan_recorded() -> None:
    s = session(seats=2)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    run(s, "land A1 strife=1 dahan=4")  # the Strife sits on A1's Town: only its Explorer deals Damage
    to_step(s, "invader", "ravage")
    detail(s)
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[0] == "no Blight (1 Damage)"
    run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_destroyed"
    # no Dahan destroyed: 4 strike back for 8 Damage, the Town first, then the Explorer
    assert prompt.options[0] == "1 Explorer, 1 Town"


@pytest.mark.rule("SI-INV-8")
def test_ravage_destroyed_pieces_leave_the_land_and_generate_fear() -> None:
    s = session(seats=2)
    to_step(s, "time", "passes")
    run(s, "next")
    to_step(s, "fast", "powers")
    run(s, "land A1 dahan=2")
    to_step(s, "invader", "ravage")
    detail(s)
    run(s, "choose 2")  # no Blight: the Dahan all survive
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.ravage_destroyed"
    before = tracks(s)
    run(s, f"choose {prompt.options.index('1 Town') + 1}")
    assert count(s, "A1", "towns") == 0 and tracks(s)["island.towns"] == before["island.towns"] - 1
    assert tracks(s)["fear.generated"] == before["fear.generated"] + 1


@pytest.mark.rule("SI-BLIGHT-2")
def test_si_blight_2_invaders_arriving_partway_through_a_ravage_add_no_damage() -> None:
    s = to_turn_two_ravage()
    detail(s)
    run(s, "choose 1")  # A1's Ravage: Blight
    run(s, "add island.towns 2")  # a flipped card adds Towns partway through the Ravage
    run(s, "choose 1")  # nothing destroyed in A1; the new Towns are placed before the next question
    for _ in range(2):
        where = s.state.prompt
        assert where is not None and where.id == "si.counts.where"
        run(s, f"choose {where.options.index('A6') + 1}")
    assert count(s, "A6", "towns") == 3
    a6 = s.state.prompt
    # the damage was settled when the Ravage began: A6's Explorer and Town, not its new Towns
    assert a6 is not None and a6.options == ("Blight added (3 Damage, 1 Dahan lost)", "no Blight")
    run(s, "choose 1")
    destroyed = s.state.prompt
    assert destroyed is not None and destroyed.id == "si.counts.ravage_destroyed"
    assert destroyed.options[0] == "nothing"  # A6's one Dahan fell to the Ravage


@pytest.mark.rule("SI-BLIGHT-1")
@pytest.mark.rule("SI-TRIGGER-4")
def test_a_scripts_end_cannot_close_the_stations_ravage_so_scotland_5_waits_for_it() -> None:
    s = to_turn_two_ravage(adversary="scotland:5")
    detail(s)
    run(s, "choose 1")  # Blight in A1: Runoff is triggered, waiting for A1's Ravage to end
    assert s.view()["spirit_island"]["actions"] == ["Ravage in A1"]
    refused = attempt(s, "end")
    assert not refused.accepted and "station's own Invader Action" in str(refused.reason)
    assert not any("Runoff" in n for n in s.notices)
    out = run(s, "choose 1")  # what the Dahan destroyed: A1's Ravage ends, its trigger comes due
    texts = [str(e["text"]) for e in out.events if e.kind == "notice"]
    assert any(t.startswith("Triggered action now: Runoff") for t in texts)
    assert s.state.prompt is not None and s.state.prompt.text == "Ravage in A6: did it add Blight?"
    assert s.game.panels(s.state)["track"].lines[4] == "Ravage added Blight on board A"


@pytest.mark.parametrize("answer", [1, 2])
def test_adversary_loss_condition_is_asked_as_its_step_ends(answer: int) -> None:
    s = to_turn_two_ravage(seats=1, adversary="russia:0")
    run(s, "choose 1")  # the Ravage as the rules place it; then Russia's question
    prompt = s.state.prompt
    assert prompt is not None and prompt.options == ("no, play on", "yes: the game is lost")
    assert prompt.text == "The Tsardom of Russia's loss condition: more Beasts on the panel than on the island?"
    run(s, f"choose {answer}")
    assert (s.state.over is None) == (answer == 1)
    if answer == 2:
        assert s.state.over == "defeat: The Tsardom of Russia: more Beasts on the panel than on the island"


def test_englands_capital_is_a_loss_the_station_sees_on_the_lands() -> None:
    s = session(seats=1, adversary="england:0")
    run(s, "land A8 towns=6")
    assert s.state.over is None
    run(s, "land A8 cities=1")  # 7 Towns and Cities in one land
    assert s.state.over == ("defeat: The Kingdom of England: Proud and Mighty Capital: "
                            "7 or more Towns and Cities in one land (A8)")


def test_scotlands_trade_hub_is_a_loss_the_station_sees_on_the_lands() -> None:
    s = session(seats=1, adversary="scotland:0")  # board A: A2 has a City; 2 per board allowed
    run(s, "land A1 cities=1")
    assert s.state.over is None
    run(s, "land A3 cities=1")
    assert s.state.over is not None and "Trade Hub" in s.state.over


def _to_escalation(adversary: str) -> Session:
    """Report the Invader cards so the fourth is a Stage II card with the escalation mark."""
    s = session(seats=1, adversary=adversary, invaders="report", confirm=False)
    run(s, "choose 1", "reveal invaders Jungle")
    answer_counts(s)
    run(s, "next")
    for card in ("Sands", "Mountain"):
        to_step(s, "invader", "explore")
        run(s, f"reveal invaders {card}")
        answer_counts(s)
        run(s, "next")
    to_step(s, "invader", "explore")
    return s


def test_brandenburg_prussias_land_rush_asks_the_land_on_each_board() -> None:
    s = _to_escalation("brandenburg_prussia:0")
    out = run(s, "reveal invaders Wetland")  # Stage II, with the escalation mark
    assert "Escalation (Land Rush): On each board with a Town or City, add 1 Town to a land without Towns" not in [
        str(e["text"]) for e in out.events if e.kind == "notice"]  # announced after the Explore
    run(s, "choose 1")  # the Explore as the rules place it
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Land Rush on board A: which land gets the Town?"
    lands_now = lands(s)
    assert all(int(lands_now[name].get("towns", 0)) == 0 for name in prompt.options[:-1])
    assert prompt.options[-1] == "nowhere"
    run(s, f"choose {prompt.options.index('A5') + 1}")
    assert count(s, "A5", "towns") >= 1 and totals_match_the_lands(s)


def test_englands_building_boom_builds_where_the_most_towns_and_cities_are() -> None:
    s = _to_escalation("england:0")
    run(s, "land A8 towns=3")  # the land with the most Towns and Cities on board A
    cities = count(s, "A8", "cities")
    run(s, "reveal invaders Sands", "choose 1")  # the Explore (and its escalation) as the rules place them
    assert any(n == "Escalation: Build in A8: 1 City added" for n in s.notices)
    assert count(s, "A8", "cities") == cities + 1


def test_swedens_swaying_replaces_a_dahan_where_invaders_match_them() -> None:
    s = _to_escalation("sweden:0")
    run(s, "land A5 explorers=1 dahan=1")  # A5 will be explored: 2 Invaders, 1 Dahan
    run(s, "reveal invaders Wetland", "choose 1")
    assert (count(s, "A5", "dahan"), count(s, "A5", "towns")) == (0, 1)
    assert any(n == "Swayed by the Invaders: a Town replaces a Dahan in A5" for n in s.notices)


def test_unknown_adversary_is_a_config_error_naming_the_keys() -> None:
    with pytest.raises(ConfigError, match="expected one of brandenburg_prussia, england, france, russia, "
                                          "scotland, sweden at level 0 to 6"):
        session(adversary="spain:3")


@pytest.mark.parametrize(("adversary", "cards", "pool"), [
    ("brandenburg_prussia:3", 10, 4), ("england:3", 13, 4), ("england:6", 13, 5), ("sweden:0", 9, 4),
    ("france:2", 10, 4), ("russia:6", 14, 4), ("England:1", 10, 4), ("The Kingdom of Sweden:6", 13, 4)])
def test_adversary_level_sets_the_fear_deck_and_pool(adversary: str, cards: int, pool: int) -> None:
    s = session(seats=1, adversary=adversary)
    assert tracks(s)["fear.cards_left"] == cards and tracks(s)["fear.pool"] == pool


@pytest.mark.parametrize(("adversary", "cards"), [("brandenburg_prussia:2", 12), ("brandenburg_prussia:6", 8),
                                                  ("russia:4", 12)])
def test_adversary_deck_orders_set_the_invader_deck(adversary: str, cards: int) -> None:
    s = session(seats=1, adversary=adversary, invaders="report", confirm=False)
    assert tracks(s)["invader.cards_left"] == cards


def test_adversary_setup_adds_its_pieces_on_each_board() -> None:
    s = session(seats=2, adversary="england:2")
    assert (count(s, "A1", "cities"), count(s, "A2", "towns"), count(s, "B1", "cities"), count(s, "B2", "towns")) \
        == (1, 1, 1, 1)
    s = session(seats=1, adversary="brandenburg_prussia:1")
    assert count(s, "A3", "towns") == 1
    s = session(seats=1, adversary="sweden:2")  # a City in land 4; its setup Blight moves to land 5
    assert (count(s, "A4", "cities"), count(s, "A4", "blight"), count(s, "A5", "blight")) == (1, 0, 1)


def test_innate_is_refused_below_its_threshold_and_used_at_its_speed() -> None:
    s = session(spirits="river,lightning")
    to_step(s, "spirit", "growth")
    run(s, "play 2 lightning's boon")
    assert s.view()["spirit_island"]["elements"]["seat2"] == {"fire": 1, "air": 1}
    run(s, "element 2 fire fire air")
    to_step(s, "slow")
    refused = attempt(s, "innate 1")
    assert not refused.accepted and "needs 1 sun 2 water" in str(refused.reason)
    out = run(s, "innate 2")  # Thundering Destruction is Slow: 3 Fire 2 Air meets its first level
    assert any("Thundering Destruction (threshold 1 of 4 met: 1: Destroy 1 Town)" in str(e["text"])
               for e in out.events if e.kind == "notice")


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
    assert cli.main(["play", "spirit_island", "--option", "spirits=river,wind"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown Spirit 'wind'" in err[0] and "lightning, ocean, rampant_green" in err[0]


@pytest.mark.rule("SI-BLIGHT-1")
@pytest.mark.rule("SI-INV-4")
def test_a_lands_counterattack_and_its_fear_finish_before_the_next_lands_ravage() -> None:
    """A6's surviving Dahan destroy its Town and Explorer (1 Fear) as A6's Ravage finishes (step
    5), before B2's Ravage begins; the station used to run the rest of the step in the middle of
    A6's, so B2's Blight came first on the display and the Fear after it."""
    s = session(2, 3, True, spirits="river,lightning")
    to_step(s, "time", "passes")
    run(s, "next", "land A6 dahan=3")
    to_step(s, "invader", "ravage")  # Mountain: A1, A6, B2, B7
    out = run(s, "choose 1")
    said = [str(e["text"]) for e in out.events if e.kind == "notice"]
    a6 = said.index("Ravage in A6: 1 Explorer, 1 Town destroyed")
    assert said.index("Destroying 1 town(s) generates 1 Fear") < a6 < said.index("Ravage in B2: Blight added")
    assert count(s, "A6", "towns") == 0 and tracks(s)["fear.generated"] == 1


@pytest.mark.rule("SI-INV-2")
@pytest.mark.rule("SI-INV-5")
def test_choke_the_land_with_green_stops_a_ravage_or_build_at_its_sacred_site() -> None:
    """A Spread of Rampant Green (seat 1) may stop a Ravage or Build in a land with its Sacred Site by
    destroying 1 of its Presence there: the land-by-land questions offer it (before, the players had
    to answer "no Blight" and take the Presence off by hand, with nothing on screen to say so)."""
    s = session(2, 3, True, spirits="rampant_green,lightning")
    to_step(s, "time", "passes")
    run(s, "next", "presence 1 A6 +2", "presence 1 A5 +1")  # Sacred Sites in a Mountain and a Wetland
    to_step(s, "invader", "ravage")  # Ravage in Mountain, then Build in Wetland
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[0].endswith(
        "(A6: Choke the Land with Green may stop it, land by land)")
    presence = tracks(s)["seat1.presence"]
    detail(s)
    run(s, "choose 1", "choose 1")  # A1: Blight, its Dahan destroyed nothing
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Ravage in A6: did it add Blight?"
    assert prompt.options[2] == "stopped: seat 1 destroys 1 Presence there (Choke the Land with Green)"
    run(s, "choose 3")
    assert (count(s, "A6", "blight"), count(s, "A6", "dahan"), count(s, "A6", "towns")) == (0, 1, 1)
    assert lands(s)["A6"]["presence"] == {"1": 1} and tracks(s)["seat1.presence"] == presence - 1
    prompt = s.state.prompt  # no counterattack in A6: the next land's Ravage
    assert prompt is not None and prompt.text == "Ravage in B2: did it add Blight?"
    answer_counts(s)
    to_step(s, "invader", "build")
    detail(s)
    while s.state.prompt is not None and s.state.prompt.text != "Build in A5: what was added?":
        run(s, "choose 1")
    prompt = s.state.prompt
    assert prompt is not None and prompt.options[-1].startswith("stopped: seat 1")
    run(s, f"choose {len(prompt.options)}")
    assert count(s, "A5", "towns") == 0 and lands(s)["A5"]["presence"] == {"1": 1}
    assert tracks(s)["seat1.presence"] == presence - 2
