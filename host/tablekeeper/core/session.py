"""A game session: the log is the truth. Commands are judged by the game, their events appended
(and committed to the journal before anyone sees the result); undo, redo and rewind move entries
between the active line and a redo stack, and the state is rebuilt by replaying events.

Undo never resets at a turn or round boundary: any entry of the active line can be rewound.
Chance outcomes are in the logged events, so redo reproduces the same draw.

A journal that keeps snapshots (a save) is handed the state at every ``CHECKPOINT_EVERY``-th position
of the active line with the entry that reaches it, and a session resumed from that save starts from
the newest snapshot that still fits and applies only the entries after it. A resume that had to
replay a whole interval or more (every snapshot made by other software, after an update) is
``snapshot_due``: ``keep_snapshot``, called once the game is on screen, stores the state it reached,
so the next resume applies only the entries after it.

With a journal that reads entries back (a save), memory holds a bounded window: the newest
``WINDOW`` active entries and redo entries, the initial state and the newest ``KEEP_CHECKPOINTS``
checkpoints, and a count; an older entry (a long undo chain, a deep ``rewind``, ``entries``) is read
back from the journal. Without one, every entry stays in memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

import msgspec

from tablekeeper.core import file_options, packs, snapshot
from tablekeeper.core.chance import PressRandom
from tablekeeper.core.events import Command, Event, Json, NoticeKind
from tablekeeper.core.game import Game
from tablekeeper.core.numbers import parse_number
from tablekeeper.core.state import GameState
from tablekeeper.errors import NotANumber, Rejected, StoreError

CHECKPOINT_EVERY = 64
WINDOW = 2 * CHECKPOINT_EVERY
"""Active (and redo) entries kept in memory with a readable journal: a replay starts from a checkpoint inside it."""
KEEP_CHECKPOINTS = 2
"""Checkpoints kept besides the initial state with a readable journal."""


class Entry(msgspec.Struct, frozen=True):
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


class Outcome(msgspec.Struct, frozen=True):
    accepted: bool
    reason: str | None = None
    events: tuple[Event, ...] = ()
    entry: int | None = None
    malformed: bool = False
    """Refused because a word could not be read (a number that is not one), not by the rules."""


class Note(msgspec.Struct, frozen=True):
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


class Setup(msgspec.Struct, frozen=True):
    """What a session starts from; with the log it determines every state."""

    game: str
    seats: int
    seed: int
    options: Mapping[str, str] = msgspec.field(default_factory=dict)

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


@runtime_checkable
class ReadableJournal(Journal, Protocol):
    """A journal that gives entries back (``first``..``last``, log indexes, inclusive), so the session
    need not keep them all in memory."""

    def read(self, first: int, last: int) -> Sequence[Entry]: ...


@runtime_checkable
class SnapshotJournal(Journal, Protocol):
    """A journal that keeps a state beside the entry that reached it, in the same write."""

    def append_with(self, entry: Entry, checkpoint: snapshot.Checkpoint) -> None: ...

    def keep(self, index: int, checkpoint: snapshot.Checkpoint) -> bool:
        """Keep a state alone, taken with log entry ``index`` (the newest); a cache: False if not kept."""
        ...


def _step(line: list[Entry], redo: list[Entry], entry: Entry) -> None:
    """Move entries between the active line and the redo stack (its top is its end) as ``entry`` says."""
    if entry.kind == "command":
        line.append(entry)
        redo.clear()
    elif entry.kind == "undo":
        redo.append(line.pop())
    elif entry.kind == "redo":
        line.append(redo.pop())
    elif entry.kind == "rewind":
        at = next((i for i, e in enumerate(line) if e.index == entry.target), None)
        if at is None:
            raise ValueError(f"rewind to entry {entry.target}, which is not an active command")
        redo.extend(reversed(line[at:]))
        del line[at:]
    else:
        raise ValueError(f"unknown log entry kind {entry.kind!r}")


def fold(entries: Iterable[Entry]) -> tuple[list[Entry], list[Entry]]:
    """The active line and the redo stack a log leaves."""
    line: list[Entry] = []
    redo: list[Entry] = []
    for entry in entries:
        _step(line, redo, entry)
    return line, redo


MAX_SEED = 2**63 - 1  # a seed a save can keep (SQLite's INTEGER)


class Session:
    def __init__(self, game: Game, *, seats: int, seed: int, options: Mapping[str, str] | None = None,
                 journal: Journal | None = None, entries: Iterable[Entry] = (), from_save: str | None = None,
                 snapshots: Sequence[snapshot.Stored] = ()) -> None:
        """``from_save`` names the save a setup comes from: its file options must carry content already.
        ``snapshots`` are the save's stored states: the newest that fits starts the replay."""
        self.game = game
        options = dict(options or {})
        if from_save is not None:
            file_options.refuse_paths(options, game.file_options, source=from_save)
        options = packs.record(options, game.name, game.pack_package, from_save=from_save)
        self.setup = Setup(game.name, seats, seed, file_options.embed(options, game.file_options))
        self.initial = game.new_state(seats, seed, self.setup.options)
        self.journal = journal
        self._kept: list[Entry] | None = []  # every entry, until a readable journal holds them
        self._count = 0
        self._line: list[Entry] = []  # the newest active entries; ``_line_hidden`` older ones are in the journal
        self._line_hidden = 0
        self._redo: list[Entry] = []  # the top of the redo stack; ``_redo_hidden`` entries below it
        self._redo_hidden = 0
        self._checkpoints: dict[int, GameState] = {0: self.initial}
        self.state = self.initial
        self.notes: tuple[Note, ...] = ()
        self._snapshot_key: str | None = None
        for entry in entries:
            self._record(entry)
        self.resumed_from = 0
        """The active-line position of the snapshot this session was resumed from (0: replayed whole)."""
        if snapshots:
            found = snapshot.choose(snapshots, [e.index for e in self._line], self.snapshot_key,
                                    game.record_type, from_save or "the save")
            if found is not None:
                self._checkpoints[found.position] = found.state
                self.resumed_from = found.position
        self.snapshot_due = len(self._line) - self.resumed_from >= CHECKPOINT_EVERY
        """Whether the resume replayed an interval or more past any fitting snapshot (a snapshot should
        have spared it) and none has been kept since: ``keep_snapshot`` then spares the next resume."""
        self.state = self._state_at(len(self._line))
        self._bound()

    # --- reading ------------------------------------------------------------------------------
    @property
    def snapshot_key(self) -> str:
        """What this session's snapshots are valid for (the software, the setup with its packs)."""
        if self._snapshot_key is None:
            module = type(self.game).__module__  # a game's package, or its own module outside one
            self._snapshot_key = snapshot.key(self.setup.to_json(), module.rpartition(".")[0] or module)
        return self._snapshot_key

    @property
    def log_length(self) -> int:
        return self._count

    @property
    def entries(self) -> Sequence[Entry]:
        """Every log entry, oldest first (read back from the journal when memory holds a window)."""
        if self._kept is not None:
            return tuple(self._kept)
        return tuple(self._read_all())

    @property
    def line(self) -> Sequence[Entry]:
        """The active command entries, oldest first."""
        if not self._line_hidden:
            return tuple(self._line)
        return tuple(fold(self._read_all())[0])

    def held(self) -> tuple[tuple[Entry, ...], tuple[GameState, ...]]:
        """The log entries and checkpoint states this session holds in memory (what its log costs)."""
        entries = {id(e): e for e in (*(self._kept or ()), *self._line, *self._redo)}
        return tuple(entries.values()), tuple(self._checkpoints.values())

    def view(self) -> dict[str, Json]:
        out = self.game.view(self.state)
        out["log_length"] = self.log_length
        out["notices"] = list(self.notices)
        out["automatic"] = [n.text for n in self.notes if n.kind is NoticeKind.AUTO]
        return out

    @property
    def undoable(self) -> Entry | None:
        """The entry ``undo`` would take back, when memory holds it (a console shows it on its undo)."""
        return self._line[-1] if self._line else None

    @property
    def notices(self) -> tuple[str, ...]:
        """The last entry's notices for people (the steps the station ran itself are in ``notes``)."""
        return tuple(n.text for n in self.notes if n.kind is not NoticeKind.AUTO)

    def replay(self) -> GameState:
        """Fold every active event onto the initial state (the log is the truth)."""
        state = self.initial
        for entry in self.line:
            for event in entry.events:
                state = self.game.apply(state, event)
        return state

    # --- changing ------------------------------------------------------------------------------
    def submit(self, command: Command) -> Outcome:
        index = self._count + 1
        # seeded by the position in the active line, not the log index: an undone draw, drawn again,
        # gives the same outcome (undo is not a free re-draw). Each step the station ran by itself
        # counts as the press it saved, so automatic and step-by-step sessions draw alike.
        runs = self.state.auto_runs
        rng = PressRandom(self.setup.seed, self._line_length + 1 + runs, runs)
        try:
            events = self.game.decide(self.state, command, rng)
        except Rejected as exc:
            return Outcome(False, exc.reason, malformed=isinstance(exc, NotANumber))
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
            if len(command.args) != 1:
                return Outcome(False, "usage: rewind K (a log entry number)")
            try:
                target = parse_number(command.args[0], "rewind K (a log entry number)")
            except NotANumber as exc:
                return Outcome(False, exc.reason, malformed=True)
            return self.rewind(target)
        if command.verb in ("undo", "redo"):
            return Outcome(False, f"usage: {command.verb}")
        return self.submit(command)

    def undo(self) -> Outcome:
        if not self._line_length:
            return Outcome(False, "nothing to undo")
        if not self._line:
            self._reload()
        taken = self._line[-1]
        outcome = self._marker(Entry(self._count + 1, "undo"))
        self.notes = (Note(NoticeKind.INFO, f"undone: {self._in_words(taken)}"),)
        return outcome

    def _in_words(self, entry: Entry) -> str:
        """What undoing ``entry`` takes back, a track's change in the players' words ("Roland horror +1")."""
        command = entry.command
        if command is not None and command.verb in ("add", "set") and len(command.args) == 2 \
                and command.args[0] in self.state.tracks:
            label, amount = self.game.track_label(self.state, command.args[0]), command.args[1]
            if command.verb == "set":
                return f"{label} set to {amount}"
            return f"{label} {amount if amount.startswith(('+', '-')) else '+' + amount}"
        return taken_back(entry)

    def redo(self) -> Outcome:
        if not self._redo and not self._redo_hidden:
            return Outcome(False, "nothing to redo")
        return self._marker(Entry(self._count + 1, "redo"))

    def rewind(self, target: int) -> Outcome:
        """Return to the state just before log entry ``target``."""
        if self._line_hidden and target >= 1 and (not self._line or target < self._line[0].index):
            self._reload()  # the active line's indexes rise: only an older target can be hidden
        if not any(e.index == target for e in self._line):
            if self._line_hidden and len(self._line) < 8:
                self._reload()  # the refusal names the eight newest active entries
            active = ", ".join(str(e.index) for e in self._line[-8:]) or "none"
            self._bound()
            return Outcome(False, f"entry {target} is not an active command (recent: {active})")
        return self._marker(Entry(self._count + 1, "rewind", target=target))

    def keep_snapshot(self) -> bool:
        """When ``snapshot_due``, keep the current state in the save under this software's key (once:
        a cache whose write failed is not retried at every idle moment). True when one was kept."""
        if not self.snapshot_due or not self._line or not isinstance(self.journal, SnapshotJournal):
            return False
        self.snapshot_due = False
        checkpoint = snapshot.Checkpoint(self._line_length, self._line[-1].index, self.state, self.snapshot_key)
        return self.journal.keep(self._count, checkpoint)

    # --- internals ------------------------------------------------------------------------------
    def _marker(self, entry: Entry) -> Outcome:
        self._commit(entry)
        return Outcome(True, None, (), entry.index)

    @property
    def _line_length(self) -> int:
        return self._line_hidden + len(self._line)

    def _commit(self, entry: Entry) -> None:
        if self._needs_journal(entry):
            self._reload()  # before the append: a failed read leaves the log and the session as they were
        grown = entry if entry.kind == "command" else self._redo[-1] if entry.kind == "redo" else None
        state = None
        if grown is not None:  # the line grows by one entry: its events on the current state
            state = self.state
            for event in grown.events:
                state = self.game.apply(state, event)
        if self.journal is not None:  # durable before the result is shown
            position = self._line_length + 1
            if state is not None and grown is not None and position % CHECKPOINT_EVERY == 0 \
                    and isinstance(self.journal, SnapshotJournal):
                self.journal.append_with(entry, snapshot.Checkpoint(position, grown.index, state, self.snapshot_key))
                self.snapshot_due = False
            else:
                self.journal.append(entry)
        self._record(entry)
        if state is not None:
            self.state = state
            self._maybe_checkpoint()
        else:
            self.state = self._state_at(self._line_length)
        self.notes = tuple(Note.of(e) for e in entry.events if e.kind == "notice")
        self._bound()

    def _record(self, entry: Entry) -> None:
        _step(self._line, self._redo, entry)
        self._count += 1
        if self._kept is not None:
            self._kept.append(entry)
        if entry.kind == "command":
            self._redo_hidden = 0
        elif entry.kind in ("undo", "rewind"):
            self._drop_checkpoints()

    def _needs_journal(self, entry: Entry) -> bool:
        """Whether ``entry`` reaches past the window (an entry, or the events from a checkpoint)."""
        if not self._line_hidden and not self._redo_hidden:
            return False
        if entry.kind == "redo":
            return not self._redo
        if entry.kind == "undo":
            position = self._line_length - 1
        elif entry.kind == "rewind":
            at = next((i for i, e in enumerate(self._line) if e.index == entry.target), None)
            if at is None:
                return True
            position = self._line_hidden + at
        else:
            return False
        base = max(p for p in self._checkpoints if p <= position)
        return base < self._line_hidden

    def _read_all(self) -> Sequence[Entry]:
        if not isinstance(self.journal, ReadableJournal):
            raise StoreError("the session's log is no longer readable (its journal was removed)")
        return self.journal.read(1, self._count) if self._count else ()

    def _reload(self) -> None:
        """Read the whole line and redo stack back from the journal (until the next commit bounds them)."""
        line, redo = fold(self._read_all())
        if (len(line) != self._line_length or len(redo) != self._redo_hidden + len(self._redo)
                or [e.index for e in line[len(line) - len(self._line):]] != [e.index for e in self._line]):
            raise StoreError("the saved log does not match the session in memory")
        self._line, self._redo = line, redo
        self._line_hidden = self._redo_hidden = 0

    def _bound(self) -> None:
        """With a readable journal, keep only the window in memory."""
        if not isinstance(self.journal, ReadableJournal):
            return
        self._kept = None
        if (drop := len(self._line) - WINDOW) > 0:
            del self._line[:drop]
            self._line_hidden += drop
        if (drop := len(self._redo) - WINDOW) > 0:
            del self._redo[:drop]
            self._redo_hidden += drop
        for position in sorted(p for p in self._checkpoints if p)[:-KEEP_CHECKPOINTS]:
            del self._checkpoints[position]

    def _drop_checkpoints(self) -> None:
        n = self._line_length
        for pos in [p for p in self._checkpoints if p > n]:
            del self._checkpoints[pos]

    def _maybe_checkpoint(self) -> None:
        n = self._line_length
        if n % CHECKPOINT_EVERY == 0:
            self._checkpoints[n] = self.state

    def _state_at(self, position: int) -> GameState:
        base = max(p for p in self._checkpoints if p <= position)
        if base < self._line_hidden:
            self._reload()
        state = self._checkpoints[base]
        for i in range(base, position):
            for event in self._line[i - self._line_hidden].events:
                state = self.game.apply(state, event)
            if (i + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[i + 1] = state
        return state
