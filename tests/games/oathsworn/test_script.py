"""The acceptance scenario from scripts (headless and on the simulated station), the JSON interface,
panels, buttons, data errors and replay determinism."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.games.oathsworn.record import rec
from tablekeeper.ui.legibility import Viewing
from tablekeeper.ui.render import layout

from .helpers import encounter, new, ok, to_turns

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "docs" / "games" / "oathsworn.script"
SIM = ROOT / "docs" / "games" / "oathsworn.sim"


def play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["play", "oathsworn", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_story_and_three_rounds_from_the_script(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(capsys, "--script", str(SCRIPT), "--strict", "--json")
    assert code == 0, err
    view = json.loads(out)
    tracks = view["tracks"]
    assert tracks["time.used"] == 6  # six moves in the story part
    assert (view["round"], view["phase"]) == (4, "oathsworn")  # three full rounds played; refresh ran by itself
    assert [tracks[f"boss.{loc}"] for loc in ("front", "left", "right", "rear", "core")] == [0, 6, 6, 2, 1]
    assert (tracks["seat1.hp"], tracks["seat3.hp"], tracks["seat4.hp"]) == (1, 4, 3)  # the reaction hit seat 4
    for name in ("time.used", "iron", "knockouts", "seat1.hp", "seat1.hp_max", "seat1.animus",
                 "seat1.animus_reserve", "seat1.defense", "seat1.regen"):
        assert name in tracks
    for side in ("might", "enemy"):
        for colour in ("white", "yellow", "red", "black"):
            assert f"{side}.{colour}" in view["sources"]


@pytest.mark.skipif(importlib.util.find_spec("tablekeeper.station.script") is None,
                    reason="the simulated station is not installed")
def test_round_four_on_the_simulated_station(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "s.db"
    code, _, err = play(capsys, "--script", str(SCRIPT), "--strict", "--save", str(save))
    assert code == 0, err
    with Store.open(str(save)) as store:
        before = store.load("main")
    assert before is not None
    code = cli.main(["run", "--game", "oathsworn", "--save", str(save), "--script", str(SIM), "--display",
                     "capture", "--capture-dir", str(tmp_path / "frames")])
    capsys.readouterr()
    assert code == 0
    with Store.open(str(save)) as store:
        saved = store.load("main")
    assert saved is not None
    buttons = [e.command for e in saved.entries[len(before.entries):] if e.command is not None]
    assert all(c.origin == "button" for c in buttons)
    assert [c.verb for c in buttons] == ["next", "pass", "pass", "pass", "pass", "next"]
    code, out, _ = play(capsys, "--save", str(save), "--json")
    assert (json.loads(out)["round"], json.loads(out)["phase"]) == (5, "oathsworn")


def test_bad_data_file_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "mine.toml"
    bad.write_text('[might.white]\n"0" = "six"\n', encoding="utf-8")
    code, _, err = play(capsys, "--option", f"data={bad}")
    assert code == 2
    assert err.count("\n") == 1 and "mine.toml" in err and "might.white" in err and "Traceback" not in err


def test_unknown_option_is_rejected(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = play(capsys, "--option", "dificulty=grim")
    assert code == 2 and "dificulty" in err


def test_edited_composition_changes_the_decks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import resources
    text = resources.files("tablekeeper.games.oathsworn").joinpath("data").joinpath("oathsworn.toml").read_text()
    edited = tmp_path / "decks.toml"
    edited.write_text(text.replace('[might.white]\n"0" = 6', '[might.white]\n"0" = 2'), encoding="utf-8")
    code, out, _ = play(capsys, "--option", f"data={edited}", "--json")
    assert code == 0 and json.loads(out)["sources"]["might.white"]["remaining"] == 14


SEAT_VIEW = Viewing.of((128, 64), "1.54in", 50)  # the reference seat display (docs/hardware)


def test_panels_fit_the_displays_in_plain_words() -> None:
    """Titles fit the title bar; the seat displays show HP large and the rest in words on one page
    (held tokens on a second); no short forms such as "an 0/6", "rd0 em0 df0", "Ch1", "last -"."""
    s = ok(to_turns(encounter()), "plan 1 head white=3")
    panels = s.game.panels(s.state)
    assert set(panels) == {"track", "tokens", "seat1", "seat2", "seat3", "seat4"}
    for panel in panels.values():
        assert len(panel.title) <= 21
    for n in (1, 2, 3, 4):
        assert layout(panels[f"seat{n}"], SEAT_VIEW, banner="A: end turn B: pass").pages == 1
    assert panels["seat1"].big == "6" and panels["seat1"].title == ">Warden HP"
    assert panels["seat1"].lines == ("animus 3 of 6?", "defense 3?")  # "?": player board and items not checked
    assert panels["tokens"].title == "seat 1 attacks head"  # seat, target, then the white count
    assert panels["tokens"].lines[:2] == ("chance to hit", "3 white cards")
    assert panels["track"].lines[0] == "boss dice: head 6, body 6, claws 6"
    assert panels["track"].lines[2] == "Practice encounter?" and panels["track"].legend
    ok(s, "token 1 redraw 1", "token 1 defense 2")
    assert s.game.panels(s.state)["seat1"].lines[2:] == ("1 redraw", "2 defense")
    story = new()
    track = story.game.panels(story.state)["track"]
    assert track.big == "0" and track.title == "Chapter 1: story"
    assert track.lines[0] == "time used 0 of 16?" and track.lines[2:] == ("iron 12", "knockouts 0")  # M12
    assert story.game.panels(story.state)["tokens"].lines == ("nothing drawn yet",)
    words = " ".join(line for panel in [*panels.values(), track] for line in (panel.title, *panel.lines))
    for short in ("an 0/", "rd0", "em0", "df0", "last -", "Ch1", " ko "):
        assert short not in words


def test_seat_buttons_end_a_turn_or_pass() -> None:
    s = to_turns(encounter())
    game = s.game
    assert game.button(s.state, "seat1.a", False).verb == "next"  # type: ignore[union-attr]
    passed = game.button(s.state, "seat1.b", False)
    assert passed is not None and (passed.verb, passed.args) == ("pass", ("1",))
    assert game.button(s.state, "seat2.a", False) is None
    ok(s, "attack 1 head white=1")
    assert game.button(s.state, "seat3.a", False).verb == "resolve"  # type: ignore[union-attr]


def test_adjustable_current_seat_first() -> None:
    s = ok(to_turns(encounter()), "next")
    assert s.game.adjustable(s.state)[:2] == ["seat2.hp", "seat2.animus"]
    assert new().game.adjustable(new().state)[0] == "time.used"


def test_log_replays_to_the_same_state(capsys: pytest.CaptureFixture[str]) -> None:
    s = new(seed=3, encounter="")  # the chapter's own encounter, as the script plays it
    from tablekeeper.core.script import parse_lines
    for line in parse_lines(SCRIPT.read_text(encoding="utf-8").splitlines()):
        s.perform(line.command)
    again = Session(s.game, seats=4, seed=3, entries=s.entries)
    assert again.state == s.state
    assert s.replay() == s.state
    for _ in range(5):
        assert s.undo().accepted
    assert s.replay() == s.state


DOC = ROOT / "docs" / "games" / "oathsworn.md"
CATALOGUE = ROOT.parent / "shared" / "rules" / "oathsworn.md"


def test_every_verb_is_documented() -> None:
    import re
    text = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z]+)[ `]", text))
    missing = sorted(set(new().game.verbs()) - documented)
    assert not missing


@pytest.mark.skipif(not CATALOGUE.exists(), reason="the rule catalogue is not beside the repository")
def test_every_test_line_is_tagged_or_listed_as_undecidable() -> None:
    import re
    ids: list[str] = []
    current = None
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\*\*(OS-[A-Z]+-\d+)\*\*", line)
        if m:
            current = m.group(1)
        if line.startswith("Test") and current and current not in ids:
            ids.append(current)
    tagged: set[str] = set()
    through_verbs: set[str] = set()  # rule-function tests (test_rules.py) do not count as covered
    for path in Path(__file__).parent.glob("test_*.py"):
        found = set(re.findall(r'mark\.rule\("([^"]+)"\)', path.read_text(encoding="utf-8")))
        tagged |= found
        if path.name != "test_rules.py":
            through_verbs |= found
    covered = sum(1 for i in ids if i in through_verbs)
    assert f"`Test:` line, {covered} are covered that way" in " ".join(DOC.read_text(encoding="utf-8").split())
    table = DOC.read_text(encoding="utf-8").split("Not decidable by this tracker", 1)[1]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| OS-")]
    listed = {i for row in rows for i in re.findall(r"OS-[A-Z]+-\d+", row)}
    assert [i for i in ids if i not in tagged and i not in listed] == []
    assert not (listed & tagged)


def test_open_draw_panel_shows_the_running_result() -> None:
    s = ok(new(), "check company 4 4 = W2 W1 W0 W1")
    panel = s.game.panels(s.state)["tokens"]
    assert panel.title == "check 4 company"
    assert panel.lines[-1] == "total 4, blanks 1: pass" and panel.big == "4"
    s = ok(to_turns(encounter()), "attack 1 head white=2 = Y3 W0 W0")
    assert s.game.panels(s.state)["tokens"].lines[-1] == "total 3, blanks 2: miss"
    s = ok(to_turns(encounter()), "attack 1 head white=3 = Y3* W0 W1 W2 Y1")
    assert s.game.panels(s.state)["tokens"].lines[-1] == "total 7, blanks 1: hit 7, -2 HP"


ACCEPTANCE = ROOT / "docs" / "games" / "oathsworn.acceptance.sim"


def test_story_and_three_encounter_rounds_on_the_simulated_station(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's table session: story part, four seats for three rounds with a saved session, a
    location broken by an attack, a defense token spent after a device draw from the seat's button,
    a companion's token attack, and the tally; the save replays to the station's final state."""
    from tablekeeper.core.session import Session
    from tablekeeper.games.oathsworn import GAME

    save = tmp_path / "s.db"
    code = cli.main(["run", "--sim", "--walk", "--game", "oathsworn", "--option", "companions=4", "--save", str(save),
                     "--script", str(ACCEPTANCE), "--display", "capture", "--capture-dir", str(tmp_path / "f"),
                     "--no-counters"])
    capsys.readouterr()
    assert code == 0
    with Store.open(str(save)) as store:
        saved = store.load("main")
    assert saved is not None
    s = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                entries=saved.entries)
    commands = [(e.command, e.events) for e in s.line if e.command is not None]
    texts = [c.text() for c, _ in commands]
    assert s.state.round == 3 and rec(s.state).result == "victory" and rec(s.state).tally
    assert s.state.over == "victory" and rec(s.state).losses_due is None  # every loss ticked off
    broke = next(c for c, events in commands if any(e.kind == "track.set" and e["name"] == "boss.front"
                                                    and e["value"] == 0 for e in events))
    assert broke.verb == "resolve"  # the head broke from an attack's damage
    asked = texts.index("enemy 1 R Y")
    assert commands[asked][1][-1].kind == "prompt.open" and commands[asked][1][-1]["id"] == "defense"
    answer, events = commands[asked + 1]
    assert (answer.text(), answer.origin) == ("choose 2", "button")
    assert not any(e.kind == "track.set" and e["name"] == "seat1.hp" for e in commands[asked][1])
    defense = 3 + 1  # the Warden's DEFENSE and the token spent: the HP lost is worked out only now
    assert any(e.kind == "notice" and str(e["text"]).startswith(f"seat 1: DEFENSE {defense} -> ") for e in events)
    token = texts.index("companion 4 animus attack")
    assert [t.split(" = ")[0] for t in texts[token + 1:token + 5]] == [
        "attack 4 rear white=1", "resolve", "attack 4 rear white=1", "resolve"]
    assert rec(s.state).seat(4).tokens["animus"] == 0
