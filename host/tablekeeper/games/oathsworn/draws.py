"""MIGHT draws at the table: checks, Oathsworn attacks (story and encounter), enemy attacks.

A check or attack draws at once (the device picks, or the players report the cards after ``=``),
criticals draw their extra cards, and the draw then waits for redraws until ``resolve``
(OS-CHECK-5, OS-TOK-6). Cards on the table stay out of a reshuffle (OS-MIGHT-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec.structs import replace

from tablekeeper.core.chance import Deck
from tablekeeper.core.game import Txn
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.args import Args, GameVerb, seat_number, verb
from tablekeeper.games.oathsworn.cards import (
    COLOUR_NAMES,
    COLOURS,
    Card,
    apply_upgrades,
    parse_card,
    steps_lost,
)
from tablekeeper.games.oathsworn.plan import drop_plan
from tablekeeper.games.oathsworn.record import (
    AttackDraw,
    AttackResult,
    Cards,
    CheckDraw,
    CheckResult,
    Draw,
    EnemyHit,
    EnemyResult,
    PendingHit,
    SeatRecord,
    Spent,
    StoryDraw,
    StoryResult,
    rec,
)
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_KINDS,
    broken,
    check_end,
    encounter_of,
    gain_token,
    has_figure,
    in_encounter,
    lose_hp,
    might_cubes,
    part,
    put_seat,
    seat,
    spend_token,
    stage_label,
    take_prompt_seat,
)


def deck_name(side: str, colour: str) -> str:
    return f"{side}.{COLOUR_NAMES[colour]}"


def _still_in_pile(txn: Txn, side: str, colour: str, card: str, on_table: list[str]) -> None:
    """A reported card must still be in the draw pile (OS-MIGHT-3/4: the discards are public): the
    core's refusal, plus where its copies are and what to type when the table's pile and the
    device's differ."""
    name = deck_name(side, colour)
    deck = txn.game.source(txn.state, name)
    if not isinstance(deck, Deck):
        return
    try:
        deck.match(card)
    except Rejected as refused:
        discarded = deck.discard.count(card) if deck.remaining else 0
        held = sum(1 for c in on_table if c == card)
        where = [f"{discarded} in its discard pile"] if discarded else []
        where += [f"{held} in this draw"] if held else []
        refresh = (f"; if the table shuffled that pile back, type refresh {COLOUR_NAMES[colour]} first"
                   if discarded and side == "might" else "")
        raise Rejected(f"{refused.reason}; {', '.join(where) or 'none left'}: check the card drawn{refresh}") from None


def draw_card(txn: Txn, side: str, colour: str, reported: str | None, on_table: list[str]) -> Card | None:
    """One card of ``colour``; an empty pile is rebuilt from the discard minus cards on the table."""
    name = deck_name(side, colour)
    deck = txn.game.source(txn.state, name)
    if not isinstance(deck, Deck):
        raise Rejected(f"{name} is not a deck")
    if deck.remaining == 0:
        keep = [c for c in on_table if c[0] == colour]
        if deck.discard.total - len(keep) <= 0:
            if reported is not None:
                raise Rejected(f"{name}: every card is already on the table")
            txn.notice(f"{name}: no card left to draw")
            return None
        txn.emit("might.reshuffle", source=name, keep=keep)
        txn.notice(f"{name} reshuffled its discard pile (OS-MIGHT-3)")
    if reported is not None:
        card = parse_card(reported)
        if card.colour != colour:
            raise Rejected(f"expected a {COLOUR_NAMES[colour]} card, got {reported}")
        _still_in_pile(txn, side, colour, card.name, on_table)
        return parse_card(txn.draw(name, card.name))
    return parse_card(txn.draw(name))


def draw_with_chains(txn: Txn, side: str, colours: list[str], reported: list[str],
                     chains: bool = True) -> list[tuple[str, bool]]:
    """OS-CHECK-4 / OS-ATK-10: counted cards, then one extra per critical, repeating.

    Reported cards list the counted cards first (any order), then the extras in the order drawn."""
    counted = reported[: len(colours)]
    if reported and sorted(parse_card(c).colour for c in counted) != sorted(colours):
        raise Rejected(f"report the {len(colours)} planned cards ({' '.join(colours)}) first, then any extras")
    extras = list(reported[len(colours):])
    drawn: list[tuple[str, bool]] = []
    owed: dict[str, int] = {}

    def take(colour: str, rep: str | None, extra: bool) -> None:
        card = draw_card(txn, side, colour, rep, [c for c, _ in drawn])
        if card is None:
            return
        drawn.append((card.name, extra))
        if card.crit and chains:
            owed[colour] = owed.get(colour, 0) + 1

    if reported:
        for rep in counted:
            take(parse_card(rep).colour, rep, False)
        for rep in extras:
            colour = parse_card(rep).colour
            if owed.get(colour, 0) <= 0:
                raise Rejected(f"{rep} was reported as an extra, but no {COLOUR_NAMES[colour]} critical calls for it")
            owed[colour] -= 1
            take(colour, rep, True)
        if any(owed.values()):
            missing = ", ".join(f"{k} {COLOUR_NAMES[c]}" for c, k in owed.items() if k)
            raise Rejected(f"criticals call for more extra cards: report {missing}")
        return drawn
    for colour in colours:
        take(colour, None, False)
    while any(owed.values()):
        colour = next(c for c in COLOURS if owed.get(c, 0) > 0)
        owed[colour] -= 1
        before = len(drawn)
        take(colour, None, True)
        if len(drawn) == before:
            owed[colour] = 0  # the colour ran out of cards
    return drawn


