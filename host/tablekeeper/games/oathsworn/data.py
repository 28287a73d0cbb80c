"""Loading the game's editable numbers (MIGHT decks, difficulty, time tracks, classes, items, allies,
encounters, archetype cards) from TOML; a bad file gives one ``ConfigError`` line naming the file and
key. Each kind of content says whether it was checked against the printed component (``verified``)."""

# Annotations stay objects here (no ``from __future__ import annotations``): msgspec reads these records'
# annotations at the first decode of every start, and compiles and evaluates each one given as a string.
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

import msgspec

from tablekeeper.core import packs as packlib
from tablekeeper.core.file_options import option_file
from tablekeeper.core.numbers import is_number
from tablekeeper.core.tracks import Slot, TimeTrack
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.oathsworn.cards import COLOUR_LETTERS, parse_face
from tablekeeper.games.oathsworn.rules import COMBAT_TOKENS, Difficulty, Item
from tablekeeper.schema import decode, fail, parse_toml

DEFAULT_NAME = "oathsworn.toml"
PACKAGE = "tablekeeper.games.oathsworn"
PACK_TABLES = ("encounter", "item", "ally", "archetype", "class")  # what a pack's oathsworn.toml may add
S = TypeVar("S", bound=msgspec.Struct)


@dataclass(frozen=True)
class Chapter:
    number: int
    map: str
    rows: tuple[tuple[Mapping[str, str], ...], ...]  # slot specs, top row first
    verified: bool = False  # the layout checked against the printed time track (M12)

    def track(self) -> TimeTrack:
        """OS-TIME-2: slots numbered in fill order (top row left to right, then bottom row)."""
        rows = []
        n = 0
        for row in self.rows:
            slots = []
            for spec in row:
                n += 1
                if_empty = tuple((p, spec[p]) for p in ("end_of_story", "end_of_encounter") if p in spec)
                slots.append(Slot(n, spec.get("immediate"), if_empty))
            rows.append(slots)
        return TimeTrack.rows(rows)

    def slot_position(self, number: int) -> tuple[int, int]:
        """(row, column) of a slot, both from 0: row 0 is the top row."""
        left = number - 1
        for r, row in enumerate(self.rows):
            if left < len(row):
                return r, left
            left -= len(row)
        raise Rejected(f"no slot {number} on this time track")

    def slot_spec(self, number: int) -> Mapping[str, str]:
        flat = [s for row in self.rows for s in row]
        return flat[number - 1]


@dataclass(frozen=True)
class Ally:
    """An ally card (M14): combat or not, DEFENSE under its base, the MIGHT cubes it attacks with."""

    id: str
    name: str
    combat: bool
    defense: int
    might: tuple[str, ...]
    verified: bool
    source: str


@dataclass(frozen=True)
class StageCard:
    """One stage card: its printed name (when known), the hexes it moves and the location it attacks from."""

    name: str | None
    move: int | None = None
    attack: str | None = None


@dataclass(frozen=True)
class Encounter:
    """A boss fight (M9-M11): locations with DEFENSE (one HP die each), the boss's MIGHT, the stage
    deck by stage, the breaks that change the stage."""

    id: str
    name: str
    chapter: int | None
    locations: tuple[tuple[str, str, int], ...]  # (id, name, DEFENSE)
    might: tuple[str, ...]
    stage_cards: tuple[tuple[StageCard, ...], ...]  # stage 1, 2, 3
    stage_after_breaks: tuple[int, ...]
    verified: bool
    source: str

    @property
    def boss(self) -> tuple[tuple[str, int], ...]:
        """(location id, DEFENSE) in board order."""
        return tuple((loc, defense) for loc, _, defense in self.locations)

    @property
    def stages(self) -> tuple[int, ...]:
        return tuple(len(cards) for cards in self.stage_cards)

    def card(self, card_id: str) -> StageCard:
        """The stage card behind a deck id ``S<stage>.<n>``."""
        stage, _, n = card_id[1:].partition(".")
        return self.stage_cards[int(stage) - 1][int(n) - 1]


@dataclass(frozen=True)
class Archetype:
    """A companion archetype card (M7): two abilities on each side, each once per round (OS-COMP-2)."""

    name: str
    sides: Mapping[str, tuple[tuple[str, bool], ...]]  # side -> (ability name, interrupt) x2
    verified: bool
    source: str


