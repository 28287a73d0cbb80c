"""Encounter rounds: refresh, Oathsworn turns (animus, cooldowns, battleflow), the stage deck with
broken locations and reactions, unconsciousness and allies, defeat/replay and the tally
(OS-RND, OS-ANIM, OS-CD, OS-BRK, OS-STAGE, OS-KO, OS-END, OS-TALLY)."""

from __future__ import annotations

from typing import Any

from tablekeeper.core.chance import Deck
from tablekeeper.core.flow import move
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn, Verb, parse_int
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_KINDS,
    check_end,
    data_of,
    difficulty,
    in_encounter,
    parse_kv,
    put_seat,
    seat,
    seat_arg,
    spend_token,
    update_defense,
)

# --- flow hooks --------------------------------------------------------------------------------

def refresh(txn: Txn) -> None:
    """OS-RND-3: everyone at once: regenerate animus (REGEN, companions and allies 2, limited by the
    reserve), cooldown-0 ability cards back to hand, companion cubes cleared."""
    for n in SEATS:
        record = seat(txn.state, n)
        if record["down"] and not record.get("ally"):
            continue
        regen = 2 if (record["kind"] == "companion" or record.get("ally")) else txn.value(f"seat{n}.regen")
        _, available = rules.regenerate(txn.value(f"seat{n}.animus_reserve"), txn.value(f"seat{n}.animus"), regen)
        txn.set(f"seat{n}.animus", available)
        record = seat(txn.state, n)
        positions, hand = rules.cooldown_refresh(_positions(record), tuple(record["hand"]), record["items"])
        record["positions"] = [list(p) for p in positions]
        record["hand"] = list(hand)
        record["cubes"] = []
        put_seat(txn, n, record)
    txn.notice("refresh: animus regenerated, cooldown-0 cards back in hand")


def turn_start(txn: Txn) -> None:
    """OS-RND-5/7: a fresh turn: one move, one ability card; on the first turn of a round every
    injury card in hand must be played first."""
    n = txn.state.active_seat
    if n is None:
        return
    record = seat(txn.state, n)
    first = record["last_round"] != txn.state.round
    record.update(moved=False, ability=False, acted=None, last_round=txn.state.round, consumed_attacked=False)
    if first:
        record["injuries_due"] = 0 if record["kind"] == "companion" else int(record["injuries"])
    put_seat(txn, n, record)


def oathsworn_end(txn: Txn) -> None:
    """OS-STAT-3: crippled tokens expire when their Oathsworn phase finishes."""
    for n in SEATS:
        record = seat(txn.state, n)
        if record["crippled_until"] is not None and record["crippled_until"] <= txn.state.round:
            record["crippled_until"] = None
            put_seat(txn, n, record)
            txn.notice(f"seat {n} is no longer crippled")


def stage_card(txn: Txn) -> None:
    """OS-STAGE-1/2/4: resolve the faceup stage card, then turn the next one faceup."""
    if not in_encounter(txn.state):
        return
    card = txn.state.get("stage_faceup") or _draw_stage(txn)
    if card is None:
        return
    txn.put("stage_current", card)
    txn.put("stage_faceup", None)
    txn.notice(f"stage card {card}: targeting, enemy movement, enemy attacks")
    flip_stage(txn)


def minions(txn: Txn) -> None:
    """OS-MIN-1: minions not activated by the stage card activate now (closest to target first)."""
    if not in_encounter(txn.state):
        return
    roster = dict(thaw(txn.state.get("minions") or {}))
    due = [name for name, m in roster.items() if not m["activated"]]
    txn.put("minions_due", due)
    txn.notice("activate: " + (", ".join(due) if due else "no minion"))
    for m in roster.values():
        m["activated"] = False
    if roster:
        txn.put("minions", roster)


def end_of_round(txn: Txn) -> None:
    """OS-RND-8 / OS-FX-5: end-of-round effects; kept stage cards go to the discard; cages end."""
    kept = list(txn.state.get("stage_kept") or ())
    if kept:
        txn.notice("stage cards kept until end of round discarded: " + " ".join(kept))
        txn.put("stage_kept", [])
    for n in SEATS:
        record = seat(txn.state, n)
        if record["caged_until"] is not None and record["caged_until"] <= txn.state.round:
            record["caged_until"] = None
            put_seat(txn, n, record)
            txn.notice(f"seat {n} never escaped: the cage's failure effect applies and the cage ends")


