"""The same firmware tests under CPython, with the CPython fakes for the MicroPython modules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.counters.firmware_env import firmware_test_modules, load_firmware_module


def _cases() -> list[tuple[str, str]]:
    cases: list[tuple[str, str]] = []
    for module in firmware_test_modules():
        loaded = load_firmware_module(module)
        cases.extend((module, name) for name in sorted(dir(loaded)) if name.startswith("test_"))
    return cases


@pytest.mark.parametrize(("module", "name"), _cases())
def test_firmware_under_cpython(module: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # files a test writes (repl.flag) land here, not in the checkout
    func: Callable[[], None] = getattr(load_firmware_module(module), name)
    func()
