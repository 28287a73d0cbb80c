"""The whole suite's set-up: the package compiled once, as an installed wheel is, and the test modules
as pytest rewrites them kept between runs."""

from __future__ import annotations

import compileall
import os
import sys
from collections.abc import Iterator
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


@pytest.hookimpl(hookwrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """Let pytest keep its rewritten test modules while it collects, even where writing bytecode is off.

    pytest caches each test module with its asserts rewritten only when bytecode may be written; with
    ``PYTHONDONTWRITEBYTECODE`` set, every worker rewrote every module again on every run (about five
    seconds of CPU each, before its first test). The setting applies again once collection is done.
    """
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        yield
    finally:
        sys.dont_write_bytecode = before
