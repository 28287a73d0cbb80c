"""The story part: map tokens and travel over the time track, events, iron and the backpack,
trading, MIGHT deck resets, secret decisions (OS-NAV, OS-TIME, OS-EVT, OS-ITEM, OS-IRON, OS-TRADE)."""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn
from tablekeeper.core.numbers import is_number
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.oathsworn import rules
from tablekeeper.games.oathsworn.args import Args, GameVerb, verb
from tablekeeper.games.oathsworn.data import Chapter
from tablekeeper.games.oathsworn.decks import flip_stage, refresh_colours, reset_all_might
from tablekeeper.games.oathsworn.record import NO_POSITIONS, Boxed, IronResult, Secret, SecretResult, rec
from tablekeeper.games.oathsworn.table import (
    SEATS,
    TOKEN_KINDS,
    TOKEN_LABELS,
    UNCHECKED,
    data_of,
    encounter_setup,
    gain_token,
    part,
    put_seat,
    seat,
    spend_token,
    take_prompt_seat,
    update_defense,
)


def _story_only(txn: Txn, what: str) -> None:
    if part(txn.state) != "story":
        raise Rejected(f"{what} happens only in the story part")


# --- map and time track ------------------------------------------------------------------------

def place(txn: Txn, a: Args) -> None:
    """``place X``: location token X goes number side up on map space X (OS-NAV-2)."""
    _place(txn, a.num("TOKEN"))


def _place(txn: Txn, x: int) -> None:
    _story_only(txn, "placing location tokens")
    limit = int(data_of(txn.state).company.get("map_tokens", 30))
    if not 1 <= x <= limit:
        raise Rejected(f"location tokens are 1..{limit}")
    on_map = rec(txn.state).map
    if x in on_map:
        raise Rejected(f"token {x} is already on the map")
    if x in rec(txn.state).track_tokens:
        raise Rejected(f"token {x} is already on the time track")
    txn.put("map", sorted([*on_map, x]))


def _reported(a: Args) -> str | None:
    """``... = CARD``: the event card the table drew for the time slot being filled (OS-EVT-1)."""
    if not a.cards:
        return None
    if len(a.cards) != 1:
        raise Rejected("report one event card after '=', e.g. goto 3 = city4")
    return event_card(a.cards[0])


def event_card(text: str) -> str:
    """An event card as the table names it: ``city4``, ``city 4`` or ``deepwood2``."""
    return text.replace(" ", "").lower()


def _fill_time(txn: Txn, n: int, card: str | None) -> None:
    """Time tokens land; a slot that draws an event takes the reported card, else the device draws."""
    if card is not None:
        txn.put("event_report", card)
    txn.add("time.used", n)
    if card is not None and rec(txn.state).event_report is not None:
        raise Rejected(f"no time slot filled now draws an event card, so {card} cannot be reported")


def travel(txn: Txn, a: Args) -> None:
    """``travel X [= CARD]``: go to location X: the marker moves, token X goes on the next time-track
    slot (1 time unit whatever the distance, OS-NAV-3 / OS-TIME-1); the slot's effect fires first
    (an event card it draws may be reported from the physical deck after ``=``)."""
    _travel(txn, a.num("TOKEN"), _reported(a))


def _travel(txn: Txn, x: int, card: str | None) -> None:
    _story_only(txn, "travel")
    on_map = rec(txn.state).map
    if x not in on_map:
        raise Rejected(f"no location token {x} on the map (on the map: {', '.join(map(str, on_map)) or 'none'}); "
                       f"'goto {x}' places it and goes there (OS-NAV-4)")
    txn.put("map", [t for t in on_map if t != x])
    txn.put("marker", x)
    txn.put("track_tokens", [*rec(txn.state).track_tokens, x])
    _fill_time(txn, 1, card)
    txn.notice(f"read location {x}")


