"""What a seat does during the encounter: moving, ability and item cards with cooldowns and
battleflow, combat and status tokens, companions and allies (OS-RND-5..7, OS-ANIM, OS-CD, OS-TOK,
OS-COMP, OS-KO-3/4, OS-STAT, OS-FX-12/19)."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.args import Args, GameVerb, verb
from tablekeeper.games.oathsworn.cards import COLOURS
from tablekeeper.games.oathsworn.decks import refresh_colours
from tablekeeper.games.oathsworn.record import NO_POSITIONS, Archetype, SeatRecord, rec
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_KINDS,
    data_of,
    encounter_setup,
    in_encounter,
    put_seat,
    seat,
    spend_token,
    take_prompt_seat,
    update_defense,
)


def _turn_seat(txn: Txn, n: int) -> tuple[int, SeatRecord]:
    record = seat(txn.state, n)
    if record.down and not record.ally:
        raise Rejected(f"seat {n} has no figure on the board")
    if not in_encounter(txn.state):
        raise Rejected("this happens in an encounter")
    return n, record


def _my_turn(txn: Txn, n: int) -> None:
    if txn.state.step != "turns" or txn.state.active_seat != n:
        raise Rejected(f"it is not seat {n}'s turn")


def _not_consumed(record: SeatRecord, n: int) -> None:
    if record.consumed:
        raise Rejected(f"seat {n} is consumed: no movement and no cards (OS-FX-12)")


def not_caged(record: SeatRecord, n: int, what: str) -> None:
    """OS-FX-3: a caged character does nothing but pass or try to escape."""
    if record.caged_until is not None:
        raise Rejected(f"seat {n} is caged: no {what}, only pass or escape (OS-FX-3)")


def not_crippled(record: SeatRecord, n: int) -> None:
    """OS-STAT-3: no movement of any kind, from the move action, abilities or tokens."""
    if record.crippled_until is not None:
        raise Rejected(f"seat {n} is crippled and cannot move (OS-STAT-3)")


def on_turn_or_interrupt(txn: Txn, n: int, interrupt: bool, what: str) -> None:
    """OS-FX-21: on another player's turn only interrupts are usable."""
    if not interrupt and (txn.state.step != "turns" or txn.state.active_seat != n):
        raise Rejected(f"it is not seat {n}'s turn: only an interrupt {what} now (add: interrupt)")


def _injuries_first(record: SeatRecord, n: int) -> None:
    if record.injuries_due:
        raise Rejected(f"seat {n} must play {record.injuries_due} injury card(s) first (OS-RND-7)")


def move_verb(txn: Txn, a: Args) -> None:
    """``move SEAT STEPS [free=N]``: the turn's move action, 1 animus per step (OS-MOVE-1/2)."""
    n, record = _turn_seat(txn, a.num("SEAT"))
    _my_turn(txn, n)
    _injuries_first(record, n)
    _not_consumed(record, n)
    if record.moved:
        raise Rejected(f"seat {n} already took its move action this turn")
    not_crippled(record, n)
    not_caged(record, n, "movement")
    cost = max(0, a.num("STEPS") - a.num("free", 0))
    rules.spend(txn.value(seat_track(n, "animus_reserve")), txn.value(seat_track(n, "animus")), cost)
    put_seat(txn, n, replace(record, moved=True))
    txn.add(seat_track(n, "animus"), -cost)


