"""Shared helpers for the Spirit Island tests: a session driven through the Python API."""

from __future__ import annotations

from tablekeeper.core.events import Command
from tablekeeper.core.flow import Turns
from tablekeeper.core.session import Outcome, Session
from tablekeeper.games import load
from tablekeeper.games.spirit_island import spirits
from tablekeeper.games.spirit_island.record import SpiritIslandRecord, shared
from tablekeeper.games.spirit_island.turn import FLOW


def session(seats: int = 2, seed: int = 3, confirm: bool = True, **options: str) -> Session:
    """A new game; with ``confirm`` the setup's Invader questions (and the first Explore's) are
    answered as the rules place them."""
    s = Session(load("spirit_island"), seats=seats, seed=seed, options=options)
    if confirm:
        answer_counts(s)
    return s


def record(s: Session) -> SpiritIslandRecord:
    """The game's typed record (what its modules share)."""
    return shared(s.state)


TABLE_PROMPTS = ("si.counts.", "si.fear_card", "si.fear_name", "si.blight.cascade", "si.blight.unplaced")


def answer_counts(s: Session) -> None:
    """Answer the open Invader-count questions with their first (the rules') option, and a
    Ravage's Blight question with "no Blight" (tests that want Blight add it themselves): a
    Ravage is answered land by land. A Fear card revealed on the way is marked resolved, a
    cascade goes to the first adjacent land."""
    while s.state.prompt is not None and s.state.prompt.id.startswith(TABLE_PROMPTS):
        prompt = s.state.prompt
        if prompt.id == "si.counts.overview" and prompt.text.startswith("Ravage"):
            run(s, "choose 2")
            continue
        no_blight = [i for i, o in enumerate(prompt.options, 1) if o.startswith("no Blight")]
        run(s, f"choose {no_blight[0] if no_blight else 1}")


def run(s: Session, *lines: str) -> Outcome:
    """Perform each line; fail loudly on the first rejection (the last outcome is returned)."""
    outcome = Outcome(True)
    for line in lines:
        verb, *args = line.split()
        outcome = s.perform(Command(verb, tuple(args)))
        if not outcome.accepted:
            raise AssertionError(f"{line!r} rejected: {outcome.reason}")
    return outcome


def attempt(s: Session, line: str) -> Outcome:
    verb, *args = line.split()
    return s.perform(Command(verb, tuple(args)))


def tracks(s: Session) -> dict[str, int]:
    return {k: v for k, v in s.view()["tracks"].items() if v is not None}


def to_step(s: Session, phase: str, step: str | None = None, limit: int = 60) -> None:
    """Press done/next until the session reaches ``phase``/``step``. A Power phase is skipped when
    no seat has anything to use in it, so on the way to one seat 1 gains a Sun element."""
    for _ in range(limit):
        st = s.state
        if st.phase == phase and (step is None or st.step == step):
            return
        if phase in ("fast", "slow") and (st.phase, st.step) == ("spirit", "growth") \
                and not spirits.power_to_use(st, phase):
            run(s, "element 1 sun")
        if st.prompt is not None and st.prompt.id.startswith(TABLE_PROMPTS):
            answer_counts(s)
            continue
        if together(s):
            for seat in st.seat_numbers():
                if seat not in s.state.done and s.state.phase == st.phase and s.state.step == st.step:
                    run(s, f"done {seat}")
        else:
            run(s, "next")
    raise AssertionError(f"never reached {phase}/{step}; at {s.state.phase}/{s.state.step}")



def together(s: Session) -> bool:
    """Is the current step one where every seat signals done?"""
    return FLOW.step(s.state.phase, s.state.step).turns is Turns.TOGETHER


def detail(s: Session) -> None:
    """At a step's one question, ask its questions one by one (board by board, terrain by terrain)."""
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "si.counts.overview", prompt
    run(s, "choose 2")
