"""The Blight procedure (SI-BLIGHT-1..4, SI-VITALITY-1..4, SI-BLIGHTCARD-1..2) on a small,
explicit model of the lands, so the exact order of the FAQ can be run and tested step by step.

The model is resumable: a cascade needs the players' choice of an adjacent land, so
:meth:`BlightRun.add` stops at step 4 and reports the cascade; the caller asks the players and
calls :meth:`BlightRun.add` again for the chosen land.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tablekeeper.games.spirit_island.data import BlightCard


def setup_amount(card: BlightCard | None, players: int, space_per_player: int = 5) -> int:
    """SI-BLIGHTCARD-1: the healthy side holds per-player x players + 1; no card: space x players + 1."""
    per_player = card.healthy_per_player if card else space_per_player
    return per_player * players + 1


def flip_amount(card: BlightCard, players: int) -> int:
    """SI-BLIGHTCARD-1: the Blighted side holds per-player x players, with no +1."""
    return card.blighted_per_player * players


@dataclass
class Pool:
    """The Blight card (or space) as the procedure sees it."""

    count: int
    players: int
    card: BlightCard | None = None
    flipped: bool = False

    def take(self, log: list[tuple[str, ...]]) -> str | None:
        """SI-BLIGHT-1 step 1: take one Blight; flip on emptying. Returns "defeat" if the Blighted
        side (or the space) ran out, "draw" if a Still Healthy side ran out (a new Blight card is
        drawn and comes into play already Blighted)."""
        self.count -= 1
        log.append(("take", str(self.count)))
        if self.count > 0:
            return None
        if self.flipped and self.card is not None and self.card.still_healthy:
            self.count = 0
            log.append(("draw", self.card.name))
            return "draw"
        if self.card is None or self.flipped:
            log.append(("defeat", "the Blight ran out"))
            return "defeat"
        self.flipped = True
        self.count = flip_amount(self.card, self.players)
        log.append(("flip", str(self.count)))
        if self.card.immediately:
            log.append(("immediately", self.card.immediately))
        return None

    def give_back(self, n: int = 1) -> None:
        """SI-BLIGHTCARD-2 / SI-REPLACE-3: removed or replaced Blight returns; the card never
        flips back to healthy."""
        self.count += n


@dataclass
class Land:
    name: str
    blight: int = 0
    vitality: int = 0
    presence: list[str] = field(default_factory=list)  # piece ids, "seat:n"
    adjacent: tuple[str, ...] = ()


SaveHook = Callable[[str, str], "str | None"]  # (presence id, land) -> land it is pushed to, or None


@dataclass
class BlightRun:
    """One action's Blight additions: the destroyed-Presence set (SI-BLIGHT-4), the ordered log,
    and the "after" triggers waiting for the causing action to finish (step 6)."""

    pool: Pool
    lands: dict[str, Land]
    when_added: Sequence[str] = ()
    after_added: Sequence[str] = ()
    during_setup: bool = False
    save: SaveHook | None = None
    log: list[tuple[str, ...]] = field(default_factory=list)
    subject_to_destruction: set[str] = field(default_factory=set)
    triggers: list[str] = field(default_factory=list)
    result: str | None = None

    def add(self, land_name: str, count: int = 1) -> list[str]:
        """Add ``count`` Blight at once to a land (steps 1-4 each). Returns the lands from which a
        cascade must go on (the players choose an adjacent land for each)."""
        land = self.lands[land_name]
        cascades: list[str] = []
        if land.blight == 0 and land.vitality:
            # SI-VITALITY-1/3, gaps 2-3: checked before step 1; the batch is one event.
            stopped = min(land.vitality, count)
            land.vitality -= stopped
            count -= stopped
            self.log.append(("prevented", land_name, str(stopped)))
        for _ in range(count):
            had_blight = land.blight > 0
            if self.pool.take(self.log) == "defeat":
                self.result = "defeat"
            land.blight += 1
            self.log.append(("place", land_name, str(land.blight)))
            self._when(land)
            if had_blight:
                self.log.append(("cascade", land_name))
                cascades.append(land_name)
        return cascades

    def _when(self, land: Land) -> None:
        """Step 3: destroy Presence (once per piece per action) and run "when" effects."""
        by_seat: dict[str, str] = {}
        for piece in land.presence:
            seat = piece.split(":")[0]
            if seat not in by_seat and piece not in self.subject_to_destruction:
                by_seat[seat] = piece
        for piece in by_seat.values():
            self.subject_to_destruction.add(piece)
            land.presence.remove(piece)
            to = self.save(piece, land.name) if self.save else None
            if to is not None:
                self.lands[to].presence.append(piece)
                self.log.append(("saved", piece, to))
            else:
                self.log.append(("destroy_presence", piece, land.name))
        if not self.during_setup:
            for effect in self.when_added:
                self.log.append(("when", effect, land.name))
            self.triggers.extend(self.after_added)

    def finish(self) -> list[str]:
        """Steps 5-6: the causing action has finished; the queued triggered actions run now."""
        self.log.append(("finish",))
        fired, self.triggers = self.triggers, []
        for effect in fired:
            self.log.append(("trigger", effect))
        return fired


def remove(pool: Pool, land: Land, n: int = 1) -> None:
    """SI-BLIGHTCARD-2 / SI-REPLACE-3: Blight leaving the island goes back to the card or space."""
    land.blight -= n
    pool.give_back(n)