def as_drawn(cards: Cards) -> list[rules.Drawn]:
    return [rules.Drawn(parse_card(name), extra) for name, extra in cards]


def push_draw(txn: Txn, ctx: Draw) -> None:
    txn.put("draws", (*rec(txn.state).draws, ctx))


def upgrades_for(txn: Txn, n: int | None, colours: list[str], a: Args, check_type: str) -> tuple[list[str], int]:
    """OS-TOK-5 / OS-ATK-14: empowered tokens (3 steps each) plus an ``empowered N`` keyword; ``up``
    names the card each step goes to (1-based), else the strongest card that can still rise."""
    tokens = a.num("emp", 0)
    keyword = a.num("empower", 0)
    if keyword < 0 or tokens < 0:
        raise Rejected("empowered steps and tokens cannot be negative")
    if tokens and not rules.empowered_allowed(check_type):
        raise Rejected(f"empowered x3 tokens work only in a MIGHT check or an attack, not a {check_type} check")
    steps = 3 * tokens + keyword
    if tokens:
        if n is None:
            raise Rejected("name the seat whose empowered token is spent")
        spend_token(txn, n, "empowered", tokens)
    targets = [i - 1 for i in a.nums("up")] if a.has("up") else None
    if not steps:
        return colours, tokens
    upgraded = apply_upgrades(colours, steps, targets)
    lost = steps_lost(colours, upgraded, steps)
    if lost:
        txn.notice(f"{lost} upgrade step(s) lost: no card goes beyond black (OS-TOK-5)")
    return upgraded, tokens


# --- checks --------------------------------------------------------------------------------------

WHO = "SEAT|company|each"


def check(txn: Txn, a: Args) -> None:
    """``check WHO DIFFICULTY WHITES [type=T] [emp=N] [= CARDS]`` (OS-CHECK-1..8)."""
    who, diff, whites = a.word(WHO), a.num("DIFFICULTY"), a.nums("WHITES")
    if rec(txn.state).draws:
        raise Rejected("finish the open draw first (redraw N or resolve)")
    check_type = a.word("type", "might" if a.has("emp") else "survival")
    traits = rec(txn.state).traits
    free = rules.free_redraws(check_type, traits)
    if who == "each":
        if len(whites) != len(SEATS):
            raise Rejected("an each-Oathsworn check needs 4 white counts, e.g. 3,4,2,5")
        if a.cards:
            raise Rejected("report the cards of an each-Oathsworn check one Oathsworn at a time")
        for k, w in zip(SEATS, whites, strict=True):
            _one_check(txn, k, diff, w, check_type, free, a, [])
        return
    if len(whites) != 1:
        raise Rejected("one white count for a check by one Oathsworn or the company")
    n = None if who == "company" else seat_number(who)
    _one_check(txn, n, diff, whites[0], check_type, free, a, list(a.cards))


def _one_check(txn: Txn, n: int | None, diff: int, whites: int, check_type: str, free: int,
               a: Args, cards: list[str]) -> None:
    colours = ["W"] * rules.white_count(whites)
    colours, emp = upgrades_for(txn, n, colours, a, check_type)
    drawn = draw_with_chains(txn, "might", colours, cards)
    push_draw(txn, CheckDraw(n, diff, check_type, tuple(drawn), free, Spent(0, emp)))
    who = "the company" if n is None else f"seat {n}"
    txn.notice(f"{check_type} check {diff} for {who}: {' '.join(c for c, _ in drawn) or 'no cards'}")


