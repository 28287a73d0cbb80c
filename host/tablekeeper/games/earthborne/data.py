"""Loading the game's data: the core box's content (challenge deck, day track, Valley map, path sets)
and the numbers and open rule choices the catalogue leaves to the table.

Each kind of content is one TOML file under ``data/`` read through one typed msgspec schema; each
names its source and whether it was checked (``verified``). A group's own copy replaces a file with
``--option KEY=PATH``; the packs a session chose add path sets, cards and Valley locations, and
challenge decks and day tracks chosen by name (``challenge_deck=``, ``day_track=``). A bad file gives
one ``ConfigError`` line naming the file and the key.
"""

# Annotations stay objects here (no ``from __future__ import annotations``): msgspec reads these records'
# annotations at the first decode of every start, and compiles and evaluates each one given as a string.
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from tablekeeper import schema
from tablekeeper.core import packs as packlib
from tablekeeper.core.file_options import option_file
from tablekeeper.core.numbers import is_number
from tablekeeper.errors import ConfigError
from tablekeeper.games.earthborne.record import (
    Aspects,
    ChallengeRow,
    ContentInfo,
    GameConfig,
    LocationInfo,
    PathEdge,
    PathSpec,
    RulesConfig,
    SetInfo,
)

PACKAGE = "tablekeeper.games.earthborne"
ASPECTS = ("awa", "fit", "spi", "foc")
ICONS = ("sun", "mountain", "crest")
CARD_TYPES = ("being", "feature", "other")
TERRAINS = ("woods", "lakeshore", "mountain_pass", "old_growth", "grassland", "swamp", "ravine", "river")


class Threshold(msgspec.Struct, frozen=True):
    """A printed threshold: a number, none, or X (it varies: the table says it when it matters);
    ``per_ranger`` multiplies it by the Rangers (ER-TOKEN-3)."""

    value: int | None
    per_ranger: bool = False
    variable: bool = False

    def effective(self, rangers: int) -> int | None:
        if self.value is None:
            return None
        return self.value * rangers if self.per_ranger else self.value

    def text(self) -> str:
        if self.variable:
            return "X"
        if self.value is None:
            return "-"
        return f"{self.value}r" if self.per_ranger else str(self.value)


def parse_threshold(text: str, where: str) -> Threshold:
    """``"3"`` -> 3, ``"2r"`` -> 2 per Ranger, ``"-"``/``"none"`` -> no threshold, ``"X"`` -> varies
    (never reached until the table gives a number) (ER-TOKEN-2)."""
    raw = str(text).strip().lower()
    if raw in ("-", "none", ""):
        return Threshold(None)
    if raw == "x":
        return Threshold(None, variable=True)
    per_ranger = raw.endswith("r")
    digits = raw[:-1] if per_ranger else raw
    if not is_number(digits, signed=False) or int(digits) < 1:
        raise ConfigError(f"{where}: threshold must be a positive number, Nr (per Ranger), X or '-', not {text!r}")
    return Threshold(int(digits), per_ranger)


class ChallengeCard(msgspec.Struct, frozen=True):
    id: str
    icon: str
    modifiers: Mapping[str, int]
    reshuffle: bool


class PathCard(msgspec.Struct, frozen=True):
    name: str
    progress: Threshold
    harm: Threshold
    type: str = "other"
    arrow: str = "up"
    presence: int | None = 1  # None: X, the card says how it varies
    keywords: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()
    entry: int | None = None
    guide: int | None = None
    rangers: bool = False
    copies: int = 1
    set: str = ""
    number: str = ""
    verified: bool = True
    source: str = ""


class PathSet(msgspec.Struct, frozen=True):
    id: str
    name: str
    kind: str  # terrain, location, valley, general
    verified: bool
    source: str
    pack: str = "core"  # the box, or the file a group's own set came from


