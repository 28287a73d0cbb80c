"""What the adversary level in play (and a Spirit's special rule) changes in the rules' answers:
piece Damage and Health, Defend at Sacred Sites, England's Builds in empty lands, Sweden's Heavy
Mining, the escalations the station places, the reactions after an Explore card, and the loss
conditions it can check on the lands."""

from __future__ import annotations

from collections.abc import Callable

from tablekeeper.core import timing
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island import blight_track, invader_rules, lands, spirits, table_actions
from tablekeeper.games.spirit_island.common import adversary, table
from tablekeeper.games.spirit_island.data import AdversaryAt
from tablekeeper.games.spirit_island.record import shared

PIECE_WORD = {"town_where_none": "Town", "build_where_most": "Build", "cash_crops": "Town or Blight"}


def current(state: GameState) -> AdversaryAt | None:
    key, level = adversary(state)
    return table(state).adversary_at(key, level) if key else None


def applies(state: GameState, rule: str) -> tuple[int, ...] | None:
    """The printed numbers of a level rule the station applies by name (None: not in play)."""
    at = current(state)
    return None if at is None else at.applies.get(rule)


def high_immigration(state: GameState) -> str:
    """England 3/4: "stage_two" (the tile leaves with the first Stage II card), "all_game", or ""."""
    at = current(state)
    return at.high_immigration if at is not None else ""


def doubles_immigration(state: GameState) -> bool:
    """England 6: the High Immigration Build happens twice in an Invader Phase with no Fear card."""
    at = current(state)
    return at is not None and at.double_build_without_fear


DISASTER = table_actions.PUSHED  # Russia 2: the open actions (by depth) that have pushed their Explorer


def impending_disaster(txn: Txn) -> bool:
    """Russia 2: is this the first time the current action destroys Explorers? (Marks it used;
    a command outside any action is an action of its own.)"""
    if applies(txn.state, "impending_disaster") is None:
        return False
    depth = timing.depth(txn.state)
    used = shared(txn.state).pushed
    if depth in used:
        return False
    if depth:
        txn.put(DISASTER, [*used, depth])
    return True


def piece_damage(state: GameState) -> dict[str, int]:
    """SI-INV-2: what each piece deals in a Ravage (Sweden 3: Towns 3, Cities 5)."""
    out = dict(table(state).piece_damage)
    at = current(state)
    if at is not None:
        out.update(at.piece_damage)
    return out


def piece_health(state: GameState) -> dict[str, int]:
    """Each piece's Health (England 5: Towns and Cities +1)."""
    out = dict(table(state).piece_health)
    at = current(state)
    if at is not None:
        for kind, bonus in at.health_bonus.items():
            out[kind] += bonus
    return out


def sacred_site_defend(state: GameState, seat: int) -> int:
    """A Spirit's Defend in each land where it has a Sacred Site (Earth's Vitality)."""
    spirit = spirits.spirit_of(state, seat)
    return spirit.defend_at_sacred_sites if spirit is not None else 0


def heavy_mining(state: GameState, dealt: int) -> int:
    """Sweden 1: a Ravage doing this much Damage to the land adds a second Blight."""
    at = current(state)
    return int(at is not None and at.ravage_extra_blight_at > 0 and dealt >= at.ravage_extra_blight_at)


def builds_empty(state: GameState, name: str) -> bool:
    """England 1: a Build Card also builds in a matching land without Invaders next to at least
    that many Towns and Cities; Scotland 3: in a Coastal one next to a City."""
    at = current(state)
    if at is None or lands.land(state, name).invaders:
        return False
    where = lands.place(state, name)
    near = [lands.land(state, other) for other in where.adjacent]
    if at.build_adjacent_buildings and sum(r.buildings for r in near) >= at.build_adjacent_buildings:
        return True
    return "chart_coastline" in at.applies and where.coastal and any(r.cities for r in near)


