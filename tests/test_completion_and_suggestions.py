"""Shell completion (``tablekeeper completion``) and the "did you mean" of a mistyped word."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tablekeeper.appliance.install import COMPLETION_FILES, InstallOptions, Run, build_plan
from tablekeeper.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_a_mistyped_subcommand_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert _error(capsys, "rnu").endswith("argument COMMAND: invalid choice: 'rnu' (did you mean 'run'?)")
    assert _error(capsys, "--log-level", "info", "doctr").endswith("(did you mean 'doctor'?)")


def test_a_mistyped_choice_of_a_subcommand_names_the_nearest(capsys: pytest.CaptureFixture[str]) -> None:
    assert _error(capsys, "run", "--display", "pygmae").endswith(
        "argument --display: invalid choice: 'pygmae' (did you mean 'pygame'?)")
    assert _error(capsys, "hardware", "wirng").endswith("(did you mean 'wiring'?)")


def test_a_word_near_nothing_gets_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    last = _error(capsys, "xyzzy")
    assert "did you mean" not in last and "(choose from" in last


def test_a_mistyped_game_verb_names_the_nearest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.script"
    script.write_text("nxt\nfly away\n")
    assert main(["play", "arkham", "--seats", "2", "--script", str(script), "--strict"]) == 1
    out = capsys.readouterr().err
    assert "line 1: unknown verb 'nxt'; did you mean 'next'? (known: " in out
    assert "line 2: unknown verb 'fly' (known: " in out


def _completion(shell: str) -> str:
    result = subprocess.run([sys.executable, "-m", "tablekeeper", "completion", shell], capture_output=True,
                            text=True, check=True, timeout=60)
    return result.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize(("words", "expected"), [
    (["ru"], {"run"}),
    (["play", ""], {"arkham", "spirit_island", "oathsworn", "earthborne"}),
    (["run", "--display", "t"], {"text"}),
    (["hardware", ""], {"wiring", "panel", "photos", "phones"}),
    (["completion", ""], {"bash", "zsh"}),
    (["config", "check", "hardware/stat"], {"hardware/station.toml"}),
    (["run", "--capture-dir", "hardwa"], {"hardware"}),
])
def test_bash_completes_subcommands_games_and_choices(tmp_path: Path, words: list[str], expected: set[str]) -> None:
    script = tmp_path / "tablekeeper.bash"
    script.write_text(_completion("bash"))
    quoted = " ".join(f"'{w}'" for w in ["tablekeeper", *words])
    probe = (f"source '{script}'; COMP_WORDS=({quoted}); COMP_CWORD={len(words)}; "
             f"_shtab_tablekeeper; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    result = subprocess.run(["bash", "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30)
    assert set(result.stdout.split()) == expected


def test_the_zsh_script_is_a_completion_function_for_every_subcommand() -> None:
    script = _completion("zsh")
    assert script.startswith("#compdef tablekeeper")
    assert all(f"\n    {name}:'" in script for name in COMMANDS)
    if shutil.which("zsh"):
        checked = subprocess.run(["zsh", "-n"], input=script, capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr


def test_completion_output_writes_the_file_and_refuses_a_missing_directory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "tablekeeper"
    assert main(["completion", "bash", "--output", str(target)]) == 0
    assert target.read_text() == _completion("bash")
    missing = tmp_path / "nowhere" / "tablekeeper"
    assert main(["completion", "bash", "--output", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"tablekeeper: completion --output {missing}: no such directory {missing.parent}"]
    assert not missing.parent.exists()


def test_the_pi_install_puts_both_scripts_where_the_shells_look() -> None:
    (step,) = [s for s in build_plan(InstallOptions()) if "completion" in s.title]
    runs = [a.argv for a in step.actions if isinstance(a, Run)]
    for shell, path in COMPLETION_FILES:
        assert ("install", "-d", "-m", "0755", str(path.parent)) in runs
        assert ("/opt/tablekeeper/venv/bin/tablekeeper", "completion", shell, "--output", str(path)) in runs