class Location(msgspec.Struct, frozen=True):
    id: str
    name: str
    number: int
    pivotal: bool
    progress: Threshold
    presence: int
    rangers: bool = False
    icons: tuple[str, ...] = ()
    guide: int | None = None
    valley_cards: int | None = None
    include: tuple[str, ...] = ()
    own_set: bool = True
    terrain: str | None = None
    verified: bool = True
    source: str = ""
    pack: str = packlib.BUILTIN


class Valley(msgspec.Struct, frozen=True):
    locations: tuple[Location, ...] = ()
    paths: tuple[PathEdge, ...] = ()


class Campaign(msgspec.Struct, frozen=True):
    days: int
    weather: Mapping[int, str]
    entries: Mapping[int, tuple[str, ...]]
    start: str | None = None


class GameData(msgspec.Struct, frozen=True):
    rules: RulesConfig
    challenge: tuple[ChallengeCard, ...]
    campaign: Campaign
    path: tuple[PathCard, ...]
    challenge_deck: ContentInfo = ContentInfo("challenge deck", "earthborne/data/challenge.toml", False, "",
                                              packlib.BUILTIN)
    day_track: ContentInfo = ContentInfo("day track", "earthborne/data/campaign.toml", False, "", packlib.BUILTIN)
    sets: tuple[PathSet, ...] = ()
    valley: Valley = Valley()
    deck_file: tuple[PathCard, ...] = ()
    challenge_decks: tuple[ContentInfo, ...] = ()  # every deck the packs offer (``challenge_deck`` is the one in play)
    day_tracks: tuple[ContentInfo, ...] = ()

    @property
    def unverified(self) -> tuple[str, ...]:
        """The data files not checked against the printed game, by file name."""
        return tuple(c.file for c in (self.challenge_deck, self.day_track) if not c.verified)

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
Id = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9_]+$")]
Icon = Literal["sun", "mountain", "crest"]
Terrain = Literal["woods", "lakeshore", "mountain_pass", "old_growth", "grassland", "swamp", "ravine", "river"]


class _File(msgspec.Struct, forbid_unknown_fields=True):
    """The keys a data file may hold."""


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


class _Described(_File):
    """A content file's own description. A group's edited copy is unverified until it says
    ``verified = true``; ``verify = true`` (older copies) also marks it unchecked."""

    name: str = ""
    verified: bool = False
    verify: bool | None = None
    source: str = ""

    def checked(self) -> bool:
        return self.verified and not self.verify


class _ChallengeRow(_File):
    id: Word
    icon: Icon
    awa: int
    fit: int
    spi: int
    foc: int
    reshuffle: bool = False


class _ChallengeFile(_Described):
    cards: Annotated[list[_ChallengeRow], msgspec.Meta(min_length=1)] = msgspec.field(default_factory=list)


class _WeatherRow(_File):
    first: Positive = msgspec.field(name="from")
    to: Positive
    card: Name


class _EntryRow(_File):
    day: Positive
    entry: Name


class _CampaignFile(_Described):
    days: Positive = 30
    start: str | None = None
    weather: list[_WeatherRow] = msgspec.field(default_factory=list)
    entries: list[_EntryRow] = msgspec.field(default_factory=list)


class _PathRow(_File):
    name: Name
    progress: str | int = "-"
    harm: str | int = "-"
    type: Literal["being", "feature", "other"] = "other"
    arrow: Literal["up", "down"] = "up"
    presence: NonNegative | Literal["X"] = 1
    keywords: list[Literal["obstacle", "persistent"]] = msgspec.field(default_factory=list)
    icons: list[Icon] = msgspec.field(default_factory=list)
    entry: int | None = None
    guide: int | None = None
    rangers: bool = False
    copies: Positive = 1
    set: str = ""
    number: str = ""
    verified: bool | None = None
    source: str = ""


class _PathFile(_File):
    cards: list[_PathRow] = msgspec.field(default_factory=list)
    verify: bool = False


class _SetRow(_File):
    id: Id
    name: Name
    kind: Literal["terrain", "location", "valley", "general"]
    verified: bool = False
    source: str = ""


