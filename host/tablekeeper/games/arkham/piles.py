"""Which encounter pile a card searched out of "the encounter deck and discard pile" came from, or an
enemy the table typed that another effect drew, so both counts (and the next draw's odds) stay true:
the table is asked only when both piles could hold it."""

from __future__ import annotations

from enum import Enum

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.games.arkham.record import rec


class Pile(Enum):
    """An encounter pile, by the track that counts it."""

    DECK = "encounter.deck"
    DISCARD = "encounter.discard"


LABELS = {Pile.DECK: "the encounter deck", Pile.DISCARD: "the encounter discard pile"}


def could_hold(deck: int, discard: int) -> tuple[Pile, ...]:
    """The piles with a card left in them; ``discard`` counts only cards that were there before the search."""
    return tuple(pile for pile, held in ((Pile.DECK, deck), (Pile.DISCARD, discard)) if held > 0)


def searched(state: GameState, card: str | None) -> tuple[Pile, ...]:
    """The piles a search could have found its card in; ``card`` is the encounter card whose revelation
    made the search (``Pending.card``), None for any other source. A treachery resolving its revelation
    (Mysterious Chanting) is counted in the discard pile already, though it reaches it only afterwards:
    it is not a card the search could find."""
    found = rec(state).scenario.cards.get(card) if card is not None else None
    own = found is not None and found.kind == "treachery" and found.stays is None
    return could_hold(state.value(Pile.DECK.value), state.value(Pile.DISCARD.value) - (1 if own else 0))


def typed(state: GameState, name: str | None) -> tuple[Pile, ...]:
    """The piles an enemy typed by the table (``enemy SEAT NAME``, not the card a 1.4 draw is naming)
    could have left: one of the encounter deck's cards by the data comes out of the deck or the discard
    pile; a set-aside card, a weakness or one the data does not know leaves neither."""
    if name is None or name not in rec(state).scenario.deck:
        return ()
    return could_hold(state.value(Pile.DECK.value), state.value(Pile.DISCARD.value))


def take(txn: Txn, pile: Pile) -> None:
    """The card found leaves its pile (an emptied deck is reshuffled by its track, AH-ENCDECK-2)."""
    txn.add(pile.value, -1)