def escape(txn: Txn, a: Args) -> None:
    """``escape SEAT DIFFICULTY WHITES [friends=N] [= CARDS]``: a caged character pays 3 animus
    (companion 1) for a survival check with +2 per adjacent friend; once per turn (OS-FX-4)."""
    if rec(txn.state).draws:
        raise Rejected("finish the open draw first (redraw N or resolve)")
    n = a.num("SEAT")
    record = seat(txn.state, n)
    if record.caged_until is None:
        raise Rejected(f"seat {n} is not caged")
    if txn.state.step != "turns" or txn.state.active_seat != n:
        raise Rejected("escape attempts happen on your own turn in the Oathsworn phase")
    if record.escape_tried:
        raise Rejected(f"seat {n} already tried to escape this turn")
    cost = rules.escape_cost(record.kind == "companion")
    rules.spend(txn.value(seat_track(n, "animus_reserve")), txn.value(seat_track(n, "animus")), cost)
    put_seat(txn, n, replace(record, escape_tried=True))
    txn.add(seat_track(n, "animus"), -cost)
    friends = a.num("friends", 0)
    colours = ["W"] * rules.white_count(a.num("WHITES"))
    drawn = draw_with_chains(txn, "might", colours, list(a.cards))
    push_draw(txn, CheckDraw(n, a.num("DIFFICULTY"), "survival", tuple(drawn),
                             rules.free_redraws("survival", rec(txn.state).traits), Spent(0, 0),
                             bonus=rules.escape_total(0, friends), escape=True))


def _escaped(txn: Txn, n: int, ok: bool) -> None:
    record = seat(txn.state, n)
    if ok:
        record = replace(record, caged_until=None)
        txn.notice(f"seat {n} escapes the cage and may act at once")
    else:
        txn.notice(f"seat {n} stays caged: apply the card's failure effect")
    put_seat(txn, n, record)


# --- attacks -------------------------------------------------------------------------------------

def attack(txn: Txn, a: Args) -> None:
    """``attack SEAT TARGET [white=N] [emp=N] [empower=N] [up=1,2] [unarmed] [bonus=N] [= CARDS]``.

    In the story part TARGET is the enemy's DEFENSE (OS-SCOMBAT); in an encounter it is a boss
    location or a number (the DEFENSE of a minion or another target)."""
    if rec(txn.state).draws:
        raise Rejected("finish the open draw first (redraw N or resolve)")
    n = a.num("SEAT")
    story = part(txn.state) == "story"
    record = _attacker(txn, n, story, a)
    whites = _whites(a, story)
    target, targets, choice = _attack_targets(txn, a.word("TARGET"), story)
    if story:
        _story_fight_defense(txn, targets[0][1])
    else:
        _encounter_attack_turn(txn, n, record, target, a)
    colours = might_cubes(txn.state, n, unarmed=a.flag("unarmed")) + ["W"] * whites
    colours, emp = upgrades_for(txn, n, colours, a, "attack")
    planned = rec(txn.state).plan
    if planned is not None and planned.seat == n:
        drop_plan(txn)  # the planned attack is being made: the display shows the draw now
    drawn = draw_with_chains(txn, "might", colours, list(a.cards))
    determination = not story and not record.ally and not record.token_attack
    if record.token_attack:
        put_seat(txn, n, replace(seat(txn.state, n), token_attack=False))
    shape = StoryDraw if story else AttackDraw
    push_draw(txn, shape(n, target, targets[0][1], tuple(targets), tuple(choice), determination, tuple(drawn), 0,
                         a.num("bonus", 0), Spent(0, emp)))
    txn.notice(f"seat {n} attacks {target}: {' '.join(c for c, _ in drawn) or 'no cards'}")


def _attacker(txn: Txn, n: int, story: bool, a: Args) -> SeatRecord:
    """Who may attack now: a figure on the board, not caged (OS-FX-3), one draw per story fight
    (OS-SCOMBAT-1), no item abilities in a story fight, an encounter still running."""
    if not has_figure(txn.state, n):
        raise Rejected(f"seat {n} has no figure on the board")
    record = seat(txn.state, n)
    if record.caged_until is not None:
        raise Rejected(f"seat {n} is caged: no attack, only pass or escape (OS-FX-3)")
    if story and str(n) in (rec(txn.state).fight or {}):
        raise Rejected(f"seat {n} already drew its attack this round of combat (OS-SCOMBAT-1)")
    if story and record.dead:
        raise Rejected(f"seat {n}'s Oathsworn is dead (hardcore): it takes no part in the fight")
    if not story and not in_encounter(txn.state):
        raise Rejected("the encounter is over")
    if a.flag("item") and story:
        raise Rejected("no special or item abilities in a story round of combat (OS-SCOMBAT-1)")
    return record


def _whites(a: Args, story: bool) -> int:
    whites = a.num("white", 0)
    if story:
        rules.white_count(whites)  # OS-SCOMBAT-2: at most 10 in story combat
    elif whites < 0:
        raise Rejected("white cards cannot be negative")
    return whites


