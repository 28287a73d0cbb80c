"""The one reader of Oathsworn verb arguments: each verb declares its usage line, and that line is
both its help text and the grammar its arguments are read by, so no handler parses its own words.

A usage line is the verb followed by slots:

- ``SEAT`` a seat 1..4 (``seat2`` also reads), ``SEAT[,SEAT]`` one or more seats;
- a number slot (``N``, ``STEPS``, ``DIFFICULTY`` … see ``NUMBERS``), ``N[,N]`` one or more numbers;
- ``ITEM`` / ``CLASS`` / ``CARD_NAME``: a name that may hold spaces (the words left for it);
  ``ITEM, ...``: several such names, comma-separated;
- ``NAME...`` several words, ``COLOUR...`` several MIGHT colours, ``CARD:COOLDOWN...`` name:number pairs;
- ``a|b`` one of the words (``A|B``, ``N|NE``…); a lone lowercase word is a fixed word;
  ``SEAT|company|each`` (a slot among the alternatives) is one word the verb interprets;
- any other upper-case slot is one word (a target, a location, a card);
- ``[SLOT]`` optional, ``[key=N]`` a numeric option, ``[key=N,N]`` numbers, ``[key=WORD]`` a word,
  ``[key=NAME,NAME]`` one or more words, ``[word]`` a flag, ``[= CARDS]`` cards reported from the
  table after a lone ``=``.

A verb with several shapes lists them joined by `` | ``; the first shape whose fixed words match
the command reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TypeVar

from tablekeeper.core.game import Txn, Verb
from tablekeeper.core.numbers import parse_number
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn.cards import colour_of
from tablekeeper.games.oathsworn.rules import SEATS


class Kind(Enum):
    SEAT = "seat"
    SEATS = "seats"
    INT = "int"
    INTS = "ints"
    WORD = "word"
    WORDS = "words"
    COLOURS = "colours"
    PAIRS = "pairs"
    NAME = "name"  # one name, spaces allowed
    NAMES = "names"  # comma-separated names, spaces allowed
    CHOICE = "choice"
    LIST = "list"  # comma-separated words


NUMBERS = frozenset({"N", "STEPS", "COOLDOWN", "COST", "POSITION", "HP", "DEFENSE", "DIFFICULTY", "TOKEN", "WHITES",
                     "INDEX"})
NAMED = frozenset({"ITEM", "CLASS", "CARD_NAME", "ALLY"})
T = TypeVar("T")


@dataclass(frozen=True)
class Slot:
    name: str  # how the usage line shows it, and the key handlers read it by
    kind: Kind
    optional: bool = False
    choices: tuple[str, ...] = ()

    def read(self, words: list[str], usage: str) -> object:
        if self.kind in (Kind.WORDS, Kind.COLOURS, Kind.PAIRS):
            return tuple(self._each(w, usage) for w in words)
        if self.kind in (Kind.NAME, Kind.NAMES):
            text = " ".join(words)
            if self.kind is Kind.NAME:
                return text
            return tuple(name.strip() for name in text.split(",") if name.strip())
        (word,) = words
        return self._each(word, usage)

    def _each(self, word: str, usage: str) -> object:
        if self.kind is Kind.SEAT:
            return seat_number(word)
        if self.kind is Kind.SEATS:
            return tuple(seat_number(w) for w in word.split(","))
        if self.kind is Kind.INT:
            return number(word, self.name.lower())
        if self.kind is Kind.INTS:
            return tuple(number(w, self.name.lower()) for w in word.split(",") if w)
        if self.kind is Kind.LIST:
            return tuple(w for w in word.split(",") if w)
        if self.kind is Kind.COLOURS:
            return colour_of(word)
        if self.kind is Kind.PAIRS:
            name, sep, value = word.rpartition(":")
            if not sep or not name:
                raise Rejected(f"{word!r}: write {self.name.removesuffix('...')}, e.g. Slash:1")
            return name, number(value, "cooldown")
        if self.kind is Kind.CHOICE:
            for choice in self.choices:
                if word.lower() == choice.lower():
                    return choice
            raise Rejected(f"{word!r}: one of {', '.join(self.choices)} (usage: {usage})")
        return word

    @property
    def many(self) -> bool:
        return self.kind in (Kind.WORDS, Kind.COLOURS, Kind.PAIRS, Kind.NAME, Kind.NAMES)


def seat_number(text: str) -> int:
    n = number(text.removeprefix("seat"), "seat")
    if n not in SEATS:
        raise Rejected(f"no Oathsworn {n} (the company is seats 1..4)")
    return n


def number(text: str, what: str) -> int:
    return parse_number(text, what)


def _slot(token: str) -> Slot:
    optional = token.startswith("[") and token.endswith("]")
    body = token[1:-1] if optional else token
    if body.endswith("..."):
        stem = body.removesuffix("...")
        kind = Kind.COLOURS if stem == "COLOUR" else Kind.PAIRS if ":" in stem else Kind.WORDS
        return Slot(stem, kind, optional)
    stem, sep, rest = body.partition("[,")
    if sep and rest == stem + "]":  # X[,X]: one or more, comma-separated
        kind = Kind.SEATS if stem == "SEAT" else Kind.INTS if stem in NUMBERS else Kind.LIST
        return Slot(stem, kind, optional)
    alternatives = body.split("|")
    if body.islower() or (len(alternatives) > 1 and "SEAT" not in alternatives):
        return Slot(body, Kind.CHOICE, optional, tuple(alternatives))
    if body in NUMBERS:
        return Slot(body, Kind.INT, optional)
    if body == "SEAT":
        return Slot(body, Kind.SEAT, optional)
    if body in NAMED:
        return Slot(body, Kind.NAME, optional)
    return Slot(body, Kind.WORD, optional)


@dataclass(frozen=True)
class Args:
    """What a command said, read by slot or option name; a name the usage line lacks is a bug."""

    values: Mapping[str, object]
    flags: frozenset[str] = frozenset()
    cards: tuple[str, ...] = ()

    def has(self, name: str) -> bool:
        return name in self.values

    def flag(self, name: str) -> bool:
        return name in self.flags

    def _get(self, name: str, kind: type[T], default: T | None) -> T:
        if name not in self.values:
            if default is None:
                raise KeyError(name)
            return default
        value = self.values[name]
        if not isinstance(value, kind):
            raise TypeError(f"{name} is {type(value).__name__}, not {kind.__name__}")
        return value

    def num(self, name: str, default: int | None = None) -> int:
        return self._get(name, int, default)

    def word(self, name: str, default: str | None = None) -> str:
        return self._get(name, str, default)

    def many(self, name: str) -> tuple[object, ...]:
        return self._get(name, tuple, ())

    def nums(self, name: str) -> tuple[int, ...]:
        return tuple(int(str(x)) for x in self.many(name))

    def words(self, name: str) -> tuple[str, ...]:
        return tuple(str(x) for x in self.many(name))

    def pairs(self, name: str) -> tuple[tuple[str, int], ...]:
        out: list[tuple[str, int]] = []
        for pair in self.many(name):
            if not isinstance(pair, tuple):
                raise TypeError(f"{name} holds {pair!r}")
            out.append((str(pair[0]), int(pair[1])))
        return tuple(out)


@dataclass(frozen=True)
class Shape:
    """One shape of a verb's arguments, read from its usage line."""

    usage: str
    slots: tuple[Slot, ...] = ()
    options: Mapping[str, Kind] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()
    cards: bool = False

    @classmethod
    def of(cls, usage: str) -> Shape:
        tokens = usage.replace(", ...", ",...").split()[1:]
        slots: list[Slot] = []
        options: dict[str, Kind] = {}
        flags: set[str] = set()
        cards = False
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token == "[=":
                cards = True
                i += 2
                continue
            inner = token[1:-1] if token.startswith("[") else token
            if token.startswith("[") and "=" in inner:
                key, _, value = inner.partition("=")
                options[key] = Kind.INTS if value.endswith(",N") else Kind.LIST if "," in value else (
                    Kind.INT if value == "N" else Kind.WORD)
            elif token.startswith("[") and inner.islower():
                flags.add(inner)
            elif token.endswith(",...") or token.endswith(",...]"):
                optional = token.startswith("[")
                slots.append(Slot(inner.removesuffix(",..."), Kind.NAMES, optional))
            else:
                slots.append(_slot(token))
            i += 1
        return cls(usage, tuple(slots), options, frozenset(flags), cards)

    def fits(self, words: list[str]) -> bool:
        """Whether the fixed words (one-word choices before any name) match: picks the shape."""
        for slot, word in zip(self.slots, words, strict=False):
            if slot.many or slot.optional:
                return True
            if slot.kind is Kind.CHOICE and word.lower() not in (c.lower() for c in slot.choices):
                return False
        return True

    def read(self, words: list[str], flags: set[str], opts: dict[str, str], cards: tuple[str, ...]) -> Args:
        if cards and not self.cards:
            raise Rejected(f"nothing is reported after '=' here (usage: {self.usage})")
        for key in opts:
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise Rejected(f"unknown option {key!r} (options: {known})")
        values: dict[str, object] = {}
        for key, raw in opts.items():
            values[key] = Slot(key, self.options[key]).read([raw], self.usage)
        values.update(self._positional(words))
        return Args(values, frozenset(flags), cards)

    def _positional(self, words: list[str]) -> dict[str, object]:
        """Required slots take a word each; optional ones take what is left, left to right; a
        many-word slot takes whatever the slots after it do not need."""
        required = sum(1 for s in self.slots if not s.optional)
        spare = len(words) - required
        if spare < 0 or (spare > sum(1 for s in self.slots if s.optional) and not any(s.many for s in self.slots)):
            raise Rejected(f"usage: {self.usage}")
        out: dict[str, object] = {}
        i = 0
        for k, slot in enumerate(self.slots):
            if slot.many:
                after = sum(1 for s in self.slots[k + 1:] if not s.optional)
                take = len(words) - i - after
                if take < (0 if slot.optional else 1):
                    raise Rejected(f"usage: {self.usage}")
                if take:
                    out[slot.name] = slot.read(words[i:i + take], self.usage)
                i += take
                continue
            if slot.optional:
                if spare <= 0:
                    continue
                spare -= 1
            out[slot.name] = slot.read([words[i]], self.usage)
            i += 1
        if i != len(words):
            raise Rejected(f"usage: {self.usage}")
        return out


