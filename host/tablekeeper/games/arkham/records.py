"""The structured values of Arkham's typed record (``record.ArkhamRecord``): a seat's investigator,
the scenario as set up, the board's cards and the work a question or a test interrupted."""

from __future__ import annotations

import msgspec

from tablekeeper.games.arkham.content import (
    Discard,
    EncounterCard,
    LocationSpec,
    PlayedType,
    Step,
    SymbolEffect,
    Test,
)
from tablekeeper.games.arkham.data import Card


class Seat(msgspec.Struct, frozen=True):
    """Who plays a seat: the investigator and the printed values the rules read (AH-TRAUMA-3/4
    compare trauma with printed health and sanity; AH-CHAOS-4 the Elder Sign modifier; the weaknesses
    shuffled into this investigator's deck at setup, by title: their bearer)."""

    investigator: str
    name: str
    printed_health: int
    printed_sanity: int
    skills: dict[str, int]
    elder_sign: int = 0
    weaknesses: tuple[str, ...] = ()
    elder_sign_per: str = ""  # the Elder Sign also adds 1 per clue at the location or per horror


class AssetCard(msgspec.Struct, frozen=True):
    """An asset the tracker follows: its printed health/sanity (None: it cannot take that harm),
    what it has taken, and whether it is exhausted."""

    health: int | None = None
    sanity: int | None = None
    damage: int = 0
    horror: int = 0
    exhausted: bool = False

    def defeated(self) -> bool:
        """AH-DEFEAT-4 / AH-DMG-11."""
        return (self.health is not None and self.damage >= self.health) or \
            (self.sanity is not None and self.horror >= self.sanity)


class Enemy(msgspec.Struct, frozen=True):
    """An enemy in play (AH-ENGM-1): engaged with one seat or at a location (or neither, when the
    board's locations are not tracked); its printed values, modifiers (AH-BASE-1), damage and doom."""

    fight: int
    health: int
    evade: int
    attack_damage: int = 1
    attack_horror: int = 0
    aloof: bool = False
    hunter: bool = False
    ready: bool = True
    damage: int = 0
    doom: int = 0
    weakness_of: int | None = None  # the seat that owns a weakness enemy (AH-DMG-10)
    engaged: int | None = None
    location: str | None = None
    fight_mod: int = 0
    evade_mod: int = 0
    card: str | None = None  # the encounter card it is (its data entry), None when typed by hand
    prey: str | None = None  # its prey instruction, for the players when several are candidates
    traits: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    victory: int = 0
    verified: bool = True

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords or (keyword == "aloof" and self.aloof) or (keyword == "hunter" and self.hunter)


class ScenarioInfo(msgspec.Struct, frozen=True, kw_only=True):
    """The scenario being played, as set up: its agenda and act decks (AH-ACTAG-2), the campaign's
    scenario order (AH-NEXT-1), its reference card side (AH-CHAOS-2), its locations, and every
    encounter card it can bring in (``deck``: the names shuffled into the encounter deck)."""

    id: str
    title: str | None = None
    campaign: str
    difficulty: str
    side: str
    agendas: tuple[Card, ...]
    acts: tuple[Card, ...]
    sequence: tuple[str, ...] = ()
    cards: dict[str, EncounterCard] = msgspec.field(default_factory=dict)
    deck: dict[str, int] = msgspec.field(default_factory=dict)
    locations: dict[str, LocationSpec] = msgspec.field(default_factory=dict)
    reference: dict[str, SymbolEffect] = msgspec.field(default_factory=dict)
    card: str = ""
    source: str = ""
    verified: bool = False

    @property
    def enemies(self) -> dict[str, EncounterCard]:
        return {name: card for name, card in self.cards.items() if card.kind == "enemy"}


class Location(msgspec.Struct, frozen=True, kw_only=True):
    """A location in play (AH-CLUE-2/5, AH-DIFF-2): its shroud and clue value, the clues still on it,
    whether it has been revealed, and the locations it connects to."""

    shroud: int
    clue_value: int
    per_investigator: bool = False
    clues: int = 0
    revealed: bool = False
    connections: tuple[str, ...] = ()
    spec: str | None = None  # its entry in the scenario's locations (None: typed by hand)
    card: str = ""
    variant: str | None = None  # which printed card it turned out to be
    candidates: tuple[str, ...] = ()  # the cards it may still be (asked when it is revealed)
    symbol: str | None = None
    links: tuple[str, ...] = ()  # connection symbols
    victory: int = 0
    investigate: str | None = None
    barrier: bool = False
    on_enter: tuple[Step, ...] = ()
    leave_test: Test | None = None  # Forced, when an investigator moves out: a failure cancels the move (01151)


