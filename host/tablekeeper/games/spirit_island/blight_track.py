"""Adding and removing Blight at the table: runs the SI-BLIGHT-1 procedure (``blight.py``) on the
island's lands, keeps the Blight card's tracks, and holds the game while the table still has to
answer: a cascade's land (asked among the lands adjacent to the one that cascades), a Spirit whose
Presence is not placed in a land (is it in this one?), or the new card a Still Healthy card draws.
Triggered actions about Blight wait for the causing action."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import blight as procedure
from tablekeeper.games.spirit_island import blight_effects, lands, table_actions
from tablekeeper.games.spirit_island.common import adversary, blight_card, table
from tablekeeper.games.spirit_island.record import LandRecord, PresenceAsk, shared

PENDING = "blight.pending"  # lands whose Blight waits to cascade, oldest first
ASK = "blight.ask"  # [land, seats] whose unplaced Presence may be in the land
DRAWING = "blight.drawing"  # a Still Healthy card ran out: the new card is being drawn
HEALING = "blight.healing"  # France 5: Blight removed from the island waits on the adversary panel
PROMPTS = {"cascade": "si.blight.cascade", "unplaced": "si.blight.unplaced", "draw": "si.blight.draw"}


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


def add(txn: Txn, land: str, count: int, ask_presence: bool = False) -> None:
    """Steps 1-4 for ``count`` Blight arriving at once in ``land``; a Spirit with Presence not placed
    in any land is asked whether it is there (``ask_presence``)."""
    lands.place(txn.state, land)
    table_actions.begin_implicit(txn, f"Blight in {land}")
    state = txn.state
    recorded = lands.all_lands(state)
    destroyed = set(shared(state).blight_destroyed)
    model: dict[str, procedure.Land] = {}
    for name in {land, *recorded}:
        rec = recorded.get(name, LandRecord())
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
    before = {seat: recorded.get(land, LandRecord()).presence.get(str(seat), 0) for seat in state.seat_numbers()}
    cascades = run.add(land, count)
    _apply(txn, run, was_flipped)
    placed = any(e[0] == "place" for e in run.log)
    if placed and ask_presence:
        seats = [s for s in txn.state.seat_numbers() if not before[s] and _unplaced(txn.state, s) > 0]
        if seats:
            txn.put(ASK, [*shared(txn.state).blight_ask, PresenceAsk(land, tuple(seats))])
    txn.put(PENDING, [*cascades, *shared(txn.state).blight_pending])
    for effect in run.triggers:
        table_actions.trigger(txn, effect)
    if placed and txn.state.phase == "invader" and txn.state.step == "ravage":
        boards = shared(txn.state).ravage_blight_boards
        if lands.board_of(land) not in boards:
            txn.put("ravage.blight_boards", [*boards, lands.board_of(land)])
    if cascades:
        txn.notice(f"{land} already had Blight: it cascades into an adjacent land")
    next_question(txn)
    settle(txn)


def take_one(txn: Txn) -> list[tuple[str, ...]]:
    """One Blight off the card (SI-BLIGHT-1): the card flips when it runs out, and an empty island is
    a defeat; the steps taken are returned for ``announce``."""
    pool = _pool(txn.state)
    log: list[tuple[str, ...]] = []
    was_flipped = pool.flipped
    if pool.take(log) == "defeat":
        txn.put("defeat.pending", ["the Blighted Island ran out of Blight"])
    if pool.flipped and not was_flipped:
        txn.set("blight.flipped", 1)
    txn.set("blight.card", max(0, pool.count))
    return log


def add_plain(txn: Txn, land: str, reason: str) -> None:
    """One more Blight that destroys no Presence and does not cascade (Sweden's Heavy Mining)."""
    log = take_one(txn)
    rec = lands.land(txn.state, land)
    lands.put(txn, land, rec.add("blight", 1))
    txn.notice(f"{reason}: 1 more Blight in {land} (no Presence lost, no cascade)")
    announce(txn, log)


def _unplaced(state: GameState, seat: int) -> int:
    return state.value(seat_track(seat, "presence")) - lands.placed_presence(state, seat)


def _apply(txn: Txn, run: procedure.BlightRun, was_flipped: bool) -> None:
    """Write the procedure's outcome back: card tracks, lands, Presence, notices in order."""
    if run.pool.flipped and not was_flipped:
        txn.set("blight.flipped", 1)
    recorded = lands.all_lands(txn.state)
    for name, land in run.lands.items():
        before = recorded.get(name, LandRecord())
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
        elif kind == "draw":
            txn.put(DRAWING, 1)
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
            card = blight_card(txn.state)
            side = "Still Healthy" if card is not None and card.still_healthy else "Blighted Island"
            txn.notice(f"{side}: {entry[1]} Blight")
            blight_effects.immediately(txn)
        elif entry[0] == "draw":
            txn.put(DRAWING, 1)


def busy(state: GameState) -> bool:
    """Does a Blight addition still wait for the table (a cascade, a Presence question, a drawn
    card, an Immediately Blight to place)?"""
    record = shared(state)
    return bool(record.blight_pending or record.blight_ask or record.blight_drawing or blight_effects.placing(state))


def next_question(txn: Txn) -> None:
    """Ask what the Blight waits for, in the FAQ's order: Presence in the land (step 3), the new
    Blight card (step 1, before the cascade), the Immediately Blight (placed with ``blight LAND``),
    then the cascade's land (step 4)."""
    state = txn.state
    if state.prompt is not None:
        return
    asks = shared(state).blight_ask
    if asks:
        land, seat = asks[0].land, asks[0].seats[0]
        txn.ask(PROMPTS["unplaced"], f"Seat {seat}'s Presence not placed in a land: is one in {land}?",
                ["no", "yes: it is destroyed"], seat=seat, context={"land": land, "seat": seat})
        return
    if shared(state).blight_drawing:
        names = [c.name for c in table(state).blight_cards if c.name != shared(state).blight_card]
        txn.ask(PROMPTS["draw"], "The Still Healthy card ran out: which Blight card comes into play, Blighted?",
                ["the device draws one", *names], context={"names": names})
        return
    if blight_effects.placing(state):
        return
    pending = shared(state).blight_pending
    if pending:
        source = pending[0]
        options = list(lands.place(state, source).adjacent)
        across = "" if len(lands.board_letters(state)) == 1 or shared(state).links else \
            " (one on another board that touches it: cascade LAND)"
        txn.ask(PROMPTS["cascade"], f"Blight cascades from {source}: into which adjacent land?{across}", options,
                context={"from": source, "lands": options})


def on_unplaced(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    land, seat = str(prompt.context["land"]), int(prompt.context["seat"])
    txn.close_prompt()
    asks = shared(txn.state).blight_ask
    rest = tuple(s for s in asks[0].seats if s != seat)
    txn.put(ASK, [*([PresenceAsk(land, rest)] if rest else []), *asks[1:]] or None)
    if index == 1:
        txn.add(seat_track(seat, "presence"), -1)
        txn.notice(f"Seat {seat} loses 1 Presence in {land}")
    next_question(txn)
    settle(txn)


def on_cascade(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    land = str(prompt.context["lands"][index])
    txn.close_prompt()
    cascade(txn, land)


def on_draw(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    names = [str(n) for n in prompt.context["names"]]
    txn.close_prompt()
    txn.draw("blight_deck", None if index == 0 else names[index - 1])


def may_draw(state: GameState) -> str | None:
    """Why no Blight card can be drawn now, or None."""
    return None if shared(state).blight_drawing else "a Blight card is drawn only when a Still Healthy card runs out"


def drawn(txn: Txn, name: str) -> None:
    """The card a Still Healthy card drew comes into play already Blighted, with its Immediately."""
    reason = may_draw(txn.state)
    if reason:
        raise Rejected(reason)
    card = table(txn.state).blight_card(name)
    txn.put(DRAWING, None)
    txn.put("blight_card", card.name)
    txn.set("blight.card", procedure.flip_amount(card, txn.state.seats))
    txn.notice(f"{card.name} comes into play Blighted: {txn.value('blight.card')} Blight")
    blight_effects.immediately(txn)
    next_question(txn)
    settle(txn)


def cascade(txn: Txn, land: str) -> None:
    """The land a waiting cascade goes to: adjacent to the one that cascades (SI-BLIGHT-1 step 4);
    a land on another board is taken as the players lay the boards out."""
    pending = shared(txn.state).blight_pending
    if not pending:
        raise Rejected("no Blight is waiting to cascade")
    source = pending[0]
    target = lands.place(txn.state, land).name
    if target == source:
        raise Rejected(f"a cascade goes into a land adjacent to {source}, not {source} itself")
    here = lands.place(txn.state, source)
    laid_out = bool(shared(txn.state).links)  # the touching lands across boards are known
    if (laid_out or lands.board_of(target) == here.board) and target not in here.adjacent:
        raise Rejected(f"{target} is not adjacent to {source} (adjacent: {', '.join(here.adjacent)})")
    prompt = txn.state.prompt
    if prompt is not None and prompt.id == PROMPTS["cascade"]:
        txn.close_prompt()
    txn.put(PENDING, pending[1:])
    across = "" if lands.board_of(target) == here.board or laid_out else " (across the boards, as laid out)"
    txn.notice(f"Blight cascades from {source} into {target}{across}")
    add(txn, target, 1)


def settle(txn: Txn) -> None:
    """Steps 5-6: once nothing waits, a Blight addition made outside any action has finished; its
    triggered actions come due (inside an open action they wait for its end)."""
    if busy(txn.state) or (txn.state.prompt is not None and txn.state.prompt.id in PROMPTS.values()):
        return
    table_actions.close_implicit(txn)


def remove(txn: Txn, land: str, count: int) -> None:
    """SI-BLIGHTCARD-2 / SI-REPLACE-3: removed or replaced Blight goes back on the card (or space);
    the card never flips back."""
    rec = lands.land(txn.state, land)
    if rec.blight < count:
        raise Rejected(f"{land} has {rec.blight} Blight, cannot remove {count}")
    lands.put(txn, land, replace(rec, blight=rec.blight - count))
    if HEALING in txn.state.tracks:  # France 5: it waits on the panel, then all goes back at once
        held = txn.value(HEALING) + count
        limit = shared(txn.state).healing_limit
        if held >= limit:
            txn.set(HEALING, 0)
            txn.set("blight.card", txn.value("blight.card") + held)
            txn.notice(f"Slow-Healing Ecosystem: {held} Blight go back from the panel to the Blight card")
        else:
            txn.set(HEALING, held)
            txn.notice(f"Slow-Healing Ecosystem: {count} Blight on the panel ({held} of {limit})")
        return
    txn.set("blight.card", txn.value("blight.card") + count)


def waiting_for_cascade(state: GameState) -> str | None:
    record = shared(state)
    if record.blight_pending:
        return f"Blight from {record.blight_pending[0]} must cascade first: cascade LAND"
    if record.blight_ask or record.blight_drawing:
        return "answer the Blight question first"
    return None
