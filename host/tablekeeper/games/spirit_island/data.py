"""Spirit Island table data (the "outside the seeds" numbers) decoded from TOML by msgspec into
typed records, so players can correct a number by editing a copy instead of the code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Annotated

import msgspec

from tablekeeper.core.packs import Pack
from tablekeeper.errors import ConfigError
from tablekeeper.games.spirit_island import data_files
from tablekeeper.schema import decode

PIECES = ("explorer", "town", "city")

Whole = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Names = Annotated[tuple[str, ...], msgspec.Meta(min_length=1)]


class BlightCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Blight card: per-player Blight on each side (SI-BLIGHTCARD-1), its reminders, and the
    counted parts of its effects the station applies itself."""

    name: str
    healthy_per_player: Positive
    blighted_per_player: Positive
    every_invader_phase: bool = False
    immediately: str = ""
    every_phase: str = ""
    when_blight_added: str = ""
    immediately_presence: Whole = 0  # each Spirit destroys this many of its Presence
    immediately_energy: Whole = 0  # each Spirit loses this much Energy
    immediately_towns_per_board: Whole = 0  # removed from each board
    immediately_blight_per_board: Whole = 0  # the players place it, before the cascade
    every_phase_presence: Whole = 0  # each Spirit destroys this many, every Invader Phase


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


class DeckChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An adversary level's Invader deck order, e.g. ``11-22-1-C2-33333`` (SI-DECK-1)."""

    level: Whole
    order: str