def _attack_targets(txn: Txn, text: str, story: bool) -> tuple[str, list[tuple[str, int]], list[str]]:
    """(the target, every target with its DEFENSE, the equally close choices): ``a|b`` is chosen after
    the draw (OS-ATK-4), ``head>body`` routes past a broken location (OS-DMG-6), ``a,b`` hits several."""
    target = text
    choice = target.split("|") if "|" in target else []
    if choice:
        for t in choice:
            _target_defense(txn, t, story)
        target = choice[0]
    if ">" in target and not story:
        target = _routed(txn, target)
    targets = [(t, _target_defense(txn, t, story)) for t in target.split(",") if t]
    if not targets or (story and len(targets) > 1):
        raise Rejected("name one target (several, comma-separated, only for a multi-target attack)")
    return target, targets, choice


def _encounter_attack_turn(txn: Txn, n: int, record: SeatRecord, target: str, a: Args) -> None:
    """Whose turn it is (interrupts aside), a consumed character's paid attack (OS-FX-12), and a
    companion's one attack per turn, which a token attack does not use (OS-COMP-1, OS-TOK-7)."""
    if record.consumed:
        _consumed_attack(txn, n, record, target)
    if txn.state.step == "turns" and txn.state.active_seat != n and not a.flag("interrupt"):
        raise Rejected(f"it is seat {txn.state.active_seat}'s turn (an interrupt attack says: interrupt)")
    if not record.token_attack:
        _companion_action(txn, n, "attack")


def _consumed_attack(txn: Txn, n: int, record: SeatRecord, target: str) -> None:
    """OS-FX-12: a consumed character may, once per turn, pay 3 animus (companion 1) to attack the
    location it is in, and nothing else."""
    if target != record.consumed:
        raise Rejected(f"seat {n} is consumed: it can only attack {record.consumed}")
    if record.consumed_attacked:
        raise Rejected(f"seat {n} already attacked from inside {record.consumed} this turn")
    cost = rules.escape_cost(record.kind == "companion")
    rules.spend(txn.value(seat_track(n, "animus_reserve")), txn.value(seat_track(n, "animus")), cost)
    put_seat(txn, n, replace(record, consumed_attacked=True))
    txn.add(seat_track(n, "animus"), -cost)


def _routed(txn: Txn, target: str) -> str:
    """``head>body``: aimed at a broken location, the damage goes to the next closest one with a die;
    a bonus for attacking the aimed location still applies (OS-DMG-6/7)."""
    aimed, _, taking = target.partition(">")
    locations = dict(encounter_of(txn.state).boss)
    if aimed not in locations or taking not in locations:
        raise Rejected(f"route damage between boss locations ({', '.join(locations)}), e.g. head>body")
    if not broken(txn.state, aimed):
        raise Rejected(f"{aimed} still has its die: attack it directly")
    txn.notice(f"{aimed} is broken: the damage goes to {taking}")
    return taking


def _target_defense(txn: Txn, target: str, story: bool) -> int:
    if is_number(target, signed=False):
        defense = int(target)
        if defense < 1:
            raise Rejected("DEFENSE is at least 1")
        return defense
    if story:
        raise Rejected("in a story round of combat the target is the enemy's DEFENSE, e.g. attack 1 6")
    minions = rec(txn.state).minions
    if target in minions:
        return minions[target].defense
    locations = dict(encounter_of(txn.state).boss)
    if target not in locations:
        raise Rejected(f"no boss location or minion {target!r} (locations: {', '.join(locations)})")
    if broken(txn.state, target):
        raise Rejected(f"{target} is broken; attack the next closest location with a die (OS-DMG-6)")
    return locations[target]


def _companion_action(txn: Txn, n: int, what: str) -> None:
    """OS-COMP-1: a companion's turn holds a move plus one attack or one special ability."""
    record = seat(txn.state, n)
    if record.kind != "companion" and not record.ally:
        return
    if txn.state.step == "turns" and txn.state.active_seat == n:
        if record.acted:
            raise Rejected(f"seat {n} already attacked or used its special ability this turn")
        put_seat(txn, n, replace(record, acted=what))


