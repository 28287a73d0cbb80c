"""The same counters in every game: each game names the seat track its HP die and dial slots follow
(``Game.counter_tracks``), and a slot with no track there is said once and its presses ignored.
Driven through the simulated station with the real firmware as virtual counters."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper import games
from tablekeeper.config import REFERENCE_CONFIG
from tablekeeper.core.session import Session
from tablekeeper.station import counter_tracks
from tests.station.test_sim_counters import scripted

pytestmark = pytest.mark.usefixtures("station_commands")



def dial_config(tmp_path: Path) -> Path:
    """The reference build with its seat-1 counter a dial instead of an HP die."""
    text = REFERENCE_CONFIG.read_text(encoding="utf-8")
    assert text.count('seat = 1\nrole = "hp"') == 1
    path = tmp_path / "dial.toml"
    path.write_text(text.replace('seat = 1\nrole = "hp"', 'seat = 1\nrole = "dial"'), encoding="utf-8")
    return path


def test_arkham_hp_die_counts_damage_through_the_command_path_with_undo(tmp_path: Path) -> None:
    seen = scripted(tmp_path / "a", "counter 1 up\ncounter 1 up\nwait 1\n", game="arkham")
    assert seen.tracks["seat1.damage"] == 2 and seen.tracks["seat1.health"] == 9
    assert [(c.verb, c.args, c.origin) for c in seen.commands] == [
        ("set", ("seat1.damage", "1"), "counter"), ("set", ("seat1.damage", "2"), "counter")]
    assert seen.displays == ["2 | damage | SEAT 1"]  # the game's value and word, not the board's own 20 HP / 20
    undone = scripted(tmp_path / "b", "counter 1 up\ncounter 1 up\ntype undo\nwait 1\n", game="arkham")
    assert undone.tracks["seat1.damage"] == 1 and undone.displays == ["1 | damage | SEAT 1"]


def test_a_panel_change_to_the_followed_track_reaches_the_counter(tmp_path: Path) -> None:
    seen = scripted(tmp_path, "type set seat1.damage 3\nwait 1\n", game="arkham")
    assert seen.displays == ["3 | damage | SEAT 1"]


def test_spirit_island_hp_die_counts_energy_and_says_so(tmp_path: Path) -> None:
    """Spirits have no health: the HP die the reference build has at every seat counts Energy there."""
    seen = scripted(tmp_path, "counter 1 up\ncounter 1 up\nwait 1\n", game="spirit_island")
    assert seen.tracks["seat1.energy"] == 2 and "not used" not in (seen.message or "")
    assert [(c.verb, c.args) for c in seen.commands] == [("set", ("seat1.energy", "1")), ("set", ("seat1.energy", "2"))]
    assert seen.displays[0].startswith("2 | energy")


def test_spirit_island_dial_counts_energy_and_an_unused_slot_says_so(tmp_path: Path) -> None:
    config = dial_config(tmp_path)
    # the dial starts on DMG (not used here), then moves to RES (Energy)
    seen = scripted(tmp_path, "counter 1 up\nwait 1\n", config=config, game="spirit_island")
    assert seen.message == "seat 1 dial DMG: not used in Spirit Island" and seen.commands == []
    seen = scripted(tmp_path / "b", "counter 1 select\ncounter 1 select\ncounter 1 select\ncounter 1 up\n"
                    "counter 1 up\nwait 1\n", config=config, game="spirit_island")
    assert seen.tracks["seat1.energy"] == 2
    assert [(c.verb, c.args) for c in seen.commands] == [("set", ("seat1.energy", "1")),
                                                          ("set", ("seat1.energy", "2"))]
    # said once: after the notice has gone, more presses on DMG bring it back no more
    again = scripted(tmp_path / "c", "counter 1 up\nwait 4\ncounter 1 up\ncounter 1 down\nwait 1\n",
                     config=config, game="spirit_island")
    assert again.message is None and again.commands == []


def test_oathsworn_dial_counts_animus_within_its_bound(tmp_path: Path) -> None:
    config = dial_config(tmp_path)
    seen = scripted(tmp_path, "counter 1 select\ncounter 1 select\ncounter 1 select\ncounter 1 up\nwait 1\n",
                    config=config, game="oathsworn")
    assert seen.tracks["seat1.animus"] == 1 and seen.tracks["seat1.hp"] == 6


@pytest.mark.parametrize("name", games.names())
def test_every_game_names_seat_tracks_it_has_for_counter_slots(name: str) -> None:
    game = games.load(name)
    tracks = Session(game, seats=1, seed=1).state.tracks
    assert set(game.counter_tracks) <= set(counter_tracks.SLOTS)
    for slot, track in game.counter_tracks.items():
        assert track is None or f"seat1.{track}" in tracks, (name, slot, track)
    # the maker's reference counter (an HP die) means something in every game
    assert counter_tracks.followed(game, tracks, 1, "hp") is not None


LABEL_SLOTS = {"HP": "hp", "DMG": "damage", "HOR": "horror", "CLU": "clues", "RES": "resources"}


@pytest.mark.parametrize("name", games.names())
def test_the_docs_table_per_game_says_what_the_game_declares(name: str) -> None:
    game = games.load(name)
    tracks = Session(game, seats=1, seed=1).state.tracks
    text = (Path(__file__).resolve().parents[2] / "docs" / "config.md").read_text(encoding="utf-8")
    table = text.split(f"**{game.title}**\n\n", 1)[1].split("\n\n", 1)[0]
    documented: dict[str, str | None] = {}
    for row in table.splitlines()[2:]:
        _role, labels, follows, _counts = (cell.strip() for cell in row.strip("|").split("|"))
        for label in labels.split(", "):
            documented[LABEL_SLOTS[label]] = None if follows == "not used" else f"seat1.{follows.strip('`')}"
    assert documented == {slot: counter_tracks.followed(game, tracks, 1, slot) for slot in counter_tracks.SLOTS}


@pytest.mark.parametrize(("name", "hp", "dial"), [
    ("arkham", "damage", ("DMG", "HOR", "CLU", "RES")),
    ("spirit_island", "energy", ("--", "--", "--", "NRG")),
    ("oathsworn", "HP", ("--", "--", "--", "ANI")),
    ("earthborne", "injury", ("INJ", "--", "--", "--")),
])
def test_each_counter_slot_is_labelled_from_the_game_and_its_role(name: str, hp: str, dial: tuple[str, ...]) -> None:
    game = games.load(name)
    tracks = Session(game, seats=1, seed=1).state.tracks
    assert counter_tracks.label(game, tracks, 1, "hp") == hp
    assert tuple(counter_tracks.label(game, tracks, 1, slot) for slot in ("damage", "horror", "clues",
                                                                            "resources")) == dial


def test_a_dial_shows_the_games_words_for_its_slots(tmp_path: Path) -> None:
    seen = scripted(tmp_path, "wait 1\n", config=dial_config(tmp_path), game="spirit_island")
    assert seen.displays == [">-- 0  -- 0 |  -- 0  NRG 0 | SEAT 1"]