def _draw_stage(txn: Txn) -> str | None:
    deck = txn.game.source(txn.state, "stage")
    if isinstance(deck, Deck) and deck.remaining == 0:
        txn.emit("stage.rebuild", source="stage", keep=list(txn.state.get("stage_kept") or ()))
        txn.notice("stage deck empty: rebuilt from the discarded stage 3 cards (OS-STAGE-6)")
        deck = txn.game.source(txn.state, "stage")
        if isinstance(deck, Deck) and deck.remaining == 0:
            txn.notice("no stage 3 cards to rebuild the deck")
            return None
    return txn.draw("stage")


def flip_stage(txn: Txn) -> None:
    """OS-ESET-4 / OS-STAGE-4: the next card of the deck lies faceup on top."""
    card = _draw_stage(txn)
    txn.put("stage_faceup", card)


def _positions(record: dict[str, Any]) -> rules.Positions:
    p = record["positions"]
    return (tuple(p[0]), tuple(p[1]), tuple(p[2]), tuple(p[3]))


# --- HP, unconsciousness, breaks -----------------------------------------------------------------

def knocked_out(txn: Txn, n: int) -> None:
    """OS-KO-1 / OS-HC-1 / OS-KO-5: at 0 HP an Oathsworn is unconscious (killed in hardcore) and
    leaves the board; an ally at 0 HP is killed."""
    state = txn.state
    if state.get("secret") or not in_encounter(state):
        if not state.get("secret"):
            txn.notice(f"seat {n} is at 0 HP in the story part (AMB-10: no rule; play on)")
        return
    record = seat(state, n)
    if record.get("ally"):
        txn.put("dead_allies", [*(state.get("dead_allies") or ()), record["ally"]])
        txn.notice(f"seat {n}'s ally {record['ally']} is killed; choose another combat ally next turn")
        record["ally"] = None
        put_seat(txn, n, record)
        return
    record["down"] = True
    record["ko"] = True
    if state.get("hardcore"):
        record["dead"] = True
        txn.put("hardcore_dead", [*(state.get("hardcore_dead") or ()), record["class"]])
        txn.notice(f"seat {n} ({record['class']}) is killed (hardcore)")
    else:
        txn.notice(f"seat {n} ({record['class']}) is unconscious; model removed")
    put_seat(txn, n, record)
    check_end(txn)


def retune_hp_max(txn: Txn, n: int, hp_max: int) -> None:
    txn.define(f"seat{n}.hp", min(txn.value(f"seat{n}.hp"), hp_max), 0, hp_max)


def location_broken(txn: Txn, location: str) -> None:
    """OS-BRK-1: a removed boss die breaks its location (the procedure waits while several dice are
    removed at once, OS-BRK-7)."""
    if not in_encounter(txn.state):
        return
    txn.put("breaks", int(txn.state.get("breaks") or 0) + 1)
    txn.put("broken", [*(txn.state.get("broken") or ()), location])
    txn.notice(f"{location} is broken")
    if txn.state.get("breaking"):
        return
    check_end(txn)
    if in_encounter(txn.state):
        break_procedure(txn, 1)


def break_procedure(txn: Txn, count: int) -> None:
    """OS-BRK-2/7: one stage change check, old-stage cards to the discard, a rebuild if the deck is
    empty, then one reaction card per broken location against the breaker, in the order drawn, each
    followed by the next card turned faceup."""
    breaks = int(txn.state.get("breaks") or 0)
    after = data_of(txn.state).stage_after_breaks
    new_stage = 1 + sum(1 for b in after if breaks >= b)
    old_stage = int(txn.state.get("stage_now") or 1)
    if new_stage > old_stage:
        txn.put("stage_now", new_stage)
        txn.emit("stage.drop", source="stage", below=new_stage)
        faceup = txn.state.get("stage_faceup")
        if faceup and int(str(faceup)[1]) < new_stage:
            txn.put("stage_faceup", None)
        txn.notice(f"stage {new_stage} begins: earlier stage cards discarded")
    for _ in range(count):
        card = txn.state.get("stage_faceup") or _draw_stage(txn)
        if card is None:
            return
        txn.put("stage_faceup", None)
        breaker = txn.state.get("breaker")
        txn.put("reactions", [*(txn.state.get("reactions") or ()), {"card": card, "target": breaker}])
        txn.notice(f"reaction {card} targets " + (f"seat {breaker}" if breaker else "the breaker"))
        flip_stage(txn)


def choose_defeat(txn: Txn, index: int) -> None:
    """OS-END-3/4/6: replay (score fixed at 4 + modifier, fresh setup) or move on (tokens discarded)."""
    txn.close_prompt()
    if index == 1:
        for n in SEATS:
            record = seat(txn.state, n)
            record["tokens"] = dict.fromkeys(TOKEN_KINDS, 0)
            put_seat(txn, n, record)
        txn.notice("moving on: combat tokens discarded; next: tally")
        return
    replay(txn)