@dataclass(frozen=True)
class GameData:
    origin: str
    might: Mapping[str, Mapping[str, int]]  # colour letter -> face -> count
    enemy_might: Mapping[str, Mapping[str, int]]
    difficulties: Mapping[str, Difficulty]
    chapters: Mapping[int, Chapter]
    classes: Mapping[str, tuple[str, ...]]
    star_cards: Mapping[str, tuple[str, ...]]  # OS-ESET-6: a class's chapter-1 hand, when known
    regen: int
    max_animus: int
    items: Mapping[str, Item]
    company: Mapping[str, Any]
    allies: Mapping[str, Ally]
    encounters: Mapping[str, Encounter]
    archetypes: Mapping[str, Archetype]
    unverified: frozenset[str]  # the tables of rule numbers not checked: might, enemy_might, class_defaults

    def item(self, name: str) -> Item:
        try:
            return self.items[name]
        except KeyError:
            raise Rejected(f"unknown item {name!r} (add it under [item] in the data file)") from None

    def encounter(self, name: str) -> Encounter:
        try:
            return self.encounters[name]
        except KeyError:
            raise Rejected(f"unknown encounter {name!r} (encounters: {', '.join(self.encounters)})") from None

    def chapter_encounter(self, chapter: int) -> Encounter:
        """The chapter's own encounter, else the practice one (numbers to be typed in)."""
        for enc in self.encounters.values():
            if enc.chapter == chapter:
                return enc
        return self.encounters.get("practice") or next(iter(self.encounters.values()))

    def chapter(self, number: int) -> Chapter:
        if number in self.chapters:
            return self.chapters[number]
        last = self.chapters[max(self.chapters)]  # later chapters reuse the last layout given: a guess
        return Chapter(number, last.map, last.rows, verified=False)


def load(path: str | None = None) -> GameData:
    return load_text(path)[0]


def load_text(path: str | None = None, packs: Sequence[packlib.Pack] = ()) -> tuple[GameData, str]:
    """The data and a SHA-256 of the text it came from and the packs whose entries it adds (what a
    session keeps to find it again)."""
    if path is None:
        text = resources.files(PACKAGE).joinpath("data").joinpath(DEFAULT_NAME).read_text("utf-8")
        origin = DEFAULT_NAME
    else:
        origin, text = option_file(path)
    added = [p for p in packs if p.where != packlib.BUILTIN_WHERE]
    digest = hashlib.sha256(text.encode("utf-8"))
    for pack in added:
        digest.update(pack.sha256.encode())
    extra = packlib.layers(added, DEFAULT_NAME)
    return parse(parse_toml(text, source=origin), origin, extra), digest.hexdigest()


class _Decks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[might.COLOUR]``: face -> number of cards, one table per colour (OS-MIGHT-1/8)."""

    white: dict[str, int]
    yellow: dict[str, int]
    red: dict[str, int]
    black: dict[str, int]
    verified: bool = False
    source: str = ""


class _EnemyDecks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[enemy_might.COLOUR]``: a colour left out uses the player deck's composition."""

    white: dict[str, int] | None = None
    yellow: dict[str, int] | None = None
    red: dict[str, int] | None = None
    black: dict[str, int] | None = None
    verified: bool = False
    source: str = ""


