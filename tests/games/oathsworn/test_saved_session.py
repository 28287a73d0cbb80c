"""Oathsworn through ``tablekeeper play`` with a real save: what broke the appliance must not again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core import game as coregame
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store, checksum, export_lines
from tablekeeper.games.oathsworn import GAME, table


def play(capsys: pytest.CaptureFixture[str], script: Path, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["play", "oathsworn", "--walk", "--option", "encounter=practice", "--script", str(script),
                     *argv])  # written step by step; the practice encounter's head, body and claws
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("thawed", [True, False], ids=["thawed", "frozen-event-data"])
def test_breaking_a_location_with_a_save_open(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch, thawed: bool) -> None:
    """A broken location writes game data read from the state (typed records) back into an event; the
    store must take it."""
    if not thawed:  # the protection removed: events keep the state's typed values
        monkeypatch.setattr(coregame, "thaw", lambda value: value)
    script = tmp_path / "break.script"
    script.write_text("set boss.claws 0\nset boss.head 0\n")
    save = tmp_path / "s.db"
    if not thawed:
        with pytest.raises(TypeError, match="is not JSON serializable"):
            play(capsys, script, "--option", "part=encounter", "--save", str(save), "--strict")
        return
    code, _, err = play(capsys, script, "--option", "part=encounter", "--save", str(save), "--strict")
    assert code == 0, err
    resume = tmp_path / "resume.script"
    resume.write_text("next\n")
    code, out, err = play(capsys, resume, "--option", "part=encounter", "--save", str(save), "--strict", "--json")
    assert code == 0, err
    view = json.loads(out)
    assert (view["tracks"]["boss.head"], view["tracks"]["boss.claws"]) == (0, 0)
    assert view["phase"] == "oathsworn"
    with Store.open(str(save)) as store:
        saved = store.load("main")
    assert saved is not None
    resumed = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                      entries=saved.entries)
    assert resumed.game.view(resumed.state)["tracks"] == view["tracks"]


# --- empowering past black; no plan or attack ends a session (OS-TOK-5, OS-ATK-14) -----------------

@pytest.mark.rule("OS-TOK-5")
def test_an_empowered_token_on_a_one_cube_character_loses_its_extra_steps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One yellow cube (the Warden's) and an empowered token: yellow goes to black, one step of the
    three is lost, the token is spent and the attack happens."""
    script = tmp_path / "emp.script"
    script.write_text("next\ntoken 1 empowered\nattack 1 head emp=1\n")
    code, out, err = play(capsys, script, "--option", "part=encounter", "--option", "classes=Warden,Witch,Priest,Cur",
                          "--save", str(tmp_path / "s.db"), "--strict", "--json")
    assert code == 0, err
    view = json.loads(out)
    assert view["seats_detail"]["1"]["tokens"]["empowered"] == 0
    assert any("1 upgrade step(s) lost" in n for n in view["notices"])
    assert [card[0][0] for card in view["draws"][0]["cards"] if not card[1]] == ["B"]


@pytest.mark.parametrize("line", ["plan 1 head empower=3", "plan 1 head empower=30 white=2 redraws=2",
                                  "plan 1 head white=a", "plan 1 head white=-1", "plan 1 nowhere",
                                  "attack 1 head empower=9", "attack 1 head emp=-1"])
def test_no_plan_or_attack_ends_a_saved_session(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                line: str) -> None:
    """Accepted or refused with one line (a word that is not a number stops the script, exit 2), the
    save resumes with what came before."""
    script = tmp_path / "plan.script"
    script.write_text(f"next\n{line}\n")
    save = tmp_path / "s.db"
    code, _, err = play(capsys, script, "--option", "part=encounter", "--save", str(save), "--json")
    assert code == (2 if "=a" in line else 0), err
    assert "Traceback" not in err and len(err.splitlines()) <= 1
    resume = tmp_path / "resume.script"
    opened_draw = line == "attack 1 head empower=9"  # accepted: its draw is settled before the pass
    resume.write_text(("resolve\n" if opened_draw else "") + "pass 1\n")
    code, out, err = play(capsys, resume, "--option", "part=encounter", "--save", str(save), "--json", "--strict")
    assert code == 0, err
    assert json.loads(out)["active_seat"] == 2