def replay(txn: Txn) -> None:
    state = txn.state
    diff = difficulty(state)
    if state.get("knockouts_fixed") is None:
        score = rules.replay_score(diff)
        txn.put("knockouts_fixed", score)
        txn.add("knockouts", score)
    txn.put("attempt", int(state.get("attempt") or 1) + 1)
    txn.put("dead_allies", [])  # OS-KO-5: killed allies return to the ally deck
    dead = set(state.get("hardcore_dead") or ())
    txn.put("hardcore_dead", [])  # OS-HC-4: replaying prevents the deaths of that attempt
    for n in SEATS:
        record = seat(txn.state, n)
        record.update(down=False, dead=False, ko=False, ally=None, tokens=dict.fromkeys(TOKEN_KINDS, 0),
                      positions=[[], [], [], []], crippled_until=None, caged_until=None, bleed=0, thrown=[],
                      last_round=0, cubes=[])
        for kind, marks in record.get("permanent", {}).items():
            record["tokens"][kind] = int(marks)
        put_seat(txn, n, record)
        txn.set(f"seat{n}.hp", diff.max_hp)
        txn.set(f"seat{n}.animus", 0)
        update_defense(txn, n)
    for name, _ in data_of(state).boss:
        txn.set(f"boss.{name}", 6)
    txn.emit("stage.reset", source="stage")
    from tablekeeper.games.oathsworn.story import reset_all_might
    reset_all_might(txn)
    txn.put("breaks", 0)
    txn.put("broken", [])
    txn.put("stage_now", 1)
    txn.put("stage_kept", [])
    txn.put("part", "encounter")
    txn.put("result", None)
    txn.notice(f"replay: {sorted(dead) or 'nobody'} spared; each Oathsworn takes any 3 combat tokens (token SEAT KIND)")
    flip_stage(txn)
    first = "refresh" if not state.get("ambushed") else "encounter"
    move(txn, round_no=1, phase=first, step="refresh" if first == "refresh" else "stage", seat=None)
    if first == "refresh":
        refresh(txn)
    else:
        stage_card(txn)


# --- verbs ---------------------------------------------------------------------------------------

def _turn_seat(txn: Txn, text: str) -> tuple[int, dict[str, Any]]:
    n = seat_arg(text)
    record = seat(txn.state, n)
    if record["down"] and not record.get("ally"):
        raise Rejected(f"seat {n} has no figure on the board")
    if not in_encounter(txn.state):
        raise Rejected("this happens in an encounter")
    return n, record


def _my_turn(txn: Txn, n: int) -> None:
    if txn.state.step != "turns" or txn.state.active_seat != n:
        raise Rejected(f"it is not seat {n}'s turn")


def _not_consumed(record: dict[str, Any], n: int) -> None:
    if record.get("consumed"):
        raise Rejected(f"seat {n} is consumed: no movement and no cards (OS-FX-12)")


def _injuries_first(record: dict[str, Any], n: int) -> None:
    if record["injuries_due"]:
        raise Rejected(f"seat {n} must play {record['injuries_due']} injury card(s) first (OS-RND-7)")


def move_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``move SEAT STEPS [free=N]``: the turn's move action, 1 animus per step (OS-MOVE-1/2)."""
    if len(args) not in (2, 3):
        raise Rejected("usage: move SEAT STEPS [free=N]")
    n, record = _turn_seat(txn, args[0])
    _my_turn(txn, n)
    _injuries_first(record, n)
    _not_consumed(record, n)
    if record["moved"]:
        raise Rejected(f"seat {n} already took its move action this turn")
    if record["crippled_until"] is not None:
        raise Rejected(f"seat {n} is crippled and cannot move (OS-STAT-3)")
    if record["caged_until"] is not None:
        raise Rejected(f"seat {n} is caged (OS-FX-3)")
    steps = parse_int(args[1], "steps")
    free = parse_int(args[2].removeprefix("free="), "free") if len(args) == 3 else 0
    cost = max(0, steps - free)
    rules.spend(txn.value(f"seat{n}.animus_reserve"), txn.value(f"seat{n}.animus"), cost)
    record["moved"] = True
    put_seat(txn, n, record)
    txn.add(f"seat{n}.animus", -cost)