class _PathSetsFile(_File):
    sets: list[_SetRow] = msgspec.field(default_factory=list)
    cards: list[_PathRow] = msgspec.field(default_factory=list)


class _LocationRow(_File):
    id: Id
    name: Name
    number: NonNegative = 0
    pivotal: bool = False
    progress: str = "-"
    rangers: bool = False
    presence: NonNegative = 1
    icons: list[Icon] = msgspec.field(default_factory=list)
    guide: int | None = None
    valley_cards: NonNegative | None = None
    include: list[Name] = msgspec.field(default_factory=list)
    own_set: bool = True
    terrain: Terrain | None = None
    verified: bool = False
    source: str = ""


class _PathEdgeRow(_File):
    a: Id = msgspec.field(name="from")
    b: Id = msgspec.field(name="to")
    terrain: Terrain
    verified: bool = True
    note: str = ""


class _ValleyFile(_File):
    locations: list[_LocationRow] = msgspec.field(default_factory=list)
    paths: list[_PathEdgeRow] = msgspec.field(default_factory=list)


F = TypeVar("F", bound=_File)
T = TypeVar("T")


def _read(option: str | None, default_name: str, kind: type[F]) -> tuple[str, F]:
    """A data file (the packaged one, or the user's copy named by ``--option``) decoded as ``kind``:
    bounded, a regular UTF-8 file, every key known; a problem is one line naming file and key."""
    if option:
        where, text = option_file(option)
        raw = schema.parse_toml(text, source=where)
    else:
        where = f"earthborne/data/{default_name}"
        text = resources.files(PACKAGE).joinpath("data", default_name).read_text("utf-8")
        raw = schema.parse_toml(text, source=where)
    return where, schema.decode(raw, kind, source=where)


def _added(packs: Sequence[packlib.Pack], name: str, kind: type[F]) -> list[tuple[str, str, F]]:
    """(pack, file, decoded) of each chosen pack's copy of ``name`` (the built-in pack's is read by ``_read``)."""
    return [(layer.pack, layer.label, schema.decode(layer.doc, kind, source=layer.label))
            for layer in packlib.layers([p for p in packs if p.where != packlib.BUILTIN_WHERE], name)]


def _chosen(offered: Sequence[tuple[ContentInfo, T]], option: str | None, what: str) -> tuple[ContentInfo, T]:
    """The one ``--option KEY=NAME`` names (by its name or its pack's), else the first (the box's)."""
    if not option:
        return offered[0]
    for content, value in offered:
        if option.lower() in (content.name.lower(), content.pack.lower()):
            return content, value
    known = "; ".join(f"{c.name} ({c.pack})" for c, _ in offered)
    raise ConfigError(f"--option {what}={option}: no such {what.replace('_', ' ')} (known: {known})")


def load_rules(option: str | None) -> RulesConfig:
    _, raw = _read(option, "rules.toml", _RulesFile)
    aspects = raw.default_aspects
    return RulesConfig(
        ranger_deck=raw.ranger_deck, opening_hand=raw.opening_hand,
        default_aspects=Aspects(aspects.awa, aspects.fit, aspects.spi, aspects.foc),
        injury_limit=raw.injury_limit, equip_limit=raw.equip_limit, effort_floor=raw.effort_floor,
        recheck=raw.recheck, nested_clears=raw.nested_clears, after_when_kept=raw.after_when_kept,
    )


def load_challenge(option: str | None) -> tuple[ContentInfo, tuple[ChallengeCard, ...]]:
    """The challenge deck: what it is (name, file, checked or not, source) and its cards."""
    where, raw = _read(option, "challenge.toml", _ChallengeFile)
    return _challenge(where, raw, where if option else packlib.BUILTIN)


