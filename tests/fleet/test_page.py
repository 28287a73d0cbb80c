"""The organiser's page in a real headless Chromium (Debian's ``chromium``, driven by Playwright):
tiles appear over the page's WebSocket, an alert shows, a command button reaches the right station
and the page says "done" only once the station answered, a station that goes away shows offline and
a command to it is "not delivered: offline". Skips without Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablekeeper.intents import Typed
from tests.fleet.brokers import Broker, wait_until
from tests.fleet.pages import page_server
from tests.fleet.stations import LiveStation, organiser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (the page tests need a real browser)")


@pytest.fixture
def browser_page() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield browser.new_page()
        finally:
            browser.close()


def test_tiles_alerts_and_a_command_button_that_reaches_the_right_station(broker: Broker, tmp_path: Path,
                                                                          browser_page: object) -> None:
    page: object = browser_page
    client, board = organiser(broker)
    server = page_server(board, client)
    stations = [LiveStation(broker, name, tmp_path).start() for name in ("t1", "t2")]
    try:
        wait_until(lambda: all(s.reporter.link.connected for s in stations), "the stations")
        page.goto(f"http://127.0.0.1:{server.port}/")  # type: ignore[attr-defined]
        tiles = page.locator("section.tile")  # type: ignore[attr-defined]
        tiles.nth(1).wait_for(timeout=10_000)
        assert page.locator("section.tile h2").all_inner_texts() == ["t1", "t2"]  # type: ignore[attr-defined]
        # t2's track display stops answering (its next refusal notice is drawn to a dead chip): the
        # alert appears without a reload
        stations[1].parts.unplug("track")
        stations[1].station.put(Typed("no-such-verb"))
        alert = page.locator('section[data-station="t2"] .alerts li',  # type: ignore[attr-defined]
                             has_text="track display failed")
        alert.wait_for(timeout=10_000)
        assert page.locator('section[data-station="t1"] .alerts li').count() == 0  # type: ignore[attr-defined]
        # Lock on t2's tile locks t2, not t1
        page.locator('section[data-station="t2"] button[data-cmd="lock"]').click()  # type: ignore[attr-defined]
        wait_until(lambda: stations[1].station.ui.locked, "t2 locked")
        assert not stations[0].station.ui.locked
        done = page.locator('section[data-station="t2"] .recent li', has_text="lock done")  # type: ignore[attr-defined]
        done.wait_for(timeout=10_000)
        said = page.locator('#notice[data-outcome="done"]', has_text="t2: lock done")  # type: ignore[attr-defined]
        said.wait_for(timeout=10_000)  # the page said "done" because t2 answered
        # t1 goes away: its tile says since when
        stations[0].stop()
        offline = page.locator('section.offline[data-station="t1"] .alerts li',  # type: ignore[attr-defined]
                               has_text="offline since")
        offline.wait_for(timeout=10_000)
        page.locator('section[data-station="t1"] button[data-cmd="identify"]').click()  # type: ignore[attr-defined]
        refused = page.locator('#notice[data-outcome="offline"]',  # type: ignore[attr-defined]
                               has_text="t1: not delivered: offline")
        refused.wait_for(timeout=10_000)
    finally:
        server.stop()
        client.close()
        for s in stations:
            s.stop()