def goto(txn: Txn, a: Args) -> None:
    """``goto X [= CARD]``: place location token X and go there (OS-NAV-4)."""
    card = _reported(a)
    _place(txn, a.num("TOKEN"))
    _travel(txn, a.num("TOKEN"), card)


def add_time(txn: Txn, a: Args) -> None:
    """``time N [= CARD]``: an effect adds N time tokens directly (OS-TIME-1; AMB-27: effects fire at once)."""
    _add_time(txn, a.num("N"), _reported(a))


def _add_time(txn: Txn, n: int, card: str | None) -> None:
    _story_only(txn, "adding time tokens")
    if n < 1:
        raise Rejected("add at least 1 time token")
    room = (txn.game.counter(txn.state, "time.used").hi or 0) - txn.value("time.used")
    if n > room:
        raise Rejected(f"the time track has {room} empty slot(s), not {n}")
    txn.put("track_tokens", [*rec(txn.state).track_tokens, *(["time"] * n)])
    _fill_time(txn, n, card)


def slot_filled(txn: Txn, number: int) -> None:
    """OS-TIME-3: a slot's immediate effect fires as its token lands, before the location entry."""
    chapter = data_of(txn.state).chapter(rec(txn.state).chapter)
    spec = chapter.slot_spec(number)
    if "immediate" in spec:
        txn.notice(f"time slot {_slot(chapter, number)}: {spec['immediate']}")
        if "event" in spec:
            reported = rec(txn.state).event_report
            if reported is not None:
                txn.put("event_report", None)  # one reported card, for the first slot that draws
            draw_event(txn, spec["event"], reported)


def _slot(chapter: Chapter, number: int) -> str:
    """A slot number as the notices print it: with the ``?`` of a time track not checked against the
    printed one (M12), so the table compares the effect with its own track."""
    return f"{number}{'' if chapter.verified else UNCHECKED}"


def draw_event(txn: Txn, which: str, reported: str | None = None) -> None:
    """OS-EVT-1: draw the top event card (or the one reported from the table), carry it out,
    archive it (it leaves the deck)."""
    name = f"events.{which}"
    card = txn.draw(name, reported)
    txn.put("last_event", card)
    txn.notice(f"{event_label(card)}: carry it out, then archive it")


def event_label(card: str) -> str:
    """The card as it is printed: the deck and the number on it (``city4`` -> ``city event 4``)."""
    deck = card.rstrip("0123456789")
    return f"{deck} event {card[len(deck):]}" if deck in ("city", "deepwood") and card != deck else card


def event(txn: Txn, a: Args) -> None:
    """``event city|deepwood [CARD]``: draw an event card, or report the one drawn at the table."""
    which = a.word("city|deepwood")
    reported = a.word("CARD") if a.has("CARD") else None
    if reported is not None and not is_number(reported, signed=False) and not event_card(reported).startswith(which):
        raise Rejected(f"{reported} is not a {which} event card")
    draw_event(txn, which, None if reported is None else
               f"{which}{reported}" if is_number(reported, signed=False) else event_card(reported))


def add_event(txn: Txn, a: Args) -> None:
    """``addevent city|deepwood NAME``: a new event card joins the deck, which is shuffled (OS-EVT-2)."""
    which, card = a.word("city|deepwood"), a.word("CARD")
    card = f"{which}{card}" if is_number(card, signed=False) else event_card(card)
    txn.source_op(f"events.{which}", "put", card)
    txn.notice(f"{event_label(card)} shuffled into the {which} event deck")


