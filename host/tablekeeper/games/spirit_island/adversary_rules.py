"""What the adversary level in play (and a Spirit's special rule) changes in the rules' answers:
piece Damage and Health, Defend at Sacred Sites, England's Builds in empty lands, Sweden's Heavy
Mining, the escalations the station places, the reactions after an Explore card, and the loss
conditions it can check on the lands."""

from __future__ import annotations

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island import blight_track, invader_rules, lands, spirits
from tablekeeper.games.spirit_island.common import adversary, table
from tablekeeper.games.spirit_island.data import AdversaryAt

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
    that many Towns and Cities."""
    at = current(state)
    if at is None or not at.build_adjacent_buildings or lands.land(state, name).invaders:
        return False
    near = sum(lands.land(state, other).buildings for other in lands.place(state, name).adjacent)
    return near >= at.build_adjacent_buildings


def after_explore_card(txn: Txn, card: str) -> None:
    """SI-ERRATA-2: reactions "after an Explore card" (France 6) fire once for each card resolved."""
    key, level = adversary(txn.state)
    txn.put("invader.explore_cards", int(txn.state.get("invader.explore_cards", 0)) + 1)
    for rule in table(txn.state).adversary(key, level, "after_explore_card"):
        txn.notice(f"After the {card} Explore card: {rule.text}")


def _board(state: GameState, board: str) -> list[str]:
    return [name for name, where in lands.places(state).items() if where.board == board]


def escalation_lands(state: GameState, rule: str, board: str, terrains: str) -> list[str]:
    """The lands of ``board`` the escalation may use (none: nothing happens on that board)."""
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
        shown = terrains.split(" and ")
        return [n for n in names if any(lands.place(state, n).matches(t) for t in shown)]
    return []


def automatic_lands(state: GameState, rule: str, board: str, terrains: str) -> list[str] | None:
    """The land the escalation uses when the rules leave no choice (None: the players choose)."""
    candidates = escalation_lands(state, rule, board, terrains)
    if len(candidates) <= 1:
        return candidates
    return None


def place_question(state: GameState, rule: str, board: str) -> str:
    at = current(state)
    name = at.escalation.name if at is not None and at.escalation is not None else "Escalation"
    if rule == "build_where_most":
        return f"{name} on board {board}: which land with the most Towns and Cities Builds?"
    if rule == "cash_crops":
        return f"{name} on board {board}: which land (a Town or City there: Blight, else a Town)?"
    return f"{name} on board {board}: which land gets the Town?"


def escalate(txn: Txn, rule: str, name: str) -> None:
    """Carry out an escalation in the land the rules or the players chose."""
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
    else:
        lands.put(txn, name, rec.add("towns", 1))
        txn.notice(f"Escalation: 1 Town added in {name}")


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
