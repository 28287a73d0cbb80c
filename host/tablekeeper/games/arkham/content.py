"""The typed shapes of a scenario's printed content (``data/scenarios.toml``, ``data/encounters.toml``):
reference-card token effects, encounter cards, locations and the steps a card makes the station take.

Read once by ``data.py`` with ``forbid_unknown_fields`` (a misspelt key names itself) and kept in the
game's record (``record.ArkhamRecord.scenario``), so a save replays against the content it was played with.

Its annotations are objects, not strings (no ``from __future__ import annotations``): msgspec reads them
at the first decode of every start, and a string annotation is compiled and evaluated there, about 3 %
of the instructions to a new game's first frame for the 97 fields it had when measured.
"""


from collections.abc import Collection
from typing import Annotated, Literal, cast

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0, le=99)]
Stat = Annotated[int, msgspec.Meta(ge=0, le=99)]
Modifier = Annotated[int, msgspec.Meta(ge=-20, le=20)]

KEYWORDS = ("hunter", "retaliate", "alert", "massive", "aloof", "surge", "peril")
Keyword = Literal["hunter", "retaliate", "alert", "massive", "aloof", "surge", "peril"]
Skill = Literal["willpower", "intellect", "combat", "agility"]


def keyword_tuple(words: Collection[str]) -> tuple[Keyword, ...]:
    """The keywords among ``words``, in the catalogue's order."""
    return tuple(cast(Keyword, k) for k in KEYWORDS if k in words)
StepKind = Literal[
    "damage", "horror", "doom_agenda", "doom_nearest", "doom_each", "clues_to_location", "spend_clue",
    "draw_cards", "draw_enemy", "each_discards", "choose", "notice", "test", "move", "put_into_play",
    "remove_location", "reveal", "discard_enemies_at", "move_investigators", "spawn", "spawn_discarded",
    "shuffle_discard", "enemies_move", "doom_per_enemy", "defeat_each",
]
Timing = Literal["turn_end", "mythos_end", "enemy_phase_end", "round_end"]
"""The timing points of the Forced effects the station does itself: the end of each investigator's
turn, of the Mythos phase, of the Enemy phase, of the round."""
EnemyEvent = Literal["defeated", "engages", "evaded", "attacks"]
"""The moments in one enemy's life its own Forced effects may key to: when it is defeated, after it
engages an investigator, after it is evaded, when it attacks."""