def end_story(txn: Txn) -> None:
    """OS-TIME-4/5, OS-MIGHT-7, OS-NAV-8: at the end of the story, rewards of still-empty slots
    resolve, the MIGHT decks are reset, and the encounter begins (its top stage card faceup)."""
    if part(txn.state) != "story":
        return  # ended already; the token picks it asked for are answered now
    chapter = data_of(txn.state).chapter(rec(txn.state).chapter)
    track = chapter.track()
    filled = txn.value("time.used")
    empty = track.order[filled:]
    rewards = []
    picks: dict[str, int] = {}
    for number in empty:
        spec = chapter.slot_spec(number)
        if "end_of_story" in spec:
            rewards.append(spec["end_of_story"])
            txn.notice(f"empty slot {_slot(chapter, number)}: {spec['end_of_story']}")
            if "token" in spec or "tokens" in spec:
                _token_reward(txn, spec.get("token", "any"), int(spec.get("tokens", "1")), picks)
        if "end_of_encounter" in spec:
            txn.put("extra_unique", True)  # OS-TIME-5 / OS-ESET-1: the chapter's extra unique box
            txn.notice(f"empty slot {_slot(chapter, number)}: {spec['end_of_encounter']} (extra unique box checked)")
    txn.put("rewards", rewards)
    reset_all_might(txn)
    txn.put("part", "encounter")
    flip_stage(txn)
    txn.put("token_picks", picks)
    _ask_token_pick(txn)


def _token_reward(txn: Txn, kind: str, count: int, picks: dict[str, int]) -> None:
    """OS-TIME-4: each Oathsworn gains the slot's combat tokens now; ``any`` is each one's pick,
    asked seat by seat once the story part is over."""
    for n in SEATS:
        if seat(txn.state, n).dead:
            continue
        if kind == "any":
            picks[str(n)] = picks.get(str(n), 0) + count
        else:
            gain_token(txn, n, kind, count)


def _ask_token_pick(txn: Txn) -> None:
    picks = {k: v for k, v in (rec(txn.state).token_picks or {}).items() if v > 0}
    if not picks:
        txn.put("token_picks", None)
        return
    n = min(int(k) for k in picks)
    left = picks[str(n)]
    txn.ask("token_pick", f"Seat {n}: story reward, pick a combat token" + (f" ({left} to pick)" if left > 1 else ""),
            [TOKEN_LABELS[k] for k in TOKEN_KINDS], seat=n, context={"seat": n})


def choose_token_pick(txn: Txn, index: int) -> None:
    """The seat asked gains the combat token it picked (OS-TIME-4), then the next pick is asked."""
    n, _ = take_prompt_seat(txn)
    gain_token(txn, n, TOKEN_KINDS[index])
    picks = rec(txn.state).token_picks or {}
    txn.put("token_picks", {**picks, str(n): picks.get(str(n), 1) - 1})
    txn.notice(f"seat {n} gains a {TOKEN_LABELS[TOKEN_KINDS[index]]} token (story reward)")
    _ask_token_pick(txn)
    if txn.state.prompt is None and txn.state.step == "story":  # the last pick: the story's end goes on
        flowmod.leave(txn, txn.game.flow)


# --- MIGHT deck refresh and reset --------------------------------------------------------------------

def refresh_might(txn: Txn, a: Args) -> None:
    """``refresh COLOUR...``: chosen Oathsworn discard piles go back whole (OS-MIGHT-6); a part of a
    pile cannot be returned, so only colours are read."""
    refresh_colours(txn, a.words("COLOUR"))


def reset_might(txn: Txn, a: Args) -> None:
    """``reset SEAT KIND COLOUR...``: story only, one combat token of any type reshuffles the chosen
    Oathsworn discard piles (OS-MIGHT-5, AMB-40)."""
    _story_only(txn, "resetting MIGHT decks with a combat token")
    kind = a.word("KIND")
    if kind not in TOKEN_KINDS:
        raise Rejected(f"unknown combat token {kind!r}")
    spend_token(txn, a.num("SEAT"), kind)
    refresh_colours(txn, a.words("COLOUR"))


# --- iron, items and trade -----------------------------------------------------------------------

