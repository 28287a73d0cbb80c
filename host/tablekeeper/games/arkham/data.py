"""Loading the game's data files (chaos tokens and bags, investigators, scenarios) from the package
or from a user's edited copy; every problem is one ``ConfigError`` naming the file and the key."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any, TypeVar

import msgspec

from tablekeeper.core.file_options import option_file
from tablekeeper.errors import ConfigError
from tablekeeper.schema import decode

DIFFICULTIES = ("easy", "standard", "hard", "expert")
S = TypeVar("S", bound=msgspec.Struct)


@dataclass(frozen=True, slots=True)
class TokenKind:
    """How one kind of chaos token resolves (AH-CHAOS-2..5); JSON-ready through ``to_json``."""

    value: int = 0
    again: bool = False
    leaves: bool = False
    autofail: bool = False
    elder_sign: bool = False
    symbol: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "again": self.again, "leaves": self.leaves, "autofail": self.autofail,
                "elder_sign": self.elder_sign, "symbol": self.symbol}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> TokenKind:
        return cls(int(raw["value"]), bool(raw["again"]), bool(raw["leaves"]), bool(raw["autofail"]),
                   bool(raw["elder_sign"]), bool(raw["symbol"]))


@dataclass(frozen=True, slots=True)
class Card:
    """An agenda or act card: a doom threshold or clue requirement, flat or per investigator."""

    name: str
    amount: int | None
    per_investigator: bool = False
    objective: str | None = None
    resolution: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "amount": self.amount, "per_investigator": self.per_investigator,
                "objective": self.objective, "resolution": self.resolution}


class EncounterEnemy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An enemy of the scenario's encounter sets, so a table spawning it at 1.4 picks it from a
    list instead of typing its stats (``[scenarios.ID.enemies.NAME]``)."""

    fight: Annotated[int, msgspec.Meta(ge=0, le=99)]
    health: Annotated[int, msgspec.Meta(ge=1, le=99)]
    evade: Annotated[int, msgspec.Meta(ge=0, le=99)]
    damage: Annotated[int, msgspec.Meta(ge=0, le=99)] = 1
    horror: Annotated[int, msgspec.Meta(ge=0, le=99)] = 0
    hunter: bool = False
    aloof: bool = False