class TestResult(msgspec.Struct, frozen=True):
    """ST.4 to ST.6: the tokens' modifier, the modified skill against the difficulty, the outcome."""

    modifier: int
    modified_skill: int
    difficulty: int
    success: bool
    autofail: bool


class SkillTest(msgspec.Struct, frozen=True, kw_only=True):
    """The running skill test (ST.1..ST.8): who tests which skill, the base value and committed
    icons, the difficulty, what kind of test and against which enemy, the tokens revealed so far,
    the step reached and, from ST.6, the result."""

    seat: int
    skill: str
    base: int
    difficulty: int
    committed: int = 0
    kind: str = "plain"
    target: str | None = None
    autosuccess: bool = False
    tokens: tuple[str, ...] = ()
    step: str = "ST.2"
    result: TestResult | None = None
    source: str | None = None  # the card whose test it is (a treachery, a location)
    on_fail: tuple[Step, ...] = ()  # what a failure does: the card's, and the revealed tokens'
    discards: str | None = None  # the treachery in play a success discards (Frozen in Fear's Forced test)
    on_success: tuple[Step, ...] = ()  # what a success does (Twisting Paths: the move it held goes on)
    card: str | None = None  # the encounter card whose revelation the test is (``Pending.card``)

    @property
    def value(self) -> int:
        """ST.2: the skill value with the committed icons."""
        return self.base + self.committed


class Provoked(msgspec.Struct, frozen=True):
    """An action whose attacks of opportunity are being made (AH-AOO-2/5): who acted, the ready
    engaged enemies still to attack, and the action's effect to resolve afterwards."""

    seat: int
    left: tuple[str, ...]
    kind: str = "other"
    target: str | None = None
    skill: int | None = None
    ordered: bool = False  # ``left`` is the order the investigator named beforehand
    ability: str | None = None  # activate: the skill of the treachery ability's test (its label is ``target``)


class Soak(msgspec.Struct, frozen=True):
    """An enemy attack's damage and horror being assigned (AH-DMG-3/4): what is still to place and
    what each asset was given so far; it all lands together at the end (AH-DMG-8)."""

    seat: int
    damage: int
    horror: int
    assigned: dict[str, tuple[int, int]] = msgspec.field(default_factory=dict)


class Draws(msgspec.Struct, frozen=True, kw_only=True):
    """1.4: the investigators still to draw, in player order, one at a time: ``seats[0]`` draws, its
    card is named (a prompt) and resolved, then the next draws (a surge draws again)."""

    seats: tuple[int, ...]
    drawn: bool = False  # seats[0] has drawn its card
    resolving: bool = False  # ... and its card is named and being resolved
    typing: bool = False  # ... as an enemy typed with the `enemy` line
    surge: bool = False  # ... and it surges: the same investigator draws again


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """Steps of a card still to apply (after a question or a test they wait for), for ``seat``."""

    steps: tuple[Step, ...]
    seat: int
    margin: int = 0  # how many points the test failed by (``per_point``)
    source: str = ""  # the label notices and questions show (a card, a token, "X (Forced, ...)")
    card: str | None = None  # the encounter card whose revelation these steps are (mythos.resolve)


class TurnEnd(msgspec.Struct, frozen=True):
    """The end of ``seat``'s turn, held while its Forced tests run (Frozen in Fear): the treacheries
    still to test, the next first; empty once they are all done and the turn may end."""

    seat: int
    left: tuple[str, ...] = ()


class Treachery(msgspec.Struct, frozen=True):
    """A treachery that stayed in play: in its drawer's threat area or at a location (attached),
    with what it changes there (Obscuring Fog's shroud, Locked Door's ban on investigating)."""

    seat: int
    location: str | None = None
    card: str | None = None
    shroud: int = 0
    no_investigate: bool = False
    leaves_on_investigate: bool = False
    costs_more: tuple[str, ...] = ()  # in the threat area: the first of these actions each round costs 1 more
    text: str = ""  # what the card does beyond that, in our words (shown to the table)
    no_play: tuple[PlayedType, ...] = ()  # in the threat area: card types its bearer cannot play (Dissonant Voices)
    discard: Discard | None = None  # the Forced effect that discards it (end of round, end of turn after a test)
