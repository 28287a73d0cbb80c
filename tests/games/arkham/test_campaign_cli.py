"""The campaign log between scenarios through ``tablekeeper campaign`` (the command a group uses), and
``tablekeeper play --campaign`` for the scenarios: players join, leave, return and replace the killed,
decks are built from a deck file, cards are bought and swapped; a refusal is one line, exit 2, and
the log is unchanged (AH-DB, AH-COPY, AH-EXCEPT, AH-ASSET-4, AH-XP-4..9, AH-JOIN-3, AH-KILLED-1/2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablekeeper import cli
from tablekeeper.core.store import Store

SIGNATURE = ('[[cards]]\ntitle = "Roland\'s .38 Special"\nlevel = -1\nkind = "signature"\n'
             '[[cards]]\ntitle = "Cover Up"\nkind = "signature_weakness"\n'
             '[[cards]]\ntitle = "Amnesia"\nkind = "weakness"\n')


def deck(tmp_path: Path, name: str, body: str, *, pairs: int = 15) -> str:
    """A deck file: ``pairs`` level-0 guardian titles, two copies each, then ``body``."""
    cards = "".join(f'[[cards]]\ntitle = "Card {i}"\ncopies = 2\nclass = "guardian"\n' for i in range(pairs))
    path = tmp_path / name
    path.write_text(cards + SIGNATURE.replace("level = -1\n", "") + body, encoding="utf-8")
    return str(path)


class Table:
    """One save file with one campaign, driven as a group would from the shell."""

    def __init__(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.save = str(tmp_path / "zealot.db")
        self.capsys = capsys
        self.tmp_path = tmp_path

    def campaign(self, *words: str) -> tuple[int, str, str]:
        code = cli.main(["campaign", self.save, "zealot", *words])
        out, err = self.capsys.readouterr()
        return code, out.strip(), err.strip()

    def ok(self, *words: str) -> str:
        code, out, err = self.campaign(*words)
        assert code == 0, err
        return out

    def refused(self, *words: str) -> str:
        """A refusal: exit 2, one line on stderr, the stored log unchanged."""
        before = self.log()
        code, out, err = self.campaign(*words)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (code, out, err)
        assert self.log() == before
        return err

    def play(self, seats: int, *lines: str, slot: str = "s1", options: tuple[str, ...] = (),
             code: int = 0) -> dict[str, Any]:
        """``play --campaign`` one script; the session's view (``--json``) when it ran."""
        script = self.tmp_path / f"{slot}.script"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        extra = [x for o in options for x in ("--option", o)]
        got = cli.main(["play", "arkham", "--seats", str(seats), "--save", self.save, "--slot", slot,
                        "--campaign", "zealot", "--strict", "--json", "--script", str(script), *extra])
        out, err = self.capsys.readouterr()
        assert got == code, err
        view: dict[str, Any] = json.loads(out) if out else {"error": err.strip()}
        return view

    def log(self) -> dict[str, object] | None:
        with Store.open(self.save) as store:
            return store.campaign("zealot")


@pytest.fixture
def table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Table:
    t = Table(tmp_path, capsys)
    t.ok("new", "night_of_the_zealot", "--seat", "1=roland", "--seat", "2=daisy")
    return t


def test_new_and_show_read_as_plain_lines(table: Table) -> None:
    shown = table.ok("show")
    assert shown.splitlines() == ["zealot: night_of_the_zealot (standard), between; next scenario: the_gathering",
                                  "seat 1: roland, 0 experience, trauma 0 physical 0 mental",
                                  "seat 2: daisy, 0 experience, trauma 0 physical 0 mental"]
    assert "already kept" in table.refused("new", "night_of_the_zealot")
    with pytest.raises(SystemExit) as stop:  # argparse: its usage line and the reason
        table.campaign("nonsense")
    assert stop.value.code == 2 and "invalid choice: 'nonsense'" in table.capsys.readouterr().err


@pytest.mark.rule("AH-JOIN-3")
def test_players_join_leave_and_return_between_scenarios(table: Table) -> None:
    table.ok("leave", "2")
    assert "daisy has already been used" in table.refused("join", "3", "daisy")  # a newcomer starts fresh
    table.ok("join", "3", "skids")
    table.ok("rejoin", "2", "daisy")  # AH-JOIN-2: the leaver's record was kept
    table.play(3, "resolution R1")
    shown = table.ok("show")
    assert "next scenario: midnight_masks" in shown and "seat 3: skids" in shown
    assert "seat 4" in table.refused("leave", "4")