class _Difficulty(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    max_hp: int
    defense_bonus: int
    extra_items: int
    ko_modifier: int
    verified: bool = True  # the rulebook's difficulty list (OS-DIFF-2)
    source: str = ""


def _check_slot_token(origin: str, key: str, slot: Mapping[str, str]) -> None:
    """OS-TIME-4: an end-of-story reward of combat tokens names its kind, or ``any`` (each
    Oathsworn picks); ``tokens`` says how many each gains."""
    if "token" not in slot and "tokens" not in slot:
        return
    if "end_of_story" not in slot:
        raise _fail(origin, f"{key}.token", "combat tokens are an end_of_story reward")
    kind = slot.get("token", "any")
    if kind != "any" and kind not in COMBAT_TOKENS:
        raise _fail(origin, f"{key}.token", f"{kind!r}: any or one of {', '.join(COMBAT_TOKENS)}")
    if not is_number(slot.get("tokens", "1"), signed=False) or int(slot.get("tokens", "1")) < 1:
        raise _fail(origin, f"{key}.tokens", "a whole number of tokens from 1")


class _Chapter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    map: str = "city"
    top: list[dict[str, str]] = []
    bottom: list[dict[str, str]] = []
    verified: bool = False
    source: str = ""


class _Item(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: str = "gear"
    hands: int = 0
    defense: int = 0
    might: list[str] = []
    value: int = 0
    range: int = 0
    cooldown: int = 0
    cost: int = 0
    verified: bool = False
    source: str = ""


class _Class(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    items: list[str] = []
    star_cards: list[str] = []
    verified: bool = False
    source: str = ""


class _ClassDefaults(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    regen: int
    max_animus: int
    verified: bool = False
    source: str = ""


class _Company(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[company]``: what the setup hands the whole company (OS-SETUP-4/9/11)."""

    iron_per_oathsworn: int = 3
    player_aids_each: int = 2
    allies: list[str] = []
    city_events: int = 6
    deepwood_events: int = 6
    map_tokens: int = 30
    chapters: int = 20


class _Ally(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    defense: int
    combat: bool = True
    name: str = ""
    might: list[str] = []
    verified: bool = False
    source: str = ""


class _Location(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    defense: int
    name: str = ""


class _StageCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    move: int | None = None
    attack: str | None = None


class _Encounter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ``[encounter.ID]``: ``stages`` counts unnamed cards; ``stage_cards`` names them instead."""

    locations: list[_Location]
    name: str = ""
    chapter: int | None = None
    might: list[str] = []
    stages: list[int] = []
    stage_cards: list[list[_StageCard]] = []
    stage_after_breaks: list[int] = []
    verified: bool = False
    source: str = ""


class _Ability(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    interrupt: bool = False


class _Archetype(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    A: list[_Ability]
    B: list[_Ability]
    verified: bool = False
    source: str = ""


class _File(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file except ``[class]`` (a Python keyword); named entries are decoded one by one
    (``_entries``) so an error names the entry."""

    might: _Decks
    difficulty: dict[str, dict[str, Any]]
    chapter: dict[str, dict[str, Any]]
    item: dict[str, dict[str, Any]]
    class_defaults: _ClassDefaults
    company: _Company
    encounter: dict[str, dict[str, Any]]
    enemy_might: _EnemyDecks = _EnemyDecks()
    ally: dict[str, dict[str, Any]] = {}
    archetype: dict[str, dict[str, Any]] = {}


def _entries(origin: str, table: Mapping[str, Any], key: str, kind: type[S]) -> dict[str, S]:
    return {name: decode(entry, kind, source=origin, prefix=f"{key}.{name}") for name, entry in table.items()}


def _layered(origin: str, table: Mapping[str, Any], key: str, kind: type[S],
             extra: Sequence[packlib.Layer]) -> list[tuple[str, str, S]]:
    """(file, name, entry) of the data file's table ``key`` and of each pack's: a name used twice is
    one line naming the pack's file."""
    found = [packlib.Layer(packlib.BUILTIN, origin, {key: dict(table)}), *extra]
    return [(layer.label, name, decode(raw, kind, source=layer.label, prefix=f"{key}.{name}"))
            for layer, name, raw in packlib.entries(found, key)]


def _fail(origin: str, key: str, msg: str) -> ConfigError:
    return fail(origin, key, msg)


def _at_least(origin: str, key: str, value: int, lo: int) -> int:
    if value < lo:
        raise _fail(origin, key, f"must be at least {lo}")
    return value


def _deck(origin: str, faces: Mapping[str, int], key: str) -> dict[str, int]:
    colour = COLOUR_LETTERS[key.rsplit(".", 1)[-1]]
    for face, count in faces.items():
        try:
            parse_face(colour, face)
        except Rejected:
            raise _fail(origin, f"{key}.{face}", "a face is a value with an optional * (e.g. \"2*\")") from None
        _at_least(origin, f"{key}.{face}", count, 0)
    if sum(faces.values()) == 0:
        raise _fail(origin, key, "a deck needs at least one card")
    if not any(parse_face("W", f).value == 0 for f in faces):
        raise _fail(origin, key, "a deck needs a blank face \"0\" (the odds redraw blanks)")
    return dict(faces)


def parse(raw: Mapping[str, Any], origin: str, extra: Sequence[packlib.Layer] = ()) -> GameData:
    """Decode the TOML tables (shape, types, unknown keys) then check bounds and cross references,
    one reader per table, so a new key is read and checked in one place. ``extra``: packs' copies of
    the file, which add encounters, items, allies, archetypes and classes of their own."""
    packlib.only([packlib.Layer(packlib.BUILTIN, origin, {}), *extra], PACK_TABLES)
    body = dict(raw)
    classes_raw = body.pop("class", None)
    f = decode(body, _File, source=origin)
    if classes_raw is None:
        raise _fail(origin, "(top level)", "missing required key class")
    class_specs = _layered(origin, decode(classes_raw, dict[str, dict[str, Any]], source=origin, prefix="class"),
                           "class", _Class, extra)
    might, enemy = _might(origin, f)
    items = _items(origin, f, extra)
    classes, stars = _classes(class_specs, items)
    company = msgspec.structs.asdict(f.company)
    for stat, value in company.items():
        if isinstance(value, int):
            _at_least(origin, f"company.{stat}", value, 0)
    unverified = frozenset(name for name, table in (("might", f.might), ("enemy_might", f.enemy_might),
                                                    ("class_defaults", f.class_defaults)) if not table.verified)
    return GameData(origin, might, enemy, _difficulties(origin, f), _chapters(origin, f), classes, stars,
                    _at_least(origin, "class_defaults.regen", f.class_defaults.regen, 0),
                    _at_least(origin, "class_defaults.max_animus", f.class_defaults.max_animus, 1), items, company,
                    _allies(origin, f, extra), _encounters(origin, f, extra), _archetypes(origin, f, extra), unverified)


def _might(origin: str, f: _File) -> tuple[dict[str, Mapping[str, int]], dict[str, Mapping[str, int]]]:
    might: dict[str, Mapping[str, int]] = {}
    enemy: dict[str, Mapping[str, int]] = {}
    for name, letter in COLOUR_LETTERS.items():
        might[letter] = _deck(origin, getattr(f.might, name), f"might.{name}")
        own = getattr(f.enemy_might, name)
        enemy[letter] = might[letter] if own is None else _deck(origin, own, f"enemy_might.{name}")
    return might, enemy


def _difficulties(origin: str, f: _File) -> dict[str, Difficulty]:
    diffs = {}
    for name, d in _entries(origin, f.difficulty, "difficulty", _Difficulty).items():
        key = f"difficulty.{name}"
        diffs[name] = Difficulty(name, _at_least(origin, f"{key}.max_hp", d.max_hp, 1),
                                 _at_least(origin, f"{key}.defense_bonus", d.defense_bonus, 0),
                                 _at_least(origin, f"{key}.extra_items", d.extra_items, 0),
                                 _at_least(origin, f"{key}.ko_modifier", d.ko_modifier, -10))
    if "free" not in diffs:
        raise _fail(origin, "difficulty.free", "missing (the standard difficulty)")
    return diffs


def _chapters(origin: str, f: _File) -> dict[int, Chapter]:
    chapters = {}
    for num, spec in _entries(origin, f.chapter, "chapter", _Chapter).items():
        key = f"chapter.{num}"
        if not is_number(num, signed=False):
            raise _fail(origin, key, "chapters are tables named by number")
        rows = (tuple(spec.top), tuple(spec.bottom))
        if not any(rows):
            raise _fail(origin, key, "a time track needs slots")
        for row_name, row in (("top", spec.top), ("bottom", spec.bottom)):
            for i, slot in enumerate(row):
                _check_slot_token(origin, f"{key}.{row_name}[{i}]", slot)
        chapters[int(num)] = Chapter(int(num), spec.map, rows, spec.verified)
    return chapters


def _items(origin: str, f: _File, extra: Sequence[packlib.Layer]) -> dict[str, Item]:
    items = {}
    for label, name, it in _layered(origin, f.item, "item", _Item, extra):
        key = f"item.{name}"
        if it.kind not in ("weapon", "shield", "armor", "gear"):
            raise _fail(label, f"{key}.kind", "weapon, shield, armor or gear")
        if any(m not in ("W", "Y", "R", "B") for m in it.might):
            raise _fail(label, f"{key}.might", "a list of colour letters W, Y, R, B")
        for stat in ("hands", "defense", "value", "range", "cooldown", "cost"):
            _at_least(label, f"{key}.{stat}", getattr(it, stat), 0)
        items[name] = Item(name, it.kind, it.hands, it.defense, tuple(it.might), it.value, it.range, it.cooldown,
                           it.cost, it.verified)
    return items


def _classes(specs: Sequence[tuple[str, str, _Class]],
             items: Mapping[str, Item]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    classes = {}
    stars = {}
    for origin, name, cls in specs:
        for item in cls.items:
            if item not in items:
                raise _fail(origin, f"class.{name}.items", f"unknown item {item!r}")
        classes[name] = tuple(cls.items)
        if cls.star_cards and len(cls.star_cards) != 7:
            raise _fail(origin, f"class.{name}.star_cards", "the 7 starting ability cards, or leave it out")
        stars[name] = tuple(cls.star_cards)
    return classes, stars


def _colours(origin: str, key: str, might: list[str]) -> tuple[str, ...]:
    if any(m not in ("W", "Y", "R", "B") for m in might):
        raise _fail(origin, key, "a list of colour letters W, Y, R, B")
    return tuple(might)


def _encounters(origin: str, f: _File, extra: Sequence[packlib.Layer]) -> dict[str, Encounter]:
    encounters = {}
    where = {}
    for label, name, enc in _layered(origin, f.encounter, "encounter", _Encounter, extra):
        encounters[name] = _encounter(label, f"encounter.{name}", name, enc)
        where[name] = label
    if not encounters:
        raise _fail(origin, "encounter", "at least one encounter")
    first: dict[int, str] = {}
    for name, fight in encounters.items():
        if fight.chapter is not None and fight.chapter in first:
            raise _fail(where[name], f"encounter.{name}.chapter",
                        f"two encounters for chapter {fight.chapter} ({first[fight.chapter]} is one; a pack's own "
                        "encounter leaves chapter out and is chosen with --option encounter=ID)")
        if fight.chapter is not None:
            first[fight.chapter] = name
    return encounters


def _encounter(origin: str, key: str, enc_id: str, enc: _Encounter) -> Encounter:
    locations = []
    for i, loc in enumerate(enc.locations):
        if not loc.id or any(ch in loc.id for ch in ",|> ") or is_number(loc.id):
            raise _fail(origin, f"{key}.locations[{i}].id", "one word, not a number (players type it)")
        locations.append((loc.id, loc.name or loc.id, _at_least(origin, f"{key}.locations[{i}].defense",
                                                                  loc.defense, 1)))
    if not locations:
        raise _fail(origin, f"{key}.locations", "the boss needs at least one location")
    if len({loc for loc, _, _ in locations}) != len(locations):
        raise _fail(origin, f"{key}.locations", "each location id once")
    ids = {loc for loc, _, _ in locations}
    if enc.stage_cards and enc.stages:
        raise _fail(origin, f"{key}.stages", "give stage_cards (named) or stages (counts), not both")
    if enc.stage_cards:
        cards = tuple(tuple(StageCard(c.name, c.move, c.attack) for c in stage) for stage in enc.stage_cards)
        for s, stage in enumerate(cards):
            for k, card in enumerate(stage):
                if card.attack is not None and card.attack not in ids:
                    raise _fail(origin, f"{key}.stage_cards[{s}][{k}].attack", f"one of {', '.join(sorted(ids))}")
    else:
        cards = tuple(tuple(StageCard(None) for _ in range(max(n, 0))) for n in enc.stages)
        if any(n < 0 for n in enc.stages):
            raise _fail(origin, f"{key}.stages", "three card counts (stage 1, 2, 3)")
    if len(cards) != 3:
        raise _fail(origin, f"{key}.stages", "three card counts (stage 1, 2, 3)")
    if any(x < 1 for x in enc.stage_after_breaks):
        raise _fail(origin, f"{key}.stage_after_breaks", "a list of break counts")
    return Encounter(enc_id, enc.name or enc_id, enc.chapter, tuple(locations),
                     _colours(origin, f"{key}.might", enc.might), cards, tuple(enc.stage_after_breaks),
                     enc.verified, enc.source)


def _allies(origin: str, f: _File, extra: Sequence[packlib.Layer]) -> dict[str, Ally]:
    allies: dict[str, Ally] = {}
    for label, name, ally in _layered(origin, f.ally, "ally", _Ally, extra):
        allies[name] = Ally(name, ally.name or name, ally.combat,
                            _at_least(label, f"ally.{name}.defense", ally.defense, 1),
                            _colours(label, f"ally.{name}.might", ally.might), ally.verified, ally.source)
    for ally_name in f.company.allies:
        if ally_name not in allies:
            raise _fail(origin, "company.allies", f"unknown ally {ally_name!r} (add [ally.{ally_name}])")
    return allies


def _archetypes(origin: str, f: _File, extra: Sequence[packlib.Layer]) -> dict[str, Archetype]:
    out = {}
    for label, name, card in _layered(origin, f.archetype, "archetype", _Archetype, extra):
        for side, abilities in (("A", card.A), ("B", card.B)):
            if len(abilities) != 2:
                raise _fail(label, f"archetype.{name}.{side}", "the two abilities of that side")
        out[name] = Archetype(name, {"A": tuple((a.name, a.interrupt) for a in card.A),
                                     "B": tuple((a.name, a.interrupt) for a in card.B)}, card.verified, card.source)
    return out
