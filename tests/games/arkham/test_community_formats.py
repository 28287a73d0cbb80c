"""The community's formats through the verbs: a chaos bag per difficulty from a file in the shape
the ArkhamCards data repository uses (``play arkham --option bag=FILE``, alone or in a campaign),
and ArkhamDB deck exports into the campaign log (``tablekeeper campaign … deck FILE.json``). The
fixtures are written for these tests in those shapes; a malformed file is one line naming the file
and the key, exit 2."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tablekeeper import cli

from .test_campaign_cli import Table

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CAMPAIGN = FIXTURES / "arkhamcards-campaign.json"

# The Gathering's reference card, standard side, with no Ghoul at the location: skull -0 (-1 per
# Ghoul), cultist -1, tablet -2; Roland's Elder Sign +1 per clue at his location (the Study: 2).
GATHERING = {"skull": 0, "cultist": -1, "tablet": -2, "elder_sign": 2}


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], *lines: str, options: tuple[str, ...] = (),
         seats: int = 1) -> tuple[int, dict[str, Any], str]:
    script = tmp_path / "t.script"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    extra = [x for o in options for x in ("--option", o)]
    code = cli.main(["play", "arkham", "--seats", str(seats), "--script", str(script), "--json", "--strict", *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else {}), err.strip()


def by_hand(tokens: list[str], skill: int, difficulty: int) -> Fraction:
    """Succeeds when skill + modifier >= difficulty; the autofail never does (one draw, none again)."""
    wins = sum(1 for t in tokens if t != "auto_fail" and skill + GATHERING.get(t, 0 if t in GATHERING
                                                                                 else int(t)) >= difficulty)
    return Fraction(wins, len(tokens))


def gentle() -> list[str]:
    doc = json.loads(CAMPAIGN.read_text(encoding="utf-8"))
    tokens: list[str] = doc["campaign"]["steps"][1]["input"]["choices"][0]["effects"][1]["tokens"]
    return tokens


@pytest.mark.rule("AH-CHAOS-5")
@pytest.mark.parametrize(("skill", "difficulty", "built_in"), [(3, 3, "3/8"), (3, 4, "1/8"), (3, 6, "0/1")])
def test_a_bag_from_an_arkhamcards_campaign_file_sets_the_exact_odds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], skill: int, difficulty: int, built_in: str) -> None:
    """The difficulty is the choice's ``campaign_data`` effect (the choice ids are the file's own):
    "Gentle" is standard. Its 10 tokens replace the core set's 16, and the odds are theirs."""
    line = f"test seat1 intellect {skill} {difficulty}"
    code, plain, _ = play(tmp_path, capsys, line)
    assert code == 0 and plain["odds"]["exact"] == built_in
    code, view, _ = play(tmp_path, capsys, line, options=(f"bag={CAMPAIGN}",))
    assert code == 0
    assert view["sources"]["chaos"]["contents"] == {"+1": 1, "0": 1, "-1": 1, "-2": 1, "skull": 2, "cultist": 1,
                                                    "tablet": 1, "autofail": 1, "elder_sign": 1}
    assert Fraction(view["odds"]["exact"]) == by_hand(gentle(), skill, difficulty)
    assert view["odds"]["exact"] != built_in or built_in == "0/1"


def test_the_hard_choice_of_the_file_is_the_hard_bag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, view, _ = play(tmp_path, capsys, "test seat1 intellect 3 3",
                         options=(f"bag={CAMPAIGN}", "difficulty=hard"))
    assert code == 0 and sum(view["sources"]["chaos"]["contents"].values()) == 11
    assert view["sources"]["chaos"]["contents"]["-4"] == 1


def test_a_campaign_scenario_draws_from_the_file_s_bag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table(tmp_path, capsys)
    table.ok("new", "night_of_the_zealot", "--seat", "1=roland")
    view = table.play(1, "next", "test seat1 intellect 3 4", options=(f"bag={CAMPAIGN}",))
    assert sum(view["sources"]["chaos"]["contents"].values()) == 10
    assert Fraction(view["odds"]["exact"]) == by_hand(gentle(), 3, 4) == Fraction(1, 5)


STEP = '{"steps": [{"id": "d", "type": "input", "input": {"type": "choose_one", "choices": [%s]}}]}'


