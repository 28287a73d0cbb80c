"""What the Fear cards resolved this turn change in the Invader steps that follow them (SI-INV-1:
Fear comes before Ravage, Build and Explore): no Build or Explore in some lands, Defend in others.
The station's "as the rules place them" answers read these, so a table that just resolved Trade
Suffers is not offered a Town in a land with a City."""

from __future__ import annotations

from tablekeeper.core.state import GameState
from tablekeeper.games.spirit_island import lands
from tablekeeper.games.spirit_island.common import table
from tablekeeper.games.spirit_island.data import FearTurn
from tablekeeper.games.spirit_island.record import LandRecord, shared


def this_turn(state: GameState) -> list[tuple[str, FearTurn]]:
    """Each Fear card resolved this turn, with what its level (the one it was read at) changes."""
    out: list[tuple[str, FearTurn]] = []
    for done in shared(state).fear_resolved:
        card = table(state).fear_card(done.name or "")
        if done.resolved_round == state.round and card is not None and card.turn is not None:
            rule = card.turn[min(3, max(1, done.terror)) - 1]
            if rule != FearTurn():
                out.append((card.name, rule))
    return out


def _presence(rec: LandRecord) -> bool:
    return any(n > 0 for n in rec.presence.values())


def stops_build(state: GameState, name: str, piece: str) -> str | None:
    """The Fear card that stops a Build adding ``piece`` in the land, if one does."""
    rec, coastal = lands.land(state, name), lands.place(state, name).coastal
    for card, rule in this_turn(state):
        where = {"city": rec.cities > 0, "dahan": rec.dahan > 0, "coastal": coastal,
                 "dahan_outnumber_buildings": rec.dahan > rec.buildings, "": False}[rule.no_build]
        if where or (piece == "city" and rule.no_city == "coastal" and coastal):
            return card
    return None


def stops_explore(state: GameState, name: str) -> str | None:
    rec = lands.land(state, name)
    return next((card for card, rule in this_turn(state) if rule.no_explore == "two_dahan" and rec.dahan >= 2),
                None)


def defend(state: GameState, name: str) -> int:
    """Island-wide Defend from this turn's Fear cards, counted now (SI-DEFEND-4)."""
    rec, coastal = lands.land(state, name), lands.place(state, name).coastal
    total = 0
    for _, rule in this_turn(state):
        total += rule.defend_coastal * coastal + rule.defend_presence * _presence(rec)
        total += rule.defend_per_dahan * rec.dahan + rule.defend_with_dahan * (rec.dahan > 0)
    return total


def names(state: GameState, step: str) -> list[str]:
    """The cards resolved this turn that change ``step`` ("ravage", "build" or "explore")."""
    def changes(rule: FearTurn) -> bool:
        if step == "build":
            return bool(rule.no_build or rule.no_city)
        if step == "explore":
            return bool(rule.no_explore)
        return bool(rule.defend_coastal or rule.defend_presence or rule.defend_per_dahan or rule.defend_with_dahan)
    return [card for card, rule in this_turn(state) if changes(rule)]