def play(txn: Txn, a: Args) -> None:
    """``play SEAT CARD [COOLDOWN] [COST] [interrupt]``: one ability card per turn: pay, resolve,
    cooldown, battleflow (OS-CD-1/3/5/9, OS-RND-5); interrupts play whenever their condition holds,
    as often as they are paid for (OS-FX-21). A card of a declared hand knows its cooldown, so a lone
    number is then its cost."""
    interrupt = a.flag("interrupt")
    n, record = _turn_seat(txn, a.num("SEAT"))
    known = record.cards
    card = a.word("CARD")
    numbers = [a.num(key) for key in ("COOLDOWN", "COST") if a.has(key)]
    if card in known:
        if len(numbers) == 2 and numbers[0] != known[card]:
            raise Rejected(f"{card} has cooldown {known[card]}, not {numbers[0]}")
        numbers = [known[card], *numbers[-1:]] if len(numbers) <= 2 else numbers
        if card not in record.hand:
            raise Rejected(f"{card} is not in seat {n}'s hand")
    elif known:
        raise Rejected(f"{card} is not one of seat {n}'s ability cards ({', '.join(known)})")
    if not numbers:
        raise Rejected(f"name {card}'s cooldown: play SEAT CARD COOLDOWN [COST]")
    if not interrupt:
        _my_turn(txn, n)
        _injuries_first(record, n)
    _not_consumed(record, n)
    not_caged(record, n, "ability cards")
    if record.kind == "companion":
        raise Rejected("companions use archetype abilities (ability SEAT 1|2), not ability cards")
    if record.ability and not interrupt:
        raise Rejected(f"seat {n} already played an ability card this turn")
    cd = numbers[0]
    cost = numbers[1] if len(numbers) == 2 else 0
    if any(card in p for p in record.positions):
        raise Rejected(f"{card} is still on cooldown")
    rules.spend(txn.value(seat_track(n, "animus_reserve")), txn.value(seat_track(n, "animus")), cost)
    in_hand = tuple(c for c in record.hand if c != card)
    positions, hand = rules.cooldown_place(record.positions, in_hand, card, cd)
    record = replace(record, positions=positions, hand=hand,
                     ability=record.ability or not interrupt)
    put_seat(txn, n, record)
    txn.add(seat_track(n, "animus"), -cost)


def item(txn: Txn, a: Args) -> None:
    """``item SEAT ITEM [interrupt]``: pay the item's animus, then it goes on its cooldown without
    battleflow (OS-RND-6, OS-CD-6); a companion flips it facedown instead (OS-COMP-3)."""
    name = a.word("ITEM")
    n, record = _turn_seat(txn, a.num("SEAT"))
    _not_consumed(record, n)
    not_caged(record, n, "item abilities")
    on_turn_or_interrupt(txn, n, a.flag("interrupt"), "item ability")
    if name not in record.items:
        raise Rejected(f"seat {n} has no {name} equipped")
    it = data_of(txn.state).item(name)
    used = list(record.used_items)
    if record.kind == "companion":
        if name in used:
            raise Rejected(f"{name} is facedown: a companion uses each item ability once per encounter")
        put_seat(txn, n, replace(record, used_items=(*used, name)))
        return
    if any(name in p for p in record.positions):
        raise Rejected(f"{name} is on cooldown")
    rules.spend(txn.value(seat_track(n, "animus_reserve")), txn.value(seat_track(n, "animus")), it.cost)
    positions, hand = rules.cooldown_place(record.positions, record.hand, name, it.cooldown,
                                           battleflow=False)
    record = replace(record, positions=positions, hand=hand,
                     used_items=tuple(sorted({*used, name})))
    put_seat(txn, n, record)
    txn.add(seat_track(n, "animus"), -it.cost)


def injury(txn: Txn, a: Args) -> None:
    """``injury SEAT``: play one injury card from hand (OS-RND-7)."""
    n, record = _turn_seat(txn, a.num("SEAT"))
    _not_consumed(record, n)
    if not record.injuries_due:
        raise Rejected(f"seat {n} has no injury card left to play this round")
    put_seat(txn, n, replace(record, injuries_due=record.injuries_due - 1))


def boost(txn: Txn, a: Args) -> None:
    """``boost SEAT``: a +2 animus token (OS-TOK-2, AMB-32)."""
    n, record = _turn_seat(txn, a.num("SEAT"))
    not_caged(record, n, "tokens")
    if record.kind == "companion" or record.ally:
        raise Rejected("companions and allies spend +2 animus tokens as an action (companion SEAT ACTION)")
    spend_token(txn, n, "animus")
    _, available = rules.animus_token(txn.value(seat_track(n, "animus_reserve")), txn.value(seat_track(n, "animus")))
    txn.set(seat_track(n, "animus"), available)