def redraw(txn: Txn, a: Args) -> None:
    """``redraw INDEX [SEAT] [= NEW]``: replace card INDEX (1-based) with one of its colour (OS-CHECK-5,
    OS-TOK-6, OS-ATK-11); trait redraws are used first, then a redraw token of SEAT."""
    reported = list(a.cards)
    queue = list(rec(txn.state).draws)
    if not queue:
        raise Rejected("there is no open draw to redraw from")
    ctx = queue[0]
    index = a.num("INDEX") - 1
    if not 0 <= index < len(ctx.cards):
        raise Rejected(f"card 1..{len(ctx.cards)}")
    if ctx.free > 0:
        ctx = replace(ctx, free=ctx.free - 1)
    else:
        payer = a.num("SEAT") if a.has("SEAT") else ctx.seat
        if payer is None:
            raise Rejected("name the seat whose redraw token pays: redraw CARD SEAT")
        spend_token(txn, payer, "redraw")
        ctx = replace(ctx, spent=replace(ctx.spent, redraw=ctx.spent.redraw + 1), payers=(*ctx.payers, payer))
    cards = list(ctx.cards)
    old, extra = cards[index]
    colour = parse_card(old).colour
    on_table = [c for i, (c, _) in enumerate(cards) if i != index]
    queue_reported = list(reported)
    card = draw_card(txn, "might", colour, queue_reported.pop(0) if queue_reported else None, on_table)
    if card is None:
        raise Rejected(f"no {COLOUR_NAMES[colour]} card left to redraw")
    cards[index] = (card.name, extra)
    # AMB-2: the extras of a redrawn critical stay; a new critical draws its own extras
    owed = 1 if card.crit else 0
    while owed:
        owed -= 1
        rep = queue_reported.pop(0) if queue_reported else None
        if reported and rep is None:
            raise Rejected(f"the new critical calls for an extra {COLOUR_NAMES[colour]} card: report it too")
        extra_card = draw_card(txn, "might", colour, rep, [x for x, _ in cards])
        if extra_card is None:
            break
        cards.append((extra_card.name, True))
        owed += 1 if extra_card.crit else 0
    if queue_reported:
        raise Rejected(f"cards reported beyond the redraw and its criticals: {' '.join(queue_reported)}")
    queue[0] = replace(ctx, cards=tuple(cards))
    txn.put("draws", queue)
    txn.notice(f"redrew {old} -> {card.name}")


def resolve(txn: Txn, a: Args) -> None:
    """``resolve``: settle the open draw (check result, attack damage, story combat HP)."""
    queue = list(rec(txn.state).draws)
    if not queue:
        raise Rejected("there is no open draw to resolve")
    ctx = queue.pop(0)
    txn.put("draws", queue)
    drawn = as_drawn(ctx.cards)
    if isinstance(ctx, CheckDraw):
        bonus = ctx.bonus or 0
        ok = rules.check_passes(drawn, ctx.difficulty, bonus)
        wins = rules.successes(drawn, ctx.difficulty)
        result = CheckResult(ctx.seat, ok, rules.total(drawn), rules.counted_blanks(drawn), wins)
        txn.put("last", result)
        txn.notice(f"check {'passed' if ok else 'failed'}: total {result.total}"
                   f"{f' + {bonus}' if bonus else ''}, {result.blanks} blank(s), {wins} success(es)")
        if ctx.escape and ctx.seat is not None:
            _escaped(txn, ctx.seat, ok)
        return
    damage = rules.attack_damage(drawn)
    n = ctx.seat
    if damage is not None:
        damage += ctx.bonus
    if isinstance(ctx, StoryDraw):
        _story_result(txn, n, damage, ctx.defense)
        return
    if damage is None:
        txn.put("last", AttackResult(n, hit=False, damage=0, hp_lost=0))
        if ctx.determination:
            _determination(txn, ctx)
        else:
            txn.notice("miss (2 blanks)")
        return
    if ctx.choice:
        txn.put("pending_hit", PendingHit(n, damage))
        txn.ask("location", f"Hit for {damage}: which location takes it?", list(ctx.choice), seat=n)
        return
    apply_hit(txn, n, damage, ctx.targets or ((ctx.target, ctx.defense),))


def choose_location(txn: Txn, index: int) -> None:
    """OS-ATK-4 / OS-DMG-2: the attacker picks among equally close locations after the draw."""
    prompt = txn.open_prompt()
    location = prompt.options[index]
    pending = rec(txn.state).pending_hit
    if pending is None:
        raise Rejected("no hit waits for its location")
    txn.close_prompt()
    txn.put("pending_hit", None)
    apply_hit(txn, pending.seat, pending.damage, [(location, _target_defense(txn, location, False))])


def apply_hit(txn: Txn, n: int, damage: int, targets: Sequence[tuple[str, int]]) -> None:
    """OS-DMG-3/5, OS-ATK-15 / OS-FX-1: one draw (with its item bonus) hits every target."""
    losses = {t: rules.hp_lost(damage, d) for t, d in targets}
    first = next(iter(losses.values()))
    txn.put("last", AttackResult(n, hit=True, damage=damage, hp_lost=first, losses=losses))
    for target, lost in losses.items():
        txn.notice(f"hit {target} for {damage}: {lost} HP lost")
        if is_number(target, signed=False):
            continue
        if f"minion.{target}" in txn.state.tracks:
            hp = txn.value(f"minion.{target}")
            txn.set(f"minion.{target}", max(0, hp - lost))  # OS-DMG-4; minions never react (OS-BRK-4)
            continue
        die = txn.value(f"boss.{target}")
        new, broken = rules.boss_die_loss(die, lost)
        _consumed_damage(txn, target, min(die, lost))
        txn.put("breaker", n)
        if broken:
            txn.notice(f"{target} loses its die ({lost - die} excess lost)")
        txn.set(f"boss.{target}", new)


