"""Encounter rounds on the enemy side: refresh and turn hooks, the stage deck with broken
locations and reactions, minions, unconsciousness, attack plans (OS-RND, OS-STAGE, OS-BRK, OS-MIN,
OS-KO)."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tablekeeper.core import timing
from tablekeeper.core.game import Txn
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.args import Args, GameVerb, verb
from tablekeeper.games.oathsworn.decks import draw_stage, flip_stage, stage_of
from tablekeeper.games.oathsworn.record import Minion, Reaction, rec
from tablekeeper.games.oathsworn.table import (
    SEATS,
    broken,
    check_end,
    encounter_of,
    in_encounter,
    put_seat,
    seat,
    stage_label,
    stage_words,
)
from tablekeeper.games.oathsworn.turns import offer_ally


def refresh(txn: Txn) -> None:
    """OS-RND-3: everyone at once: regenerate animus (REGEN, companions and allies 2, limited by the
    reserve), cooldown-0 ability cards back to hand, companion cubes cleared."""
    for n in SEATS:
        record = seat(txn.state, n)
        if record.down and not record.ally:
            continue
        regen = 2 if (record.kind == "companion" or record.ally) else txn.value(seat_track(n, "regen"))
        _, available = rules.regenerate(txn.value(seat_track(n, "animus_reserve")),
                                        txn.value(seat_track(n, "animus")), regen)
        txn.set(seat_track(n, "animus"), available)
        record = seat(txn.state, n)
        positions, hand = rules.cooldown_refresh(record.positions, record.hand, record.items)
        put_seat(txn, n, replace(record, positions=positions, hand=hand, cubes=()))
    txn.notice("refresh: animus regenerated, cooldown-0 cards back in hand")


def turn_start(txn: Txn) -> None:
    """OS-RND-5/7: a fresh turn: one move, one ability card; on the first turn of a round every
    injury card in hand must be played first."""
    n = txn.state.active_seat
    if n is None:
        return
    record = seat(txn.state, n)
    first = record.last_round != txn.state.round
    record = replace(record, moved=False, ability=False, acted=None, last_round=txn.state.round,
                     consumed_attacked=False, escape_tried=False)
    if first:
        record = replace(record, injuries_due=0 if record.kind == "companion" else record.injuries)
    put_seat(txn, n, record)
    offer_ally(txn, n)


def oathsworn_end(txn: Txn) -> None:
    """OS-STAT-3: crippled tokens expire when their Oathsworn phase finishes."""
    for n in SEATS:
        record = seat(txn.state, n)
        if record.crippled_until is not None and record.crippled_until <= txn.state.round:
            put_seat(txn, n, replace(record, crippled_until=None))
            txn.notice(f"seat {n} is no longer crippled")


def stage_card(txn: Txn) -> None:
    """OS-STAGE-1/2/4: resolve the faceup stage card, then turn the next one faceup."""
    if not in_encounter(txn.state):
        return
    card = rec(txn.state).stage_faceup or draw_stage(txn)
    if card is None:
        return
    txn.put("stage_current", card)
    txn.put("attack_card", card)
    txn.put("stage_faceup", None)
    steps = "target, move, attack" if _may_attack(txn.state, card) else "carry it out (no attack)"
    txn.notice(f"stage card: {stage_words(txn.state, card)}: {steps}")
    _attack_due(txn, card)
    flip_stage(txn)


def _may_attack(state: GameState, card: str) -> bool:
    """A card the data names but gives no attacking location does not attack (Encourage); an unnamed
    card (an encounter entered by its numbers only) may."""
    named = encounter_of(state).card(card)
    return named.name is None or named.attack is not None


def _attack_due(txn: Txn, card: str) -> None:
    """A card whose data names the location it attacks from owes that attack before play goes on
    (``enemy SEAT`` draws it; ``noattack`` when it finds no target, OS-TGT-6)."""
    if encounter_of(txn.state).card(card).attack is not None:
        txn.put("attacks_due", (*rec(txn.state).attacks_due, card))


def attack_owed(state: GameState) -> str | None:
    """Why ``next`` waits: a drawn stage or reaction card's attack has not been drawn (OS-STAGE-1,
    OS-BRK-2), or None."""
    due = rec(state).attacks_due
    if not due:
        return None
    return (f"{stage_words(state, due[0])} has not attacked yet: draw it with enemy SEAT (the target), "
            "or noattack if it finds no target in reach (OS-TGT-6)")


def no_attack(txn: Txn, a: Args) -> None:
    """``noattack``: the owed card's attack finds no Oathsworn in reach (OS-TGT-6): play goes on."""
    due = rec(txn.state).attacks_due
    if not due:
        raise Rejected("no stage or reaction card is waiting for its attack")
    txn.put("attacks_due", due[1:])
    txn.notice(f"{stage_label(txn.state, due[0])} finds no target: no attack")


