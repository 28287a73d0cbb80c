"""The Invader track as a time track: the deck by stage, the Ravage/Build/Explore slots, the
discard, and the draw that may be the device's or the players' report (SI-DECK-1, SI-INV-7)."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.chance import Deck, Multiset
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import adversary_rules, invader_counts, invader_rules
from tablekeeper.games.spirit_island.common import adversary, deck_of, put_slots, slots, table
from tablekeeper.games.spirit_island.data import DeckGroup
from tablekeeper.games.spirit_island.record import shared


def build_deck(order: tuple[DeckGroup, ...]) -> Deck:
    """Each run of the deck order holds its stage's whole pool: a card drawn leaves the later runs
    of its stage too, and a finished run sends the rest of its pool back to the box unseen, which
    gives exactly a shuffled deck's odds."""
    return Deck(name="invaders", stages=tuple(Multiset.of(g.pool) for g in order), reshuffle=False)


def order_of(state: GameState) -> tuple[DeckGroup, ...]:
    return table(state).deck_order(*adversary(state))


def may_draw(state: GameState) -> str | None:
    """Why an Invader card cannot be flipped now, or None."""
    if shared(state).royal_backing:
        return None
    if (state.phase, state.step) not in (("setup", "first_explore"), ("invader", "explore")):
        return "Invader cards are flipped in the Explore step"
    if slots(state).explore and not shared(state).extra_draw:
        return "this Explore step already has its card (a second one: explore more)"
    return None


def on_drawn(txn: Txn, card: str) -> None:
    """A card was flipped: it goes into the Explore slot; a finished stage sends the rest of its
    pool back to the box."""
    reason = may_draw(txn.state)
    if reason:
        raise Rejected(reason)
    data = table(txn.state)
    order = order_of(txn.state)
    group = shared(txn.state).group
    stage = order[group].stage
    drawn = shared(txn.state).drawn_in_group + 1
    txn.set("invader.cards_left", txn.value("invader.cards_left") - 1)
    deck = deck_of(txn.state, "invaders")
    for later in range(group + 1, len(order)):
        if order[later].stage == stage and deck.stages[later].count(card):
            txn.source_op("invaders", "take", card, 1, later)  # dealt once: not again further down
    if drawn >= order[group].count:
        for name, n in deck_of(txn.state, "invaders").stages[group].items:
            txn.source_op("invaders", "take", name, n, group)
        drawn, group = 0, group + 1
        txn.put("invader.group", group)
        if group < len(order):
            txn.set("invader.stage", order[group].stage)
    txn.put("invader.drawn_in_group", drawn)
    if shared(txn.state).royal_backing:
        _royal_backing(txn, card)
        return
    if slots(txn.state).explore:
        txn.put("invader.extra_draw", None)
    current, stages = slots(txn.state), slot_stages(txn.state)
    put_slots(txn, replace(current, explore=(*current.explore, card)))
    txn.put("invader.stages", {**stages, "explore": [*stages["explore"], stage]})
    escalation = stage == 2 and card in data.escalation
    txn.notice(f"Explore: {card}" + (" (escalation)" if escalation else ""))
    invader_counts.ask_explore(txn, card, escalation)


def _royal_backing(txn: Txn, card: str) -> None:
    """The discarded card: on each board, a Town in the land of its terrain with the fewest Invaders."""
    txn.put("invader.royal_backing", None)
    txn.put("invader.discard", [*shared(txn.state).discard, card])
    txn.notice(f"Royal Backing discards {card}")
    shown = " and ".join(["Coastal"] if card == "Coastal" else sorted(invader_rules.card_terrains(card)))
    invader_counts.place_on_each_board(txn, "royal_backing", shown, "Royal Backing")


def on_entrench(txn: Txn, index: int) -> None:
    """Russia 5: the revealed unused Invader card goes to the Build slot; it is not in the deck, so
    the later cards of its stage come from the others (the odds follow)."""
    prompt = txn.open_prompt()
    card, stage = str(prompt.context["cards"][index]), int(prompt.context["stage"])
    txn.close_prompt()
    order, group = order_of(txn.state), shared(txn.state).group
    deck = deck_of(txn.state, "invaders")
    for later in range(group, len(order)):
        if order[later].stage == stage and deck.stages[later].count(card):
            txn.source_op("invaders", "take", card, 1, later)
    current, stages = slots(txn.state), slot_stages(txn.state)
    put_slots(txn, replace(current, build=(*current.build, card)))
    txn.put("invader.stages", {**stages, "build": [*stages["build"], stage]})
    txn.notice(f"Entrench in the Face of Fear: {card} goes to the Build slot")


def explore_enter(txn: Txn) -> None:
    """SI-END-2: a card must be drawn and the deck is empty -> defeat (time runs out)."""
    if txn.value("invader.cards_left") == 0:
        txn.put("defeat.pending", ["the Invader deck is empty at Explore (time runs out)"])
        return
    if shared(txn.state).invader_draws == "device":
        txn.draw("invaders")


