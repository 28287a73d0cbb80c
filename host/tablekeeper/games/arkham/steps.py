"""What a card makes happen (a reference-card token, a treachery, an agenda or act turning over, a
location entered), one step at a time: applied by the station when it can see what the step needs,
asked of the players when it cannot (a prompt) or when the card gives them a choice.

Steps wait in ``todo`` (``records.Pending``) while a question, a skill test or an attack's harm is
open; ``drain`` carries on once nothing is (``pending.resume`` calls it after every answer)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import attacks, board, effects, encounter, piles, places, reference, rules, skilltest
from tablekeeper.games.arkham.content import Step
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import Pending, Soak

YES_NO = ["yes", "no"]


def run(txn: Txn, steps: tuple[Step, ...], seat: int, *, margin: int = 0, source: str = "",
        card: str | None = None) -> None:
    """Apply ``steps`` for ``seat`` (before any steps already waiting), as far as nothing is open."""
    run_all(txn, [Pending(steps=steps, seat=seat, margin=margin, source=source, card=card)])


def _more(txn: Txn, steps: tuple[Step, ...], ctx: Pending) -> None:
    """Further steps of the same card, for the same seat (its source and card kept)."""
    run_all(txn, [replace(ctx, steps=steps)])


def run_all(txn: Txn, batch: list[Pending]) -> None:
    """Several cards' steps in this order, all before the steps already waiting."""
    batch = [item for item in batch if item.steps]
    if batch:
        _save_todo(txn, [*batch, *rec(txn.state).todo])
    drain(txn)


def _save_todo(txn: Txn, items: Sequence[Pending]) -> None:
    txn.put("todo", tuple(items) or None)


def busy(state: GameState) -> bool:
    """Something the next step must wait for: a question, a skill test, an attack's harm, the end."""
    return state.prompt is not None or rec(state).test is not None or rec(state).soak is not None \
        or state.over is not None


def drain(txn: Txn) -> None:
    while not busy(txn.state):
        items = rec(txn.state).todo
        if not items:
            return
        head, rest = items[0], items[1:]
        step = head.steps[0]
        left = head.steps[1:]
        _save_todo(txn, [replace(head, steps=left), *rest] if left else rest)
        if effects.is_live(txn.state, head.seat) or step.who != "self":
            apply(txn, step, head)


def apply(txn: Txn, step: Step, ctx: Pending) -> None:
    """One step: its condition first (asked when the station cannot see it), then its effect."""
    if step.when is not None:
        held = reference.holds(txn.state, ctx.seat, step.when)
        if held is None:
            txn.ask("step_when", f"{ctx.source}: {_question(step, ctx.seat)}", YES_NO,
                    context={"step": msgspec.to_builtins(replace(step, when=None)), "ctx": _ctx(ctx)})
            return
        if not held:
            return
    if step.who == "lead":
        ctx = replace(ctx, seat=txn.state.lead)
    elif step.who == "each":
        items = [replace(ctx, steps=(replace(step, who="self"),), seat=s) for s in effects.live_seats(txn.state)]
        _save_todo(txn, [*items, *rec(txn.state).todo])
        return
    HANDLERS[step.do](txn, step, ctx)


def _question(step: Step, seat: int) -> str:
    """The condition the station cannot see, put to the players as a yes-or-no question."""
    when = step.when
    if when is None:
        return "go on?"
    if when.enemy_here:
        return f"is there a {when.enemy_here} enemy at seat {seat}'s location?"
    if when.enemy_in_play:
        return f"is there a {when.enemy_in_play} enemy in play?"
    return f"is there no {when.no_enemy_in_play} enemy in play?"


def _ctx(ctx: Pending) -> object:
    return msgspec.to_builtins(ctx)


def _times(step: Step, ctx: Pending) -> int:
    return step.amount * ctx.margin if step.per_point else step.amount


# --- harm, doom, clues, cards ----------------------------------------------------------------------
def _harm(txn: Txn, step: Step, ctx: Pending) -> None:
    """Damage or horror the investigator takes: it may go on their assets (a prompt when any can)."""
    n = _times(step, ctx)
    if n <= 0 or not effects.is_live(txn.state, ctx.seat):
        return
    txn.notice(f"{ctx.source}: seat {ctx.seat} takes {n} {step.do}")
    txn.put("soak", Soak(ctx.seat, n if step.do == "damage" else 0, n if step.do == "horror" else 0))
    attacks.ask_split(txn)