def battleflow(txn: Txn, a: Args) -> None:
    """``battleflow SEAT POSITION``: a battleflow token moves one cooldown position (OS-TOK-3)."""
    n, record = _turn_seat(txn, a.num("SEAT"))
    not_caged(record, n, "tokens")
    if record.kind == "companion" or record.ally:
        raise Rejected("companions and allies spend battleflow tokens as an action (companion SEAT ACTION)")
    p = a.num("POSITION")
    if not 0 <= p <= 3:
        raise Rejected("cooldown positions are 0 to 3")
    spend_token(txn, n, "battleflow")
    record = seat(txn.state, n)
    positions, hand = rules.battleflow_token(record.positions, record.hand, p)
    record = replace(record, positions=positions, hand=hand)
    put_seat(txn, n, record)


def companion_action(txn: Txn, a: Args) -> None:
    """``companion SEAT KIND move|attack|refresh``: a companion or ally spends a +2 animus or
    battleflow token on its turn to move 2, attack or refresh the MIGHT decks (OS-TOK-7)."""
    kind, action = a.word("animus|battleflow"), a.word("move|attack|refresh")
    n, record = _turn_seat(txn, a.num("SEAT"))
    _my_turn(txn, n)
    if record.kind != "companion" and not record.ally:
        raise Rejected("only companions and allies use tokens this way")
    not_caged(record, n, "token actions")
    if action == "move":
        not_crippled(record, n)
    if action == "attack" and record.token_attack:
        raise Rejected(f"seat {n} already has a token attack to make")
    spend_token(txn, n, kind)
    if action == "refresh":
        refresh_colours(txn, COLOURS)
    else:
        if action == "attack":
            # OS-TOK-7: this attack never triggers determination
            put_seat(txn, n, replace(seat(txn.state, n), token_attack=True))
        txn.notice(f"seat {n}: {'move 2 hexes' if action == 'move' else 'make an attack'} at no animus cost")


def ability(txn: Txn, a: Args) -> None:
    """``ability SEAT [SIDE]1|2 [interrupt]``: one of the two abilities on the companion's archetype
    card side, once per round each (cube); on its turn it counts as the turn's attack-or-special
    (OS-COMP-1/2); naming a side (``B2``) checks it is the side chosen (OS-ESET-8).
    ``ability SEAT once``: an ally's once-per-encounter ability, marked with a cube (OS-KO-4)."""
    interrupt = a.flag("interrupt")
    if a.has("once"):
        n, record = _turn_seat(txn, a.num("SEAT"))
        not_caged(record, n, "abilities")
        on_turn_or_interrupt(txn, n, interrupt, "ability")
        if not record.ally:
            raise Rejected("once-per-encounter abilities belong to allies")
        if record.ally_once:
            raise Rejected(f"{record.ally} already used its once-per-encounter ability")
        put_seat(txn, n, replace(record, ally_once=True))
        return
    named = a.word(ABILITY_SLOTS)
    slot, side = named[-1], named[:-1]
    n, record = _turn_seat(txn, a.num("SEAT"))
    if record.kind != "companion":
        raise Rejected("archetype abilities belong to companions")
    not_caged(record, n, "abilities")
    chosen = record.archetype.side if record.archetype else None
    if side and chosen and side != chosen:
        raise Rejected(f"seat {n} chose side {chosen} of its archetype card: side {side} is not usable")
    printed = _printed_ability(txn, record, slot)
    if printed is not None:
        interrupt = interrupt or printed[1]  # the card says it is an interrupt (OS-COMP-2: no animus)
        txn.notice(f"seat {n}: {printed[0]}" + (" (interrupt)" if printed[1] else ""))
    on_turn_or_interrupt(txn, n, interrupt, "ability")
    if slot in record.cubes:
        raise Rejected(f"ability {slot} already used this round")
    if txn.state.step == "turns" and txn.state.active_seat == n and not interrupt:
        if record.acted:
            raise Rejected(f"seat {n} already attacked or used its special ability this turn")
        record = replace(record, acted="ability")
    put_seat(txn, n, replace(record, cubes=(*record.cubes, slot)))