@dataclass(frozen=True)
class Usage:
    """A verb's usage: one shape or several (``a | b``); ``read`` turns the command's words into Args."""

    text: str
    shapes: tuple[Shape, ...]

    @classmethod
    def of(cls, text: str) -> Usage:
        return cls(text, tuple(Shape.of(part.strip()) for part in text.split(" | ")))

    @property
    def flags(self) -> frozenset[str]:
        return frozenset(f for shape in self.shapes for f in shape.flags)

    def read(self, args: tuple[str, ...]) -> Args:
        words, flags, opts, cards = split(args, self.flags)
        for shape in self.shapes:
            if shape.fits(words):
                return shape.read(words, flags, opts, cards)
        raise Rejected(f"usage: {self.text}")


def split(args: tuple[str, ...],
          known_flags: frozenset[str]) -> tuple[list[str], set[str], dict[str, str], tuple[str, ...]]:
    """The command's words, its flags, its ``key=value`` options, and the cards after a lone ``=``."""
    words: list[str] = []
    flags: set[str] = set()
    opts: dict[str, str] = {}
    cards: list[str] = []
    seen_eq = False
    for a in args:
        if seen_eq:
            cards.extend(c for c in a.replace(",", " ").split() if c)
        elif a == "=":
            seen_eq = True
        elif "=" in a:
            key, _, value = a.partition("=")
            if key in opts:
                raise Rejected(f"option {key!r} given twice")
            opts[key] = value
        elif a in known_flags:
            flags.add(a)
        else:
            words.append(a)
    return words, flags, opts, tuple(cards)


Handler = Callable[[Txn, Args], None]


class GameVerb(Verb, frozen=True):
    """A verb of this game: its handler takes the Args its usage line reads. ``answers`` names the
    prompts the verb answers (taken as the answer while that prompt is open); ``in_fight`` says it
    may be used while a story round of combat is still open."""

    answers: frozenset[str] = frozenset()
    in_fight: bool = False


def verb(usage: str, help: str, handler: Handler, *, answers: tuple[str, ...] = (),
         in_fight: bool = False) -> GameVerb:
    reader = Usage.of(usage)

    def run(txn: Txn, args: tuple[str, ...]) -> None:
        handler(txn, reader.read(args))

    return GameVerb(usage, help, run, frozenset(answers), in_fight)
