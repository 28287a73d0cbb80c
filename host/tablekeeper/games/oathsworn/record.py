"""Oathsworn's typed record: what the company, the encounter and the open draws keep between
commands, read by the verbs, the flow hooks and the panels alike.

The log keeps each field as the JSON a save always held (the keys and shapes are unchanged), and
the core converts it to these types once as an event is applied, so a verb reads attributes
instead of parsing frozen JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import msgspec

from tablekeeper.core.state import GameState
from tablekeeper.games.oathsworn.rules import Positions

Part = Literal["story", "encounter", "epilogue"]
Cards = tuple[tuple[str, bool], ...]  # drawn MIGHT cards: (card, an extra a critical drew)


class Spent(msgspec.Struct, frozen=True):
    """Tokens a draw has used so far, refunded by determination on a miss (OS-ATK-13)."""

    redraw: int = 0
    empowered: int = 0


class CheckDraw(msgspec.Struct, frozen=True, tag_field="kind", tag="check", omit_defaults=True):
    """An open check (OS-CHECK-1..8): drawn, waiting for redraws until ``resolve``; ``seat`` None is
    the company's check."""

    seat: int | None
    difficulty: int
    type: str
    cards: Cards
    free: int  # trait redraws left (OS-CHECK-5)
    spent: Spent
    bonus: int | None = None  # an escape's +2 per adjacent friend (OS-FX-4)
    escape: bool = False
    payers: tuple[int, ...] = ()  # seats whose redraw token paid (OS-TOK-6)


class AttackDraw(msgspec.Struct, frozen=True, tag_field="kind", tag="attack", omit_defaults=True):
    """An open Oathsworn attack in an encounter (OS-ATK-6..15): the target, every target hit with
    its DEFENSE, the equally close locations the attacker picks from after the draw (OS-ATK-4)."""

    seat: int
    target: str
    defense: int
    targets: tuple[tuple[str, int], ...]
    choice: tuple[str, ...]
    determination: bool  # a miss earns determination (OS-ATK-13)
    cards: Cards
    free: int
    bonus: int
    spent: Spent
    payers: tuple[int, ...] = ()


class StoryDraw(AttackDraw, frozen=True, tag="story"):
    """An attack in a story round of combat (OS-SCOMBAT): TARGET is the enemy's DEFENSE."""


Draw = CheckDraw | AttackDraw | StoryDraw  # told apart by the logged "kind"


class CheckResult(msgspec.Struct, frozen=True, tag_field="kind", tag="check"):
    """A resolved check (OS-CHECK): the last draw panel names it."""

    seat: int | None
    success: bool
    total: int
    blanks: int
    successes: int


class AttackResult(msgspec.Struct, frozen=True, tag_field="kind", tag="attack", omit_defaults=True):
    """A resolved Oathsworn attack: its damage and the HP each target lost (OS-DMG-3/5)."""

    seat: int
    hit: bool
    damage: int
    hp_lost: int
    losses: Mapping[str, int] = {}  # HP lost by target (OS-ATK-15); none on a miss


class StoryResult(msgspec.Struct, frozen=True, tag_field="kind", tag="story"):
    """A story combat attack: beaten DEFENSE or 1 HP lost (OS-SCOMBAT-3..5)."""

    seat: int
    success: bool
    damage: int
    hp_lost: int


class EnemyResult(msgspec.Struct, frozen=True, tag_field="kind", tag="enemy"):
    """A settled enemy attack (OS-EATK)."""

    damage: int
    losses: Mapping[str, int]  # HP lost by seat


class IronResult(msgspec.Struct, frozen=True, tag_field="kind", tag="iron"):
    """Iron lost, and the backpack items that covered the rest (OS-IRON-2..4)."""

    iron_lost: int
    items_lost: tuple[str, ...]
    unpaid: int


class SecretResult(msgspec.Struct, frozen=True, tag_field="kind", tag="secret"):
    """A revealed secret decision (OS-CHECK-9)."""

    choices: tuple[int, ...]  # the HP dice as revealed (OS-CHECK-9)


Last = CheckResult | AttackResult | StoryResult | EnemyResult | IronResult | SecretResult  # the last result shown


def kind_of(value: msgspec.Struct) -> str:
    """The ``kind`` a tagged draw or result is logged under."""
    return str(value.__struct_config__.tag)


