"""Spirit Island table data (the "outside the seeds" numbers) loaded from TOML into frozen
dataclasses, so players can correct a number by editing a copy instead of the code."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from tablekeeper.errors import ConfigError

PIECES = ("explorer", "town", "city")


@dataclass(frozen=True, slots=True)
class BlightCard:
    """One Blight card: per-player Blight on each side (SI-BLIGHTCARD-1) and its reminders."""

    name: str
    healthy_per_player: int
    blighted_per_player: int
    every_invader_phase: bool = False
    immediately: str = ""
    every_phase: str = ""
    when_blight_added: str = ""
    # What the station applies itself (the text above stays the reminder for the rest).
    immediately_presence: int = 0  # each Spirit destroys this many of its Presence
    immediately_energy: int = 0  # each Spirit loses this much Energy
    immediately_towns_per_board: int = 0  # removed from each board
    immediately_blight_per_board: int = 0  # the players place it, before the cascade
    every_phase_presence: int = 0  # each Spirit destroys this many, every Invader Phase


@dataclass(frozen=True, slots=True)
class AdversaryRule:
    """An adversary level's reaction to an event (``when``: during the action; ``after``: triggered)."""

    adversary: str
    hook: str
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class TableData:
    source: str
    fear_pool_per_player: int
    fear_cards_per_level: tuple[int, ...]
    invader_cards_per_stage: tuple[int, ...]
    invader_pools: tuple[tuple[str, ...], ...]
    escalation: tuple[str, ...]
    terrains: tuple[str, ...]
    island_per_board: Mapping[str, int]
    presence_per_spirit: int
    lands_per_terrain: int
    coastal_lands_per_board: int
    dahan_per_land: int
    piece_fear: Mapping[str, int]
    piece_damage: Mapping[str, int]
    piece_health: Mapping[str, int]
    spirit_energy: int
    spirit_energy_per_turn: int
    spirit_card_plays: int
    blight_space_per_player: int
    default_blight_card: str
    blight_cards: tuple[BlightCard, ...]
    adversary_rules: tuple[AdversaryRule, ...]

    def blight_card(self, name: str) -> BlightCard:
        for card in self.blight_cards:
            if card.name.lower() == name.lower():
                return card
        known = ", ".join(c.name for c in self.blight_cards)
        raise ConfigError(f"{self.source}: no blight card {name!r} (cards: {known}, or none)")

    def adversary(self, name: str, level: int, hook: str) -> list[AdversaryRule]:
        """Rules of ``name`` active at ``level`` for ``hook`` (each level includes the ones below)."""
        return [r for r in self.adversary_rules if r.adversary == name and r.hook == hook and r.level <= level]


