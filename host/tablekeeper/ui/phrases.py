"""Where a sentence on a small display may break: between its phrases, and inside a phrase only when
the phrase is wider than a row. Text is wrapped phrase by phrase (a phrase that fits a row starts a
row of its own rather than break), a phrase too wide for a row word by word, and a word too wide for
a row at a hyphenation point of the language's rules (pyphen's dictionary), never cut. Text that
cannot be wrapped that way (a long number) is the caller's to scroll.

A phrase ends after ``, ; : ? !``, after a full stop that ends a word of two or more letters, after a
parenthesis that closes what it opened, and before ``(``, ``-``, ``->``, ``|`` and ``=``; a phrase is
at least ``MIN_PHRASE`` characters long (a label such as "A:" stays with what it labels). So "no
travel: location progress 0/4: not enough to travel" breaks as "no travel:", "location progress
0/4:", "not enough to travel", never between "not" and "enough".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Final

_ENDS: Final = (",", ";", ":", "?", "!")
_STARTS: Final = ("(", "-", "|", "=", "<-")
_SENTENCE_END: Final = re.compile(r"[A-Za-z]{2,}[.)]*\.$")
_CORE: Final = re.compile(r"^([^A-Za-z]*)([A-Za-z\u00c0-\u00ff]+)([^A-Za-z]*)$")
LANGUAGE: Final = "en_US"
MIN_PART: Final = 2  # letters either side of a hyphen (the dictionary's own minimum)
MIN_PHRASE: Final = 4  # characters: a shorter phrase ("A:", "+1:") joins the next


def ends_phrase(word: str, following: str | None, phrase: Sequence[str] = ()) -> bool:
    """Whether a phrase may end after ``word`` when ``following`` comes next (None: the text ends);
    ``phrase``: the phrase's words so far, ``word`` last."""
    if following is None:
        return True
    if len(" ".join(phrase or [word])) < MIN_PHRASE:
        return False
    if word.endswith(_ENDS) or _SENTENCE_END.search(word):
        return True
    if word.endswith(")") and (phrase or [word])[0].startswith("("):
        return True
    return following.startswith(_STARTS)


def phrases(text: str) -> list[list[str]]:
    """``text``'s phrases, each a list of its words (split on white space)."""
    words = text.split()
    out: list[list[str]] = []
    current: list[str] = []
    for index, word in enumerate(words):
        current.append(word)
        if ends_phrase(word, words[index + 1] if index + 1 < len(words) else None, current):
            out.append(current)
            current = []
    return out


@functools.cache
def _dictionary() -> object:
    import pyphen  # loaded with the first word too long for a row

    return pyphen.Pyphen(lang=LANGUAGE, left=MIN_PART, right=MIN_PART)


def hyphen_points(word: str) -> tuple[int, ...]:
    """Where ``word`` may be hyphenated (offsets into ``word``), by the language's rules; none for a
    word that is not letters (with punctuation around them)."""
    core = _CORE.match(word)
    if core is None:
        return ()
    lead = len(core.group(1))
    positions = _dictionary().positions(core.group(2))  # type: ignore[attr-defined]
    return tuple(lead + int(p) for p in positions)


def wrap_rows(text: str, widths: Sequence[int], indent: str = "") -> tuple[str, ...] | None:
    """``text`` in rows: row ``i`` holds at most ``widths[i]`` characters (the last width repeats), rows
    after the first start with ``indent`` (and the first with the spaces ``text`` starts with). None
    when a word fits no row even hyphenated."""
    body = text.lstrip(" ")
    lead = text[:len(text) - len(body)]
    if not lead:
        return _wrap(text, tuple(widths), indent)
    rows = _wrap(body, (widths[0] - len(lead), *widths[1:]) if len(widths) > 1 else (widths[0] - len(lead), widths[0]),
                 indent)
    return None if rows is None else (lead + rows[0], *rows[1:])


