"""Small helpers to drive an Arkham session through the same script lines a player would type."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham import GAME
from tablekeeper.games.arkham import data as arkham_data


def new(seats: int = 2, seed: int = 1, **options: str) -> Session:
    return Session(GAME, seats=seats, seed=seed, options=options)


def do(session: Session, *lines: str) -> Session:
    """Run script lines that must all be accepted."""
    for text in lines:
        parsed = parse_line(text)
        assert parsed is not None, text
        outcome = session.perform(parsed.command)
        assert outcome.accepted, f"{text!r} rejected: {outcome.reason}"
    return session


def rejects(session: Session, text: str) -> str:
    """Run one line that must be rejected without changing anything; returns the reason."""
    before = session.state
    parsed = parse_line(text)
    assert parsed is not None
    outcome = session.perform(parsed.command)
    assert not outcome.accepted, f"{text!r} was accepted"
    assert session.state == before
    assert outcome.reason
    return outcome.reason


def track(session: Session, name: str) -> int:
    return session.state.value(name)


def data(session: Session, key: str) -> Any:
    return session.view()[key]


def to_step(session: Session, phase: str, step: str, limit: int = 60) -> Session:
    """Press next until the flow reaches ``phase``/``step``; in 2.2 the first seat owing a turn passes
    it, and at 1.4 each investigator's encounter card gets the answer "discarded"."""
    for _ in range(limit):
        if session.state.phase == phase and session.state.step == step:
            return session
        prompt, state = session.state.prompt, session.state
        if prompt is None and state.step == "2.2" and state.active_seat is None and state.owing:
            do(session, f"pass {state.owing[0]}")  # turns in any order: the first owing seat passes
        else:
            do(session, "choose 1" if prompt is not None and prompt.id == "encounter_card" else "next")
    raise AssertionError(f"never reached {phase} {step}")


def start_turn(session: Session, seat: int) -> Session:
    """From the start of a round, go to 2.2 and give ``seat`` the first turn."""
    to_step(session, "investigation", "2.2")
    if session.state.active_seat != seat:
        do(session, f"turn seat{seat}")
    return session


def answer(session: Session, text: str) -> Session:
    """Answer the open prompt with the option that contains ``text`` (the answers' order may change)."""
    prompt = session.state.prompt
    assert prompt is not None, f"no prompt to answer with {text!r}"
    found = [i for i, option in enumerate(prompt.options, 1) if text in option]
    assert found, f"{text!r} is not an answer of {prompt.text!r}: {prompt.options}"
    return do(session, f"choose {found[0]}")


def refused_card(tmp_path: Path, lines: str) -> tuple[Path, str]:
    """An ``encounters.toml`` holding one card, ``Thing`` (its TOML ``lines``), read as a pack's would be:
    the file's path and the one line refusing it."""
    path = tmp_path / "encounters.toml"
    path.write_text(f'[sets.x]\nname = "X"\n[sets.x.cards.Thing]\n{lines}\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        arkham_data.load_encounters(str(path))
    return path, str(caught.value)
