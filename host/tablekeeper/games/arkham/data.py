"""Loading the game's data files (chaos tokens and bags, investigators, scenarios) from the package
or from a user's edited copy, with the entries of the packs a session chose added (``core/packs.py``);
every problem is one ``ConfigError`` naming the file and the key."""


from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from tablekeeper.core import packs as packlib
from tablekeeper.core.file_options import option_file
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham.content import (
    Ability,
    AgendaForced,
    EncounterCard,
    FromAct,
    Goal,
    Keyword,
    LocationSpec,
    Spend,
    Step,
    SymbolEffect,
)
from tablekeeper.schema import decode, fail, parse_toml

DATA_DIR = Path(__file__).parent / "data"  # installed as files (never zipped): no importlib.resources
PACKAGE = "tablekeeper.games.arkham"
DIFFICULTIES = ("easy", "standard", "hard", "expert")
S = TypeVar("S", bound=msgspec.Struct)


class TokenKind(msgspec.Struct, frozen=True):
    """How one kind of chaos token resolves (AH-CHAOS-2..5); kept in the game's record
    (``record.ArkhamRecord.tokens``)."""

    value: int = 0
    again: bool = False
    leaves: bool = False
    autofail: bool = False
    elder_sign: bool = False
    symbol: bool = False


class Card(msgspec.Struct, frozen=True):
    """An agenda or act card: a doom threshold or clue requirement, flat or per investigator; an
    Objective (``goal``: what the station checks), its resolution point(s), what its reverse side
    does (``then``), and a modifier every enemy gets while it is current."""

    name: str
    amount: int | None
    per_investigator: bool = False
    objective: str | None = None
    resolution: str | None = None
    card: str = ""
    resolutions: tuple[str, ...] = ()
    goal: Goal | None = None
    spend: Spend | None = None
    then: tuple[Step, ...] = ()
    enemy_fight: int = 0
    enemy_evade: int = 0
    ability: Ability | None = None
    forced: tuple[AgendaForced, ...] = ()  # an agenda's Forced effects while it is current
    from_act: FromAct | None = None  # an agenda's reverse side from that act on (instead of its resolution)


