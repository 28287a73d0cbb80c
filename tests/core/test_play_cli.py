"""``tablekeeper play``: the scripting contract, through the real command line."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.store import Store
from tests.core.fixture_game import GAME

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("fixture_registered")


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str,
         *args: str) -> tuple[int, str, str]:
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "fixture", "--script", "-", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_next_then_undo_prints_the_initial_state(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _, initial, _ = play(capsys, monkeypatch, "", "--seed", "1", "--json")
    code, after, err = play(capsys, monkeypatch, "next\nundo\n", "--seed", "1", "--json")
    assert code == 0 and err == ""
    a, b = json.loads(initial), json.loads(after)
    assert b["log_length"] == 2
    for key in ("log_length", "notices"):
        a.pop(key)
        b.pop(key)
    assert a == b
    for key in ("game", "round", "phase", "step", "active_seat", "prompt", "tracks", "over"):
        assert key in a


def test_trace_has_one_line_per_script_line_and_rejections_name_the_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    script = "# a comment\n\nnext\nset doom 40\nfly away\nadd doom +1\n"
    code, out, err = play(capsys, monkeypatch, script, "--trace")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in rows] == [3, 4, 5, 6]
    assert [r["accepted"] for r in rows] == [True, False, False, True]
    assert rows[1]["reason"] == "doom cannot go above 12 (asked for 40)"
    assert rows[-1]["state"]["tracks"]["doom"] == 1
    assert rows[2]["reason"] == ("unknown verb 'fly' (known: add, choose, done, draw, next, next!, pass, reveal, "
                                 "set, spend)")
    assert err == ""  # in trace mode the trace is the answer
    assert code == 0
    code, _, err = play(capsys, monkeypatch, script, "--strict")
    assert code == 1
    assert err.splitlines() == ["line 4: doom cannot go above 12 (asked for 40)",
                                "line 5: unknown verb 'fly' (known: add, choose, done, draw, next, next!, pass, "
                                "reveal, set, spend)"]


def test_buttons_in_a_script_gather_into_one_command(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _code, out, _ = play(capsys, monkeypatch, "press up\npress up\npress next\n", "--json")
    final = json.loads(out)
    assert final["tracks"]["doom"] == 2 and final["active_seat"] == 2
    assert final["log_length"] == 2  # one "add doom +2" and one "next"


def test_a_missing_script_file_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "fixture", "--script", "no/such/file.txt"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip() == "tablekeeper: no/such/file.txt: cannot read script: no such script"


def test_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "chess"]) == 2
    assert capsys.readouterr().err.startswith("tablekeeper: unknown game 'chess'")


def test_save_resumes_the_session(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    save = str(tmp_path / "game.sqlite")
    play(capsys, monkeypatch, "next\nadd doom +2\ndraw bag\n", "--save", save)
    _code, out, _ = play(capsys, monkeypatch, "", "--save", save, "--json")
    resumed = json.loads(out)
    assert resumed["tracks"]["doom"] == 2 and resumed["active_seat"] == 2 and resumed["log_length"] == 3
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    assert main(["play", "fixture", "--save", str(junk)]) == 2
    assert "not a Tablekeeper save file" in capsys.readouterr().err
    assert junk.read_text() == "not a database"


def test_a_campaign_record_outlives_the_session(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    save = str(tmp_path / "campaign.sqlite")
    for slot in ("one", "two"):
        play(capsys, monkeypatch, "add doom +3\n", "--save", save, "--slot", slot, "--campaign", "night")
    play(capsys, monkeypatch, "", "--save", save, "--slot", "three", "--campaign", "night")
    with Store.open(save) as store:
        assert store.campaign("night") == {"defeats": 2}
        third = store.load("three")
        assert third is not None and json.loads(third.setup.options["campaign"]) == {"defeats": 2}
    assert main(["play", "fixture", "--campaign", "night"]) == 2
    assert "--campaign needs --save" in capsys.readouterr().err


SCRIPT = ["next", "add doom +1", "draw bag", "next", "choose 1", "draw deck", "next", "next",
          "pass 1", "undo", "pass 1", "pass 2", "done 1", "add doom -1", "done 2", "next", "choose 2",
          "draw dice", "add doom +1", "redo", "next"] * 3

LAUNCH = ("import sys; from tablekeeper import games; games.GAMES['fixture'] = 'tests.core.fixture_game';"
          "from tablekeeper.cli import main; raise SystemExit(main(sys.argv[1:]))")


def expected_states() -> dict[int, GameState]:
    """The state after each script line, by log length, from an in-process run."""
    s = Session(GAME, seats=2, seed=1)
    by_length = {0: s.state}
    for line in SCRIPT:
        verb, *args = line.split()
        s.perform(Command(verb, tuple(args)))
        by_length[s.log_length] = s.state
    return by_length


@pytest.mark.parametrize("kill_seed", range(4))
def test_sigkill_at_a_random_point_resumes_after_the_last_acknowledged_command(tmp_path: Path,
                                                                               kill_seed: int) -> None:
    by_length = expected_states()
    save = tmp_path / "s.sqlite"
    kill_after = random.Random(kill_seed).randrange(1, len(SCRIPT))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "play", "fixture", "--seed", "1", "--script", "-",
                             "--trace", "--save", str(save)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    acked = 0
    for i, line in enumerate(SCRIPT):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        if i == kill_after:
            break  # the last line is in flight: killed before we read its acknowledgement
        acked = json.loads(proc.stdout.readline())["state"]["log_length"]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store.open(save) as store:
        assert store.integrity() == "ok"
        saved = store.load("main")
        assert saved is not None
        resumed = Session(GAME, seats=2, seed=1, entries=saved.entries)
    assert resumed.log_length >= acked
    assert resumed.state == by_length[resumed.log_length]


def test_the_command_line_imports_only_the_module_of_the_command_run() -> None:
    code = ("import sys; from tablekeeper.cli import main; main(['play', 'nosuchgame']);"
            "print(sorted(m for m in sys.modules if m in ('tablekeeper.commands.doctor', 'tablekeeper.commands.run', "
            "'tablekeeper.appliance.commands', 'tablekeeper.commands.counters', 'tablekeeper.commands.play')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "['tablekeeper.commands.play']"


def test_a_trace_driver_that_never_reads_stderr_is_never_blocked(tmp_path: Path) -> None:
    """In trace mode the trace is the answer: thousands of refused lines, answered one by one, while
    nobody reads the process's standard error (a full stderr pipe used to stop it in ``write``)."""
    import threading

    lines = 5_000
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "play", "fixture", "--script", "-", "--trace"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    watchdog = threading.Timer(120, proc.kill)  # a blocked process would hang the test: end it instead
    watchdog.start()
    try:
        refused = 0
        for number in range(1, lines + 1):
            proc.stdin.write("frobnicate the widget\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()
            assert answer, f"no trace line for line {number}: the process stopped answering"
            record = json.loads(answer)
            assert (record["line"], record["accepted"]) == (number, False) and "unknown verb" in record["reason"]
            refused += 1
        proc.stdin.close()
        assert proc.wait() == 0
    finally:
        watchdog.cancel()
        proc.kill()
    assert refused == lines
    assert proc.stderr.read() == ""  # nothing the trace already said
