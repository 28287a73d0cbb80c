"""Adding and removing Blight at the table: runs the SI-BLIGHT-1 procedure (``blight.py``) on the
lands the tracker knows, keeps the Blight card's tracks, and holds the game while a cascade waits
for the players' choice of land. Triggered actions about Blight wait for the causing action."""

from __future__ import annotations

from dataclasses import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import blight as procedure
from tablekeeper.games.spirit_island import blight_effects, lands, table_actions
from tablekeeper.games.spirit_island.common import adversary, blight_card, get, seat_track, table


def _pool(state: GameState) -> procedure.Pool:
    return procedure.Pool(count=state.value("blight.card"), players=state.seats, card=blight_card(state),
                          flipped=bool(state.value("blight.flipped")))


def effects(state: GameState) -> tuple[list[str], list[str]]:
    """"When" effects (step 3) and triggered "after" effects (step 6) active now."""
    data = table(state)
    name, level = adversary(state)
    when = [r.text for r in data.adversary(name, level, "when_blight_added")]
    after = [r.text for r in data.adversary(name, level, "after_blight_added")]
    card = blight_card(state)
    if card and card.when_blight_added and state.value("blight.flipped"):
        when.append(card.when_blight_added)
    return when, after


def add(txn: Txn, land: str, count: int) -> None:
    """Steps 1-4 for ``count`` Blight arriving at once in ``land``."""
    table_actions.begin_implicit(txn, f"Blight in {land}")
    state = txn.state
    recorded = lands.all_lands(state)
    names = {land, *recorded}
    destroyed = set(get(state, "blight.destroyed", []))
    model: dict[str, procedure.Land] = {}
    for name in names:
        rec = recorded.get(name, lands.LandRecord())
        pieces = []
        for seat, n in rec.presence.items():
            # pieces already destroyed in this action keep their ids, so the rest get new ones
            gone = sum(1 for piece in destroyed if piece.startswith(f"{seat}:{name}:"))
            pieces += [f"{seat}:{name}:{gone + i}" for i in range(n)]
        model[name] = procedure.Land(name, rec.blight, rec.vitality, pieces)
    when, after = effects(state)
    # SI-TRIGGER-3: "After Setup" rules ignore Blight placed while setting up
    run = procedure.BlightRun(_pool(state), model, when, after, during_setup=state.phase == "setup")
    run.subject_to_destruction = destroyed
    was_flipped = run.pool.flipped
    cascades = run.add(land, count)
    _apply(txn, run, was_flipped)
    pending = get(txn.state, "blight.pending", [])
    txn.put("blight.pending", cascades + pending)
    for effect in run.triggers:
        table_actions.trigger(txn, effect)
    if run.log and any(e[0] == "place" for e in run.log) and txn.state.phase == "invader" \
            and txn.state.step == "ravage":
        boards = get(txn.state, "ravage.blight_boards", [])
        if lands.board_of(land) not in boards:
            txn.put("ravage.blight_boards", [*boards, lands.board_of(land)])
    if cascades:
        txn.notice(f"{land} already had Blight: cascade into an adjacent land (cascade LAND)")
    settle(txn)


def _apply(txn: Txn, run: procedure.BlightRun, was_flipped: bool) -> None:
    """Write the procedure's outcome back: card tracks, lands, Presence, notices in order."""
    if run.pool.flipped and not was_flipped:
        txn.set("blight.flipped", 1)
    recorded = lands.all_lands(txn.state)
    for name, land in run.lands.items():
        before = recorded.get(name, lands.LandRecord())
        counts: dict[str, int] = {}
        for piece in land.presence:
            seat = piece.split(":")[0]
            counts[seat] = counts.get(seat, 0) + 1
        after = replace(before, blight=land.blight, vitality=land.vitality, presence=counts)
        if after != before or name in recorded:
            recorded[name] = after
    lands.put_all(txn, recorded)
    txn.put("blight.destroyed", sorted(run.subject_to_destruction))
    defeat = False
    for entry in run.log:
        kind = entry[0]
        if kind == "flip":
            announce(txn, [entry])
        elif kind == "prevented":
            txn.notice(f"Vitality in {entry[1]} prevents {entry[2]} Blight")
        elif kind == "destroy_presence":
            seat = entry[1].split(":")[0]
            track = seat_track(int(seat), "presence")
            txn.set(track, max(0, txn.value(track) - 1))  # the card's Immediately may have taken it
            txn.notice(f"Seat {seat} loses 1 Presence in {entry[2]}")
        elif kind == "when":
            txn.notice(f"When Blight is added to {entry[2]}: {entry[1]}")
        elif kind == "defeat":
            defeat = True
    txn.set("blight.card", max(0, run.pool.count))
    if defeat:
        txn.put("defeat.pending", ["the Blighted Island ran out of Blight"])


def announce(txn: Txn, log: list[tuple[str, ...]]) -> None:
    """Tell the table about a flip, and resolve the card's Immediately effects (a nested action)."""
    for entry in log:
        if entry[0] == "flip":
            txn.notice(f"Blighted Island: {entry[1]} Blight")
            blight_effects.immediately(txn)


def cascade(txn: Txn, land: str) -> None:
    pending = get(txn.state, "blight.pending", [])
    if not pending:
        raise Rejected("no Blight is waiting to cascade")
    source = pending.pop(0)
    if land == source:
        raise Rejected(f"a cascade goes into a land adjacent to {source}, not {source} itself")
    txn.put("blight.pending", pending)
    txn.notice(f"Blight cascades from {source} into {land}")
    add(txn, land, 1)


def settle(txn: Txn) -> None:
    """Steps 5-6: once no cascade waits, a Blight addition made outside any action has finished;
    its triggered actions come due (inside an open action they wait for its end)."""
    if get(txn.state, "blight.pending", []):
        return
    table_actions.close_implicit(txn)


def remove(txn: Txn, land: str, count: int) -> None:
    """SI-BLIGHTCARD-2 / SI-REPLACE-3: removed or replaced Blight goes back on the card (or space);
    the card never flips back."""
    rec = lands.land(txn.state, land)
    if rec.blight < count:
        raise Rejected(f"{land} has {rec.blight} Blight, cannot remove {count}")
    lands.put(txn, land, replace(rec, blight=rec.blight - count))
    txn.set("blight.card", txn.value("blight.card") + count)


def waiting_for_cascade(state: GameState) -> str | None:
    pending = get(state, "blight.pending", [])
    if pending:
        return f"Blight from {pending[0]} must cascade first: cascade LAND"
    return None
