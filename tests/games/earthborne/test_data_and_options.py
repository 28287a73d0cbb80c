"""Editable data files and the open rule choices: bad files give one line naming file and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core import file_options
from tablekeeper.errors import ConfigError
from tablekeeper.games.earthborne import GAME
from tablekeeper.games.earthborne.data import load, parse_threshold
from tests.games.earthborne.helpers import do, in_play, session, to_turns, tracks, view


def test_package_data_is_the_core_box() -> None:
    data = load({})
    assert len(data.challenge) == 24 and data.challenge_deck.verified
    assert {c.icon for c in data.challenge} == {"sun", "mountain", "crest"}
    assert data.campaign.weather[1] == "A Perfect Day" and data.campaign.days == 30
    assert data.path_card("sitka doe") is not None and data.path_card("doe") is None
    assert len(data.valley.locations) == 37 and data.unverified == ()


def test_an_edited_copy_is_unverified_until_it_says_so(tmp_path: Path) -> None:
    path = tmp_path / "challenge.toml"
    path.write_text('cards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0 }]\n')
    s = session(options={"challenge": str(path)})
    assert view(s)["unverified_data"] == [str(path)]
    assert view(s)["sources"]["challenge"]["remaining"] == 1
    path.write_text('verified = true\ncards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0 }]\n')
    assert view(session(options={"challenge": str(path)}))["unverified_data"] == []


@pytest.mark.parametrize(("text", "value", "per_ranger", "shown"),
                         [("3", 3, False, "3"), ("2r", 2, True, "2r"), ("-", None, False, "-"),
                          ("X", None, False, "X")])
def test_thresholds_parse(text: str, value: int | None, per_ranger: bool, shown: str) -> None:
    t = parse_threshold(text, "here")
    assert (t.value, t.per_ranger, t.text()) == (value, per_ranger, shown)


def test_bad_threshold_names_the_place() -> None:
    with pytest.raises(ConfigError, match="here: threshold"):
        parse_threshold("two", "here")


@pytest.mark.parametrize(("name", "body", "message"), [
    ("challenge", 'cards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0 }]',
     r"cards\[0\]: missing required key foc"),
    ("challenge", 'cards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0, reshufle = true }]',
     r"cards\[0\]\.reshufle: unknown key \(did you mean 'reshuffle'\?\)"),
    ("path", 'cards = [{ name = "X", presence = -1 }]', r"cards\[0\]\.presence"),
    ("challenge", 'cards = [{ id = "a", icon = "moon", awa = 0, fit = 0, spi = 0, foc = 0 }]', "icon"),
    ("challenge", "cards = [", "not valid TOML"),
    ("path", 'cards = [{ name = "X", progress = "two" }]', r"cards\[0\]\.progress"),
    ("rules", 'recheck = "sometimes"', "recheck"),
    ("campaign", 'weather = [{ from = 1, to = 2 }]', r"weather\[0\]: missing required key card"),
])
def test_bad_data_file_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          name: str, body: str, message: str) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(body)
    code = cli.main(["play", "earthborne", "--option", f"{name}={path}"])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and str(path) in err
    assert re.search(message, err)


@pytest.mark.parametrize("key", ["rules", "challenge", "campaign", "path"])
@pytest.mark.parametrize(("target", "message"), [("/bin/ls", "not UTF-8"), ("/dev/zero", "not a regular file"),
                                                 ("/", "is a directory"), ("/nonexistent.toml", "no such")])
def test_option_file_that_is_not_a_data_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], key: str,
                                                                 target: str, message: str) -> None:
    """Issue 13: a binary, a device, a directory or a missing file named as data: one line, exit 2."""
    code = cli.main(["play", "earthborne", "--option", f"{key}={target}"])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and target in err and message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("protected", [True, False])
def test_binary_option_file_needs_the_schema_reader(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], protected: bool) -> None:
    """The switch: with the bounded reader patched out for a plain read, /bin/ls is a traceback again."""
    if not protected:
        def plain(path: str, **_: object) -> str:
            return Path(path).read_text(encoding="utf-8")
        monkeypatch.setattr(file_options, "read_text", plain)
        with pytest.raises(UnicodeDecodeError):
            cli.main(["play", "earthborne", "--option", "rules=/bin/ls"])
        return
    assert cli.main(["play", "earthborne", "--option", "rules=/bin/ls"]) == 2
    assert "/bin/ls: not UTF-8" in capsys.readouterr().err


def test_odds_name_the_challenge_deck_file(tmp_path: Path) -> None:
    """The odds say which deck data they come from; a deck not checked says so in every figure."""
    s = to_turns(session())
    do(s, "odds fit 1 1")
    assert s.notices[-1].endswith("(deck: earthborne/data/challenge.toml)") and "unverified" not in s.notices[-1]
    do(s, "test 1 fit 1")
    assert view(s)["test"]["deck_file"] == "earthborne/data/challenge.toml"
    path = tmp_path / "mine.toml"
    path.write_text('cards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0 }]\n')
    mine = to_turns(session(options={"challenge": str(path)}))
    do(mine, "odds fit 1 1")
    assert mine.notices[-1] == ("FIT effort 1 vs 1: 1/1 (100.0%) (odds from an unverified deck) "
                                f"(deck: {path} (unverified))")
    do(mine, "test 1 fit 1")
    assert view(mine)["test"]["odds"].endswith("(odds from an unverified deck)")


def test_unknown_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "earthborne", "--option", "weather=sunny"]) == 2
    assert "unknown earthborne option" in capsys.readouterr().err


def test_location_option_places_the_location() -> None:
    s = session(options={"location": "Lone Tree:2r"}, seats=3)
    assert tracks(s)["location.threshold"] == 6 and view(s)["location"]["name"] == "Lone Tree"


def _rules_file(tmp_path: Path, text: str) -> dict[str, str]:
    path = tmp_path / "rules.toml"
    path.write_text(text)
    return {"rules": str(path)}


def test_nested_clear_literal_runs_inside_the_first_clear() -> None:
    """Ambiguity 3, default: a card pushed over its threshold in A's 'when' step clears before A's re-check."""
    s = session("card A progress=1 clear=push", "card B progress=1", "progress card1 1")
    do(s, "progress card2 1", "resolve")
    log = view(s)["log"]
    assert log.index("discard-check(card2)") < log.index("discard-check(card1)")


def test_nested_clear_queue_waits_for_the_first_clear(tmp_path: Path) -> None:
    s = session("card A progress=1 clear=push", "card B progress=1", "progress card1 1",
                options=_rules_file(tmp_path, 'nested_clears = "queue"\n'))
    do(s, "progress card2 1", "resolve")
    log = view(s)["log"]
    assert log.index("discard-check(card1)") < log.index("discard-check(card2)")
    assert in_play(s) == {}


def test_recheck_any_or_chosen_kind(tmp_path: Path) -> None:
    """Ambiguity 4: losing the chosen kind's tokens keeps the card only under 'chosen'."""
    lines = ("card Being progress=2 harm=2 clear=heal", "step s", "progress card1 2", "harm card1 2", "resolve",
             "choose 2", "harm card1 -2", "resolve")
    assert "card1" not in in_play(session(*lines))
    kept = session(*lines, options=_rules_file(tmp_path, 'recheck = "chosen"\n'))
    assert "card1" in in_play(kept) and tracks(kept)["card1.progress"] == 2
    assert view(kept)["clears"][0]["discarded"] is False
    # ambiguity 7: still at its progress threshold, it is due again at once, now by progress
    assert view(kept)["awaiting"].startswith("Being: Clear: heal")
    assert any("clears by progress" in n for n in kept.notices)


