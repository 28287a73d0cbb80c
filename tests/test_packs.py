"""Packs: the built-in content listed per game and kind, a broken pack's problems one per line, a
user's pack played through the verbs (its content chosen by name like the box's), and a save that
refuses to replay once a pack it used has changed."""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core import packs as packlib
from tablekeeper.core.odds import chained_draws
from tablekeeper.games.arkham import rules
from tablekeeper.games.arkham.data import load_tokens
from tablekeeper.games.arkham.odds import token_effect

HOMEBREW_SCENARIO = """\
[scenarios.cellar_door]
title = "The Cellar Door"
campaign = "cellar"
verified = false
source = "made up at our table"
start = ["Cellar"]
start_at = "Cellar"
encounter_sets = ["rats"]
[scenarios.cellar_door.reference.easy_standard]
skull = -2
cultist = -1
tablet = -3
elder_thing = -4
[scenarios.cellar_door.reference.hard_expert]
skull = -3
cultist = -2
tablet = -4
elder_thing = -5
[[scenarios.cellar_door.agendas]]
name = "Lights Out"
doom = 4
[[scenarios.cellar_door.acts]]
name = "Find the Key"
clues = 2
[scenarios.cellar_door.locations.Cellar]
shroud = 3
clues = 2
"""

HOMEBREW_BAG = """\
[bags.cellar]
verified = false
source = "made up at our table"
symbols = { skull = 1, autofail = 1, elder_sign = 1 }
easy = { "0" = 2 }
standard = { "0" = 1, "-1" = 1 }
hard = { "-1" = 2 }
expert = { "-2" = 2 }
"""