def _doom_agenda(txn: Txn, step: Step, ctx: Pending) -> None:
    """Doom on the current agenda; a card that says so may make it advance at once."""
    txn.add("agenda.doom", step.amount)
    txn.notice(f"{ctx.source}: {step.amount} doom on the agenda")
    state = txn.state
    if rules.agenda_advances(state.value("agenda.doom"), state.value("doom.other"), state.value("agenda.threshold"),
                             bool(effects.card(state, "agenda").objective)):
        from tablekeeper.games.arkham import scenario_cards

        scenario_cards.advance_agenda(txn, "doom threshold reached")


def _matching(state: GameState, trait: str | None) -> list[str]:
    return sorted(name for name, foe in board.enemies(state).items()
                  if trait is None or trait.casefold() in (t.casefold() for t in foe.traits))


def _doom_nearest(txn: Txn, step: Step, ctx: Pending) -> None:
    """Doom on the nearest such enemy: the only one, the one nearest by connections, or the players'
    pick among those equally near; none in play: the card's fallback, or nothing."""
    names = _matching(txn.state, step.trait)
    if not names:
        if step.else_draw:
            _draw_enemy(txn, replace(step, do="draw_enemy"), ctx)
        else:
            txn.notice(f"{ctx.source}: no {step.trait or ''} enemy in play".replace("  ", " "))
        return
    nearest = board.nearest(txn.state, ctx.seat, names)
    if len(nearest) == 1:
        board.enemy_doom(txn, nearest[0], step.amount)
        txn.notice(f"{ctx.source}: {step.amount} doom on {nearest[0]}")
        return
    txn.ask("step_enemy", f"{ctx.source}: which enemy is nearest seat {ctx.seat}?", nearest,
            context={"names": nearest, "amount": step.amount, "ctx": _ctx(ctx)})


def _doom_each(txn: Txn, step: Step, ctx: Pending) -> None:
    for name in _matching(txn.state, step.trait):
        board.enemy_doom(txn, name, step.amount)
        txn.notice(f"{ctx.source}: {step.amount} doom on {name}")


def _clues_to_location(txn: Txn, step: Step, ctx: Pending) -> None:
    have = effects.seat_value(txn.state, ctx.seat, "clues")
    n = min(have, have if step.all else _times(step, ctx))
    if n <= 0:
        return
    txn.add(seat_track(ctx.seat, "clues"), -n)
    board.drop_clues(txn, ctx.seat, n)
    txn.notice(f"{ctx.source}: seat {ctx.seat} places {n} clue{'s' if n != 1 else ''} on their location")


def _spend_clue(txn: Txn, step: Step, ctx: Pending) -> None:
    have = effects.seat_value(txn.state, ctx.seat, "clues")
    if have < step.amount:
        raise Rejected(f"seat {ctx.seat} holds {have} clues, cannot spend {step.amount}")
    txn.add(seat_track(ctx.seat, "clues"), -step.amount)


def _draw_cards(txn: Txn, step: Step, ctx: Pending) -> None:
    effects.draw_cards(txn, ctx.seat, step.amount)


def _each_discards(txn: Txn, step: Step, ctx: Pending) -> None:
    for seat in effects.live_seats(txn.state):
        n = min(step.amount, effects.seat_value(txn.state, seat, "hand"))
        if n:
            txn.add(seat_track(seat, "hand"), -n)
            txn.add(seat_track(seat, "discard"), n)
    txn.notice(f"{ctx.source}: each investigator discards {step.amount} card at random")


def _enemy_names(state: GameState, step: Step) -> list[str]:
    """The enemies a search or a discard of the encounter deck may turn up: by trait, or from a separate
    deck; a set-aside enemy (the Ghoul Priest) is in neither pile, so never among them."""
    cards = rec(state).scenario.cards
    return sorted(n for n, c in cards.items() if c.kind == "enemy" and (
        (step.set is not None and c.set == step.set) or
        (step.set is None and not c.set_aside and (step.trait is None or step.trait in c.traits))))


def _draw_enemy(txn: Txn, step: Step, ctx: Pending) -> None:
    """The investigator draws an enemy the players find (by trait, or from a separate deck): which one
    is theirs to say; it then spawns as drawn (engaged, unless its card says where)."""
    names = _enemy_names(txn.state, step)
    label = f"a {step.trait} enemy" if step.trait else "an enemy"
    txn.ask("step_draw", f"{ctx.source}: seat {ctx.seat} draws {label}: which?", [*names, "none found"], seat=ctx.seat,
            context={"names": names, "at": step.at, "doom": step.doom, "set": step.set, "ctx": _ctx(ctx)})


