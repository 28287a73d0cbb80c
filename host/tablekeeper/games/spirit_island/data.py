"""Spirit Island table data decoded from TOML by msgspec into typed records: the rule numbers
(``standard.toml``), the island boards, the adversaries, and the Fear and Blight cards, each in its
own packaged file. A user's file (``--option data=PATH``) may hold any of these tables; each table it
holds replaces the packaged one, so players correct a number by editing a copy, not the code."""

# Annotations stay objects here (no ``from __future__ import annotations``): msgspec reads these records'
# annotations at the first decode of every start, and compiles and evaluates each one given as a string.
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Annotated, Literal, TypeVar

import msgspec

from tablekeeper.core.packs import Pack
from tablekeeper.errors import ConfigError
from tablekeeper.games.spirit_island import data_files
from tablekeeper.schema import decode

Piece = Literal["explorer", "town", "city"]  # an Invader piece
PIECES: tuple[Piece, ...] = ("explorer", "town", "city")
TERRAINS = ("Jungle", "Mountain", "Sands", "Wetland")
PACKAGED = ("standard.toml", "boards.toml", "adversaries.toml", "fear_cards.toml", "blight_cards.toml")

Whole = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Names = Annotated[tuple[str, ...], msgspec.Meta(min_length=1)]
Terrain = Literal["Jungle", "Mountain", "Sands", "Wetland"]


class BlightCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Blight card, both sides (SI-BLIGHTCARD-1): per-player Blight on each side, whether its
    other side is "Still Healthy", its reminders, and the counted parts the station applies."""

    name: str
    healthy_per_player: Positive
    blighted_per_player: Positive
    box: str = ""
    verified: bool = False
    source: str = ""
    still_healthy: bool = False
    every_invader_phase: bool = False
    immediately: str = ""
    every_phase: str = ""
    when_blight_added: str = ""
    immediately_presence: Whole = 0  # each Spirit destroys this many of its Presence
    immediately_energy: Whole = 0  # each Spirit loses this much Energy
    immediately_fear_per_player: Whole = 0
    immediately_fear_pool_halves: tuple[Whole, ...] = ()  # per Terror Level, half-markers per player
    immediately_towns_per_board: Whole = 0  # removed from each board
    immediately_blight_per_board: Whole = 0  # the players place it, before the cascade
    immediately_blight_per_player: Whole = 0
    every_phase_presence: Whole = 0  # each Spirit destroys this many, every Invader Phase
    spirit_phase_energy: Whole = 0
    spirit_phase_plays: Whole = 0


class FearTurn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one level of a Fear card changes in this turn's Ravage, Build and Explore, so the
    rules' answers the station offers follow it: lands where Invaders do not Build (or Build no
    City) or Explore, and the Defend it gives."""

    no_build: Literal["", "city", "dahan", "dahan_outnumber_buildings", "coastal"] = ""
    no_city: Literal["", "coastal"] = ""
    no_explore: Literal["", "two_dahan"] = ""
    defend_coastal: Whole = 0
    defend_presence: Whole = 0  # in each land with any Spirit's Presence
    defend_per_dahan: Whole = 0
    defend_with_dahan: Whole = 0  # once more in each land with Dahan


class FearCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Fear card: what it does at Terror Level I, II and III, in our words; ``turn``: what each
    level changes in this turn's Invader steps (none where the players do it by hand)."""

    name: str
    effects: tuple[str, str, str]
    turn: tuple[FearTurn, FearTurn, FearTurn] | None = None
    box: str = ""
    verified: bool = False
    source: str = ""


class LandData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A land as printed on its board: number, terrain, coastal, adjacency, setup pieces."""

    number: Annotated[int, msgspec.Meta(ge=1, le=8)]
    terrain: Terrain
    coastal: bool
    adjacent: tuple[Annotated[int, msgspec.Meta(ge=1, le=8)], ...]
    explorers: Whole = 0
    towns: Whole = 0
    cities: Whole = 0
    dahan: Whole = 0
    blight: Whole = 0


class Board(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    lands: Annotated[tuple[LandData, ...], msgspec.Meta(min_length=8, max_length=8)]
    verified: bool = False
    source: str = ""


class SetupChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Pieces an adversary level adds on each board at setup."""

    land: Annotated[int, msgspec.Meta(ge=0, le=8)] = 0
    highest_without: Literal["", "towns", "buildings"] = ""
    explorers: Whole = 0
    towns: Whole = 0
    cities: Whole = 0
    blight: Whole = 0
    beasts: Whole = 0
    move_blight_to: Annotated[int, msgspec.Meta(ge=0, le=8)] = 0


