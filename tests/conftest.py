"""The whole suite's set-up: the package compiled once, as an installed wheel is."""

from __future__ import annotations

import compileall
import os
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "tablekeeper"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the package's modules before any test runs, in the controlling process only.

    The suite starts ``tablekeeper`` in many child processes (the example scripts, the consoles, the
    docs' commands); with ``PYTHONDONTWRITEBYTECODE`` set, as in many CI images and containers, each
    child would compile every module it imports from source again. Compiled files are read even where
    writing them is off, so this makes each child start as an installed wheel's does (pip compiles
    at install) instead of paying for the compiler every time.
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        compileall.compile_dir(PACKAGE, quiet=1, workers=1)
