"""Ranger turns and rests, fatigue, injuries, Ranger cards, aspects and gear."""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn, parse_int, parse_seat, want
from tablekeeper.core.tracks import Counter, seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import engine, rules, tables
from tablekeeper.games.earthborne.data import ASPECTS
from tablekeeper.games.earthborne.parsing import guard, no_extra, seat_or_active, split_args
from tablekeeper.games.earthborne.record import Aspects, DayEndTiming, rec


def check_free(txn: Txn) -> None:
    """Refuse a new action while a prompt, an open step, a clear or a test is unfinished."""
    if txn.state.prompt is not None:
        raise Rejected(flowmod.answer_first(txn.state))
    reason = engine.busy(txn.state)
    if reason:
        raise Rejected(reason)


def end_turn(txn: Txn) -> None:
    """A Ranger's turn ends; a day end waiting for it happens now (ER-INJURY-1).

    A turn is one action (ER-ROUND-1): one that ends with none taken was not a turn, so it does not
    count as the Ranger's last (ER-TURN-1), or a slip would let the Ranger before go twice in a row."""
    state = txn.state
    seat = state.active_seat
    if seat is None:
        return
    info = tables.turns(state)
    if info.acted is None:
        txn.notice(f"seat {seat}'s turn ends with no action taken: it does not count as a turn")
    else:
        txn.put("turns", replace(info, last=seat, acted=None))
    flowmod.move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=None)
    pending = tables.day_end(txn.state)
    if pending is not None and pending.timing == "end_of_current_turn":
        tables.end_day(txn, pending.reason)


def begin_turn(txn: Txn, seat: int, exhaust_role: bool) -> None:
    """ER-TURN-1: who may go next; exhausting the role card lets a Ranger go twice in a row."""
    state = txn.state
    if state.phase != "turns":
        raise Rejected("Ranger turns happen in phase 2 (Ranger turns)")
    check_free(txn)
    if state.active_seat == seat and not exhaust_role:
        acted = tables.turns(state).acted
        raise Rejected(f"seat {seat}'s turn is already under way" + (f" (it {acted})" if acted else "")
                       + ": next ends it")
    if state.active_seat is not None:
        end_turn(txn)
        guard(txn)
    info = tables.turns(txn.state)
    role_ready = seat not in info.role_exhausted
    reason = rules.turn_refusal(seat, last=info.last, rested=info.rested, seats=state.seats,
                                exhaust_role=exhaust_role, role_ready=role_ready)
    if reason:
        raise Rejected(reason)
    if exhaust_role:
        if not role_ready:
            raise Rejected(f"seat {seat}'s role card is already exhausted")
        info = replace(info, role_exhausted=(*info.role_exhausted, seat))
    txn.put("turns", replace(info, acted=None))
    st = txn.state
    flowmod.move(txn, round_no=st.round, phase=st.phase, step=st.step, seat=seat)


def take_action(txn: Txn, seat: int, action: str) -> None:
    """ER-ROUND-1: a turn is exactly one action (a test, a Ranger card, or rest). A seat acting with
    no turn of its own open begins one (ER-TURN-1 decides whether it may); a second action in the
    same turn is refused, so ``next`` must end the turn first."""
    if txn.state.active_seat == seat:
        acted = tables.turns(txn.state).acted
        if acted:
            raise Rejected(f"seat {seat} already {acted} this turn: a turn is one action (a test, a Ranger "
                           "card, or rest); next ends it")
    else:
        begin_turn(txn, seat, False)
        txn.notice(f"seat {seat}'s turn begins")
    txn.put("turns", replace(tables.turns(txn.state), acted=action))


def turn_verb(txn: Txn, args: tuple[str, ...]) -> None:
    if not 1 <= len(args) <= 2 or (len(args) == 2 and args[1] != "role"):
        raise Rejected("usage: turn SEAT [role]")
    begin_turn(txn, parse_seat(txn.state, args[0]), len(args) == 2)


def rest_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-REST-1: resting ends the Ranger's turns this round; 1 fatigue per injury."""
    if len(args) > 1:
        raise Rejected("usage: rest [SEAT]")
    seat = seat_or_active(txn.state, args[0] if args else None)
    check_free(txn)
    take_action(txn, seat, "rested")
    for response in rec(txn.state).responses:
        if response.window == "rest" and response.seat == seat:
            tables.log(txn, response.label)
            txn.notice(f"seat {seat}: {response.label} (when you rest)")
    injuries = txn.state.value(seat_track(seat, "injury"))
    if injuries:
        suffer(txn, seat, injuries, "1 per injury, resting")
    info = tables.turns(txn.state)
    txn.put("turns", replace(info, rested=(*info.rested, seat)))
    tables.log(txn, f"seat {seat} rests")
    end_turn(txn)


