"""The host code type-checks under mypy --strict, passes ruff and keeps its layer contracts (import-linter):
part of the test command, so CI enforces it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_host_code_and_benches_are_mypy_strict_clean() -> None:
    """The benches too: each one exercises the API, and a change that breaks one must fail here."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "host", "tests", "bench"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def lint_imports(cwd: Path, host: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the contracts in ``cwd``'s pyproject.toml, on the package under ``host``."""
    run = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run([sys.executable, "-c", run, "--no-cache", "--no-logo"], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(host)}, capture_output=True, text=True)


def test_the_layer_contracts_hold() -> None:
    result = lint_imports(ROOT, ROOT / "host")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 kept, 0 broken" in result.stdout


def _python_only(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in ("firmware", "__pycache__") or (Path(folder, n).is_file() and
                                                                      not n.endswith(".py"))}


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("hw/buttons.py", "from tablekeeper.config import StationConfig", "hardware adapters take plain values"),
    ("hw/displays.py", "import tablekeeper.sim.oled", "hardware adapters take plain values"),
    ("core/state.py", "from tablekeeper.ui import render", "the rules core stands alone"),
    ("games/arkham/rules.py", "from tablekeeper.hw import protocol", "games are rules and data"),
    ("station/intake.py", "from tablekeeper.commands import run", "layers point down"),
    ("ui/compose.py", "from tablekeeper.station import loop", "layers point down"),
])
def test_a_forbidden_import_breaks_a_contract(tmp_path: Path, module: str, line: str, contract: str) -> None:
    """The same contracts on a copy of the package with one import that crosses a layer the wrong way."""
    shutil.copytree(ROOT / "host" / "tablekeeper", tmp_path / "host" / "tablekeeper", ignore=_python_only)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    source = tmp_path / "host" / "tablekeeper" / module
    source.write_text(source.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    result = lint_imports(tmp_path, tmp_path / "host")
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{contract} BROKEN" in " ".join(result.stdout.split()), result.stdout
    assert "tablekeeper." + module.removesuffix(".py").replace("/", ".") in result.stdout


def test_ruff_refuses_a_function_with_more_than_15_paths() -> None:
    """C901 at 15 is in the project's ruff config (so the ruff run above enforces it everywhere)."""
    def source(branches: int) -> str:
        body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(branches))
        return f"def f(x: int) -> int:\n{body}    return -1\n"

    def ruff(text: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ruff", "check", "--stdin-filename", "host/tablekeeper/x.py", "-"],
                              cwd=ROOT, input=text, capture_output=True, text=True)

    assert ruff(source(14)).returncode == 0  # 15 paths
    result = ruff(source(15))
    assert result.returncode == 1 and "C901 `f` is too complex (16 > 15)" in result.stdout
