"""Commands (what a player asked for) and events (what the game accepted as having happened)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

import msgspec

Json = Any  # JSON-compatible value: None, bool, int, float, str, list, dict


class NoticeKind(Enum):
    """What a notice is about, so the station chooses a sound or a light without reading its words."""

    INFO = "info"
    THRESHOLD = "threshold"  # a counter reached one of its marks
    DEFEAT = "defeat"  # someone or something at the table was defeated
    AUTO = "auto"  # the station ran a step by itself (the text is the step's title)
    STOP = "stop"  # the automatic run halted where the table acts (the text says what it does there)


class Command(msgspec.Struct, frozen=True):
    """One input from a button, a counter or a script line, before the game has judged it."""

    verb: str
    args: tuple[str, ...] = ()
    origin: str = "script"

    def text(self) -> str:
        return " ".join((self.verb, *self.args))

    def to_json(self) -> dict[str, Json]:
        return {"verb": self.verb, "args": list(self.args), "origin": self.origin}

    @classmethod
    def from_json(cls, raw: Mapping[str, Json]) -> Command:
        return cls(str(raw["verb"]), tuple(str(a) for a in raw.get("args", ())), str(raw.get("origin", "script")))


class Event(msgspec.Struct, frozen=True):
    """A fact the log keeps forever; ``apply(state, event)`` is the only way state changes.

    ``data`` holds JSON values only, so the log can be saved and replayed without the game's
    random generator.
    """

    kind: str
    data: Mapping[str, Json] = msgspec.field(default_factory=dict)

    def __getitem__(self, key: str) -> Json:
        return self.data[key]

    def get(self, key: str, default: Json = None) -> Json:
        return self.data.get(key, default)

    def to_json(self) -> dict[str, Json]:
        return {"kind": self.kind, **{k: v for k, v in self.data.items()}}

    @classmethod
    def from_json(cls, raw: Mapping[str, Json]) -> Event:
        data = {k: v for k, v in raw.items() if k != "kind"}
        return cls(str(raw["kind"]), data)