def play(txn: Txn, args: tuple[str, ...]) -> None:
    """``play SEAT CARD COOLDOWN [COST] [interrupt]``: one ability card per turn: pay, resolve,
    cooldown, battleflow (OS-CD-1/3/5/9, OS-RND-5); interrupts play whenever their condition holds,
    as often as they are paid for (OS-FX-21)."""
    interrupt = bool(args) and args[-1] == "interrupt"
    if interrupt:
        args = args[:-1]
    if len(args) not in (3, 4):
        raise Rejected("usage: play SEAT CARD COOLDOWN [COST] [interrupt]")
    n, record = _turn_seat(txn, args[0])
    if not interrupt:
        _my_turn(txn, n)
        _injuries_first(record, n)
    _not_consumed(record, n)
    if record["kind"] == "companion":
        raise Rejected("companions use archetype abilities (ability SEAT A|B), not ability cards")
    if record["ability"] and not interrupt:
        raise Rejected(f"seat {n} already played an ability card this turn")
    card, cd = args[1], parse_int(args[2], "cooldown")
    cost = parse_int(args[3], "cost") if len(args) == 4 else 0
    if any(card in p for p in record["positions"]):
        raise Rejected(f"{card} is still on cooldown")
    rules.spend(txn.value(f"seat{n}.animus_reserve"), txn.value(f"seat{n}.animus"), cost)
    positions, hand = rules.cooldown_place(_positions(record), tuple(c for c in record["hand"] if c != card), card, cd)
    record.update(positions=[list(p) for p in positions], hand=list(hand), ability=record["ability"] or not interrupt)
    put_seat(txn, n, record)
    txn.add(f"seat{n}.animus", -cost)


def item(txn: Txn, args: tuple[str, ...]) -> None:
    """``item SEAT ITEM``: pay the item's animus, then it goes on its cooldown without battleflow
    (OS-RND-6, OS-CD-6); a companion flips it facedown instead (OS-COMP-3)."""
    if len(args) < 2:
        raise Rejected("usage: item SEAT ITEM")
    args = (args[0], " ".join(args[1:]))
    n, record = _turn_seat(txn, args[0])
    _not_consumed(record, n)
    if args[1] not in record["items"]:
        raise Rejected(f"seat {n} has no {args[1]} equipped")
    it = data_of(txn.state).item(args[1])
    used = list(record.get("used_items", []))
    if record["kind"] == "companion":
        if args[1] in used:
            raise Rejected(f"{args[1]} is facedown: a companion uses each item ability once per encounter")
        record["used_items"] = [*used, args[1]]
        put_seat(txn, n, record)
        return
    if any(args[1] in p for p in record["positions"]):
        raise Rejected(f"{args[1]} is on cooldown")
    rules.spend(txn.value(f"seat{n}.animus_reserve"), txn.value(f"seat{n}.animus"), it.cost)
    positions, hand = rules.cooldown_place(_positions(record), tuple(record["hand"]), args[1], it.cooldown,
                                           battleflow=False)
    record.update(positions=[list(p) for p in positions], hand=list(hand), used_items=sorted({*used, args[1]}))
    put_seat(txn, n, record)
    txn.add(f"seat{n}.animus", -it.cost)


def injury(txn: Txn, args: tuple[str, ...]) -> None:
    """``injury SEAT``: play one injury card from hand (OS-RND-7)."""
    if len(args) != 1:
        raise Rejected("usage: injury SEAT")
    n, record = _turn_seat(txn, args[0])
    _not_consumed(record, n)
    if not record["injuries_due"]:
        raise Rejected(f"seat {n} has no injury card left to play this round")
    record["injuries_due"] -= 1
    put_seat(txn, n, record)


def boost(txn: Txn, args: tuple[str, ...]) -> None:
    """``boost SEAT``: a +2 animus token (OS-TOK-2, AMB-32)."""
    if len(args) != 1:
        raise Rejected("usage: boost SEAT")
    n, record = _turn_seat(txn, args[0])
    if record["kind"] == "companion" or record.get("ally"):
        raise Rejected("companions and allies spend +2 animus tokens as an action (companion SEAT ACTION)")
    spend_token(txn, n, "animus")
    _, available = rules.animus_token(txn.value(f"seat{n}.animus_reserve"), txn.value(f"seat{n}.animus"))
    txn.set(f"seat{n}.animus", available)