def lose_iron_verb(txn: Txn, a: Args) -> None:
    """``loseiron N [ITEM, ...]``: iron first, then backpack items (given order, else backpack order),
    each covering half its value rounded up; equipped items are never lost (OS-IRON-2..4)."""
    amount = a.num("N")
    if amount < 0:
        raise Rejected("lose a positive amount")
    d = data_of(txn.state)
    pack = list(rec(txn.state).backpack)
    named = list(a.words("ITEM"))
    order = named or list(pack)
    for name in named:
        if name not in pack:
            raise Rejected(f"{name} is not in the backpack")
    loss = rules.lose_iron(txn.value("iron"), [d.item(n).value for n in order], amount)
    txn.add("iron", -loss.iron_lost)
    for i in loss.items_lost:
        pack.remove(order[i])
        txn.notice(f"{order[i]} lost to cover iron")
    txn.put("backpack", pack)
    if loss.unpaid:
        txn.notice(f"{loss.unpaid} iron could not be paid and is ignored")
    txn.put("last", IronResult(loss.iron_lost, tuple(order[i] for i in loss.items_lost), loss.unpaid))


def gain(txn: Txn, a: Args) -> None:
    """``gain ITEM, ...``: items go to the backpack; over capacity one must be archived (OS-ITEM-4)."""
    d = data_of(txn.state)
    pack = list(rec(txn.state).backpack)
    for name in a.words("ITEM"):
        d.item(name)
        pack.append(name)
    txn.put("backpack", pack)
    _ask_archive(txn)


def _ask_archive(txn: Txn) -> None:
    pack = rec(txn.state).backpack
    endurance = "endurance" in rec(txn.state).traits
    over = rules.backpack_overflow(len(pack), endurance)
    if over:
        owned = [*pack, *(f"{name} (seat {n})" for n in SEATS for name in seat(txn.state, n).items)]
        txn.ask("archive", f"Backpack over by {over}: archive which item?", owned)


def choose_archive(txn: Txn, index: int) -> None:
    """OS-ITEM-4: the archived item may be any owned item, equipped or not."""
    prompt = txn.state.prompt
    label = prompt.options[index] if prompt else ""
    txn.close_prompt()
    pack = list(rec(txn.state).backpack)
    if " (seat " in label:
        name, _, rest = label.partition(" (seat ")
        n = int(rest.rstrip(")"))
        record = seat(txn.state, n)
        put_seat(txn, n, replace(record, items=_without(record.items, name)))
        update_defense(txn, n)
    else:
        pack.remove(label)
        txn.put("backpack", pack)
    txn.notice(f"archived {label}")
    _ask_archive(txn)


def equip(txn: Txn, a: Args) -> None:
    """``equip SEAT ITEM``: from the backpack (story only, OS-ITEM-5), within equip limits (OS-ITEM-2)."""
    _story_only(txn, "trading items")
    n, item = a.num("SEAT"), a.word("ITEM")
    pack = list(rec(txn.state).backpack)
    if item not in pack:
        raise Rejected(f"{item} is not in the backpack")
    d = data_of(txn.state)
    record = seat(txn.state, n)
    rules.check_equip([d.item(x) for x in [*record.items, item]])
    pack.remove(item)
    txn.put("backpack", pack)
    put_seat(txn, n, replace(record, items=(*record.items, item)))
    update_defense(txn, n)


def unequip(txn: Txn, a: Args) -> None:
    """``unequip SEAT ITEM``: to the backpack; DEFENSE and MIGHT update at once (OS-ITEM-7)."""
    _story_only(txn, "trading items")
    n, item = a.num("SEAT"), a.word("ITEM")
    record = seat(txn.state, n)
    if item not in record.items:
        raise Rejected(f"seat {n} has no {item} equipped")
    put_seat(txn, n, replace(record, items=_without(record.items, item)))
    txn.put("backpack", [*rec(txn.state).backpack, item])
    update_defense(txn, n)
    _ask_archive(txn)


