"""The Earthborne verbs players (and scripts) use: cards and tokens, turns and rests, tests,
Rangers, travel and days. Each handler validates, then changes state through the transaction."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.chance import Deck
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn, parse_int, parse_seat, want
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import engine, rules, tables
from tablekeeper.games.earthborne.data import ASPECTS, CARD_TYPES, ICONS, parse_threshold
from tablekeeper.games.earthborne.odds import success_chance
from tablekeeper.games.earthborne.tables import Record

AREAS = ("along", "reach", "weather", "mission", "player")
RESPONSE_WINDOWS = (*engine.WINDOWS, "place-progress", "place-harm", "rest")


def split_args(args: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """Positional words and ``key=value`` options of a verb's arguments."""
    words: list[str] = []
    options: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key.isidentifier():
            options[key.lower()] = value
        else:
            words.append(arg)
    return words, options


def _no_extra(options: dict[str, str], allowed: tuple[str, ...], verb: str) -> None:
    extra = sorted(set(options) - set(allowed))
    if extra:
        raise Rejected(f"{verb}: unknown option {extra[0]}= (options: {', '.join(allowed) or 'none'})")


def guard(txn: Txn) -> None:
    """Nothing but ``newday`` (and undo) once the day has ended (ER-DAY-1)."""
    ended = tables.day_end(txn.state)
    if ended is not None and ended["timing"] == "now":
        raise Rejected(f"day {txn.state.value('day')} has ended ({ended['reason'].replace('_', ' ')}): use newday")


def threshold_text(text: str, what: str) -> str:
    try:
        return parse_threshold(text, what).text()
    except ValueError as exc:
        raise Rejected(str(exc)) from None


def _seat_or_active(state: GameState, text: str | None) -> int:
    if text is not None:
        return parse_seat(state, text)
    if state.active_seat is not None:
        return state.active_seat
    return state.lead


# --- cards and tokens -----------------------------------------------------------------------------

def add_card(txn: Txn, record: Record) -> str:
    number = int(txn.state.get("next_card", 1))
    key = f"card{number}"
    txn.put("next_card", number + 1)
    txn.define(f"{key}.progress", 0, lo=0)
    txn.define(f"{key}.harm", 0, lo=0)
    tables.put_card(txn, key, record)
    where = {"reach": f"within reach of seat {record['seat']}", "player": f"seat {record['seat']}'s area",
             "along": "along the way"}.get(record["area"], record["area"])
    txn.notice(f"{key}: {record['name']} ({where}) progress {record['progress']}, harm {record['harm']}")
    return key


def card_record(state: GameState, name: str, options: dict[str, str], flags: list[str]) -> Record:
    """A card's record from the path catalogue (if it is listed) and the options given."""
    spec = tables.cfg(state)["path"].get(name) or next(
        (c for n, c in tables.cfg(state)["path"].items() if n.lower() == name.lower()), None)
    base: Record = thaw(spec) if spec is not None else {}
    area = options.get("area", "reach" if base.get("arrow") == "down" else "along")
    if area not in AREAS:
        raise Rejected(f"card: area must be one of {', '.join(AREAS)}, not {area!r}")
    kind = options.get("type", base.get("type", "other"))
    if kind not in CARD_TYPES:
        raise Rejected(f"card: type must be one of {', '.join(CARD_TYPES)}, not {kind!r}")
    icons = [i for i in options.get("icons", ",".join(base.get("icons", ()))).split(",") if i]
    bad = [i for i in icons if i not in ICONS]
    if bad:
        raise Rejected(f"card: unknown icon {bad[0]!r} (sun, mountain, crest)")
    keywords = list(base.get("keywords", ()))
    for flag in flags:
        if flag not in ("obstacle", "persistent", "exhausted"):
            raise Rejected(f"card: unknown flag {flag!r} (obstacle, persistent, exhausted)")
        if flag != "exhausted" and flag not in keywords:
            keywords.append(flag)
    entry = options.get("entry", base.get("entry"))
    return {
        "name": spec["name"] if spec is not None else name,
        "progress": threshold_text(str(options.get("progress", base.get("progress", "-"))), "card progress"),
        "harm": threshold_text(str(options.get("harm", base.get("harm", "-"))), "card harm"),
        "area": area,
        "seat": _seat_or_active(state, options.get("seat")) if area in ("reach", "player") else None,
        "type": kind,
        "presence": parse_int(str(options.get("presence", base.get("presence", 1))), "presence"),
        "keywords": keywords,
        "icons": icons,
        "entry": None if entry is None else parse_int(str(entry), "entry"),
        "clear": options.get("clear"),
        "ready": "exhausted" not in flags,
        "rtokens": [],
        "from_path": False,
    }


