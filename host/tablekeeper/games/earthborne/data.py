"""Loading the game's editable data (challenge deck, day track, path set, open rule choices).

Every number the catalogue marks "outside the seeds" or leaves open lives in ``data/*.toml`` so a
group can correct it; a bad file gives one ``ConfigError`` line naming the file and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from tablekeeper.errors import ConfigError

ASPECTS = ("awa", "fit", "spi", "foc")
ICONS = ("sun", "mountain", "crest")
CARD_TYPES = ("being", "feature", "other")


@dataclass(frozen=True, slots=True)
class Threshold:
    """A printed threshold: a number, or none; ``per_ranger`` multiplies it by the Rangers (ER-TOKEN-3)."""

    value: int | None
    per_ranger: bool = False

    def effective(self, rangers: int) -> int | None:
        if self.value is None:
            return None
        return self.value * rangers if self.per_ranger else self.value

    def text(self) -> str:
        if self.value is None:
            return "-"
        return f"{self.value}r" if self.per_ranger else str(self.value)


def parse_threshold(text: str, where: str) -> Threshold:
    """``"3"`` -> 3, ``"2r"`` -> 2 per Ranger, ``"-"``/``"none"`` -> no threshold (ER-TOKEN-2)."""
    raw = str(text).strip().lower()
    if raw in ("-", "none", ""):
        return Threshold(None)
    per_ranger = raw.endswith("r")
    digits = raw[:-1] if per_ranger else raw
    if not digits.isdigit() or int(digits) < 1:
        raise ConfigError(f"{where}: threshold must be a positive number, Nr (per Ranger) or '-', not {text!r}")
    return Threshold(int(digits), per_ranger)


@dataclass(frozen=True, slots=True)
class ChallengeCard:
    id: str
    icon: str
    modifiers: Mapping[str, int]
    reshuffle: bool


@dataclass(frozen=True, slots=True)
class PathCard:
    name: str
    progress: Threshold
    harm: Threshold
    type: str = "other"
    arrow: str = "up"
    presence: int = 1
    keywords: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()
    entry: int | None = None
    copies: int = 1


@dataclass(frozen=True, slots=True)
class RulesData:
    ranger_deck: int = 30
    opening_hand: int = 6
    default_aspects: Mapping[str, int] | None = None
    injury_limit: int = 3
    equip_limit: int = 5
    effort_floor: int = 0
    recheck: str = "any"
    nested_clears: str = "literal"
    after_when_kept: bool = True


@dataclass(frozen=True, slots=True)
class Campaign:
    days: int
    weather: Mapping[int, str]
    entries: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class GameData:
    rules: RulesData
    challenge: tuple[ChallengeCard, ...]
    campaign: Campaign
    path: tuple[PathCard, ...]
    unverified: tuple[str, ...] = ()

    def challenge_card(self, card_id: str) -> ChallengeCard:
        for card in self.challenge:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def path_card(self, name: str) -> PathCard | None:
        for card in self.path:
            if card.name.lower() == name.lower():
                return card
        return None


def _read(option: str | None, default_name: str) -> tuple[str, dict[str, Any]]:
    if option:
        where = option
        try:
            text = Path(option).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"{option}: cannot read: {exc.strerror}") from None
    else:
        where = f"earthborne/data/{default_name}"
        text = resources.files("tablekeeper.games.earthborne").joinpath("data", default_name).read_text("utf-8")
    try:
        return where, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML: {exc}") from None


def _int(table: Mapping[str, Any], key: str, where: str, default: int | None = None, lo: int = 0) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < lo:
        raise ConfigError(f"{where}: {key} must be a whole number >= {lo}, not {value!r}")
    return value


def _choice(table: Mapping[str, Any], key: str, where: str, options: tuple[str, ...], default: str) -> str:
    value = table.get(key, default)
    if value not in options:
        raise ConfigError(f"{where}: {key} must be one of {', '.join(options)}, not {value!r}")
    return str(value)


def load_rules(option: str | None) -> RulesData:
    where, raw = _read(option, "rules.toml")
    aspects_raw = raw.get("default_aspects", {"awa": 3, "fit": 2, "spi": 2, "foc": 1})
    if not isinstance(aspects_raw, dict):
        raise ConfigError(f"{where}: default_aspects must be a table of awa, fit, spi, foc")
    aspects = {a: _int(aspects_raw, a, f"{where}: default_aspects") for a in ASPECTS}
    after = raw.get("after_when_kept", True)
    if not isinstance(after, bool):
        raise ConfigError(f"{where}: after_when_kept must be true or false")
    return RulesData(
        ranger_deck=_int(raw, "ranger_deck", where, 30),
        opening_hand=_int(raw, "opening_hand", where, 6),
        default_aspects=aspects,
        injury_limit=_int(raw, "injury_limit", where, 3, lo=1),
        equip_limit=_int(raw, "equip_limit", where, 5),
        effort_floor=_int(raw, "effort_floor", where, 0),
        recheck=_choice(raw, "recheck", where, ("any", "chosen"), "any"),
        nested_clears=_choice(raw, "nested_clears", where, ("literal", "queue"), "literal"),
        after_when_kept=after,
    )


def load_challenge(option: str | None) -> tuple[ChallengeCard, ...]:
    where, raw = _read(option, "challenge.toml")
    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise ConfigError(f"{where}: cards must be a non-empty list of challenge cards")
    cards: list[ChallengeCard] = []
    for i, item in enumerate(cards_raw):
        at = f"{where}: cards[{i}]"
        if not isinstance(item, dict):
            raise ConfigError(f"{at}: must be a table")
        card_id = item.get("id")
        if not isinstance(card_id, str) or not card_id or " " in card_id:
            raise ConfigError(f"{at}.id must be a word, not {card_id!r}")
        if any(c.id == card_id for c in cards):
            raise ConfigError(f"{at}.id {card_id!r} appears twice")
        icon = _choice(item, "icon", at, ICONS, "")
        mods = {}
        for aspect in ASPECTS:
            value = item.get(aspect)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"{at}.{aspect} must be a whole number, not {value!r}")
            mods[aspect] = value
        reshuffle = item.get("reshuffle", False)
        if not isinstance(reshuffle, bool):
            raise ConfigError(f"{at}.reshuffle must be true or false")
        cards.append(ChallengeCard(card_id, icon, mods, reshuffle))
    return tuple(cards)


def load_campaign(option: str | None) -> Campaign:
    where, raw = _read(option, "campaign.toml")
    days = _int(raw, "days", where, 30, lo=1)
    weather: dict[int, str] = {}
    for i, item in enumerate(raw.get("weather", [])):
        at = f"{where}: weather[{i}]"
        first, last = _int(item, "from", at, lo=1), _int(item, "to", at, lo=1)
        card = item.get("card")
        if not isinstance(card, str) or not card:
            raise ConfigError(f"{at}.card must be a weather card name")
        for day in range(first, last + 1):
            weather[day] = card
    entries: dict[int, tuple[str, ...]] = {}
    for i, item in enumerate(raw.get("entries", [])):
        at = f"{where}: entries[{i}]"
        day = _int(item, "day", at, lo=1)
        entries[day] = (*entries.get(day, ()), str(item.get("entry", "")))
    return Campaign(days, weather, entries)


def load_path(option: str | None) -> tuple[PathCard, ...]:
    where, raw = _read(option, "path.toml")
    cards: list[PathCard] = []
    for i, item in enumerate(raw.get("cards", [])):
        at = f"{where}: cards[{i}]"
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{at}.name must be a card name")
        keywords = tuple(str(k) for k in item.get("keywords", ()))
        icons = tuple(str(k) for k in item.get("icons", ()))
        bad = [k for k in icons if k not in ICONS]
        if bad:
            raise ConfigError(f"{at}.icons: unknown icon {bad[0]!r} (sun, mountain, crest)")
        entry = item.get("entry")
        if entry is not None and (isinstance(entry, bool) or not isinstance(entry, int)):
            raise ConfigError(f"{at}.entry must be a campaign-guide entry number")
        cards.append(PathCard(
            name=name,
            progress=parse_threshold(str(item.get("progress", "-")), f"{at}.progress"),
            harm=parse_threshold(str(item.get("harm", "-")), f"{at}.harm"),
            type=_choice(item, "type", at, CARD_TYPES, "other"),
            arrow=_choice(item, "arrow", at, ("up", "down"), "up"),
            presence=_int(item, "presence", at, 1),
            keywords=keywords,
            icons=icons,
            entry=entry,
            copies=_int(item, "copies", at, 1, lo=1),
        ))
    return tuple(cards)


def load(options: Mapping[str, str]) -> GameData:
    """The game's data, from the package or from the files named by ``--option KEY=PATH``."""
    unverified: list[str] = []
    for key, name in (("challenge", "challenge.toml"), ("campaign", "campaign.toml")):
        where, raw = _read(options.get(key), name)
        if raw.get("verify") is True:  # still the placeholder the catalogue asks to check
            unverified.append(where)
    return GameData(
        rules=load_rules(options.get("rules")),
        challenge=load_challenge(options.get("challenge")),
        campaign=load_campaign(options.get("campaign")),
        path=load_path(options.get("path")),
        unverified=tuple(unverified),
    )