class _Reader:
    """Typed access to a TOML table; every error names the file and the dotted key."""

    def __init__(self, source: str, raw: Mapping[str, Any], prefix: str = "") -> None:
        self.source, self.raw, self.prefix = source, raw, prefix

    def fail(self, key: str, what: str) -> ConfigError:
        return ConfigError(f"{self.source}: {self.prefix}{key}: {what}")

    def table(self, key: str) -> _Reader:
        value = self.raw.get(key)
        if not isinstance(value, Mapping):
            raise self.fail(key, "missing table")
        return _Reader(self.source, value, f"{self.prefix}{key}.")

    def whole(self, key: str, lo: int = 0, default: int | None = None) -> int:
        value = self.raw.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < lo:
            raise self.fail(key, f"expected a whole number >= {lo}, got {value!r}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        value = self.raw.get(key, default)
        if not isinstance(value, str):
            raise self.fail(key, f"expected text, got {value!r}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.raw.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {value!r}")
        return value

    def ints(self, key: str, length: int) -> tuple[int, ...]:
        value = self.raw.get(key)
        if (not isinstance(value, list) or len(value) != length
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
            raise self.fail(key, f"expected a list of {length} whole numbers, got {value!r}")
        return tuple(value)

    def texts(self, key: str, min_len: int = 1) -> tuple[str, ...]:
        value = self.raw.get(key)
        if not isinstance(value, list) or len(value) < min_len or not all(isinstance(v, str) and v for v in value):
            raise self.fail(key, f"expected a list of at least {min_len} names, got {value!r}")
        return tuple(value)

    def counts(self, key: str, names: tuple[str, ...]) -> dict[str, int]:
        sub = self.table(key)
        return {name: sub.whole(name) for name in names}


def parse(raw: Mapping[str, Any], source: str) -> TableData:
    """Check and convert a parsed TOML document (errors name ``source`` and the key)."""
    top = _Reader(source, raw)
    fear, inv, island, pieces = top.table("fear"), top.table("invaders"), top.table("island"), top.table("pieces")
    spirit, blight = top.table("spirit"), top.table("blight")
    per_stage = inv.ints("cards_per_stage", 3)
    pools = tuple(inv.texts(f"stage{i}") for i in (1, 2, 3))
    for i, (n, pool) in enumerate(zip(per_stage, pools, strict=True), 1):
        if n > len(pool):
            raise inv.fail("cards_per_stage", f"stage {i} deals {n} cards from a pool of {len(pool)}")
    cards_raw = blight.raw.get("cards")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise blight.fail("cards", "expected at least one [[blight.cards]] table")
    cards = []
    for i, entry in enumerate(cards_raw):
        if not isinstance(entry, Mapping):
            raise blight.fail(f"cards[{i}]", "expected a table")
        card = _Reader(source, entry, f"blight.cards[{i}].")
        cards.append(BlightCard(card.text("name"), card.whole("healthy_per_player", 1),
                                card.whole("blighted_per_player", 1), card.flag("every_invader_phase"),
                                card.text("immediately", ""), card.text("every_phase", ""),
                                card.text("when_blight_added", ""),
                                card.whole("immediately_presence", 0, 0), card.whole("immediately_energy", 0, 0),
                                card.whole("immediately_towns_per_board", 0, 0),
                                card.whole("immediately_blight_per_board", 0, 0),
                                card.whole("every_phase_presence", 0, 0)))
    rules = []
    adversaries = raw.get("adversaries", {})
    if not isinstance(adversaries, Mapping):
        raise top.fail("adversaries", "expected a table")
    adv_reader = _Reader(source, adversaries, "adversaries.")
    for name in adversaries:
        adv = adv_reader.table(name)
        for hook in adv.raw:
            rule = adv.table(hook)
            rules.append(AdversaryRule(name, hook, rule.whole("level", 0), rule.text("text")))
    data = TableData(
        source=source,
        fear_pool_per_player=fear.whole("pool_per_player", 1),
        fear_cards_per_level=fear.ints("cards_per_level", 3),
        invader_cards_per_stage=per_stage,
        invader_pools=pools,
        escalation=inv.texts("escalation", 0),
        terrains=inv.texts("terrains"),
        island_per_board={"explorers": island.whole("explorers_per_board"),
                          "towns": island.whole("towns_per_board"),
                          "cities": island.whole("cities_per_board")},
        presence_per_spirit=island.whole("presence_per_spirit", 1),
        lands_per_terrain=island.whole("lands_per_terrain", 1, 2),
        coastal_lands_per_board=island.whole("coastal_lands_per_board", 1, 3),
        dahan_per_land=island.whole("dahan_per_land", 0, 1),
        piece_fear=pieces.counts("fear", PIECES),
        piece_damage=pieces.counts("damage", (*PIECES, "dahan")),
        piece_health=pieces.counts("health", (*PIECES, "dahan")),
        spirit_energy=spirit.whole("energy"),
        spirit_energy_per_turn=spirit.whole("energy_per_turn"),
        spirit_card_plays=spirit.whole("card_plays", 1),
        blight_space_per_player=blight.whole("space_per_player", 1),
        default_blight_card=blight.text("default_card"),
        blight_cards=tuple(cards),
        adversary_rules=tuple(rules),
    )
    if sum(data.fear_cards_per_level) == 0:
        raise fear.fail("cards_per_level", "the Fear deck needs at least one card")
    if data.default_blight_card.lower() != "none":
        data.blight_card(data.default_blight_card)
    return data


_CACHE: dict[str, TableData] = {}


def load(path: str | None = None) -> TableData:
    """The packaged standard data, or a user's edited copy at ``path``."""
    key = path or ""
    if key in _CACHE:
        return _CACHE[key]
    if path is None:
        source = "spirit_island/data/standard.toml"
        text = resources.files("tablekeeper.games.spirit_island").joinpath("data/standard.toml").read_text("utf-8")
    else:
        source = path
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read data file: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{path}: not a text file") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    data = parse(raw, source)
    _CACHE[key] = data
    return data
