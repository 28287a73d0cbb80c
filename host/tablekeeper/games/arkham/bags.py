"""The chaos bag per difficulty from a scenario or campaign file in the shape the ArkhamCards data
repository uses (``--option bag=FILE.json``): its difficulty step, a ``choose_one`` input whose
choices each set the difficulty (a ``campaign_data`` effect, or the choice's own id) and put tokens
in the bag (the choice's ``tokens`` or its ``add_chaos_token`` effect). Only that step is read; the
rest of the file (story, resolutions, campaign log) is left to its own app."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from tablekeeper.core.file_options import option_file
from tablekeeper.errors import ConfigError

DIFFICULTIES = ("easy", "standard", "hard", "expert")
TOKEN_NAMES = {"auto_fail": "autofail"}  # the repository's token names where they differ from ours
_THEIRS = {ours: theirs for theirs, ours in TOKEN_NAMES.items()}


class _Effect(msgspec.Struct):
    type: str = ""
    setting: str | None = None
    value: Any = None
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
    input: _Input | None = None


class _File(msgspec.Struct):
    steps: list[_Step] = []
    campaign: Any = None  # a whole campaign as the app bundles it: {"campaign": {...}, "scenarios": [...]}


def _shape_error(path: str, exc: msgspec.ValidationError, prefix: str = "") -> ConfigError:
    """msgspec says ``Expected X, got Y - at `$.steps[0].id```; the line names the key first."""
    reason, _, where = str(exc).partition(" - at `$")
    key = prefix + where.rstrip("`").lstrip(".")
    return ConfigError(f"{path}: {key or '(top level)'}: {reason}")


def _difficulty(path: str, key: str, choice: _Choice) -> str | None:
    said = next((e.value for e in choice.effects if e.type == "campaign_data" and e.setting == "difficulty"), None)
    if said is None:
        return choice.id if choice.id in DIFFICULTIES else None
    if said not in DIFFICULTIES:
        raise ConfigError(f"{path}: {key}: difficulty {said!r} is none of {', '.join(DIFFICULTIES)}")
    return str(said)


def _tokens(choice: _Choice, key: str) -> tuple[list[str], str] | None:
    if choice.tokens is not None:
        return choice.tokens, f"{key}.tokens"
    for index, effect in enumerate(choice.effects):
        if effect.type == "add_chaos_token" and effect.tokens is not None:
            return effect.tokens, f"{key}.effects[{index}].tokens"
    return None


def bags_in(path: str, text: str) -> dict[str, tuple[list[str], str]]:
    """Difficulty -> the tokens it puts in the bag and the key they sit under, from the file's first
    difficulty choice."""
    prefix = ""
    try:
        doc = msgspec.json.decode(text, type=_File)
        if not doc.steps and isinstance(doc.campaign, dict):
            prefix = "campaign."
            doc = msgspec.convert(doc.campaign, type=_File)
    except msgspec.ValidationError as exc:
        raise _shape_error(path, exc, prefix) from None
    except msgspec.DecodeError as exc:
        raise ConfigError(f"{path}: not JSON ({exc})") from None
    for s, step in enumerate(doc.steps):
        if step.input is None or step.input.type != "choose_one":
            continue
        found: dict[str, tuple[list[str], str]] = {}
        for c, choice in enumerate(step.input.choices):
            key = f"{prefix}steps[{s}].input.choices[{c}]"
            level = _difficulty(path, key, choice)
            tokens = _tokens(choice, key)
            if level is None or tokens is None:
                continue
            if level in found:
                raise ConfigError(f"{path}: {key}: a second chaos bag for {level} (the first is {found[level][1]})")
            found[level] = tokens
        if found:
            return found
    raise ConfigError(f"{path}: steps: no difficulty step with chaos tokens (a choose_one input whose choices "
                      "set the difficulty and add tokens)")


def load_bag(option: str, difficulty: str, kinds: Mapping[str, object]) -> dict[str, int]:
    """The bag this difficulty starts with, by our token names; a token we have no rule for is refused."""
    path, text = option_file(option)  # a session keeps the file's content, so a save replays it
    bags = bags_in(path, text)
    if difficulty not in bags:
        raise ConfigError(f"{path}: no chaos bag for {difficulty} (difficulties: {', '.join(sorted(bags))})")
    tokens, key = bags[difficulty]
    counts: Counter[str] = Counter()
    for index, raw in enumerate(tokens):
        token = TOKEN_NAMES.get(raw, raw)
        if token not in kinds:
            raise ConfigError(f"{path}: {key}[{index}]: unknown chaos token {raw!r} "
                              f"(tokens: {', '.join(sorted(_THEIRS.get(k, k) for k in kinds))})")
        counts[token] += 1
    if not counts:
        raise ConfigError(f"{path}: {key}: the {difficulty} bag is empty")
    return dict(counts)
