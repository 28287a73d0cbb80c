"""The host code type-checks under mypy --strict and passes ruff: part of the test command, so CI enforces it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_host_code_is_mypy_strict_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_finds_nothing() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "host", "tests", "bench"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