class _Shape(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


class When(_Shape, frozen=True):
    """A condition on the board: an enemy with the trait at the investigator's location, in play, or none."""

    enemy_here: str | None = None
    enemy_in_play: str | None = None
    no_enemy_in_play: str | None = None


class Option(_Shape, frozen=True):
    label: str
    then: tuple["Step", ...] = ()


PlayedType = Literal["asset", "event"]
"""The card types an investigator plays (skills are committed to tests, never played)."""


class Step(_Shape, frozen=True):
    """One thing a card makes happen, applied by the station or asked of the players (``steps.py``)."""

    do: StepKind
    amount: Count = 1
    all: bool = False
    per_point: bool = False  # once for each point the test failed by
    trait: str | None = None
    set: str | None = None  # draw_enemy: from this encounter set (a separate deck)
    who: Literal["self", "lead", "each"] = "self"
    when: When | None = None
    text: str = ""
    options: tuple[Option, ...] = ()
    then: tuple["Step", ...] = ()  # test: what a failure does
    skill: Skill | None = None
    difficulty: Count = 0
    locations: tuple[str, ...] = ()
    location: str | None = None  # the location the step acts on (enemies_move: the one they head for)
    enemy: str | None = None
    at: str | None = None
    doom: Count = 0
    two_from: Count | None = None  # spawn_discarded: two enemies from this many investigators
    else_draw: bool = False  # doom_nearest: with no such enemy, draw one (the players say which)

    def __post_init__(self) -> None:
        """A step missing whom it moves or counts, or where, would do nothing at the table: refused as it
        is read, wherever it is (a card's, a token's, an agenda's Forced effect), naming its entry."""
        needs = STEP_NEEDS.get(self.do, ())
        if not all(getattr(self, field) for field in needs):
            raise ValueError(f"{self.do} needs {' and '.join(needs)}")


STEP_NEEDS: dict[str, tuple[str, ...]] = {"enemies_move": ("trait", "location"),
                                          "doom_per_enemy": ("trait", "locations")}
"""What a step cannot do without: whom it moves or counts, and where."""


class XCount(_Shape, frozen=True):
    """The X of a "-X" token: what the station counts on the board."""

    count: Literal["enemies_here", "enemies_in_play", "most_doom_on_enemy", "doom_in_play"]
    trait: str | None = None


class SymbolEffect(_Shape, frozen=True):
    """One symbol's line on a side of the scenario reference card (AH-CHAOS-2)."""

    value: Modifier = 0
    again: bool = False
    minus_x: XCount | None = None
    again_when: When | None = None
    on_reveal: tuple[Step, ...] = ()
    on_fail: tuple[Step, ...] = ()


class Test(_Shape, frozen=True):
    skill: Skill
    difficulty: Count


class SkillMods(_Shape, frozen=True):
    """What each skill changes by (Dreams of R'lyeh, 01182: -1 willpower for its bearer)."""

    willpower: Modifier = 0
    intellect: Modifier = 0
    combat: Modifier = 0
    agility: Modifier = 0


class Discard(_Shape, frozen=True):
    """A treachery's Forced effect that discards it (AH-FORCED-1/3): at the end of the round, or at the
    end of its bearer's turn after a test the bearer passes."""

    at: Literal["round_end", "turn_end"]
    test: Test | None = None


class EnemyForced(_Shape, frozen=True):
    """An enemy's own Forced effect at a timing point (AH-FORCED-1/3): it readies (Umôrdhoth, 01157),
    heals ``amount`` damage (Relentless Dark Young, 01179) or takes ``amount`` doom (Wizard of the
    Order, 01170); or, at a moment of its own, ``horror`` for the investigators it touches (Goat Spawn
    01180 defeated: each at its location; Young Deep One 01181: the one it engages), or ``victory``:
    it goes to the victory display (Ruth Turner 01141 evaded); ``heal`` as it attacks ("Wolf-Man" Drew
    01137), or ``discard_or_harm``: the attacked investigator discards a card at random, or with none
    in hand the attack deals ``amount`` more damage and horror (Yithian Observer 01177)."""

    at: Timing | EnemyEvent
    do: Literal["ready", "heal", "doom", "horror", "victory", "discard_or_harm"]
    amount: Count = 1


class EncounterCard(_Shape, frozen=True):
    """An encounter card the station follows: an enemy's stat block and keywords, or what a
    treachery does that the station tracks."""

    kind: Literal["enemy", "treachery"]
    card: str = ""
    count: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    set_aside: bool = False
    fight: Stat | None = None
    health: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    evade: Stat | None = None
    damage: Stat | None = None
    horror: Stat | None = None
    per_investigator: bool = False
    plus_per_investigator: Count = 0
    traits: tuple[str, ...] = ()
    keywords: tuple[Keyword, ...] = ()
    spawn: str | None = None
    prey: str | None = None
    doom: Count = 0
    victory: Count = 0
    stays: Literal["threat_area", "location"] | None = None
    attach: Literal["most_clues"] | None = None  # stays at the location in play with the most clues, none of its
    # name attached there (Locked Door, 01174; the drawer picks among a tie); else at the drawer's location
    shroud: Count = 0
    no_investigate: bool = False
    leaves_on_investigate: bool = False
    costs_more: tuple[Literal["move", "fight", "evade"], ...] = ()  # the first each round: +1 action
    no_play: tuple[PlayedType, ...] = ()  # in the threat area: its bearer cannot play these
    discard: Discard | None = None  # its Forced effect that discards it
    action_tests: tuple[Test, ...] = ()  # its [action] ability: one of these tests; a success discards it
    bearer_skills: SkillMods | None = None  # in the threat area: its bearer's skills change so (01182)
    bearer_sanity: Modifier = 0  # in the threat area: its bearer's sanity changes so (01182)
    forced: tuple[EnemyForced, ...] = ()  # Forced effects: at a turn's, phase's or round's end, or its own moments
    test: Test | None = None
    then: tuple[Step, ...] = ()
    surge_if: Literal["no_clues"] | None = None
    text: str = ""
    verified: bool = False
    source: str = ""
    set: str = ""  # the encounter set it belongs to (filled in when read)

    def health_for(self, investigators: int) -> int:
        """Printed health, per investigator or plus some per investigator (the Ghoul Priest: 5 each)."""
        base = self.health or 1
        return (base * investigators if self.per_investigator else base) + self.plus_per_investigator * investigators


class LocationCard(_Shape, frozen=True):
    """The numbers of one printed location card (or one of the cards a location may turn out to be)."""

    name: str = ""
    card: str = ""
    shroud: Stat | None = None
    clues: Stat | None = None
    per_investigator: bool = False
    victory: Count = 0
    symbol: str | None = None
    connects: tuple[str, ...] | None = None
    on_enter: tuple[Step, ...] = ()
    investigate: Skill | None = None
    leave_test: Test | None = None  # Forced, when you move out of it: a failure cancels the move (01151)


class LocationForced(_Shape, frozen=True):
    """A location's own Forced effect at the end of the round, once revealed: clues are added until it
    holds ``amount`` (per investigator) (Ritual Site, 01156)."""

    at: Literal["round_end"]
    do: Literal["clues_up_to"]
    amount: Count
    per_investigator: bool = False


class AgendaForced(_Shape, frozen=True):
    """The current agenda's Forced effect: at its timing point its steps run for the lead investigator
    (They're Getting Out!, 01107: Ghouls move toward the Parlor, doom for the Ghouls near it)."""

    at: Timing
    then: tuple[Step, ...]


class LocationSpec(_Shape, frozen=True):
    """A scenario's location: its card, or the cards it may be until revealed, and how many are placed."""

    card: str = ""
    shroud: Stat | None = None
    clues: Stat | None = None
    per_investigator: bool = False
    victory: Count = 0
    symbol: str | None = None
    connects: tuple[str, ...] = ()
    on_enter: tuple[Step, ...] = ()
    investigate: Skill | None = None
    leave_test: Test | None = None  # Forced, when you move out of it: a failure cancels the move
    barrier: bool = False
    variants: tuple[LocationCard, ...] = ()
    forced: tuple[LocationForced, ...] = ()  # its revealed side's Forced effects
    spawns_here: tuple[str, ...] = ()  # Forced: these enemies spawn here instead (Your House 01124: the Ghoul Priest)
    copies: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1
    verified: bool | None = None
    source: str = ""


class Goal(_Shape, frozen=True):
    """What the station checks before an objective counts as met."""

    defeat: str | None = None
    enter: str | None = None
    victory_trait: str | None = None
    count: Count = 0


class FromAct(_Shape, frozen=True):
    """An agenda's reverse side that reads the act: once the act reached is ``act`` or later, these
    steps instead of the card's resolution (They're Getting Out!, 01107: at act 3 each investigator
    still in is defeated and suffers 1 physical trauma; before it, R3)."""

    act: Annotated[int, msgspec.Meta(ge=1, le=99)]
    then: tuple[Step, ...]


class Spend(_Shape, frozen=True):
    when: Literal["round_end"]
    at: str | None = None


class Ability(_Shape, frozen=True):
    """An act's ability paid with clues as a group (The Midnight Masks: draw from the Cultist deck)."""

    clues: Count
    per_investigator: bool = False
    then: tuple[Step, ...] = ()
