"""Loading the game's editable data (challenge deck, day track, path set, open rule choices).

Every number the catalogue marks "outside the seeds" or leaves open lives in ``data/*.toml`` so a
group can correct it; a bad file gives one ``ConfigError`` line naming the file and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from tablekeeper import schema
from tablekeeper.core.file_options import option_file
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
    guide: int | None = None
    rangers: bool = False
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
    challenge_file: str = "earthborne/data/challenge.toml"

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


NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Name = Annotated[str, msgspec.Meta(min_length=1)]
Word = Annotated[str, msgspec.Meta(pattern=r"^\S+$")]
Icon = Literal["sun", "mountain", "crest"]


class _File(msgspec.Struct, forbid_unknown_fields=True):
    """The keys a data file may hold; ``verify = true`` marks the shipped placeholders."""


class _AspectsRow(_File):
    awa: NonNegative = 3
    fit: NonNegative = 2
    spi: NonNegative = 2
    foc: NonNegative = 1


class _RulesFile(_File):
    ranger_deck: NonNegative = 30
    opening_hand: NonNegative = 6
    default_aspects: _AspectsRow = msgspec.field(default_factory=_AspectsRow)
    injury_limit: Positive = 3
    equip_limit: NonNegative = 5
    effort_floor: NonNegative = 0
    recheck: Literal["any", "chosen"] = "any"
    nested_clears: Literal["literal", "queue"] = "literal"
    after_when_kept: bool = True
    verify: bool = False


class _ChallengeRow(_File):
    id: Word
    icon: Icon
    awa: int
    fit: int
    spi: int
    foc: int
    reshuffle: bool = False


class _ChallengeFile(_File):
    cards: Annotated[list[_ChallengeRow], msgspec.Meta(min_length=1)]
    verify: bool = False


class _WeatherRow(_File):
    first: Positive = msgspec.field(name="from")
    to: Positive
    card: Name


class _EntryRow(_File):
    day: Positive
    entry: Name


class _CampaignFile(_File):
    days: Positive = 30
    weather: list[_WeatherRow] = msgspec.field(default_factory=list)
    entries: list[_EntryRow] = msgspec.field(default_factory=list)
    verify: bool = False


class _PathRow(_File):
    name: Name
    progress: str | int = "-"
    harm: str | int = "-"
    type: Literal["being", "feature", "other"] = "other"
    arrow: Literal["up", "down"] = "up"
    presence: NonNegative = 1
    keywords: list[str] = msgspec.field(default_factory=list)
    icons: list[Icon] = msgspec.field(default_factory=list)
    entry: int | None = None
    guide: int | None = None
    rangers: bool = False
    copies: Positive = 1


class _PathFile(_File):
    cards: list[_PathRow] = msgspec.field(default_factory=list)
    verify: bool = False


F = TypeVar("F", bound=_File)


def _read(option: str | None, default_name: str, kind: type[F]) -> tuple[str, F]:
    """A data file (the packaged one, or the user's copy named by ``--option``) decoded as ``kind``:
    bounded, a regular UTF-8 file, every key known; a problem is one line naming file and key."""
    if option:
        where, text = option_file(option)
        raw = schema.parse_toml(text, source=where)
    else:
        where = f"earthborne/data/{default_name}"
        text = resources.files("tablekeeper.games.earthborne").joinpath("data", default_name).read_text("utf-8")
        raw = schema.parse_toml(text, source=where)
    return where, schema.decode(raw, kind, source=where)


def load_rules(option: str | None) -> RulesData:
    _, raw = _read(option, "rules.toml", _RulesFile)
    return RulesData(
        ranger_deck=raw.ranger_deck, opening_hand=raw.opening_hand,
        default_aspects={a: getattr(raw.default_aspects, a) for a in ASPECTS},
        injury_limit=raw.injury_limit, equip_limit=raw.equip_limit, effort_floor=raw.effort_floor,
        recheck=raw.recheck, nested_clears=raw.nested_clears, after_when_kept=raw.after_when_kept,
    )


def load_challenge(option: str | None) -> tuple[str, bool, tuple[ChallengeCard, ...]]:
    """The challenge deck: where it came from, whether it is still the placeholder, its cards."""
    where, raw = _read(option, "challenge.toml", _ChallengeFile)
    cards: list[ChallengeCard] = []
    for i, row in enumerate(raw.cards):
        if any(c.id == row.id for c in cards):
            raise ConfigError(f"{where}: cards[{i}].id {row.id!r} appears twice")
        cards.append(ChallengeCard(row.id, row.icon, {a: getattr(row, a) for a in ASPECTS}, row.reshuffle))
    return where, raw.verify, tuple(cards)


def load_campaign(option: str | None) -> tuple[str, bool, Campaign]:
    where, raw = _read(option, "campaign.toml", _CampaignFile)
    weather: dict[int, str] = {}
    for row in raw.weather:
        for day in range(row.first, max(row.first, row.to) + 1):
            weather[day] = row.card
    entries: dict[int, tuple[str, ...]] = {}
    for entry in raw.entries:
        entries[entry.day] = (*entries.get(entry.day, ()), entry.entry)
    return where, raw.verify, Campaign(raw.days, weather, entries)


def load_path(option: str | None) -> tuple[PathCard, ...]:
    where, raw = _read(option, "path.toml", _PathFile)
    return tuple(PathCard(
        name=row.name,
        progress=parse_threshold(str(row.progress), f"{where}: cards[{i}].progress"),
        harm=parse_threshold(str(row.harm), f"{where}: cards[{i}].harm"),
        type=row.type, arrow=row.arrow, presence=row.presence, keywords=tuple(row.keywords),
        icons=tuple(row.icons), entry=row.entry, guide=row.guide, rangers=row.rangers, copies=row.copies,
    ) for i, row in enumerate(raw.cards))


def load(options: Mapping[str, str]) -> GameData:
    """The game's data, from the package or from the files named by ``--option KEY=PATH``."""
    challenge_at, challenge_verify, challenge = load_challenge(options.get("challenge"))
    campaign_at, campaign_verify, campaign = load_campaign(options.get("campaign"))
    unverified = [w for w, flag in ((challenge_at, challenge_verify), (campaign_at, campaign_verify)) if flag]
    return GameData(
        rules=load_rules(options.get("rules")),
        challenge=challenge,
        campaign=campaign,
        path=load_path(options.get("path")),
        unverified=tuple(unverified),
        challenge_file=challenge_at,
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
        "challenge_file": data.challenge_file,
    }


def path_card_json(card: PathCard) -> dict[str, Any]:
    return {
        "name": card.name, "progress": card.progress.text(), "harm": card.harm.text(), "type": card.type,
        "arrow": card.arrow, "presence": card.presence, "keywords": list(card.keywords),
        "icons": list(card.icons), "entry": card.entry, "guide": card.guide, "rtoken_clear": card.rangers,
        "copies": card.copies,
    }