class Ally(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player asset that takes damage or horror (AH-DMG-4), with the cost of playing it."""

    cost: Annotated[int, msgspec.Meta(ge=0, le=99)]
    health: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    sanity: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None


def load_allies(override: str | None = None) -> dict[str, Ally]:
    label, doc = read_toml("assets.toml", override)
    return _entries(label, doc, "", Ally)


def _entries(label: str, raw: Any, key: str, kind: type[S]) -> dict[str, S]:
    """A table of named entries, each checked on its own so an error names the entry."""
    table = _table(label, raw, key or "(top level)")
    return {str(name): decode(entry, kind, source=label, prefix=f"{key}.{name}" if key else str(name))
            for name, entry in table.items()}


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    title: str
    campaign: str
    agendas: tuple[Card, ...]
    acts: tuple[Card, ...]
    reference: Mapping[str, Mapping[str, TokenKind]]  # side -> symbol -> token
    enemies: Mapping[str, EncounterEnemy] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Investigator:
    id: str
    name: str
    health: int
    sanity: int
    elder_sign: int
    skills: Mapping[str, int]
    deck_size: int = 30
    access: Mapping[str, int] | None = None  # class -> highest level; None: no restriction known


def read_toml(name: str, override: str | None = None) -> tuple[str, dict[str, Any]]:
    """The package's ``data/<name>`` or the user's file at ``override``; returns (label, table)."""
    try:
        if override:
            label, text = option_file(override)
        else:
            label = f"arkham/data/{name}"
            files = resources.files("tablekeeper.games.arkham").joinpath("data")
            text = files.joinpath(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{label}: not a text file") from None
    try:
        return label, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{label}: {exc}") from None


def _table(label: str, raw: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{label}: {key} must be a table")
    return raw


def _int(label: str, raw: Any, key: str, lo: int | None = None) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise ConfigError(f"{label}: {key} must be a whole number, not {raw!r}")
    if lo is not None and raw < lo:
        raise ConfigError(f"{label}: {key} must be at least {lo}, not {raw}")
    return raw


def _token(label: str, raw: Any, key: str) -> TokenKind:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return TokenKind(value=raw, symbol=True)
    table = _table(label, raw, key)
    unknown = set(table) - {"value", "again", "leaves", "autofail", "elder_sign", "symbol"}
    if unknown:
        raise ConfigError(f"{label}: {key}: unknown field {sorted(unknown)[0]!r}")
    return TokenKind(value=_int(label, table.get("value", 0), f"{key}.value"),
                     again=bool(table.get("again", False)), leaves=bool(table.get("leaves", False)),
                     autofail=bool(table.get("autofail", False)), elder_sign=bool(table.get("elder_sign", False)),
                     symbol=bool(table.get("symbol", False)))


def load_tokens(override: str | None = None) -> tuple[dict[str, TokenKind], dict[str, dict[str, dict[str, int]]]]:
    """Token kinds, and bags: campaign -> difficulty -> token -> count (symbols already added)."""
    label, doc = read_toml("chaos.toml", override)
    tokens = {name: _token(label, raw, f"tokens.{name}")
              for name, raw in _table(label, doc.get("tokens"), "tokens").items()}
    bags: dict[str, dict[str, dict[str, int]]] = {}
    for campaign, raw in _table(label, doc.get("bags", {}), "bags").items():
        table = _table(label, raw, f"bags.{campaign}")
        symbols = _table(label, table.get("symbols", {}), f"bags.{campaign}.symbols")
        bags[campaign] = {}
        for level in DIFFICULTIES:
            if level not in table:
                raise ConfigError(f"{label}: bags.{campaign}.{level} is missing")
            counts: dict[str, int] = {}
            for part, where in ((table[level], level), (symbols, "symbols")):
                for token, n in _table(label, part, f"bags.{campaign}.{where}").items():
                    if token not in tokens:
                        raise ConfigError(f"{label}: bags.{campaign}.{where}: unknown token {token!r}")
                    counts[token] = counts.get(token, 0) + _int(label, n, f"bags.{campaign}.{where}.{token}", 0)
            bags[campaign][level] = counts
    return tokens, bags


def load_investigators(override: str | None = None) -> dict[str, Investigator]:
    label, doc = read_toml("investigators.toml", override)
    out = {}
    for key, raw in doc.items():
        table = _table(label, raw, key)
        skills_raw = _table(label, table.get("skills", {}), f"{key}.skills")
        skills = {}
        for skill in ("willpower", "intellect", "combat", "agility"):
            skills[skill] = _int(label, skills_raw.get(skill, 0), f"{key}.skills.{skill}", 0)
        out[key] = Investigator(key, str(table.get("name", key)), _int(label, table.get("health"), f"{key}.health", 1),
                                _int(label, table.get("sanity"), f"{key}.sanity", 1),
                                _int(label, table.get("elder_sign", 0), f"{key}.elder_sign"), skills,
                                _int(label, table.get("deck_size", 30), f"{key}.deck_size", 1),
                                None if "access" not in table else
                                {str(c): _int(label, v, f"{key}.access.{c}", 0)
                                 for c, v in _table(label, table["access"], f"{key}.access").items()})
    return out


def _card(label: str, raw: Any, key: str, amount_key: str) -> Card:
    table = _table(label, raw, key)
    name = str(table.get("name", key))
    objective = table.get("objective")
    amount = table.get(amount_key)
    if amount is None and objective is None:
        raise ConfigError(f"{label}: {key} needs {amount_key} or objective")
    return Card(name, None if amount is None else _int(label, amount, f"{key}.{amount_key}", 1),
                bool(table.get("per_investigator", False)), None if objective is None else str(objective),
                None if table.get("resolution") is None else str(table["resolution"]))


def load_scenarios(override: str | None = None) -> tuple[dict[str, Scenario], dict[str, tuple[str, ...]]]:
    """Scenarios by id, and each campaign's scenario sequence."""
    label, doc = read_toml("scenarios.toml", override)
    scenarios = {}
    for sid, raw in _table(label, doc.get("scenarios"), "scenarios").items():
        key = f"scenarios.{sid}"
        table = _table(label, raw, key)
        agendas = tuple(_card(label, c, f"{key}.agendas[{i}]", "doom") for i, c in enumerate(table.get("agendas", ())))
        acts = tuple(_card(label, c, f"{key}.acts[{i}]", "clues") for i, c in enumerate(table.get("acts", ())))
        if not agendas or not acts:
            raise ConfigError(f"{label}: {key} needs at least one agenda and one act")
        reference: dict[str, dict[str, TokenKind]] = {}
        ref = _table(label, table.get("reference", {}), f"{key}.reference")
        for side in ("easy_standard", "hard_expert"):
            part = _table(label, ref.get(side, {}), f"{key}.reference.{side}")
            reference[side] = {sym: _token(label, v, f"{key}.reference.{side}.{sym}") for sym, v in part.items()}
        enemies = _entries(label, table.get("enemies", {}), f"{key}.enemies", EncounterEnemy)
        scenarios[sid] = Scenario(sid, str(table.get("title", sid)), str(table.get("campaign", "")), agendas, acts,
                                  reference, enemies)
    campaigns = {}
    for cid, raw in _table(label, doc.get("campaigns", {}), "campaigns").items():
        seq = _table(label, raw, f"campaigns.{cid}").get("sequence", [])
        for s in seq:
            if s not in scenarios:
                raise ConfigError(f"{label}: campaigns.{cid}.sequence: unknown scenario {s!r}")
        campaigns[cid] = tuple(str(s) for s in seq)
    return scenarios, campaigns


def reference_side(difficulty: str) -> str:
    """AH-DIFFLVL-3: Easy and Standard read one face of the reference card, Hard and Expert the other."""
    if difficulty not in DIFFICULTIES:
        raise ConfigError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    return "easy_standard" if difficulty in ("easy", "standard") else "hard_expert"
