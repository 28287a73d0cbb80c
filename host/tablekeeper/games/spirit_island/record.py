"""Spirit Island's typed record: the state its modules share (the set-up table, the Invader track,
the lands, the Blight procedure's waiting questions, Fear, the open actions' marks), converted from
the log's JSON once as each event is applied. A field keeps the key older saves log it under
(``rename``: ``slots`` is logged as "invader.slots"), so those saves still open.

What one module alone reads in a key of its own making stays in the state's untyped data: each
Spirit's per-seat keys (``seat1.played`` and the like, kept by ``spirits``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec

from tablekeeper.core.state import GameState


class Slots(msgspec.Struct, frozen=True):
    """The Invader Action cards: Ravage, Build and Explore slots (SI-INV-7)."""

    ravage: tuple[str, ...] = ()
    build: tuple[str, ...] = ()
    explore: tuple[str, ...] = ()

    def as_mapping(self) -> dict[str, list[str]]:
        return {"ravage": list(self.ravage), "build": list(self.build), "explore": list(self.explore)}


RENAME = {
    "fear_naming": "fear_cards",
    "immigration_tile": "invader.immigration_tile",
    "healing_limit": "blight.healing_limit",
    "slots": "invader.slots",
    "discard": "invader.discard",
    "group": "invader.group",
    "drawn_in_group": "invader.drawn_in_group",
    "extra_draw": "invader.extra_draw",
    "explore_skipped": "invader.explore_skipped",
    "stages": "invader.stages",
    "immigration": "invader.immigration",
    "royal_backing": "invader.royal_backing",
    "defeat_pending": "defeat.pending",
}


class SpiritIslandRecord(msgspec.Struct, frozen=True, rename=RENAME):
    """Every key the game's modules share, typed; the defaults are a game before its setup."""

    # --- set up once (the game's options) ---
    data_path: str | None = None  # --option data=PATH: the user's table data
    spirit_data: str | None = None
    packs: str | None = None
    blight_card: str | None = None  # the card in play (SI-BLIGHTCARD-1); a Still Healthy card's draw changes it
    adversary: tuple[str, int] | None = None  # key and level
    invader_draws: Literal["device", "report"] = "device"
    fear_naming: Literal["device", "report"] = "device"  # who names the Fear cards drawn
    events: bool = False
    boards: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()  # lands of two boards that touch, as laid out
    spirits: Mapping[str, str] = {}  # seat -> the Spirit's key
    healing_limit: int = 0  # France 5: Blight on the panel that goes back at once

    # --- the Invader track (SI-DECK-1, SI-INV-7) ---
    slots: Slots = Slots()
    discard: tuple[str, ...] = ()
    group: int = 0  # the deck order's run being dealt
    drawn_in_group: int = 0
    extra_draw: int = 0  # 1: an effect adds a second Explore card this step
    explore_skipped: int = 0  # 1: no Explore card is resolved this step (SI-ERRATA-2)
    stages: Mapping[str, tuple[int, ...]] = {}  # the stage each card in a slot was dealt from
    immigration: tuple[str, ...] = ()  # England 3/4: the cards on the High Immigration slot
    immigration_tile: int = 0  # 1 while England's High Immigration tile is on the Invader board
    royal_backing: int = 0  # Sweden 4: 1 while the next card flipped is discarded for its Towns

    # --- the end (SI-END-1..3) ---
    defeat_pending: tuple[str, ...] | None = None  # why the game is lost, once the causing action ends


def shared(state: GameState) -> SpiritIslandRecord:
    """The game's typed record."""
    return state.typed(SpiritIslandRecord)