def minions(txn: Txn) -> None:
    """OS-MIN-1: minions not activated by the stage card activate now (closest to target first)."""
    if not in_encounter(txn.state):
        return
    roster = rec(txn.state).minions
    due = [name for name, m in roster.items() if not m.activated]
    txn.put("minions_due", due)
    txn.notice("activate: " + (", ".join(due) if due else "no minion"))
    if roster:
        txn.put("minions", {name: replace(m, activated=False) for name, m in roster.items()})


def end_of_round(txn: Txn) -> None:
    """OS-RND-8 / OS-FX-5: end-of-round effects; kept stage cards go to the discard; cages end."""
    txn.put("attack_card", None)
    txn.put("attacks_due", [])
    kept = rec(txn.state).stage_kept
    if kept:
        txn.notice("stage cards kept until end of round discarded: " + ", ".join(stage_label(txn.state, c)
                                                                                 for c in kept))
        txn.put("stage_kept", [])
    for n in SEATS:
        record = seat(txn.state, n)
        if record.caged_until is not None and record.caged_until <= txn.state.round:
            put_seat(txn, n, replace(record, caged_until=None))
            txn.notice(f"seat {n} never escaped: the cage's failure effect applies and the cage ends")


def knocked_out(txn: Txn, n: int) -> None:
    """OS-KO-1 / OS-HC-1 / OS-KO-5: at 0 HP an Oathsworn is unconscious (killed in hardcore) and
    leaves the board; an ally at 0 HP is killed."""
    state = txn.state
    company = rec(state)
    if company.secret is not None or not in_encounter(state):
        if company.secret is None:
            txn.notice(f"seat {n} is at 0 HP in the story part (AMB-10: no rule; play on)")
        return
    record = seat(state, n)
    if record.ally:
        txn.put("dead_allies", [*company.dead_allies, record.ally])
        txn.notice(f"seat {n}'s ally {record.ally} is killed; choose another combat ally next turn")
        put_seat(txn, n, replace(record, ally=None))
        return
    record = replace(record, down=True, ko=True, dead=company.hardcore)
    if company.hardcore:
        txn.put("hardcore_dead", [*company.hardcore_dead, record.cls])
        txn.notice(f"seat {n} ({record.cls}) is killed (hardcore)")
    else:
        txn.notice(f"seat {n} ({record.cls}) is unconscious; model removed")
    put_seat(txn, n, record)
    check_end(txn)


def retune_hp_max(txn: Txn, n: int, hp_max: int) -> None:
    txn.define(seat_track(n, "hp"), min(txn.value(seat_track(n, "hp")), hp_max), 0, hp_max)


def location_broken(txn: Txn, location: str) -> None:
    """OS-BRK-1: a removed boss die breaks its location (the procedure waits while several dice are
    removed at once, OS-BRK-7)."""
    if not in_encounter(txn.state):
        return
    txn.put("breaks", rec(txn.state).breaks + 1)
    txn.put("broken", [*rec(txn.state).broken, location])
    txn.notice(f"{location} is broken")
    if rec(txn.state).breaking:
        return
    check_end(txn)
    if in_encounter(txn.state):
        break_procedure(txn, 1)