class _Island(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    explorers_per_board: Whole
    towns_per_board: Whole
    cities_per_board: Whole
    presence_per_spirit: Positive
    lands_per_terrain: Positive = 2
    coastal_lands_per_board: Positive = 3
    dahan_per_land: Whole = 1


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


class _Blight(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    space_per_player: Positive
    default_card: str
    cards: Annotated[tuple[BlightCard, ...], msgspec.Meta(min_length=1)]


class _Reaction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    level: Whole
    text: str


class Adversary(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An adversary's reactions by hook and level, and what its levels change at setup."""

    when_blight_added: _Reaction | None = None
    after_blight_added: _Reaction | None = None
    after_explore_card: _Reaction | None = None
    fear_cards: tuple[tuple[Whole, Whole, Whole], ...] = ()  # per level, from level 0
    invader_deck: tuple[DeckChange, ...] = ()  # the deck order from a level on (the highest applies)
    escalation: str = ""  # on a Stage II card with the escalation mark, after its Explore
    loss: str = ""  # an extra loss condition, asked as a question
    loss_at: str = ""  # the step whose end asks it (e.g. "build")


class _Document(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    fear: _Fear
    invaders: _Invaders
    island: _Island
    pieces: _Pieces
    spirit: _Spirit
    blight: _Blight
    adversaries: dict[str, Adversary] = {}


@dataclass(frozen=True, slots=True)
class AdversaryRule:
    """An adversary level's reaction to an event (``when``: during the action; ``after``: triggered)."""

    adversary: str
    hook: str
    level: int
    text: str


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
    adversaries: Mapping[str, Adversary]

    def blight_card(self, name: str) -> BlightCard:
        for card in self.blight_cards:
            if card.name.lower() == name.lower():
                return card
        known = ", ".join(c.name for c in self.blight_cards)
        raise ConfigError(f"{self.source}: no blight card {name!r} (cards: {known}, or none)")

    def deck_order(self, adversary: str = "", level: int = 0) -> tuple[DeckGroup, ...]:
        """SI-DECK-1 / SI-DECK-1: the Invader deck as runs of one stage, top first: the standard
        stages, or the order the adversary's highest level at or below ``level`` sets."""
        changes = [c for c in (self.adversaries[adversary].invader_deck if adversary in self.adversaries else ())
                   if c.level <= level]
        if not changes:
            return tuple(DeckGroup(i + 1, n, pool) for i, (n, pool)
                         in enumerate(zip(self.invader_cards_per_stage, self.invader_pools, strict=True)) if n)
        return parse_order(max(changes, key=lambda c: c.level).order, self, f"{self.source}: {adversary}")

    def adversary(self, name: str, level: int, hook: str) -> list[AdversaryRule]:
        """Rules of ``name`` active at ``level`` for ``hook`` (each level includes the ones below)."""
        return [r for r in self.adversary_rules if r.adversary == name and r.hook == hook and r.level <= level]


def parse_order(order: str, data: TableData, where: str) -> tuple[DeckGroup, ...]:
    """``11-22-1-C2-33333``: runs of a stage digit, or a letter of ``invaders.marked`` for its one card."""
    named = set(data.marked.values())
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


def parse(raw: Mapping[str, object], source: str) -> TableData:
    """Check and convert a parsed TOML document (errors name ``source`` and the key)."""
    doc = decode(raw, _Document, source=source)
    inv, island, pieces = doc.invaders, doc.island, doc.pieces
    pools = (inv.stage1, inv.stage2, inv.stage3)
    for i, (n, pool) in enumerate(zip(inv.cards_per_stage, pools, strict=True), 1):
        if n > len(pool):
            raise ConfigError(f"{source}: invaders.cards_per_stage: stage {i} deals {n} cards "
                              f"from a pool of {len(pool)}")
    for kind in ("damage", "health"):
        if getattr(pieces, kind).dahan is None:
            raise ConfigError(f"{source}: pieces.{kind}.dahan: missing")
    rules = [AdversaryRule(name, hook, reaction.level, reaction.text)
             for name, adv in doc.adversaries.items()
             for hook in ("when_blight_added", "after_blight_added", "after_explore_card")
             if (reaction := getattr(adv, hook)) is not None]
    data = TableData(
        source=source,
        fear_pool_per_player=doc.fear.pool_per_player,
        fear_cards_per_level=doc.fear.cards_per_level,
        invader_cards_per_stage=inv.cards_per_stage,
        invader_pools=pools,
        escalation=inv.escalation,
        marked=inv.marked,
        terrains=inv.terrains,
        island_per_board={"explorers": island.explorers_per_board, "towns": island.towns_per_board,
                          "cities": island.cities_per_board},
        presence_per_spirit=island.presence_per_spirit,
        lands_per_terrain=island.lands_per_terrain,
        coastal_lands_per_board=island.coastal_lands_per_board,
        dahan_per_land=island.dahan_per_land,
        piece_fear={p: getattr(pieces.fear, p) for p in PIECES},
        piece_damage={p: int(getattr(pieces.damage, p) or 0) for p in (*PIECES, "dahan")},
        piece_health={p: int(getattr(pieces.health, p) or 0) for p in (*PIECES, "dahan")},
        spirit_energy=doc.spirit.energy,
        spirit_energy_per_turn=doc.spirit.energy_per_turn,
        spirit_card_plays=doc.spirit.card_plays,
        blight_space_per_player=doc.blight.space_per_player,
        default_blight_card=doc.blight.default_card,
        blight_cards=doc.blight.cards,
        adversary_rules=tuple(rules),
        adversaries=doc.adversaries,
    )
    if sum(data.fear_cards_per_level) == 0:
        raise ConfigError(f"{source}: fear.cards_per_level: the Fear deck needs at least one card")
    if data.default_blight_card.lower() != "none":
        data.blight_card(data.default_blight_card)
    for letter, card in data.marked.items():
        if len(letter) != 1 or letter in "123-" or not any(card in pool for pool in data.invader_pools):
            raise ConfigError(f"{source}: invaders.marked.{letter}: expected one letter for a card of a stage pool")
    for name, adv in data.adversaries.items():
        for change in adv.invader_deck:
            parse_order(change.order, data, f"{source}: adversaries.{name}")
    return data


def load(path: str | None = None, packs: Sequence[Pack] = ()) -> TableData:
    """The packaged standard data, or a user's edited copy at ``path``, and the packs' adversaries."""
    return data_files.load("standard.toml", path, parse, packs)