def sell(txn: Txn, a: Args) -> None:
    """``sell ITEM``: the Banksmith pays half the value rounded up; the item is archived (OS-TRADE-4)."""
    _story_only(txn, "trading")
    item = a.word("ITEM")
    pack = list(rec(txn.state).backpack)
    if item not in pack:
        raise Rejected(f"{item} is not in the backpack (unequip it first)")
    pack.remove(item)
    txn.put("backpack", pack)
    txn.add("iron", rules.sell_value(data_of(txn.state).item(item).value))


def buy(txn: Txn, a: Args) -> None:
    """``buy ITEM``: pay the value on the card back (OS-TRADE-4)."""
    _story_only(txn, "trading")
    item = a.word("ITEM")
    cost = data_of(txn.state).item(item).value
    if cost > txn.value("iron"):
        raise Rejected(f"{item} costs {cost} iron, the company has {txn.value('iron')}")
    txn.add("iron", -cost)
    txn.put("backpack", [*rec(txn.state).backpack, item])
    _ask_archive(txn)


def runner(txn: Txn, a: Args) -> None:
    """``runner``: send a runner to the Banksmith or Apothecary (OS-TRADE-1/2); the marker stays."""
    _story_only(txn, "sending a runner")
    chapter = rec(txn.state).chapter
    if data_of(txn.state).chapter(chapter).map not in ("city", "town", "village"):
        raise Rejected("runners are sent only on a city, town or village map")
    cost = rules.runner_cost(chapter, 1, "well-connected" in rec(txn.state).traits)
    if cost > txn.value("iron"):
        raise Rejected(f"a runner costs {cost} iron")
    txn.add("iron", -cost)
    txn.notice(f"runner sent for {cost} iron")


def curatives(txn: Txn, a: Args) -> None:
    """``curatives N``: buy up to 5 curatives at chapter-number iron each (OS-TRADE-3)."""
    _story_only(txn, "trading")
    herbalist = "herbalist" in rec(txn.state).traits
    cost, got = rules.apothecary(rec(txn.state).chapter, a.num("N"), herbalist)
    if cost > txn.value("iron"):
        raise Rejected(f"{a.num('N')} curatives cost {cost} iron")
    txn.add("iron", -cost)
    txn.put("curatives", rec(txn.state).curatives + got)
    txn.notice(f"{got} curatives shuffled into the injury deck")


def petition(txn: Txn, a: Args) -> None:
    """``petition ITEM, ...``: items from the Raven Spire, 1 knockout tick each (OS-ITEM-8)."""
    d = data_of(txn.state)
    names = list(a.words("ITEM"))
    for name in names:
        d.item(name)
    txn.add("knockouts", len(names))
    txn.put("backpack", [*rec(txn.state).backpack, *names])
    _ask_archive(txn)


# --- difficulty, lead, secret decisions ------------------------------------------------------------

def set_difficulty(txn: Txn, a: Args) -> None:
    """``difficulty NAME``: only before the chapter starts (OS-DIFF-1)."""
    if part(txn.state) != "story" or txn.value("time.used") > 0:
        raise Rejected("difficulty changes only between chapters")
    d = data_of(txn.state)
    name = a.word("NAME")
    if name not in d.difficulties:
        raise Rejected(f"difficulties: {', '.join(d.difficulties)}")
    diff = d.difficulties[name]
    txn.put("difficulty", name)
    for n in SEATS:
        txn.define(seat_track(n, "hp"), diff.max_hp, 0, diff.max_hp)
        txn.set(seat_track(n, "hp_max"), diff.max_hp)
        update_defense(txn, n)


def lead(txn: Txn, a: Args) -> None:
    """``lead SEAT``: the lead Oathsworn opens every Oathsworn phase (OS-ESET-10)."""
    if part(txn.state) != "story" and not encounter_setup(txn.state):  # the story may name it already
        raise Rejected("the lead is chosen during encounter setup")
    txn.emit("lead", seat=a.num("SEAT"))


