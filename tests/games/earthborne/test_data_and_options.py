"""Editable data files and the open rule choices: bad files give one line naming file and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.errors import ConfigError
from tablekeeper.games.earthborne.data import load, parse_threshold
from tests.games.earthborne.helpers import do, in_play, session, tracks, view


def test_package_data_loads_and_is_marked_verify() -> None:
    data = load({})
    assert len(data.challenge) == 24
    assert {c.icon for c in data.challenge} == {"sun", "mountain", "crest"}
    assert data.campaign.weather[1] and data.campaign.days == 30
    assert data.path_card("doe") is not None
    assert data.unverified == ("earthborne/data/challenge.toml", "earthborne/data/campaign.toml")


def test_edited_copy_without_verify_mark_is_trusted(tmp_path: Path) -> None:
    path = tmp_path / "challenge.toml"
    path.write_text('cards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0, foc = 0 }]\n')
    s = session(options={"challenge": str(path)})
    assert view(s)["unverified_data"] == ["earthborne/data/campaign.toml"]
    assert view(s)["sources"]["challenge"]["remaining"] == 1


@pytest.mark.parametrize(("text", "value", "per_ranger"), [("3", 3, False), ("2r", 2, True), ("-", None, False)])
def test_thresholds_parse(text: str, value: int | None, per_ranger: bool) -> None:
    t = parse_threshold(text, "here")
    assert (t.value, t.per_ranger) == (value, per_ranger)


def test_bad_threshold_names_the_place() -> None:
    with pytest.raises(ConfigError, match="here: threshold"):
        parse_threshold("x", "here")


@pytest.mark.parametrize(("name", "body", "message"), [
    ("challenge", 'cards = [{ id = "a", icon = "sun", awa = 0, fit = 0, spi = 0 }]', r"cards\[0\]\.foc"),
    ("challenge", 'cards = [{ id = "a", icon = "moon", awa = 0, fit = 0, spi = 0, foc = 0 }]', "icon"),
    ("challenge", "cards = [", "not valid TOML"),
    ("path", 'cards = [{ name = "X", progress = "two" }]', r"cards\[0\]\.progress"),
    ("rules", 'recheck = "sometimes"', "recheck"),
    ("campaign", 'weather = [{ from = 1, to = 2 }]', r"weather\[0\]\.card"),
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
