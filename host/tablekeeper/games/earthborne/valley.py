"""The Valley map and the path deck built from its sets (ER-TRAVEL-2, ER-SETUP-1), as pure functions of
the game's data kept in the state (``record.GameConfig``): locations by name, the paths between them, and which
sets (and how many unseen Valley cards) a new path deck holds."""

from __future__ import annotations

from dataclasses import dataclass

from tablekeeper.games.earthborne.record import GameConfig, LocationInfo

Cfg = GameConfig


@dataclass(frozen=True)
class Build:
    """A path deck to build: the known cards and their copies, unseen random Valley cards, in words
    (``text`` in full, ``short`` for a prompt's option)."""

    cards: dict[str, int]
    unseen: int
    text: str
    short: str = ""
    terrain: str | None = None  # the terrain set in it (ER-DAY-1: recorded for the next day's deck)

    @property
    def size(self) -> int:
        return sum(self.cards.values()) + self.unseen


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def find_location(cfg: Cfg, text: str) -> tuple[str, LocationInfo] | None:
    """A Valley location by its id or its name (case, spaces and apostrophes do not matter)."""
    want = _key(text)
    for loc_id, loc in cfg.locations.items():
        if want in (_key(loc_id), _key(loc.name)) or _key("the" + want) == _key(loc.name):
            return loc_id, loc
    return None


def neighbours(cfg: Cfg, loc_id: str) -> list[tuple[str, str]]:
    """The locations one path away, with each path's terrain, in the map's order."""
    out: list[tuple[str, str]] = []
    for path in cfg.paths:
        if path.a == loc_id:
            out.append((path.b, path.terrain))
        elif path.b == loc_id:
            out.append((path.a, path.terrain))
    return out


def reachable(cfg: Cfg, loc_id: str) -> list[tuple[str, str]]:
    """Where the group may travel from ``loc_id``: its paths; a location with no path of its own
    (Marsh of Rebirth) reaches every location on a path of its terrain, by that terrain."""
    own = neighbours(cfg, loc_id)
    if own:
        return own
    here = cfg.locations.get(loc_id)
    terrain = None if here is None else here.terrain
    if not terrain:
        return []
    ends = {end for path in cfg.paths if path.terrain == terrain for end in (path.a, path.b)}
    return [(end, terrain) for end in cfg.locations if end in ends and end != loc_id]


def terrain_name(terrain: str) -> str:
    return terrain.replace("_", " ").title().replace("Old Growth", "Old-Growth")


def set_cards(cfg: Cfg, set_id: str) -> dict[str, int]:
    found = cfg.sets.get(set_id)
    return {} if found is None else dict(found.cards)


def set_name(cfg: Cfg, set_id: str) -> str:
    found = cfg.sets.get(set_id)
    return found.name if found is not None and found.name else set_id


def find_set(cfg: Cfg, text: str) -> str | None:
    """A path set by id or name ("woods", "Mountain Pass", "lone_tree_station")."""
    want = _key(text)
    for set_id, info in cfg.sets.items():
        if want in (_key(set_id), _key(info.name)):
            return set_id
    return None


def build_for(cfg: Cfg, terrain: str | None, loc_id: str | None) -> Build | None:
    """ER-TRAVEL-2: the terrain set of the path taken, plus the pivotal location's own set or random
    Valley cards (as the location card says), or None when the terrain or location is not known."""
    loc = cfg.locations.get(loc_id) if loc_id else None
    if loc is None:
        return None
    terrain = loc.terrain or terrain
    if not terrain:
        return None
    cards = set_cards(cfg, terrain)
    parts = [f"the {set_name(cfg, terrain)} set ({sum(cards.values())})"]
    short = [set_name(cfg, terrain)]
    unseen = 0
    if loc.pivotal:
        if loc.own_set:
            own = set_cards(cfg, str(loc_id))
            cards.update(own)
            parts.append(f"the {loc.name} set ({sum(own.values())})")
            short.append(loc.name)
        else:
            parts.append(f"(the {loc.name} set is kept apart)")
    else:
        count = 3 if loc.valley_cards is None else loc.valley_cards
        must = [name for name in loc.include if name in set_cards(cfg, "the_valley")]
        for name in must:
            cards[name] = cards.get(name, 0) + 1
        unseen = max(0, count - len(must))
        if count:
            named = f" ({', '.join(must)} among them)" if must else ""
            parts.append(f"{count} random Valley card{'s' if count != 1 else ''}{named}")
            short.append(f"{count} Valley")
        else:
            parts.append("no Valley cards")
    build = Build(cards, unseen, " + ".join(parts))
    return Build(cards, unseen, build.text, f"{' + '.join(short)} ({build.size})", terrain)


def build_from_sets(cfg: Cfg, set_ids: list[str], valley: int) -> Build:
    """A path deck the group names set by set (``pathdeck woods lone_tree_station``), plus ``valley``
    random Valley cards."""
    cards: dict[str, int] = {}
    parts = []
    for set_id in set_ids:
        these = set_cards(cfg, set_id)
        for name, copies in these.items():
            cards[name] = cards.get(name, 0) + copies
        parts.append(f"the {set_name(cfg, set_id)} set ({sum(these.values())})")
    if valley:
        parts.append(f"{valley} random Valley card{'s' if valley != 1 else ''}")
    terrains = [set_id for set_id in set_ids if cfg.sets[set_id].kind == "terrain"]
    terrain = terrains[0] if len(set(terrains)) == 1 else None
    return Build(cards, valley, " + ".join(parts), " + ".join(parts), terrain)


def builds_here(cfg: Cfg, loc_id: str | None) -> list[Build]:
    """The path decks a group may have built at ``loc_id`` when the terrain it came by is not known:
    one for each terrain of the paths that reach it (ER-SETUP-1, ER-TRAVEL-2)."""
    if not loc_id:
        return []
    terrains: list[str] = []
    for _, terrain in reachable(cfg, loc_id):
        if terrain not in terrains:
            terrains.append(terrain)
    return [b for t in terrains if (b := build_for(cfg, t, loc_id)) is not None]
