"""Malformed Oathsworn input gets one line naming the option or command: exit 2 for a bad option,
a refused line for a bad command, never a traceback, a hang or silent acceptance."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper import cli

from .helpers import encounter, new, no, ok


@pytest.mark.parametrize(("option", "named"), [
    ("chapter=100000000000000000000", "chapter=100000000000000000000"),
    ("chapter=0", "chapter=0"),
    ("hp=a,b,c,d", "hp=a,b,c,d"),
    ("hp=6,6,6", "hp=6,6,6"),
    ("hp=6,6,6,9", "hp=6,6,6,9"),
    ("companions=x", "companions=x"),
])
def test_a_bad_option_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             option: str, named: str) -> None:
    script = tmp_path / "empty.script"
    script.write_text("")
    code = cli.main(["play", "oathsworn", "--option", option, "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and named in err


def test_a_huge_time_count_is_a_refused_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``time 1000000000`` once built a list of a billion tokens (MemoryError)."""
    script = tmp_path / "time.script"
    script.write_text("time 1000000000\ntime 2\n")
    code = cli.main(["play", "oathsworn", "--script", str(script), "--json"])
    out, err = capsys.readouterr()
    assert code == 0
    assert err.strip().splitlines() == ["line 1: the time track has 16 empty slot(s), not 1000000000"]
    assert '"time.used": 2' in out


def test_an_edited_data_file_does_not_change_a_running_session(tmp_path: Path) -> None:
    """The data is found by the hash of its text: setting up a second session from an edited file
    leaves the first session's numbers alone (a cache by path used to hand it the new file)."""
    from tablekeeper.games.oathsworn.data import DEFAULT_NAME
    from tablekeeper.games.oathsworn.table import data_of

    from .helpers import encounter

    source = Path(__file__).resolve().parents[3] / "host" / "tablekeeper" / "games" / "oathsworn" / "data"
    text = (source / DEFAULT_NAME).read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    first = encounter(data=str(path))
    before = dict(data_of(first.state).encounter("practice").boss)
    path.write_text(text.replace('map_tokens = 30', 'map_tokens = 31'), encoding="utf-8")
    second = encounter(data=str(path))
    assert data_of(second.state).company["map_tokens"] == 31
    assert data_of(first.state).company["map_tokens"] == 30
    assert dict(data_of(first.state).encounter("practice").boss) == before


def test_a_save_resumed_after_its_data_file_was_edited_replays_its_kept_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The save keeps the data file's content (core/file_options.py): editing the file afterwards
    changes nothing for that save, which goes on with the numbers it started with."""
    from tablekeeper.games.oathsworn.data import DEFAULT_NAME

    source = Path(__file__).resolve().parents[3] / "host" / "tablekeeper" / "games" / "oathsworn" / "data"
    text = (source / DEFAULT_NAME).read_text(encoding="utf-8")
    data = tmp_path / "mine.toml"
    data.write_text(text, encoding="utf-8")
    save = tmp_path / "s.db"
    script = tmp_path / "one.script"
    script.write_text("next\n")
    argv = ["play", "oathsworn", "--option", "part=encounter", "--option", f"data={data}", "--save", str(save),
            "--script", str(script)]
    assert cli.main(argv) == 0
    data.write_text(text.replace('"0" = 6\n"1" = 6', '"0" = 2\n"1" = 10', 1), encoding="utf-8")
    capsys.readouterr()
    assert cli.main([*argv, "--strict"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("old", "new", "named"), [
    ("max_animus = 6", "max_anumis = 6", "class_defaults.max_anumis: unknown key (did you mean 'max_animus'?)"),
    ("map_tokens = 30", "map_token = 30", "company.map_token: unknown key (did you mean 'map_tokens'?)"),
    ('[class.Warden]\nitems = ', '[class.Warden]\nitem = ', "class.Warden.item: unknown key (did you mean 'items'?)"),
    ("stages = [5, 5, 5]", "stages = [5, 5, -1]", "encounter.practice.stages: three card counts"),
    ('"2*" = 3', '"2*" = "three"', 'might.white."2*": Expected int, got str'),  # the card face is named
])
def test_a_misspelt_or_bad_key_in_an_edited_data_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, named: str) -> None:
    """The data file is decoded against its schema: a misspelt key is named with the right one, not ignored."""
    from tablekeeper.games.oathsworn.data import DEFAULT_NAME

    source = Path(__file__).resolve().parents[3] / "host" / "tablekeeper" / "games" / "oathsworn" / "data"
    text = (source / DEFAULT_NAME).read_text(encoding="utf-8")
    assert old in text
    data = tmp_path / "mine.toml"
    data.write_text(text.replace(old, new, 1), encoding="utf-8")
    script = tmp_path / "empty.script"
    script.write_text("")
    code = cli.main(["play", "oathsworn", "--option", f"data={data}", "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "mine.toml" in err and named in err


@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_reported_card_the_pile_no_longer_holds_says_where_it_is_and_what_to_type(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """All six W0 were drawn: a seventh reported W0 is refused with where the six are and the
    ``refresh white`` that tells the device the table shuffled them back (OS-MIGHT-3/4, OS-MIGHT-6).
    With the check removed, the refusal names neither."""
    from tablekeeper.games.oathsworn import draws

    if protection == "protection-removed":
        monkeypatch.setattr(draws, "_still_in_pile", lambda txn, side, colour, card, on_table: None)
    s = ok(encounter(encounter=""), "next", "attack 1 front white=6 = Y2 W0 W0 W0 W0 W0 W0", "resolve", "choose 1")
    reason = no(s, "attack 1 front white=1 = Y1 W0")
    if protection == "protection-removed":
        assert "refresh white" not in reason
        return
    assert reason == ("the top of the might.white deck holds no 'W0' (it may show W1, W2, W2*); 6 in its discard "
                      "pile: check the card drawn; if the table shuffled that pile back, type refresh white first")
    ok(s, "refresh white", "attack 1 front white=1 = Y1 W0")


def test_travel_to_a_token_not_on_the_map_names_goto() -> None:
    s = new()
    assert no(s, "travel 5").endswith("'goto 5' places it and goes there (OS-NAV-4)")
    ok(s, "goto 5")


@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_line_refused_for_an_open_question_names_the_answers(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a missed attack the determination question is open: ``next`` (a core verb) and
    ``move`` (the game's own) are refused with the ``choose N`` line that answers it, the options
    numbered. With the hint removed the refusal only repeats the question."""
    from tablekeeper.core import flow

    if protection == "protection-removed":
        monkeypatch.setattr(flow, "answer_first", lambda state: f"answer the prompt first: {state.prompt.text}")
    s = ok(encounter(encounter=""), "next", "attack 1 front white=2 = Y1 W0 W0", "resolve")
    hint = "(choose N: 1 redraw, 2 empowered, 3 defense, 4 animus, 5 battleflow)"
    for line in ("next", "move 1 1"):
        reason = no(s, line)
        assert reason.startswith("answer the prompt first: Seat 1: which combat token?")
        assert (hint in reason) == (protection == "in place")
    ok(s, "choose 1")
