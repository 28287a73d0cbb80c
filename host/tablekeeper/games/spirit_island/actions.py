"""A model of actions on individual pieces the seed rulings need: per-action memory (upgrades,
destroyed pieces), and triggered actions that wait until the action that set them off has
completely finished (SI-TRIGGER-1/4, SI-REPLACE-1/2, SI-MOVE-1, SI-ADD-1). The table's own
actions, with their counts-as choices, are ``table_actions`` on the core's timing stack."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tablekeeper.errors import Rejected


@dataclass
class Action:
    name: str
    replaced: set[tuple[str, str]] = field(default_factory=set)  # (instruction, piece)
    destroyed: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class PieceEvent:
    """How a piece changed place or identity (SI-MOVE-1, SI-REPLACE-2)."""

    how: str  # "added" | "moved" | "replaced" | "removed" | "destroyed"
    piece: str
    land: str
    source: str = ""


@dataclass(frozen=True, slots=True)
class Watcher:
    """A triggered action: "after <how> into <land>, do <effect>" (land "*" = any)."""

    how: str
    land: str
    effect: str
    kind: str = "*"


Hook = Callable[[str], None]


@dataclass
class Engine:
    """Actions run outer -> nested; triggered actions queue and run after the outermost action that
    caused them completes (catalogue gap 4), each as an action of its own."""

    stack: list[Action] = field(default_factory=list)
    watchers: list[Watcher] = field(default_factory=list)
    queue: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    events: list[PieceEvent] = field(default_factory=list)
    on_run: Hook | None = None

    # --- actions ------------------------------------------------------------------------------
    def begin(self, name: str) -> Action:
        action = Action(name)
        self.stack.append(action)
        self.ran.append(f"begin {name}")
        return action

    @property
    def current(self) -> Action:
        if not self.stack:
            raise Rejected("no action is in progress")
        return self.stack[-1]

    def end(self) -> None:
        action = self.stack.pop()
        self.ran.append(f"end {action.name}")
        if not self.stack:
            self._run_triggers()

    def _run_triggers(self) -> None:
        while self.queue:
            effect = self.queue.pop(0)
            self.begin(effect)
            if self.on_run:
                self.on_run(effect)
            self.end()

    # --- upgrades -------------------------------------------------------------------------------
    def replace_piece(self, instruction: str, piece: str) -> None:
        """SI-REPLACE-1: the same piece may be upgraded/downgraded again only by another instruction
        or another action. SI-REPLACE-2: a replacement is neither added nor moved."""
        key = (instruction, piece)
        if key in self.current.replaced:
            raise Rejected(f"{piece} was already replaced by {instruction} in this action")
        self.current.replaced.add(key)

    # --- pieces and triggers --------------------------------------------------------------------
    def piece(self, how: str, piece: str, land: str, source: str = "") -> None:
        """Record a piece event; watchers for exactly that kind of change queue their effect."""
        self.events.append(PieceEvent(how, piece, land, source))
        for w in self.watchers:
            if w.how == how and w.land in ("*", land) and w.kind in ("*", piece):
                self.queue.append(w.effect)
        if not self.stack:
            self._run_triggers()

    def watch(self, watcher: Watcher) -> None:
        self.watchers.append(watcher)
