"""Loading the game's editable numbers (MIGHT decks, difficulty, time tracks, classes, items,
encounter) from TOML; a bad file gives one ``ConfigError`` line naming the file and key."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

import msgspec

from tablekeeper.core.file_options import option_file
from tablekeeper.core.tracks import Slot, TimeTrack
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.oathsworn.cards import COLOUR_LETTERS, parse_face
from tablekeeper.games.oathsworn.rules import COMBAT_TOKENS, Difficulty, Item
from tablekeeper.schema import decode, parse_toml

DEFAULT_NAME = "oathsworn.toml"
S = TypeVar("S", bound=msgspec.Struct)


@dataclass(frozen=True)
class Chapter:
    number: int
    map: str
    rows: tuple[tuple[Mapping[str, str], ...], ...]  # slot specs, top row first

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
    allies: Mapping[str, Mapping[str, Any]]
    boss: tuple[tuple[str, int], ...]
    boss_might: tuple[str, ...]
    stages: tuple[int, ...]
    stage_after_breaks: tuple[int, ...]

    def item(self, name: str) -> Item:
        try:
            return self.items[name]
        except KeyError:
            raise Rejected(f"unknown item {name!r} (add it under [item] in the data file)") from None

    def chapter(self, number: int) -> Chapter:
        if number in self.chapters:
            return self.chapters[number]
        return self.chapters[max(self.chapters)]  # later chapters reuse the last layout given


def load(path: str | None = None) -> GameData:
    return load_text(path)[0]


def load_text(path: str | None = None) -> tuple[GameData, str]:
    """The data and a SHA-256 of the text it came from (what a session keeps to find it again)."""
    if path is None:
        text = resources.files("tablekeeper.games.oathsworn").joinpath("data").joinpath(DEFAULT_NAME).read_text("utf-8")
        origin = DEFAULT_NAME
    else:
        origin, text = option_file(path)
    return parse(parse_toml(text, source=origin), origin), hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Decks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[might.COLOUR]``: face -> number of cards, one table per colour (OS-MIGHT-1/8)."""

    white: dict[str, int]
    yellow: dict[str, int]
    red: dict[str, int]
    black: dict[str, int]


class _EnemyDecks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[enemy_might.COLOUR]``: a colour left out uses the player deck's composition."""

    white: dict[str, int] | None = None
    yellow: dict[str, int] | None = None
    red: dict[str, int] | None = None
    black: dict[str, int] | None = None