def _printed_ability(txn: Txn, record: SeatRecord, slot: str) -> tuple[str, bool] | None:
    """The ability the companion's archetype card prints at this slot, when the data has the card."""
    chosen = record.archetype
    card = None if chosen is None else data_of(txn.state).archetypes.get(chosen.card)
    if card is None or chosen is None:
        return None
    return card.sides[chosen.side][int(slot) - 1]


def archetype(txn: Txn, a: Args) -> None:
    """``archetype SEAT CARD_NAME A|B``: the companion's archetype card side for this encounter
    (OS-ESET-8); a card the data lists is checked by name and its two abilities named."""
    n = a.num("SEAT")
    record = seat(txn.state, n)
    cards = data_of(txn.state).archetypes
    name = a.word("CARD_NAME")
    if cards and name not in cards:
        raise Rejected(f"no archetype card {name!r} in the data (cards: {', '.join(sorted(cards))})")
    if name in cards:
        abilities = cards[name].sides[a.word("A|B")]
        txn.notice(f"seat {n}: {name} side {a.word('A|B')}: " + " and ".join(ab for ab, _ in abilities)
                   + ("" if cards[name].verified else " (numbers not checked)"))
    if record.kind != "companion":
        raise Rejected("archetype cards belong to companions")
    if not encounter_setup(txn.state):
        raise Rejected("the archetype side is chosen during encounter setup")
    put_seat(txn, n, replace(record, archetype=Archetype(a.word("CARD_NAME"), a.word("A|B"))))


def allies_left(txn: Txn) -> list[str]:
    """Combat allies still in the company's ally deck (OS-KO-3/6)."""
    d = data_of(txn.state)
    in_deck = rec(txn.state).allies
    used = [seat(txn.state, k).ally for k in SEATS] + list(rec(txn.state).dead_allies)
    return sorted({a for a in in_deck if a in d.allies and d.allies[a].combat and in_deck.count(a) > used.count(a)})


def offer_ally(txn: Txn, n: int) -> None:
    """OS-KO-3: when a knocked-out Oathsworn's turn starts, its player picks a combat ally."""
    record = seat(txn.state, n)
    if not record.down or record.ally or (record.dead and not rec(txn.state).hardcore):
        return
    options = allies_left(txn)
    if not options:
        txn.notice(f"seat {n} is unconscious and no combat ally is left: the seat sits out")
        return
    txn.ask("ally", f"Seat {n} is out: which combat ally?", options, seat=n, context={"seat": n})


def choose_ally(txn: Txn, index: int) -> None:
    n, prompt = take_prompt_seat(txn)
    take_ally(txn, n, prompt.options[index])


def ally(txn: Txn, a: Args) -> None:
    """``ally SEAT ALLY``: an unconscious Oathsworn's player takes a combat ally (OS-KO-3/6); while
    that seat's ally question is open, this is its answer."""
    n = a.num("SEAT")
    prompt = txn.state.prompt
    if prompt is not None and prompt.id == "ally":
        if prompt.seat != n:
            raise Rejected(f"the open question is seat {prompt.seat}'s: answer it first")
        txn.close_prompt()
    take_ally(txn, n, a.word("ALLY"))