def _challenge(where: str, raw: _ChallengeFile, pack: str) -> tuple[ContentInfo, tuple[ChallengeCard, ...]]:
    if not raw.cards:
        raise ConfigError(f"{where}: cards: the challenge deck needs at least one card")
    cards: list[ChallengeCard] = []
    for i, row in enumerate(raw.cards):
        if any(c.id == row.id for c in cards):
            raise ConfigError(f"{where}: cards[{i}].id {row.id!r} appears twice", file=where, key=f"cards[{i}].id")
        cards.append(ChallengeCard(row.id, row.icon, {a: getattr(row, a) for a in ASPECTS}, row.reshuffle))
    return ContentInfo(raw.name or "challenge deck", where, raw.checked(), raw.source, pack), tuple(cards)


def load_campaign(option: str | None) -> tuple[ContentInfo, Campaign]:
    where, raw = _read(option, "campaign.toml", _CampaignFile)
    return _campaign(where, raw, where if option else packlib.BUILTIN)


def _campaign(where: str, raw: _CampaignFile, pack: str) -> tuple[ContentInfo, Campaign]:
    weather: dict[int, str] = {}
    for row in raw.weather:
        for day in range(row.first, max(row.first, row.to) + 1):
            weather[day] = row.card
    entries: dict[int, tuple[str, ...]] = {}
    for entry in raw.entries:
        entries[entry.day] = (*entries.get(entry.day, ()), entry.entry)
    content = ContentInfo(raw.name or "day track", where, raw.checked(), raw.source, pack)
    return content, Campaign(raw.days, weather, entries, raw.start)


def _path_card(row: _PathRow, where: str, i: int, sets: Mapping[str, PathSet]) -> PathCard:
    owner = sets.get(row.set)
    if row.set and sets and owner is None:
        raise ConfigError(f"{where}: cards[{i}].set {row.set!r} is not one of the sets ({', '.join(sets)})",
                          file=where, key=f"cards[{i}].set")
    verified = row.verified if row.verified is not None else (owner.verified if owner else False)
    return PathCard(
        name=row.name,
        progress=parse_threshold(str(row.progress), f"{where}: cards[{i}].progress"),
        harm=parse_threshold(str(row.harm), f"{where}: cards[{i}].harm"),
        type=row.type, arrow=row.arrow, presence=None if row.presence == "X" else row.presence,
        keywords=tuple(row.keywords), icons=tuple(row.icons), entry=row.entry, guide=row.guide,
        rangers=row.rangers, copies=row.copies, set=row.set, number=row.number, verified=verified,
        source=row.source or (owner.source if owner else ""),
    )


def load_path(option: str | None) -> tuple[PathCard, ...]:
    """A path deck file (``--option path=PATH``): each card and its copies; the file is the deck."""
    if not option:
        return ()
    where, raw = _read(option, "", _PathFile)
    return tuple(_path_card(row, where, i, {}) for i, row in enumerate(raw.cards))


def load_cards(option: str | None) -> tuple[str, tuple[PathCard, ...]]:
    """More path cards the device should know (``--option cards=PATH``: an expansion's or a group's
    own), in the path deck file's shape, and the file's name; the path deck is still built from sets."""
    if not option:
        return "", ()
    where, raw = _read(option, "", _PathFile)
    return where, tuple(_path_card(row, where, i, {}) for i, row in enumerate(raw.cards))


def load_path_sets(packs: Sequence[packlib.Pack] = ()) -> tuple[tuple[PathSet, ...], tuple[PathCard, ...]]:
    """The core box's path sets and their cards (``data/path_sets.toml``), then each pack's."""
    where, raw = _read(None, "path_sets.toml", _PathSetsFile)
    files = [(packlib.BUILTIN, where, raw), *_added(packs, "path_sets.toml", _PathSetsFile)]
    sets: dict[str, PathSet] = {}
    for pack, label, part in files:
        for i, s in enumerate(part.sets):
            if s.id in sets:
                raise schema.fail(label, f"sets[{i}].id", f"{s.id!r} is already a set of pack {sets[s.id].pack!r}")
            sets[s.id] = PathSet(s.id, s.name, s.kind, s.verified, s.source, pack)
    cards: list[PathCard] = []
    owner: dict[str, str] = {}  # card name -> the pack that has it
    for pack, label, part in files:
        for i, row in enumerate(part.cards):
            if owner.get(row.name.lower(), pack) != pack:
                raise schema.fail(label, f"cards[{i}].name",
                                  f"{row.name!r} is already a path card of pack {owner[row.name.lower()]!r}")
            owner[row.name.lower()] = pack
            cards.append(_path_card(row, label, i, sets))
    return tuple(sets.values()), tuple(cards)


