"""Adding Blight from the station's buttons, where no land is named: the FAQ order (SI-BLIGHT-1)
as a chain of yes/no questions each seat answers with its own buttons.

Vitality is asked before any Blight leaves the card (catalogue gap 2); a land that already had
Blight cascades, and the cascade asks again about the adjacent land.
"""

from __future__ import annotations

from tablekeeper.core.game import Txn
from tablekeeper.core.tracks import seat_track
from tablekeeper.games.spirit_island import blight_effects, blight_track, table_actions
from tablekeeper.games.spirit_island.record import WaitingBlight, shared

YES_NO = ["no", "yes"]


RESUME = "blight.resume"


def start(txn: Txn, depth: int = 0, immediately: bool = False) -> None:
    """Ask about one Blight arriving (``immediately``: one the flipped card's Immediately effect
    places, asked before the cascade of the Blight that flipped it)."""
    if depth == 0 and not immediately:
        table_actions.begin_implicit(txn, "Blight added")
    text = ("Did the land it cascades into already have Blight?" if depth
            else "The Blight card's Blight: did that land already have Blight?" if immediately
            else "Did the land already have Blight?")
    txn.ask("si.blight.had", text, YES_NO, context={"depth": depth, "immediately": immediately})


def add_plain(txn: Txn) -> None:
    """One Blight the table confirmed "as the rules place it": into a land without Blight, Vitality
    or Presence, so nothing cascades or is destroyed (the flipped card's Immediately Blight is still
    asked, SI-BLIGHT-1 step 1)."""
    table_actions.begin_implicit(txn, "Blight added")
    _take_and_place(txn, 0, cascades=False, ask_presence=False)


def _where(txn: Txn) -> tuple[int, bool]:
    prompt = txn.open_prompt()
    return int(prompt.context.get("depth", 0)), bool(prompt.context.get("immediately", False))


def on_had(txn: Txn, index: int) -> None:
    depth, immediately = _where(txn)
    txn.close_prompt()
    if index == 0:
        txn.ask("si.blight.vitality", "Is there Vitality in the land?", YES_NO,
                context={"depth": depth, "immediately": immediately})
    else:
        _take_and_place(txn, depth, cascades=True, immediately=immediately)


def on_vitality(txn: Txn, index: int) -> None:
    depth, immediately = _where(txn)
    txn.close_prompt()
    if index == 1:
        txn.notice("Vitality prevents the Blight; remove 1 Vitality (nothing else happens)")
        _chain_done(txn, immediately)
    else:
        _take_and_place(txn, depth, cascades=False, immediately=immediately)


def _chain_done(txn: Txn, immediately: bool) -> None:
    """One Blight (with its cascades) is settled: the next Immediately Blight, or back to the
    Blight whose flip interrupted it (its cascade comes now), or the end."""
    if immediately:
        blight_effects.placed(txn)
    if blight_effects.placing(txn.state):
        start(txn, 0, immediately=True)
        return
    stack = shared(txn.state).blight_resume
    if not stack:
        _finish(txn)
        return
    waiting = stack[-1]
    txn.put(RESUME, stack[:-1] or None)
    if waiting.cascades:
        txn.notice("The land already had Blight: it cascades into an adjacent land")
        start(txn, waiting.depth + 1, waiting.immediately)
    else:
        _chain_done(txn, waiting.immediately)


def _take_and_place(txn: Txn, depth: int, cascades: bool, immediately: bool = False,
                    ask_presence: bool = True) -> None:
    """Steps 1-3: take from the card (flip, Immediately), place, then ask each Spirit with
    Presence on the island whether it has Presence there."""
    blight_track.announce(txn, blight_track.take_one(txn))
    when, after = blight_track.effects(txn.state)
    for effect in when:
        txn.notice(f"When Blight is added: {effect}")
    for effect in after:
        table_actions.trigger(txn, effect)
    seats = [s for s in txn.state.seat_numbers() if txn.value(seat_track(s, "presence")) > 0]
    _ask_presence(txn, depth, cascades, seats if ask_presence else [], immediately)


def _ask_presence(txn: Txn, depth: int, cascades: bool, seats: list[int], immediately: bool) -> None:
    if not seats:
        if blight_effects.placing(txn.state) and not immediately:
            # SI-BLIGHT-1 step 1: the flipped card's Blight before this one's cascade
            txn.put(RESUME, [*shared(txn.state).blight_resume, WaitingBlight(depth, cascades, immediately)])
            start(txn, 0, immediately=True)
        elif cascades:
            txn.notice("The land already had Blight: it cascades into an adjacent land")
            start(txn, depth + 1, immediately)
        else:
            _chain_done(txn, immediately)
        return
    seat = seats[0]
    txn.ask("si.blight.presence", f"Does seat {seat} have Presence in the land?", YES_NO, seat=seat,
            context={"depth": depth, "cascades": cascades, "seats": seats, "immediately": immediately})


def on_presence(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    depth, cascades = int(prompt.context["depth"]), bool(prompt.context["cascades"])
    immediately = bool(prompt.context.get("immediately", False))
    seats = [int(s) for s in prompt.context["seats"]]
    txn.close_prompt()
    if index == 1:
        txn.add(seat_track(seats[0], "presence"), -1)
        txn.notice(f"Seat {seats[0]} loses 1 Presence there")
    _ask_presence(txn, depth, cascades, seats[1:], immediately)


def _finish(txn: Txn) -> None:
    blight_track.settle(txn)
