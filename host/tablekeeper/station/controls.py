"""Button roles -> commands, the same for the real panel, the simulator and scripts.

While a prompt is open, ``up``/``down``/``select`` move through its options and ``next`` chooses the
one shown, so every prompt can be answered from the panel. Otherwise ``up``/``down`` change the
selected track, named on the display before the first press ("+/- Roland damage: 0"); repeated
presses within ``pending_window_s`` gather into one pending change shown on the display ("Roland
damage 0 -> 2 (+2)") and enter the game as one command, so a player counts on the screen, not in
their head. ``back`` cancels a pending change, else undoes;
holding ``back`` redoes. The clock is passed in, so tests never sleep.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from tablekeeper.core.events import Command
from tablekeeper.core.flow import waiting_for
from tablekeeper.core.game import Game
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import SeatTrack
from tablekeeper.errors import Rejected
from tablekeeper.ui.compose import Pointing

ROLES = ("next", "back", "select", "up", "down", "menu")


def is_role(role: str) -> bool:
    if role in ROLES:
        return True
    owner = SeatTrack.parse(role)
    return owner is not None and owner.track in ("a", "b")


class Pending(msgspec.Struct, frozen=True):
    track: str
    start: int
    delta: int
    last_s: float

    @property
    def target(self) -> int:
        return self.start + self.delta

    def text(self, label: str | None = None) -> str:
        """The change as the display shows it, the track in the players' words: "Roland damage 0 -> 2 (+2)"."""
        return f"{label or self.track} {self.start} -> {self.target} ({self.delta:+d})"


class Controls:
    def __init__(self, game: Game, *, clock: Callable[[], float], pending_window_s: float = 1.5,
                 hold_step: int = 5) -> None:
        self.game = game
        self.clock = clock
        self.pending_window_s = pending_window_s
        self.hold_step = hold_step
        self.pending: Pending | None = None
        self._selected: str | None = None
        self._prompt_key: tuple[str, tuple[str, ...]] | None = None
        self._option = 0

    def option(self, state: GameState) -> int | None:
        """The 0-based prompt option the panel is pointing at, or None without a prompt."""
        prompt = state.prompt
        if prompt is None:
            return None
        key = (prompt.id, prompt.options)
        if key != self._prompt_key:
            self._prompt_key, self._option = key, 0
        return min(self._option, len(prompt.options) - 1)

    def prompt_text(self, state: GameState) -> str | None:
        """The banner for an open prompt: ``"2 of 3: rain"``, to be confirmed with ``next``."""
        index = self.option(state)
        if index is None or state.prompt is None:
            return None
        return f"{index + 1} of {len(state.prompt.options)}: {state.prompt.options[index]}"

    def pointing(self, state: GameState) -> Pointing:
        """What the controls point at, for ``ui.compose``: the selected track (and, before a press, the
        line that says what +/- change), the change being counted, the answer NEXT would choose."""
        selected = self.selected(state)
        pending = self.pending
        label = self.game.track_label(state, pending.track) if pending is not None else None
        ready = None
        if selected is not None and pending is None and state.prompt is None:
            ready = f"+/- {self.game.track_label(state, selected)}: {self.game.counter(state, selected).value}"
        return Pointing(selected, pending.text(label) if pending is not None else None,
                        self.prompt_text(state), self.option(state), ready)

    def selected(self, state: GameState) -> str | None:
        names = self.game.adjustable(state)
        if self._selected in names:
            return self._selected
        return names[0] if names else None

    def press(self, role: str, state: GameState) -> list[Command]:
        return self._handle(role, state, held=False)

    def hold(self, role: str, state: GameState) -> list[Command]:
        return self._handle(role, state, held=True)

    def repeat(self, role: str, state: GameState) -> list[Command]:
        """An auto-repeat tick while ``up``/``down`` is held: one more step."""
        if role in ("up", "down") and state.prompt is None:
            return self._adjust(state, 1 if role == "up" else -1)
        return []

    def tick(self, state: GameState) -> list[Command]:
        """Commit a pending change once the window has passed without another press."""
        if self.pending and self.clock() >= self.pending.last_s + self.pending_window_s:
            return self.flush()
        return []

    def flush(self) -> list[Command]:
        pending, self.pending = self.pending, None
        if pending is None or pending.delta == 0:
            return []
        return [Command("add", (pending.track, f"{pending.delta:+d}"), origin="button")]

    def _handle(self, role: str, state: GameState, held: bool) -> list[Command]:
        if not is_role(role):
            raise Rejected(f"unknown button {role!r} (next, back, select, up, down, menu, seatN.a, seatN.b)")
        index = self.option(state)
        if index is not None and state.prompt is not None and role in ("up", "down", "select", "next"):
            out = self.flush()
            if role == "next":
                return [*out, Command("choose", (str(index + 1),), origin="button")]
            step = -1 if role == "up" or (role == "select" and held) else 1
            self._option = (index + step) % len(state.prompt.options)
            return out
        if role in ("up", "down"):
            step = self.hold_step if held else 1
            return self._adjust(state, step if role == "up" else -step)
        if role == "back" and self.pending is not None and not held:
            self.pending = None  # cancel what was being counted, nothing entered the game
            return []
        out = self.flush()
        if role == "next":
            out.append(Command("next", origin="button"))
        elif role == "back":
            out.append(Command("redo" if held else "undo", origin="button"))
        elif role == "select":
            self._cycle(state, -1 if held else 1)
        elif role == "menu":
            out.append(Command("menu", origin="button"))
        else:
            cmd = self.game.button(state, role, held)
            if cmd is None:
                raise Rejected(does_nothing(role, state))
            out.append(cmd)
        return out

    def _cycle(self, state: GameState, direction: int) -> None:
        names = self.game.adjustable(state)
        if not names:
            raise Rejected("nothing to select")
        current = self.selected(state)
        i = names.index(current) if current in names else 0
        self._selected = names[(i + direction) % len(names)]

    def _adjust(self, state: GameState, delta: int) -> list[Command]:
        track = self.selected(state)
        if track is None:
            raise Rejected("nothing to adjust")
        out: list[Command] = []
        if self.pending is not None and self.pending.track != track:
            out = self.flush()
        counter = self.game.counter(state, track)
        start = self.pending.start if self.pending else counter.value
        total = (self.pending.delta if self.pending else 0) + delta
        target = start + total
        if counter.lo is not None:
            target = max(counter.lo, target)
        if counter.hi is not None:
            target = min(counter.hi, target)
        self.pending = Pending(track, start, target - start, self.clock())
        return out


def does_nothing(role: str, state: GameState) -> str:
    """Why a seat button did nothing, naming the seats the table is waiting for."""
    waiting = waiting_for(state)
    who = ("; waiting for seat " + ", ".join(str(s) for s in waiting)) if waiting else ""
    owner = SeatTrack.parse(role)
    name = role if owner is None else f"seat {owner.seat}'s {owner.track.upper()} button"  # as printed: 2A
    return f"{name} does nothing now{who}"
