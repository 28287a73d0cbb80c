"""Victory and defeat (SI-END-1..3), checked once each command (or explicit action) has finished."""

from __future__ import annotations

from tablekeeper.core import timing
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import seat_track
from tablekeeper.games.spirit_island import adversary_rules
from tablekeeper.games.spirit_island.record import shared

VICTORY_TEXT = {1: "no Invaders on the island", 2: "no Towns or Cities", 3: "no Cities"}


def victory_met(state: GameState) -> str | None:
    """SI-END-1: the current Terror Level's condition (TL I none at all, TL II no Towns or Cities,
    TL III no Cities)."""
    terror = state.value("terror")
    if terror >= 4:
        return "every Fear card has been earned"
    cities, towns, explorers = (state.value(f"island.{k}") for k in ("cities", "towns", "explorers"))
    met = {1: cities + towns + explorers == 0, 2: cities + towns == 0, 3: cities == 0}[terror]
    return f"Terror Level {'I' * terror}: {VICTORY_TEXT[terror]}" if met else None


def defeat_met(state: GameState) -> str | None:
    """SI-END-2: a Spirit without Presence, the Blighted Island out of Blight, Explore with no
    Invader card left (the last two are flagged where they happen), or an adversary's extra loss
    condition the station checks on the lands (England's capital, Scotland's trade hub)."""
    pending = shared(state).defeat_pending
    if pending:
        return pending[0]
    adversary_loss = adversary_rules.loss_met(state)
    if adversary_loss:
        return adversary_loss
    for seat in state.seat_numbers():
        if state.value(seat_track(seat, "presence")) == 0:
            return f"seat {seat}'s Spirit has no Presence on the island"
    return None


def check(txn: Txn) -> None:
    """SI-END-3: when one effect meets both, the Spirits win (a sacrifice victory). Inside an
    action (a Power's ``begin``/``end``, the station's Ravage) the check waits for the action to
    end, except for a loss flagged where it happened (SI-END-2: the Blighted Island out of Blight,
    Explore with no card left), which is at once: a cascade between two blighted lands would
    otherwise never end."""
    if txn.state.over is not None:
        return
    if timing.depth(txn.state) > 0 and not shared(txn.state).defeat_pending:
        return
    win, loss = victory_met(txn.state), defeat_met(txn.state)
    if (win or loss) and txn.state.prompt is not None:
        txn.close_prompt()  # a cascade's land or a Ravage's next land no longer matters
    if win and loss:
        txn.end(f"victory (sacrifice): {win}, despite: {loss}", result=Result.VICTORY)
    elif win:
        txn.end(f"victory: {win}", result=Result.VICTORY)
    elif loss:
        txn.end(f"defeat: {loss}", result=Result.DEFEAT)