class _Difficulty(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    max_hp: int
    defense_bonus: int
    extra_items: int
    ko_modifier: int


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
    if not slot.get("tokens", "1").isdigit() or int(slot.get("tokens", "1")) < 1:
        raise _fail(origin, f"{key}.tokens", "a whole number of tokens from 1")


class _Chapter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    map: str = "city"
    top: list[dict[str, str]] = []
    bottom: list[dict[str, str]] = []


class _Item(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: str = "gear"
    hands: int = 0
    defense: int = 0
    might: list[str] = []
    value: int = 0
    range: int = 0
    cooldown: int = 0
    cost: int = 0


class _Class(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    items: list[str] = []
    star_cards: list[str] = []


class _ClassDefaults(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    regen: int
    max_animus: int


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


class _BossLocation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    defense: int


class _Encounter(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    boss: list[_BossLocation] = []
    stages: list[int] = []
    stage_after_breaks: list[int] = []


class _File(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file except ``[class]`` (a Python keyword); named entries are decoded one by one
    (``_entries``) so an error names the entry."""

    might: _Decks
    difficulty: dict[str, dict[str, Any]]
    chapter: dict[str, dict[str, Any]]
    item: dict[str, dict[str, Any]]
    class_defaults: _ClassDefaults
    company: _Company
    encounter: _Encounter
    enemy_might: _EnemyDecks = _EnemyDecks()
    ally: dict[str, dict[str, Any]] = {}
    source: dict[str, str] = {}


def _entries(origin: str, table: Mapping[str, Any], key: str, kind: type[S]) -> dict[str, S]:
    return {name: decode(entry, kind, source=origin, prefix=f"{key}.{name}") for name, entry in table.items()}


def _fail(origin: str, key: str, msg: str) -> ConfigError:
    return ConfigError(f"{origin}: {key}: {msg}")


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


def parse(raw: Mapping[str, Any], origin: str) -> GameData:
    """Decode the TOML tables (shape, types, unknown keys) then check bounds and cross references,
    one reader per table, so a new key is read and checked in one place."""
    body = dict(raw)
    classes_raw = body.pop("class", None)
    f = decode(body, _File, source=origin)
    if classes_raw is None:
        raise _fail(origin, "(top level)", "missing required key class")
    class_specs = _entries(origin, decode(classes_raw, dict[str, dict[str, Any]], source=origin, prefix="class"),
                           "class", _Class)
    might, enemy = _might(origin, f)
    items = _items(origin, f)
    classes, stars = _classes(origin, class_specs, items)
    boss, stages, after = _encounter(origin, f)
    company = msgspec.structs.asdict(f.company)
    for stat, value in company.items():
        if isinstance(value, int):
            _at_least(origin, f"company.{stat}", value, 0)
    return GameData(origin, might, enemy, _difficulties(origin, f), _chapters(origin, f), classes, stars,
                    _at_least(origin, "class_defaults.regen", f.class_defaults.regen, 0),
                    _at_least(origin, "class_defaults.max_animus", f.class_defaults.max_animus, 1), items, company,
                    _allies(origin, f), boss, (), stages, after)


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
        if not num.isdigit():
            raise _fail(origin, key, "chapters are tables named by number")
        rows = (tuple(spec.top), tuple(spec.bottom))
        if not any(rows):
            raise _fail(origin, key, "a time track needs slots")
        for row_name, row in (("top", spec.top), ("bottom", spec.bottom)):
            for i, slot in enumerate(row):
                _check_slot_token(origin, f"{key}.{row_name}[{i}]", slot)
        chapters[int(num)] = Chapter(int(num), spec.map, rows)
    return chapters


def _items(origin: str, f: _File) -> dict[str, Item]:
    items = {}
    for name, it in _entries(origin, f.item, "item", _Item).items():
        key = f"item.{name}"
        if it.kind not in ("weapon", "shield", "armor", "gear"):
            raise _fail(origin, f"{key}.kind", "weapon, shield, armor or gear")
        if any(m not in ("W", "Y", "R", "B") for m in it.might):
            raise _fail(origin, f"{key}.might", "a list of colour letters W, Y, R, B")
        for stat in ("hands", "defense", "value", "range", "cooldown", "cost"):
            _at_least(origin, f"{key}.{stat}", getattr(it, stat), 0)
        items[name] = Item(name, it.kind, it.hands, it.defense, tuple(it.might), it.value, it.range, it.cooldown,
                           it.cost)
    return items


def _classes(origin: str, specs: Mapping[str, _Class],
             items: Mapping[str, Item]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    classes = {}
    stars = {}
    for name, cls in specs.items():
        for item in cls.items:
            if item not in items:
                raise _fail(origin, f"class.{name}.items", f"unknown item {item!r}")
        classes[name] = tuple(cls.items)
        if cls.star_cards and len(cls.star_cards) != 7:
            raise _fail(origin, f"class.{name}.star_cards", "the 7 starting ability cards, or leave it out")
        stars[name] = tuple(cls.star_cards)
    return classes, stars


def _encounter(origin: str, f: _File) -> tuple[tuple[tuple[str, int], ...], tuple[int, ...], tuple[int, ...]]:
    boss = []
    for i, loc in enumerate(f.encounter.boss):
        boss.append((loc.name, _at_least(origin, f"encounter.boss[{i}].defense", loc.defense, 1)))
    if not boss:
        raise _fail(origin, "encounter.boss", "the boss needs at least one location")
    stages = f.encounter.stages
    if len(stages) != 3 or any(x < 0 for x in stages):
        raise _fail(origin, "encounter.stages", "three card counts (stage 1, 2, 3)")
    after = f.encounter.stage_after_breaks
    if any(x < 1 for x in after):
        raise _fail(origin, "encounter.stage_after_breaks", "a list of break counts")
    return tuple(boss), tuple(stages), tuple(after)


def _allies(origin: str, f: _File) -> dict[str, Mapping[str, Any]]:
    allies: dict[str, Mapping[str, Any]] = {}
    for name, ally in _entries(origin, f.ally, "ally", _Ally).items():
        allies[name] = {"combat": ally.combat, "defense": _at_least(origin, f"ally.{name}.defense", ally.defense, 1)}
    for ally_name in f.company.allies:
        if ally_name not in allies:
            raise _fail(origin, "company.allies", f"unknown ally {ally_name!r} (add [ally.{ally_name}])")
    return allies
