"""A game session: the log is the truth. Commands are judged by the game, their events appended
(and committed to the journal before anyone sees the result); undo, redo and rewind move entries
between the active line and a redo stack, and the state is rebuilt by replaying events.

Undo never resets at a turn or round boundary: any entry of the active line can be rewound.
Chance outcomes are in the logged events, so redo reproduces the same draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tablekeeper.core import file_options
from tablekeeper.core.chance import PressRandom
from tablekeeper.core.events import Command, Event, Json, NoticeKind
from tablekeeper.core.game import Game
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected

CHECKPOINT_EVERY = 64


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry: an accepted command with its events, or an undo/redo/rewind marker."""

    index: int
    kind: str  # "command" | "undo" | "redo" | "rewind"
    command: Command | None = None
    events: tuple[Event, ...] = ()
    target: int | None = None

    def to_json(self) -> dict[str, Json]:
        return {
            "index": self.index,
            "kind": self.kind,
            "command": self.command.to_json() if self.command else None,
            "events": [e.to_json() for e in self.events],
            "target": self.target,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Json]) -> Entry:
        cmd = raw.get("command")
        return cls(
            index=int(raw["index"]),
            kind=str(raw["kind"]),
            command=Command.from_json(cmd) if cmd else None,
            events=tuple(Event.from_json(e) for e in raw.get("events", ())),
            target=raw.get("target"),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    accepted: bool
    reason: str | None = None
    events: tuple[Event, ...] = ()
    entry: int | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """A notice of the last entry, with its kind (data the station acts on) and its text (for people)."""

    kind: NoticeKind
    text: str

    @classmethod
    def of(cls, event: Event) -> Note:
        try:
            kind = NoticeKind(str(event.get("category", "info")))  # the event's own kind is "notice"
        except ValueError:
            kind = NoticeKind.INFO
        return cls(kind, str(event["text"]))


@dataclass(frozen=True, slots=True)
class Setup:
    """What a session starts from; with the log it determines every state."""

    game: str
    seats: int
    seed: int
    options: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        return {"game": self.game, "seats": self.seats, "seed": self.seed, "options": dict(self.options)}


def taken_back(entry: Entry) -> str:
    """What undoing ``entry`` takes back: its command and any outcome it drew."""
    text = entry.command.text() if entry.command else entry.kind
    drawn = [f"{e['source']} {e['outcome']}" for e in entry.events if e.kind == "source.drawn"]
    return text + (f" (drew {', '.join(drawn)})" if drawn else "")


class Journal(Protocol):
    """Where entries are made durable (the SQLite store, or nothing)."""

    def append(self, entry: Entry) -> None: ...


class Session:
    def __init__(self, game: Game, *, seats: int, seed: int, options: Mapping[str, str] | None = None,
                 journal: Journal | None = None, entries: Iterable[Entry] = (), from_save: str | None = None) -> None:
        """``from_save`` names the save a setup comes from: its file options must carry content already."""
        self.game = game
        options = dict(options or {})
        if from_save is not None:
            file_options.refuse_paths(options, game.file_options, source=from_save)
        self.setup = Setup(game.name, seats, seed, file_options.embed(options, game.file_options))
        self.initial = game.new_state(seats, seed, self.setup.options)
        self.journal = journal
        self.entries: list[Entry] = []
        self._line: list[Entry] = []
        self._redo: list[Entry] = []
        self._checkpoints: dict[int, GameState] = {0: self.initial}
        self.state = self.initial
        self.notes: tuple[Note, ...] = ()
        for entry in entries:
            self._record(entry)
        self.state = self._state_at(len(self._line))

    # --- reading ------------------------------------------------------------------------------
    @property
    def log_length(self) -> int:
        return len(self.entries)

    @property
    def line(self) -> Sequence[Entry]:
        """The active command entries, oldest first."""
        return tuple(self._line)

    def view(self) -> dict[str, Json]:
        out = self.game.view(self.state)
        out["log_length"] = self.log_length
        out["notices"] = list(self.notices)
        out["automatic"] = [n.text for n in self.notes if n.kind is NoticeKind.AUTO]
        return out

    @property
    def notices(self) -> tuple[str, ...]:
        """The last entry's notices for people (the steps the station ran itself are in ``notes``)."""
        return tuple(n.text for n in self.notes if n.kind is not NoticeKind.AUTO)

    def replay(self) -> GameState:
        """Fold every active event onto the initial state (the log is the truth)."""
        state = self.initial
        for entry in self._line:
            for event in entry.events:
                state = self.game.apply(state, event)
        return state

    # --- changing ------------------------------------------------------------------------------
    def submit(self, command: Command) -> Outcome:
        index = len(self.entries) + 1
        # seeded by the position in the active line, not the log index: an undone draw, drawn again,
        # gives the same outcome (undo is not a free re-draw). Each step the station ran by itself
        # counts as the press it saved, so automatic and step-by-step sessions draw alike.
        runs = self.state.auto_runs
        rng = PressRandom(self.setup.seed, len(self._line) + 1 + runs, runs)
        try:
            events = self.game.decide(self.state, command, rng)
        except Rejected as exc:
            return Outcome(False, exc.reason)
        entry = Entry(index, "command", command, tuple(events))
        self._commit(entry)
        return Outcome(True, None, entry.events, index)

    def perform(self, command: Command) -> Outcome:
        """Run any command: the session's own verbs (undo, redo, rewind K) or the game's."""
        if command.verb == "undo" and not command.args:
            return self.undo()
        if command.verb == "redo" and not command.args:
            return self.redo()
        if command.verb == "rewind":
            if len(command.args) != 1 or not command.args[0].isdigit():
                return Outcome(False, "usage: rewind K (a log entry number)")
            return self.rewind(int(command.args[0]))
        if command.verb in ("undo", "redo"):
            return Outcome(False, f"usage: {command.verb}")
        return self.submit(command)

    def undo(self) -> Outcome:
        if not self._line:
            return Outcome(False, "nothing to undo")
        taken = self._line[-1]
        outcome = self._marker(Entry(len(self.entries) + 1, "undo"))
        self.notes = (Note(NoticeKind.INFO, f"undone: {taken_back(taken)}"),)
        return outcome

    def redo(self) -> Outcome:
        if not self._redo:
            return Outcome(False, "nothing to redo")
        return self._marker(Entry(len(self.entries) + 1, "redo"))

    def rewind(self, target: int) -> Outcome:
        """Return to the state just before log entry ``target``."""
        if not any(e.index == target for e in self._line):
            active = ", ".join(str(e.index) for e in self._line[-8:]) or "none"
            return Outcome(False, f"entry {target} is not an active command (recent: {active})")
        return self._marker(Entry(len(self.entries) + 1, "rewind", target=target))

    # --- internals ------------------------------------------------------------------------------
    def _marker(self, entry: Entry) -> Outcome:
        self._commit(entry)
        return Outcome(True, None, (), entry.index)

    def _commit(self, entry: Entry) -> None:
        if self.journal is not None:
            self.journal.append(entry)  # durable before the result is shown
        before = len(self._line)
        self._record(entry)
        if entry.kind == "command" or (entry.kind == "redo" and len(self._line) == before + 1):
            state = self.state
            for event in self._line[-1].events:
                state = self.game.apply(state, event)
            self.state = state
            self._maybe_checkpoint()
        else:
            self.state = self._state_at(len(self._line))
        self.notes = tuple(Note.of(e) for e in entry.events if e.kind == "notice")

    def _record(self, entry: Entry) -> None:
        self.entries.append(entry)
        if entry.kind == "command":
            self._line.append(entry)
            self._redo.clear()
        elif entry.kind == "undo":
            self._redo.append(self._line.pop())
            self._drop_checkpoints()
        elif entry.kind == "redo":
            self._line.append(self._redo.pop())
        elif entry.kind == "rewind":
            at = next((i for i, e in enumerate(self._line) if e.index == entry.target), None)
            if at is None:
                raise ValueError(f"rewind to entry {entry.target}, which is not an active command")
            self._redo.extend(reversed(self._line[at:]))
            del self._line[at:]
            self._drop_checkpoints()
        else:
            raise ValueError(f"unknown log entry kind {entry.kind!r}")

    def _drop_checkpoints(self) -> None:
        n = len(self._line)
        for pos in [p for p in self._checkpoints if p > n]:
            del self._checkpoints[pos]

    def _maybe_checkpoint(self) -> None:
        n = len(self._line)
        if n % CHECKPOINT_EVERY == 0:
            self._checkpoints[n] = self.state

    def _state_at(self, position: int) -> GameState:
        base = max(p for p in self._checkpoints if p <= position)
        state = self._checkpoints[base]
        for i in range(base, position):
            for event in self._line[i].events:
                state = self.game.apply(state, event)
            if (i + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[i + 1] = state
        return state