def _choose(txn: Txn, step: Step, ctx: Pending) -> None:
    options = [o for o in step.options
               if not (o.then and o.then[0].do == "spend_clue"
                       and effects.seat_value(txn.state, ctx.seat, "clues") < o.then[0].amount)]
    if len(options) == 1:
        _more(txn, options[0].then, ctx)
        return
    txn.ask("step_choose", f"{ctx.source}: seat {ctx.seat} chooses", [o.label for o in options], seat=ctx.seat,
            context={"options": [msgspec.to_builtins(o.then) for o in options], "ctx": _ctx(ctx)})


def _notice(txn: Txn, step: Step, ctx: Pending) -> None:
    txn.notice(f"{ctx.source}: {step.text}" if ctx.source else step.text)


def _test(txn: Txn, step: Step, ctx: Pending) -> None:
    """A card's skill test for the investigator: a failure then does the step's ``then``."""
    if step.skill is None:
        raise Rejected(f"{ctx.source}: a test step needs its skill")
    base = effects.skill(txn.state, ctx.seat, step.skill)
    skilltest.begin(txn, ctx.seat, step.skill, base, step.difficulty, source=ctx.source or None, on_fail=step.then,
                    card=ctx.card)


# --- the board: locations and enemies a card moves ----------------------------------------------------
def _move(txn: Txn, step: Step, ctx: Pending) -> None:
    if step.location in board.locations(txn.state) and board.where(txn.state, ctx.seat) != step.location:
        board.enter(txn, ctx.seat, str(step.location))


def _put_into_play(txn: Txn, step: Step, ctx: Pending) -> None:
    for name in step.locations:
        board.put_into_play(txn, name)


def _remove_location(txn: Txn, step: Step, ctx: Pending) -> None:
    if step.location in board.locations(txn.state):
        board.remove_location(txn, str(step.location))


def _reveal(txn: Txn, step: Step, ctx: Pending) -> None:
    if step.location in board.locations(txn.state):
        board.reveal(txn, str(step.location))


def _discard_enemies_at(txn: Txn, step: Step, ctx: Pending) -> None:
    for name in board.enemies_at(txn.state, str(step.location)):
        board.discard_enemy(txn, name)


def _move_investigators(txn: Txn, step: Step, ctx: Pending) -> None:
    for seat in effects.live_seats(txn.state):
        if board.where(txn.state, seat) != step.location:
            board.enter(txn, seat, str(step.location))


def _spawn(txn: Txn, step: Step, ctx: Pending) -> None:
    found = encounter.known_card(txn.state, str(step.enemy))
    if found is None:
        raise Rejected(f"{ctx.source}: no enemy {step.enemy!r} in the scenario's data")
    encounter.spawn_card(txn, ctx.seat, found[0], at=step.at, doom=step.doom)


def _shuffle_discard(txn: Txn, step: Step, ctx: Pending) -> None:
    """The encounter discard pile is shuffled into the encounter deck (01106's back, before its discards)."""
    pile = txn.value("encounter.discard")
    if pile:
        txn.set("encounter.discard", 0)
        txn.add("encounter.deck", pile)
        txn.notice(f"{ctx.source}: the encounter discard pile ({pile}) is shuffled into the encounter deck")


def _spawn_discarded(txn: Txn, step: Step, ctx: Pending) -> None:
    """Cards are discarded from the top of the encounter deck until an enemy (with the trait) is: which
    one is the players' to say, then how many cards went before it, so both piles stay counted; it
    spawns where the card says, else as drawn by the investigator (two of them from ``two_from``
    investigators)."""
    if step.two_from is not None:
        times = 2 if effects.investigator_count(txn.state) >= step.two_from else 1
        one = replace(step, two_from=None)
        _save_todo(txn, [Pending(steps=(one,) * times, seat=ctx.seat, source=ctx.source, card=ctx.card),
                         *rec(txn.state).todo])
        return
    names = _enemy_names(txn.state, step)
    label = f"a {step.trait} enemy" if step.trait else "an enemy"
    txn.ask("step_discarded", f"{ctx.source}: discard from the encounter deck until {label} is discarded: which?",
            [*names, "none found"], seat=ctx.seat,
            context={"names": names, "at": step.at, "doom": step.doom, "ctx": _ctx(ctx)})