def ravages_too(state: GameState, name: str) -> bool:
    """Russia 3: a Ravage card also matches a land with that many Explorers (it Ravages once)."""
    found = applies(state, "hunters_compete")
    return found is not None and lands.land(state, name).explorers >= found[0]


def after_explore_card(txn: Txn, card: str) -> None:
    """SI-ERRATA-2: reactions "after an Explore card" (France 6) fire once for each card resolved."""
    key, level = adversary(txn.state)
    txn.put("invader.explore_cards", shared(txn.state).explore_cards + 1)
    for rule in table(txn.state).adversary(key, level, "after_explore_card"):
        txn.notice(f"After the {card} Explore card: {rule.text}")


def _board(state: GameState, board: str) -> list[str]:
    return [name for name, where in lands.places(state).items() if where.board == board]


def escalation_lands(state: GameState, rule: str, board: str, where: str) -> list[str]:
    """The lands a placing rule may use (none: nothing happens). ``where`` is the terrains an
    escalation or Royal Backing card shows, or the land a rule starts from (Triangle Trade)."""
    if rule == "triangle_trade":  # France 4: the adjacent land with the fewest Towns
        near = list(lands.place(state, where).adjacent)
        return _fewest(near, lambda n: lands.land(state, n).towns)
    if rule == "ports_sprawl":  # Scotland's escalation: the lands with the fewest Towns, one each
        chosen = shared(state).ports
        boards = [lands.board_of(chosen[0])] if chosen else _most_coastal_buildings(state)
        free = [n for b in boards for n in _board(state, b) if n not in chosen]
        return _fewest(free, lambda n: lands.land(state, n).towns)
    names = _board(state, board)
    records = {n: lands.land(state, n) for n in names}
    if rule in ("town_where_none", "build_where_most") and not any(r.buildings for r in records.values()):
        return []
    if rule == "town_where_none":
        return [n for n in names if not records[n].towns]
    if rule == "build_where_most":
        most = max(r.buildings for r in records.values())
        return [n for n in names if records[n].buildings == most]
    if rule == "cash_crops":
        shown = where.split(" and ")
        return [n for n in names if any(lands.place(state, n).matches(t) for t in shown)]
    if rule == "royal_backing":  # Sweden 4: the land of the card's terrain with the fewest Invaders
        shown = where.split(" and ")
        return _fewest([n for n in names if any(lands.place(state, n).matches(t) for t in shown)],
                       lambda n: records[n].invaders)
    if rule == "fast_profit":  # Russia 6: the land with the most Explorers (at least 1)
        most = max(r.explorers for r in records.values())
        return [n for n in names if records[n].explorers == most] if most else []
    if rule == "stalk_predators":  # Russia's escalation: among lands with Beasts, else another board's
        with_beasts = [n for n in names if records[n].beasts]
        return with_beasts or [n for n, r in lands.all_lands(state).items() if r.beasts] or names
    return []


PORTS = "escalation.ports"  # Scotland's escalation: the lands given a Town so far


def _fewest(names: list[str], key: Callable[[str], int]) -> list[str]:
    if not names:
        return []
    low = min(key(n) for n in names)
    return [n for n in names if key(n) == low]


def _most_coastal_buildings(state: GameState) -> list[str]:
    """Scotland's escalation: the board (or boards, tied) with the most Towns and Cities in Coastal lands."""
    per = {b: sum(lands.land(state, n).buildings for n in _board(state, b) if lands.place(state, n).coastal)
           for b in lands.board_letters(state)}
    most = max(per.values(), default=0)
    return [b for b, n in per.items() if n == most]


def automatic_lands(state: GameState, rule: str, board: str, where: str) -> list[str] | None:
    """The land the rule uses when the rules leave no choice (None: the players choose)."""
    candidates = escalation_lands(state, rule, board, where)
    if len(candidates) <= 1:
        return candidates
    return None