def load_valley(packs: Sequence[packlib.Pack] = ()) -> Valley:
    """The core box's Valley: its locations and the paths between them (``data/valley.toml``), and the
    locations and paths the packs add."""
    where, raw = _read(None, "valley.toml", _ValleyFile)
    files = [(packlib.BUILTIN, where, raw), *_added(packs, "valley.toml", _ValleyFile)]
    locations: dict[str, Location] = {}
    for pack, label, part in files:
        for i, row in enumerate(part.locations):
            if row.id in locations:
                raise schema.fail(label, f"locations[{i}].id",
                                  f"{row.id!r} is already a location of pack {locations[row.id].pack!r}")
            locations[row.id] = Location(
                id=row.id, name=row.name, number=row.number, pivotal=row.pivotal,
                progress=parse_threshold(row.progress, f"{label}: locations[{i}].progress"), presence=row.presence,
                rangers=row.rangers, icons=tuple(row.icons), guide=row.guide, valley_cards=row.valley_cards,
                include=tuple(row.include), own_set=row.own_set, terrain=row.terrain, verified=row.verified,
                source=row.source, pack=pack)
    paths = []
    for _, label, part in files:
        for i, edge in enumerate(part.paths):
            for end in (edge.a, edge.b):
                if end not in locations:
                    raise ConfigError(f"{label}: paths[{i}]: no location {end!r}", file=label, key=f"paths[{i}]")
            paths.append(PathEdge(edge.a, edge.b, edge.terrain, edge.verified))
    return Valley(tuple(locations.values()), tuple(paths))


def load(options: Mapping[str, str], packs: Sequence[packlib.Pack] = ()) -> GameData:
    """The game's data, from the package or from the files named by ``--option KEY=PATH``, with what
    the session's packs add; ``challenge_deck=NAME`` and ``day_track=NAME`` choose a pack's deck or track."""
    decks = [load_challenge(options.get("challenge")),
             *(_challenge(label, raw, pack) for pack, label, raw in _added(packs, "challenge.toml", _ChallengeFile))]
    tracks = [load_campaign(options.get("campaign")),
              *(_campaign(label, raw, pack) for pack, label, raw in _added(packs, "campaign.toml", _CampaignFile))]
    challenge_deck, challenge = _chosen(decks, options.get("challenge_deck"), "challenge_deck")
    day_track, campaign = _chosen(tracks, options.get("day_track"), "day_track")
    sets, box_cards = load_path_sets(packs)
    deck_file = load_path(options.get("path"))
    cards_file, extra = load_cards(options.get("cards"))
    # a card the group describes (its own file, a deck file) replaces the box's card of that name
    known: dict[str, PathCard] = {c.name.lower(): c for c in box_cards}
    for card in (*extra, *deck_file):
        known[card.name.lower()] = card
    # a group's own set (its cards' ``set``) can be shuffled in by name like the box's
    own_sets = {c.set for c in extra if c.set and c.set not in {s.id for s in sets}}
    sets = (*sets, *(PathSet(set_id, set_id.replace("_", " ").title(), "general",
                             all(c.verified for c in extra if c.set == set_id), "", cards_file)
                     for set_id in sorted(own_sets)))
    return GameData(
        rules=load_rules(options.get("rules")),
        challenge=challenge,
        campaign=campaign,
        path=tuple(known.values()),
        challenge_deck=challenge_deck,
        day_track=day_track,
        sets=sets,
        valley=load_valley(packs),
        deck_file=deck_file,
        challenge_decks=tuple(c for c, _ in decks),
        day_tracks=tuple(c for c, _ in tracks),
    )