def test_a_saved_plan_that_no_longer_fits_does_not_kill_a_resume(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A plan kept in an older log that no longer fits the table (a location this encounter lacks)
    shows no odds instead of stopping the station; a plan of the wrong shape (a word for a number) is
    refused with one line naming the save, not kept."""
    save = tmp_path / "s.db"
    script = tmp_path / "plan.script"
    script.write_text("next\nplan 1 head white=2\n")
    assert play(capsys, script, "--option", "part=encounter", "--save", str(save))[0] == 0
    resume = tmp_path / "resume.script"
    resume.write_text("pass 1\n")

    def replay_with(plan: dict[str, object]) -> tuple[int, str, str]:
        with Store.open(str(save)) as store:
            saved = store.load("main")
            assert saved is not None
            last_entry = saved.entries[-1]
            body = last_entry.to_json()
            body["events"] = [{"kind": "data.set", "key": "plan", "value": plan}]
            text = json.dumps(body)
            store._db.execute("UPDATE entries SET body = ?, crc = ? WHERE slot = 'main' AND idx = ?",
                              (text, checksum(text), last_entry.index))
        save.with_name(save.name + ".tally").unlink(missing_ok=True)  # no tally to compare with
        return play(capsys, resume, "--option", "part=encounter", "--save", str(save), "--json", "--strict")

    code, out, err = replay_with({"seat": 1, "target": "tail", "white": 2, "empower": 99})
    assert code == 0, err
    assert json.loads(out)["odds"] is None
    code, out, err = replay_with({"seat": 1, "target": "head", "white": "x"})
    assert code == 2 and "cannot be replayed" in err and "$.white" in err and len(err.strip().splitlines()) == 1


# --- the typed seat record and saves made before it --------------------------------------------

OLD_SEAT_KEYS = {"class", "kind", "items", "tokens", "positions", "hand", "down", "dead", "ally", "ko", "max_animus",
                 "level", "permanent", "injuries", "cubes", "crippled_until", "caged_until", "bleed", "thrown",
                 "moved", "ability", "acted", "injuries_due", "last_round", "used_items"}


def _as_old_save(entry_json: dict[str, object]) -> dict[str, object]:
    """An entry as a save written before the typed record holds it: seat objects with only the
    declared keys, plus whatever a verb added on the way (here: none of the later defaults)."""
    for event in entry_json["events"]:  # type: ignore[attr-defined]
        if event["kind"] == "data.set" and str(event["key"]).startswith("seat."):
            event["value"] = {k: v for k, v in event["value"].items() if k in OLD_SEAT_KEYS}
    return entry_json


def test_a_save_with_old_seat_objects_replays_to_the_same_play(tmp_path: Path) -> None:
    """Saves keep each seat as a JSON object; one without the later keys reads with their
    defaults, through a real store, and play goes on from it as from a fresh log."""
    lines = ["next", "next", "status 1 crippled", "move 1 1", "pass 1", "throw 2 Bone Knife", "pickup 2 Bone Knife"]
    s = Session(GAME, seats=4, seed=3, options={"part": "encounter", "encounter": "practice"})
    for line in lines:
        parsed = parse_line(line)
        assert parsed is not None
        s.perform(parsed.command)
    path = tmp_path / "old.db"
    with Store.open(str(path)) as store:
        exported = list(export_lines(s.setup, tuple(s.entries)))
        old = [exported[0], *(json.dumps(_as_old_save(json.loads(x))) for x in exported[1:])]
        assert any('"seat.1"' in x and '"token_attack"' not in x for x in old[1:])
        saved = store.import_lines("main", old)
    resumed = Session(GAME, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                      entries=saved.entries)
    for n in (1, 2, 3, 4):
        assert table.seat(resumed.state, n) == table.seat(s.state, n)
    assert resumed.game.view(resumed.state)["tracks"] == s.game.view(s.state)["tracks"]
    parsed = parse_line("attack 2 claws")
    assert parsed is not None and resumed.perform(parsed.command).accepted  # play goes on from the old save
    json.dumps([e.to_json() for e in resumed.entries])  # still plain JSON