NO_POSITIONS: Positions = ((), (), (), ())


class Archetype(msgspec.Struct, frozen=True):
    """A companion's archetype card and the side chosen for the encounter (OS-ESET-8)."""

    card: str
    side: str


class SeatRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One Oathsworn (or the ally standing in) as every module reads it. A save keeps it as a JSON
    object under ``seat.N``; older saves, which lack the later keys, read with their defaults."""

    cls: str = msgspec.field(name="class")
    kind: Literal["full", "companion"]  # OS-COMP
    items: tuple[str, ...]
    tokens: Mapping[str, int]  # combat tokens held (OS-TOK)
    positions: Positions  # cooldown positions 0-3 (OS-CD)
    hand: tuple[str, ...]
    max_animus: int
    level: int
    down: bool = False
    dead: bool = False
    ko: bool = False  # knocked out during this encounter (OS-TALLY)
    ally: str | None = None  # the combat ally played after a knockout (OS-KO-3)
    ally_once: bool = False  # OS-KO-4
    permanent: Mapping[str, int] = {}  # OS-LVL-9
    injuries: int = 0
    injuries_due: int = 0  # injury cards still to play this round (OS-RND-7)
    cubes: tuple[str, ...] = ()  # archetype abilities used this round (OS-COMP-2)
    crippled_until: int | None = None  # OS-STAT-3
    caged_until: int | None = None  # OS-FX-3
    escape_tried: bool = False  # OS-FX-4
    bleed: int = 0  # OS-STAT-2
    thrown: tuple[str, ...] = ()  # OS-FX-19
    used_items: tuple[str, ...] = ()  # a companion's facedown items (OS-COMP-3)
    moved: bool = False
    ability: bool = False
    acted: str | None = None  # a companion's attack or special this turn (OS-COMP-1)
    last_round: int = 0
    token_attack: bool = False  # OS-TOK-7
    consumed: str | None = None  # OS-FX-12
    consumed_hp: int = 0
    consumed_attacked: bool = False
    facing: str | None = None  # OS-MOVE-3
    archetype: Archetype | None = None
    cards: Mapping[str, int] = {}  # the declared hand's cooldowns (OS-ESET-5)


class Plan(msgspec.Struct, frozen=True, omit_defaults=True):
    """The attack or check the display shows exact odds for (OS-ATK-6..14, OS-CHECK-2)."""

    kind: Literal["attack", "check"] = "attack"
    seat: int = 0
    target: str = ""  # a DEFENSE number or a boss location
    difficulty: int = 0  # a check's
    white: int = 0
    empower: int = 0
    redraws: int = 0
    bonus: int = 0
    unarmed: int = 0  # 1: an unarmed attack (OS-ATK-7)


class Minion(msgspec.Struct, frozen=True):
    """A minion on the board (OS-MIN, OS-DMG-4); its HP is the track ``minion.NAME``."""

    defense: int
    mob: bool
    activated: bool  # the stage card activated it this round (OS-MIN-1)


class Reaction(msgspec.Struct, frozen=True):
    """A reaction card drawn for a broken location and whom it targets (OS-BRK-2); None: the closest."""

    card: str
    target: int | None


class PendingHit(msgspec.Struct, frozen=True):
    """A hit waiting for the attacker to pick among equally close locations (OS-ATK-4)."""

    seat: int
    damage: int


class EnemyHit(msgspec.Struct, frozen=True):
    """An enemy draw whose targets decide their defense one by one (OS-TOK-4, OS-EATK-3)."""

    damage: int
    targets: tuple[int, ...]
    losses: Mapping[str, int]  # by seat, as each has decided
    shield: Mapping[str, int]  # a defensive card's DEFENSE, by seat


class Secret(msgspec.Struct, frozen=True):
    """An open secret decision: the HP dice as they were before (OS-CHECK-9)."""

    hp: tuple[int, ...]


class Boxed(msgspec.Struct, frozen=True):
    """A class out of the company, its save bag boxed (OS-LVL-4/5)."""

    level: int
    items: tuple[str, ...]
    kind: str


class Tally(msgspec.Struct, frozen=True):
    """The tally's outcome (OS-TALLY-1..10)."""

    commons: int
    uniques: int
    common_fallback: int
    ko_ticks: int
    injuries: tuple[int, ...]
    items_lost: Mapping[str, int]
    allies_archived: tuple[str, ...]
    common_deck: str
    unique_deck: str
    archived_items: Mapping[str, tuple[str, ...]]  # OS-HC-3: a dead Oathsworn's items