def secret(txn: Txn, a: Args) -> None:
    """``secret open`` / ``secret reveal``: each player sets an HP die in secret; all are revealed at
    once, then the dice go back to the HP they showed (OS-CHECK-9)."""
    if a.word("open|reveal") == "open":
        if rec(txn.state).secret is not None:
            raise Rejected("a secret decision is already open")
        txn.put("secret", Secret(tuple(txn.value(seat_track(n, "hp")) for n in SEATS)))
        txn.notice("set your HP dice to your choice in secret, then: secret reveal")
        return
    opened = rec(txn.state).secret
    if opened is None:
        raise Rejected("no secret decision is open")
    players = rec(txn.state).players or 4
    choices = [txn.value(seat_track(n, "hp")) for n in SEATS][:players]
    txn.put("secret", None)
    for n, hp in zip(SEATS, opened.hp, strict=True):
        txn.set(seat_track(n, "hp"), hp)
    txn.put("last", SecretResult(tuple(choices)))
    txn.notice("revealed: " + ", ".join(map(str, choices)) + " — look the outcome up in the Story Book")


def clue(txn: Txn, a: Args) -> None:
    """``clue NAME``: a clue token goes beside the time track (OS-NAV-7)."""
    txn.put("clues", [*rec(txn.state).clues, a.word("NAME")])


def token(txn: Txn, a: Args) -> None:
    """``token SEAT KIND [N]``: gain combat tokens (OS-TOK-1)."""
    count = a.num("N", 1)
    if count < 1:
        raise Rejected("gain at least 1 token")
    gain_token(txn, a.num("SEAT"), a.word("KIND"), count)


def tough(txn: Txn, a: Args) -> None:
    """``tough SEAT``: Tough as nails, once per chapter: 1 time token heals 1 HP (OS-LVL-12)."""
    _story_only(txn, "Tough as nails")
    if "tough as nails" not in rec(txn.state).traits:
        raise Rejected("the company lacks the Tough as nails trait")
    once = rec(txn.state).once
    if once.get("tough"):
        raise Rejected("Tough as nails was already used this chapter")
    n = a.num("SEAT")
    txn.put("once", {**once, "tough": True})
    _add_time(txn, 1, None)
    txn.set(seat_track(n, "hp"), rules.heal(txn.value(seat_track(n, "hp")), 1, txn.value(seat_track(n, "hp_max"))))


def _chapter_start(txn: Txn, what: str) -> None:
    """OS-LVL-3: swaps happen only at the start of a chapter, before the story part begins."""
    if part(txn.state) != "story" or txn.value("time.used") > 0 or rec(txn.state).marker is not None:
        raise Rejected(f"{what} happens only at the start of a chapter, before the story")


def _without(items: tuple[str, ...], name: str) -> tuple[str, ...]:
    """The items with one ``name`` fewer (the first)."""
    at = items.index(name)
    return items[:at] + items[at + 1:]


def _reset_animus(txn: Txn, n: int, max_animus: int) -> None:
    txn.define(seat_track(n, "animus"), 0, 0, max_animus)
    txn.define(seat_track(n, "animus_reserve"), max_animus, 0, max_animus)


