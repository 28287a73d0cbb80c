"""The Earthborne state its modules share, typed: what the verbs put is checked against these types
once, as the event is applied, so no reader re-parses JSON (the log keeps plain JSON)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Literal

import msgspec

from tablekeeper.core.state import GameState
from tablekeeper.games.earthborne.frames import Frame

Travel = Literal["travelled", "arrived", "camped"]
DayEndTiming = Literal["now", "end_of_current_turn"]
Presence = int | Literal["X"]  # a number, or X: the card says what it is


class Turns(msgspec.Struct, frozen=True):
    """The round's Ranger turns (ER-TURN-1, ER-REST-1): who went last, who rested, whose role card is
    exhausted, and what the active Ranger did with the turn (one action, ER-ROUND-1)."""

    last: int | None = None
    rested: tuple[int, ...] = ()
    role_exhausted: tuple[int, ...] = ()
    # what the active Ranger's turn was spent on; unset until a turn begins this round, as the log has it
    acted: str | msgspec.UnsetType | None = msgspec.UNSET


class DayEnd(msgspec.Struct, frozen=True):
    """ER-DAY-1: why the day ends, and whether now or at the end of the current turn (ER-INJURY-1)."""

    reason: str
    timing: DayEndTiming = "now"


class CampRecord(msgspec.Struct, frozen=True):
    """ER-DAY-1: where the next day begins: the location (and its threshold when the device does not
    know it) and the terrain last travelled."""

    location: str | None = None
    threshold: str | None = None
    terrain: str | None = None


class Response(msgspec.Struct, frozen=True):
    """A standing effect the players declared: the clearing step or moment it triggers in
    (ER-CLEAR-2, placing tokens, resting) and what narrows it (a card, a type, a kind, its owner)."""

    window: str
    label: str
    seat: int | None = None
    card: str | None = None
    type: str | None = None
    kind: str | None = None
    you: bool = False
    once: bool = False


class Cleared(msgspec.Struct, frozen=True):
    """One finished clear (ER-CLEAR-9, ER-CLEAR-11): by which kind, to whose credit, discarded or not."""

    card: str
    name: str
    cleared_by: str | None = None
    cleared_by_ranger: int | None = None
    discarded: bool = False


class Aspects(msgspec.Struct, frozen=True):
    """A Ranger's four aspects (ER-SETUP-1, ER-REFRESH-1: each day's and round's energy)."""

    awa: int
    fit: int
    spi: int
    foc: int

    def as_dict(self) -> dict[str, int]:
        return {"awa": self.awa, "fit": self.fit, "spi": self.spi, "foc": self.foc}


class PathSpec(msgspec.Struct, frozen=True):
    """A path card's printed data, shipped with the game or reported once by the players."""

    name: str
    progress: str = "-"
    harm: str = "-"
    type: str = "other"
    arrow: str = "up"
    presence: Presence = 1
    keywords: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()
    entry: int | None = None
    guide: int | None = None
    rtoken_clear: bool = False
    copies: int = 1
    set: str = ""
    verified: bool = True


class CardInPlay(msgspec.Struct, frozen=True):
    """One card in play: its printed numbers (thresholds as printed, ER-TOKEN-2/3), where it is and
    whose, whether it is ready, and the Ranger tokens on it (ER-RTOKEN-1). Its tokens are tracks."""

    name: str
    progress: str = "-"
    harm: str = "-"
    area: str = "along"  # along, reach, weather, mission, player (ER-CHAL-1's areas)
    seat: int | None = None  # whose reach or player area
    type: str = "other"
    presence: Presence = 1  # ER-TEST-3
    keywords: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()
    entry: int | None = None  # campaign guide entry read when it clears
    guide: int | None = None  # campaign guide entry read when it enters play (ER-PATH-1)
    clear: str | None = None  # its clear text, as the players gave it
    ready: bool = True
    rtokens: tuple[int, ...] = ()
    rtoken_clear: bool = False  # clears once every Ranger's token is on it
    from_path: bool = False  # goes to the path discard when it leaves play
    verified: bool = True


class Place(msgspec.Struct, frozen=True):
    """The location (ER-LOC-1): its progress threshold as printed, its icons, its Valley id (None: a
    location the device does not know), and the Ranger tokens a location that asks for them holds."""

    area: ClassVar[str] = "location"  # where it sits in ER-CHAL-1's area order

    name: str
    progress: str = "-"
    harm: str = "-"
    icons: tuple[str, ...] = ()
    id: str | None = None
    verified: bool = True
    rtoken_clear: bool = False
    rtokens: tuple[int, ...] = ()


class RulesConfig(msgspec.Struct, frozen=True):
    """The numbers and open rule choices the catalogue leaves to the table (``rules.toml``)."""

    ranger_deck: int = 30
    opening_hand: int = 6
    default_aspects: Aspects = Aspects(3, 2, 2, 1)
    injury_limit: int = 3  # ER-INJURY-1
    equip_limit: int = 5  # ER-GEAR-1
    effort_floor: int = 0  # ER-TEST-1 (ambiguity 9)
    recheck: Literal["any", "chosen"] = "any"  # ER-CLEAR-4 (ambiguity 4)
    nested_clears: Literal["literal", "queue"] = "literal"  # ambiguity 3
    after_when_kept: bool = True