class Reaction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hook: Literal["when_blight_added", "after_blight_added", "after_explore_card"]
    text: str


StationRule = Literal["frontier_explorers", "slave_labor", "triangle_trade", "slow_healing", "royal_backing",
                      "impending_disaster", "hunters_compete", "entrench", "fast_profit", "trading_port",
                      "chart_coastline", "inward_growth"]


class Applied(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A level's rule the station applies by name (``adversary_rules``), with its one printed number
    where it has one (3 Blight per player, 3 Explorers, 2 lands per board)."""

    rule: StationRule
    n: Whole = 0


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One adversary level (each level includes the ones below it)."""

    level: Annotated[int, msgspec.Meta(ge=0, le=6)]
    difficulty: Whole
    fear_cards: tuple[Whole, Whole, Whole]
    name: str = ""
    effect: str = ""
    setup: tuple[SetupChange, ...] = ()
    invader_deck: str = ""
    reaction: Reaction | None = None
    fear_pool_per_player: Whole = 0
    piece_damage: dict[Literal["explorer", "town", "city"], Whole] = {}
    health_bonus: dict[Literal["explorer", "town", "city"], Whole] = {}
    build_adjacent_buildings: Whole = 0
    high_immigration: Literal["", "stage_two", "all_game"] = ""
    double_build_without_fear: bool = False
    ravage_extra_blight_at: Whole = 0
    applies: tuple[Applied, ...] = ()


class Escalation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    effect: str
    rule: Literal["", "town_where_none", "build_where_most", "town_replaces_dahan", "cash_crops",
                  "stalk_predators", "ports_sprawl"] = ""
    n: Whole = 0  # the one printed number (Russia: 2 Explorers per board)


class Loss(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An extra loss condition: checked by the station (``rule``), or asked as step ``at`` ends."""

    name: str
    effect: str
    rule: Literal["", "buildings_in_one_land", "coastal_city_lands_per_board", "towns_per_player"] = ""
    limit: Whole = 0
    at: Literal["", "ravage", "build", "explore"] = ""


class Adversary(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    levels: Annotated[tuple[Level, ...], msgspec.Meta(min_length=1)]
    box: str = ""
    verified: bool = False
    source: str = ""
    escalation: Escalation | None = None
    loss: Loss | None = None


class _Fear(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pool_per_player: Positive
    cards_per_level: tuple[Whole, Whole, Whole]


class _Invaders(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards_per_stage: tuple[Whole, Whole, Whole]
    stage1: Names
    stage2: Names
    stage3: Names
    terrains: Names
    escalation: tuple[str, ...] = ()
    marked: dict[str, str] = {}  # a letter in a deck order standing for one named card


class _Island(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    presence_per_spirit: Positive


class _PieceCounts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    explorer: Whole
    town: Whole
    city: Whole
    dahan: Whole | None = None


class _Pieces(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    fear: _PieceCounts
    damage: _PieceCounts
    health: _PieceCounts


class _Spirit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    energy: Whole
    energy_per_turn: Whole
    card_plays: Positive


class _BlightSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    space_per_player: Positive


class _BlightCards(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    default: str
    cards: Annotated[tuple[BlightCard, ...], msgspec.Meta(min_length=1)]


class _Document(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Any of the data tables; a packaged file holds some, a user's file may hold any."""

    fear: _Fear | None = None
    invaders: _Invaders | None = None
    island: _Island | None = None
    pieces: _Pieces | None = None
    spirit: _Spirit | None = None
    blight: _BlightSpace | None = None
    blight_cards: _BlightCards | None = None
    fear_cards: tuple[FearCard, ...] | None = None
    boards: dict[str, Board] | None = None
    adversaries: dict[str, Adversary] | None = None


@dataclass(frozen=True, slots=True)
class AdversaryRule:
    """An adversary level's reaction to an event (``when``: during the action; ``after``: triggered)."""

    adversary: str
    hook: str
    level: int
    text: str


@dataclass(frozen=True, slots=True)
class AdversaryAt:
    """An adversary at a chosen level: its levels up to that one, merged."""

    key: str
    name: str
    level: int
    difficulty: int
    fear_cards: tuple[int, int, int]
    setup: tuple[SetupChange, ...]
    invader_deck: str
    fear_pool_per_player: int
    piece_damage: Mapping[str, int]
    health_bonus: Mapping[str, int]
    build_adjacent_buildings: int
    high_immigration: str
    double_build_without_fear: bool
    ravage_extra_blight_at: int
    escalation: Escalation | None
    loss: Loss | None
    verified: bool
    applies: Mapping[str, tuple[int, ...]] = field(default_factory=dict)  # rule -> its printed numbers


@dataclass(frozen=True, slots=True)
class DeckGroup:
    """A run of cards in the Invader deck: ``count`` cards dealt from ``pool`` (the stage's cards
    not named elsewhere in the order), all of one stage."""

    stage: int
    count: int
    pool: tuple[str, ...]
    marked: bool = False  # one named card placed by the order (Scotland's Coastal card)


@dataclass(frozen=True, slots=True)
class TableData:
    source: str
    fear_pool_per_player: int
    fear_cards_per_level: tuple[int, ...]
    invader_cards_per_stage: tuple[int, ...]
    invader_pools: tuple[tuple[str, ...], ...]
    escalation: tuple[str, ...]
    marked: Mapping[str, str]
    terrains: tuple[str, ...]
    presence_per_spirit: int
    piece_fear: Mapping[str, int]
    piece_damage: Mapping[str, int]
    piece_health: Mapping[str, int]
    spirit_energy: int
    spirit_energy_per_turn: int
    spirit_card_plays: int
    blight_space_per_player: int
    default_blight_card: str
    blight_cards: tuple[BlightCard, ...]
    fear_cards: tuple[FearCard, ...]
    boards: Mapping[str, Board]
    adversaries: Mapping[str, Adversary]
    adversary_rules: tuple[AdversaryRule, ...] = field(default=())

    def blight_card(self, name: str) -> BlightCard:
        for card in self.blight_cards:
            if card.name.lower() == name.lower():
                return card
        known = ", ".join(c.name for c in self.blight_cards)
        raise ConfigError(f"{self.source}: no blight card {name!r} (cards: {known}, or none)")

    def fear_card(self, name: str) -> FearCard | None:
        return next((c for c in self.fear_cards if c.name == name), None)

    def adversary_at(self, key: str, level: int) -> AdversaryAt:
        """The adversary ``key`` at ``level``: Fear cards and difficulty of that level, the rules of
        every level up to it, the Invader deck order of the highest level that sets one."""
        adv = self.adversaries[key]
        levels = sorted((lv for lv in adv.levels if lv.level <= level), key=lambda lv: lv.level)
        top = levels[-1]
        damage: dict[str, int] = {}
        health: dict[str, int] = {}
        for lv in levels:
            for kind, n in lv.piece_damage.items():
                damage[kind] = n
            for kind, n in lv.health_bonus.items():
                health[kind] = n
        orders = [lv.invader_deck for lv in levels if lv.invader_deck]
        immigration = [lv.high_immigration for lv in levels if lv.high_immigration]
        return AdversaryAt(
            key=key, name=adv.name, level=level, difficulty=top.difficulty, fear_cards=top.fear_cards,
            setup=tuple(change for lv in levels for change in lv.setup),
            invader_deck=orders[-1] if orders else "",
            fear_pool_per_player=sum(lv.fear_pool_per_player for lv in levels),
            piece_damage=damage, health_bonus=health,
            build_adjacent_buildings=max((lv.build_adjacent_buildings for lv in levels), default=0),
            high_immigration=immigration[-1] if immigration else "",
            double_build_without_fear=any(lv.double_build_without_fear for lv in levels),
            ravage_extra_blight_at=max((lv.ravage_extra_blight_at for lv in levels), default=0),
            escalation=adv.escalation, loss=adv.loss, verified=adv.verified,
            applies=_applied(levels))

    def deck_order(self, adversary: str = "", level: int = 0) -> tuple[DeckGroup, ...]:
        """SI-DECK-1: the Invader deck as runs of one stage, top first: the standard stages, or the
        order the adversary's highest level at or below ``level`` sets."""
        order = self.adversary_at(adversary, level).invader_deck if adversary in self.adversaries else ""
        if not order:
            return tuple(DeckGroup(i + 1, n, pool) for i, (n, pool)
                         in enumerate(zip(self.invader_cards_per_stage, self.invader_pools, strict=True)) if n)
        return parse_order(order, self, f"{self.source}: {adversary}")

    def adversary(self, name: str, level: int, hook: str) -> list[AdversaryRule]:
        """Rules of ``name`` active at ``level`` for ``hook`` (each level includes the ones below)."""
        return [r for r in self.adversary_rules if r.adversary == name and r.hook == hook and r.level <= level]


def _applied(levels: list[Level]) -> dict[str, tuple[int, ...]]:
    """The station-applied rules of ``levels``, each with its printed numbers in level order."""
    out: dict[str, tuple[int, ...]] = {}
    for lv in levels:
        for a in lv.applies:
            out[a.rule] = (*out.get(a.rule, ()), a.n)
    return out


def parse_order(order: str, data: TableData, where: str) -> tuple[DeckGroup, ...]:
    """``11-22-1-C2-33333``: runs of a stage digit, or a letter of ``invaders.marked`` for its one
    card; a marked card the order places is dealt only there, one it does not place stays in its
    stage's pool."""
    named = {card for letter, card in data.marked.items() if letter in order}
    groups: list[DeckGroup] = []
    for run in order.split("-"):
        for ch, same in groupby(run):
            n = len(list(same))
            if ch in data.marked:
                card = data.marked[ch]
                stage = next(i + 1 for i, pool in enumerate(data.invader_pools) if card in pool)
                groups += [DeckGroup(stage, 1, (card,), marked=True)] * n
            elif ch in ("1", "2", "3"):
                stage = int(ch)
                groups.append(DeckGroup(stage, n, tuple(c for c in data.invader_pools[stage - 1] if c not in named)))
            else:
                raise ConfigError(f"{where}: invader_deck order {order!r}: {ch!r} is no stage (1-3) "
                                  f"or marked card ({', '.join(data.marked) or 'none'})")
    for stage in (1, 2, 3):
        dealt = sum(g.count for g in groups if g.stage == stage and not g.marked)
        marked = [g.pool[0] for g in groups if g.stage == stage and g.marked]
        pool = [c for c in data.invader_pools[stage - 1] if c not in named]
        if dealt > len(pool) or len(set(marked)) != len(marked):
            raise ConfigError(f"{where}: invader_deck order {order!r} deals more stage {stage} cards "
                              f"than its pool of {len(pool)} (and each marked card once)")
    return tuple(groups)


def _merge(parts: list[tuple[_Document, str]]) -> tuple[_Document, dict[str, str]]:
    """Later parts' tables replace earlier ones; which file each table came from, for messages."""
    merged: dict[str, object] = {}
    origin: dict[str, str] = {}
    for doc, source in parts:
        for name in _Document.__struct_fields__:
            value = getattr(doc, name)
            if value is not None:
                merged[name] = value
                origin[name] = source
    return _Document(**merged), origin  # type: ignore[arg-type]


_T = TypeVar("_T")


def _need(value: _T | None, name: str, source: str) -> _T:
    """A table every game needs (a user's file replaces tables, it cannot drop one)."""
    if value is None:
        raise ConfigError(f"{source}: missing table {name!r}")
    return value


def _check_boards(boards: Mapping[str, Board], source: str) -> None:
    for key, board in boards.items():
        if len(key) != 1 or not key.isalpha() or not key.isupper():
            raise ConfigError(f"{source}: boards.{key}: a board is named by one capital letter")
        numbers = [land.number for land in board.lands]
        if sorted(numbers) != list(range(1, 9)):
            raise ConfigError(f"{source}: boards.{key}.lands: expected lands 1 to 8 once each, got {numbers}")
        by_number = {land.number: land for land in board.lands}
        for land in board.lands:
            for other in land.adjacent:
                if other == land.number or land.number not in by_number[other].adjacent:
                    raise ConfigError(f"{source}: boards.{key}.lands[{land.number - 1}].adjacent: "
                                      f"{land.number} and {other} must list each other")


def _check_adversaries(data: TableData, source: str) -> None:
    for key, adv in data.adversaries.items():
        levels = sorted(lv.level for lv in adv.levels)
        if levels[0] != 0 or len(set(levels)) != len(levels):
            raise ConfigError(f"{source}: adversaries.{key}.levels: expected level 0 and each level once")
        for lv in adv.levels:
            if lv.invader_deck:
                parse_order(lv.invader_deck, data, f"{source}: adversaries.{key}")
            for change in lv.setup:
                if bool(change.land) == bool(change.highest_without):
                    raise ConfigError(f"{source}: adversaries.{key}.levels[{lv.level}].setup: give a land "
                                      "or highest_without, not both")


def parse(parts: list[tuple[Mapping[str, object], str]]) -> TableData:
    """Check and convert parsed TOML documents (errors name the file and the key)."""
    docs = [(decode(raw, _Document, source=source), source) for raw, source in parts]
    doc, origin = _merge(docs)
    label = docs[-1][1] if len(docs) > len(PACKAGED) else "spirit_island/data"
    fear, inv = _need(doc.fear, "fear", label), _need(doc.invaders, "invaders", label)
    island, pieces = _need(doc.island, "island", label), _need(doc.pieces, "pieces", label)
    spirit, space = _need(doc.spirit, "spirit", label), _need(doc.blight, "blight", label)
    blight_cards = _need(doc.blight_cards, "blight_cards", label)
    fear_cards, boards = _need(doc.fear_cards, "fear_cards", label), _need(doc.boards, "boards", label)
    adversaries = _need(doc.adversaries, "adversaries", label)
    pools = (inv.stage1, inv.stage2, inv.stage3)
    for i, (n, pool) in enumerate(zip(inv.cards_per_stage, pools, strict=True), 1):
        if n > len(pool):
            raise ConfigError(f"{origin['invaders']}: invaders.cards_per_stage: stage {i} deals {n} cards "
                              f"from a pool of {len(pool)}")
    for kind in ("damage", "health"):
        if getattr(pieces, kind).dahan is None:
            raise ConfigError(f"{origin['pieces']}: pieces.{kind}.dahan: missing")
    _check_boards(boards, origin["boards"])
    rules = [AdversaryRule(key, lv.reaction.hook, lv.level, lv.reaction.text)
             for key, adv in adversaries.items() for lv in adv.levels if lv.reaction is not None]
    data = TableData(
        source=label,
        fear_pool_per_player=fear.pool_per_player,
        fear_cards_per_level=fear.cards_per_level,
        invader_cards_per_stage=inv.cards_per_stage,
        invader_pools=pools,
        escalation=inv.escalation,
        marked=inv.marked,
        terrains=inv.terrains,
        presence_per_spirit=island.presence_per_spirit,
        piece_fear={p: getattr(pieces.fear, p) for p in PIECES},
        piece_damage={p: int(getattr(pieces.damage, p) or 0) for p in (*PIECES, "dahan")},
        piece_health={p: int(getattr(pieces.health, p) or 0) for p in (*PIECES, "dahan")},
        spirit_energy=spirit.energy,
        spirit_energy_per_turn=spirit.energy_per_turn,
        spirit_card_plays=spirit.card_plays,
        blight_space_per_player=space.space_per_player,
        default_blight_card=blight_cards.default,
        blight_cards=blight_cards.cards,
        fear_cards=fear_cards,
        boards=boards,
        adversaries=adversaries,
        adversary_rules=tuple(rules),
    )
    if sum(data.fear_cards_per_level) == 0:
        raise ConfigError(f"{origin['fear']}: fear.cards_per_level: the Fear deck needs at least one card")
    if data.default_blight_card.lower() != "none":
        data.blight_card(data.default_blight_card)
    for letter, card in data.marked.items():
        if len(letter) != 1 or letter in "123-" or not any(card in pool for pool in data.invader_pools):
            raise ConfigError(f"{origin['invaders']}: invaders.marked.{letter}: expected one letter for a card "
                              "of a stage pool")
    _check_adversaries(data, origin["adversaries"])
    return data


def load(path: str | None = None, packs: Sequence[Pack] = ()) -> TableData:
    """The packaged data with the entries the packs add; a user's file at ``path`` replaces whole tables."""
    return data_files.load_tables(PACKAGED, path, parse, packs)
