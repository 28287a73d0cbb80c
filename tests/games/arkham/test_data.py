"""Data files and options: the user's edited copies load, mistakes are one line naming file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham.data import load_scenarios, load_tokens
from tablekeeper.games.arkham.record import rec

from .helpers import data, do, new, start_turn, track

SCENARIO = """
[scenarios.short]
title = "Short"
campaign = "night_of_the_zealot"
agendas = [{ name = "Soon", doom = 2 }, { name = "Now", doom = 1, per_investigator = true, resolution = "R2" }]
acts = [{ name = "Look", clues = 1 }]
[scenarios.short.reference.easy_standard]
skull = -7
"""


def test_a_users_scenario_file_sets_thresholds_and_token_values(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    s = new(scenario=str(path), scenario_id="short")
    assert (track(s, "agenda.threshold"), track(s, "act.clues_required")) == (2, 1)
    assert rec(s.state).tokens["skull"].value == -7
    do(s, "advance agenda card")
    assert track(s, "agenda.threshold") == 2  # 1 per investigator, 2 investigators
    start_turn(s, 1)
    do(s, "advance agenda card")
    assert s.state.over == "resolution R2" and data(s, "removed") == ["agenda 1: Soon", "agenda 2: Now"]


@pytest.mark.parametrize(("text", "message"), [
    ("[scenarios.x]\nagendas = [{ doom = 0 }]\nacts = [{ clues = 1 }]\n",
     "scenarios.x.agendas[0].doom: Expected int >= 1"),
    ("[scenarios.x]\nagendas = [{ doom = 'three' }]\nacts = [{ clues = 1 }]\n",
     "scenarios.x.agendas[0].doom: Expected int | null, got str"),
    ("[scenarios.x]\nagendas = [{ name = 'A' }]\nacts = [{ clues = 1 }]\n",
     "scenarios.x.agendas[0] needs doom or objective"),
    ("[scenarios.x\n", "Expected ']'"),
    ("[scenarios.x]\nagendas = [{ doom = 1 }]\nacts = [{ clues = 1 }]\n[scenarios.x.enemies.Rat]\n"
     "fight = 1\nhealth = 1\nevade = 3\ndamage = 1\nhorror = 0\nkeywrds = ['hunter']\n",
     "scenarios.x.enemies.Rat.keywrds: unknown key (did you mean 'keywords'?)"),
    ("[scenarios.x]\nagendas = [{ doom = 1 }]\nacts = [{ clues = 1 }]\n[scenarios.x.enemies.Rat]\n"
     "fight = 1\nhealth = 0\nevade = 3\ndamage = 1\nhorror = 0\n",
     "scenarios.x.enemies.Rat.health"),
    ("[scenarios.x]\nagendas = [{ doom = 1 }]\nacts = [{ clues = 1 }]\nencounter_sets = ['moths']\n",
     "scenarios.x.encounter_sets: unknown encounter set 'moths'"),
    ("[scenarios.x]\nagendas = [{ doom = 1, then = [{ do = 'dance' }] }]\nacts = [{ clues = 1 }]\n",
     "scenarios.x.agendas[0].then[0].do"),
    ("[scenarios.x]\nagendas = [{ doom = 1 }]\nacts = [{ clues = 1 }]\nstart = ['Attic']\n",
     "start: no location 'Attic'"),
])
def test_bad_scenario_file_is_one_line_naming_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_scenarios(str(path))
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("option", "name", "old", "new", "named"), [
    ("scenario",
     "scenarios.toml", 'card = "01108"\nclues = 2\nper_investigator', 'card = "01108"\nclues = 2\nper_investigtor',
     "scenarios.the_gathering.acts[0].per_investigtor: unknown key (did you mean 'per_investigator'?)"),
    ("encounters", "encounters.toml", "keywords = [\"hunter\", \"retaliate\"]", "keywords = [\"hunter\", \"retalate\"]",
     "sets.torch.cards.Ghoul Priest.keywords[1]"),
    ("scenario", "scenarios.toml", 'title = "The Gathering"', 'titel = "The Gathering"',
     "scenarios.the_gathering.titel: unknown key (did you mean 'title'?)"),
    ("chaos", "chaos.toml", "skull = { symbol = true }", "skull = { symbl = true }",
     "tokens.skull.symbl: unknown key (did you mean 'symbol'?)"),
    ("chaos", "chaos.toml", "symbols = { skull", "symbol = { skull",
     "bags.night_of_the_zealot.symbol: unknown key (did you mean 'symbols'?)"),
    ("investigators", "investigators.toml", "deck_size = 30\naccess", "deck_sise = 30\naccess",
     "roland.deck_sise: unknown key (did you mean 'deck_size'?)"),
])
def test_a_misspelt_key_in_an_edited_data_file_is_one_line_offering_the_right_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, name: str, old: str, new: str,
        named: str) -> None:
    """Every data file is decoded against its schema: a misspelt key is named, with the key meant."""
    source = Path(__file__).resolve().parents[3] / "host" / "tablekeeper" / "games" / "arkham" / "data" / name
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"mine-{name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    script = tmp_path / "empty.script"
    script.write_text("")
    assert cli.main(["play", "arkham", "--option", f"{option}={path}", "--script", str(script)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"{path}: {named}" in err


def test_bad_assets_file_is_one_line_and_a_good_one_is_offered(tmp_path: Path) -> None:
    path = tmp_path / "assets.toml"
    path.write_text('[allies."Guard Dog"]\ncost = 3\nhelth = 3\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"allies\.Guard Dog\.helth: unknown key \(did you mean 'health'\?\)"):
        new(assets=str(path))
    path.write_text('[allies."Old Dog"]\ncost = 1\nhealth = 1\n', encoding="utf-8")
    s = new(assets=str(path))
    start_turn(s, 1)
    do(s, "actions seat1")
    assert "play Old Dog" in s.state.prompt.options


def test_bad_chaos_file_names_the_token(tmp_path: Path) -> None:
    path = tmp_path / "chaos.toml"
    path.write_text('[tokens]\n"0" = { value = 0 }\n[bags.c]\neasy = { "+9" = 1 }\nstandard = {}\nhard = {}\n'
                    "expert = {}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bags\.c\.easy: unknown token '\+9'"):
        load_tokens(str(path))


def test_cli_reports_bad_options_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "arkham", "--option", "difficulty=nightmare", "--script", "-"]) == 2
    assert capsys.readouterr().err.strip() == \
        "tablekeeper: difficulty must be one of easy, standard, hard, expert, not 'nightmare'"
    assert cli.main(["play", "arkham", "--option", "seat1=nobody"]) == 2
    assert "unknown investigator" in capsys.readouterr().err
    assert cli.main(["play", "arkham", "--option", "colour=red"]) == 2
    assert "--option colour: unknown option" in capsys.readouterr().err


def test_every_verb_is_documented() -> None:
    docs = (Path(__file__).resolve().parents[3] / "docs" / "games" / "arkham.md").read_text(encoding="utf-8")
    from tablekeeper.games.arkham import GAME

    for name in GAME.verbs():
        assert f"`{name} " in docs or f"`{name}`" in docs, name


def test_every_catalogue_test_is_covered_or_listed_as_undecidable() -> None:
    """Each rule with a `Test:` line in the catalogue has a tagged test here, or a row in the docs'
    table of rules a tracker cannot decide (with its reason)."""
    import re

    root = Path(__file__).resolve().parents[3]
    catalogue = root.parent / "shared" / "rules" / "arkham.md"
    if not catalogue.exists():
        pytest.skip("the rule catalogue (shared/rules/arkham.md) is not beside this checkout")
    with_tests: list[str] = []
    current = None
    for line in catalogue.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\s*- \*\*(AH-[A-Z0-9]+-\d+)\*\*", line)
        if found:
            current = found.group(1)
        if line.strip().startswith("- Test") and current and current not in with_tests:
            with_tests.append(current)
    tagged = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        tagged |= set(re.findall(r'rule\("(AH-[A-Z0-9]+-\d+)"\)', path.read_text(encoding="utf-8")))
    docs = (root / "docs" / "games" / "arkham.md").read_text(encoding="utf-8")
    table = docs[docs.index("judged not decidable"):]
    undecidable = set(re.findall(r"AH-[A-Z0-9]+-\d+", table))
    missing = [rule for rule in with_tests if rule not in tagged and rule not in undecidable]
    assert missing == []
    assert not tagged & undecidable