class ChallengeRow(msgspec.Struct, frozen=True):
    """A challenge card: its symbol, whether it reshuffles the deck (ER-CHAL-3), its aspect modifiers."""

    icon: str
    reshuffle: bool = False
    modifiers: Mapping[str, int] = msgspec.field(default_factory=dict)


class ContentInfo(msgspec.Struct, frozen=True):
    """A chosen piece of content (challenge deck, day track): its name, file, pack and whether checked."""

    name: str = ""
    file: str = ""
    verified: bool = False
    source: str = ""
    pack: str = ""  # the pack it came from, or the user's file that replaced the box's ("": by its file)


class SetInfo(msgspec.Struct, frozen=True):
    """A path set and its cards (name -> copies)."""

    name: str
    kind: str = "general"
    verified: bool = False
    pack: str = ""
    cards: Mapping[str, int] = msgspec.field(default_factory=dict)


class LocationInfo(msgspec.Struct, frozen=True):
    """A Valley location's printed card (ER-LOC-1) and how its path deck is built (ER-TRAVEL-2)."""

    name: str
    pivotal: bool = False
    progress: str = "-"
    rangers: bool = False
    presence: int = 1
    icons: tuple[str, ...] = ()
    guide: int | None = None
    valley_cards: int | None = None
    include: tuple[str, ...] = ()
    own_set: bool = True
    terrain: str | None = None
    verified: bool = False
    pack: str = ""


class PathEdge(msgspec.Struct, frozen=True):
    """A path on the Valley map between two locations, and its terrain (ER-TRAVEL-2)."""

    a: str
    b: str
    terrain: str
    verified: bool = True


class GameConfig(msgspec.Struct, frozen=True):
    """The game's data as the session loaded it (files, packs, options), kept in the state so that
    replaying a log never depends on files changing. Set up once; no verb changes it."""

    rules: RulesConfig = RulesConfig()
    challenge: Mapping[str, ChallengeRow] = msgspec.field(default_factory=dict)  # by card id
    challenge_deck: ContentInfo = ContentInfo()
    day_track: ContentInfo = ContentInfo()
    challenge_decks: tuple[ContentInfo, ...] = ()
    day_tracks: tuple[ContentInfo, ...] = ()
    weather: Mapping[str, str] = msgspec.field(default_factory=dict)  # day -> weather card
    entries: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)  # day -> guide entries
    days: int = 30
    start: str | None = None  # the campaign's first location
    path: Mapping[str, PathSpec] = msgspec.field(default_factory=dict)  # path cards the box knows
    deck_file: Mapping[str, int] = msgspec.field(default_factory=dict)  # a path deck given as a file
    sets: Mapping[str, SetInfo] = msgspec.field(default_factory=dict)
    locations: Mapping[str, LocationInfo] = msgspec.field(default_factory=dict)
    paths: tuple[PathEdge, ...] = ()
    unverified: tuple[str, ...] = ()  # data files not checked against the printed game
    challenge_file: str = "earthborne/data/challenge.toml"


class Mission(msgspec.Struct, frozen=True):
    """A mission written on the campaign tracker, with its day and progress boxes checked."""

    name: str
    day: int
    marks: int = 0
    done: bool = False


class Note(msgspec.Struct, frozen=True):
    """A campaign log line and the day it was written."""

    day: int
    text: str


class EarthborneRecord(msgspec.Struct, frozen=True):
    """Everything Earthborne keeps beyond tracks and decks, one typed field per key its verbs put."""

    cfg: GameConfig = GameConfig()
    aspects: Mapping[str, Aspects] = msgspec.field(default_factory=dict)  # by seat; ER-SETUP-1
    cards: Mapping[str, CardInPlay] = msgspec.field(default_factory=dict)  # card1, card2, ... in play
    location: Place | None = None
    next_card: int = 1  # the number of the next card put in play (card1, card2, ...)
    weather: str | None = None  # the day's weather card (ER-DAY-1)
    path_mode: Literal["physical", "file"] = "physical"  # the group's own deck, or a deck file
    path_built: bool = True  # False: the group has still to build the path deck (ER-SETUP-1, ER-TRAVEL-2)
    path_fresh: bool = False  # built, and no card drawn from it yet (it may be built again)
    path_drawn: int = 0  # this round's path cards drawn so far (ER-PATH-1)
    path_unseen_set: str | None = None  # the set the path deck's unseen cards come from
    known_path: Mapping[str, PathSpec] = msgspec.field(default_factory=dict)  # path cards reported by name
    turns: Turns = Turns()
    travel: Travel | None = None  # this round's travel decision (ER-TRAVEL-2)
    day_end: DayEnd | None = None
    record: CampRecord | None = None  # where the next day begins (ER-DAY-1)
    crossed: tuple[int, ...] = ()  # days crossed off the day track
    log: tuple[str, ...] = ()  # the resolution log: effects and clearing steps in order
    work: tuple[Frame, ...] = ()  # the rules-step engine's stack: open steps, due cards, clears, tests
    clears: tuple[Cleared, ...] = ()
    responses: tuple[Response, ...] = ()
    gear: Mapping[str, Mapping[str, int]] = msgspec.field(default_factory=dict)  # seat -> name -> equip value
    missions: tuple[Mission, ...] = ()
    rewards: tuple[str, ...] = ()
    notes: tuple[Note, ...] = ()


def rec(state: GameState) -> EarthborneRecord:
    """The state's Earthborne record."""
    return state.typed(EarthborneRecord)