@pytest.mark.parametrize(("body", "says"), [
    ('{"steps": [', r"bad\.json: not JSON"),
    ('{"steps": {}}', r"bad\.json: steps: Expected `array`, got `object`"),
    (STEP % '{"id": "standard", "effects": [{"type": "add_chaos_token", "tokens": ["+1", 2]}]}',
     r"bad\.json: steps\[0\]\.input\.choices\[0\]\.effects\[0\]\.tokens\[1\]: Expected `str`, got `int`"),
    (STEP % '{"id": "x", "effects": [{"type": "campaign_data", "setting": "difficulty", "value": "nightmare"}, '
            '{"type": "add_chaos_token", "tokens": ["0"]}]}',
     r"bad\.json: steps\[0\]\.input\.choices\[0\]: difficulty 'nightmare' is none of easy, standard, hard, expert"),
    (STEP % '{"id": "standard", "effects": [{"type": "add_chaos_token", "tokens": ["0", "frost"]}]}',
     r"bad\.json: steps\[0\]\.input\.choices\[0\]\.effects\[0\]\.tokens\[1\]: unknown chaos token 'frost'"),
    (STEP % '{"id": "standard", "tokens": []}', r"bad\.json: steps\[0\]\.input\.choices\[0\]\.tokens: the standard "
                                                r"bag is empty"),
    (STEP % '{"id": "hard", "tokens": ["0"]}', r"bad\.json: no chaos bag for standard \(difficulties: hard\)"),
    ('{"campaign": {"steps": [{"input": {"type": 3}}]}}',
     r"bad\.json: campaign\.steps\[0\]\.input\.type: Expected `str`, got `int`"),
    ('{"id": "story", "steps": [{"id": "intro", "type": "story"}]}', r"bad\.json: steps: no difficulty step"),
])
def test_a_malformed_bag_file_is_one_line_naming_file_and_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, says: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(body, encoding="utf-8")
    code, _, err = play(tmp_path, capsys, "test seat1 intellect 3 3", options=(f"bag={bad}",))
    assert code == 2 and len(err.splitlines()) == 1, err
    assert re.search(says, err), err


def test_an_upgraded_arkhamdb_deck_brings_the_experience_it_has_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An export with a ``previous_deck`` was upgraded on ArkhamDB: its level 2 Police Badge is paid
    for there, and the log keeps what is left (xp 5 - xp_spent 2 = 3) to buy with here. The side
    deck (a Shotgun) is not part of the deck."""
    table = Table(tmp_path, capsys)
    table.ok("new", "night_of_the_zealot", "--seat", "1=roland")
    upgraded = str(FIXTURES / "roland-upgraded-arkhamdb.json")
    assert "drop --xp" in table.refused("deck", "1", upgraded, "--xp", "5")
    assert table.ok("deck", "1", upgraded) == "seat 1's deck is kept; 3 experience left (as ArkhamDB left it)"
    kept = table.log()["investigators"]["roland"]  # type: ignore[index]
    titles = [card["title"] for card in kept["deck"]]
    assert titles.count("Police Badge") == 1 and titles.count("Knife") == 1 and "Shotgun" not in titles
    assert table.ok("buy", "1", "Extra Ammunition", "1", "--remove", "Knife") == \
        "seat 1 buys Extra Ammunition for 1 experience"
    view = table.play(1, "next")
    assert view["tracks"]["seat1.xp"] == 2 and view["tracks"]["seat1.deck"] == 28


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: d.pop("investigator_code"), r"bad\.json: \(top level\): Object missing required field "
                                           r"`investigator_code`"),
    (lambda d: d["slots"].update({"01016": "two"}), r"bad\.json: slots\.01016: 'two' is not a number of copies"),
    (lambda d: d["slots"].update({"09999": 1}), r"bad\.json: slots\.09999: card 09999 is not in the card data"),
    (lambda d: d.update(investigator_code="01002"), r"bad\.json: this is Daisy Walker's deck; the seat plays "
                                                    r"Roland Banks"),
    (lambda d: d.update(previous_deck=1, xp=1, xp_spent=4), r"bad\.json: xp_spent: 4 is more than the deck's xp"),
])
def test_a_malformed_arkhamdb_export_is_one_line_naming_file_and_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, says: str) -> None:
    table = Table(tmp_path, capsys)
    table.ok("new", "night_of_the_zealot", "--seat", "1=roland")
    doc = json.loads((FIXTURES / "roland-arkhamdb.json").read_text(encoding="utf-8"))
    change(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    err = table.refused("deck", "1", str(bad))
    assert re.search(says, err), err