PLACE_TEXT = {
    "build_where_most": "which land with the most Towns and Cities Builds?",
    "cash_crops": "which land (a Town or City there: Blight, else a Town)?",
    "triangle_trade": "a Coastal City was built: which adjacent land with the fewest Towns gets a Town?",
    "royal_backing": "which land of the discarded card's terrain with the fewest Invaders gets a Town?",
    "fast_profit": "no Blight from this Ravage: which land with the most Explorers gets an Explorer and a Town?",
    "stalk_predators": "which land with Beasts gets an Explorer?",
    "ports_sprawl": "which land with the fewest Towns gets a Town?",
}
RULE_NAME = {"triangle_trade": "Triangle Trade", "royal_backing": "Royal Backing",
             "fast_profit": "Pressure for Fast Profit"}


def place_question(state: GameState, rule: str, board: str, where: str = "") -> str:
    at = current(state)
    name = RULE_NAME.get(rule) or (at.escalation.name if at is not None and at.escalation is not None else "Escalation")
    text = PLACE_TEXT.get(rule, "which land gets the Town?")
    if rule == "stalk_predators" and not any(r.beasts for r in lands.all_lands(state).values()):
        text += " (no Beasts recorded: the station offers every land)"
    if rule == "triangle_trade":
        return f"{name} from {where}: {text}"
    if rule == "ports_sprawl":
        return f"{name}: {text}"
    return f"{name} on board {board}: {text}"


def escalate(txn: Txn, rule: str, name: str) -> None:
    """Carry out a placing rule in the land the rules or the players chose."""
    rec = lands.land(txn.state, name)
    if rule == "town_replaces_dahan":
        lands.put(txn, name, rec.add("dahan", -1).add("towns", 1))
        txn.notice(f"Swayed by the Invaders: a Town replaces a Dahan in {name}")
    elif rule == "build_where_most":
        piece = invader_rules.build(rec.explorers, rec.towns, rec.cities) or "town"
        kind = "cities" if piece == "city" else "towns"
        lands.put(txn, name, rec.add(kind, 1))
        txn.notice(f"Escalation: Build in {name}: 1 {piece.title()} added")
    elif rule == "cash_crops" and rec.buildings:
        txn.notice(f"Escalation: Blight in {name}")
        blight_track.add(txn, name, 1)
    elif rule == "fast_profit":
        lands.put(txn, name, rec.add("explorers", 1).add("towns", 1))
        txn.notice(f"Pressure for Fast Profit: 1 Explorer and 1 Town added in {name}")
    elif rule == "stalk_predators":
        lands.put(txn, name, rec.add("explorers", 1))
        txn.notice(f"Escalation: 1 Explorer added in {name}")
    else:
        lands.put(txn, name, rec.add("towns", 1))
        label = RULE_NAME.get(rule, "Escalation")
        txn.notice(f"{label}: 1 Town added in {name}")
        if rule == "ports_sprawl":
            txn.put(PORTS, [*shared(txn.state).ports, name])


def loss_met(state: GameState) -> str | None:
    """An adversary's extra loss condition the station checks on the lands itself."""
    at = current(state)
    if at is None or at.loss is None or not at.loss.rule:
        return None
    loss = at.loss
    records = lands.all_lands(state)
    if loss.rule == "buildings_in_one_land":
        full = [n for n, r in records.items() if r.buildings >= loss.limit]
        met = bool(full)
        where = f" ({full[0]})" if full else ""
    elif loss.rule == "coastal_city_lands_per_board":
        coastal = [n for n, r in records.items() if r.cities and lands.place(state, n).coastal]
        met = len(coastal) > loss.limit * len(lands.board_letters(state))
        where = f" ({', '.join(coastal)})"
    else:  # towns_per_player
        met = state.value("island.towns") > loss.limit * state.seats
        where = ""
    return f"{at.name}: {loss.name}: {loss.effect}{where}" if met else None
