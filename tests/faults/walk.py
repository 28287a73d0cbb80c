"""Game-agnostic random play: a seeded walk over the verbs every game shares, keeping only the lines
the session accepts, so a script can be replayed line for line (one log entry per line) elsewhere."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tablekeeper import games
from tablekeeper.core.events import Command
from tablekeeper.core.game import Game
from tablekeeper.core.session import Session
from tablekeeper.core.state import GameState
from tablekeeper.errors import TablekeeperError
from tests.core.fixture_game import GAME as FIXTURE

FIXTURE_MODULE = "tests.core.fixture_game"


def playable_games() -> list[Game]:
    """The registered games that load, or the engine's fixture game while none has landed."""
    loaded = []
    for name in games.names():
        try:
            loaded.append(games.load(name))
        except (ImportError, AttributeError, TablekeeperError):
            continue  # a game package still being written (no GAME yet) is not playable
    return loaded or [FIXTURE]


def primary_game() -> Game:
    """The game the station starts with (Arkham) when it loads, else the first playable one."""
    loaded = playable_games()
    return next((g for g in loaded if g.name == "arkham"), loaded[0])


def candidates(game: Game, state: GameState, rng: random.Random) -> list[str]:
    """Lines worth trying now (flow moves, prompt answers, track nudges, draws, undo/redo), in a
    random order weighted so the walk moves through rounds rather than only nudging tracks."""
    weighted = [("next", 8.0), ("undo", 8.0 if state.over else 1.0), ("redo", 1.0)]
    if state.prompt is not None:
        weighted += [(f"choose {n}", 4.0) for n in range(1, len(state.prompt.options) + 1)]
    if state.active_seat is not None:
        weighted.append((f"pass {state.active_seat}", 2.0))
    weighted += [(f"done {seat}", 1.0) for seat in state.seat_numbers()]
    tracks = game.adjustable(state)
    for track in rng.sample(tracks, min(3, len(tracks))):
        weighted += [(f"add {track} +1", 1.0), (f"add {track} -1", 1.0)]
    weighted += [(f"draw {name}", 1.0) for name in sorted(state.sources)]
    # Efraimidis-Spirakis: a weighted random permutation
    return [line for line, w in sorted(weighted, key=lambda lw: rng.random() ** (1 / lw[1]), reverse=True)]


@dataclass
class Walk:
    """An accepted-only script and the state after each line, by log length."""

    game: Game
    seats: int
    seed: int
    lines: list[str] = field(default_factory=list)
    states: dict[int, GameState] = field(default_factory=dict)


def random_walk(game: Game, *, length: int, seed: int, seats: int | None = None) -> Walk:
    seats = seats if seats is not None else game.seats_default
    session = Session(game, seats=seats, seed=seed)
    walk = Walk(game, seats, seed, states={0: session.state})
    rng = random.Random(seed)
    while len(walk.lines) < length:
        for line in candidates(game, session.state, rng):
            verb, *args = line.split()
            if session.perform(Command(verb, tuple(args))).accepted:
                walk.lines.append(line)
                walk.states[session.log_length] = session.state
                break
        else:
            raise AssertionError(f"{game.name}: no shared verb is accepted in {session.view()}")
    return walk
