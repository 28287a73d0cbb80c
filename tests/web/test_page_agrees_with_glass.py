"""The page and the glass show the same text for every screen of each game's example script: each
line typed at the station, then the table page and every seat page read in a real headless Chromium
and compared with the rows the displays' glass draws from the same screens. Skips without Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablekeeper.intents import Typed
from tests.station.frames import DOCS, SCRIPT_ARGS, example_setup
from tests.web.phones import PhoneStation, agree, caught_up, needs_chromium, settled_views

pytestmark = needs_chromium


def _script_lines(game: str) -> list[str]:
    lines = (DOCS / f"{game}.script").read_text(encoding="utf-8").splitlines()
    return [text for line in lines if (text := line.split("#", 1)[0].strip())]


# Oathsworn's script is the longest (15 s of pages read after every line): it runs under -m stress; the
# default suite keeps the other three games, whose screens the page draws through the same compose.
GAMES = [pytest.param(game, marks=pytest.mark.stress) if game == "oathsworn" else game for game in sorted(SCRIPT_ARGS)]


@pytest.mark.parametrize("game", GAMES)
def test_the_page_and_the_glass_show_the_same_text_for_every_screen(game: str, tmp_path: Path, context: Any) -> None:
    """Each line of the game's example script typed at the station; after each, the table page and
    every seat page show what the track, tokens and seat displays show, from the same screens."""
    seats_given, seed, options = example_setup(game)
    ps = PhoneStation(tmp_path, game, seats=seats_given or 2, seed=seed, options=options)
    try:
        seats = ps.on_station(lambda st: st.session.state.seats)
        pages = [context.new_page() for _ in range(seats + 1)]
        pages[0].goto(ps.url("/"))
        for seat in range(1, seats + 1):
            pages[seat].goto(ps.url(f"/seat/{seat}"))
        caught_up(ps, *pages)
        roles: set[str] = set()
        for line in _script_lines(game):
            ps.put(Typed(line))
            for page, shown in zip(pages, settled_views(ps, *pages), strict=True):
                roles.update(agree(ps, page, shown))
        assert {"track", "tokens", *(f"seat{s}" for s in range(1, seats + 1))} <= roles
        assert ps.on_station(lambda st: st.stats.refusals) == 0
    finally:
        ps.stop()

