"""Completing a console line: the verb from the game's verbs, then each argument from the names the
game knows for the word its usage puts there (``reveal path NAME``: the path cards; ``enter SEAT
LOCATION``: the seats, then the locations). A name with spaces is offered in quotes, as the console
reads it (``shlex``). Pure: a page asks, the answer is a list of whole lines."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tablekeeper.core.game import BUTTON_NAMES, Verb

MAX_CHOICES: Final = 12
MAX_OPTIONAL_GROUPS: Final = 6  # a usage's optional groups tried given and left out (past that: given)
SESSION_VERBS: Final = {"undo": "take back the last command", "redo": "put back what undo took",
                        "rewind": "rewind K: back to just before log entry K",
                        "press": "press BUTTON: a panel button (next, back, seat2.a, ...)",
                        "hold": "hold BUTTON: hold a panel button"}
_METAVAR: Final = re.compile(r"^[A-Z][A-Z0-9_#]*")


@dataclass(frozen=True, slots=True)
class Choice:
    """One completion: the whole line it gives, the word offered, and a hint (a verb's usage)."""

    line: str
    word: str
    hint: str = ""


def complete(text: str, verbs: Mapping[str, Verb], names: Mapping[str, tuple[str, ...]]) -> tuple[Choice, ...]:
    """The lines ``text`` may be completed to, best first (at most ``MAX_CHOICES``)."""
    done, partial, quoted = _split(text)
    head = text[: len(text) - len(partial) - (1 if quoted else 0)]
    if not done:
        found = [(verb, f"{v.usage} - {v.help}") for verb, v in verbs.items()]
        found += [(verb, help_text) for verb, help_text in SESSION_VERBS.items() if verb not in verbs]
        return tuple(Choice(f"{head}{verb} ", verb, hint) for verb, hint in _matching(found, partial))
    verb = done[0].lower()
    usage = verbs[verb].usage if verb in verbs else SESSION_VERBS.get(verb, "")
    args = done[1:]
    for taken in range(len(args), -1, -1):  # a name typed without quotes may have spaces: the longest that fits
        before, typed = args[:taken], " ".join([*args[taken:], partial]) if taken < len(args) else partial
        words = _words(verb, verbs, names, before)
        found = _matching([(w, "") for w in words], typed, anywhere=taken == len(args))
        if found or taken == 0:
            lead = " ".join(_quoted(w) for w in (done[0], *before)) + " "
            return tuple(Choice(f"{lead}{_quoted(w)}{'' if w.endswith('=') else ' '}", w, usage) for w, _ in found)
    return ()


def _words(verb: str, verbs: Mapping[str, Verb], names: Mapping[str, tuple[str, ...]], args: list[str]) -> list[str]:
    """What may be typed after ``args``: the names for the usage's word there, its literal words, ``key=``."""
    words: list[str] = []
    for kind in _kinds_at(verb, verbs, args):
        if _METAVAR.match(kind):
            words += names.get(f"{verb}:{kind}", names.get(kind, ()))
        elif "=" in kind:
            words.append(kind.split("=")[0] + "=")
        elif kind and not kind.startswith(("+", "-")):
            words.append(kind)
    return list(dict.fromkeys(words))


def _split(text: str) -> tuple[list[str], str, bool]:
    """The words typed whole, the word being typed, and whether it opened a quote."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    words: list[str] = []
    try:
        words = list(lexer)
    except ValueError:  # an open quote: the word being typed follows it
        before, _, partial = text.rpartition('"') if text.count('"') % 2 else text.rpartition("'")
        try:
            return shlex.split(before), partial, True
        except ValueError:
            return [], partial, True
    if text and not text[-1].isspace() and words:
        return words[:-1], words[-1], False
    return words, "", False


def _kinds_at(verb: str, verbs: Mapping[str, Verb], args: list[str]) -> list[str]:
    """The usage words that may stand at the next argument's place (every alternative's, with its
    optional words given or left out: ``destroy town A2`` reads ``destroy explorer|town|city [N] [LAND]``)."""
    if verb in ("press", "hold"):
        return ["BUTTON"] if not args else []
    if verb not in verbs:
        return []
    kinds: list[str] = []
    for alternative in verbs[verb].usage.split(" | "):
        for words in _readings(alternative, verb):
            repeated = next((words[i - 1] for i, w in enumerate(words) if w in ("..", "...") and i), None)
            words = [w for w in words if w not in ("..", "...")]
            literal_ok = all(not _is_literal(w) or a.lower() in w.split("|")
                             for w, a in zip(words, args, strict=False))
            if not literal_ok:
                continue
            position = len(args)
            if position < len(words):
                kinds += words[position].split("|")
            if repeated is not None and position >= words.index(repeated):
                kinds += repeated.split("|")  # a list goes on (SET ..., ELEMENT ...)
            kinds += [w.split("=")[0] + "=" for w in words[position + 1:] if "=" in w and w[0].islower()]
    return list(dict.fromkeys(kinds))


def _readings(alternative: str, verb: str) -> list[list[str]]:
    """The usage's words with each bracketed (optional) group given or left out, the verb dropped."""
    placed: list[tuple[str, tuple[int, ...]]] = []  # each word and the groups it is inside
    open_groups: list[int] = []
    groups = 0
    for token in re.findall(r"\[|\]|[^\s\[\]]+", alternative):
        if token == "[":
            open_groups.append(groups)
            groups += 1
        elif token == "]":
            if open_groups:
                open_groups.pop()
        else:
            placed.append((token, tuple(open_groups)))
    if placed and placed[0][0] == verb:
        placed = placed[1:]
    readings = []
    for left_out in range(2 ** min(groups, MAX_OPTIONAL_GROUPS)):
        words = [w for w, inside in placed if not any(left_out >> g & 1 for g in inside)]
        if words not in readings:
            readings.append(words)
    return readings


def _is_literal(word: str) -> bool:
    return not _METAVAR.match(word) and "=" not in word and not word.startswith(("+", "-"))


def _matching(found: list[tuple[str, str]], partial: str, *, anywhere: bool = True) -> list[tuple[str, str]]:
    """Words that begin with ``partial`` (any case), then (``anywhere``) those that hold it; at most
    ``MAX_CHOICES``."""
    want = partial.lower()
    first = [(w, h) for w, h in found if w.lower().startswith(want)]
    then = [(w, h) for w, h in found if anywhere and want and want in w.lower() and not w.lower().startswith(want)]
    return (first + then)[:MAX_CHOICES]


def _quoted(word: str) -> str:
    """A name as the console reads it back: in double quotes when it has spaces (single when it holds one)."""
    if not any(c.isspace() or c in "'\"#" for c in word):
        return word
    return f"'{word}'" if '"' in word and "'" not in word else '"' + word.replace('"', '\\"') + '"'


__all__ = ["BUTTON_NAMES", "Choice", "complete"]
