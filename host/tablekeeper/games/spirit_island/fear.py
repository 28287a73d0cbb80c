"""The Fear Pool and the Fear deck (SI-FEARPOOL-1/2, SI-FEAR-1, SI-TERROR-1).

``fear.generated`` counts markers moved out of the pool toward the next card; reaching
``fear.pool`` earns the top Fear card and the markers go back, leftover Fear carrying on. Terror
rises the moment a divider is exposed; earning the last card wins at once.

An earned card stays face down until the Fear step; only then is it named: drawn by the device from
the Fear cards not yet seen (``fear_cards`` source: every card is equally likely, exactly as in a
shuffled deck), or reported by the players (``--option fear_cards=report``). Its effect at the Terror
Level of that moment is shown, in our words.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState, Result
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import invader_counts
from tablekeeper.games.spirit_island.common import deck_of, table
from tablekeeper.games.spirit_island.record import EarnedFear, ResolvedFear, shared

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
    cards = [*shared(txn.state).fear_earned,
             EarnedFear(card=card, round=txn.state.round, phase=txn.state.phase, step=txn.state.step)]
    txn.put("fear.earned_cards", cards)
    txn.set("fear.earned", len(cards))
    deck = deck_of(txn.state, "fear")
    txn.set("fear.cards_left", deck.remaining)
    txn.notice(f"Fear card earned, {deck.remaining} left")
    invader_counts.entrench(txn, len(cards) + len(shared(txn.state).fear_resolved))
    terror = terror_after(deck)
    if terror != txn.value("terror"):
        txn.set("terror", terror)
        if terror < 4:
            txn.notice(f"Terror Level {ROMAN[terror]}")
    if terror == 4:
        txn.end("victory: every Fear card has been earned", result=Result.VICTORY)


CARD_PROMPT = "si.fear_card"
NAME_PROMPT = "si.fear_name"
UNNAMED = "a Fear card the data does not name"


def reveal_next(txn: Txn) -> None:
    """SI-TERROR-1 / SI-INV-1: the Fear step reveals the earned cards one at a time, in earned
    order, each read at the Terror Level of the moment it is revealed; the players answer
    "resolved" when done with it (Fear it generates may raise the level for the next one)."""
    cards = shared(txn.state).fear_earned
    if not cards or txn.state.prompt is not None:
        return
    if cards[0].name is None:
        deck = deck_of(txn.state, "fear_cards")
        if shared(txn.state).fear_naming == "report" and deck.remaining:
            names = sorted(deck.stages[0].as_dict())
            txn.ask(NAME_PROMPT, "Which Fear card was revealed?", [*names, UNNAMED], context={"names": names})
            return
        if deck.remaining:
            txn.draw("fear_cards")  # named in on_drawn
        else:
            _name(txn, UNNAMED, reported=False)
        return
    _ask_card(txn, cards[0])


def on_named(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    names = [str(n) for n in prompt.context["names"]]
    txn.close_prompt()
    if index < len(names):
        txn.draw("fear_cards", names[index])
    else:
        _name(txn, UNNAMED, reported=True)


def may_name(state: GameState) -> str | None:
    """Why no Fear card can be named now, or None."""
    cards = shared(state).fear_earned
    if not cards or cards[0].name is not None or state.step != "fear":
        return "Fear cards are named when the Fear step reveals them"
    return None


def on_drawn(txn: Txn, name: str) -> None:
    """A Fear card was named from the deck of unseen cards (the device's draw or the players')."""
    reason = may_name(txn.state)
    if reason:
        raise Rejected(reason)
    prompt = txn.state.prompt
    if prompt is not None and prompt.id == NAME_PROMPT:
        txn.close_prompt()  # ``reveal fear_cards NAME`` answers the question too
    _name(txn, name, reported=True)


def _name(txn: Txn, name: str, reported: bool) -> None:
    earned = shared(txn.state).fear_earned
    cards = [replace(earned[0], name=name), *earned[1:]]
    txn.put("fear.earned_cards", cards)
    if not reported or txn.state.prompt is None:
        _ask_card(txn, cards[0])


def _ask_card(txn: Txn, earned: EarnedFear) -> None:
    terror = min(3, txn.value("terror"))
    name = earned.name or UNNAMED
    card = table(txn.state).fear_card(name)
    if card is None:
        text = f"{name}: read it at Terror Level {ROMAN[terror]}"
    else:
        note = "" if card.verified else " (effect unverified: check the card)"
        text = f"{card.name}, Terror Level {ROMAN[terror]}: {card.effects[terror - 1]}{note}"
    left = len(shared(txn.state).fear_earned)
    txn.ask(CARD_PROMPT, text, ["resolved"], context={"terror": terror, "left": left})


def on_resolved(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    terror = int(prompt.context["terror"])
    txn.close_prompt()
    card, *cards = shared(txn.state).fear_earned
    done = ResolvedFear(**msgspec.structs.asdict(card), terror=terror, resolved_round=txn.state.round)
    txn.put("fear.resolved", [*shared(txn.state).fear_resolved, done])
    txn.put("fear.earned_cards", cards)
    txn.set("fear.earned", len(cards))
    txn.notice(f"Fear card done: {card.name or 'Fear card'}, TL {ROMAN[terror]}")
    reveal_next(txn)


def pool_ok(state: GameState, pool: int) -> str | None:
    """SI-FEAR-1: markers go into the ungenerated part, so the pool cannot shrink below what is out."""
    generated = state.value("fear.generated")
    if pool <= generated:
        return f"the Fear Pool cannot be smaller than the {generated} Fear already generated plus 1"
    return None
