"""The firmware type-checks against micropython-rp2-stubs and micropython-stdlib-stubs (mypy)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from tests.counters.firmware_env import FIRMWARE


def _stub_tree(target: Path) -> tuple[Path, Path]:
    """Link the installed MicroPython stubs into ``target`` (MYPYPATH) and find the stdlib
    typeshed they ship (--custom-typeshed-dir); nothing is hard-coded."""
    typeshed: Path | None = None
    for dist in ("micropython-rp2-stubs", "micropython-stdlib-stubs"):
        try:
            files = metadata.files(dist) or []
        except metadata.PackageNotFoundError:
            pytest.fail(f"{dist} is not installed: pip install -e '.[dev]'")
        for file in files:
            located = Path(str(file.locate()))
            if file.parts[0] == "stdlib":
                if file.name == "VERSIONS":
                    typeshed = located.parent.parent
                continue
            if file.parts[0].endswith(".dist-info") or file.suffix != ".pyi":
                continue
            link = target / Path(*file.parts)
            link.parent.mkdir(parents=True, exist_ok=True)
            if not link.exists():
                link.symlink_to(located)
    if typeshed is None:
        pytest.fail("micropython-stdlib-stubs ships no stdlib/VERSIONS")
    return target, typeshed


def _mypy(tmp_path: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    stubs, typeshed = _stub_tree(tmp_path / "stubs")
    env = dict(os.environ, MYPYPATH=str(stubs))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--custom-typeshed-dir", str(typeshed),
         "--cache-dir", str(tmp_path / "cache"), *targets],
        cwd=FIRMWARE, env=env, capture_output=True, text=True, timeout=300,
    )


def test_firmware_type_checks_against_rp2_stubs(tmp_path: Path) -> None:
    result = _mypy(tmp_path, "counter", "main.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_type_check_catches_a_wrong_machine_call(tmp_path: Path) -> None:
    """The stubs are really in use: a misspelt Pin method is an error."""
    bad = tmp_path / "bad_board.py"
    bad.write_text("import machine\n\nmachine.Pin(2).valu(1)\n")
    result = _mypy(tmp_path, str(bad))
    assert result.returncode == 1
    assert '"Pin" has no attribute "valu"' in result.stdout