class Ally(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player asset that takes damage or horror (AH-DMG-4), with the cost of playing it."""

    cost: Annotated[int, msgspec.Meta(ge=0, le=99)]
    health: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    sanity: Annotated[int, msgspec.Meta(ge=1, le=99)] | None = None
    card: str = ""
    verified: bool = False
    source: str = ""


class _AllyFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    allies: dict[str, Any]
    source: str = ""


def load_allies(override: str | None = None, packs: Sequence[packlib.Pack] = ()) -> dict[str, Ally]:
    found = read_layers("assets.toml", override, packs, _AllyFile, ("allies",))
    return {name: decode(raw, Ally, source=layer.label, prefix=f"allies.{name}")
            for layer, name, raw in packlib.entries(found, "allies")}


def _entries(label: str, raw: Any, key: str, kind: type[S]) -> dict[str, S]:
    """A table of named entries, each checked on its own so an error names the entry."""
    table = _table(label, raw, key or "(top level)")
    return {str(name): decode(entry, kind, source=label, prefix=f"{key}.{name}" if key else str(name))
            for name, entry in table.items()}


class LoggedCard(msgspec.Struct, frozen=True):
    """An encounter card shuffled in at setup when the campaign log holds ``log`` (``--option log=``):
    The Midnight Masks' Ghoul Priest, when he is still alive."""

    log: str
    name: str
    card: EncounterCard
    record: str = ""  # the campaign-log line that holds ``log`` (what a table types with ``record``)


class Scenario(msgspec.Struct, frozen=True):
    """A scenario as read: its decks, reference card, locations, where everyone begins, and every
    encounter card it can bring into play (``cards``; ``deck`` names those shuffled into the
    encounter deck at setup, with their copies)."""

    id: str
    title: str
    campaign: str
    agendas: tuple[Card, ...]
    acts: tuple[Card, ...]
    reference: Mapping[str, Mapping[str, SymbolEffect]]  # side -> symbol -> effect
    cards: Mapping[str, EncounterCard] = msgspec.field(default_factory=dict)
    deck: Mapping[str, int] = msgspec.field(default_factory=dict)
    deck_size: int = 0
    locations: Mapping[str, LocationSpec] = msgspec.field(default_factory=dict)
    start: tuple[str, ...] = ()
    start_at: str | None = None
    card: str = ""
    source: str = ""
    verified: bool = False
    logged: tuple[LoggedCard, ...] = ()  # cards shuffled in when the campaign log holds their entry


class Investigator(msgspec.Struct, frozen=True):
    """An investigator card's printed values (AH-TRAUMA-3/4 read health and sanity)."""

    id: str
    name: str
    health: int
    sanity: int
    elder_sign: int
    skills: Mapping[str, int]
    deck_size: int = 30
    access: Mapping[str, int] | None = None  # class -> highest level; None: no restriction known
    card: str = ""  # the investigator card's number (an ArkhamDB deck names its investigator by it)
    elder_sign_per: str = ""  # the Elder Sign adds 1 per clue at the location ("clue_here") or per horror


def read_layers(name: str, override: str | None, packs: Sequence[packlib.Pack], kind: type[msgspec.Struct] | None,
                tables: tuple[str, ...]) -> list[packlib.Layer]:
    """The file ``name``: the package's (or the user's copy at ``override``) checked as ``kind``, then
    each chosen pack's copy, which may hold only the entry ``tables`` (``()``: its top level is entries)."""
    label, doc = read_toml(name, override)
    if kind is not None:
        decode(doc, kind, source=label)
    found = [packlib.Layer(packlib.BUILTIN, label, doc),
             *packlib.layers([p for p in packs if p.where != packlib.BUILTIN_WHERE], name)]
    if tables:
        packlib.only(found, tables)
    return found


def read_toml(name: str, override: str | None = None) -> tuple[str, dict[str, Any]]:
    """The package's ``data/<name>`` or the user's file at ``override``; returns (label, table)."""
    try:
        if override:
            label, text = option_file(override)
        else:
            label = f"arkham/data/{name}"
            text = (DATA_DIR / name).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{label}: not a text file") from None
    return label, parse_toml(text, source=label)


Count = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Tables = dict[str, Any]


class _Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A token kind written as a table (a bare number is a symbol's modifier)."""

    value: int = 0
    again: bool = False
    leaves: bool = False
    autofail: bool = False
    elder_sign: bool = False
    symbol: bool = False


class _ChaosFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tokens: Tables
    bags: dict[str, Tables] = {}
    source: str = ""


class _Bag(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[bags.CAMPAIGN]``: the numeric tokens per difficulty plus the symbols every level holds."""

    easy: dict[str, Count]
    standard: dict[str, Count]
    hard: dict[str, Count]
    expert: dict[str, Count]
    symbols: dict[str, Count] = {}
    verified: bool = False
    source: str = ""


class _Skills(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    willpower: Count = 0
    intellect: Count = 0
    combat: Count = 0
    agility: Count = 0


class _Investigator(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    health: Positive
    sanity: Positive
    name: str | None = None
    elder_sign: int = 0
    elder_sign_per: Literal["", "clue_here", "horror"] = ""  # +1 for each clue at the location / horror
    skills: _Skills = _Skills()
    deck_size: Positive = 30
    access: dict[str, Count] | None = None
    card: str = ""
    verified: bool = False
    source: str = ""


class _CardSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What an agenda and an act card share; each adds its threshold (doom or clues)."""

    name: str | None = None
    per_investigator: bool = False
    objective: str | None = None
    resolution: str | None = None
    card: str = ""
    resolutions: tuple[str, ...] = ()
    goal: Goal | None = None
    spend: Spend | None = None
    then: tuple[Step, ...] = ()
    enemy_fight: int = 0
    enemy_evade: int = 0
    ability: Ability | None = None


class _Agenda(_CardSpec, frozen=True, forbid_unknown_fields=True):
    doom: Positive | None = None
    forced: tuple[AgendaForced, ...] = ()
    from_act: FromAct | None = None


class _Act(_CardSpec, frozen=True, forbid_unknown_fields=True):
    clues: Positive | None = None


class _IfLogged(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A card the campaign guide's setup shuffles into the encounter deck when the log holds ``log``."""

    log: str
    set: str
    card: str
    record: str = ""  # the campaign-log line (``record TEXT``) that holds this entry in a campaign


class _Reference(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    easy_standard: Tables = {}
    hard_expert: Tables = {}


class _Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    title: str | None = None
    campaign: str = ""
    agendas: list[_Agenda] = []
    acts: list[_Act] = []
    reference: _Reference = _Reference()
    card: str = ""
    source: str = ""
    verified: bool = False
    encounter_sets: list[str] = []
    aside_sets: list[str] = []  # set aside as decks of their own (The Midnight Masks' Cultist deck)
    one_of_sets: list[str] = []  # one of these, chosen at random and unseen, joins the encounter deck
    start: list[str] = []
    start_at: str | None = None
    locations: Tables = {}
    enemies: Tables = {}  # extra enemies of an edited copy: { NAME = { fight = .., ... } }
    if_logged: list[_IfLogged] = []


class _Campaign(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    title: str = ""
    sequence: list[str] = []
    source: str = ""


class _ScenarioFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    scenarios: Tables
    campaigns: Tables = {}


class _Set(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str = ""
    source: str = ""
    cards: Tables = {}


class _EncounterFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    sets: Tables


def _table(label: str, raw: Any, key: str) -> Mapping[str, Any]:
    return decode(raw, Tables, source=label, prefix=key if key != "(top level)" else "")


def _token(label: str, raw: Any, key: str) -> TokenKind:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return TokenKind(value=raw, symbol=True)
    t = decode(raw, _Token, source=label, prefix=key)
    return TokenKind(t.value, t.again, t.leaves, t.autofail, t.elder_sign, t.symbol)


def _symbol(label: str, raw: Any, key: str) -> SymbolEffect:
    """A reference card line: a bare number is the modifier; a table adds what the token does."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        return SymbolEffect(value=raw)
    return decode(raw, SymbolEffect, source=label, prefix=key)


def symbol_token(effect: SymbolEffect) -> TokenKind:
    """The token kind a reference line gives before the board is read (its printed modifier)."""
    return TokenKind(value=effect.value, again=effect.again, symbol=True)


_FORCED_DOES: dict[str, tuple[str, ...]] = {"defeated": ("horror",), "engages": ("horror",), "evaded": ("victory",),
                                             "attacks": ("heal", "discard_or_harm")}
"""What an enemy's Forced effect at one of its own moments can do (the ends of a turn, phase or round:
ready, heal, doom)."""


def load_encounters(override: str | None = None,
                    packs: Sequence[packlib.Pack] = ()) -> dict[str, dict[str, EncounterCard]]:
    """Encounter sets by key: each card by name, with the set it belongs to filled in."""
    found = read_layers("encounters.toml", override, packs, _EncounterFile, ("sets",))
    out: dict[str, dict[str, EncounterCard]] = {}
    for layer, key, raw in packlib.entries(found, "sets"):
        label = layer.label
        entry = decode(raw, _Set, source=label, prefix=f"sets.{key}")
        cards = {}
        for name, card in _entries(label, entry.cards, f"sets.{key}.cards", EncounterCard).items():
            if card.kind == "enemy" and None in (card.fight, card.health, card.evade, card.damage, card.horror):
                raise fail(label, f"sets.{key}.cards.{name}", "an enemy needs fight, health, evade, damage and horror")
            if (card.discard is not None or card.no_play) and card.stays != "threat_area":
                raise fail(label, f"sets.{key}.cards.{name}", "discard and no_play need stays = \"threat_area\"")
            if card.attach is not None and card.stays != "location":
                raise fail(label, f"sets.{key}.cards.{name}", "attach needs stays = \"location\"")
            if (card.bearer_skills or card.bearer_sanity) and card.stays != "threat_area":
                raise fail(label, f"sets.{key}.cards.{name}",
                           "bearer_skills and bearer_sanity need stays = \"threat_area\"")
            if card.action_tests and card.stays is None:
                raise fail(label, f"sets.{key}.cards.{name}", "action_tests need stays (a card in play to activate)")
            if card.forced and card.kind != "enemy":
                raise fail(label, f"sets.{key}.cards.{name}", "forced is an enemy's (a treachery's Forced is discard)")
            for i, effect in enumerate(card.forced):
                if effect.do not in _FORCED_DOES.get(effect.at, ("ready", "heal", "doom")):
                    raise fail(label, f"sets.{key}.cards.{name}.forced[{i}]",
                               f"at = \"{effect.at}\" cannot do \"{effect.do}\"")
            if card.discard is not None and card.discard.test is not None and card.discard.at != "turn_end":
                raise fail(label, f"sets.{key}.cards.{name}.discard", "only a turn_end discard has a test")
            cards[name] = msgspec.structs.replace(card, set=key, source=card.source or entry.source)
        out[key] = cards
    return out


def load_tokens(override: str | None = None, packs: Sequence[packlib.Pack] = ()
                ) -> tuple[dict[str, TokenKind], dict[str, dict[str, dict[str, int]]]]:
    """Token kinds, and bags: campaign -> difficulty -> token -> count (symbols already added)."""
    found = read_layers("chaos.toml", override, packs, _ChaosFile, ("tokens", "bags"))
    tokens = {name: _token(layer.label, raw, f"tokens.{name}") for layer, name, raw in packlib.entries(found, "tokens")}
    bags: dict[str, dict[str, dict[str, int]]] = {}
    for layer, campaign, raw in packlib.entries(found, "bags"):
        label, bag = layer.label, decode(raw, _Bag, source=layer.label, prefix=f"bags.{campaign}")
        bags[campaign] = {}
        for level in DIFFICULTIES:
            counts: dict[str, int] = {}
            for part, where in ((getattr(bag, level), level), (bag.symbols, "symbols")):
                for token, n in part.items():
                    if token not in tokens:
                        raise fail(label, f"bags.{campaign}.{where}", f"unknown token {token!r}")
                    counts[token] = counts.get(token, 0) + n
            bags[campaign][level] = counts
    return tokens, bags


def load_investigators(override: str | None = None, packs: Sequence[packlib.Pack] = ()) -> dict[str, Investigator]:
    found = read_layers("investigators.toml", override, packs, None, ())
    out = {}
    for layer, key, raw in packlib.entries(found, ""):
        inv = decode(raw, _Investigator, source=layer.label, prefix=key)
        skills = msgspec.structs.asdict(inv.skills)
        out[key] = Investigator(key, key if inv.name is None else inv.name, inv.health, inv.sanity, inv.elder_sign,
                                skills, inv.deck_size, None if inv.access is None else dict(inv.access), inv.card,
                                inv.elder_sign_per)
    return out


def _card(label: str, spec: _Agenda | _Act, key: str) -> Card:
    amount_key, amount = ("doom", spec.doom) if isinstance(spec, _Agenda) else ("clues", spec.clues)
    if amount is None and spec.objective is None:
        raise ConfigError(f"{label}: {key} needs {amount_key} or objective", file=label, key=key)
    if spec.goal is not None and spec.objective is None:
        raise fail(label, key, "a goal needs its objective (in words)")
    forced = spec.forced if isinstance(spec, _Agenda) else ()
    from_act = spec.from_act if isinstance(spec, _Agenda) else None
    if from_act is not None and not (spec.resolution or spec.resolutions):
        raise fail(label, f"{key}.from_act", "from_act replaces a resolution: the agenda needs one for the acts before")
    return Card(key if spec.name is None else spec.name, amount, spec.per_investigator, spec.objective,
                spec.resolution, spec.card, spec.resolutions, spec.goal, spec.spend, spec.then, spec.enemy_fight,
                spec.enemy_evade, spec.ability, forced, from_act)


def load_scenarios(override: str | None = None, encounters: str | None = None, packs: Sequence[packlib.Pack] = ()
                   ) -> tuple[dict[str, Scenario], dict[str, tuple[str, ...]]]:
    """Scenarios by id, and each campaign's scenario sequence."""
    found = read_layers("scenarios.toml", override, packs, _ScenarioFile, ("scenarios", "campaigns"))
    sets = load_encounters(encounters, packs)
    scenarios = {}
    for layer, sid, raw in packlib.entries(found, "scenarios"):
        key, label = f"scenarios.{sid}", layer.label
        spec = decode(raw, _Scenario, source=label, prefix=key)
        agendas = tuple(_card(label, c, f"{key}.agendas[{i}]") for i, c in enumerate(spec.agendas))
        acts = tuple(_card(label, c, f"{key}.acts[{i}]") for i, c in enumerate(spec.acts))
        if not agendas or not acts:
            raise ConfigError(f"{label}: {key} needs at least one agenda and one act", file=label, key=key)
        reference: dict[str, dict[str, SymbolEffect]] = {}
        for side in ("easy_standard", "hard_expert"):
            part: Mapping[str, Any] = getattr(spec.reference, side)
            reference[side] = {sym: _symbol(label, v, f"{key}.reference.{side}.{sym}") for sym, v in part.items()}
        cards, deck, size = _scenario_cards(label, key, spec, sets)
        locations = {name: msgspec.structs.replace(loc, verified=spec.verified if loc.verified is None
                                                   else loc.verified, source=loc.source or spec.source)
                     for name, loc in _entries(label, spec.locations, f"{key}.locations", LocationSpec).items()}
        for name in (*spec.start, *([spec.start_at] if spec.start_at else [])):
            if name not in locations:
                raise fail(label, f"{key}.start", f"no location {name!r} in {key}.locations")
        logged = []
        for i, entry in enumerate(spec.if_logged):
            card = sets.get(entry.set, {}).get(entry.card)
            if card is None:
                raise fail(label, f"{key}.if_logged[{i}]", f"no card {entry.card!r} in encounter set {entry.set!r}")
            logged.append(LoggedCard(entry.log, entry.card, msgspec.structs.replace(card, set_aside=False),
                                     entry.record))
        scenarios[sid] = Scenario(sid, sid if spec.title is None else spec.title, spec.campaign, agendas, acts,
                                  reference, cards, deck, size, locations, tuple(spec.start), spec.start_at,
                                  spec.card, spec.source, spec.verified, tuple(logged))
    campaigns = {}
    for layer, cid, raw in packlib.entries(found, "campaigns"):
        campaign = decode(raw, _Campaign, source=layer.label, prefix=f"campaigns.{cid}")
        for s in campaign.sequence:
            if s not in scenarios:
                raise fail(layer.label, f"campaigns.{cid}.sequence", f"unknown scenario {s!r}")
        campaigns[cid] = tuple(campaign.sequence)
    return scenarios, campaigns


def _scenario_cards(label: str, key: str, spec: _Scenario, sets: Mapping[str, Mapping[str, EncounterCard]]
                    ) -> tuple[dict[str, EncounterCard], dict[str, int], int]:
    """Every encounter card the scenario can bring in, the cards its encounter deck may hold (name ->
    copies) and the deck's size. Of ``one_of_sets`` one joins the deck unseen: all their cards may be
    drawn, but only one set's cards are counted (the largest, when they differ)."""
    cards: dict[str, EncounterCard] = {}
    deck: dict[str, int] = {}
    size, unseen = 0, 0
    for where, names in (("encounter_sets", spec.encounter_sets), ("aside_sets", spec.aside_sets),
                         ("one_of_sets", spec.one_of_sets)):
        for set_key in names:
            if set_key not in sets:
                raise fail(label, f"{key}.{where}",
                           f"unknown encounter set {set_key!r} (sets: {', '.join(sorted(sets))})")
            shuffled = 0
            for name, card in sets[set_key].items():
                cards[name] = card
                if where != "aside_sets" and not card.set_aside:
                    deck[name] = card.count
                    shuffled += card.count
            if where == "encounter_sets":
                size += shuffled
            elif where == "one_of_sets":
                unseen = max(unseen, shuffled)
    for name, raw in _entries(label, spec.enemies, f"{key}.enemies", _ExtraEnemy).items():
        cards[name] = EncounterCard("enemy", fight=raw.fight, health=raw.health, evade=raw.evade, damage=raw.damage,
                                    horror=raw.horror, keywords=raw.keywords, traits=raw.traits,
                                    set_aside=True, verified=raw.verified, source=raw.source or label)
    return cards, deck, size + unseen


class _ExtraEnemy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An enemy an edited scenario file adds by hand (its numbers from the card in front of you)."""

    fight: Annotated[int, msgspec.Meta(ge=0, le=99)]
    health: Annotated[int, msgspec.Meta(ge=1, le=99)]
    evade: Annotated[int, msgspec.Meta(ge=0, le=99)]
    damage: Annotated[int, msgspec.Meta(ge=0, le=99)]
    horror: Annotated[int, msgspec.Meta(ge=0, le=99)]
    keywords: tuple[Keyword, ...] = ()
    traits: tuple[str, ...] = ()
    verified: bool = False
    source: str = ""


def reference_side(difficulty: str) -> str:
    """AH-DIFFLVL-3: Easy and Standard read one face of the reference card, Hard and Expert the other."""
    if difficulty not in DIFFICULTIES:
        raise ConfigError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")
    return "easy_standard" if difficulty in ("easy", "standard") else "hard_expert"