def swap(txn: Txn, a: Args) -> None:
    """``swap SEAT CLASS``: the leaver's save bag is boxed and the newcomer quick-levels to the
    chapter number and takes over the set-aside injuries (OS-LVL-2/4/5); a class coming back has its
    items archived. The levels table and quick-level items are physical (catalogue M6)."""
    _chapter_start(txn, "swapping an Oathsworn")
    n = a.num("SEAT")
    new_class = a.word("CLASS")
    d = data_of(txn.state)
    if new_class not in d.classes:
        raise Rejected(f"unknown class {new_class!r}")
    if new_class in rec(txn.state).hardcore_dead:
        raise Rejected(f"{new_class} died in this campaign (OS-HC-3)")
    if any(seat(txn.state, k).cls == new_class for k in SEATS):
        raise Rejected(f"{new_class} is already in the company")
    leaver = seat(txn.state, n)
    roster = dict(rec(txn.state).roster)
    roster[leaver.cls] = Boxed(leaver.level, leaver.items, leaver.kind)
    returning = roster.pop(new_class, None)
    record = replace(leaver, cls=new_class, kind="full", items=(), level=rec(txn.state).chapter,
                     max_animus=d.max_animus, permanent={})
    txn.put("roster", roster)
    put_seat(txn, n, record)
    _reset_animus(txn, n, d.max_animus)
    txn.set(seat_track(n, "regen"), d.regen)
    update_defense(txn, n)
    if returning is not None:
        txn.notice(f"{new_class} returns: items archived, quick-levelled from {returning.level} "
                   f"to {record.level}")
    else:
        txn.notice(f"{new_class} joins at level {record.level}: equip from earlier common decks")


def switch(txn: Txn, a: Args) -> None:
    """``switch SEAT``: full character <-> companion: same items and injuries, new sheet quick-levelled
    to the chapter, no quick-level items (OS-LVL-6)."""
    _chapter_start(txn, "switching between full character and companion")
    n = a.num("SEAT")
    d = data_of(txn.state)
    record = seat(txn.state, n)
    kind: Literal["full", "companion"] = "companion" if record.kind == "full" else "full"
    max_animus = 2 if kind == "companion" else d.max_animus
    record = replace(record, kind=kind, max_animus=max_animus, level=rec(txn.state).chapter,
                     positions=NO_POSITIONS)
    put_seat(txn, n, record)
    _reset_animus(txn, n, max_animus)
    txn.set(seat_track(n, "regen"), 2 if kind == "companion" else d.regen)
    update_defense(txn, n)


VERBS: dict[str, GameVerb] = {v.usage.split()[0]: v for v in (
    verb("swap SEAT CLASS", "swap an Oathsworn at the start of a chapter", swap),
    verb("switch SEAT", "full character <-> companion", switch),
    verb("place TOKEN", "put a location token on the map", place),
    verb("travel TOKEN [= EVENT_CARD]", "go to a location (1 time unit)", travel),
    verb("goto TOKEN [= EVENT_CARD]", "place a location token and go there", goto),
    verb("time N [= EVENT_CARD]", "add N time tokens", add_time),
    verb("event city|deepwood [CARD]", "draw an event card (or report the one drawn)", event),
    verb("addevent city|deepwood CARD", "shuffle a new event card in", add_event),
    verb("refresh COLOUR...", "shuffle chosen MIGHT discard piles back", refresh_might, in_fight=True),
    verb("reset SEAT KIND COLOUR...", "story: a combat token reshuffles MIGHT decks", reset_might, in_fight=True),
    verb("loseiron N [ITEM, ...]", "lose iron, then backpack items", lose_iron_verb),
    verb("gain ITEM, ...", "items into the backpack", gain),
    verb("equip SEAT ITEM", "equip an item from the backpack", equip),
    verb("unequip SEAT ITEM", "put an item in the backpack", unequip),
    verb("sell ITEM", "sell a backpack item to the Banksmith", sell),
    verb("buy ITEM", "buy an item from the Banksmith", buy),
    verb("runner", "send a runner (chapter-number iron)", runner),
    verb("curatives N", "buy curatives from the Apothecary", curatives),
    verb("petition ITEM, ...", "items from the Raven Spire (+1 knockout each)", petition),
    verb("difficulty NAME", "change difficulty before the chapter", set_difficulty),
    verb("lead SEAT", "choose the lead Oathsworn", lead),
    verb("secret open|reveal", "a secret decision with the HP dice", secret),
    verb("clue NAME", "gain a clue", clue),
    verb("token SEAT KIND [N]", "gain combat tokens", token, in_fight=True),
    verb("tough SEAT", "Tough as nails: 1 time token heals 1 HP", tough),
)}
