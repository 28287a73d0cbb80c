"""Random legal play of all four games in the default flow, saved to a real SQLite store, against a
step-by-step twin (``--walk``) kept at the same position:

- after every accepted command either the game is over and nothing but undo and the bookkeeping the
  game names is accepted (and that changes no position and no ending), or the state waits for the
  table: a prompt, a seat owing a move, a table action, a decision, or a declared stop;
- every verb the walk twin accepts at a position the automatic run went through is accepted where
  the automatic run stopped (or once the questions it stopped at are answered), or was accepted
  right before the press that started the run: the automatic run never takes a choice away. (Where the run
  reached an ending, the ending is the rules' answer and both twins must reach it at the same step.)
- the twin reaches the same state by pressing ``next`` for each step the station ran itself, and the
  save replays to the session's state.

The default run is small; ``-m stress`` plays many more and longer games. The "protection-removed"
case shows the property fails once the game-over stop is gone.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import shlex
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import msgspec.structs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tablekeeper import games
from tablekeeper.commands.sessions import open_session
from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow, Kind
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.core.store import Store
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn.record import rec

FLOW_VERBS = frozenset({"next", "next!"})  # what the automatic run does itself
Lines = Callable[[GameState], list[tuple[str, float]]]


def _seats_lines(state: GameState, *templates: tuple[str, float]) -> list[tuple[str, float]]:
    return [(t.format(s=s), w) for s in state.seat_numbers() for t, w in templates]


def arkham_lines(state: GameState) -> list[tuple[str, float]]:
    lines = [("location Study 2 2 per to=Hall", 1.0), ("location Hall 1 1 to=Study", 0.5), ("resolve", 3.0),
             ("draw chaos", 2.0), ("harm-enemy Ghoul 1", 1.0), ("add doom.other +1", 0.5),
             ("resolution R1", 0.15), ("victory 1", 0.3), ("bonus +1", 0.3), ("go-to midnight_masks", 0.2)]
    return lines + _seats_lines(state, ("enemy seat{s} Ghoul fight=2 health=2 evade=2 damage=1 horror=1", 0.25),
                                ("act seat{s} fight Ghoul", 0.5), ("act seat{s} evade Ghoul", 0.25),
                                ("spend-clues seat{s}:1", 0.25),
                                ("turn seat{s}", 1.0), ("act seat{s} resource", 2.0), ("act seat{s} draw", 2.0),
                                ("act seat{s} investigate", 1.0), ("enter seat{s} Study", 0.5),
                                ("act seat{s} move Hall", 0.5), ("discard seat{s} 1", 0.5), ("hit seat{s} 1 1", 0.5),
                                ("heal seat{s} 1 1", 0.3), ("draw-cards seat{s} 2", 0.5), ("play seat{s} 1 asset", 0.5),
                                ("commit seat{s} 1", 0.5), ("defeat seat{s}", 0.05), ("buy seat{s} Knife 0", 1.0))


def spirit_island_lines(state: GameState) -> list[tuple[str, float]]:
    lines = [("fear 2", 1.0), ("fear 40", 0.1), ("destroy explorer", 1.0), ("destroy town", 0.5), ("blight", 0.3),
             ("explore more", 0.2), ("explore skip", 0.2), ("land A2 blight=1", 0.3)]
    return lines + _seats_lines(state, ("play {s} 1 fast sun", 1.0), ("play {s} 0 slow moon", 1.0), ("use {s} 1", 1.5),
                                ("element {s} sun", 0.5), ("innate {s}", 0.3), ("set seat{s}.presence 0", 0.05))


HAND = "Jab:0 Slash:1 Guard:1 Cleave:2 Parry:2 Roar:3 Rush:3"


def oathsworn_lines(state: GameState) -> list[tuple[str, float]]:
    lines = [("resolve", 3.0), ("keep", 0.3), ("tally", 2.0), ("secret open", 0.2), ("secret reveal", 0.5),
             ("goto 3", 0.5), ("place 4", 0.3), ("travel 4", 0.3)]
    lines += [(f"break {name.removeprefix('boss.')}", 0.4) for name, c in state.tracks.items()
              if name.startswith("boss.") and c.value > 0]
    for n, items in (rec(state).losses_due or {}).items():
        lines += [(f"lose {n} {item}", 3.0) for item in rec(state).seat(int(n)).items][:2 * items]
    return lines + _seats_lines(state, ("lead {s}", 0.5), (f"hand {{s}} {HAND}", 0.5), ("move {s} 1", 1.0),
                                ("attack {s} head white=2", 1.0), ("enemy {s} R Y", 0.5), ("token {s} redraw", 0.3),
                                ("archetype {s} Guardian B", 0.5), ("set seat{s}.hp 0", 0.05))


def earthborne_lines(state: GameState) -> list[tuple[str, float]]:
    lines = [('location "Lone Tree" 3', 1.0), ("pathdeck 12", 1.0),
             ("reveal path Spring progress=3 harm=- presence=1", 1.0),
             ("reveal path Doe progress=2 harm=2 presence=1 arrow=down", 1.0), ("draw challenge", 1.0),
             ("reveal challenge c07", 1.0), ("resolve", 2.0), ("progress card1 1", 0.5), ("harm card1 1", 0.5),
             ("progress location 1", 0.5), ("travel", 0.3), ("arrive Meadow 4 terrain=grassland", 0.3),
             ("camp Meadow 4 terrain=grassland", 0.1), ("newday", 2.0)]
    return lines + _seats_lines(state, ("turn {s}", 1.0), ("rest {s}", 1.0), ("test {s} awa 1 target=card1", 1.0),
                                ("test {s} fit 1", 1.0), ("fatigue {s} 40", 0.05), ("rdraw {s} 1", 0.3),
                                ("aspects {s} 3 2 2 1", 0.2))


def campaign_log() -> str:
    """An Arkham campaign log between scenarios, each investigator with experience to spend."""
    from tablekeeper.games.arkham.campaign import Campaign

    body = Campaign.new("night_of_the_zealot", "standard", {1: "roland", 2: "daisy"}).body
    for inv in ("roland", "daisy"):
        body["investigators"][inv]["xp"] = 5
    return json.dumps(body)


@dataclass(frozen=True)
class Table:
    """A game as a group would open it: its name, seats, options and the lines worth trying."""

    game: str
    seats: int
    options: tuple[tuple[str, str], ...]
    lines: Lines


TABLES = {
    "arkham": Table("arkham", 2, (), arkham_lines),
    "arkham-campaign": Table("arkham", 2, (("campaign", "@log"),), arkham_lines),
    "spirit_island": Table("spirit_island", 1, (), spirit_island_lines),
    "oathsworn-story": Table("oathsworn", 4, (("companions", "4"),), oathsworn_lines),
    "oathsworn-encounter": Table("oathsworn", 4, (("part", "encounter"),), oathsworn_lines),
    "earthborne": Table("earthborne", 2, (("day", "30"),), earthborne_lines),
}


def generic_lines(game: Game, state: GameState) -> list[tuple[str, float]]:
    """What any game takes: the open question's answers, a seat owing a move passing or done, next,
    a nudge of a track, a device draw."""
    lines: list[tuple[str, float]] = [("next", 1.0 if state.active_seat else 4.0), ("undo", 3.0 if state.over else 0.3)]
    if state.prompt is not None:
        lines += [(f"choose {n}", 6.0) for n in range(1, len(state.prompt.options) + 1)]
    lines += [(f"pass {s}", 4.0 if s == state.active_seat else 1.0) for s in state.owing]
    lines += [(f"done {s}", 1.0) for s in state.owing]
    tracks = sorted(state.tracks)[:12]
    nudge = 0.3 / max(1, len(tracks))
    lines += [(f"add {t} +1", nudge) for t in tracks] + [(f"add {t} -1", nudge) for t in tracks]
    lines += [(f"draw {name}", 0.5 / len(state.sources)) for name in sorted(state.sources)]
    return lines


def all_lines(table: Table, game: Game, state: GameState) -> list[tuple[str, float]]:
    return [*generic_lines(game, state), *table.lines(state)]


@functools.cache
def command(text: str) -> Command:
    verb, *args = shlex.split(text)
    return Command(verb, tuple(args))


def accepted(game: Game, state: GameState, text: str) -> bool:
    """Whether the game accepts the line at this state (judged without changing anything)."""
    cmd = command(text)
    if cmd.verb in ("undo", "redo"):
        return False
    try:
        game.decide(state, cmd, random.Random(0))
    except Rejected:
        return False
    return True


def verbs_accepted(game: Game, state: GameState, lines: list[str]) -> set[str]:
    out: set[str] = set()
    for text in lines:
        verb = command(text).verb
        if verb not in out and accepted(game, state, text):
            out.add(verb)
    return out


def waits_for_table(flow: Flow, state: GameState) -> bool:
    """A prompt, a seat owing a move or on its turn, a declared stop, a reason the step is held, or
    a table action or decision the step asks for now."""
    if state.prompt is not None or state.owing or state.active_seat is not None:
        return True
    if flow.stop_at(state) is not None:
        return True
    step = flow.step(state.phase, state.step)
    if step.hold and step.hold(state):
        return True
    return step.kind in (Kind.TABLE, Kind.DECISION) and not (step.idle is not None and step.idle(state))


def position(state: GameState) -> tuple[int, str, str]:
    return state.round, state.phase, state.step


@contextmanager
def saved_session(table: Table, seed: int) -> Iterator[tuple[Session, Store, Path]]:
    """The session ``tablekeeper play GAME --save FILE`` opens (the default flow), and the file."""
    options = [f"{k}={campaign_log() if v == '@log' else v}" for k, v in table.options]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "save.sqlite"
        args = argparse.Namespace(seats=table.seats, seed=seed, option=options, walk=False, save=str(path),
                                  slot="main", campaign=None)
        session, store = open_session(games.load(table.game), args)
        assert store is not None
        try:
            yield session, store, path
        finally:
            store.close()


def walk_twin(table: Table, session: Session) -> Session:
    options = {**session.setup.options, "flow": "walk"}
    return Session(session.game, seats=session.setup.seats, seed=session.setup.seed, options=options)


def check_random_play(table: Table, seed: int, rng: random.Random, commands: int) -> None:
    with saved_session(table, seed) as (play, store, path):
        game, flow = play.game, play.game.flow
        walk = walk_twin(table, play)
        walked: list[int] = []  # walk entries per accepted command of the automatic session
        sync(game, table, play, walk, [], probe=False)
        taken = 0
        for _ in range(commands * 4):
            if taken >= commands:
                break
            state = play.state
            weighted = all_lines(table, game, state)
            order = sorted(weighted, key=lambda lw: rng.random() ** (1 / lw[1]), reverse=True)
            for text, _weight in order:
                before = play.state
                outcome = play.perform(command(text))
                if not outcome.accepted:
                    assert play.state == before, f"{text!r} refused but changed the state"
                    continue
                taken += 1
                if text == "undo":
                    for _ in range(walked.pop() if walked else 0):
                        assert walk.perform(Command("undo")).accepted
                    assert msgspec.structs.replace(walk.state, auto=True, auto_runs=play.state.auto_runs) == play.state
                    break
                if before.over is not None:  # only the game's own bookkeeping after its end
                    assert command(text).verb in flow.ending.verbs, f"{text!r} accepted after the end ({before.over})"
                    assert (position(play.state), play.state.over) == (position(before), before.over), text
                w = walk.perform(command(text))
                assert w.accepted, f"{text!r}: accepted in the default flow, refused step by step: {w.reason}"
                walked.append(1 + sync(game, table, play, walk, [text], probe=True, before=before))
                after_command(table, game, play)
                break
            else:
                raise AssertionError(f"no line accepted at {position(play.state)}: {play.view()['prompt']}")
        store.close()
        with Store.open(path) as reopened:
            saved = reopened.load("main")
        assert saved is not None
        replayed = Session(game, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                           entries=saved.entries)
        assert replayed.state == play.state  # the save is the truth


def answered(game: Game, state: GameState, depth: int = 40) -> list[GameState]:
    """The state and, while a question is open, the states after its first answer: the questions
    the run stopped at, answered as a quiet table answers them."""
    states = [state]
    while states[-1].prompt is not None and len(states) <= depth:
        try:
            events = game.decide(states[-1], Command("choose", ("1",)), random.Random(0))
        except Rejected:
            break
        nxt = states[-1]
        for event in events:
            nxt = game.apply(nxt, event)
        states.append(nxt)
    return states


def sync(game: Game, table: Table, play: Session, walk: Session, said: list[str], *, probe: bool,
         before: GameState | None = None) -> int:
    """Press ``next`` in the walk twin through every step the automatic run went through; at each,
    every verb the twin accepts must be accepted where the automatic run stopped, or have been
    accepted right ``before`` the command: the steps the run went through decide nothing, so a verb
    offered at the press that started it is offered at the same moment of the rules. What must not
    happen is a window the run opens and closes again unseen (Oathsworn's encounter setup). Returns
    the presses."""
    target = play.state
    presses = 0
    while position(walk.state) != position(target) and walk.state.over is None:
        if probe and target.over is None:  # an ending the run reached is the rules' answer; undo goes back
            lines = [t for t, _ in all_lines(table, game, walk.state)]
            here = verbs_accepted(game, walk.state, lines) - FLOW_VERBS
            if before is not None:  # offered right before the press: the run opened no window it then closed
                here -= verbs_accepted(game, before, [t for t, _ in all_lines(table, game, before)] + lines)
            theres = answered(game, target)  # an open question defers a verb; it does not take it away
            there_lines = [t for there in theres for t, _ in all_lines(table, game, there)] + lines
            missing = {v for v in here if not any(command(t).verb == v and accepted(game, there, t)
                                                  for t in there_lines for there in theres)}
            if theres[-1].over is not None:
                missing = set()  # answering the questions ends the game: the ending is the rules' answer
            assert not missing, (f"after {said}: {sorted(missing)} accepted at {position(walk.state)} step by step, "
                                 f"refused where the automatic run stopped, {position(target)}")
        outcome = walk.perform(Command("next"))
        assert outcome.accepted, f"the walk twin cannot follow to {position(target)}: {outcome.reason}"
        presses += 1
        assert presses < 200, "the walk twin never reached the automatic run's stop"
    assert position(walk.state) == position(target) and walk.state.over == target.over, (
        f"after {said}: step by step {position(walk.state)} over={walk.state.over}, "
        f"automatic {position(target)} over={target.over}")
    assert msgspec.structs.replace(walk.state, auto=True, auto_runs=target.auto_runs) == target, \
        f"after {said}: the states differ"
    return presses


def after_command(table: Table, game: Game, play: Session) -> None:
    state = play.state
    if state.over is None:
        assert waits_for_table(game.flow, state), f"stopped at {position(state)} with nothing for the table to do"
        return
    for text, _ in all_lines(table, game, state):
        if accepted(game, state, text):
            assert command(text).verb in game.flow.ending.verbs, f"{text!r} accepted after the end ({state.over})"


def random_play(commands: int) -> Callable[..., None]:
    @given(seed=st.integers(0, 50), choices=st.integers(0, 2**32))
    def run(table: Table, seed: int, choices: int) -> None:
        check_random_play(table, seed, random.Random(choices), commands)

    return run


QUICK = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_automatic_runs_stop_where_the_table_acts(name: str) -> None:
    settings(QUICK)(random_play(40))(TABLES[name])


@pytest.mark.stress
@pytest.mark.parametrize("name", sorted(TABLES))
def test_automatic_runs_stop_where_the_table_acts_long(name: str) -> None:
    settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))(random_play(150))(TABLES[name])


ENDINGS_FIRST = replace(TABLES["arkham"], lines=lambda s: [("resolution R1", 50.0), *arkham_lines(s)])
STORY_FIRST = replace(TABLES["oathsworn-story"], lines=lambda s: [("next", 50.0), *oathsworn_lines(s)])


@pytest.mark.parametrize(("protection", "table", "caught"), [
    ("kept", ENDINGS_FIRST, None),
    ("protection-removed: an ended game takes any verb", ENDINGS_FIRST, "accepted after the end"),
    ("kept", STORY_FIRST, None),
    ("protection-removed: no declared stop", STORY_FIRST, "refused where the automatic run stopped"),
], ids=["game-over-kept", "game-over-removed", "setup-stop-kept", "setup-stop-removed"])
def test_the_property_fails_without_the_stops(protection: str, table: Table, caught: str | None,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The same play is caught once the game-over stop is gone (Arkham's resolution taken first), or
    once no stop is declared (Oathsworn's story ended first: the encounter setup is run past)."""
    if protection.endswith("any verb"):
        monkeypatch.setattr(Flow, "refuse_after_end", lambda self, state, verb: None)
    elif protection.endswith("no declared stop"):
        monkeypatch.setattr(Flow, "stop_at", lambda self, state: None)
    run = settings(QUICK, max_examples=3, phases=[Phase.explicit, Phase.generate])(random_play(12))
    if caught is None:
        run(table)
    else:
        with pytest.raises(AssertionError, match=caught):
            run(table)