def battleflow(txn: Txn, args: tuple[str, ...]) -> None:
    """``battleflow SEAT POSITION``: a battleflow token moves one cooldown position (OS-TOK-3)."""
    if len(args) != 2:
        raise Rejected("usage: battleflow SEAT POSITION")
    n, record = _turn_seat(txn, args[0])
    if record["kind"] == "companion" or record.get("ally"):
        raise Rejected("companions and allies spend battleflow tokens as an action (companion SEAT ACTION)")
    p = parse_int(args[1], "position")
    if not 0 <= p <= 3:
        raise Rejected("cooldown positions are 0 to 3")
    spend_token(txn, n, "battleflow")
    record = seat(txn.state, n)
    positions, hand = rules.battleflow_token(_positions(record), tuple(record["hand"]), p)
    record.update(positions=[list(x) for x in positions], hand=list(hand))
    put_seat(txn, n, record)


def companion_action(txn: Txn, args: tuple[str, ...]) -> None:
    """``companion SEAT KIND move|attack|refresh``: a companion or ally spends a +2 animus or
    battleflow token on its turn to move 2, attack or refresh the MIGHT decks (OS-TOK-7)."""
    if len(args) != 3 or args[1] not in ("animus", "battleflow") or args[2] not in ("move", "attack", "refresh"):
        raise Rejected("usage: companion SEAT animus|battleflow move|attack|refresh")
    n, record = _turn_seat(txn, args[0])
    _my_turn(txn, n)
    if record["kind"] != "companion" and not record.get("ally"):
        raise Rejected("only companions and allies use tokens this way")
    spend_token(txn, n, args[1])
    if args[2] == "refresh":
        from tablekeeper.games.oathsworn.story import refresh_might
        refresh_might(txn, ("white", "yellow", "red", "black"))
    else:
        if args[2] == "attack":
            record = seat(txn.state, n)
            record["token_attack"] = True  # OS-TOK-7: this attack never triggers determination
            put_seat(txn, n, record)
        txn.notice(f"seat {n}: {'move 2 hexes' if args[2] == 'move' else 'make an attack'} at no animus cost")


def ability(txn: Txn, args: tuple[str, ...]) -> None:
    """``ability SEAT A|B [interrupt]``: a companion archetype ability, once per round each (cube);
    on its turn it counts as the turn's attack-or-special (OS-COMP-1/2). ``ability SEAT once``: an
    ally's once-per-encounter ability, marked with a cube (OS-KO-4)."""
    if len(args) == 2 and args[1] == "once":
        n, record = _turn_seat(txn, args[0])
        if not record.get("ally"):
            raise Rejected("once-per-encounter abilities belong to allies")
        if record.get("ally_once"):
            raise Rejected(f"{record['ally']} already used its once-per-encounter ability")
        record["ally_once"] = True
        put_seat(txn, n, record)
        return
    if len(args) not in (2, 3) or args[1] not in ("A", "B"):
        raise Rejected("usage: ability SEAT A|B [interrupt] | ability SEAT once")
    n, record = _turn_seat(txn, args[0])
    if record["kind"] != "companion":
        raise Rejected("archetype abilities belong to companions")
    if args[1] in record["cubes"]:
        raise Rejected(f"ability {args[1]} already used this round")
    if txn.state.step == "turns" and txn.state.active_seat == n and len(args) == 2:
        if record.get("acted"):
            raise Rejected(f"seat {n} already attacked or used its special ability this turn")
        record["acted"] = "ability"
    record["cubes"] = [*record["cubes"], args[1]]
    put_seat(txn, n, record)


def ally(txn: Txn, args: tuple[str, ...]) -> None:
    """``ally SEAT NAME``: an unconscious Oathsworn's player takes a combat ally: HP die at 6 (capped
    by the difficulty, AMB-7), 2 animus available, DEFENSE from the ally card (OS-KO-3/6)."""
    if len(args) != 2:
        raise Rejected("usage: ally SEAT NAME")
    n = seat_arg(args[0])
    record = seat(txn.state, n)
    if not record["down"]:
        raise Rejected(f"seat {n}'s Oathsworn is still conscious")
    if record.get("ally"):
        raise Rejected(f"seat {n} already plays {record['ally']}")
    if record["dead"] and not txn.state.get("hardcore"):
        raise Rejected(f"seat {n} cannot take an ally")
    d = data_of(txn.state)
    spec = d.allies.get(args[1])
    if spec is None or not spec["combat"]:
        raise Rejected(f"{args[1]} is not a combat ally (non-combat allies never enter encounters)")
    in_deck = list(txn.state.get("allies") or ())
    used = [seat(txn.state, k).get("ally") for k in SEATS] + list(txn.state.get("dead_allies") or ())
    if in_deck.count(args[1]) <= used.count(args[1]):
        raise Rejected(f"no {args[1]} left in the company's ally deck")
    record.update(ally=args[1], tokens=dict.fromkeys(TOKEN_KINDS, 0), max_animus=2, positions=[[], [], [], []],
                  ally_once=False)
    put_seat(txn, n, record)
    txn.define(f"seat{n}.animus", 2, 0, 2)
    txn.define(f"seat{n}.animus_reserve", 0, 0, 2)
    txn.set(f"seat{n}.hp", min(6, txn.value(f"seat{n}.hp_max")))
    update_defense(txn, n)