@pytest.mark.rule("AH-DB-2")
@pytest.mark.rule("AH-DB-5")
def test_a_deck_is_built_from_a_deck_file(table: Table, tmp_path: Path) -> None:
    short = deck(tmp_path, "short.toml", "", pairs=14)
    assert "28 cards count toward deck size, not 30" in table.refused("deck", "1", short)
    upgraded = deck(tmp_path, "up.toml", '[[cards]]\ntitle = "Upgrade"\nlevel = 2\nclass = "guardian"\n', pairs=14)
    assert "29 cards count" in table.refused("deck", "1", upgraded)
    legal = deck(tmp_path, "legal.toml", "[[cards]]\ntitle = 'Upgrade'\nlevel = 2\nclass = 'guardian'\n"
                 "[[cards]]\ntitle = 'Extra'\nclass = 'guardian'\n", pairs=14)
    assert "cost 2 experience, only 0 to start with" in table.refused("deck", "1", legal)
    assert table.ok("deck", "1", legal, "--xp", "3") == "seat 1's deck is kept; 1 experience left"
    assert "deck of 33 cards" in table.ok("show")


@pytest.mark.rule("AH-DB-3")
@pytest.mark.rule("AH-COPY-1")
@pytest.mark.rule("AH-EXCEPT-2")
@pytest.mark.rule("AH-ASSET-4")
def test_a_deck_file_breaking_the_copy_rules_is_refused(table: Table, tmp_path: Path) -> None:
    three = deck(tmp_path, "three.toml", "[[cards]]\ntitle = 'Card 0'\nlevel = 1\nclass = 'guardian'\n", pairs=15)
    assert "Card 0: at most 2 copies by title (3)" in table.refused("deck", "1", three, "--xp", "5")
    rare = deck(tmp_path, "rare.toml", "[[cards]]\ntitle = 'Rare'\ncopies = 2\nexceptional = true\n", pairs=14)
    assert "Rare: exceptional, at most 1 copy (2)" in table.refused("deck", "1", rare)
    story = deck(tmp_path, "story.toml", "[[cards]]\ntitle = 'Lita Chantler'\nkind = 'story'\nlevel = 0\n")
    assert "needs a scenario's permission" in table.refused("deck", "1", story)
    table.ok("deck", "1", story, "--story", "Lita Chantler")
    typo = deck(tmp_path, "typo.toml", "[[cards]]\ntitle = 'X'\nlevle = 1\n")
    assert "typo.toml" in table.refused("deck", "1", typo) and "level" in table.refused("deck", "1", typo)


@pytest.mark.rule("AH-XP-4")
@pytest.mark.rule("AH-XP-5")
@pytest.mark.rule("AH-XP-6")
@pytest.mark.rule("AH-XP-7")
def test_purchases_between_scenarios(table: Table, tmp_path: Path) -> None:
    beat_cop = "[[cards]]\ntitle = 'Beat Cop'\ncopies = 2\nclass = 'guardian'\n"
    table.ok("deck", "1", deck(tmp_path, "d.toml", beat_cop, pairs=14), "--xp", "5")
    assert "mystic cards are outside" in table.refused("buy", "1", "Book of Shadows", "3", "--remove", "Card 0")
    assert "name a card to take out" in table.refused("buy", "1", "Extra Ammunition", "1")
    assert "Amnesia is a weakness card" in table.refused("buy", "1", "Extra Ammunition", "1", "--remove", "Amnesia")
    assert table.ok("buy", "1", "Extra Ammunition", "1", "--class", "guardian", "--remove", "Card 0") \
        == "seat 1 buys Extra Ammunition for 1 experience"
    assert table.ok("buy", "1", "Beat Cop", "2", "--upgrade", "0") \
        == "seat 1 buys Beat Cop for 2 experience"  # an upgrade pays the difference
    assert "seat 1: roland, 2 experience" in table.ok("show")
    assert "roland has 2 experience; Bulletproof Vest costs 3" in table.refused("buy", "1", "Bulletproof Vest", "3",
                                                                                "--remove", "Card 1")


