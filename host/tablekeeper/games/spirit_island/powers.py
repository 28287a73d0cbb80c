"""Pure rules about using Powers: Repeat (SI-REPEAT-2/3), Push splits (SI-PUSH-1), what a card's
text qualifies for (SI-FEAR-2, SI-ASPECT-1/2, SI-DAMAGE-3), special rules read per the errata
(SI-ERRATA-1/2), trigger conditions (SI-TRIGGER-2/3), Isolate (SI-ISOLATE-1..3) and counting
(SI-COUNTS-3/5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Literal

import msgspec

from tablekeeper.core.packs import Pack
from tablekeeper.games.spirit_island import data_files
from tablekeeper.schema import decode

DAMAGING = frozenset({"damage", "destroy", "might_damage", "might_destroy"})


class PowerCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    cost: Annotated[int, msgspec.Meta(ge=0)]
    speed: Literal["fast", "slow"]
    fear_icon: bool = False
    instructions: frozenset[str] = frozenset()

    @property
    def generates_fear(self) -> bool:
        """SI-FEAR-2: every Power Card showing the Fear symbol generates Fear (as of Nature Incarnate)."""
        return self.fear_icon

    @property
    def violence_qualifies(self) -> bool:
        """SI-ASPECT-1/2, SI-DAMAGE-3: the card itself carries a Damage or Destroy instruction (even
        a "might" one, even behind a threshold); modifying, saving, reacting or reminder text do not."""
        return bool(self.instructions & DAMAGING)


class _PowerBook(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: tuple[PowerCard, ...] = ()


def _parse(raw: Mapping[str, object], source: str) -> dict[str, PowerCard]:
    book = decode(raw, _PowerBook, source=source)
    return {card.name.lower(): card for card in book.cards}


def load_powers(path: str | None = None, packs: Sequence[Pack] = ()) -> dict[str, PowerCard]:
    """Power card facts from ``data/powers.toml`` (or a user's copy) and the packs', by lower-case name."""
    return data_files.load("powers.toml", path, _parse, packs)
