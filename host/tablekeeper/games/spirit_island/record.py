"""Spirit Island's typed record: the state its modules share (the set-up table, the Invader track,
the lands, the Blight procedure's waiting questions, Fear, the open actions' marks), converted from
the log's JSON once as each event is applied. A field keeps the key older saves log it under
(``rename``: ``slots`` is logged as "invader.slots"), so those saves still open.

What one module alone reads in a key of its own making stays in the state's untyped data: each
Spirit's per-seat keys (``seat1.played`` and the like, kept by ``spirits``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec
from msgspec.structs import force_setattr, replace

from tablekeeper.core.events import Json
from tablekeeper.core.state import GameState

COUNTS = ("blight", "vitality", "defend", "dahan", "badlands", "beasts", "strife", "explorers", "towns", "cities")


class Slots(msgspec.Struct, frozen=True):
    """The Invader Action cards: Ravage, Build and Explore slots (SI-INV-7)."""

    ravage: tuple[str, ...] = ()
    build: tuple[str, ...] = ()
    explore: tuple[str, ...] = ()

    def as_mapping(self) -> dict[str, list[str]]:
        return {"ravage": list(self.ravage), "build": list(self.build), "explore": list(self.explore)}


class LandRecord(msgspec.Struct, frozen=True):
    """What the station knows a land holds (SI-BLIGHT-1, SI-INV-2..6, SI-DEFEND-1, SI-BADLANDS-3)."""

    blight: int = 0
    vitality: int = 0
    defend: int = 0  # ends at Time Passes
    dahan: int = 0
    badlands: int = 0
    beasts: int = 0  # Russia's rules read them; the players record them (land A3 beasts=1)
    strife: int = 0  # Invaders there carrying Strife
    explorers: int = 0
    towns: int = 0
    cities: int = 0
    presence: Mapping[str, int] = {}  # seat -> pieces

    def to_json(self) -> dict[str, Json]:
        """As logged and shown: the counts held (Blight always), and each Spirit's Presence there."""
        out: dict[str, Json] = {k: getattr(self, k) for k in COUNTS if getattr(self, k) or k in ("blight",)}
        out["presence"] = {k: v for k, v in self.presence.items() if v}
        return out

    def count(self, key: str) -> int:
        value: int = getattr(self, key)
        return value

    def with_count(self, key: str, n: int) -> LandRecord:
        """One of ``COUNTS`` set to ``n``."""
        if key not in COUNTS:
            raise KeyError(key)
        return replace(self, **{key: n})

    def add(self, key: str, n: int) -> LandRecord:
        return self.with_count(key, max(0, self.count(key) + n))

    def with_presence(self, seat: str, n: int) -> LandRecord:
        return replace(self, presence={**self.presence, seat: n})

    @property
    def invaders(self) -> int:
        return self.explorers + self.towns + self.cities

    @property
    def buildings(self) -> int:
        return self.towns + self.cities


class Question(msgspec.Struct, frozen=True, omit_defaults=True):
    """One queued Invader question (or an Invader Action's begin/end marker); logged as a JSON
    object without its default fields.

    An ``overview`` question stands for the ``group`` entries after it: its first answer takes the
    rules' answer (``preset``) for each of them at once (``auto``), its second asks them one by one.
    ``preset`` is per kind: build/explore/destroyed (explorers, towns, cities); ravage (Blight added
    0/1, Damage to the land, Dahan destroyed, extra Blight 0/1); setup (1: as printed).
    """

    kind: str  # overview setup build explore ravage destroyed loss begin end where place swayed after_card sworn push
    terrain: str = ""  # the card's terrain; for ``place`` the rule
    land: str = ""
    board: str = ""
    step: str = ""
    group: int = 0
    auto: bool = False
    delta: int = 0  # ``where``: +1 a piece was added by hand, -1 removed
    preset: tuple[int, ...] | None = None
    piece: str = ""  # ``where``, ``push``: the pieces' count key (explorers towns cities; a push's default explorers)
    count: int = 0  # ``sworn``: the Dahan the Ravage destroyed

    def __post_init__(self) -> None:
        _from_older_log(self)

    @staticmethod
    def of(raw: Any) -> Question:
        return msgspec.convert(raw, Question)

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = msgspec.to_builtins(self)
        return out


def _from_older_log(q: Question) -> None:
    """Saves logged before ``piece`` and ``count`` kept a piece kind in ``terrain`` and Sworn to
    Victory's Dahan in ``delta``: moved into their fields as the question loads."""
    if q.kind in ("where", "push") and q.terrain and not q.piece:
        force_setattr(q, "piece", q.terrain)
        force_setattr(q, "terrain", "")
    elif q.kind == "sworn" and q.delta and not q.count:
        force_setattr(q, "count", q.delta)
        force_setattr(q, "delta", 0)


class PresenceAsk(msgspec.Struct, frozen=True, array_like=True):
    """Blight arrived in ``land``: the seats whose unplaced Presence may be there (SI-BLIGHT-1 step 3)."""

    land: str
    seats: tuple[int, ...]


class PresenceLoss(msgspec.Struct, frozen=True, array_like=True):
    """Presence a Spirit still destroys, land by land, and why (a Blight card's effect, Sworn to
    Victory); ``within``: only from these lands (empty: from any)."""

    seat: int
    left: int
    reason: str
    within: tuple[str, ...] = ()


class WaitingBlight(msgspec.Struct, frozen=True):
    """A Blight whose card flipped mid-way: resumed (its cascade) once the flip's Blight is placed."""

    depth: int
    cascades: bool
    immediately: bool = False


