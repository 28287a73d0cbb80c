"""A station with its phones' pages for the web tests: the real station loop on simulated parts on
a thread of its own, the pages served by uvicorn on a free loopback port, and helpers to read what
the pages and the glass show."""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tablekeeper import games
from tablekeeper.config import REFERENCE_CONFIG, StationConfig, WebConfig, load_config
from tablekeeper.core.session import Session
from tablekeeper.intents import Intent, Quit
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_displays, make_outputs
from tablekeeper.ui.model import DisplayScreen
from tablekeeper.ui.render import fit, printable
from tablekeeper.web.join import Invitation
from tablekeeper.web.phones import PhonePages
from tablekeeper.web.server import DEFAULT_LIMITS, Limits
from tablekeeper.web.view import Snapshot

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (the page tests need a real browser)")
# How long a test waits for a page, the station or the server before it fails: a bound for what is
# broken, not a guess at speed (Playwright's own default for an action; a machine loaded by other
# work can take seconds where a quiet one takes milliseconds).
WAIT_S = 30.0
PAGE_WAIT_MS = int(WAIT_S * 1000)


def wait_until(check: Callable[[], object], what: str, timeout_s: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


class PhoneStation:
    """A station playing ``game`` with its phones' pages; ``snapshots`` holds every view published."""

    def __init__(self, tmp: Path, game: str = "arkham", *, seats: int = 2, seed: int = 1,
                 options: dict[str, str] | None = None, config: StationConfig | None = None,
                 limits: Limits = DEFAULT_LIMITS) -> None:
        self.config = config or load_config(REFERENCE_CONFIG)
        self.parts = SimulatedParts(self.config, display_mode=None, capture_dir=tmp / "frames")
        clock = time.monotonic
        displays = make_displays(self.config, self.parts.open_device, clock=clock)
        session = Session(games.load(game), seats=seats, seed=seed, options=options or {})
        self.station = Station(session=session, config=self.config, displays=displays, clock=clock)
        self.station.sink.outputs = make_outputs(self.config, clock=clock, pin_factory=self.parts.pin_factory)
        self.pages = PhonePages(self.station, WebConfig("127.0.0.1", 0), limits=limits)
        self.snapshots: dict[int, Snapshot] = {}
        deliver = self.pages.hub.deliver

        def kept(snapshot: Snapshot) -> None:
            self.snapshots[snapshot.version] = snapshot
            deliver(snapshot)

        self.pages.publisher.deliver = kept
        self.invitation: Invitation = self.pages.start()
        self.thread = threading.Thread(target=self.station.run, kwargs={"idle_wait_s": 0.05}, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return int(self.invitation.address.rsplit(":", 1)[1])

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}?k={self.invitation.secret}"

    def on_station(self, action: Callable[[Station], Any]) -> Any:
        """Run ``action`` on the station's thread and return its result (a test never touches the
        session from its own)."""
        from tablekeeper.intents import Remote

        done = threading.Event()
        out: list[Any] = []
        def carry_out() -> None:
            out.append(action(self.station))
            done.set()

        self.station.put(Remote("test", carry_out))
        assert done.wait(WAIT_S), "the station did not answer"
        return out[0]

    def put(self, intent: Intent) -> None:
        self.station.put(intent)

    def stop(self) -> None:
        self.station.put(Quit("test over"))
        self.thread.join(5)
        self.pages.stop()
        self.station.close()
        self.parts.close()


def squash(text: str) -> str:
    """Text as compared across surfaces: the glass's characters, without spaces, the hyphens wrapping
    adds, or the bar between a seat line's parts (the glass starts each part on a row of its own)."""
    return re.sub(r"[\s\-~|]", "", printable(text)).lower()


def glass_rows(screen: DisplayScreen, station: Station) -> tuple[list[str], list[str]]:
    """Every row the display's glass shows for ``screen`` over all its frames: the title and body rows,
    and the banner's rows; a sentence that scrolls along one row is read as the whole it scrolls through."""
    display = station.config.display(screen.role)
    assert display is not None
    if screen.join is not None:
        return [f"PIN {screen.join.pin}"], []
    panel = screen.shown
    banner = screen.cover.banner if screen.cover is not None else screen.banner_text
    selected = screen.selected if screen.cover is None else None
    fitted = fit(panel, display.viewing, banner=banner, selected=selected)
    body: list[str] = [] if any(u.kind == "title" for u in fitted.frames[0].units) else [fitted.frames[0].title]
    foot: list[str] = []
    seen: set[tuple[str, int]] = set()
    for frame in fitted.frames:
        for unit in frame.units:
            if (unit.kind, unit.index) in seen:
                continue
            seen.add((unit.kind, unit.index))
            rows = [unit.text] if unit.scrolling else list(unit.rows)
            (foot if unit.kind == "banner" else body).extend(r.removeprefix(">") for r in rows)
    return body, foot


def page_texts(screen: DisplayScreen) -> tuple[list[str], str | None]:
    """What a page must show of ``screen``: its title and every line but details; and its banner."""
    panel = screen.shown
    banner = screen.cover.banner if screen.cover is not None else screen.banner_text
    lines = screen.lines()
    return [panel.title, *(line.text for line in lines if line.emphasis.name != "DETAIL")], banner


def settled(ps: PhoneStation) -> int:
    """The version of the view the station publishes once everything queued is carried out."""
    return int(ps.on_station(lambda _st: ps.pages.publisher.version))


def caught_up(ps: PhoneStation, *pages: Any) -> int:
    """Wait until each page has every press acknowledged and shows the station's settled view."""
    for page in pages:
        wait_on(page, "() => document.body.dataset.pending === '0'", None, "its presses to be acknowledged")
    version = settled(ps)
    for page in pages:
        wait_on(page, "v => Number(document.body.dataset.version) >= v", version, f"view {version}")
    return version


_STATE = ("() => ({pending: document.body.dataset.pending, version: document.body.dataset.version, "
          "link: (document.getElementById('link') || {}).textContent})")


def wait_on(page: Any, condition: str, arg: object, what: str) -> Any:
    """``page.wait_for_function`` bounded by ``PAGE_WAIT_MS``; on a timeout, one assertion naming the
    page, what was awaited and what the page shows (its presses waiting, its view, its link)."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        return page.wait_for_function(condition, arg=arg, timeout=PAGE_WAIT_MS, polling=20)
    except PageTimeout:
        shown = page.evaluate(_STATE)
        raise AssertionError(f"{page.url.split('?')[0]}: waited {WAIT_S:.0f} s for {what}; the page shows "
                             f"{shown}") from None


# The view's version a page shows and each display box's text on it, by role.
_SHOWN = ("({version: Number(document.body.dataset.version), texts: Object.fromEntries("
          "[...document.querySelectorAll('article.display')].map(a => [a.dataset.role, a.innerText]))})")


def shown_on(page: Any) -> tuple[int, dict[str, str]]:
    """The version of the view ``page`` shows and each display box's text, read in one go."""
    shown: dict[str, Any] = page.evaluate(f"() => {_SHOWN}")
    return int(shown["version"]), dict(shown["texts"])


def settled_views(ps: PhoneStation, *pages: Any) -> list[tuple[int, dict[str, str]]]:
    """What each page shows once it has the station's settled view, for a change made at the station
    itself (typed there, so no press of a page's is waiting to be acknowledged first): one wait per
    page, which returns what it shows (``shown_on``)."""
    version = settled(ps)
    out = []
    for page in pages:
        ready = f"v => document.body.dataset.pending === '0' && Number(document.body.dataset.version) >= v && {_SHOWN}"
        handle = wait_on(page, ready, version, f"view {version} and its presses acknowledged")
        shown = handle.json_value()
        handle.dispose()
        out.append((int(shown["version"]), dict(shown["texts"])))
    return out


def agree(ps: PhoneStation, page: Any, shown: tuple[int, dict[str, str]] | None = None) -> list[str]:
    """The displays ``page`` shows (``shown``: as already read off it) hold the same text as the glass
    draws from the same screens: every line the glass keeps is on the page, every row of the glass is in
    the page's text. Returns the roles."""
    version, texts = shown if shown is not None else shown_on(page)
    screens = ps.snapshots[version].screens
    checked = []
    for role, text in texts.items():
        screen = screens.display(role)
        assert screen is not None, role
        on_page = squash(text)
        if ps.config.display(role) is not None:
            body, foot = glass_rows(screen, ps.station)
            must, banner = page_texts(screen) if screen.join is None else ([f"PIN {screen.join.pin}"], None)
            for line in must:
                assert squash(line) in squash("".join(body)), (role, line, body)
                assert squash(line) in on_page, (role, line, text)
            if banner is not None:
                assert squash(banner) == squash("".join(foot)), (role, banner, foot)
                assert squash(banner) in on_page, (role, banner, text)
            for row in [*body, *foot]:
                assert squash(row) in on_page, (role, row, text)
        checked.append(role)
    return checked


def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
