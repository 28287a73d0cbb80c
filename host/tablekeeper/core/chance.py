"""Bags, decks and dice as explicit chance nodes: each lists its outcomes with exact probabilities,
a seeded ``random.Random`` passed in picks one, and the pick is logged so replay never needs the
generator. A physically drawn outcome is *reported* and becomes the same event."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction

import msgspec
from msgspec.structs import replace

from tablekeeper.errors import Rejected

MAX_COPIES = 999
"""The most copies of one token or card a bag or deck holds; a larger amount is a typo, refused."""


class Multiset(msgspec.Struct, frozen=True):
    """An immutable multiset of outcome names, kept sorted so equal contents compare equal."""

    items: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, counts: Mapping[str, int] | Iterable[str]) -> Multiset:
        if isinstance(counts, Mapping):
            pairs = {k: int(v) for k, v in counts.items() if int(v) > 0}
        else:
            pairs = {}
            for name in counts:
                pairs[name] = pairs.get(name, 0) + 1
        return cls(tuple(sorted(pairs.items())))

    def as_dict(self) -> dict[str, int]:
        return dict(self.items)

    def count(self, name: str) -> int:
        for k, v in self.items:
            if k == name:
                return v
        return 0

    @property
    def total(self) -> int:
        return sum(v for _, v in self.items)

    def add(self, name: str, n: int = 1) -> Multiset:
        d = self.as_dict()
        d[name] = d.get(name, 0) + n
        if d[name] > MAX_COPIES:
            raise Rejected(f"at most {MAX_COPIES} {name!r} (asked for {d[name]})")
        return Multiset.of(d)

    def remove(self, name: str, n: int = 1, what: str = "it") -> Multiset:
        have = self.count(name)
        if have < n:
            raise Rejected(f"{what} holds {have} {name!r}, cannot take {n}")
        d = self.as_dict()
        d[name] = have - n
        return Multiset.of(d)

    def merge(self, other: Multiset) -> Multiset:
        d = self.as_dict()
        for k, v in other.items:
            d[k] = d.get(k, 0) + v
            if d[k] > MAX_COPIES:
                raise Rejected(f"at most {MAX_COPIES} {k!r} (asked for {d[k]})")
        return Multiset.of(d)

    def probabilities(self) -> dict[str, Fraction]:
        total = self.total
        if total == 0:
            return {}
        return {k: Fraction(v, total) for k, v in self.items}

    def pick(self, rng: random.Random) -> str:
        """Pick one item uniformly among all copies."""
        total = self.total
        if total == 0:
            raise Rejected("nothing left to draw")
        roll = rng.randrange(total)
        for k, v in self.items:
            if roll < v:
                return k
            roll -= v
        raise AssertionError("unreachable: roll exceeded total")  # pragma: no cover


class Bag(msgspec.Struct, frozen=True):
    """A token bag. Drawn tokens wait in ``out`` until returned (``replace=False``), or go straight
    back (``replace=True``). Sealed tokens are out of the bag until released."""

    name: str
    contents: Multiset = Multiset()
    out: Multiset = Multiset()
    sealed: Multiset = Multiset()
    replace: bool = False

    def outcomes(self) -> dict[str, Fraction]:
        return self.contents.probabilities()

    def pick(self, rng: random.Random) -> str:
        return self.contents.pick(rng)

    def drawn(self, token: str) -> Bag:
        if self.contents.count(token) == 0:
            raise Rejected(f"the {self.name} bag holds no {token!r} token")
        if self.replace:
            return self
        return replace(self, contents=self.contents.remove(token, what=f"the {self.name} bag"),
                       out=self.out.add(token))

    def return_all(self) -> Bag:
        return replace(self, contents=self.contents.merge(self.out), out=Multiset())

    def put(self, token: str, n: int = 1) -> Bag:
        return replace(self, contents=self.contents.add(token, n))

    def take(self, token: str, n: int = 1) -> Bag:
        return replace(self, contents=self.contents.remove(token, n, what=f"the {self.name} bag"))

    def seal(self, token: str) -> Bag:
        return replace(self, contents=self.contents.remove(token, what=f"the {self.name} bag"),
                       sealed=self.sealed.add(token))

    def release(self, token: str) -> Bag:
        return replace(self, sealed=self.sealed.remove(token, what=f"the sealed {self.name} tokens"),
                       contents=self.contents.add(token))


def card_key(name: str) -> tuple[str, ...]:
    """A card name's words in any case and order, "and" and joining marks left out, so "sands+jungle"
    and "Jungle and Sands" are one key; a mark inside a word stays (W2* is not W2)."""
    return tuple(sorted(w for w in re.findall(r"[\w'*]+", name.lower()) if w != "and"))


class Deck(msgspec.Struct, frozen=True):
    """A deck drawn from the first non-empty stage of ``stages`` (one stage for a plain deck).

    The draw order is not stored: each draw is a uniform pick from what remains in the current
    stage, which is exactly a shuffled deck's distribution. When every stage is empty and
    ``reshuffle`` is set, the discard pile becomes the draw pile.
    """

    name: str
    stages: tuple[Multiset, ...] = (Multiset(),)
    discard: Multiset = Multiset()
    reshuffle: bool = True

    @classmethod
    def plain(cls, name: str, cards: Mapping[str, int] | Iterable[str], reshuffle: bool = True) -> Deck:
        return cls(name=name, stages=(Multiset.of(cards),), reshuffle=reshuffle)

    @property
    def remaining(self) -> int:
        return sum(s.total for s in self.stages)

    def stage_index(self) -> int | None:
        for i, s in enumerate(self.stages):
            if s.total:
                return i
        return None

    def ready(self) -> Deck:
        """The deck as it stands at the moment of a draw (reshuffled first if it ran out)."""
        if self.remaining == 0 and self.reshuffle and self.discard.total:
            return replace(self, stages=(self.discard,), discard=Multiset())
        return self

    def outcomes(self) -> dict[str, Fraction]:
        deck = self.ready()
        i = deck.stage_index()
        return {} if i is None else deck.stages[i].probabilities()

    def pick(self, rng: random.Random) -> str:
        deck = self.ready()
        i = deck.stage_index()
        if i is None:
            raise Rejected(f"the {self.name} deck is empty")
        return deck.stages[i].pick(rng)

    def top_names(self) -> list[str]:
        """The names the next draw may show (after a reshuffle, if it would need one)."""
        deck = self.ready()
        i = deck.stage_index()
        return [] if i is None else [name for name, _ in deck.stages[i].items]

    def match(self, reported: str) -> str:
        """The card a player's report stands for among those the top may show: the exact name, else
        the same name in any case or words in any order ("sands+jungle" is Jungle+Sands), else a
        unique start of one name. Anything else is refused with the names the top may show."""
        names = self.top_names()
        if not names:
            raise Rejected(f"the {self.name} deck is empty")
        if reported in names:
            return reported
        key = card_key(reported)
        found = [n for n in names if card_key(n) == key] or self._starting_with(names, reported)
        if len(found) == 1:
            return found[0]
        if found:
            raise Rejected(f"{reported!r} is more than one of the cards the top of the {self.name} deck may "
                           f"show: {', '.join(found)}")
        raise Rejected(f"the top of the {self.name} deck holds no {reported!r} (it may show {', '.join(names)})")

    def _starting_with(self, names: list[str], typed: str) -> list[str]:
        """Names ``typed`` starts, where it stops before a space or inside a word's letters (R4 is no
        start of R4*, nor city1 of city10) and is no card of the deck's own (one drawn already)."""
        low = typed.lower()
        known = {n.lower() for stage in (*self.stages, self.discard) for n, _ in stage.items}
        if not low or low in known:
            return []
        return [n for n in names if n.lower().startswith(low) and len(n) > len(low)
                and (n[len(low)] == " " or n[len(low)].isalpha())]

    def drawn(self, card: str, to_discard: bool = True) -> Deck:
        deck = self.ready()
        i = deck.stage_index()
        if i is None:
            raise Rejected(f"the {self.name} deck is empty")
        if deck.stages[i].count(card) == 0:
            raise Rejected(f"the top of the {self.name} deck holds no {card!r}")
        stages = list(deck.stages)
        stages[i] = stages[i].remove(card)
        discard = deck.discard.add(card) if to_discard else deck.discard
        return replace(deck, stages=tuple(stages), discard=discard)

    def refresh(self) -> Deck:
        """Shuffle the discard pile back into the current stage."""
        i = self.stage_index()
        i = 0 if i is None else i
        stages = list(self.stages)
        stages[i] = stages[i].merge(self.discard)
        return replace(self, stages=tuple(stages), discard=Multiset())

    def put(self, card: str, n: int = 1, stage: int = 0) -> Deck:
        stages = list(self.stages)
        stages[stage] = stages[stage].add(card, n)
        return replace(self, stages=tuple(stages))

    def take(self, card: str, n: int = 1, stage: int = 0) -> Deck:
        stages = list(self.stages)
        stages[stage] = stages[stage].remove(card, n, what=f"the {self.name} deck")
        return replace(self, stages=tuple(stages))