def _card(txn: Txn, args: tuple[str, ...]) -> None:
    words, options = split_args(args)
    if not words:
        raise Rejected("usage: card NAME [progress=N|Nr|-] [harm=N|Nr|-] [area=along|reach|weather|mission] ...")
    _no_extra(options, ("progress", "harm", "area", "seat", "type", "presence", "icons", "entry", "clear"), "card")
    add_card(txn, card_record(txn.state, words[0], options, words[1:]))
    engine.end_of_command(txn)


def _location(txn: Txn, args: tuple[str, ...]) -> None:
    words, options = split_args(args)
    if len(words) != 2:
        raise Rejected("usage: location NAME THRESHOLD [icons=sun,...]")
    _no_extra(options, ("icons",), "location")
    set_location(txn, words[0], threshold_text(words[1], "location threshold"),
                 [i for i in options.get("icons", "").split(",") if i])


def set_location(txn: Txn, name: str, threshold: str, icons: list[str]) -> None:
    """ER-LOC-1: the location holds progress toward travel (and maybe harm) but never clears."""
    txn.put("location", {"name": name, "progress": threshold, "harm": "-", "icons": icons})
    tables.set_tokens(txn, "location.progress", 0)
    tables.set_tokens(txn, "location.harm", 0)
    txn.notice(f"location: {name}, progress threshold {threshold}")


def placement_by(state: GameState, text: str | None) -> int | None:
    """ER-CHAL-2: who placed tokens; challenge effects place them for nobody."""
    if text is not None:
        if text in ("challenge", "none"):
            return None
        return parse_seat(state, text)
    if engine.challenge_step_open(state):
        return None
    return state.active_seat if state.phase == "turns" else None


def place(txn: Txn, target: str, kind: str, delta: int, by: int | None) -> None:
    track = f"{target}.{kind}"
    tables.add_tokens(txn, track, delta)
    if delta > 0 and by is not None:
        for response in thaw(txn.state.get("responses", ())):
            if response["window"] == f"place-{kind}" and response.get("seat") == by:
                tables.log(txn, str(response["label"]))
                txn.notice(f"seat {by}: {response['label']} (placed {delta} {kind})")


def _tokens(kind: str) -> Callable[[Txn, tuple[str, ...]], None]:
    def handler(txn: Txn, args: tuple[str, ...]) -> None:
        words, options = split_args(args)
        if len(words) != 2:
            raise Rejected(f"usage: {kind} CARD|location +N|-N [by=SEAT|challenge]")
        _no_extra(options, ("by",), kind)
        target = tables.card_key(txn.state, words[0])
        delta = parse_int(words[1], kind)
        place(txn, target, kind, delta, placement_by(txn.state, options.get("by")))
        engine.end_of_command(txn)
    return handler


def _set_ready(ready: bool) -> Callable[[Txn, tuple[str, ...]], None]:
    def handler(txn: Txn, args: tuple[str, ...]) -> None:
        want(args, 1, f"{'ready' if ready else 'exhaust'} CARD")
        key = tables.card_key(txn.state, args[0])
        if key == "location":
            raise Rejected("the location is never exhausted")
        record = tables.card(txn.state, key)
        if record["ready"] == ready:
            raise Rejected(f"{record['name']} is already {'ready' if ready else 'exhausted'}")
        record["ready"] = ready
        tables.put_card(txn, key, record)
        engine.end_of_command(txn)
    return handler


def _discard(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "discard CARD")
    key = tables.card_key(txn.state, args[0])
    if key == "location":
        raise Rejected("the location is never discarded; travel replaces it")
    if key in engine.clearing_keys(txn.state):
        raise Rejected(f"{key} is clearing; its re-check decides whether it is discarded")
    txn.notice(f"{tables.card(txn.state, key)['name']} leaves play")
    engine.remove_card(txn, key)
    engine.end_of_command(txn)