def config(data: GameData) -> GameConfig:
    """The data a session keeps in its state, so replaying a log never depends on files changing."""
    return GameConfig(
        rules=data.rules,
        challenge={c.id: ChallengeRow(c.icon, c.reshuffle, dict(c.modifiers)) for c in data.challenge},
        challenge_deck=data.challenge_deck,
        day_track=data.day_track,
        challenge_decks=data.challenge_decks,
        day_tracks=data.day_tracks,
        weather={str(day): card for day, card in data.campaign.weather.items()},
        entries={str(day): tuple(e) for day, e in data.campaign.entries.items()},
        days=data.campaign.days,
        start=data.campaign.start,
        path={c.name: path_spec(c) for c in data.path},
        deck_file={c.name: c.copies for c in data.deck_file},
        sets={s.id: SetInfo(s.name, s.kind, s.verified, s.pack, {c.name: c.copies for c in data.path if c.set == s.id})
              for s in data.sets},
        locations={loc.id: location_info(loc) for loc in data.valley.locations},
        paths=data.valley.paths,
        unverified=data.unverified,
        challenge_file=data.challenge_deck.file,
    )


def listed(cfg: GameConfig) -> dict[str, list[packlib.Listed]]:
    """What of the game this session knows, by kind, each entry named with its pack and whether it was
    checked against the printed game: what ``packs list`` shows, and the view's ``content``."""
    def pack_of(info: ContentInfo) -> str:
        return info.pack or _file_pack(info.file)

    decks = cfg.challenge_decks or (cfg.challenge_deck,)
    tracks = cfg.day_tracks or (cfg.day_track,)
    return {
        "challenge_decks": [packlib.Listed(d.name, pack_of(d), d.verified) for d in decks],
        "day_tracks": [packlib.Listed(t.name, pack_of(t), t.verified) for t in tracks],
        "valley_maps": [packlib.Listed(f"The Valley ({len(cfg.locations)} locations, {len(cfg.paths)} paths)",
                                       packlib.BUILTIN, all(p.verified for p in cfg.paths))],
        "locations": [packlib.Listed(loc.name, loc.pack, loc.verified, key) for key, loc in cfg.locations.items()],
        "path_sets": [packlib.Listed(info.name, info.pack, info.verified
                                     and all(card.verified for name in info.cards
                                             if (card := cfg.path.get(name)) is not None), key)
                      for key, info in cfg.sets.items()],
    }


def content(cfg: GameConfig) -> dict[str, list[dict[str, Any]]]:
    """``listed`` as the JSON view shows it."""
    return {kind: [e.to_json() for e in entries] for kind, entries in listed(cfg).items()}


def _file_pack(file: str) -> str:
    return packlib.BUILTIN if not file or file.startswith("earthborne/") else file


def path_spec(card: PathCard) -> PathSpec:
    """A path card as the session keeps it: its thresholds as printed."""
    return PathSpec(
        name=card.name, progress=card.progress.text(), harm=card.harm.text(), type=card.type, arrow=card.arrow,
        presence="X" if card.presence is None else card.presence, keywords=card.keywords, icons=card.icons,
        entry=card.entry, guide=card.guide, rtoken_clear=card.rangers, copies=card.copies, set=card.set,
        verified=card.verified,
    )


def location_info(loc: Location) -> LocationInfo:
    """A Valley location as the session keeps it: its threshold as printed."""
    return LocationInfo(
        name=loc.name, pivotal=loc.pivotal, progress=loc.progress.text(), rangers=loc.rangers,
        presence=loc.presence, icons=loc.icons, guide=loc.guide, valley_cards=loc.valley_cards,
        include=loc.include, own_set=loc.own_set, terrain=loc.terrain, verified=loc.verified, pack=loc.pack,
    )
