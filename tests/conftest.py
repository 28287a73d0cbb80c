"""The whole suite's set-up: the package compiled once, as an installed wheel is, and the test modules
as pytest rewrites them kept between runs."""

from __future__ import annotations

import compileall
import importlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Hypothesis fails an example slower than 200 ms by default: a timed assertion, which a loaded machine
# (CI, or other work on the same two cores) trips without anything being wrong. Speed lives in bench/.
settings.register_profile("tablekeeper", deadline=None)
settings.load_profile("tablekeeper")

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "tablekeeper"
TESTS = Path(__file__).resolve().parent
# The files that take longest, longest first (seconds in one worker of a four-worker run on two cores):
# they start before the rest so that the workers finish together; xdist's own order (most tests
# first) left them for the end. A file missing here only starts later.
LONG_FIRST = (
    "tests/fleet/test_fleet_security.py",  # 28, waiting on brokers
    "tests/fleet/test_live.py",  # 24, waiting on brokers
    "tests/station/test_sentences.py",  # 18: 24 station runs, every screen read back
    "tests/games/test_stops_property.py",  # 14
    "tests/web/test_page_agrees_with_glass.py",  # 13: a browser
    "tests/web/test_phone_pages.py",  # 11: a browser
    "tests/test_docs_commands.py",  # 10
    "tests/test_quality.py",  # 5, 10 in a fresh clone (mypy's cache is cold there, as in CI)
    "tests/fleet/test_supervised_link.py",  # 10, waiting
    "tests/station/test_counter_tracks.py",  # 9
    "tests/station/test_console_scripts.py",  # 8
    "tests/faults/test_fuzz.py",  # 7
    "tests/station/test_sim_counters.py",  # 7
    "tests/faults/test_power_loss.py",  # 7
    "tests/appliance/test_installed_wheel.py",  # 7
    "tests/faults/test_soak.py",  # 6
    "tests/station/test_pictures.py",  # 7: every photo and gallery screen drawn again
    "tests/core/test_bounded_log.py",  # 6
    "tests/station/test_frames.py",  # 5
)


def pytest_configure(config: pytest.Config) -> None:
    """A cache folder of the suite's own (``$XDG_CACHE_HOME``, for this process and the children it
    starts): the packs' parse cache, the kept config parse and the remembered screens the tests make
    never land in the user's, and the user's never answer for a test."""
    folder = tempfile.mkdtemp(prefix="tablekeeper-test-cache-")
    config.stash[_CACHE] = folder
    os.environ["XDG_CACHE_HOME"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_CACHE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


_CACHE = pytest.StashKey[str]()


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
        if session.config.getoption("numprocesses", None):
            _rewrite_test_modules_once()


def _rewrite_test_modules_once() -> None:
    """In a fresh clone, rewrite the test modules' asserts once here, before the workers start.

    Each xdist worker collects every test module; with none of pytest's rewritten modules cached yet
    (a fresh clone, as in CI), the four workers rewrote all of them at once, each about five seconds
    of CPU. Imported here through pytest's own import hook, they are rewritten and cached once and
    the workers read them. A run that finds every module cached (named as pytest names its cache
    files) does nothing here.
    """
    tag = f"{sys.implementation.cache_tag}-pytest-{pytest.__version__}"
    modules = sorted(TESTS.rglob("test_*.py"))
    if all((m.parent / "__pycache__" / f"{m.stem}.{tag}.pyc").exists() for m in modules):
        return
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        for module in modules:
            name = ".".join(module.relative_to(TESTS.parent).with_suffix("").parts)
            try:
                importlib.import_module(name)
            except (Exception, pytest.skip.Exception):  # the worker that collects it reports it
                continue
    finally:
        sys.dont_write_bytecode = before


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files first (``LONG_FIRST``), each file's tests kept together and in their order; the
    workers take files in this order (``--no-loadscope-reorder`` in the addopts)."""
    rank = {path: index for index, path in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