def break_procedure(txn: Txn, count: int) -> None:
    """OS-BRK-2/7: one stage change check, old-stage cards to the discard, a rebuild if the deck is
    empty, then one reaction card per broken location against the breaker, in the order drawn, each
    followed by the next card turned faceup."""
    breaks = rec(txn.state).breaks
    after = encounter_of(txn.state).stage_after_breaks
    new_stage = 1 + sum(1 for b in after if breaks >= b)
    old_stage = rec(txn.state).stage_now
    if new_stage > old_stage:
        txn.put("stage_now", new_stage)
        txn.emit("stage.drop", source="stage", below=new_stage)
        faceup = rec(txn.state).stage_faceup
        if faceup and stage_of(faceup) < new_stage:
            txn.put("stage_faceup", None)
        txn.notice(f"stage {new_stage} begins: earlier stage cards discarded")
    for _ in range(count):
        card = rec(txn.state).stage_faceup or draw_stage(txn)
        if card is None:
            return
        txn.put("stage_faceup", None)
        reaction = Reaction(card, rec(txn.state).breaker)
        current = rec(txn.state).stage_current
        if txn.state.step == "stage" and current:
            # OS-STAGE-3 / OS-STAGE-7: a card drawn while a stage card resolves waits for it to finish
            timing.defer(txn, msgspec.to_builtins(reaction))
            txn.notice(f"reaction: {stage_label(txn.state, card)} waits until "
                       f"{stage_label(txn.state, current)} has resolved")
        else:
            _react(txn, reaction)
        flip_stage(txn)


def _react(txn: Txn, reaction: Reaction) -> None:
    """Record a reaction card and whom it targets: the breaker, else the closest Oathsworn."""
    txn.put("reactions", (*rec(txn.state).reactions, reaction))
    txn.put("attack_card", reaction.card)
    _attack_due(txn, reaction.card)
    target = reaction.target
    attack = f" (its attack: enemy {target or 'SEAT'})" if _may_attack(txn.state, reaction.card) else " (no attack)"
    txn.notice(f"reaction: {stage_words(txn.state, reaction.card)} targets "
               + (f"seat {target}" if target else "the closest Oathsworn (north, then west)")
               + f": resolve it now{attack}")


def stage_done(txn: Txn) -> None:
    """Leaving the stage card step: the cards its resolution drew now resolve, in drawing order."""
    for reaction in timing.take_deferred(txn):
        _react(txn, msgspec.convert(reaction, Reaction))


def break_location(txn: Txn, a: Args) -> None:
    """``break LOCATION[,LOCATION] [SEAT]``: dice removed by any cause (collision, fire, an AoE) break
    their locations (OS-BRK-1); several at once share one stage check (OS-BRK-7)."""
    locations = list(a.words("LOCATION"))
    for loc in locations:
        if f"boss.{loc}" not in txn.state.tracks:
            raise Rejected(f"no boss location {loc!r}")
        if broken(txn.state, loc):
            raise Rejected(f"{loc} is already broken")
    txn.put("breaker", a.num("SEAT") if a.has("SEAT") else None)
    if len(locations) == 1:
        txn.set(f"boss.{locations[0]}", 0)
        return
    txn.put("breaking", True)
    for loc in locations:
        txn.set(f"boss.{loc}", 0)
    txn.put("breaking", None)
    check_end(txn)
    if in_encounter(txn.state):
        break_procedure(txn, len(locations))