def take_ally(txn: Txn, n: int, name: str) -> None:
    """The ally enters: HP die at 6 (capped by the difficulty, AMB-7), 2 animus available, DEFENSE
    and MIGHT from the ally card (OS-KO-3/6)."""
    record = seat(txn.state, n)
    if not record.down:
        raise Rejected(f"seat {n}'s Oathsworn is still conscious")
    if record.ally:
        raise Rejected(f"seat {n} already plays {record.ally}")
    if record.dead and not rec(txn.state).hardcore:
        raise Rejected(f"seat {n} cannot take an ally")
    d = data_of(txn.state)
    spec = d.allies.get(name)
    if spec is None or not spec.combat:
        raise Rejected(f"{name} is not a combat ally (non-combat allies never enter encounters)")
    in_deck = rec(txn.state).allies
    used = [seat(txn.state, k).ally for k in SEATS] + list(rec(txn.state).dead_allies)
    if in_deck.count(name) <= used.count(name):
        raise Rejected(f"no {name} left in the company's ally deck")
    record = replace(record, ally=name, tokens=dict.fromkeys(TOKEN_KINDS, 0), max_animus=2,
                     positions=NO_POSITIONS, ally_once=False)
    put_seat(txn, n, record)
    txn.define(seat_track(n, "animus"), 2, 0, 2)
    txn.define(seat_track(n, "animus_reserve"), 0, 0, 2)
    txn.set(seat_track(n, "hp"), min(6, txn.value(seat_track(n, "hp_max"))))
    update_defense(txn, n)


def hand(txn: Txn, a: Args) -> None:
    """``hand SEAT CARD:COOLDOWN x7``: the encounter hand: one cooldown-0, two each of 1, 2 and 3
    (OS-ESET-5, OS-LVL-7); built during setup, before round 1's Oathsworn phase."""
    n = a.num("SEAT")
    record = seat(txn.state, n)
    if record.kind == "companion":
        raise Rejected("companions hold no ability cards (OS-ESET-8: an archetype card side instead)")
    if not encounter_setup(txn.state):
        raise Rejected("the hand is built during encounter setup")
    cards: dict[str, int] = {}
    for name, cooldown in a.pairs("CARD:COOLDOWN"):
        if name in cards:
            raise Rejected(f"{name} is listed twice")
        cards[name] = cooldown
    rules.check_hand(list(cards.values()))
    star = data_of(txn.state).star_cards.get(record.cls, ())
    if rec(txn.state).chapter == 1 and star and set(cards) != set(star):
        raise Rejected(f"in chapter 1 the {record.cls} plays its 7 starting cards: {', '.join(star)}")
    record = replace(record, cards=cards, hand=tuple(cards), positions=NO_POSITIONS)
    put_seat(txn, n, record)


FACING = "|".join(rules.HEX_DIRECTIONS)


def face(txn: Txn, a: Args) -> None:
    """``face SEAT DIRECTION``: free on your own turn, never while an effect is resolving (OS-MOVE-3)."""
    n, record = _turn_seat(txn, a.num("SEAT"))
    _my_turn(txn, n)
    if rec(txn.state).draws:
        raise Rejected("an effect is still resolving; turn once it is done")
    put_seat(txn, n, replace(record, facing=a.word(FACING)))


def injure(txn: Txn, a: Args) -> None:
    """``injure SEAT``: the Oathsworn draws an injury card into hand (played per OS-RND-7)."""
    n = a.num("SEAT")
    record = seat(txn.state, n)
    put_seat(txn, n, replace(record, injuries=record.injuries + 1))


def permanent(txn: Txn, a: Args) -> None:
    """``permanent SEAT KIND``: mark a permanent token (max 3 per type, OS-LVL-9); it also gives
    its combat token now (OS-PERM-1)."""
    n, kind = a.num("SEAT"), a.word(TOKEN_CHOICE)
    record = seat(txn.state, n)
    put_seat(txn, n, replace(record, permanent=rules.add_permanent(dict(record.permanent), kind),
                             tokens={**record.tokens, kind: record.tokens.get(kind, 0) + 1}))


def throw(txn: Txn, a: Args) -> None:
    """``throw SEAT ITEM`` / ``pickup SEAT ITEM``: a thrown item's DEFENSE and MIGHT are gone until
    it is picked up; a thrown weapon makes attacks unarmed (OS-FX-19)."""
    name = a.word("ITEM")
    n, record = _turn_seat(txn, a.num("SEAT"))
    not_caged(record, n, "throwing")
    if name not in record.items or name in record.thrown:
        raise Rejected(f"seat {n} holds no {name} to throw")
    put_seat(txn, n, replace(record, thrown=(*record.thrown, name)))
    update_defense(txn, n)


