"""The headless Chromium the page tests share (one per worker process, for every page test file it
runs), and a fresh phone-sized context per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.phones import browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    yield from browser()


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport=PHONE, has_touch=False)
    try:
        yield context
    finally:
        context.close()