def test_the_content_listing_names_the_real_deck_and_what_was_not_checked(tmp_path: Path) -> None:
    content = view(session())["content"]
    assert content["challenge_decks"] == [{"name": "Core set challenge deck", "pack": "core", "verified": True}]
    assert content["day_tracks"][0]["verified"] is True
    sets = {s["name"]: s["verified"] for s in content["path_sets"]}
    assert len(sets) == 19 and sets["Woods"] and sets["Lone Tree Station"]
    assert not sets["Grassland"] and not sets["The Valley"]  # one source only, or not every card checked
    assert len(content["locations"]) == 37 and content["valley_maps"][0]["verified"] is False  # one path marked
    path = tmp_path / "deck.toml"
    path.write_text('name = "House deck"\ncards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0 }]\n')
    mine = view(session(options={"challenge": str(path)}))["content"]["challenge_decks"]
    assert mine == [{"name": "House deck", "pack": str(path), "verified": False}]


def test_a_card_with_unchecked_numbers_says_so_on_the_tokens_display() -> None:
    s = session("reveal path Hydraworm")
    assert GAME.panels(s.state)["tokens"].lines[0] == \
        "1. Hydraworm, near seat 1: progress 0/9, harm 0/5 (unverified numbers)"
    do(s, "reveal path \"Sitka Buck\"")
    assert GAME.panels(s.state)["tokens"].lines[1] == "2. Sitka Buck, near seat 2: progress 0/5, harm 0/3"


def test_a_groups_own_cards_join_by_name_and_their_set_shuffles_in_by_name(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text('cards = [{ name = "Glow Moth", set = "night_trail", copies = 2, type = "being", arrow = "down",'
                    ' progress = "3", harm = "1", presence = 1 }]\n')
    s = session(options={"cards": str(path), "pathdeck": "0"})
    do(s, "pathdeck night_trail lone_tree_station")
    assert view(s)["sources"]["path"]["remaining"] == 7
    do(s, "reveal path \"glow moth\"")
    assert in_play(s)["card1"]["name"] == "Glow Moth" and tracks(s)["card1.progress_threshold"] == 3
    assert {"name": "Night Trail", "pack": str(path), "verified": False, "key": "night_trail"} in \
        view(s)["content"]["path_sets"]