def _consumed_damage(txn: Txn, location: str, removed: int) -> None:
    """OS-FX-13/14: 6 HP removed from the location since the character was consumed releases it;
    its available animus all goes to the reserve."""
    for k in SEATS:
        record = seat(txn.state, k)
        if record.consumed != location:
            continue
        record = replace(record, consumed_hp=record.consumed_hp + removed)
        dice_left = 0 if removed >= txn.value(f"boss.{location}") else 1
        if rules.consumed_released(record.consumed_hp, dice_left):
            record = replace(record, consumed=None, consumed_hp=0)
            put_seat(txn, k, record)
            txn.set(seat_track(k, "animus"), 0)
            txn.notice(f"seat {k} is released from {location}: placed on the nearest empty hex")
        else:
            put_seat(txn, k, record)


def _determination(txn: Txn, ctx: AttackDraw) -> None:
    """OS-ATK-13: a missed Oathsworn attack refunds its redraw and empowered tokens and gains one
    combat token of the player's choice."""
    n = ctx.seat
    for payer in ctx.payers:
        gain_token(txn, payer, "redraw")
    if ctx.spent.empowered:
        gain_token(txn, n, "empowered", ctx.spent.empowered)
    txn.notice("miss (2 blanks): determination refunds the tokens spent; choose a combat token")
    txn.ask("determination", f"Seat {n}: which combat token?", list(TOKEN_KINDS), seat=n, context={"seat": n})


def choose_determination(txn: Txn, index: int) -> None:
    prompt = txn.state.prompt
    n = int(prompt.context["seat"]) if prompt else 1
    txn.close_prompt()
    gain_token(txn, n, TOKEN_KINDS[index])


def _story_result(txn: Txn, n: int, damage: int | None, defense: int) -> None:
    """OS-SCOMBAT-3..5: beat the DEFENSE or lose 1 HP; the fight is won whatever happens."""
    ok, lost = rules.story_fight_result(damage, defense)
    lose_hp(txn, n, lost)
    fight = {**(rec(txn.state).fight or {}), str(n): ok}
    txn.put("last", StoryResult(n, ok, damage or 0, lost))
    txn.notice(f"seat {n} {'succeeds' if ok else 'fails and loses 1 HP'}")
    owing = fight_owing(txn.state, fight)
    if not owing:
        txn.notice("the fight is won (OS-SCOMBAT-5)")
        txn.put("fight", None)
        txn.put("fight_defense", None)
    else:
        txn.put("fight", fight)
        txn.notice("still to attack in this round of combat: " + ", ".join(f"seat {k}" for k in owing))


def fight_owing(state: GameState, fight: Mapping[str, bool] | None = None) -> list[int]:
    """OS-SCOMBAT-1: the Oathsworn (alive) who have not drawn their attack in the open round of combat."""
    done = rec(state).fight if fight is None else fight
    if not done:
        return []
    return [k for k in SEATS if str(k) not in done and not seat(state, k).dead]


# --- enemy attacks -------------------------------------------------------------------------------

def enemy(txn: Txn, a: Args) -> None:
    """``enemy SEATS [COLOURS...] [broken] [minion=NAME,NAME] [shield=N] [def=N] [= CARDS]`` (OS-EATK-1..6,
    OS-MIN-7).

    SEATS is one seat or several joined by commas (one draw for all, OS-EATK-5). Without colours
    the boss draws its own MIGHT from the encounter data (OS-EATK-2), one strongest card less when the
    stage or reaction card attacks from a broken location (OS-EATK-1); colours name another
    attacker's (a stage card's, or with ``minion=`` a minion's). A draw without ``minion=`` is the
    owed stage or reaction card's attack, the first owed in draw order. A device draw leaves the
    defense to the targeted seats, one prompt each, after the damage is known (OS-TOK-4, OS-EATK-3:
    ``defend`` plays a card for its shield). Reported cards carry the table's decision on the line:
    ``def`` tokens for each target, ``shield`` a defensive card's DEFENSE (one target only)."""
    if not in_encounter(txn.state):
        raise Rejected("enemy attacks happen in an encounter")
    if rec(txn.state).enemy_hit is not None:
        raise Rejected("the last enemy attack still waits for the defense prompt")
    targets = list(a.nums("SEAT"))
    if len(set(targets)) != len(targets):
        raise Rejected("name each targeted seat once")
    for n in targets:
        if not has_figure(txn.state, n):
            raise Rejected(f"seat {n} has no figure on the board to attack")
    shield = a.num("shield", 0)
    tokens = a.num("def", 0)
    if shield < 0 or tokens < 0:
        raise Rejected("shield and def cannot be negative")
    if shield and len(targets) > 1:
        raise Rejected("a defensive card protects only the Oathsworn who played it: name one target with "
                       "shield=N, or let the device draw and answer each seat's defense prompt")
    attackers = _attacking_minions(txn, a)
    own = not a.words("COLOUR")
    colours = list(a.words("COLOUR")) or boss_might(txn)
    if a.flag("broken") or (own and _from_broken(txn)):
        colours = rules.broken_attack(colours)
        txn.notice("a broken location attacks: one card of the strongest colour less (OS-EATK-1)")
    _owed_attack(txn, attackers)
    colours = sorted(colours, key=COLOURS.index, reverse=True)
    cards = list(a.cards)
    drawn = draw_with_chains(txn, "enemy", colours, cards, chains=False)
    damage = rules.enemy_damage([parse_card(c) for c, _ in drawn])
    txn.notice(f"enemy draws {' '.join(c for c, _ in drawn) or 'nothing'}: damage {damage}")
    if cards or a.has("def") or a.has("shield"):
        losses = {}
        for n in targets:
            if tokens:
                spend_token(txn, n, "defense", tokens)
            losses[str(n)] = _suffer(txn, n, damage, shield + tokens)
        txn.put("last", EnemyResult(damage, losses))
        check_end(txn)
        return
    txn.put("enemy_hit", EnemyHit(damage, tuple(targets), {}, {}))
    _ask_defense(txn)


