"""The Fear Pool and the Fear deck (SI-FEARPOOL-1/2, SI-FEAR-1, SI-TERROR-1).

``fear.generated`` counts markers moved out of the pool toward the next card; reaching
``fear.pool`` earns the top Fear card and the markers go back, leftover Fear carrying on. Terror
rises the moment a divider is exposed; earning the last card wins at once.
"""

from __future__ import annotations

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState, Result
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island.common import deck_of, get

ROMAN = {1: "I", 2: "II", 3: "III", 4: "Victory"}


def split_generated(pool: int, generated: int) -> tuple[int, int]:
    """SI-FEARPOOL-2: (cards earned, Fear left toward the next card) for ``generated`` markers."""
    return generated // pool, generated % pool


def terror_after(deck: Deck) -> int:
    """SI-TERROR-1: the Terror Level shown by the first divider still covered (4 = deck empty)."""
    index = deck.stage_index()
    return 4 if index is None else index + 1


def on_generated(txn: Txn, new: int) -> None:
    """React to ``fear.generated`` rising: earn cards while the pool is full."""
    pool = txn.value("fear.pool")
    if new < pool:
        return
    earned, left = split_generated(pool, new)
    txn.set("fear.generated", left)
    for _ in range(earned):
        if txn.state.over is not None or txn.value("fear.cards_left") == 0:
            return
        earn_card(txn)


def earn_card(txn: Txn) -> None:
    txn.put("fear.earning", True)
    card = txn.draw("fear")
    txn.put("fear.earning", None)
    cards = get(txn.state, "fear.earned_cards", [])
    cards.append({"card": card, "round": txn.state.round, "phase": txn.state.phase, "step": txn.state.step})
    txn.put("fear.earned_cards", cards)
    txn.set("fear.earned", len(cards))
    deck = deck_of(txn.state, "fear")
    txn.set("fear.cards_left", deck.remaining)
    txn.notice(f"Fear card earned, {deck.remaining} left")
    terror = terror_after(deck)
    if terror != txn.value("terror"):
        txn.set("terror", terror)
        if terror < 4:
            txn.notice(f"Terror Level {ROMAN[terror]}")
    if terror == 4:
        txn.end("victory: every Fear card has been earned", result=Result.VICTORY)


CARD_PROMPT = "si.fear_card"


def reveal_next(txn: Txn) -> None:
    """SI-TERROR-1 / SI-INV-1: the Fear step reveals the earned cards one at a time, in earned
    order, each read at the Terror Level of the moment it is revealed; the players answer
    "resolved" when done with it (Fear it generates may raise the level for the next one)."""
    cards = get(txn.state, "fear.earned_cards", [])
    if not cards or txn.state.prompt is not None:
        return
    terror = min(3, txn.value("terror"))
    txn.ask(CARD_PROMPT, f"Fear card: read it at Terror Level {ROMAN[terror]}", ["resolved"],
            context={"terror": terror, "left": len(cards)})


def on_resolved(txn: Txn, index: int) -> None:
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("there is nothing to choose")
    terror = int(prompt.context["terror"])
    txn.close_prompt()
    cards = get(txn.state, "fear.earned_cards", [])
    card = cards.pop(0)
    resolved = get(txn.state, "fear.resolved", [])
    resolved.append({**card, "terror": terror, "resolved_round": txn.state.round})
    txn.put("fear.resolved", resolved)
    txn.put("fear.earned_cards", cards)
    txn.set("fear.earned", len(cards))
    txn.notice(f"Fear card done: TL {ROMAN[terror]}")
    reveal_next(txn)


def pool_ok(state: GameState, pool: int) -> str | None:
    """SI-FEAR-1: markers go into the ungenerated part, so the pool cannot shrink below what is out."""
    generated = state.value("fear.generated")
    if pool <= generated:
        return f"the Fear Pool cannot be smaller than the {generated} Fear already generated plus 1"
    return None
