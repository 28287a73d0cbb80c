"""The decks as the table handles them between draws: MIGHT piles shuffled back whole
(OS-MIGHT-5..7) and the stage deck's next card turned faceup (OS-ESET-4, OS-STAGE-4/6).

It knows nothing of seats or verbs, so every other module may use it."""

from __future__ import annotations

from collections.abc import Iterable

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn
from tablekeeper.games.oathsworn.cards import COLOUR_NAMES
from tablekeeper.games.oathsworn.record import rec


def reset_piles(txn: Txn, names: Iterable[str]) -> None:
    """Each named deck's discard pile goes back whole (nothing happens to a deck with none)."""
    for name in names:
        src = txn.game.source(txn.state, name)
        if isinstance(src, Deck) and src.discard.total:
            txn.emit("might.reset", source=name)


def reset_all_might(txn: Txn) -> None:
    """OS-MIGHT-7 (AMB-31): every MIGHT deck, Oathsworn and enemy, whole again."""
    reset_piles(txn, (f"{side}.{colour}" for side in ("might", "enemy") for colour in COLOUR_NAMES.values()))


def refresh_colours(txn: Txn, colours: Iterable[str]) -> None:
    """OS-MIGHT-6: the chosen Oathsworn discard piles (colour letters) go back whole."""
    letters = list(colours)
    reset_piles(txn, (f"might.{COLOUR_NAMES[c]}" for c in letters))
    txn.notice("MIGHT discard piles shuffled back: " + " ".join(COLOUR_NAMES[c] for c in letters))


def draw_stage(txn: Txn) -> str | None:
    """The next stage card; an empty deck is first rebuilt from the discarded stage 3 cards (OS-STAGE-6)."""
    deck = txn.game.source(txn.state, "stage")
    if isinstance(deck, Deck) and deck.remaining == 0:
        txn.emit("stage.rebuild", source="stage", keep=list(rec(txn.state).stage_kept))
        txn.notice("stage deck empty: rebuilt from the discarded stage 3 cards (OS-STAGE-6)")
        deck = txn.game.source(txn.state, "stage")
        if isinstance(deck, Deck) and deck.remaining == 0:
            txn.notice("no stage 3 cards to rebuild the deck")
            return None
    return txn.draw("stage")


def flip_stage(txn: Txn) -> None:
    """OS-ESET-4 / OS-STAGE-4: the next card of the deck lies faceup on top."""
    txn.put("stage_faceup", draw_stage(txn))


def stage_of(card: object) -> int:
    """The stage a stage card belongs to (its id is ``S<stage>.<n>``)."""
    return int(str(card)[1])