def _attacking_minions(txn: Txn, a: Args) -> tuple[str, ...]:
    """``minion=NAME``: the draw is a minion's attack (OS-MIN-3), or ``minion=A,B`` mob minions' pooled
    one (OS-MIN-7), with the MIGHT its card shows typed as colours; it is no stage or reaction card's."""
    names = a.words("minion")
    if not names:
        return ()
    roster = rec(txn.state).minions
    for name in names:
        if name not in roster:
            raise Rejected(f"no minion {name!r} on the board (minions: {', '.join(roster) or 'none'})")
    if len(set(names)) != len(names):
        raise Rejected("name each attacking minion once")
    if len(names) > 1 and not all(roster[name].mob for name in names):
        raise Rejected("only mob minions pool their MIGHT into one draw (OS-MIN-7): one minion= per draw")
    if not a.words("COLOUR"):
        raise Rejected("name the minion's MIGHT colours from its card, e.g. enemy 1 R W minion=" + names[0])
    return names


def _owed_attack(txn: Txn, minions: Sequence[str]) -> None:
    """The owed stage or reaction card's attack (OS-STAGE-1, OS-BRK-2) is settled only by its own draw:
    a minion's attack, even one the stage card activated (OS-MIN-1), leaves it owed."""
    due = rec(txn.state).attacks_due
    if minions:
        if due:
            txn.notice(f"minion {', '.join(minions)} attacks; {stage_label(txn.state, due[0])} still owes its attack")
        return
    if due:
        txn.put("attacks_due", due[1:])
        txn.notice(f"{stage_label(txn.state, due[0])}: its owed attack is drawn")


def _suffer(txn: Txn, n: int, damage: int, bonus: int) -> int:
    defense = txn.value(seat_track(n, "defense")) + bonus
    lost = rules.hp_lost(damage, defense)
    txn.notice(f"seat {n}: DEFENSE {defense} -> {lost} HP lost")
    lose_hp(txn, n, lost)
    return lost


def _ask_defense(txn: Txn) -> None:
    """The next targeted seat decides its defense, or the attack is settled."""
    hit = rec(txn.state).enemy_hit
    if hit is None:
        return
    pending = [n for n in hit.targets if str(n) not in hit.losses]
    if not pending:
        txn.put("enemy_hit", None)
        txn.put("last", EnemyResult(hit.damage, hit.losses))
        check_end(txn)
        return
    n = pending[0]
    damage = hit.damage
    defense = txn.value(seat_track(n, "defense")) + hit.shield.get(str(n), 0)
    choices = rules.defense_choices(damage, defense, seat(txn.state, n).tokens.get("defense", 0))
    if not choices:  # no HP to lose: nothing to decide, no token to waste
        lost = _suffer(txn, n, damage, hit.shield.get(str(n), 0))
        txn.put("enemy_hit", replace(hit, losses={**hit.losses, str(n): lost}))
        _ask_defense(txn)
        return
    options = [f"take {choices[0]} HP"]
    options += [f"{k} def token{'s' if k > 1 else ''}: {lost} HP" for k, lost in enumerate(choices) if k]
    txn.ask("defense", f"Seat {n}: damage {damage} vs DEF {defense}", options, seat=n, context={"seat": n})


def choose_defense(txn: Txn, index: int) -> None:
    """OS-TOK-4: the answer is how many defense tokens the seat spends (option 1: none)."""
    n, _ = take_prompt_seat(txn)
    if index:
        spend_token(txn, n, "defense", index)
    hit = _open_hit(txn)
    lost = _suffer(txn, n, hit.damage, hit.shield.get(str(n), 0) + index)
    txn.put("enemy_hit", replace(hit, losses={**hit.losses, str(n): lost}))
    _ask_defense(txn)