def make_pack(folder: Path, game: str = "arkham", name: str = "homebrew", **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.toml").write_text(f'name = "{name}"\ngame = "{game}"\n', encoding="utf-8")
    for file_name, text in files.items():
        (folder / f"{file_name}.toml").write_text(text, encoding="utf-8")
    return folder


def homebrew(folder: Path) -> Path:
    return make_pack(folder, scenarios=HOMEBREW_SCENARIO, chaos=HOMEBREW_BAG)


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str,
         script: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = cli.main(["play", *args, "--script", "-", "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def listing(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, list[dict[str, object]]]]:
    assert cli.main(["packs", "list", "--json"]) == 0
    result: dict[str, dict[str, list[dict[str, object]]]] = json.loads(capsys.readouterr().out)
    return result


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets a data directory of its own, so the user's packs folder starts empty."""
    monkeypatch.setenv("TABLEKEEPER_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


# --- the built-in content is a pack ----------------------------------------------------------

def test_the_listing_names_the_core_boxes_by_game_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    found = listing(capsys)
    assert set(found) == {"arkham", "spirit_island", "oathsworn", "earthborne"}
    for kinds in found.values():
        for entries in kinds.values():
            for entry in entries:
                assert set(entry) - {"key"} == {"name", "pack", "verified"} and entry["pack"] == "core"
    zealot = {"The Gathering", "The Midnight Masks", "The Devourer Below"}
    assert zealot <= {e["name"] for e in found["arkham"]["scenarios"] if e["verified"]}
    assert {"name": "Core set challenge deck", "pack": "core", "verified": True} in \
        found["earthborne"]["challenge_decks"]
    assert any(e["name"] == "Broodmother" for e in found["oathsworn"]["encounters"])
    assert len(found["spirit_island"]["spirits"]) >= 8
    adversaries = {e.get("key") for e in found["spirit_island"]["adversaries"]}
    assert {"brandenburg_prussia", "england", "sweden"} <= adversaries
    assert {"name": "The Gathering", "pack": "core", "verified": True, "key": "the_gathering"} in \
        found["arkham"]["scenarios"]


@pytest.mark.parametrize("game", ["arkham", "spirit_island", "oathsworn", "earthborne"])
def test_each_built_in_pack_passes_the_check_a_users_pack_gets(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper import games

    folder = Path(games.__file__).parent / game / "data"
    assert cli.main(["packs", "check", str(folder)]) == 0, capsys.readouterr().err
    assert f"pack 'core' for {game} is fine" in capsys.readouterr().out


def test_the_three_night_of_the_zealot_scenarios_carry_their_token_effects() -> None:
    from tablekeeper.games.arkham.data import PACKAGE, load_scenarios

    scenarios, campaigns = load_scenarios(None, None, (packlib.builtin("arkham", PACKAGE),))
    for sid in campaigns["night_of_the_zealot"]:
        for side in ("easy_standard", "hard_expert"):
            assert {"skull", "cultist", "tablet"} <= set(scenarios[sid].reference[side]), (sid, side)


def test_earthbornes_view_lists_its_content_as_the_packs_listing_does(capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper.core.session import Session
    from tablekeeper.games.earthborne import GAME

    view = Session(GAME, seats=2, seed=1).view()
    assert view["content"] == listing(capsys)["earthborne"]


def test_every_session_records_the_built_in_pack() -> None:
    from tablekeeper.core.session import Session
    from tablekeeper.games.oathsworn import GAME

    setup = Session(GAME, seats=4, seed=1).setup
    value = setup.options[packlib.PACKS_OPTION]
    (record,) = json.loads(value.removeprefix(packlib.RECORDS_MARK))
    assert record == {"name": "core", "where": "builtin",
                      "sha256": packlib.builtin("oathsworn", GAME.pack_package or "").sha256}


# --- checking a pack -------------------------------------------------------------------------

BROKEN = {
    "bad TOML": ({"scenarios": '[scenarios.x]\ntitle = "X"\ncampaign = \n'}, "scenarios.toml:3: not valid TOML"),
    "wrong type": ({"scenarios": HOMEBREW_SCENARIO.replace("doom = 4", 'doom = "four"'), "chaos": HOMEBREW_BAG},
                   "scenarios.toml:21: scenarios.cellar_door.agendas[0].doom: Expected int | null, got str"),
    "unknown key": ({"chaos": HOMEBREW_BAG.replace("verified = false", "verifed = false")},
                    "chaos.toml:2: bags.cellar.verifed: unknown key (did you mean 'verified'?)"),
    "missing name": ({"scenarios": HOMEBREW_SCENARIO.replace('title = "The Cellar Door"\n', ""),
                      "chaos": HOMEBREW_BAG},
                     "scenarios.toml:1: scenarios.cellar_door.title: missing name (the title players see)"),
    "duplicate name": ({"scenarios": HOMEBREW_SCENARIO.replace("cellar_door", "the_gathering"), "chaos": HOMEBREW_BAG},
                       "scenarios.toml:1: scenarios.the_gathering: duplicate key 'the_gathering': already in pack "
                       "'core'"),
    "duplicate shown name": ({"scenarios": HOMEBREW_SCENARIO.replace("The Cellar Door", "The Gathering"),
                              "chaos": HOMEBREW_BAG},
                             "scenarios.toml:1: scenarios.cellar_door: duplicate name 'The Gathering': already in "
                             "pack 'core'"),
    "unknown file": ({"scenario": HOMEBREW_SCENARIO}, "scenario.toml: not one of the files of a pack for arkham"),
    "a reference across files": ({"scenarios": HOMEBREW_SCENARIO}, "scenarios.toml:3: scenarios.cellar_door."
                                 "campaign: campaign 'cellar' has no chaos bag"),
}


@pytest.mark.parametrize("files, expected", BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_pack_is_one_line_naming_file_key_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            files: dict[str, str], expected: str) -> None:
    folder = make_pack(tmp_path / "hb", **files)
    assert cli.main(["packs", "check", str(folder)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(str(folder)), lines
    assert expected in lines[0]
    assert captured.out == ""


def test_every_problem_of_a_pack_is_its_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_pack(tmp_path / "hb", scenarios="[scenarios.x\n",
                       chaos=HOMEBREW_BAG.replace("verified = false", "verified = 'no'"),
                       investigators='[wendy]\nname = "Wendy"\nhealth = 7\nsanity = 7\n'
                                     '[nobody]\nhealth = 7\nsanity = 7\n')
    (folder / "pack.toml").write_text('name = "homebrew"\ngame = "arkham"\nversion = 2\n')
    assert cli.main(["packs", "check", str(folder)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0].rsplit("/", 1)[1] for line in lines] == [
        "pack.toml", "chaos.toml", "investigators.toml", "investigators.toml", "scenarios.toml"]
    assert "pack.toml:3: version: unknown key" in lines[0]
    assert "chaos.toml:2: bags.cellar.verified: Expected bool, got str" in lines[1]
    assert "investigators.toml:1: wendy: duplicate key 'wendy': already in pack 'core'" in lines[2]
    assert "investigators.toml:5: nobody.name: missing name" in lines[3]
    assert "scenarios.toml:1: not valid TOML" in lines[4]


def test_a_folder_without_a_manifest_is_not_a_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "loose").mkdir()
    assert cli.main(["packs", "check", str(tmp_path / "loose")]) == 2
    assert "no pack.toml" in capsys.readouterr().err
    assert cli.main(["packs", "check", str(tmp_path / "nowhere")]) == 2
    assert "nowhere: cannot read" in capsys.readouterr().err


def test_a_good_pack_is_fine_and_listed_with_its_name(tmp_path: Path, data_dir: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = homebrew(data_dir / "packs" / "homebrew")
    assert cli.main(["packs", "check", str(folder)]) == 0
    assert "pack 'homebrew' for arkham is fine (1 scenarios, 1 chaos_bags)" in capsys.readouterr().out
    found = listing(capsys)["arkham"]
    assert {"name": "The Cellar Door", "pack": "homebrew", "verified": False, "key": "cellar_door"} in \
        found["scenarios"]
    assert {"name": "cellar", "pack": "homebrew", "verified": False} in found["chaos_bags"]


# --- a template to fill in -------------------------------------------------------------------

def test_a_new_template_is_refused_until_filled_in(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["packs", "new", "arkham", "scenarios", "The Cellar Door"]) == 0
    folder = data_dir / "packs" / "the-cellar-door"
    assert str(folder / "scenarios.toml") in capsys.readouterr().out
    assert cli.main(["packs", "check", str(folder)]) == 2
    assert "scenarios.the_cellar_door needs at least one agenda and one act" in capsys.readouterr().err
    assert cli.main(["packs", "new", "arkham", "chaos_bags", "The Cellar Door", "--into", str(folder)]) == 0
    assert cli.main(["packs", "check", str(folder)]) == 2
    assert "chaos.toml:4: bags.the_cellar_door: missing required key easy" in capsys.readouterr().err
    text = (folder / "scenarios.toml").read_text()
    for commented in ("[[scenarios.the_cellar_door.agendas]]", "[[scenarios.the_cellar_door.acts]]",
                      "[scenarios.the_cellar_door.locations.Study]", 'name = ""', "doom = 3", "clues = 2",
                      "shroud = 2", "per_investigator = true", "skull = -1", "skull = -2"):
        text = text.replace(f"# {commented}", commented)
    (folder / "scenarios.toml").write_text(text.replace("start = []", 'start = ["Study"]'))
    bag = (folder / "chaos.toml").read_text()
    for level in ("easy", "standard", "hard", "expert"):
        bag = bag.replace(f"# {level} = ", f"{level} = ")
    (folder / "chaos.toml").write_text(bag)
    assert cli.main(["packs", "check", str(folder)]) == 0, capsys.readouterr().err
    assert "is fine (1 scenarios, 1 chaos_bags)" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["arkham", "spirit_island", "oathsworn", "earthborne"])
def test_every_kind_has_a_template_that_is_toml(game: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from tablekeeper import games

    schema = games.pack_schemas()[game]
    for kind in schema.templates:
        folder = tmp_path / kind
        assert cli.main(["packs", "new", game, kind, "Our Own", "--into", str(folder)]) == 0
        (written,) = [p for p in folder.glob("*.toml") if p.name != "pack.toml"]
        assert written.name == schema.file_of(kind)
        code = cli.main(["packs", "check", str(folder)])
        err = capsys.readouterr().err
        assert "not valid TOML" not in err and "unknown key" not in err, err
        assert code in (0, 2)


# --- a user's pack through the verbs ---------------------------------------------------------

def independent_odds(counts: dict[str, int], values: dict[str, int], skill: int, difficulty: int,
                     elder: int) -> Fraction:
    tokens, _ = load_tokens()
    chance = Fraction(0)
    for drawn, p in chained_draws(counts, lambda t: tokens[t].again).items():
        modifier, fail = 0, False
        for token in drawn:
            if token == "autofail":
                fail = True
            elif token == "elder_sign":
                modifier += elder
            else:
                modifier += values.get(token, tokens[token].value)
        if rules.skill_test_result(skill, modifier, difficulty, autofail=fail).success:
            chance += p
        assert (modifier, fail) == token_effect(drawn, {**tokens}, elder) or token in values
    return chance


def test_a_homebrew_scenario_plays_with_its_own_chaos_bag_and_exact_odds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = homebrew(tmp_path / "hb")
    code, out, err = play(monkeypatch, capsys, "arkham", "--pack", str(folder), "--option", "scenario_id=cellar_door",
                          script="test seat1 intellect 3 3\n")
    assert code == 0, err
    view = json.loads(out)
    assert view["scenario"] == "cellar_door" and view["sources"]["chaos"]["contents"] == {
        "0": 1, "-1": 1, "skull": 1, "autofail": 1, "elder_sign": 1}
    assert view["at"] == {"1": "Cellar", "2": "Cellar"} and view["scenario_source"]["verified"] is False
    counts = {"0": 1, "-1": 1, "skull": 1, "autofail": 1, "elder_sign": 1}
    expected = independent_odds(counts, {"skull": -2}, 3, 3, elder=1)  # Roland's Elder Sign is +1
    assert expected == Fraction(2, 5)
    assert view["odds"]["exact"] == f"{expected.numerator}/{expected.denominator}"
    assert "odds from an unverified scenario reference card" in view["odds"]["notes"]
    code, out, _ = play(monkeypatch, capsys, "arkham", "--pack", str(folder), "--option", "scenario_id=cellar_door",
                        "--option", "difficulty=hard", script="test seat1 intellect 3 2\n")
    hard = independent_odds({"-1": 2, "skull": 1, "autofail": 1, "elder_sign": 1}, {"skull": -3}, 3, 2, elder=1)
    assert json.loads(out)["odds"]["exact"] == f"{hard.numerator}/{hard.denominator}" == "3/5"


def test_a_pack_is_chosen_by_name_from_the_packs_folder(data_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    homebrew(data_dir / "packs" / "any-folder-name")
    code, out, err = play(monkeypatch, capsys, "arkham", "--pack", "homebrew", "--option", "scenario_id=cellar_door")
    assert code == 0, err and json.loads(out)["scenario"] == "cellar_door"
    code, _, err = play(monkeypatch, capsys, "arkham", "--pack", "homebrw")
    assert code == 2 and err.count("\n") == 1
    assert "--pack homebrw: no arkham pack of that name" in err and "packs: core, homebrew" in err
    code, _, err = play(monkeypatch, capsys, "arkham", "--option", "scenario_id=cellar_door")
    assert code == 2 and "unknown scenario" in err  # without the pack, its content is not there


def test_a_pack_for_another_game_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = homebrew(tmp_path / "hb")
    code, _, err = play(monkeypatch, capsys, "oathsworn", "--pack", str(folder))
    assert code == 2 and f"--pack {folder}: a pack for arkham, not oathsworn" in err


OATHSWORN_ENCOUNTER = """\
[encounter.mire_hag]
name = "Mire Hag"
verified = false
source = "our own board"
might = ["Y", "Y"]
stage_after_breaks = [1, 2]
locations = [{ id = "head", name = "Head", defense = 3 }, { id = "tail", name = "Tail", defense = 2 }]
stages = [3, 3, 3]
"""

EARTHBORNE_DECK = """\
name = "Tiny deck"
verified = false
source = "two cards of our own"
cards = [{ id = "a", icon = "sun", awa = 1, fit = 1, spi = 1, foc = 1 },
         { id = "b", icon = "crest", awa = -1, fit = -1, spi = -1, foc = -1 }]
"""

SPIRIT = """\
[spirits.mist]
name = "Mist Over the Marsh"
start = [{ count = 2, terrain = "Wetland" }]
cards = [{ name = "Fog Bank", cost = 1, speed = "fast", elements = ["water", "air"] }]
"""

ADVERSARY = """\
[adversaries.habsburg]
name = "The Habsburg Monarchy"
verified = false
source = "our own notes"
levels = [{ level = 0, difficulty = 2, fear_cards = [3, 3, 3] }, { level = 1, difficulty = 3, fear_cards = [3, 4, 3] }]
"""


def test_each_games_pack_content_is_chosen_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    oath = make_pack(tmp_path / "os", "oathsworn", oathsworn=OATHSWORN_ENCOUNTER)
    code, out, err = play(monkeypatch, capsys, "oathsworn", "--pack", str(oath), "--option", "part=encounter",
                          "--option", "encounter=mire_hag")
    assert code == 0, err
    assert {k: v for k, v in json.loads(out)["tracks"].items() if k.startswith("boss.")} == {"boss.head": 6,
                                                                                           "boss.tail": 6}
    deck = make_pack(tmp_path / "eb", "earthborne", challenge=EARTHBORNE_DECK)
    code, out, err = play(monkeypatch, capsys, "earthborne", "--pack", str(deck), "--option",
                          "challenge_deck=Tiny deck")
    assert code == 0, err
    view = json.loads(out)
    assert view["sources"]["challenge"]["remaining"] == 2
    assert {"name": "Tiny deck", "pack": "homebrew", "verified": False} in view["content"]["challenge_decks"]
    from tests.games.spirit_island.helpers import run, session, to_step

    spirit = make_pack(tmp_path / "si", "spirit_island", spirits=SPIRIT, adversaries=ADVERSARY)
    s = session(spirits="mist,river", adversary="habsburg:1", packs=str(spirit))
    assert s.view()["spirit_island"]["adversary"] == {
        "key": "habsburg", "name": "The Habsburg Monarchy", "level": 1, "difficulty": 3, "fear_cards": [3, 4, 3],
        "verified": False}
    assert s.state.value("fear.cards_left") == 10
    to_step(s, "spirit", "growth")
    run(s, "play 1 fog bank")
    assert s.view()["spirit_island"]["elements"]["seat1"] == {"water": 1, "air": 1}


# --- saves -----------------------------------------------------------------------------------

@pytest.mark.parametrize("protection", ["kept", "protection-removed"])
def test_a_save_refuses_to_replay_once_its_pack_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], protection: str) -> None:
    folder = homebrew(tmp_path / "hb")
    save = str(tmp_path / "game.sqlite3")
    args = ("arkham", "--pack", str(folder), "--option", "scenario_id=cellar_door", "--save", save)
    code, _, err = play(monkeypatch, capsys, *args, script="test seat1 intellect 3 3\n")
    assert code == 0, err
    code, out, err = play(monkeypatch, capsys, "arkham", "--save", save)
    assert code == 0 and json.loads(out)["odds"]["exact"] == "2/5"  # unchanged: it goes on
    (folder / "chaos.toml").write_text(HOMEBREW_BAG.replace('standard = { "0" = 1, "-1" = 1 }',
                                                            'standard = { "0" = 2, "-1" = 1 }'))
    if protection == "protection-removed":
        monkeypatch.setattr(packlib, "_checked",
                            lambda rec, game, package, fresh=False: packlib._find(rec, game, package))
    code, out, err = play(monkeypatch, capsys, "arkham", "--save", save)
    if protection == "protection-removed":
        assert code == 0 and json.loads(out)["odds"]["exact"] != "2/5"  # the old log meets other numbers
        return
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("tablekeeper: pack 'homebrew' (arkham, ") and "changed since this game began" in err


def test_a_save_whose_pack_is_gone_says_so(tmp_path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = homebrew(data_dir / "packs" / "hb")
    save = str(tmp_path / "game.sqlite3")
    assert play(monkeypatch, capsys, "arkham", "--pack", "homebrew", "--option", "scenario_id=cellar_door",
                "--save", save)[0] == 0
    (folder / "pack.toml").unlink()
    code, _, err = play(monkeypatch, capsys, "arkham", "--save", save)
    assert code == 2 and "pack 'homebrew' (arkham): not in" in err and err.count("\n") == 1


def test_a_save_naming_packs_without_records_is_refused(tmp_path: Path) -> None:
    from tablekeeper.core.session import Session
    from tablekeeper.errors import ConfigError
    from tablekeeper.games.arkham import GAME

    with pytest.raises(ConfigError, match="a save keeps each pack's record"):
        Session(GAME, seats=2, seed=1, options={"packs": "/etc"}, from_save="game.sqlite3: slot 'main'")


def test_the_station_plays_a_packs_scenario_and_its_save_refuses_a_changed_pack(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = homebrew(tmp_path / "hb")
    keys = tmp_path / "keys.txt"
    keys.write_text("wait 1\n", encoding="utf-8")
    save = str(tmp_path / "station.sqlite3")
    station = ["run", "--sim", "--game", "arkham", "--script", str(keys), "--display", "capture", "--capture-dir",
               str(tmp_path / "frames"), "--save", save]
    assert cli.main([*station, "--pack", str(folder), "--option", "scenario_id=cellar_door"]) == 0
    capsys.readouterr()
    code, out, err = play(monkeypatch, capsys, "arkham", "--save", save)
    assert code == 0, err
    assert json.loads(out)["scenario"] == "cellar_door"
    (folder / "scenarios.toml").write_text(HOMEBREW_SCENARIO.replace("shroud = 3", "shroud = 4"))
    code, _, err = play(monkeypatch, capsys, "arkham", "--save", save)
    assert code == 2 and "pack 'homebrew' (arkham, " in err  # play: one line, nothing moved


@pytest.mark.parametrize("protection", ["kept", "protection-removed"])
def test_a_station_whose_pack_changed_keeps_the_old_game_aside_and_plays_a_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], protection: str) -> None:
    """An appliance restarts after a software or pack update: stopping with exit 2 would leave the table
    with no game (the service does not restart on 2), so the old game moves to its own slot instead."""
    from tablekeeper.commands import run as runmod
    from tablekeeper.core.store import Store

    folder = homebrew(tmp_path / "hb")
    keys = tmp_path / "keys.txt"
    keys.write_text("wait 1\n", encoding="utf-8")
    save = str(tmp_path / "station.sqlite3")
    station = ["run", "--sim", "--game", "arkham", "--script", str(keys), "--display", "capture", "--capture-dir",
               str(tmp_path / "frames"), "--save", save]
    assert cli.main([*station, "--pack", str(folder), "--option", "scenario_id=cellar_door"]) == 0
    assert play(monkeypatch, capsys, "arkham", "--save", save, script="test seat1 intellect 3 3\n")[0] == 0
    with Store.open(save) as store:
        before = store.load("main")
    assert before is not None
    (folder / "scenarios.toml").write_text(HOMEBREW_SCENARIO.replace("shroud = 3", "shroud = 4"))
    if protection == "protection-removed":
        monkeypatch.setattr(runmod, "set_aside_changed", lambda args, exc: (_ for _ in ()).throw(exc))
    made = []
    make_station = runmod.make_station
    monkeypatch.setattr(runmod, "make_station", lambda *a, **k: made.append(make_station(*a, **k)) or made[-1])
    code = cli.main(station)
    out, err = capsys.readouterr()
    if protection == "protection-removed":
        assert code == 2
        return
    assert code == 0, err
    assert "slot 'main-kept'" in err and "a new game begins in slot 'main'" in err
    assert made[0].ui.save_problem == "old game kept as main-kept"  # on the track display
    with Store.open(save) as store:
        assert store.slots() == ["main", "main-kept"]
        kept, new = store.load("main-kept"), store.load("main")
    assert kept is not None and new is not None
    assert kept.entries == before.entries and kept.setup == before.setup  # nothing of the old game lost
    assert new.setup.game == "arkham" and new.setup.seats == before.setup.seats
    (folder / "scenarios.toml").write_text(HOMEBREW_SCENARIO)  # the old pack back: the old game goes on
    code, out, err = play(monkeypatch, capsys, "arkham", "--save", save, "--slot", "main-kept")
    assert code == 0, err
    assert json.loads(out)["scenario"] == "cellar_door"


def test_a_wrong_entry_met_in_play_is_named_in_the_packs_own_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_pack(tmp_path / "si", "spirit_island", spirits=SPIRIT.replace('speed = "fast"', "speed = 1"))
    code, _, err = play(monkeypatch, capsys, "spirit_island", "--pack", str(folder), "--option", "spirits=mist")
    assert code == 2 and err.count("\n") == 1
    assert f"{folder / 'spirits.toml'}: spirits.mist.cards[0].speed: Expected" in err
