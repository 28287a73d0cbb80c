"""Where the firmware lives and how the host tests load it under CPython."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
FIRMWARE_TESTS = FIRMWARE / "tests"
RUN_MPY = FIRMWARE / "tools" / "run_mpy.mjs"
VECTORS = FIRMWARE_TESTS / "protocol_vectors.json"


def firmware_test_modules() -> list[str]:
    return sorted(path.stem for path in FIRMWARE_TESTS.glob("test_*.py"))


def load_firmware_module(name: str) -> ModuleType:
    """Import a firmware (or firmware test) module under CPython, with the CPython fakes for
    ``machine``, ``micropython`` and ``framebuf`` on the path."""
    for path in (FIRMWARE_TESTS, FIRMWARE, FIRMWARE / "fakes"):
        if str(path) not in sys.path:
            sys.path.append(str(path))  # last, so no installed module is ever shadowed
    return importlib.import_module(name)


def node() -> str | None:
    return shutil.which("node")