def next_verb(txn: Txn, args: tuple[str, ...], flow: flowmod.Flow) -> None:
    """``next``: end the active Ranger's turn, or move the round on once nothing is pending."""
    want(args, 0, "next")
    guard(txn)
    check_free(txn)
    if txn.state.phase == "turns" and txn.state.active_seat is not None:
        end_turn(txn)
        return
    flowmod.advance(txn, flow)


# --- Rangers ----------------------------------------------------------------------------------------

def suffer(txn: Txn, seat: int, amount: int, why: str = "") -> bool:
    """ER-FATIGUE-1: move cards from the Ranger deck to the fatigue stack; too few ends the day.
    Says what happened either way; False when the day ended."""
    deck = txn.state.value(seat_track(seat, "deck"))
    because = f" ({why})" if why else ""
    if deck < amount:
        tables.log(txn, f"seat {seat} cannot suffer {amount} fatigue")
        txn.notice(f"seat {seat} must suffer {amount} fatigue{because} but has {deck} card(s) in the deck")
        tables.end_day(txn, "too_fatigued")
        return False
    tables.add_tokens(txn, seat_track(seat, "deck"), -amount)
    tables.add_tokens(txn, seat_track(seat, "fatigue"), amount)
    tables.log(txn, f"seat {seat} suffers {amount} fatigue")
    txn.notice(f"seat {seat} suffers {amount} fatigue{because}: {amount} card(s) from the deck to the fatigue stack")
    return True


def fatigue_verb(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "fatigue SEAT N")
    amount = parse_int(args[1], "fatigue")
    if amount < 1:
        raise Rejected("fatigue: suffer at least 1")
    suffer(txn, parse_seat(txn.state, args[0]), amount)
    engine.end_of_command(txn)


def soothe_verb(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "soothe SEAT N")
    seat = parse_seat(txn.state, args[0])
    amount = min(parse_int(args[1], "soothe"), txn.state.value(seat_track(seat, "fatigue")))
    if amount < 1:
        raise Rejected(f"seat {seat} has no fatigue to soothe")
    tables.add_tokens(txn, seat_track(seat, "fatigue"), -amount)
    tables.add_tokens(txn, seat_track(seat, "hand"), amount)