@pytest.mark.rule("AH-XP-9")
def test_a_deck_changes_freely_only_when_the_guide_says_so(table: Table, tmp_path: Path) -> None:
    table.ok("deck", "1", deck(tmp_path, "d.toml", ""))
    assert "only by purchase" in table.refused("swap", "1", "Card 0", "Other", "--class", "guardian")
    assert table.ok("swap", "1", "Card 0", "Other", "--class", "guardian", "--guide") == "seat 1: Card 0 out, Other in"
    table.play(2, "resolution R1")
    assert "only by purchases" in table.refused("deck", "1", deck(tmp_path, "d2.toml", ""))


@pytest.mark.rule("AH-KILLED-1")
@pytest.mark.rule("AH-KILLED-2")
def test_a_killed_investigator_is_replaced_and_an_empty_pool_loses(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    t = Table(tmp_path, capsys)
    t.ok("new", "night_of_the_zealot", "--seat", "1=roland", "--seat", "2=daisy", "--pool", "roland,daisy,agnes")
    t.play(2, "hit seat2 1", "resolution R1", options=("seat2.physical_trauma=4",))  # Daisy: health 5
    assert "killed" in t.ok("show")
    assert "neither killed nor insane" in t.refused("replace", "1", "agnes")
    assert "choose a new investigator (agnes)" in t.refused("replace", "2")
    assert t.ok("replace", "2", "agnes") == "seat 2 now plays agnes"
    t.play(2, "hit seat1 1", "resolution R1", slot="s2", options=("seat1.physical_trauma=8",))  # Roland: 9
    code, _, err = t.campaign("replace", "1")
    assert code == 2 and err == "tablekeeper: no investigator is left in the pool: the campaign is lost"
    assert "night_of_the_zealot (standard), lost" in t.ok("show")


def test_bad_input_is_one_line(table: Table, tmp_path: Path) -> None:
    assert table.refused("join", "9", "skids") == "tablekeeper: campaign: '9' is not a seat (1 to 4)"
    assert "usage: tablekeeper campaign FILE NAME join SEAT INVESTIGATOR" in table.refused("join", "3")
    assert "LEVEL must be a whole number" in table.refused("buy", "1", "Machete", "x")
    assert str(tmp_path / "missing.toml") in table.refused("deck", "1", str(tmp_path / "missing.toml"))
    other = Table(tmp_path, table.capsys)
    other.save = str(tmp_path / "none.db")
    code, _, err = other.campaign("show")
    assert code == 2 and err == f"tablekeeper: {other.save}: no such save file"
    assert not Path(other.save).exists()  # nothing created by a mistaken name
    twice = Table(tmp_path, table.capsys)
    twice.save = str(tmp_path / "twice.db")
    code, _, err = twice.campaign("new", "night_of_the_zealot", "--seat", "1=roland", "--seat", "1=daisy")
    assert code == 2 and err == "tablekeeper: campaign new: --seat 1 is given twice (roland, daisy)"


@pytest.mark.rule("AH-DB-2")
def test_the_next_scenario_starts_each_investigator_with_the_deck_the_log_keeps(table: Table,
                                                                               tmp_path: Path) -> None:
    """30 cards counting toward size + his own card + his own weakness + a basic weakness = 33 shuffled;
    5 go to the hand. A seat without a kept list keeps the generic 30 (25 after the hand)."""
    table.ok("deck", "1", deck(tmp_path, "d.toml", ""))
    first = table.play(2)
    assert first["tracks"]["seat1.deck"] == 28 and first["tracks"]["seat1.hand"] == 5
    assert first["tracks"]["seat2.deck"] == 25
    assert first["weaknesses"] == {"1": ["Cover Up", "Amnesia"], "2": []}
    table.play(2, "victory 2", "resolution R1")
    table.ok("buy", "1", "Physical Training", "0", "--permanent")  # starts in play, not in the deck
    second = table.play(2, slot="s2")
    assert second["scenario"] == "midnight_masks" and second["tracks"]["seat1.deck"] == 28
    assert second["weaknesses"]["1"] == ["Cover Up", "Amnesia"]
    explicit = table.play(2, slot="s3", options=("seat1.deck=40",), code=2)  # s2 is still being played
    assert "midnight_masks is being played in slot 's2'" in explicit["error"]


@pytest.mark.rule("AH-JOIN-1")
def test_nothing_changes_in_the_log_while_a_scenario_is_played(table: Table, tmp_path: Path) -> None:
    """``play --campaign`` marks the scenario begun; every change waits until its resolution is logged."""
    legal = deck(tmp_path, "d.toml", "")
    table.play(2, "next")  # the scenario is under way and not over
    assert "playing the_gathering in slot 's1'" in table.ok("show")
    for words in (("join", "3", "skids"), ("leave", "2"), ("rejoin", "2", "daisy"), ("replace", "2", "agnes"),
                  ("deck", "1", legal), ("deck", "1", str(tmp_path / "missing.toml")),
                  ("buy", "1", "Machete", "0", "--class", "guardian"),
                  ("swap", "1", "Card 0", "Other", "--guide")):
        err = table.refused(*words)
        assert "only between scenarios: the_gathering is being played (slot 's1')" in err, (words, err)
    refused = table.play(2, slot="s2", code=2)  # AH-CAMP-2: nor does another scenario begin
    assert refused["error"].endswith("the_gathering is being played in slot 's1': finish it "
                                     "(its resolution is logged) before starting another scenario")
    assert table.play(2, "resolution R1")["resolution"] == "R1"  # the same slot, resumed, ends it
    assert table.ok("join", "3", "skids") == "skids joins at seat 3"
    assert "next scenario: midnight_masks" in table.ok("show")


def test_a_deleted_slot_no_longer_holds_the_campaign(table: Table) -> None:
    table.play(2, "next")
    with Store.open(table.save) as store:
        store.delete("s1")
    assert table.ok("join", "3", "skids") == "skids joins at seat 3"
    assert "playing" not in table.ok("show")


def test_a_damaged_stored_log_is_one_line_naming_its_key(table: Table) -> None:
    """The log is checked against its stored shape when read back: the key is named, nothing changes."""
    body = table.log()
    assert isinstance(body, dict)
    body["investigators"]["roland"]["xp"] = "lots"  # type: ignore[index]
    with Store.open(table.save) as store:
        store.save_campaign("zealot", "arkham", body)
    err = table.refused("show")
    assert "campaign 'zealot'" in err and "investigators.roland.xp" in err, err
    body["investigators"]["roland"]["xp"] = 0  # type: ignore[index]
    body["stauts"] = "between"
    with Store.open(table.save) as store:
        store.save_campaign("zealot", "arkham", body)
    err = table.refused("join", "3", "agnes")
    assert "stauts" in err and "status" in err, err
    assert "stauts" in table.play(2, code=2)["error"]


@pytest.mark.rule("AH-DB-2")
def test_an_arkhamdb_deck_export_is_accepted_beside_the_toml_list(table: Table, tmp_path: Path) -> None:
    """A deck exported from ArkhamDB (its JSON; fixture written in that shape) is read through the
    core set's player-card data: 30 cards plus Roland's own card and weakness and a basic weakness."""
    export = str(Path(__file__).resolve().parent / "fixtures" / "roland-arkhamdb.json")
    assert "this is Roland Banks's deck; the seat plays Daisy Walker" in table.refused("deck", "2", export)
    said = table.ok("deck", "1", export).splitlines()
    assert said[0] == "seat 1's deck is kept; 0 experience left" and said[1].startswith(f"kept from {export}: 33 cards")
    assert len(said) == 2  # nothing ignored
    kept = table.log()["investigators"]["roland"]["deck"]  # type: ignore[index]
    titles = [card["title"] for card in kept]
    assert len(kept) == 33 and titles.count("Guard Dog") == 2
    assert {card["kind"] for card in kept if card["title"] in ("Roland's .38 Special", "Cover Up",
                                                                "Random Basic Weakness")} == \
        {"signature", "signature_weakness", "weakness"}
    view = table.play(2, "next")
    assert view["tracks"]["seat1.deck"] == 28  # 33 shuffled, 5 in the opening hand


def test_an_arkhamdb_export_naming_a_card_the_data_lacks_is_one_line(table: Table, tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent / "fixtures" / "roland-arkhamdb.json").read_text(encoding="utf-8")
    odd = tmp_path / "odd.json"
    odd.write_text(text.replace('"01086": 2', '"02186": 2'), encoding="utf-8")
    assert "(ignored from " + str(odd) + ": 2 × card 02186 (not in the card data" in \
        table.refused("deck", "1", str(odd))
    broken = tmp_path / "broken.json"
    broken.write_text('{"investigator_code": "01001"', encoding="utf-8")
    assert "broken.json: not JSON" in table.refused("deck", "1", str(broken))