def explore_more(txn: Txn) -> None:
    """An effect adds a second Explore card this step: the device flips it (or the players report
    it with ``reveal``), and it is resolved like the first (SI-ERRATA-2 counts both)."""
    _in_explore(txn.state)
    if not slots(txn.state).explore:
        raise Rejected("flip this step's first Explore card first")
    txn.put("invader.extra_draw", 1)
    if shared(txn.state).invader_draws == "device":
        txn.draw("invaders")


def explore_skip(txn: Txn) -> None:
    """No Explore card is resolved this step (an effect stops the Explore): its questions (and the
    reactions after it) are withdrawn, so France 6 fires for none (SI-ERRATA-2); the card still
    advances."""
    _in_explore(txn.state)
    invader_counts.withdraw(txn, "Explore")
    txn.put("invader.explore_skipped", 1)
    txn.notice("No Explore card is resolved this step")


def _in_explore(state: GameState) -> None:
    if (state.phase, state.step) != ("invader", "explore"):
        raise Rejected("only in the Explore step")


def explore_leave(txn: Txn) -> None:
    """The Explore step ends (France 6's reactions came after each card's own Explore)."""
    txn.put("invader.explore_skipped", None)


def first_explore_leave(txn: Txn) -> None:
    """Setup: the first Explore card moves straight to the Build slot (turn 1 has no Ravage)."""
    current = slots(txn.state)
    put_slots(txn, replace(current, build=current.explore, explore=()))
    stages = slot_stages(txn.state)
    txn.put("invader.stages", {**stages, "build": stages["explore"], "explore": []})


def slot_stages(state: GameState) -> dict[str, list[int]]:
    """The stage of each card in each slot (the High Immigration slot as ``immigration``); a card
    the station did not deal itself counts by its name (two terrains: Stage III; Coastal: II)."""
    known_stages = shared(state).stages
    cards = {**slots(state).as_mapping(), "immigration": immigration(state)}
    out: dict[str, list[int]] = {}
    for name, held in cards.items():
        known = list(known_stages.get(name, ()))
        out[name] = known if len(known) == len(held) else [_stage_by_name(c) for c in held]
    return out


def _stage_by_name(card: str) -> int:
    return 3 if "+" in card else 2 if card == "Coastal" else 1


def immigration(state: GameState) -> list[str]:
    """England 3/4: the cards on the High Immigration slot (they Build before the Ravage)."""
    return list(shared(state).immigration)


def advance_enter(txn: Txn) -> None:
    """SI-INV-7: Ravage -> discard, Build -> Ravage, Explore -> Build. England 3/4: with the High
    Immigration tile out, Ravage -> High Immigration -> discard; England 3 takes the tile away (and
    discards the card) once a Stage II card slides onto it."""
    stages = slot_stages(txn.state)
    held = slots(txn.state).as_mapping()
    discard = list(shared(txn.state).discard)
    tile = bool(shared(txn.state).immigration_tile)
    if tile:
        discard = [*discard, *immigration(txn.state)]
        moving, moving_stages = held["ravage"], stages["ravage"]
        held = {**held, "ravage": []}
    new, discard = invader_rules.advance(held, discard)
    new_stages = {"ravage": stages["build"], "build": stages["explore"], "explore": [], "immigration": []}
    if tile:
        if 2 in moving_stages and adversary_rules.high_immigration(txn.state) == "stage_two":
            txn.put("invader.immigration_tile", None)
            discard = [*discard, *moving]
            moving, moving_stages = [], []
            txn.notice("High Immigration: a Stage II card reached the tile; the tile and the card leave the board")
        txn.put("invader.immigration", moving)
        new_stages["immigration"] = moving_stages
    txn.put("invader.slots", new)
    txn.put("invader.discard", discard)
    txn.put("invader.stages", new_stages)


def waiting_for_card(state: GameState) -> str | None:
    if shared(state).royal_backing:
        return "flip the Invader card Royal Backing discards: reveal invaders CARD (or draw invaders)"
    if (state.phase, state.step) in (("setup", "first_explore"), ("invader", "explore")) \
            and not slots(state).explore and shared(state).defeat_pending is None:
        return "flip the Invader card first: reveal invaders CARD (or draw invaders)"
    return None


def slot_lines(state: GameState) -> list[str]:
    """One line per Invader Action slot, so a small display never cuts one in half (England's High
    Immigration slot first, while its tile is out)."""
    current = slots(state).as_mapping()
    lines = [name.title() + ": " + (" and ".join(current[name]) if current[name] else "no card")
             for name in ("ravage", "build", "explore")]
    if shared(state).immigration_tile:
        lines.insert(0, "High Immigration: " + (" and ".join(immigration(state)) or "no card"))
    return lines
