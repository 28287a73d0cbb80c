"""What a Blight card does beyond holding Blight: its "Immediately" effects when it flips, resolved
as a nested action at step 1 of the FAQ's order (before any cascade, SI-BLIGHT-1), and the
Blighted Island effects that repeat every Invader Phase."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core import timing
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.games.spirit_island import lands, table_actions
from tablekeeper.games.spirit_island.common import blight_card
from tablekeeper.games.spirit_island.record import PresenceLoss, shared

LEFT = "blight.immediately_left"


def _boards(state: GameState) -> int:
    return len(shared(state).boards)


def _spirits_lose(txn: Txn, track: str, n: int, reason: str = "") -> None:
    """Each Spirit loses ``n`` of ``track``; Presence placed in lands is asked for land by land."""
    for seat in txn.state.seat_numbers():
        have = txn.value(seat_track(seat, track))
        if not n or not have:
            continue
        if track == "presence" and lands.placed_presence(txn.state, seat):
            txn.put(LOSS, [*shared(txn.state).presence_loss, PresenceLoss(seat, min(n, have), reason)])
        else:
            txn.set(seat_track(seat, track), max(0, have - n))
    ask_loss(txn)


LOSS = "blight.presence_loss"  # [seat, how many, why]: Presence a Spirit still destroys, land by land
LOSS_PROMPT = "si.blight.lose_presence"
ELSEWHERE = "one not in a land the station tracks"
NONE = "none within range"  # a loss limited to some lands, for a Spirit whose Presence the station does not all place


def ask_loss(txn: Txn) -> None:
    """Which land each Spirit's destroyed Presence comes from (no question where there is one)."""
    while txn.state.prompt is None:
        queue = shared(txn.state).presence_loss
        if not queue:
            txn.put(LOSS, None)
            return
        seat, left, reason, within = queue[0].seat, queue[0].left, queue[0].reason, queue[0].within
        options = [name for name, rec in lands.all_lands(txn.state).items()
                   if rec.presence.get(str(seat), 0) and (not within or name in within)]
        if txn.value(seat_track(seat, "presence")) > lands.placed_presence(txn.state, seat):
            options += [ELSEWHERE, NONE] if within else [ELSEWHERE]
        if within and not options:  # none of its Presence is where this loss may take it from
            txn.put(LOSS, list(queue[1:]) or None)
            continue
        if len(options) > 1:
            txn.ask(LOSS_PROMPT, f"{reason}: seat {seat} destroys 1 Presence ({left} to go): from which land?",
                    options, seat=seat, context={"lands": options})
            return
        _lose_one(txn, options[0] if options else ELSEWHERE)


def _lose_one(txn: Txn, where: str) -> None:
    first, *rest = shared(txn.state).presence_loss
    seat = first.seat
    if where == NONE:
        txn.put(LOSS, rest or None)
        return
    if where != ELSEWHERE:
        rec = lands.land(txn.state, where)
        lands.put(txn, where, rec.with_presence(str(seat), rec.presence.get(str(seat), 0) - 1))
        txn.notice(f"Seat {seat} loses 1 Presence in {where}")
    txn.set(seat_track(seat, "presence"), max(0, txn.value(seat_track(seat, "presence")) - 1))
    left = first.left - 1
    queue = rest if left <= 0 or not txn.value(seat_track(seat, "presence")) else [replace(first, left=left), *rest]
    txn.put(LOSS, queue or None)


def on_loss(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    where = str(prompt.context["lands"][index])
    txn.close_prompt()
    _lose_one(txn, where)
    ask_loss(txn)


def immediately(txn: Txn) -> None:
    """The card just flipped: open "Immediately: CARD", apply what the station can count, and keep
    the action open while the players place its Blight (``blight LAND`` is accepted before the
    cascade); it ends by itself once they have."""
    card = blight_card(txn.state)
    if card is None or not card.immediately:
        return
    table_actions.begin(txn, f"Immediately: {card.name}")
    txn.notice(f"Immediately: {card.immediately}")
    _spirits_lose(txn, "presence", card.immediately_presence, f"Immediately ({card.name})")
    _spirits_lose(txn, "energy", card.immediately_energy)
    players = txn.state.seats
    if card.immediately_fear_pool_halves:
        terror = min(3, txn.value("terror"))
        halves = card.immediately_fear_pool_halves[min(terror, len(card.immediately_fear_pool_halves)) - 1]
        added = halves * players // 2
        txn.add("fear.pool", added)
        txn.notice(f"{added} Fear markers added to the Fear Pool (Terror Level {terror})")
    if card.immediately_fear_per_player:
        txn.add("fear.generated", card.immediately_fear_per_player * players)
    if card.immediately_towns_per_board:
        towns = min(txn.value("island.towns"), card.immediately_towns_per_board * _boards(txn.state))
        txn.add("island.towns", -towns)  # the players say from which lands
    left = card.immediately_blight_per_board * _boards(txn.state) + card.immediately_blight_per_player * players
    if left:
        txn.put(LEFT, left)
        txn.notice(f"Place {left} Blight (blight LAND), before the cascade")
    else:
        table_actions.end(txn)


def placing(state: GameState) -> bool:
    """Is the Immediately action open and waiting for its Blight?"""
    name = timing.current_action(state) or ""
    return name.startswith("Immediately:") and shared(state).immediately_left > 0


def placed(txn: Txn) -> None:
    """One of the Immediately Blight was placed; the last one ends the nested action."""
    left = shared(txn.state).immediately_left - 1
    txn.put(LEFT, left or None)
    if left <= 0 and (timing.current_action(txn.state) or "").startswith("Immediately:"):
        table_actions.end(txn)


def every_invader_phase(txn: Txn) -> None:
    """The Blighted Island step: the reminder, and the Presence each Spirit destroys."""
    card = blight_card(txn.state)
    if card is None:
        return
    if card.every_phase:
        txn.notice(f"Blighted Island ({card.name}): {card.every_phase}")
    _spirits_lose(txn, "presence", card.every_phase_presence, f"Blighted Island ({card.name})")
