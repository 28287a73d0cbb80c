"""A deck list exported from ArkhamDB (its JSON: the investigator's card number and each card's
number with its copies) read into what the campaign log keeps of a deck: whose it is, its cards
through the player-card data (``data/cards.toml``: title, class, level, kind), and, for a deck
already upgraded there, the experience it has left. The export's other keys (name, dates, side
deck, taboo, meta) are left alone."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple

import msgspec

from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.arkham.data import load_investigators, read_toml
from tablekeeper.games.arkham.decks import DeckCard, nearest
from tablekeeper.schema import decode


class PlayerCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"card_class": "class"}):
    """A player card as the deck rules read it (AH-DB, AH-XP): title, class, level, kind."""

    title: str
    kind: Literal["standard", "signature", "signature_weakness", "weakness", "story"] = "standard"
    card_class: str = "neutral"
    level: Annotated[int, msgspec.Meta(ge=0, le=5)] | None = None
    investigator: str | None = None
    exceptional: bool = False
    permanent: bool = False


class _CardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: dict[str, Any]
    source: str = ""
    verified: bool = False


class _Export(msgspec.Struct, frozen=True):
    investigator_code: str
    slots: dict[str, Any]  # counts checked one by one, so a bad one is named by its card number
    investigator_name: str = ""
    previous_deck: int | None = None
    xp: int | None = None
    xp_spent: int | None = None
    xp_adjustment: int | None = None


class Imported(NamedTuple):
    """What the campaign takes from an export: the cards, and for an upgraded deck (one with a
    ``previous_deck``) the experience left after its upgrades (``xp`` + ``xp_adjustment`` −
    ``xp_spent``), its higher-level cards being paid for already; None for a first deck."""

    cards: list[DeckCard]
    xp_left: int | None


def load_cards() -> dict[str, PlayerCard]:
    label, doc = read_toml("cards.toml")
    whole = decode(doc, _CardFile, source=label)
    return {code: decode(raw, PlayerCard, source=label, prefix=f"cards.{code}") for code, raw in whole.cards.items()}


def purchasable(title: str, level: int, card_class: str | None = None) -> PlayerCard:
    """AH-XP-3: a purchase names a player card of the card data at one of its levels (case aside);
    a title the data does not hold (it holds the core set) is refused with the nearest it does."""
    standard = [card for card in load_cards().values() if card.kind == "standard"]
    same = [card for card in standard if card.title.casefold() == title.casefold()]
    if not same:
        known = sorted({card.title for card in standard})
        raise Rejected(f"no player card {title!r} in the card data (arkham/data/cards.toml){nearest(title, known)}")
    at_level = [card for card in same if card.level == level]
    if not at_level:
        levels = " or ".join(str(card.level) for card in sorted(same, key=lambda card: card.level or 0))
        raise Rejected(f"{same[0].title} is level {levels} in the card data, not {level}")
    card = at_level[0]
    if card_class is not None and card_class != card.card_class:
        raise Rejected(f"{card.title} is a {card.card_class} card, not {card_class}")
    return card


def deck_from_export(label: str, text: str, investigator: str | None = None) -> Imported:
    """The cards of an ArkhamDB export, each copy one ``DeckCard``; ``investigator`` (our id, the
    seat's) must be the deck's own."""
    try:
        export = msgspec.json.decode(text, type=_Export)
    except msgspec.ValidationError as exc:
        reason, _, where = str(exc).partition(" - at `$")
        raise ConfigError(f"{label}: {where.rstrip('`').lstrip('.') or '(top level)'}: {reason} "
                          "(not an ArkhamDB deck export)") from None
    except msgspec.DecodeError as exc:
        raise ConfigError(f"{label}: not JSON ({exc})") from None
    people = load_investigators()
    owner = next((key for key, inv in people.items() if inv.card == export.investigator_code), None)
    if owner is None:
        raise ConfigError(f"{label}: investigator_code {export.investigator_code}: not an investigator in the data")
    if investigator is not None and owner != investigator:
        raise ConfigError(f"{label}: this is {people[owner].name}'s deck; the seat plays {people[investigator].name}")
    known = load_cards()
    cards: list[DeckCard] = []
    for code, copies in sorted(export.slots.items()):
        if isinstance(copies, bool) or not isinstance(copies, int) or not 0 <= copies <= 99:
            raise ConfigError(f"{label}: slots.{code}: {copies!r} is not a number of copies (0 to 99)")
        card = known.get(code)
        if card is None:
            raise ConfigError(f"{label}: slots.{code}: card {code} is not in the card data (arkham/data/cards.toml)")
        if card.investigator is not None and card.investigator != export.investigator_code:
            raise ConfigError(f"{label}: slots.{code}: {card.title} belongs to another investigator")
        level = card.level if card.kind == "standard" else None
        cards += [DeckCard(card.title, level if level is not None else (0 if card.kind != "story" else None),
                           card.kind, card.card_class, card.exceptional, card.permanent)] * copies
    if export.previous_deck is None:
        return Imported(cards, None)
    left = (export.xp or 0) + (export.xp_adjustment or 0) - (export.xp_spent or 0)
    if left < 0:
        raise ConfigError(f"{label}: xp_spent: {export.xp_spent} is more than the deck's xp ({export.xp or 0})")
    return Imported(cards, left)