class Dice(msgspec.Struct, frozen=True):
    """``count`` dice with the given faces (repeat a face to weight it)."""

    name: str
    faces: tuple[str, ...]
    count: int = 1

    def outcomes(self) -> dict[str, Fraction]:
        """Outcome of one die."""
        return Multiset.of(self.faces).probabilities()

    def pick(self, rng: random.Random) -> str:
        return " ".join(rng.choice(self.faces) for _ in range(self.count))

    def check(self, outcome: str) -> tuple[str, ...]:
        faces = tuple(outcome.split())
        if len(faces) != self.count or any(f not in self.faces for f in faces):
            raise Rejected(f"{self.name}: expected {self.count} of {sorted(set(self.faces))}, got {outcome!r}")
        return faces


Source = Bag | Deck | Dice


class PressRandom(random.Random):
    """A command's generator, seeded by the press it stands for: the log entry number plus the steps
    the station ran by itself before it. Each step run by itself within the command counts as the
    press it saved, so a session with automatic steps draws what the same game pressed step by step
    (``--walk``) draws."""

    def __init__(self, seed: int, entry: int, runs: int, start: str | None = None) -> None:
        self._base = (seed, entry - runs)
        super().__init__(start if start is not None else f"{seed}:{entry}")

    def press(self, runs: int) -> None:
        """Re-seed as the press that would have left the ``runs``-th automatic step."""
        seed, base = self._base
        self.seed(f"{seed}:{base + runs}")