def injure(txn: Txn, args: tuple[str, ...]) -> None:
    """``injure SEAT``: the Oathsworn draws an injury card into hand (played per OS-RND-7)."""
    if len(args) != 1:
        raise Rejected("usage: injure SEAT")
    n = seat_arg(args[0])
    record = seat(txn.state, n)
    record["injuries"] = int(record["injuries"]) + 1
    put_seat(txn, n, record)


def permanent(txn: Txn, args: tuple[str, ...]) -> None:
    """``permanent SEAT KIND``: mark a permanent token (max 3 per type, OS-LVL-9); it also gives
    its combat token now (OS-PERM-1)."""
    if len(args) != 2 or args[1] not in TOKEN_KINDS:
        raise Rejected(f"usage: permanent SEAT {'|'.join(TOKEN_KINDS)}")
    n = seat_arg(args[0])
    record = seat(txn.state, n)
    record["permanent"] = rules.add_permanent(dict(record.get("permanent", {})), args[1])
    record["tokens"][args[1]] = int(record["tokens"].get(args[1], 0)) + 1
    put_seat(txn, n, record)


def throw(txn: Txn, args: tuple[str, ...]) -> None:
    """``throw SEAT ITEM`` / ``pickup SEAT ITEM``: a thrown item's DEFENSE and MIGHT are gone until
    it is picked up; a thrown weapon makes attacks unarmed (OS-FX-19)."""
    if len(args) < 2:
        raise Rejected("usage: throw SEAT ITEM")
    args = (args[0], " ".join(args[1:]))
    n, record = _turn_seat(txn, args[0])
    if args[1] not in record["items"] or args[1] in record["thrown"]:
        raise Rejected(f"seat {n} holds no {args[1]} to throw")
    record["thrown"] = [*record["thrown"], args[1]]
    put_seat(txn, n, record)
    update_defense(txn, n)


def pickup(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) < 2:
        raise Rejected("usage: pickup SEAT ITEM")
    args = (args[0], " ".join(args[1:]))
    n, record = _turn_seat(txn, args[0])
    if args[1] not in record["thrown"]:
        raise Rejected(f"seat {n} has no thrown {args[1]}")
    record["thrown"] = [t for t in record["thrown"] if t != args[1]]
    put_seat(txn, n, record)
    update_defense(txn, n)


def break_location(txn: Txn, args: tuple[str, ...]) -> None:
    """``break LOCATION[,LOCATION] [SEAT]``: dice removed by any cause (collision, fire, an AoE) break
    their locations (OS-BRK-1); several at once share one stage check (OS-BRK-7)."""
    if len(args) not in (1, 2):
        raise Rejected("usage: break LOCATION[,LOCATION] [SEAT]")
    locations = [x for x in args[0].split(",") if x]
    for loc in locations:
        if f"boss.{loc}" not in txn.state.tracks:
            raise Rejected(f"no boss location {loc!r}")
        if txn.value(f"boss.{loc}") == 0:
            raise Rejected(f"{loc} is already broken")
    if len(args) == 2:
        txn.put("breaker", seat_arg(args[1]))
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


def minion(txn: Txn, args: tuple[str, ...]) -> None:
    """``minion NAME HP DEFENSE [mob]``: a minion enters with its own HP slot (OS-DMG-4, M9)."""
    if len(args) not in (3, 4) or (len(args) == 4 and args[3] != "mob"):
        raise Rejected("usage: minion NAME HP DEFENSE [mob]")
    if not in_encounter(txn.state):
        raise Rejected("minions enter in an encounter")
    name = args[0]
    minions = dict(thaw(txn.state.get("minions") or {}))
    if name in minions or f"boss.{name}" in txn.state.tracks or name.isdigit():
        raise Rejected(f"{name!r} is already taken")
    hp, defense = parse_int(args[1], "HP"), parse_int(args[2], "DEFENSE")
    if hp < 1 or defense < 1:
        raise Rejected("a minion has at least 1 HP and DEFENSE 1")
    minions[name] = {"defense": defense, "mob": len(args) == 4, "activated": False}
    txn.put("minions", minions)
    txn.define(f"minion.{name}", hp, 0, hp)