def boss_fire(txn: Txn, a: Args) -> None:
    """``bossfire LOCATION``: the boss ended its move on a fire tile: the named die (AMB-28: the players
    pick it) loses 1 HP; if that removes it, the extra stage card comes after the current one and
    targets the closest Oathsworn (OS-MOVE-4, OS-STAGE-7)."""
    location = a.word("LOCATION")
    if f"boss.{location}" not in txn.state.tracks:
        raise Rejected(f"no boss location {location!r}")
    if broken(txn.state, location):
        raise Rejected(f"{location} is already broken")
    txn.put("breaker", None)
    txn.add(f"boss.{location}", -1)


def minion(txn: Txn, a: Args) -> None:
    """``minion NAME HP DEFENSE [mob]``: a minion enters with its own HP slot (OS-DMG-4, M9)."""
    if not in_encounter(txn.state):
        raise Rejected("minions enter in an encounter")
    name = a.word("NAME")
    minions = rec(txn.state).minions
    if name in minions or f"boss.{name}" in txn.state.tracks or is_number(name):
        raise Rejected(f"{name!r} is already taken")
    hp, defense = a.num("HP"), a.num("DEFENSE")
    if hp < 1 or defense < 1:
        raise Rejected("a minion has at least 1 HP and DEFENSE 1")
    txn.put("minions", {**minions, name: Minion(defense, a.flag("mob"), False)})
    txn.define(f"minion.{name}", hp, 0, hp)


def minion_gone(txn: Txn, name: str) -> None:
    """OS-DMG-4: a minion whose HP is gone leaves the board (no reaction, OS-BRK-4)."""
    txn.put("minions", {k: m for k, m in rec(txn.state).minions.items() if k != name})
    txn.drop(f"minion.{name}")
    txn.notice(f"minion {name} is removed from the board")


def activated(txn: Txn, a: Args) -> None:
    """``activated NAME...``: the stage card moved or attacked with these minions (OS-MIN-1)."""
    if txn.state.step != "stage":
        raise Rejected("minions are marked activated while the stage card resolves")
    minions = dict(rec(txn.state).minions)
    for name in a.words("NAME"):
        if name not in minions:
            raise Rejected(f"no minion {name!r}")
        minions[name] = replace(minions[name], activated=True)
    txn.put("minions", minions)


def keep(txn: Txn, a: Args) -> None:
    """``keep``: the current stage card lasts until the end of the round (OS-STAGE-2)."""
    card = rec(txn.state).stage_current
    if not card:
        raise Rejected("no stage card has been resolved yet")
    txn.put("stage_kept", [*rec(txn.state).stage_kept, card])


def stage_change(txn: Txn, a: Args) -> None:
    """``stage N``: a special rules board moves the encounter to stage N without a break (OS-STAGE-5):
    cards of earlier stages leave the deck for the discard pile and the first stage-N card turns faceup."""
    if not in_encounter(txn.state):
        raise Rejected("the stage changes during an encounter")
    new_stage = a.num("N")
    old_stage = rec(txn.state).stage_now
    if not old_stage < new_stage <= 3:
        raise Rejected(f"the encounter is at stage {old_stage}: a change goes to a later stage, up to 3")
    txn.put("stage_now", new_stage)
    txn.emit("stage.drop", source="stage", below=new_stage)
    faceup = rec(txn.state).stage_faceup
    if faceup is None or stage_of(faceup) < new_stage:
        txn.put("stage_faceup", None)
        flip_stage(txn)
    txn.notice(f"stage {new_stage} begins (special rules): earlier stage cards discarded")


VERBS: dict[str, GameVerb] = {v.usage.split()[0]: v for v in (
    verb("break LOCATION[,LOCATION] [SEAT]", "boss dice removed by another cause", break_location),
    verb("bossfire LOCATION", "the boss ends its move on fire", boss_fire),
    verb("minion NAME HP DEFENSE [mob]", "a minion enters the board", minion),
    verb("activated NAME...", "minions the stage card activated", activated),
    verb("keep", "keep the stage card until end of round", keep),
    verb("stage N", "a special rule changes the stage (not a break)", stage_change),
    verb("noattack", "the stage or reaction card's attack finds no target", no_attack),
)}
