"""Deck lists: checking a deck against the deckbuilding rules (AH-DB, AH-COPY, AH-EXCEPT,
AH-ASSET-4) and changing it between scenarios only by purchase (AH-XP-4..9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from tablekeeper.errors import Rejected
from tablekeeper.games.arkham.rules import xp_cost

KINDS = ("standard", "signature", "signature_weakness", "weakness", "story")
CLASSES = ("guardian", "seeker", "rogue", "mystic", "survivor", "neutral")  # the five classes, and neutral
WEAKNESSES = ("signature_weakness", "weakness")  # a basic weakness (random or chosen) or the investigator's own
MAX_COPIES = 2  # AH-DB-3
WEAKNESS_SEP = ";"  # between weakness titles in the ``seatN.weaknesses`` session option


class DeckCard(msgspec.Struct, frozen=True):
    """One copy of a player card. ``signature`` = investigator-specific (required),
    ``signature_weakness`` = the investigator's own weakness, ``weakness`` = a basic weakness, ``story`` = a
    story asset (no level, encounter set), ``weakness`` = a weakness; ``permanent`` cards do not
    count toward deck size (outside the seeds)."""

    title: str
    level: int | None = 0
    kind: str = "standard"
    card_class: str = "neutral"
    exceptional: bool = False
    permanent: bool = False

    def to_json(self) -> dict[str, Any]:
        return msgspec.structs.asdict(self)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> DeckCard:
        card = cls(str(raw["title"]), None if raw.get("level") is None else int(raw["level"]),
                   str(raw.get("kind", "standard")), str(raw.get("card_class", "neutral")),
                   bool(raw.get("exceptional", False)), bool(raw.get("permanent", False)))
        if card.kind not in KINDS:
            raise Rejected(f"{card.title}: kind must be one of {', '.join(KINDS)}")
        return card

    @property
    def required(self) -> bool:
        """AH-XP-6: weaknesses and cards the investigator must include cannot be swapped out."""
        return self.kind != "standard" and self.kind != "story"

    @property
    def weakness(self) -> bool:
        return self.kind in WEAKNESSES


def nearest(word: str, known: Iterable[str]) -> str:
    """``; nearest: A, B`` for a refusal of an unknown name (case aside), or nothing when none is close."""
    import difflib  # only for a name that is not a card's: not before the first frame

    by_fold = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(word.casefold(), list(by_fold), n=3, cutoff=0.6)
    return f"; nearest: {', '.join(by_fold[c] for c in close)}" if close else ""


def check_class(name: str) -> str:
    """A card class as the rules name them, or a refusal naming the classes and the nearest."""
    if name not in CLASSES:
        raise Rejected(f"unknown class {name!r} (classes: {', '.join(CLASSES)}){nearest(name, CLASSES)}")
    return name


def counts_toward_size(card: DeckCard) -> bool:
    """AH-DB-2: weaknesses, investigator-specific and scenario cards do not count; nor do permanents."""
    return card.kind == "standard" and not card.permanent


def access_problem(card: DeckCard, access: Mapping[str, int] | None) -> str | None:
    """AH-DB-4 / AH-XP-4 / AH-CLASS-3: a standard card must fall within the Deckbuilding Options."""
    if access is None or card.kind != "standard":
        return None
    top = access.get(card.card_class)
    if top is None:
        return f"{card.title}: {card.card_class} cards are outside this investigator's options"
    if (card.level or 0) > top:
        return f"{card.title}: {card.card_class} cards only up to level {top}"
    return None


def deck_xp(cards: Iterable[DeckCard]) -> int:
    """What a starting deck's higher-level cards cost (AH-DB-5 with AH-XP-3)."""
    return sum(xp_cost(c.level, exceptional=c.exceptional) for c in cards
               if c.kind == "standard" and c.level)


def deck_problems(cards: Iterable[DeckCard], *, deck_size: int, access: Mapping[str, int] | None = None,
                  starting_xp: int | None = 0, story_allowed: Iterable[str] = ()) -> list[str]:
    """Every reason the deck is not legal (empty when it is)."""
    cards = list(cards)
    problems = []
    size = sum(1 for c in cards if counts_toward_size(c))
    if size != deck_size:
        problems.append(f"{size} cards count toward deck size, not {deck_size}")  # AH-DB-2
    copies = Counter(c.title for c in cards if c.kind in ("standard", "signature", "signature_weakness"))
    exceptional = {c.title for c in cards if c.exceptional}
    for title, n in sorted(copies.items()):
        if title in exceptional and n > 1:
            problems.append(f"{title}: exceptional, at most 1 copy ({n})")  # AH-EXCEPT-2
        elif n > MAX_COPIES:
            problems.append(f"{title}: at most {MAX_COPIES} copies by title ({n})")  # AH-DB-3, AH-COPY-1
    allowed = set(story_allowed)
    for c in cards:
        if c.kind == "story" and c.title not in allowed:
            problems.append(f"{c.title}: a story asset needs a scenario's permission")  # AH-ASSET-4, AH-DB-8
    for c in cards:
        problem = access_problem(c, access)
        if problem and problem not in problems:
            problems.append(problem)
    if starting_xp is not None:
        cost = deck_xp(cards)
        if cost > starting_xp:
            problems.append(f"higher-level cards cost {cost} experience, only {starting_xp} to start with")  # AH-DB-5
    return problems