class OathswornRecord(msgspec.Struct, frozen=True):
    """Everything the Oathsworn modules share, one field per key a save holds."""

    # the session's data text and table (setup)
    data_path: str = ""
    data_sha256: str = ""
    data_logged: str | None = None  # the data text the log's first command ran on
    packs: str = ""
    players: int = 0  # people at the table; the company is always 4 (OS-GEN-3)
    difficulty: str = ""
    chapter: int = 1
    encounter: str = ""
    hardcore: bool = False
    ambushed: bool = False  # OS-RND-2 / OS-ESET-11
    traits: Mapping[str, int] = {}  # name -> marks (OS-LVL)
    part: Part = "story"
    player_aids: int = 0  # OS-SETUP-9
    # the story part (OS-NAV, OS-TIME, OS-EVT, OS-ITEM)
    backpack: tuple[str, ...] = ()
    map: tuple[int, ...] = ()
    marker: int | None = None
    clues: tuple[str, ...] = ()
    track_tokens: tuple[int | str, ...] = ()  # location numbers and "time"
    event_report: str | None = None
    last_event: str | None = None
    rewards: tuple[str, ...] = ()
    extra_unique: bool = False  # OS-TIME-5
    token_picks: Mapping[str, int] | None = None  # OS-TIME-4: tokens each seat still picks
    curatives: int = 0
    once: Mapping[str, bool] = {}  # once-per-chapter traits used (OS-LVL-12)
    secret: Secret | None = None
    roster: Mapping[str, Boxed] = {}
    allies: tuple[str, ...] = ()
    dead_allies: tuple[str, ...] = ()  # OS-KO-5
    hardcore_dead: tuple[str, ...] = ()  # OS-HC-3
    # draws and combat
    draws: tuple[Draw, ...] = ()
    last: Last | None = None
    plan: Plan | None = None
    pending_hit: PendingHit | None = None
    enemy_hit: EnemyHit | None = None
    fight: Mapping[str, bool] | None = None  # a story round of combat: seat -> success (OS-SCOMBAT-1)
    fight_defense: int | None = None
    # the encounter (OS-STAGE, OS-BRK, OS-MIN)
    stage_now: int = 1
    stage_faceup: str | None = None
    stage_current: str | None = None
    attack_card: str | None = None  # the stage or reaction card whose attack the boss's MIGHT draws (OS-EATK-1)
    attacks_due: tuple[str, ...] = ()  # drawn stage and reaction cards whose printed attack is not drawn yet
    stage_kept: tuple[str, ...] = ()  # OS-STAGE-2
    breaks: int = 0
    broken: tuple[str, ...] = ()
    breaker: int | None = None
    breaking: bool = False  # several dice removed at once share one stage check (OS-BRK-7)
    reactions: tuple[Reaction, ...] = ()
    minions: Mapping[str, Minion] = {}
    minions_due: tuple[str, ...] = ()
    # the end (OS-END, OS-TALLY)
    result: Literal["victory", "defeat"] | None = None
    knockouts_fixed: int | None = None  # OS-END-4
    attempt: int = 1
    tally: Tally | None = None
    losses_due: Mapping[str, int] | None = None  # OS-TALLY-9
    # the four Oathsworn (OS-GEN-3), under the keys saves have always used
    seat1: SeatRecord | None = msgspec.field(default=None, name="seat.1")
    seat2: SeatRecord | None = msgspec.field(default=None, name="seat.2")
    seat3: SeatRecord | None = msgspec.field(default=None, name="seat.3")
    seat4: SeatRecord | None = msgspec.field(default=None, name="seat.4")

    def seat(self, n: int) -> SeatRecord:
        """Seat ``n``'s Oathsworn (setup puts all four)."""
        found = (self.seat1, self.seat2, self.seat3, self.seat4)[n - 1] if 1 <= n <= 4 else None
        if found is None:
            raise KeyError(f"seat {n} has no Oathsworn record")
        return found


def rec(state: GameState) -> OathswornRecord:
    """The session's typed record."""
    return state.typed(OathswornRecord)