def minion_gone(txn: Txn, name: str) -> None:
    """OS-DMG-4: a minion whose HP is gone leaves the board (no reaction, OS-BRK-4)."""
    minions = dict(thaw(txn.state.get("minions") or {}))
    minions.pop(name, None)
    txn.put("minions", minions)
    txn.drop(f"minion.{name}")
    txn.notice(f"minion {name} is removed from the board")


def activated(txn: Txn, args: tuple[str, ...]) -> None:
    """``activated NAME...``: the stage card moved or attacked with these minions (OS-MIN-1)."""
    if not args or txn.state.step != "stage":
        raise Rejected("usage: activated NAME... (during the stage card)")
    minions = dict(thaw(txn.state.get("minions") or {}))
    for name in args:
        if name not in minions:
            raise Rejected(f"no minion {name!r}")
        minions[name]["activated"] = True
    txn.put("minions", minions)


def keep(txn: Txn, args: tuple[str, ...]) -> None:
    """``keep``: the current stage card lasts until the end of the round (OS-STAGE-2)."""
    if args:
        raise Rejected("usage: keep")
    card = txn.state.get("stage_current")
    if not card:
        raise Rejected("no stage card has been resolved yet")
    txn.put("stage_kept", [*(txn.state.get("stage_kept") or ()), card])


def status(txn: Txn, args: tuple[str, ...]) -> None:
    """``status SEAT crippled|caged|bleed N``: status tokens with their timing (OS-STAT, OS-FX-3)."""
    if len(args) < 2:
        raise Rejected("usage: status SEAT crippled|caged|bleed [N]")
    n = seat_arg(args[0])
    record = seat(txn.state, n)
    phase = txn.state.phase
    if args[1] == "crippled":
        record["crippled_until"] = rules.crippled_until(txn.state.round, phase)
    elif args[1] == "caged":
        record["caged_until"] = rules.caged_until(txn.state.round)
    elif args[1] == "consumed":
        if len(args) != 3 or f"boss.{args[2]}" not in txn.state.tracks:
            raise Rejected("usage: status SEAT consumed LOCATION")
        record.update(consumed=args[2], consumed_hp=0)
        txn.notice(f"seat {n} is consumed by {args[2]} and leaves the board")
    elif args[1] == "bleed":
        record["bleed"] = int(record["bleed"]) + (parse_int(args[2], "bleed") if len(args) > 2 else 1)
    else:
        raise Rejected("status: crippled, caged, consumed or bleed")
    put_seat(txn, n, record)


def bleed(txn: Txn, args: tuple[str, ...]) -> None:
    """``bleed SEAT N``: a bleed trigger: the bearer loses N HP (only when triggered, OS-STAT-2)."""
    if len(args) != 2:
        raise Rejected("usage: bleed SEAT N")
    n = seat_arg(args[0])
    if not seat(txn.state, n)["bleed"]:
        raise Rejected(f"seat {n} has no bleed token")
    txn.set(f"seat{n}.hp", rules.lose_hp(txn.value(f"seat{n}.hp"), parse_int(args[1], "HP")))


def fire(txn: Txn, args: tuple[str, ...]) -> None:
    """``fire SEAT``: entering a fire tile removes it and costs 1 HP (OS-MOVE-4)."""
    if len(args) != 1:
        raise Rejected("usage: fire SEAT")
    n = seat_arg(args[0])
    txn.set(f"seat{n}.hp", rules.lose_hp(txn.value(f"seat{n}.hp"), 1))


def plan(txn: Txn, args: tuple[str, ...]) -> None:
    """``plan SEAT TARGET [white=N] [empower=N] [redraws=N] [unarmed]``: the attack the display
    shows exact odds for (``plan off`` clears it)."""
    if args == ("off",):
        txn.put("plan", None)
        return
    pos, opts, _ = parse_kv(args, ("white", "empower", "redraws", "unarmed", "bonus"))
    if len(pos) != 2:
        raise Rejected("usage: plan SEAT TARGET [white=N] [empower=N] [redraws=N] [unarmed] | plan off")
    n = seat_arg(pos[0])
    if not pos[1].isdigit() and pos[1] not in dict(data_of(txn.state).boss):
        raise Rejected(f"target is a DEFENSE number or a boss location, not {pos[1]!r}")
    txn.put("plan", {"seat": n, "target": pos[1], **{k: int(v) if v.isdigit() else 0 for k, v in opts.items()}})


