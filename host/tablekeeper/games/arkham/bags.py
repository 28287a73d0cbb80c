"""The chaos bag per difficulty from a scenario or campaign file in the shape the ArkhamCards data
repository uses (``--option bag=FILE.json``): its difficulty step, a ``choose_one`` input whose
choices are the difficulties, each listing its tokens. Only that step is read; the rest of the file
(story, resolutions, campaign log) is left to its own app."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from tablekeeper.core.file_options import option_file
from tablekeeper.errors import ConfigError

# The repository's token names where they differ from ours.
TOKEN_NAMES = {"auto_fail": "autofail", "elder_sign": "elder_sign", "elder_thing": "elder_thing"}


class _Effect(msgspec.Struct):
    type: str = ""
    tokens: list[str] | None = None


class _Choice(msgspec.Struct):
    id: str = ""
    tokens: list[str] | None = None
    effects: list[_Effect] = []


class _Input(msgspec.Struct):
    type: str = ""
    choices: list[_Choice] = []


class _Step(msgspec.Struct):
    id: str = ""
    type: str | None = None
    input: _Input | None = None


class _File(msgspec.Struct):
    steps: list[_Step] = []
    campaign: Any = None


def bags_in(path: str, text: str) -> dict[str, list[str]]:
    """Difficulty -> the tokens it puts in the bag, from the file's difficulty choice."""
    try:
        doc = msgspec.json.decode(text, type=_File)
        if not doc.steps and isinstance(doc.campaign, dict):
            doc = msgspec.convert(doc.campaign, type=_File)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{path}: not a scenario or campaign file of that shape ({exc})") from None
    except msgspec.DecodeError as exc:
        raise ConfigError(f"{path}: not JSON ({exc})") from None
    for step in doc.steps:
        if step.input is None or step.input.type != "choose_one":
            continue
        found: dict[str, list[str]] = {}
        for choice in step.input.choices:
            tokens = choice.tokens
            if tokens is None:
                tokens = next((e.tokens for e in choice.effects if e.type == "add_chaos_token" and e.tokens), None)
            if tokens is not None and choice.id in ("easy", "standard", "hard", "expert"):
                found[choice.id] = tokens
        if found:
            return found
    raise ConfigError(f"{path}: no difficulty step with chaos tokens (a choose_one input whose choices list tokens)")


def load_bag(option: str, difficulty: str, kinds: Mapping[str, object]) -> dict[str, int]:
    """The bag this difficulty starts with, by our token names; a token we have no rule for is refused."""
    path, text = option_file(option)  # a session keeps the file's content, so a save replays it
    bags = bags_in(path, text)
    if difficulty not in bags:
        raise ConfigError(f"{path}: no chaos bag for {difficulty} (difficulties: {', '.join(sorted(bags))})")
    counts: Counter[str] = Counter()
    for raw in bags[difficulty]:
        token = TOKEN_NAMES.get(raw, raw)
        if token not in kinds:
            raise ConfigError(f"{path}: {difficulty}: unknown chaos token {raw!r}")
        counts[token] += 1
    return dict(counts)
