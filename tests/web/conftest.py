"""The headless Chromium a page test file shares, and a fresh phone-sized context per test. One per
file, not per session: Playwright's sync API keeps an event loop running on the worker's thread while
it is open, which the asyncio tests of other files (fleet, firmware) cannot run under."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.phones import browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    yield from browser()


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport=PHONE, has_touch=False)
    try:
        yield context
    finally:
        context.close()