@functools.lru_cache(maxsize=512)
def _wrap(text: str, widths: tuple[int, ...], indent: str) -> tuple[str, ...] | None:
    rows: list[str] = []
    current = ""

    def room(row: int) -> int:
        return widths[min(row, len(widths) - 1)] - (len(indent) if row else 0)

    for phrase in phrases(text):
        whole = " ".join(phrase)
        joined = f"{current} {whole}" if current else whole
        if len(joined) <= room(len(rows)):
            current = joined
        elif current and len(whole) <= room(len(rows) + 1):
            rows.append(current)
            current = whole
        else:  # wider than a row: word by word, on this row or a fresh one, whichever takes fewer rows
            here = _words(phrase, rows, current, room)
            fresh = _words(phrase, [*rows, current], "", room) if current else None
            if here is None and fresh is None:
                return None
            best = min((o for o in (fresh, here) if o is not None), key=lambda o: len(o[0]))
            rows, current = best
    if current or not rows:
        rows.append(current)
    return tuple(row if i == 0 else indent + row for i, row in enumerate(rows))


def _words(words: Sequence[str], rows: list[str], current: str,
           room: Callable[[int], int]) -> tuple[list[str], str] | None:
    """``words`` set word by word after ``rows`` and the row being filled (``current``); a word wider
    than a row is hyphenated. None when a word fits no row even so."""
    rows = list(rows)
    for word in words:
        joined = f"{current} {word}" if current else word
        if len(joined) <= room(len(rows)):
            current = joined
            continue
        if current and len(word) <= room(len(rows) + 1):
            rows.append(current)
            current = word
            continue
        rest = word
        while len(f"{current} {rest}" if current else rest) > room(len(rows)):
            space = room(len(rows)) - (len(current) + 1 if current else 0)
            cut = max((p for p in hyphen_points(rest) if p + 1 <= space), default=None)
            if cut is None:
                if not current:
                    return None  # no hyphenation point leaves a part that fits a row
                rows.append(current)
                current = ""
                continue
            head = rest[:cut] + "-"
            rows.append(f"{current} {head}" if current else head)
            current = ""
            rest = rest[cut:]
        current = f"{current} {rest}" if current else rest
    return rows, current


def broken_phrases(text: str, rows: Sequence[str], width: int) -> list[str]:
    """The phrases of ``text`` that ``rows`` break although they would fit a row of ``width``: what a
    reader sees as a sentence torn mid-phrase. Empty when every break falls between phrases, or inside
    a phrase too wide for a row. Rows whose text is not ``text`` (a word cut, a word left out) raise
    ``ValueError``."""
    words = text.split()
    breaks = _break_points(words, rows)
    out = []
    start = 0
    for phrase in phrases(text):
        index = start + len(phrase) - 1
        inner = [b for b in breaks if start <= b.word < index or (b.word == index and b.hyphen)]
        if inner and len(" ".join(phrase)) <= width:
            out.append(" ".join(phrase))
        for b in inner:
            if b.hyphen and b.offset not in hyphen_points(words[b.word]):
                out.append(f"{words[b.word]} (broken at {b.offset}, not a hyphenation point)")
        start = index + 1
    return out


class _Break:
    """A row break after word ``word`` (``hyphen``: inside it, after ``offset`` characters)."""

    __slots__ = ("hyphen", "offset", "word")

    def __init__(self, word: int, hyphen: bool, offset: int) -> None:
        self.word, self.hyphen, self.offset = word, hyphen, offset


def _break_points(words: Sequence[str], rows: Sequence[str]) -> list[_Break]:
    """Where ``rows`` break the run of ``words``, read back from the rows alone."""
    breaks: list[_Break] = []
    index, partial = 0, ""  # the word being read, and the part of it already read
    for number, row in enumerate(rows):
        pieces = row.split()
        for position, piece in enumerate(pieces):
            last = position == len(pieces) - 1 and number < len(rows) - 1
            if index >= len(words):
                raise ValueError(f"{row!r}: more than the text")
            word = words[index]
            expected = word[len(partial):]
            if piece == expected:
                index, partial = index + 1, ""
                if last:
                    breaks.append(_Break(index - 1, False, 0))
                continue
            if last and piece.endswith("-") and expected.startswith(piece[:-1]) and len(piece) > 1:
                partial += piece[:-1]
                breaks.append(_Break(index, True, len(partial)))
                continue
            raise ValueError(f"{row!r}: {piece!r} where the text has {expected!r}")
    if index != len(words):
        raise ValueError(f"the rows leave out {' '.join(words[index:])!r}")
    return breaks