class EarnedFear(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A Fear card earned (SI-FEAR-2), and when; named once the Fear step reveals it (SI-TERROR-1)."""

    card: str
    round: int
    phase: str
    step: str
    name: str | None = None


class ResolvedFear(EarnedFear, frozen=True, kw_only=True, omit_defaults=True):
    """A Fear card the table resolved, at the Terror Level it was read at."""

    terror: int
    resolved_round: int


RENAME = {
    "fear_naming": "fear_cards",
    "immigration_tile": "invader.immigration_tile",
    "healing_limit": "blight.healing_limit",
    "slots": "invader.slots",
    "discard": "invader.discard",
    "group": "invader.group",
    "drawn_in_group": "invader.drawn_in_group",
    "extra_draw": "invader.extra_draw",
    "explore_skipped": "invader.explore_skipped",
    "stages": "invader.stages",
    "immigration": "invader.immigration",
    "royal_backing": "invader.royal_backing",
    "defeat_pending": "defeat.pending",
    "explore_cards": "invader.explore_cards",
    "blight_pending": "blight.pending",
    "blight_ask": "blight.ask",
    "blight_drawing": "blight.drawing",
    "blight_destroyed": "blight.destroyed",
    "blight_resume": "blight.resume",
    "presence_loss": "blight.presence_loss",
    "immediately_left": "blight.immediately_left",
    "blight_implicit": "blight.implicit",
    "ravage_blight_boards": "ravage.blight_boards",
    "fear_earning": "fear.earning",
    "fear_earned": "fear.earned_cards",
    "fear_resolved": "fear.resolved",
    "after_advance": "event.after_advance",
    "event_terrain": "event.terrain",
    "queue": "counts.queue",
    "own_actions": "counts.own",
    "pushed": "russia.pushed",
    "ports": "escalation.ports",
}


class SpiritIslandRecord(msgspec.Struct, frozen=True, rename=RENAME):
    """Every key the game's modules share, typed; the defaults are a game before its setup."""

    # --- set up once (the game's options) ---
    data_path: str | None = None  # --option data=PATH: the user's table data
    spirit_data: str | None = None
    packs: str | None = None
    blight_card: str | None = None  # the card in play (SI-BLIGHTCARD-1); a Still Healthy card's draw changes it
    adversary: tuple[str, int] | None = None  # key and level
    invader_draws: Literal["device", "report"] = "device"
    fear_naming: Literal["device", "report"] = "device"  # who names the Fear cards drawn
    events: bool = False
    boards: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()  # lands of two boards that touch, as laid out
    spirits: Mapping[str, str] = {}  # seat -> the Spirit's key
    healing_limit: int = 0  # France 5: Blight on the panel that goes back at once

    # --- the Invader track (SI-DECK-1, SI-INV-7) ---
    slots: Slots = Slots()
    discard: tuple[str, ...] = ()
    group: int = 0  # the deck order's run being dealt
    drawn_in_group: int = 0
    extra_draw: int = 0  # 1: an effect adds a second Explore card this step
    explore_skipped: int = 0  # 1: no Explore card is resolved this step (SI-ERRATA-2)
    stages: Mapping[str, tuple[int, ...]] = {}  # the stage each card in a slot was dealt from
    immigration: tuple[str, ...] = ()  # England 3/4: the cards on the High Immigration slot
    immigration_tile: int = 0  # 1 while England's High Immigration tile is on the Invader board
    royal_backing: int = 0  # Sweden 4: 1 while the next card flipped is discarded for its Towns
    explore_cards: int = 0  # Explore cards resolved this turn (SI-ERRATA-2)

    # --- the lands and the Invader questions about them ---
    lands: Mapping[str, LandRecord] = {}  # "A3" -> what it holds
    queue: tuple[Question, ...] = ()  # the Invader questions waiting, asked one at a time
    own_actions: tuple[int, ...] = ()  # timing-stack depths of the Invader Actions the station opened
    counts_as: Mapping[str, Mapping[str, bool]] = {}  # SI-COUNTS-1/2: per open action (depth), piece -> counts
    pushed: tuple[int, ...] = ()  # Russia 2: the open actions (by depth) that pushed their Explorer
    ports: tuple[str, ...] = ()  # Scotland's escalation: the lands given a Town so far

    # --- Blight (SI-BLIGHT-1..3) ---
    blight_pending: tuple[str, ...] = ()  # lands whose Blight waits to cascade, oldest first
    blight_ask: tuple[PresenceAsk, ...] = ()
    blight_drawing: int = 0  # 1: a Still Healthy card ran out and the new card is being drawn
    blight_destroyed: tuple[str, ...] = ()  # Presence pieces destroyed in this action ("seat:land:n")
    blight_resume: tuple[WaitingBlight, ...] = ()
    presence_loss: tuple[PresenceLoss, ...] = ()
    immediately_left: int = 0  # the flipped card's Immediately Blight still to place
    blight_implicit: int = 0  # 1: the open action was opened for a Blight addition outside any action
    ravage_blight_boards: tuple[str, ...] = ()  # SI-BLIGHT-3: boards this turn's Ravage added Blight to

    # --- Fear and Events ---
    fear_earning: bool = False  # a Fear card is being taken because Fear earned it (SI-FEAR-2)
    fear_earned: tuple[EarnedFear, ...] = ()  # earned, not yet resolved, in earned order
    fear_resolved: tuple[ResolvedFear, ...] = ()
    after_advance: str = ""  # an Event (Fortification) whose Build waits for the cards to advance
    event_terrain: str = ""  # the terrain the last Event's Build or Ravage picked (SI-ERRATA-3/4)

    # --- the end (SI-END-1..3) ---
    defeat_pending: tuple[str, ...] | None = None  # why the game is lost, once the causing action ends


def shared(state: GameState) -> SpiritIslandRecord:
    """The game's typed record."""
    return state.typed(SpiritIslandRecord)