def pickup(txn: Txn, a: Args) -> None:
    name = a.word("ITEM")
    n, record = _turn_seat(txn, a.num("SEAT"))
    if name not in record.thrown:
        raise Rejected(f"seat {n} has no thrown {name}")
    put_seat(txn, n, replace(record, thrown=tuple(t for t in record.thrown if t != name)))
    update_defense(txn, n)


def status(txn: Txn, a: Args) -> None:
    """``status SEAT crippled|caged|bleed [N]|consumed LOCATION``: status tokens with their timing
    (OS-STAT, OS-FX-3)."""
    n = a.num("SEAT")
    record = seat(txn.state, n)
    if a.has("crippled|caged"):
        if a.word("crippled|caged") == "crippled":
            record = replace(record, crippled_until=rules.crippled_until(txn.state.round, txn.state.phase))
        else:
            record = replace(record, caged_until=rules.caged_until(txn.state.round))
    elif a.has("consumed"):
        location = a.word("LOCATION")
        if f"boss.{location}" not in txn.state.tracks:
            raise Rejected(f"no boss location {location!r}")
        record = replace(record, consumed=location, consumed_hp=0)
        txn.notice(f"seat {n} is consumed by {location} and leaves the board")
    else:
        record = replace(record, bleed=record.bleed + a.num("N", 1))
    put_seat(txn, n, record)


def bleed(txn: Txn, a: Args) -> None:
    """``bleed SEAT N``: a bleed trigger: the bearer loses N HP (only when triggered, OS-STAT-2)."""
    n = a.num("SEAT")
    if not seat(txn.state, n).bleed:
        raise Rejected(f"seat {n} has no bleed token")
    txn.set(seat_track(n, "hp"), rules.lose_hp(txn.value(seat_track(n, "hp")), a.num("N")))


def fire(txn: Txn, a: Args) -> None:
    """``fire SEAT``: entering a fire tile removes it and costs 1 HP (OS-MOVE-4)."""
    n = a.num("SEAT")
    txn.set(seat_track(n, "hp"), rules.lose_hp(txn.value(seat_track(n, "hp")), 1))


ABILITY_SLOTS = "1|2|A1|A2|B1|B2"
TOKEN_CHOICE = "|".join(TOKEN_KINDS)

VERBS: dict[str, GameVerb] = {v.usage.split()[0]: v for v in (
    verb("move SEAT STEPS [free=N]", "the turn's move action (1 animus per step)", move_verb),
    verb("play SEAT CARD [COOLDOWN] [COST] [interrupt]", "play an ability card", play),
    verb("item SEAT ITEM [interrupt]", "use an item ability", item),
    verb("injury SEAT", "play an injury card", injury),
    verb("boost SEAT", "spend a +2 animus token", boost),
    verb("battleflow SEAT POSITION", "spend a battleflow token", battleflow),
    verb("companion SEAT animus|battleflow move|attack|refresh", "companion token action", companion_action),
    verb(f"ability SEAT once [interrupt] | ability SEAT {ABILITY_SLOTS} [interrupt]",
         "a companion or ally ability", ability),
    verb("archetype SEAT CARD_NAME A|B", "a companion's archetype card side", archetype),
    verb("ally SEAT ALLY", "take a combat ally after a knockout", ally, answers=("ally",)),
    verb("hand SEAT CARD:COOLDOWN...", "the encounter hand of 7 ability cards", hand),
    verb(f"face SEAT {FACING}", "turn to face a hex direction (free)", face),
    verb("injure SEAT", "draw an injury card", injure),
    verb(f"permanent SEAT {TOKEN_CHOICE}", "mark a permanent token", permanent),
    verb("throw SEAT ITEM", "throw an item", throw),
    verb("pickup SEAT ITEM", "pick a thrown item up", pickup),
    verb("status SEAT crippled|caged | status SEAT bleed [N] | status SEAT consumed LOCATION",
         "gain a status token", status),
    verb("bleed SEAT N", "a bleed trigger", bleed),
    verb("fire SEAT", "enter a fire tile", fire),
)}