def defend(txn: Txn, a: Args) -> None:
    """``defend SEAT CARD [COOLDOWN] DEFENSE``: OS-EATK-3: the seat being asked plays one hand ability
    card for its shield: no animus, no other effect; the card takes its cooldown position (with
    battleflow) and the bonus counts for that seat's DEFENSE against this draw only."""
    prompt = txn.state.prompt
    n = a.num("SEAT")
    if prompt is None or prompt.id != "defense" or prompt.seat != n:
        raise Rejected(f"seat {n} is not deciding its defense against an enemy draw now")
    hit = _open_hit(txn)
    if str(n) in hit.shield:
        raise Rejected(f"seat {n} already played a defensive card against this attack")
    record = seat(txn.state, n)
    if record.kind == "companion" or record.ally:
        raise Rejected("only Oathsworn with ability cards defend with a card")
    card = a.word("CARD")
    known = record.cards
    if a.has("COOLDOWN"):
        cooldown = a.num("COOLDOWN")
        if card in known and known[card] != cooldown:
            raise Rejected(f"{card} has cooldown {known[card]}, not {cooldown}")
    elif card in known:
        cooldown = known[card]
    else:
        raise Rejected(f"name {card}'s cooldown: defend SEAT CARD COOLDOWN DEFENSE")
    if known and card not in record.hand:
        raise Rejected(f"{card} is not in seat {n}'s hand")
    if any(card in p for p in record.positions):
        raise Rejected(f"{card} is still on cooldown")
    shield = a.num("DEFENSE")
    if shield < 1:
        raise Rejected("a defensive card adds at least 1 DEFENSE")
    in_hand = tuple(c for c in record.hand if c != card)
    positions, hand = rules.cooldown_place(record.positions, in_hand, card, cooldown)
    record = replace(record, positions=positions, hand=hand)
    put_seat(txn, n, record)
    txn.put("enemy_hit", replace(hit, shield={**hit.shield, str(n): shield}))
    txn.close_prompt()
    _ask_defense(txn)


def _open_hit(txn: Txn) -> EnemyHit:
    hit = rec(txn.state).enemy_hit
    if hit is None:
        raise Rejected("no enemy attack waits for a defense")
    return hit


def _from_broken(txn: Txn) -> bool:
    """OS-EATK-1: the stage or reaction card now attacking names a location that is broken, so the
    boss's own MIGHT loses one card of its strongest colour without the table having to say so."""
    record = rec(txn.state)
    card = record.attacks_due[0] if record.attacks_due else record.attack_card  # the first owed, in draw order
    if card is None:
        return False
    attacker = encounter_of(txn.state).card(card).attack
    return attacker is not None and broken(txn.state, attacker)


def boss_might(txn: Txn) -> list[str]:
    """OS-EATK-2: the boss's MIGHT cards as the encounter data gives them."""
    colours = list(encounter_of(txn.state).might)
    if not colours:
        raise Rejected("the encounter data gives no MIGHT for the boss: name the colours (enemy SEAT R Y ...)")
    return colours


def _story_fight_defense(txn: Txn, defense: int) -> None:
    """OS-SCOMBAT-1: one round of combat is against one enemy: every attack in it meets the same DEFENSE."""
    record = rec(txn.state)
    if record.fight and record.fight_defense not in (None, defense):
        raise Rejected(f"this round of combat is against DEFENSE {record.fight_defense}")
    txn.put("fight_defense", defense)


VERBS: dict[str, GameVerb] = {v.usage.split()[0]: v for v in (
    verb(f"check {WHO} DIFFICULTY WHITES[,WHITES] [type=WORD] [emp=N] [empower=N] [up=N,N] [= CARDS]",
         "a check: draw white cards (OS-CHECK)", check),
    verb("attack SEAT TARGET [white=N] [emp=N] [empower=N] [up=N,N] [bonus=N] [unarmed] [item] [interrupt] "
         "[= CARDS]", "an attack (story: TARGET is the enemy DEFENSE)", attack, in_fight=True),
    verb("redraw INDEX [SEAT] [= CARDS]", "replace a drawn card (trait redraw or token)", redraw, in_fight=True),
    verb("resolve", "settle the open check or attack", resolve, in_fight=True),
    verb("escape SEAT DIFFICULTY WHITES [friends=N] [= CARDS]", "try to escape a cage", escape),
    verb("enemy SEAT[,SEAT] [COLOUR...] [broken] [minion=NAME,NAME] [shield=N] [def=N] [= CARDS]",
         "an enemy attack on one or more seats", enemy),
    verb("defend SEAT CARD [COOLDOWN] DEFENSE", "play a card for its shield against the enemy draw", defend,
         answers=("defense",)),
)}