def _enemies_move(txn: Txn, step: Step, ctx: Pending) -> None:
    """Each unengaged enemy with the trait moves one location toward ``location`` (01107), one after
    the other: each becomes a step of its own, so a question about one (which way, whom it engages)
    holds the rest until it is answered."""
    state = txn.state
    if step.enemy is None:
        names = [n for n in _matching(state, step.trait) if board.enemy(state, n).engaged is None]
        each = [Pending(steps=(replace(step, enemy=n),), seat=ctx.seat, source=ctx.source) for n in names]
        _save_todo(txn, [*each, *rec(state).todo])
        return
    foe = board.enemies(state).get(step.enemy)
    goal = str(step.location)
    if foe is None or foe.engaged is not None or foe.location is None or goal not in board.locations(state):
        return  # defeated, engaged or gone meanwhile, or the place it heads for is not in play
    ways = board.first_steps_toward(state, foe.location, {goal})
    if len(ways) > 1:
        txn.ask("step_way", f"{ctx.source}: {step.enemy} moves toward {goal}: which way?", ways, seat=ctx.seat,
                context={"enemy": step.enemy, "ways": ways, "ctx": _ctx(ctx)})
    elif ways:
        board.move_enemy(txn, step.enemy, ways[0], f"{ctx.source}: toward {goal}")


def _doom_per_enemy(txn: Txn, step: Step, ctx: Pending) -> None:
    """Doom on the current agenda for each enemy with the trait at one of ``locations`` (01107 at the end
    of the round). It waits for 1.3 like the Mythos phase's doom (AH-DOOM-4): the card does not say it
    can make the agenda advance."""
    names = [n for n in _matching(txn.state, step.trait)
             if board.enemy_location(txn.state, board.enemy(txn.state, n)) in step.locations]
    if names:
        txn.add("agenda.doom", step.amount * len(names))
        txn.notice(f"{ctx.source}: {step.amount * len(names)} doom on the agenda ({', '.join(names)})")


def _defeat_each(txn: Txn, step: Step, ctx: Pending) -> None:
    """01107 at act 3: each investigator still in the scenario (not resigned) is defeated by the card
    and suffers ``amount`` physical trauma; the lead last, so no new lead is asked for on the way."""
    order = effects.live_seats(txn.state)
    for seat in [*order[1:], *order[:1]]:
        if effects.is_live(txn.state, seat):
            effects.eliminate(txn, seat, rules.Defeat("ability", physical=step.amount))


HANDLERS = {
    "damage": _harm, "horror": _harm, "doom_agenda": _doom_agenda, "doom_nearest": _doom_nearest,
    "doom_each": _doom_each, "clues_to_location": _clues_to_location, "spend_clue": _spend_clue,
    "draw_cards": _draw_cards, "draw_enemy": _draw_enemy, "each_discards": _each_discards, "choose": _choose,
    "notice": _notice, "test": _test, "move": _move, "put_into_play": _put_into_play,
    "remove_location": _remove_location, "reveal": _reveal, "discard_enemies_at": _discard_enemies_at,
    "move_investigators": _move_investigators, "spawn": _spawn, "spawn_discarded": _spawn_discarded,
    "shuffle_discard": _shuffle_discard, "enemies_move": _enemies_move, "doom_per_enemy": _doom_per_enemy,
    "defeat_each": _defeat_each,
}


# --- answers to the questions the steps ask ------------------------------------------------------
def _open_context(txn: Txn) -> tuple[dict[str, object], Pending]:
    prompt = txn.open_prompt()
    context = dict(thaw(prompt.context))
    txn.close_prompt()
    return context, msgspec.convert(context["ctx"], type=Pending)


def answer_when(txn: Txn, index: int) -> None:
    context, ctx = _open_context(txn)
    if index == 0:
        _more(txn, (msgspec.convert(context["step"], type=Step),), ctx)


def answer_choose(txn: Txn, index: int) -> None:
    context, ctx = _open_context(txn)
    options = msgspec.convert(context["options"], type=list[tuple[Step, ...]])
    _more(txn, options[index], ctx)


def answer_enemy(txn: Txn, index: int) -> None:
    """The enemy nearest the investigator, picked among those equally near."""
    context, ctx = _open_context(txn)
    name = str(msgspec.convert(context["names"], type=list[str])[index])
    amount = int(str(context["amount"]))
    board.enemy_doom(txn, name, amount)
    txn.notice(f"{ctx.source}: {amount} doom on {name}")


