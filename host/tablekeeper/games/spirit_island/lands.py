"""The island's lands: where each is (board, number, terrain, coastal, neighbours, from the board
data) and what the station knows it holds (Invaders, Dahan, Blight, Vitality, Defend, Badlands,
Strife, each Spirit's Presence), as one typed record that the Invader questions, the Blight
procedure, the verbs and the endings all read. ``A3`` is land 3 of board A.

The island's Invader counts (``island.explorers`` and the like, which the victory checks read) are
the sums over the lands: every change of a land's pieces goes through :func:`put_all`, which sets
them; a hand change of a count is placed in a land by a question (``invader_counts.ask_where``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island.common import table
from tablekeeper.games.spirit_island.record import LandRecord, shared

if TYPE_CHECKING:
    from tablekeeper.core.game import Txn

KEY = "lands"
INVADERS = ("explorers", "towns", "cities")
PIECE_KINDS = {"explorer": "explorers", "town": "towns", "city": "cities"}  # a piece -> its count in a land


@dataclass(frozen=True, slots=True)
class Place:
    """Where a land is, as printed: its board, number, terrain, coastal, neighbours on its board."""

    name: str
    board: str
    number: int
    terrain: str
    coastal: bool
    adjacent: tuple[str, ...]

    def matches(self, terrain: str) -> bool:
        """Does an Invader card showing ``terrain`` (or "Coastal") pick this land?"""
        return self.coastal if terrain == "Coastal" else self.terrain == terrain


def board_letters(state: GameState) -> list[str]:
    """The island boards in play, as set up (``--option boards=2`` or ``boards=A,C``)."""
    return list(shared(state).boards)


def places(state: GameState) -> dict[str, Place]:
    """Every land of the boards in play, in board and number order; the lands that touch across
    two boards are neighbours as the players laid the boards out (``--option links=A1-B6,...``)."""
    data = table(state)
    across: dict[str, list[str]] = {}
    for one, two in shared(state).links:
        across.setdefault(one, []).append(two)
        across.setdefault(two, []).append(one)
    out: dict[str, Place] = {}
    for letter in board_letters(state):
        for land in data.boards[letter].lands:
            name = f"{letter}{land.number}"
            out[name] = Place(name, letter, land.number, land.terrain, land.coastal,
                              (*(f"{letter}{n}" for n in land.adjacent), *across.get(name, ())))
    return out


def parse_links(text: str, boards: list[str]) -> list[tuple[str, str]]:
    """``A1-B6,A2-B6``: lands of two different boards in play that touch (ValueError naming the pair)."""
    out: list[tuple[str, str]] = []
    for item in (t.strip() for t in text.split(",") if t.strip()):
        one, sep, two = item.upper().partition("-")
        if not sep or not all(_on(n, boards) for n in (one, two)) or board_of(one) == board_of(two):
            raise ValueError(f"{item!r}: expected two lands of different boards in play, such as A1-B6")
        out.append((one, two))
    return out


def _on(name: str, boards: list[str]) -> bool:
    number = name[len(board_of(name)):]
    return board_of(name) in boards and number.isdigit() and 1 <= int(number) <= 8


def place(state: GameState, name: str) -> Place:
    """The land ``name``, or a refusal naming the lands there are."""
    found = places(state).get(name.upper())
    if found is None:
        boards = board_letters(state)
        raise Rejected(f"no land {name!r} on the island (lands are {boards[0]}1..{boards[0]}8"
                       + (f" to {boards[-1]}1..{boards[-1]}8" if len(boards) > 1 else "") + ")")
    return found


def board_of(land: str) -> str:
    """Boards are the leading letters of a land's name ("A3" is on board A)."""
    return land.rstrip("0123456789") or land


def all_lands(state: GameState) -> dict[str, LandRecord]:
    return dict(shared(state).lands)


def land(state: GameState, name: str) -> LandRecord:
    return all_lands(state).get(name, LandRecord())


def matching(state: GameState, terrain: str) -> list[str]:
    """The lands an Invader card showing ``terrain`` (or "Coastal") picks, board by board."""
    return [name for name, where in places(state).items() if where.matches(terrain)]


def totals(records: Iterable[LandRecord]) -> tuple[int, int, int]:
    rows = list(records)
    return (sum(r.explorers for r in rows), sum(r.towns for r in rows), sum(r.cities for r in rows))


def put(txn: Txn, name: str, record: LandRecord) -> None:
    records = all_lands(txn.state)
    records[name] = record
    put_all(txn, records)


def put_all(txn: Txn, records: Mapping[str, LandRecord]) -> None:
    """Write the lands and set the island's Invader counts to their sums (plus any pieces a hand
    change added or removed that still wait to be placed in a land)."""
    waiting = [unplaced(txn.state, kind) for kind in INVADERS]
    txn.put(KEY, {name: rec.to_json() for name, rec in records.items()})
    for kind, n, extra in zip(INVADERS, totals(records.values()), waiting, strict=True):
        txn.set(f"island.{kind}", max(0, n + extra))


def place_waiting(txn: Txn, name: str, record: LandRecord) -> None:
    """Write a land that receives (or gives up) a piece the island's count already holds (a hand
    change placed in its land): the counts stay as they are."""
    records = all_lands(txn.state)
    records[name] = record
    txn.put(KEY, {n: rec.to_json() for n, rec in records.items()})


def unplaced(state: GameState, kind: str) -> int:
    """Pieces the island's count has beyond the lands (positive) or short of them (negative)."""
    index = INVADERS.index(kind)
    return state.value(f"island.{kind}") - totals(all_lands(state).values())[index]


def within(state: GameState, name: str, reach: int) -> list[str]:
    """The lands within ``reach`` of ``name`` (Range: the land itself is Range 0), in island order;
    across boards only as the players laid them out (``links``)."""
    found = {name}
    edge = {name}
    for _ in range(reach):
        edge = {n for e in edge for n in place(state, e).adjacent} - found
        found |= edge
    return [n for n in places(state) if n in found]


def placed_presence(state: GameState, seat: int) -> int:
    return sum(rec.presence.get(str(seat), 0) for rec in all_lands(state).values())


def sacred_sites(state: GameState, seat: int) -> list[str]:
    return [name for name, rec in all_lands(state).items() if rec.presence.get(str(seat), 0) >= 2]
