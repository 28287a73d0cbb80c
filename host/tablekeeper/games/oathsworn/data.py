"""Loading the game's editable numbers (MIGHT decks, difficulty, time tracks, classes, items,
encounter) from TOML; a bad file gives one ``ConfigError`` line naming the file and key."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tablekeeper.core.file_options import option_file
from tablekeeper.core.tracks import Slot, TimeTrack
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.oathsworn.cards import COLOUR_LETTERS, parse_face
from tablekeeper.games.oathsworn.rules import Difficulty, Item

DEFAULT_NAME = "oathsworn.toml"


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
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: not valid TOML: {exc}") from None
    return parse(raw, origin), hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Reader:
    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, key: str, msg: str) -> ConfigError:
        return ConfigError(f"{self.origin}: {key}: {msg}")

    def table(self, raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = raw
        for part in key.split("."):
            if not isinstance(value, Mapping) or part not in value:
                raise self.fail(key, "missing")
            value = value[part]
        if not isinstance(value, Mapping):
            raise self.fail(key, "must be a table")
        return value

    def int(self, raw: Mapping[str, Any], key: str, name: str, lo: int = 0, default: int | None = None) -> int:
        value = raw.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{key}.{name}", "must be a whole number")
        if value < lo:
            raise self.fail(f"{key}.{name}", f"must be at least {lo}")
        return value


def _deck(r: _Reader, raw: Mapping[str, Any], key: str) -> dict[str, int]:
    colour = COLOUR_LETTERS.get(key.rsplit(".", 1)[-1])
    out: dict[str, int] = {}
    for face in raw:
        try:
            parse_face(colour or "W", face)
        except Rejected:
            raise r.fail(f"{key}.{face}", "a face is a value with an optional * (e.g. \"2*\")") from None
        out[face] = r.int(raw, key, face)
    if sum(out.values()) == 0:
        raise r.fail(key, "a deck needs at least one card")
    if not any(parse_face("W", f).value == 0 for f in out):
        raise r.fail(key, "a deck needs a blank face \"0\" (the odds redraw blanks)")
    return out


def parse(raw: Mapping[str, Any], origin: str) -> GameData:
    r = _Reader(origin)
    might = {}
    enemy = {}
    enemy_raw = raw.get("enemy_might", {})
    for name, letter in COLOUR_LETTERS.items():
        might[letter] = _deck(r, r.table(raw, f"might.{name}"), f"might.{name}")
        if isinstance(enemy_raw, Mapping) and name in enemy_raw:
            enemy[letter] = _deck(r, r.table(raw, f"enemy_might.{name}"), f"enemy_might.{name}")
        else:
            enemy[letter] = might[letter]
    diffs = {}
    for name, spec in r.table(raw, "difficulty").items():
        key = f"difficulty.{name}"
        if not isinstance(spec, Mapping):
            raise r.fail(key, "must be a table")
        diffs[name] = Difficulty(name, r.int(spec, key, "max_hp", 1), r.int(spec, key, "defense_bonus"),
                                 r.int(spec, key, "extra_items"), r.int(spec, key, "ko_modifier", lo=-10))
    if "free" not in diffs:
        raise r.fail("difficulty.free", "missing (the standard difficulty)")
    chapters = {}
    for num, spec in r.table(raw, "chapter").items():
        key = f"chapter.{num}"
        if not num.isdigit() or not isinstance(spec, Mapping):
            raise r.fail(key, "chapters are tables named by number")
        rows = []
        for row_name in ("top", "bottom"):
            row = spec.get(row_name, [])
            if not isinstance(row, list) or not all(isinstance(s, Mapping) for s in row):
                raise r.fail(f"{key}.{row_name}", "must be a list of slot tables")
            rows.append(tuple({str(k): str(v) for k, v in s.items()} for s in row))
        if not any(rows):
            raise r.fail(key, "a time track needs slots")
        chapters[int(num)] = Chapter(int(num), str(spec.get("map", "city")), tuple(rows))
    items = {}
    for name, spec in r.table(raw, "item").items():
        key = f"item.{name}"
        if not isinstance(spec, Mapping):
            raise r.fail(key, "must be a table")
        kind = spec.get("kind", "gear")
        if kind not in ("weapon", "shield", "armor", "gear"):
            raise r.fail(f"{key}.kind", "weapon, shield, armor or gear")
        might_list = spec.get("might", [])
        if not isinstance(might_list, list) or any(m not in ("W", "Y", "R", "B") for m in might_list):
            raise r.fail(f"{key}.might", "a list of colour letters W, Y, R, B")
        items[name] = Item(name, kind, r.int(spec, key, "hands", default=0), r.int(spec, key, "defense", default=0),
                           tuple(might_list), r.int(spec, key, "value", default=0),
                           r.int(spec, key, "range", default=0), r.int(spec, key, "cooldown", default=0),
                           r.int(spec, key, "cost", default=0))
    classes = {}
    stars = {}
    for name, spec in r.table(raw, "class").items():
        starting = spec.get("items", []) if isinstance(spec, Mapping) else None
        if not isinstance(starting, list):
            raise r.fail(f"class.{name}.items", "a list of item names")
        for item in starting:
            if item not in items:
                raise r.fail(f"class.{name}.items", f"unknown item {item!r}")
        classes[name] = tuple(starting)
        star = spec.get("star_cards", [])
        if not isinstance(star, list) or (star and len(star) != 7):
            raise r.fail(f"class.{name}.star_cards", "the 7 starting ability cards, or leave it out")
        stars[name] = tuple(str(c) for c in star)
    defaults = r.table(raw, "class_defaults")
    enc = r.table(raw, "encounter")
    boss = []
    for i, loc in enumerate(enc.get("boss", [])):
        if not isinstance(loc, Mapping) or "name" not in loc:
            raise r.fail(f"encounter.boss[{i}]", "needs a name and a defense")
        boss.append((str(loc["name"]), r.int(loc, f"encounter.boss[{i}]", "defense", 1)))
    if not boss:
        raise r.fail("encounter.boss", "the boss needs at least one location")
    stages = enc.get("stages", [])
    if not isinstance(stages, list) or len(stages) != 3 or any(not isinstance(x, int) or x < 0 for x in stages):
        raise r.fail("encounter.stages", "three card counts (stage 1, 2, 3)")
    after = enc.get("stage_after_breaks", [])
    if not isinstance(after, list) or any(not isinstance(x, int) or x < 1 for x in after):
        raise r.fail("encounter.stage_after_breaks", "a list of break counts")
    allies = {}
    for name, spec in raw.get("ally", {}).items():
        if not isinstance(spec, Mapping):
            raise r.fail(f"ally.{name}", "must be a table")
        allies[name] = {"combat": bool(spec.get("combat", True)), "defense": r.int(spec, f"ally.{name}", "defense", 1)}
    company = dict(r.table(raw, "company"))
    for ally in company.get("allies", []):
        if ally not in allies:
            raise r.fail("company.allies", f"unknown ally {ally!r} (add [ally.{ally}])")
    return GameData(origin, might, enemy, diffs, chapters, classes, stars, r.int(defaults, "class_defaults", "regen"),
                    r.int(defaults, "class_defaults", "max_animus", 1), items, company, allies, tuple(boss),
                    tuple(stages), tuple(after))
