"""A prompt is answered from the panel: up/down show each option on the display, next chooses it."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.station.test_station as station_tests
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tests.core.fixture_game import GAME as PROMPTING_GAME


def test_prompt_options_are_shown_and_chosen_with_the_buttons(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(station_tests, "GAME", PROMPTING_GAME)
    rig = station_tests.Rig(load_config(REFERENCE_CONFIG), tmp_path)
    try:
        rig.tap("next")
        rig.tap("next")  # into the step where the players choose who goes next
        state = rig.session.state
        assert state.prompt is not None and state.prompt.options == ("seat 1", "seat 2")
        assert rig.station.controls.prompt_text(state) == "1 of 2: seat 1"
        assert rig.station.screens is not None
        tokens = rig.station.screens.display("tokens")
        assert tokens is not None
        panel, banner = tokens.panel, tokens.banner_text
        assert state.prompt.text in (panel.title, *panel.lines, banner)  # the question, not only the option
        first = rig.parts.screens()["tokens"].tobytes()
        rig.tap("down")
        assert rig.station.controls.prompt_text(rig.session.state) == "2 of 2: seat 2"
        assert rig.parts.screens()["tokens"].tobytes() != first  # the banner follows the cursor
        rig.tap("next")
        assert rig.session.state.prompt is None
        assert rig.session.state.active_seat == 2
        assert [e.command.text() for e in rig.session.line if e.command][-1] == "choose 2"
    finally:
        rig.station.close()
        rig.parts.close()


def test_a_prompt_banner_carries_the_question_when_the_screen_does_not_show_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tablekeeper.core.view import Panel

    monkeypatch.setattr(station_tests, "GAME", PROMPTING_GAME)
    monkeypatch.setattr(PROMPTING_GAME, "panels", lambda state: {"tokens": Panel("Chaos bag", ("standard",))})
    rig = station_tests.Rig(load_config(REFERENCE_CONFIG), tmp_path)
    try:
        rig.tap("next")
        rig.tap("next")
        state = rig.session.state
        assert state.prompt is not None
        assert rig.station.screens is not None
        tokens = rig.station.screens.display("tokens")
        assert tokens is not None and tokens.banner_text == f"{state.prompt.text} 1 of 2: seat 1"
    finally:
        rig.station.close()
        rig.parts.close()
