"""What the station knows about a named land (``A3`` is land 3 of board A): Blight, Vitality,
Defend, Dahan, Badlands, terrain and each Spirit's Presence, as one typed record that the Blight
procedure, the verbs and the Ravage questions all read."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tablekeeper.core.events import Json
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island.common import get

KEY = "lands"
COUNTS = ("blight", "vitality", "defend", "dahan", "badlands", "strife")


@dataclass(frozen=True, slots=True)
class LandRecord:
    blight: int = 0
    vitality: int = 0
    defend: int = 0  # ends at Time Passes
    dahan: int | None = None  # None: not recorded (the data's per-land figure is assumed)
    badlands: int = 0
    strife: int = 0  # Invaders there carrying Strife
    terrain: str = ""
    presence: dict[str, int] = field(default_factory=dict)  # seat -> pieces

    @staticmethod
    def of(raw: dict[str, Any]) -> LandRecord:
        dahan = raw.get("dahan")
        return LandRecord(int(raw.get("blight", 0)), int(raw.get("vitality", 0)), int(raw.get("defend", 0)),
                          None if dahan is None else int(dahan), int(raw.get("badlands", 0)),
                          int(raw.get("strife", 0)), str(raw.get("terrain", "")),
                          {str(k): int(v) for k, v in (raw.get("presence") or {}).items()})

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"blight": self.blight, "vitality": self.vitality, "defend": self.defend,
                                "presence": dict(self.presence)}
        if self.dahan is not None:
            out["dahan"] = self.dahan
        if self.badlands:
            out["badlands"] = self.badlands
        if self.strife:
            out["strife"] = self.strife
        if self.terrain:
            out["terrain"] = self.terrain
        return out

    def with_count(self, key: str, n: int) -> LandRecord:
        """One of ``COUNTS`` set to ``n``."""
        if key == "blight":
            return replace(self, blight=n)
        if key == "vitality":
            return replace(self, vitality=n)
        if key == "defend":
            return replace(self, defend=n)
        if key == "dahan":
            return replace(self, dahan=n)
        if key == "strife":
            return replace(self, strife=n)
        return replace(self, badlands=n)

    def with_presence(self, seat: str, n: int) -> LandRecord:
        return replace(self, presence={**self.presence, seat: n})


def board_of(land: str) -> str:
    """Boards are the leading letters of a land's name ("A3" is on board A)."""
    return land.rstrip("0123456789") or land


def all_lands(state: GameState) -> dict[str, LandRecord]:
    return {name: LandRecord.of(raw) for name, raw in get(state, KEY, {}).items()}


def land(state: GameState, name: str) -> LandRecord:
    return all_lands(state).get(name, LandRecord())


def put(txn: Txn, name: str, record: LandRecord) -> None:
    lands = all_lands(txn.state)
    lands[name] = record
    put_all(txn, lands)


def put_all(txn: Txn, lands: dict[str, LandRecord]) -> None:
    txn.put(KEY, {name: rec.to_json() for name, rec in lands.items()})


def of_terrain(state: GameState, terrain: str, board: str) -> list[LandRecord]:
    """The recorded lands of a terrain on a board."""
    return [rec for name, rec in all_lands(state).items() if rec.terrain == terrain and board_of(name) == board]