def to_json(data: GameData) -> dict[str, Any]:
    """The data a session keeps in its state, so replaying a log never depends on files changing."""
    rules = data.rules
    return {
        "rules": {
            "ranger_deck": rules.ranger_deck, "opening_hand": rules.opening_hand,
            "default_aspects": dict(rules.default_aspects or {}), "injury_limit": rules.injury_limit,
            "equip_limit": rules.equip_limit, "effort_floor": rules.effort_floor, "recheck": rules.recheck,
            "nested_clears": rules.nested_clears, "after_when_kept": rules.after_when_kept,
        },
        "challenge": {c.id: {"icon": c.icon, "reshuffle": c.reshuffle, **c.modifiers} for c in data.challenge},
        "weather": {str(day): card for day, card in data.campaign.weather.items()},
        "entries": {str(day): list(e) for day, e in data.campaign.entries.items()},
        "days": data.campaign.days,
        "path": {c.name: path_card_json(c) for c in data.path},
        "unverified": list(data.unverified),
    }


def path_card_json(card: PathCard) -> dict[str, Any]:
    return {
        "name": card.name, "progress": card.progress.text(), "harm": card.harm.text(), "type": card.type,
        "arrow": card.arrow, "presence": card.presence, "keywords": list(card.keywords),
        "icons": list(card.icons), "entry": card.entry, "copies": card.copies,
    }
