"""The Midnight Masks with the Ghoul Priest still alive (the campaign log's entry, `--option
log=ghoul_priest_alive`): the setup shuffles him into the encounter deck (01120's setup), and while Your
House (01124) is in play he spawns there instead of engaging whoever drew him (its Forced effect)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.session import Session
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham import board, data, encounter

from .helpers import answer, do, new, rejects, start_turn, to_step, track
from .helpers import data as viewed


def masks(**options: str) -> Session:
    return new(seats=2, scenario_id="midnight_masks", **options)


def test_the_setup_shuffles_the_ghoul_priest_in_when_the_log_says_he_is_alive() -> None:
    alive, gone = masks(log="ghoul_priest_alive"), masks()
    assert track(alive, "encounter.deck") == track(gone, "encounter.deck") + 1
    to_step(alive, "mythos", "1.4")
    assert "Ghoul Priest" in alive.state.prompt.options
    start_turn(gone, 1)
    assert rejects(gone, "enemy seat1 Ghoul Priest").startswith("enemy 'Ghoul Priest' is not in the scenario's data")


def test_a_log_entry_the_setup_does_not_read_is_one_line() -> None:
    with pytest.raises(ConfigError) as caught:
        masks(log="house_burned")
    said = str(caught.value)
    assert said == "--option log=house_burned: The Midnight Masks's setup reads no entry 'house_burned' " \
        "(it reads: ghoul_priest_alive)"


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_the_ghoul_priest_drawn_away_from_your_house_spawns_there(monkeypatch: pytest.MonkeyPatch,
                                                                   protection: str) -> None:
    """Both investigators are at Rivertown; seat 1 draws the Ghoul Priest: he spawns at Your House,
    engaged with nobody, instead of engaging seat 1."""
    if protection == "protection-removed":
        monkeypatch.setattr(encounter, "spawns_instead", lambda state, name: None)
    s = masks(log="ghoul_priest_alive")
    do(s, "enter seat1 Rivertown", "enter seat2 Rivertown")
    to_step(s, "mythos", "1.4")
    answer(s, "Ghoul Priest")
    priest = viewed(s, "enemies")["Ghoul Priest"]
    if protection == "protection-removed":
        assert priest["engaged"] == 1
        return
    assert (priest["location"], priest["engaged"]) == ("Your House", None)
    assert priest["health"] == 10  # 5 per investigator


def test_the_ghoul_priest_typed_for_another_effect_spawns_at_your_house_too() -> None:
    s = start_turn(masks(log="ghoul_priest_alive"), 1)
    do(s, "enter seat1 Rivertown", "enter seat2 Rivertown")
    deck = track(s, "encounter.deck")
    do(s, "enemy seat1 Ghoul Priest")
    assert viewed(s, "enemies")["Ghoul Priest"]["location"] == "Your House"
    assert track(s, "encounter.deck") == deck - 1  # he was in the deck


def test_a_place_the_table_names_is_kept() -> None:
    s = start_turn(masks(log="ghoul_priest_alive"), 1)
    do(s, "enter seat1 Rivertown", "enemy seat1 Ghoul Priest at=Rivertown")
    assert board.enemy_location(s.state, board.enemy(s.state, "Ghoul Priest")) == "Rivertown"


def test_without_your_house_in_play_he_engages_the_drawer() -> None:
    s = start_turn(masks(log="ghoul_priest_alive"), 1)
    do(s, "enter seat1 Rivertown", "enter seat2 Rivertown", "remove-location Your House",
       "enemy seat1 Ghoul Priest")
    assert viewed(s, "enemies")["Ghoul Priest"]["engaged"] == 1


def test_a_logged_card_the_encounter_sets_lack_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "scenarios.toml"
    path.write_text('[scenarios.x]\ntitle = "X"\nif_logged = [{ log = "a", set = "torch", card = "Nobody" }]\n'
                    '[[scenarios.x.agendas]]\nname = "A"\ndoom = 3\n[[scenarios.x.acts]]\nname = "B"\nclues = 2\n',
                    encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        data.load_scenarios(str(path))
    said = str(caught.value)
    assert str(path) in said and "scenarios.x.if_logged[0]" in said and "'Nobody'" in said and "\n" not in said
