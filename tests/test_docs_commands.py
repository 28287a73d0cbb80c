"""Every command block the docs mark as runnable (``<!-- runnable -->`` before a fenced ``sh`` block) runs.

Each block runs with bash (``-euo pipefail``) in a scratch directory that sees the checkout's ``docs/``
and ``hardware/`` and has ``.venv/bin/tablekeeper`` as the docs write it, with its own data
directory, so a newcomer's copy-paste is what is tested.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "firmware" / "README.md", ROOT / "hardware" / "README.md",
               *(ROOT / "docs").rglob("*.md")])
_RUNNABLE = re.compile(r"<!-- runnable -->\s*\n```sh\n(.*?)\n```", re.DOTALL)


def runnable_blocks() -> list[tuple[str, str]]:
    """(file:line, block text) of every block marked runnable."""
    blocks = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in _RUNNABLE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            blocks.append((f"{path.relative_to(ROOT)}:{line}", match.group(1)))
    return blocks


def _scratch(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / ".venv" / "bin").mkdir(parents=True)
    shim = work / ".venv" / "bin" / "tablekeeper"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tablekeeper "$@"\n')
    shim.chmod(0o755)
    for name in ("docs", "hardware"):
        (work / name).symlink_to(ROOT / name)
    return work


def test_the_docs_mark_blocks_runnable() -> None:
    where = {place.split(":")[0] for place, _ in runnable_blocks()}
    assert {"README.md", "docs/games/earthborne.md", "docs/games/oathsworn.md", "docs/scripting.md"} <= where


@pytest.mark.parametrize(("place", "block"), runnable_blocks(), ids=[place for place, _ in runnable_blocks()])
def test_runnable_block_runs(tmp_path: Path, place: str, block: str) -> None:
    work = _scratch(tmp_path)
    env = {**os.environ, "TABLEKEEPER_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("VIRTUAL_ENV", None)
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=work, env=env, capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, f"{place}:\n{block}\n{result.stderr[-2000:]}"


def test_a_failing_block_fails(tmp_path: Path) -> None:
    """The runner is not a rubber stamp: a game command without ``type`` in a simulator script is refused,
    with the hint."""
    work = _scratch(tmp_path)
    result = subprocess.run(["bash", "-euo", "pipefail", "-c",
                             ".venv/bin/tablekeeper run --sim --game arkham --script docs/games/arkham.script "
                             "--display capture"], cwd=work, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TABLEKEEPER_DATA_DIR": str(tmp_path / "data"),
                                 "SDL_VIDEODRIVER": "dummy"}, check=False)
    assert result.returncode == 2
    assert "needs the type prefix: 'type " in result.stderr and len(result.stderr.strip().splitlines()) == 1