def injure_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-INJURY-1: +1 injury, the fatigue stack is discarded; the last one ends the day after the turn."""
    want(args, 1, "injure SEAT")
    seat = parse_seat(txn.state, args[0])
    limit = tables.rule(txn.state).injury_limit
    injuries = txn.state.value(seat_track(seat, "injury")) + 1
    tables.set_tokens(txn, seat_track(seat, "injury"), min(injuries, limit))
    tables.set_tokens(txn, seat_track(seat, "fatigue"), 0)
    tables.log(txn, f"seat {seat} is injured ({injuries})")
    if injuries >= limit:
        txn.notice(f"seat {seat}: add a Lingering Injury card to the deck if one is left")
        timing: DayEndTiming = "end_of_current_turn" if txn.state.active_seat is not None else "now"
        tables.end_day(txn, "third_injury", timing)
    engine.end_of_command(txn)


def ranger_draw(txn: Txn, seat: int, amount: int) -> bool:
    """Draw Ranger cards; an empty deck ends the day (ER-REFRESH-1). False if the day ended."""
    deck = txn.state.value(seat_track(seat, "deck"))
    if deck < amount:
        tables.end_day(txn, "cannot_draw")
        return False
    tables.add_tokens(txn, seat_track(seat, "deck"), -amount)
    tables.add_tokens(txn, seat_track(seat, "hand"), amount)
    tables.log(txn, f"seat {seat} draws {amount}")
    return True


def rdraw_verb(txn: Txn, args: tuple[str, ...]) -> None:
    if not 1 <= len(args) <= 2:
        raise Rejected("usage: rdraw SEAT [N]")
    amount = parse_int(args[1], "cards") if len(args) == 2 else 1
    ranger_draw(txn, parse_seat(txn.state, args[0]), amount)
    engine.end_of_command(txn)


def aspects_verb(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 5, "aspects SEAT AWA FIT SPI FOC")
    seat = parse_seat(txn.state, args[0])
    values = {a: parse_int(v, a.upper()) for a, v in zip(ASPECTS, args[1:], strict=True)}
    if any(v < 0 for v in values.values()):
        raise Rejected("aspects cannot be negative")
    txn.put("aspects", {**rec(txn.state).aspects, str(seat): Aspects(**values)})
    if txn.state.round == 1 and txn.state.phase == "path":
        # ER-SETUP-1: entered during the day's setup, the aspects are also round 1's energy
        for aspect, value in values.items():
            tables.set_tokens(txn, seat_track(seat, aspect), value)
        txn.notice(f"seat {seat}: aspects and energy {' '.join(f'{a.upper()} {v}' for a, v in values.items())}")


def play_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """Phase 2: a Ranger's turn may be playing a Ranger card from hand, paying its energy cost;
    gear (``equip=N``) goes to the player area against the equip limit (ER-GEAR-1)."""
    words, options = split_args(args)
    if len(words) < 2:
        raise Rejected("usage: play SEAT NAME [cost=ASPECT:N] [equip=N]")
    no_extra(options, ("cost", "equip"), "play")
    seat = parse_seat(txn.state, words[0])
    name = " ".join(words[1:])  # the card's words, quoted or not
    aspect, _, amount_text = options.get("cost", "awa:0").partition(":")
    aspect = aspect.lower()
    if aspect not in ASPECTS:
        raise Rejected(f"play: cost must be ASPECT:N with ASPECT one of {', '.join(a.upper() for a in ASPECTS)}")
    cost = parse_int(amount_text or "0", "cost")
    equip = parse_int(options["equip"], "equip value") if "equip" in options else None
    if txn.state.phase != "turns":
        raise Rejected("playing a Ranger card is a turn action: phase 2 (Ranger turns)")
    if txn.state.value(seat_track(seat, "hand")) < 1:
        raise Rejected(f"seat {seat} has no card in hand")
    have = txn.state.value(seat_track(seat, aspect))
    if cost < 0 or have < cost:
        raise Rejected(f"seat {seat} has {have} {aspect.upper()} energy: cannot pay {cost}")
    check_free(txn)
    take_action(txn, seat, f"played {name}")
    tables.add_tokens(txn, seat_track(seat, "hand"), -1)
    if cost:
        tables.add_tokens(txn, seat_track(seat, aspect), -cost)
    tables.log(txn, f"seat {seat} plays {name}")
    txn.notice(f"seat {seat} plays {name}" + (f" for {cost} {aspect.upper()}" if cost else "")
               + f"; {txn.state.value(seat_track(seat, 'hand'))} card(s) left in hand")
    if equip is not None:
        equip_gear(txn, seat, name, equip)
    engine.end_of_command(txn)


def equip_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-GEAR-1: equipping past the limit asks which gear to discard until it fits."""
    if len(args) < 3:
        raise Rejected("usage: equip SEAT NAME VALUE")
    equip_gear(txn, parse_seat(txn.state, args[0]), " ".join(args[1:-1]), parse_int(args[-1], "equip value"))


def equip_gear(txn: Txn, seat: int, name: str, value: int) -> None:
    gear = rec(txn.state).gear
    txn.put("gear", {**gear, str(seat): {**gear.get(str(seat), {}), name: value}})
    ask_gear(txn, seat)


def ask_gear(txn: Txn, seat: int) -> None:
    mine = rec(txn.state).gear.get(str(seat), {})
    limit = tables.rule(txn.state).equip_limit
    if rules.over_equip(mine, limit):
        names = list(mine)
        txn.ask("gear.discard", f"Seat {seat} equips {sum(mine.values())} > {limit}: discard which gear?",
                [f"{n} ({mine[n]})" for n in names], seat=seat, context={"seat": seat, "gear": names})


def choose_gear(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    seat = int(prompt.context["seat"])
    name = str(prompt.context["gear"][index])
    txn.close_prompt()
    gear = rec(txn.state).gear
    txn.put("gear", {**gear, str(seat): {n: v for n, v in gear[str(seat)].items() if n != name}})
    txn.notice(f"seat {seat} discards {name}")
    ask_gear(txn, seat)



def counter_defs(seats: int, aspects: dict[str, dict[str, int]], deck: int, hand: int) -> dict[str, Counter]:
    """ER-SETUP-1: each Ranger's energy equals the aspects, the hand is drawn from the deck."""
    tracks: dict[str, Counter] = {}
    for seat in range(1, seats + 1):
        for aspect in ASPECTS:
            tracks[seat_track(seat, aspect)] = Counter(aspects[str(seat)][aspect], 0)
        tracks[seat_track(seat, "fatigue")] = Counter(0, 0)
        tracks[seat_track(seat, "injury")] = Counter(0, 0)
        tracks[seat_track(seat, "deck")] = Counter(deck - hand, 0)
        tracks[seat_track(seat, "hand")] = Counter(hand, 0)
    return tracks