def tally(txn: Txn, args: tuple[str, ...]) -> None:
    """``tally [scavenger=0|1] [uniques=N]``: Tally Level, Loot and Losses, in order (OS-TALLY-1..10)."""
    if txn.state.get("part") != "epilogue" or txn.state.prompt is not None:
        raise Rejected("the tally comes after the encounter has ended")
    opts = dict(a.split("=", 1) for a in args if "=" in a)
    state = txn.state
    diff = difficulty(state)
    traits = dict(state.get("traits") or {})
    scavenger = "scavenger" in traits or opts.get("scavenger") == "1"
    commons, uniques = rules.loot_counts(diff, scavenger, bool(state.get("extra_unique")))
    unique_deck = parse_int(opts.get("uniques", str(uniques)), "uniques")
    got_unique, fallback = rules.uniques_drawn(uniques, unique_deck)
    downs = [n for n in SEATS if seat(state, n)["ko"]]
    ticks = 0
    if state.get("knockouts_fixed") is None:
        ticks = rules.ko_ticks(len(downs), diff)
        txn.add("knockouts", ticks)
    hardcore = bool(state.get("hardcore"))
    injuries = [n for n in SEATS if rules.injury_due(txn.value(f"seat{n}.hp"), seat(state, n)["ko"], hardcore)]
    losses = {str(n): rules.items_lost(seat(state, n)["ko"]) for n in SEATS}
    archived_items: dict[str, list[str]] = {}
    for n in SEATS:
        record = seat(txn.state, n)
        if record["dead"]:
            archived_items[str(n)] = list(record["items"])  # OS-HC-3: items go, iron stays
            record["items"] = []
        record["level"] = int(record["level"]) + 1
        if n in injuries:
            record["injuries"] = int(record["injuries"]) + 1
        record["tokens"] = dict.fromkeys(TOKEN_KINDS, 0)  # OS-TOK-1: unused tokens discarded
        put_seat(txn, n, record)
    archived = list(state.get("dead_allies") or ())
    result = {"commons": commons, "uniques": got_unique, "common_fallback": fallback, "ko_ticks": ticks,
              "injuries": injuries, "items_lost": losses, "allies_archived": archived,
              "common_deck": f"chapter {int(state.get('chapter')) + 1}",
              "unique_deck": f"chapter {int(state.get('chapter')) + 1}", "archived_items": archived_items}
    txn.put("tally", result)
    txn.notice(f"level up; loot {commons} common + {got_unique} unique (+{fallback} common); "
               f"{ticks} knockout tick(s); injuries for seats {injuries or 'none'}")
    txn.end(str(state.get("result")))


VERBS = {
    "move": Verb("move SEAT STEPS [free=N]", "the turn's move action (1 animus per step)", move_verb),
    "play": Verb("play SEAT CARD COOLDOWN [COST]", "play an ability card", play),
    "item": Verb("item SEAT ITEM", "use an item ability", item),
    "injury": Verb("injury SEAT", "play an injury card", injury),
    "boost": Verb("boost SEAT", "spend a +2 animus token", boost),
    "battleflow": Verb("battleflow SEAT POSITION", "spend a battleflow token", battleflow),
    "companion": Verb("companion SEAT animus|battleflow move|attack|refresh", "companion token action",
                      companion_action),
    "ability": Verb("ability SEAT A|B [interrupt]", "a companion archetype ability", ability),
    "ally": Verb("ally SEAT NAME", "take a combat ally after a knockout", ally),
    "injure": Verb("injure SEAT", "draw an injury card", injure),
    "permanent": Verb("permanent SEAT KIND", "mark a permanent token", permanent),
    "throw": Verb("throw SEAT ITEM", "throw an item", throw),
    "pickup": Verb("pickup SEAT ITEM", "pick a thrown item up", pickup),
    "break": Verb("break LOCATION [SEAT]", "a boss die removed by another cause", break_location),
    "minion": Verb("minion NAME HP DEFENSE [mob]", "a minion enters the board", minion),
    "activated": Verb("activated NAME...", "minions the stage card activated", activated),
    "keep": Verb("keep", "keep the stage card until end of round", keep),
    "status": Verb("status SEAT crippled|caged|bleed [N]", "gain a status token", status),
    "bleed": Verb("bleed SEAT N", "a bleed trigger", bleed),
    "fire": Verb("fire SEAT", "enter a fire tile", fire),
    "plan": Verb("plan SEAT TARGET [white=N] [empower=N] [redraws=N]", "show exact attack odds", plan),
    "tally": Verb("tally [scavenger=1] [uniques=N]", "Tally Level, Loot and Losses", tally),
}
