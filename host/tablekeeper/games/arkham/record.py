"""Arkham's typed record (``Game.record_type``): every value the game keeps beside its tracks, typed
once as an event is applied, so a verb, a panel or the campaign log reads attributes, not JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from tablekeeper.core.state import GameState
from tablekeeper.games.arkham.data import Ally, TokenKind
from tablekeeper.games.arkham.records import (
    AssetCard,
    Draws,
    Enemy,
    Location,
    Pending,
    Provoked,
    ScenarioInfo,
    Seat,
    SkillTest,
    Soak,
    Treachery,
    TurnEnd,
)


class EncounterDraw(msgspec.Struct, frozen=True):
    """One encounter card drawn (AH-DRAW-2): when, by whom, under which agenda."""

    round: int
    seat: int
    agenda: int


class GrimNote(msgspec.Struct, frozen=True):
    """An open question the players settled the worst way for them (AH-GRIM-1), and when."""

    round: int
    step: str
    text: str


NO_SCENARIO = ScenarioInfo(id="", campaign="", difficulty="", side="", agendas=(), acts=())
"""The blank before setup: every Arkham game's setup puts the scenario it plays."""


class ArkhamRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What an Arkham game keeps besides tracks, chaos bag and flow: the setup it read (scenario,
    token table, investigators, the allies data), the board (locations, enemies, treacheries,
    assets), the work a question or a test interrupted, and what the scenario's end writes into the
    campaign log. Maps keyed by seat use the seat number as text (JSON object keys)."""

    # --- set up from the options and data files ---
    scenario: ScenarioInfo = NO_SCENARIO
    tokens: Mapping[str, TokenKind] = msgspec.field(default_factory=dict)  # AH-CHAOS-2..5, ``token-value`` edits
    seats: Mapping[str, Seat] = msgspec.field(default_factory=dict)  # ``elder`` edits a seat's Elder Sign
    allies: Mapping[str, Ally] = msgspec.field(default_factory=dict)  # the assets data (AH-DMG-4)
    mode: Literal["campaign", "standalone"] = "campaign"
    count_eliminated: bool = True  # per-investigator values count eliminated seats (ambiguity 7)
    campaign_log: Mapping[str, Any] | None = None  # a campaign's log (AH-CAMP-2), checked by ``Campaign``

    # --- the board ---
    locations: Mapping[str, Location] = msgspec.field(default_factory=dict)  # AH-CLUE-2/5
    # seat -> its location; an eliminated seat's is dropped (older saves kept it as None)
    at: Mapping[str, str | None] = msgspec.field(default_factory=dict)
    enemies: Mapping[str, Enemy] = msgspec.field(default_factory=dict)  # AH-ENGM-1
    treacheries: Mapping[str, Treachery] = msgspec.field(default_factory=dict)
    # seat -> its assets in play (None: an eliminated seat's left the game, AH-ELIM-3)
    assets: Mapping[str, Mapping[str, AssetCard] | None] = msgspec.field(default_factory=dict)
    pinned: tuple[str, ...] = ()  # reference symbols whose value the table set with ``token-value``
    paid_more: Mapping[str, int] = msgspec.field(default_factory=dict)  # seat -> round its costlier action was paid

    # --- work a question or a skill test interrupted (``pending.resume``) ---
    test: SkillTest | None = None  # ST.1..ST.8
    aoo: Provoked | None = None  # AH-AOO-2/5
    soak: Soak | None = None  # AH-DMG-3..8
    draws: Draws | None = None  # 1.4
    todo: tuple[Pending, ...] = ()  # card steps waiting, the next first
    attack_queue: tuple[int, ...] | None = None  # 3.3: seats still to be attacked (None: not attacking)
    attacked: tuple[tuple[int, str], ...] = ()  # 3.3: (seat, massive enemy) attacks made
    massive_attacked: tuple[str, ...] = ()  # 3.3: massive enemies that attacked, exhausted at the end
    hunters_moved: tuple[str, ...] | None = None  # 3.2: hunters moved so far (None: not moving)
    turn_end: TurnEnd | None = None  # 2.2: a turn ending, held for its Forced tests
    engage_later: tuple[str, ...] = ()  # AH-ENGM-3/6: enemies whose engagement waits for an open question

    # --- what the scenario's end and the campaign log read ---
    eliminated: Mapping[str, str] = msgspec.field(default_factory=dict)  # seat -> cause (AH-ELIM)
    fate: Mapping[str, str] = msgspec.field(default_factory=dict)  # seat -> killed or insane (AH-TRAUMA-3/4)
    removed: tuple[str, ...] = ()  # cards removed from the game
    defeated_enemies: tuple[str, ...] = ()  # by name in play (Objectives, AH-DEFEAT-3)
    defeated_cards: tuple[str, ...] = ()  # by encounter card
    victory: tuple[int, ...] = ()  # the victory display's points, card by card (AH-XP-2)
    victory_cards: tuple[str, ...] = ()  # their names, where known
    encounters: tuple[EncounterDraw, ...] = ()
    grim: tuple[GrimNote, ...] = ()  # AH-GRIM-1
    records: tuple[str, ...] = ()  # campaign log lines (AH-CAMP-2)
    resolution: str | None = None  # AH-ACTAG-11: "R1", ... or "no resolution"
    resolution_to: str | None = None  # after no resolution, where the guide sends the group
    xp_bonus: int = 0  # AH-XP-2: the resolution's experience adjustment
    go_to: str | None = None  # AH-NEXT-1


def rec(state: GameState) -> ArkhamRecord:
    """The state's Arkham record."""
    return state.typed(ArkhamRecord)