def _rtoken(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-RTOKEN-1: a Ranger's token sits on one card at a time."""
    want(args, 2, "rtoken SEAT CARD")
    seat = parse_seat(txn.state, args[0])
    key = tables.card_key(txn.state, args[1])
    if key == "location":
        raise Rejected("put Ranger tokens on path cards")
    all_cards = tables.cards(txn.state)
    for record in all_cards.values():
        record["rtokens"] = [s for s in record.get("rtokens", ()) if s != seat]
    all_cards[key]["rtokens"].append(seat)
    txn.put("cards", all_cards)


def _step(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-CLEAR-6: open a rules step; clears wait until it is resolved."""
    if not args:
        raise Rejected("usage: step LABEL")
    if txn.state.prompt is not None:
        raise Rejected(f"answer the prompt first: {txn.state.prompt.text}")
    engine.push(txn, {"kind": "step", "label": " ".join(args)})
    tables.log(txn, f"step: {' '.join(args)}")


def _resolve(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 0, "resolve")
    engine.resolve(txn)


def _response(txn: Txn, args: tuple[str, ...]) -> None:
    """A standing effect that triggers in a clearing step, on placing tokens, or on resting."""
    words, options = split_args(args)
    if len(words) < 2:
        raise Rejected("usage: response before|when|after|place-progress|place-harm|rest LABEL "
                       "[seat=N] [card=K] [type=being] [kind=harm] [you] [once]")
    _no_extra(options, ("seat", "card", "type", "kind"), "response")
    window, label, flags = words[0], words[1], words[2:]
    if window not in RESPONSE_WINDOWS:
        raise Rejected(f"response: window must be one of {', '.join(RESPONSE_WINDOWS)}, not {window!r}")
    bad = [f for f in flags if f not in ("you", "once")]
    if bad:
        raise Rejected(f"response: unknown flag {bad[0]!r} (you, once)")
    responses = [r for r in thaw(txn.state.get("responses", ())) if r["label"] != label]
    seat = parse_seat(txn.state, options["seat"]) if "seat" in options else None
    if "you" in flags and seat is None:
        raise Rejected("response: a 'you' response needs seat=N")
    kind = options.get("kind")
    if kind not in (None, "progress", "harm"):
        raise Rejected("response: kind must be progress or harm")
    responses.append({"window": window, "label": label, "seat": seat,
                      "card": tables.card_key(txn.state, options["card"]) if "card" in options else None,
                      "type": options.get("type"), "kind": kind, "you": "you" in flags, "once": "once" in flags})
    txn.put("responses", responses)


def _unrespond(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "unrespond LABEL")
    if not any(r["label"] == args[0] for r in txn.state.get("responses", ())):
        raise Rejected(f"no response {args[0]!r}")
    engine.drop_response(txn, args[0])


# --- turns ------------------------------------------------------------------------------------------

def check_free(txn: Txn) -> None:
    if txn.state.prompt is not None:
        raise Rejected(f"answer the prompt first: {txn.state.prompt.text}")
    reason = engine.busy(txn.state)
    if reason:
        raise Rejected(reason)


def end_turn(txn: Txn) -> None:
    """A Ranger's turn ends; a day end waiting for it happens now (ER-INJURY-1)."""
    state = txn.state
    seat = state.active_seat
    if seat is None:
        return
    info = tables.turns(state)
    info["last"] = seat
    txn.put("turns", info)
    flowmod.move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=None)
    pending = tables.day_end(txn.state)
    if pending is not None and pending["timing"] == "end_of_current_turn":
        tables.end_day(txn, pending["reason"])


def begin_turn(txn: Txn, seat: int, exhaust_role: bool) -> None:
    """ER-TURN-1: who may go next; exhausting the role card lets a Ranger go twice in a row."""
    state = txn.state
    if state.phase != "turns":
        raise Rejected("Ranger turns happen in phase 2 (Ranger turns)")
    check_free(txn)
    if state.active_seat is not None:
        end_turn(txn)
        guard(txn)
    info = tables.turns(txn.state)
    role_ready = seat not in info["role_exhausted"]
    reason = rules.turn_refusal(seat, last=info["last"], rested=info["rested"], seats=state.seats,
                                exhaust_role=exhaust_role, role_ready=role_ready)
    if reason:
        raise Rejected(reason)
    if exhaust_role:
        if not role_ready:
            raise Rejected(f"seat {seat}'s role card is already exhausted")
        info["role_exhausted"].append(seat)
        txn.put("turns", info)
    st = txn.state
    flowmod.move(txn, round_no=st.round, phase=st.phase, step=st.step, seat=seat)


def _turn(txn: Txn, args: tuple[str, ...]) -> None:
    if not 1 <= len(args) <= 2 or (len(args) == 2 and args[1] != "role"):
        raise Rejected("usage: turn SEAT [role]")
    begin_turn(txn, parse_seat(txn.state, args[0]), len(args) == 2)


def _rest(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-REST-1: resting ends the Ranger's turns this round; 1 fatigue per injury."""
    if len(args) > 1:
        raise Rejected("usage: rest [SEAT]")
    seat = _seat_or_active(txn.state, args[0] if args else None)
    if txn.state.active_seat != seat:
        begin_turn(txn, seat, False)
    check_free(txn)
    for response in thaw(txn.state.get("responses", ())):
        if response["window"] == "rest" and response.get("seat") == seat:
            tables.log(txn, str(response["label"]))
            txn.notice(f"seat {seat}: {response['label']} (when you rest)")
    injuries = txn.state.value(f"seat{seat}.injury")
    if injuries:
        suffer(txn, seat, injuries)
    info = tables.turns(txn.state)
    info["rested"].append(seat)
    txn.put("turns", info)
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

def suffer(txn: Txn, seat: int, amount: int) -> None:
    """ER-FATIGUE-1: move cards from the Ranger deck to the fatigue stack; too few ends the day."""
    deck = txn.state.value(f"seat{seat}.deck")
    if deck < amount:
        tables.log(txn, f"seat {seat} cannot suffer {amount} fatigue")
        tables.end_day(txn, "too_fatigued")
        return
    tables.add_tokens(txn, f"seat{seat}.deck", -amount)
    tables.add_tokens(txn, f"seat{seat}.fatigue", amount)
    tables.log(txn, f"seat {seat} suffers {amount} fatigue")


def _fatigue(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "fatigue SEAT N")
    amount = parse_int(args[1], "fatigue")
    if amount < 1:
        raise Rejected("fatigue: suffer at least 1")
    suffer(txn, parse_seat(txn.state, args[0]), amount)
    engine.end_of_command(txn)


def _soothe(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "soothe SEAT N")
    seat = parse_seat(txn.state, args[0])
    amount = min(parse_int(args[1], "soothe"), txn.state.value(f"seat{seat}.fatigue"))
    if amount < 1:
        raise Rejected(f"seat {seat} has no fatigue to soothe")
    tables.add_tokens(txn, f"seat{seat}.fatigue", -amount)
    tables.add_tokens(txn, f"seat{seat}.hand", amount)


def _injure(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-INJURY-1: +1 injury, the fatigue stack is discarded; the last one ends the day after the turn."""
    want(args, 1, "injure SEAT")
    seat = parse_seat(txn.state, args[0])
    limit = int(tables.rule(txn.state, "injury_limit"))
    injuries = txn.state.value(f"seat{seat}.injury") + 1
    tables.set_tokens(txn, f"seat{seat}.injury", min(injuries, limit))
    tables.set_tokens(txn, f"seat{seat}.fatigue", 0)
    tables.log(txn, f"seat {seat} is injured ({injuries})")
    if injuries >= limit:
        txn.notice(f"seat {seat}: add a Lingering Injury card to the deck if one is left")
        timing = "end_of_current_turn" if txn.state.active_seat is not None else "now"
        tables.end_day(txn, "third_injury", timing)
    engine.end_of_command(txn)


def ranger_draw(txn: Txn, seat: int, amount: int) -> bool:
    """Draw Ranger cards; an empty deck ends the day (ER-REFRESH-1). False if the day ended."""
    deck = txn.state.value(f"seat{seat}.deck")
    if deck < amount:
        tables.end_day(txn, "cannot_draw")
        return False
    tables.add_tokens(txn, f"seat{seat}.deck", -amount)
    tables.add_tokens(txn, f"seat{seat}.hand", amount)
    tables.log(txn, f"seat {seat} draws {amount}")
    return True


def _rdraw(txn: Txn, args: tuple[str, ...]) -> None:
    if not 1 <= len(args) <= 2:
        raise Rejected("usage: rdraw SEAT [N]")
    amount = parse_int(args[1], "cards") if len(args) == 2 else 1
    ranger_draw(txn, parse_seat(txn.state, args[0]), amount)
    engine.end_of_command(txn)


def _aspects(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 5, "aspects SEAT AWA FIT SPI FOC")
    seat = parse_seat(txn.state, args[0])
    values = {a: parse_int(v, a.upper()) for a, v in zip(ASPECTS, args[1:], strict=True)}
    if any(v < 0 for v in values.values()):
        raise Rejected("aspects cannot be negative")
    aspects = thaw(txn.state.get("aspects"))
    aspects[str(seat)] = values
    txn.put("aspects", aspects)


def _equip(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-GEAR-1: equipping past the limit asks which gear to discard until it fits."""
    want(args, 3, "equip SEAT NAME VALUE")
    seat = parse_seat(txn.state, args[0])
    value = parse_int(args[2], "equip value")
    gear = thaw(txn.state.get("gear", {}))
    mine = gear.setdefault(str(seat), {})
    mine[args[1]] = value
    txn.put("gear", gear)
    ask_gear(txn, seat)


def ask_gear(txn: Txn, seat: int) -> None:
    mine = thaw(txn.state.get("gear", {})).get(str(seat), {})
    limit = int(tables.rule(txn.state, "equip_limit"))
    if rules.over_equip(mine, limit):
        names = list(mine)
        txn.ask("gear.discard", f"Seat {seat} equips {sum(mine.values())} > {limit}: discard which gear?",
                [f"{n} ({mine[n]})" for n in names], seat=seat, context={"seat": seat, "gear": names})


def choose_gear(txn: Txn, index: int) -> None:
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("there is nothing to choose")
    seat = int(prompt.context["seat"])
    name = str(prompt.context["gear"][index])
    txn.close_prompt()
    gear = thaw(txn.state.get("gear", {}))
    gear[str(seat)].pop(name, None)
    txn.put("gear", gear)
    txn.notice(f"seat {seat} discards {name}")
    ask_gear(txn, seat)


# --- tests ------------------------------------------------------------------------------------------

def _test(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-TEST-1..3, ER-RTOKEN-1: choose the test, suffer fatigue from cards in between, commit effort."""
    words, options = split_args(args)
    if len(words) != 3:
        raise Rejected("usage: test SEAT AWA|FIT|SPI|FOC DIFFICULTY [energy=N] [effort=N] [target=CARD]")
    _no_extra(options, ("energy", "effort", "target"), "test")
    seat = parse_seat(txn.state, words[0])
    aspect = words[1].lower()
    if aspect not in ASPECTS:
        raise Rejected(f"test: aspect must be one of {', '.join(a.upper() for a in ASPECTS)}, not {words[1]!r}")
    difficulty = parse_int(words[2], "difficulty")
    energy = parse_int(options.get("energy", "1"), "energy")
    extra = parse_int(options.get("effort", "0"), "effort")
    have = txn.state.value(f"seat{seat}.{aspect}")
    if energy < 1:
        raise Rejected("a test needs at least 1 energy of its aspect committed")
    if have < energy:
        raise Rejected(f"seat {seat} has {have} {aspect.upper()} energy: cannot commit {energy} (ER-TEST-2)")
    if txn.state.phase == "turns" and txn.state.active_seat != seat:
        begin_turn(txn, seat, False)
    check_free(txn)
    target_key = tables.card_key(txn.state, options["target"]) if "target" in options else None
    all_cards = tables.cards(txn.state)
    target = all_cards.get(target_key) if target_key and target_key != "location" else None
    if target_key == "location":
        loc = tables.location(txn.state)
        target = None if loc is None else {**loc, "area": "location"}
    fatigue = rules.between_fatigue(target, all_cards, seat)
    if fatigue:
        suffer(txn, seat, fatigue)
    tables.add_tokens(txn, f"seat{seat}.{aspect}", -energy)
    effort = energy + extra + rules.ranger_token_bonus(target, seat)
    tables.log(txn, f"seat {seat} tests {aspect.upper()} {effort} vs {difficulty}")
    engine.push(txn, {"kind": "test", "seat": seat, "aspect": aspect, "difficulty": difficulty, "effort": effort,
                      "target": target_key, "stage": "draw", "current": None, "resolved": [], "groups": []})
    txn.notice(f"effort {effort} vs {difficulty}: {chance_text(txn.state, aspect, effort, difficulty)} to succeed"
               "; draw challenge (or reveal challenge CARD)")


def chance_text(state: GameState, aspect: str, effort: int, difficulty: int) -> str:
    deck = state.sources["challenge"]
    if not isinstance(deck, Deck):
        return "?"
    p = success_chance(deck, tables.cfg(state)["challenge"], aspect, effort, difficulty,
                       int(tables.rule(state, "effort_floor")))
    return f"{p.numerator}/{p.denominator} ({float(p) * 100:.1f}%)"


def _odds(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 3, "odds AWA|FIT|SPI|FOC EFFORT DIFFICULTY")
    aspect = args[0].lower()
    if aspect not in ASPECTS:
        raise Rejected(f"odds: aspect must be one of {', '.join(a.upper() for a in ASPECTS)}")
    effort, difficulty = parse_int(args[1], "effort"), parse_int(args[2], "difficulty")
    chance = chance_text(txn.state, aspect, effort, difficulty)
    txn.notice(f"{aspect.upper()} effort {effort} vs {difficulty}: {chance}")


def on_challenge(txn: Txn, card_id: str) -> None:
    """A challenge card was drawn or reported: it settles the test waiting for it (ER-TEST-1)."""
    work = engine.frames(txn.state)
    if work and work[-1]["kind"] == "test" and work[-1]["stage"] == "draw":
        engine.test_drawn(txn, work[-1], card_id)
        return
    table = tables.cfg(txn.state)["challenge"]
    txn.notice(f"challenge card {card_id}: {table[card_id]['icon']}")
    if table[card_id]["reshuffle"]:
        txn.source_op("challenge", "refresh")
        txn.notice("reshuffle: the challenge discard is shuffled back into the deck")


# --- path deck ----------------------------------------------------------------------------------------

def path_draw(txn: Txn, name: str | None, seat_text: str | None) -> None:
    """ER-PATH-1: one path card per Ranger from the lead; an empty deck reshuffles its discard first."""
    check_free(txn)  # ER-PATH-1: each card is resolved completely before the next is drawn
    deck = txn.state.sources.get("path")
    if not isinstance(deck, Deck):
        raise Rejected("there is no path deck")
    ready = deck.ready()
    stage = ready.stage_index()
    if stage is None:
        raise Rejected("the path deck and its discard are empty")
    if name is None:
        name = ready.pick(txn.rng)
    elif ready.stages[stage].count(name) == 0:
        raise Rejected(f"the path deck holds no {name!r}")
    if deck.remaining == 0:
        txn.notice("the path deck is empty: its discard is shuffled into a new deck")
        tables.log(txn, "path deck reshuffled")
    txn.emit("path.drawn", card=name)
    drawn = int(txn.state.get("path_drawn", 0))
    txn.put("path_drawn", drawn + 1)
    first = txn.state.lead
    seat = (first - 1 + drawn) % txn.state.seats + 1 if seat_text is None else parse_seat(txn.state, seat_text)
    record = card_record(txn.state, name, {"seat": str(seat)}, [])
    record["from_path"] = True
    key = add_card(txn, record)
    tables.log(txn, f"path: {name} -> {key}")
    engine.end_of_command(txn)


def apply_path(deck: Deck, kind: str, card: str) -> Deck:
    """The path deck's own events: a drawn card goes into play (not to the discard); a card
    leaving play goes to the discard."""
    if kind == "path.drawn":
        return deck.drawn(card, to_discard=False)
    return replace(deck, discard=deck.discard.add(card))


def draw_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if args and args[0] == "path":
        if len(args) > 2:
            raise Rejected("usage: draw path [SEAT]")
        path_draw(txn, None, args[1] if len(args) == 2 else None)
        return
    want(args, 1, "draw SOURCE")
    txn.draw(args[0])


def reveal_verb(txn: Txn, args: tuple[str, ...]) -> None:
    guard(txn)
    if len(args) >= 2 and args[0] == "path":
        if len(args) > 3:
            raise Rejected("usage: reveal path NAME [SEAT]")
        path_draw(txn, args[1], args[2] if len(args) == 3 else None)
        return
    if len(args) < 2:
        raise Rejected("usage: reveal SOURCE OUTCOME")
    txn.draw(args[0], " ".join(args[1:]))


def counter_defs(seats: int, aspects: dict[str, dict[str, int]], deck: int, hand: int) -> dict[str, Counter]:
    """ER-SETUP-1: each Ranger's energy equals the aspects, the hand is drawn from the deck."""
    tracks: dict[str, Counter] = {}
    for seat in range(1, seats + 1):
        for aspect in ASPECTS:
            tracks[f"seat{seat}.{aspect}"] = Counter(aspects[str(seat)][aspect], 0)
        tracks[f"seat{seat}.fatigue"] = Counter(0, 0)
        tracks[f"seat{seat}.injury"] = Counter(0, 0)
        tracks[f"seat{seat}.deck"] = Counter(deck - hand, 0)
        tracks[f"seat{seat}.hand"] = Counter(hand, 0)
    return tracks


Handler = Callable[[Txn, tuple[str, ...]], None]
HANDLERS: dict[str, tuple[str, str, Handler]] = {
    "card": ("card NAME [progress=N|Nr|-] [harm=..] [area=..] [seat=N] [type=..] [presence=N] [icons=..] "
             "[entry=N] [clear=TEXT] [obstacle] [persistent] [exhausted]", "put a card in play", _card),
    "location": ("location NAME THRESHOLD [icons=..]", "place the location (progress threshold, Nr per Ranger)",
                 _location),
    "progress": ("progress CARD|location +N|-N [by=SEAT|challenge]", "add or remove progress", _tokens("progress")),
    "harm": ("harm CARD|location +N|-N [by=SEAT|challenge]", "add or remove harm", _tokens("harm")),
    "exhaust": ("exhaust CARD", "exhaust a card", _set_ready(False)),
    "ready": ("ready CARD", "ready a card", _set_ready(True)),
    "discard": ("discard CARD", "a card leaves play without clearing", _discard),
    "rtoken": ("rtoken SEAT CARD", "move a Ranger's token onto a card", _rtoken),
    "step": ("step LABEL", "open a rules step: clears wait until it is resolved", _step),
    "resolve": ("resolve", "the open step or the shown effect is resolved", _resolve),
    "response": ("response WINDOW LABEL [seat=N] [card=K] [type=T] [kind=K] [you] [once]",
                 "a standing effect (before/when/after a clear, place-progress, place-harm, rest)", _response),
    "unrespond": ("unrespond LABEL", "remove a standing effect", _unrespond),
    "turn": ("turn SEAT [role]", "start a Ranger's turn (role: exhaust the role card to go again)", _turn),
    "rest": ("rest [SEAT]", "the Ranger rests: no more turns this round", _rest),
    "test": ("test SEAT ASPECT DIFFICULTY [energy=N] [effort=N] [target=CARD]", "start a test", _test),
    "odds": ("odds ASPECT EFFORT DIFFICULTY", "exact chance a test succeeds now", _odds),
    "fatigue": ("fatigue SEAT N", "the Ranger suffers N fatigue", _fatigue),
    "soothe": ("soothe SEAT N", "move N fatigue cards to the hand", _soothe),
    "injure": ("injure SEAT", "the Ranger suffers an injury", _injure),
    "rdraw": ("rdraw SEAT [N]", "the Ranger draws N Ranger cards", _rdraw),
    "aspects": ("aspects SEAT AWA FIT SPI FOC", "set a Ranger's aspect values", _aspects),
    "equip": ("equip SEAT NAME VALUE", "equip gear (equip limit)", _equip),
}


def guarded(handler: Handler) -> Handler:
    def run(txn: Txn, args: tuple[str, ...]) -> None:
        guard(txn)
        handler(txn, args)
    return run


def verb_table() -> dict[str, tuple[str, str, Handler]]:
    return {name: (usage, text, guarded(handler)) for name, (usage, text, handler) in HANDLERS.items()}
