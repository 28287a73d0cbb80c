"""Setting up the island: the pieces printed on each board, an adversary level's additions, and
each Spirit's starting Presence on its own board (seat 1 on the first board, and so on)."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.games.spirit_island import lands, spirits
from tablekeeper.games.spirit_island.common import adversary, table
from tablekeeper.games.spirit_island.data import SetupChange
from tablekeeper.games.spirit_island.record import LandRecord
from tablekeeper.games.spirit_island.spirit_data import Start


def printed(state: GameState) -> dict[str, LandRecord]:
    """Every land as its board prints it, with the adversary level's setup changes."""
    data = table(state)
    out: dict[str, LandRecord] = {}
    for letter in lands.board_letters(state):
        for land in data.boards[letter].lands:
            out[f"{letter}{land.number}"] = LandRecord(blight=land.blight, dahan=land.dahan, explorers=land.explorers,
                                                       towns=land.towns, cities=land.cities)
    key, level = adversary(state)
    if key:
        for change in table(state).adversary_at(key, level).setup:
            for letter in lands.board_letters(state):
                _change(out, letter, change)
    return out


def _change(records: dict[str, LandRecord], letter: str, change: SetupChange) -> None:
    number = change.land or _highest_without(records, letter, change.highest_without)
    if not number:
        return
    name = f"{letter}{number}"
    rec = records[name]
    if change.move_blight_to and rec.blight:
        other = f"{letter}{change.move_blight_to}"
        records[other] = records[other].add("blight", rec.blight)
        rec = replace(rec, blight=0)
    records[name] = replace(rec, explorers=rec.explorers + change.explorers, towns=rec.towns + change.towns,
                            cities=rec.cities + change.cities, blight=rec.blight + change.blight,
                            beasts=rec.beasts + change.beasts)


def _highest_without(records: dict[str, LandRecord], letter: str, what: str) -> int:
    for number in range(8, 0, -1):
        rec = records[f"{letter}{number}"]
        if (rec.towns if what == "towns" else rec.buildings) == 0:
            return number
    return 0


def summary(state: GameState) -> str:
    """The setup in words: ``2 Cities, 2 Towns, 10 Dahan, Blight in A4, B4``."""
    records = printed(state)
    e, t, c = lands.totals(records.values())
    parts = [f"{n} {word}" for n, word in ((c, "Cities" if c != 1 else "City"), (t, "Towns" if t != 1 else "Town"),
                                           (e, "Explorers" if e != 1 else "Explorer")) if n]
    parts.append(f"{sum(r.dahan for r in records.values())} Dahan")
    blighted = [name for name, rec in records.items() if rec.blight]
    if blighted:
        parts.append("Blight in " + ", ".join(blighted))
    beasts = [name for name, rec in records.items() if rec.beasts]
    if beasts:
        parts.append("Beasts in " + ", ".join(beasts))
    key, level = adversary(state)
    extra = f" (with {table(state).adversaries[key].name} {level}'s additions)" if key and any(
        table(state).adversary_at(key, level).setup) else ""
    return ", ".join(parts) + extra


def place(txn: Txn, printed_pieces: bool) -> None:
    """The setup question's answer: the printed pieces (or none yet), then each Spirit's Presence."""
    records = printed(txn.state) if printed_pieces else {name: LandRecord() for name in lands.places(txn.state)}
    known = lands.all_lands(txn.state)
    for name, rec in known.items():  # what the players recorded before answering stays on top
        base = records.get(name, LandRecord())
        records[name] = replace(base, blight=max(base.blight, rec.blight), vitality=rec.vitality, defend=rec.defend,
                                badlands=rec.badlands, strife=rec.strife, beasts=max(base.beasts, rec.beasts),
                                presence={**base.presence, **rec.presence})
    if printed_pieces:
        for seat in txn.state.seat_numbers():
            _place_presence(txn, records, seat)
    lands.put_all(txn, records)


def _place_presence(txn: Txn, records: dict[str, LandRecord], seat: int) -> None:
    spirit = spirits.spirit_of(txn.state, seat)
    boards = lands.board_letters(txn.state)
    if spirit is None or not boards or lands.placed_presence(txn.state, seat):
        return
    letter = boards[(seat - 1) % len(boards)]
    placed: list[str] = []
    for start in spirit.start:
        for name in _start_lands(txn.state, records, letter, start):
            rec = records[name]
            records[name] = rec.with_presence(str(seat), rec.presence.get(str(seat), 0) + start.count)
            placed.append(f"{start.count} in {name}")
        if start.where:
            txn.notice(f"Seat {seat} ({spirit.name}): {start.count} Presence in {start.where} "
                       f"(not in a land the station tracks)")
    if placed:
        txn.notice(f"Seat {seat} ({spirit.name}) starts on board {letter}: Presence " + ", ".join(placed))


def _start_lands(state: GameState, records: dict[str, LandRecord], letter: str, start: Start) -> list[str]:
    board = [p for p in lands.places(state).values() if p.board == letter]
    if start.land:
        return [f"{letter}{start.land}"]
    if start.terrain:
        fit = [p for p in board if p.terrain == start.terrain and not (start.no_dahan and records[p.name].dahan)]
        return [max(fit, key=lambda p: p.number).name] if fit else []
    if start.most_dahan:
        ranked = sorted(board, key=lambda p: (-records[p.name].dahan, p.number))
        return [p.name for p in ranked[:start.most_dahan]]
    return []


def starting_presence(state: GameState, seat: int) -> int:
    """The Presence a seat's Spirit starts with (the data's default for a seat without one)."""
    spirit = spirits.spirit_of(state, seat)
    if spirit is None:
        return state.value(seat_track(seat, "presence"))
    return sum(s.count * max(1, s.most_dahan) for s in spirit.start)