def answer_way(txn: Txn, index: int) -> None:
    """The way an enemy moving toward a location takes, of those equally short (the lead's pick)."""
    context, ctx = _open_context(txn)
    name, way = str(context["enemy"]), msgspec.convert(context["ways"], type=list[str])[index]
    if name in board.enemies(txn.state):
        board.move_enemy(txn, name, way, f"{ctx.source}: the way picked")


def answer_draw(txn: Txn, index: int) -> None:
    """The enemy the players found spawns for the investigator (or none was found). Searched out of the
    encounter deck and discard pile (no separate deck named), it leaves the one it was in: the pile the
    counts allow, else the one the players name."""
    context, ctx = _open_context(txn)
    names = msgspec.convert(context["names"], type=list[str])
    if index >= len(names):
        txn.notice(f"{ctx.source}: no enemy found")
        return
    name = names[index]
    found_in = piles.searched(txn.state, ctx.card) if context.get("set") is None else ()
    if len(found_in) > 1:
        labels = [f"{piles.LABELS[p]} ({txn.value(p.value)})" for p in found_in]
        txn.ask("step_draw_pile", f"{ctx.source}: where was {name} found?", labels, seat=ctx.seat,
                context={**context, "name": name, "piles": [p.value for p in found_in]})
        return
    _draw_found(txn, context, ctx, name, found_in[0] if found_in else None)


def answer_draw_pile(txn: Txn, index: int) -> None:
    """The pile the players found the enemy in: it leaves that one."""
    context, ctx = _open_context(txn)
    found_in = [piles.Pile(str(p)) for p in msgspec.convert(context["piles"], type=list[str])]
    _draw_found(txn, context, ctx, str(context["name"]), found_in[index])


def _draw_found(txn: Txn, context: dict[str, object], ctx: Pending, name: str, pile: piles.Pile | None) -> None:
    if pile is not None:
        piles.take(txn, pile)
        txn.notice(f"{ctx.source}: {name} is taken out of {piles.LABELS[pile]}")
    at = context.get("at")
    encounter.spawn_card(txn, ctx.seat, name, at=None if at is None else str(at),
                         doom=int(str(context.get("doom") or 0)))


def answer_discarded(txn: Txn, index: int) -> None:
    """The enemy the discards turned up; then how many cards were discarded before it. None found: the
    whole deck went to the discard pile (which becomes the new deck, AH-ENCDECK-2)."""
    context, ctx = _open_context(txn)
    names = msgspec.convert(context["names"], type=list[str])
    deck = txn.value("encounter.deck")
    if index >= len(names):
        txn.add("encounter.discard", deck)
        txn.set("encounter.deck", 0)
        txn.notice(f"{ctx.source}: no enemy found; the {deck} cards of the encounter deck are discarded")
        return
    before = [str(n) for n in range(max(1, deck))]  # the enemy itself is one of the deck's cards
    txn.ask("step_discarded_count", f"{ctx.source}: how many cards were discarded before {names[index]}?", before,
            seat=ctx.seat, context={**context, "name": names[index]})


def answer_discarded_count(txn: Txn, index: int) -> None:
    """The cards discarded before the enemy stay in the encounter discard pile; the enemy leaves the
    deck too, into play (AH-ENCDECK-2 reshuffles an emptied deck)."""
    context, ctx = _open_context(txn)
    name, at = str(context["name"]), context.get("at")
    taken = min(txn.value("encounter.deck"), index + 1)
    txn.add("encounter.discard", index)
    txn.add("encounter.deck", -taken)
    txn.notice(f"{ctx.source}: {index} card{'s' if index != 1 else ''} discarded before {name}")
    encounter.spawn_card(txn, ctx.seat, name, at=None if at is None else str(at),
                         doom=int(str(context.get("doom") or 0)))


def answer_location_card(txn: Txn, index: int) -> None:
    """Which printed card a location turned out to be, as it is revealed."""
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("no location is being revealed")
    name, options = str(prompt.context["location"]), [str(o) for o in prompt.context["cards"]]
    txn.close_prompt()
    place = board.location(txn.state, name)
    spec = rec(txn.state).scenario.locations[str(place.spec)]
    board.save_location(txn, name, places.as_card(place, places.variant(spec, options[index])))
    board.reveal(txn, name)
    seat = prompt.context.get("seat")
    if seat is not None:
        board.entered(txn, int(str(seat)), name)
