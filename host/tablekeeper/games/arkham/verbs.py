"""The game's script verbs: each handler validates (``Rejected`` with a reason changes nothing) and
then changes the state through the transaction. ``docs/games/arkham.md`` lists them with examples."""

from __future__ import annotations

from tablekeeper.core import flow as flowmod
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import Txn, Verb, parse_int, parse_seat
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import (
    assets,
    attacks,
    board,
    board_verbs,
    chaos_verbs,
    effects,
    encounter,
    rules,
    scenario_cards,
    steps,
    threat,
)
from tablekeeper.games.arkham.campaign import Campaign
from tablekeeper.games.arkham.content import EncounterCard, PlayedType
from tablekeeper.games.arkham.parsing import (
    cost_less,
    count,
    keywords,
    live_seat,
    name_of,
    no_test,
    own_turn,
    pick,
    spend_actions,
    usage,
)
from tablekeeper.games.arkham.record import GrimNote, rec
from tablekeeper.games.arkham.records import Enemy, Provoked


# --- actions -------------------------------------------------------------------------------------
def act(txn: Txn, args: tuple[str, ...]) -> None:
    """An action on the seat's own turn (AH-ACTION-1/2): pay 1 action, attacks of opportunity
    (AH-AOO-1/2/9, in the order the investigator picks: a prompt, or ``order=``), then the action's
    effect (AH-AOO-5)."""
    if not args:
        raise Rejected("usage: act SEAT [KIND [TARGET]] [skill=N] [order=E1,E2]")
    state = txn.state
    seat = live_seat(state, args[0])
    kind = args[1].lower() if len(args) > 1 else "other"
    if kind not in rules.ACTION_KINDS:
        raise Rejected(f"action must be one of {', '.join(rules.ACTION_KINDS)}, not {kind!r}")
    rest, named = keywords(args[2:])
    order = [n for n in named.pop("order", "").split(",") if n]
    if set(named) - {"skill"}:
        raise Rejected(f"act: unknown option {sorted(set(named) - {'skill'})[0]!r} (skill=N, order=E1,E2)")
    own_turn(txn, seat, f"the {kind} action")
    no_test(state)
    if state.prompt is not None:
        raise Rejected(flowmod.answer_first(state))
    target = name_of(rest, "target") if rest else None  # one rule for names: quoted or not
    if target is not None and kind == "move":
        target = board_verbs.location_name(state, target)
    elif target is not None and kind in ("engage", "fight", "evade"):
        target = board_verbs.enemy_name(state, target)
    _check_target(state, seat, kind, target)
    ability = None
    found = _treachery_named(state, rest) if kind == "activate" and rest else None
    if found is not None:  # 01174, 01182: a treachery's [action] ability, with the skill it tests
        target = found[0]
        ability = threat.ability_test(state, seat, *found).skill
    if kind == "play":
        threat.refuse_play(state, seat)  # 01165
    skill = count(named["skill"], "skill") if "skill" in named else None
    spend_actions(txn, seat, 1, f"the {kind} action", kind)
    effect = Provoked(seat, (), kind, target, skill, ability=ability)
    if order:
        attackers = [n for n in board.engaged_with(txn.state, seat) if board.enemy(txn.state, n).ready]
        if kind in rules.NON_PROVOKING or sorted(order) != sorted(attackers):
            raise Rejected(f"the attack order must name each ready engaged enemy once: {', '.join(attackers)}")
        effect = Provoked(seat, tuple(order), kind, target, skill, ordered=True, ability=ability)
    attacks.provoke(txn, seat, kind, effect)


def _treachery_named(state: GameState, words: list[str]) -> tuple[str, str | None] | None:
    """``act SEAT activate NAME [SKILL]`` naming a treachery in play: its label and the skill named
    (None: the activated ability is another card's, which the station does not follow)."""
    words = list(words)
    skill = words.pop().lower() if len(words) > 1 and words[-1].lower() in rules.SKILLS else None
    cards = rec(state).treacheries
    label = pick(name_of(words, "target"), cards)
    if label in cards:
        return label, skill
    found = encounter.known_card(state, label)
    if found is not None and found[1].kind == "treachery":
        raise Rejected(f"no {found[0]} in play to activate (treacheries in play: {', '.join(sorted(cards)) or 'none'})")
    return None


def action_menu(txn: Txn, args: tuple[str, ...]) -> None:
    """The seat's B button on its own turn: the actions it can take now, by name (AH-ACTION-1)."""
    usage(args, 1, 1, "actions SEAT")
    state = txn.state
    seat = live_seat(state, args[0])
    own_turn(txn, seat, "an action")
    no_test(state)
    if state.prompt is not None:
        raise Rejected(flowmod.answer_first(state))
    lines = menu_lines(state, seat)
    labels = [" ".join(line[2:]) if line[0] == "act" else f"play {' '.join(line[2:])}" for line in lines]
    txn.ask("action", f"Seat {seat}: which action?", ["back", *labels],
            seat=seat, context={"seat": seat, "lines": [list(line) for line in lines]})


def menu_lines(state: GameState, seat: int) -> list[tuple[str, ...]]:
    """Each action open to the seat, as a command line (``act SEAT ...``, ``ally SEAT NAME``)."""
    me = f"seat{seat}"
    here = board.where(state, seat)
    out: list[tuple[str, ...]] = [("act", me, "investigate")] if here is not None and not _blocker(state, here) else []
    out += [("act", me, "resource"), ("act", me, "draw")]
    if here is not None:
        ways = board.neighbours(state, here) or [n for n in board.locations(state) if n != here]
        out += [("act", me, "move", loc) for loc in ways]
    elif board.locations(state):
        out += [("act", me, "move", loc) for loc in sorted(board.locations(state))]
    for name, foe in sorted(board.enemies(state).items()):
        out += [("act", me, kind, name) for kind in enemy_actions(state, seat, foe)]
    for label in sorted(rec(state).treacheries):  # 01174, 01182: their [action] ability, per skill
        tests = threat.ability_tests(state, label) if threat.reachable(state, seat, label) else ()
        out += [("act", me, "activate", label, *((t.skill,) if len(tests) > 1 else ())) for t in tests]
    if effects.seat_value(state, seat, "hand") > 0 and threat.play_barred(state, seat, "asset") is None:
        have = effects.seat_value(state, seat, "resources")
        out += [("ally", me, name) for name, card in sorted(rec(state).allies.items())
                if card.cost <= have and name not in assets.assets(state, seat)]
    return [*out, ("act", me, "other"), ("act", me, "resign")]


def enemy_actions(state: GameState, seat: int, foe: Enemy) -> tuple[str, ...]:
    """The enemy actions the seat may take against this enemy: fight one engaged with it or at its
    location (not an aloof one engaged with nobody, AH-ALOOF-4), evade one engaged with it (a ready
    massive enemy at its location counts), engage one at its location that is not (never a massive
    one: it is never placed in a threat area)."""
    mine = board.is_engaged(state, foe, seat)
    here = board.where(state, seat)
    if not mine and (here is None or board.enemy_location(state, foe) != here):
        return ()
    fight = ("fight",) if mine or not foe.aloof else ()
    if mine:
        return (*fight, "evade")
    return (*fight, *(() if foe.has("massive") else ("engage",)))


def choose_action(txn: Txn, index: int) -> None:
    """An answer of the action menu: the command it names, as if typed."""
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("no action menu is open")
    lines = [tuple(str(w) for w in line) for line in prompt.context["lines"]]
    txn.close_prompt()
    if index > 0:
        verb, *args = lines[index - 1]
        VERBS[verb].handler(txn, tuple(args))


def ally(txn: Txn, args: tuple[str, ...]) -> None:
    """Play an ally the data file knows (``data/assets.toml``): the Play action and its cost
    (AH-COST-2), then it is in play with its health and sanity to take harm (AH-DMG-4)."""
    if len(args) < 2:
        raise Rejected("usage: ally SEAT NAME")
    seat = live_seat(txn.state, args[0])
    title = name_of(args[1:], "ally")
    known = rec(txn.state).allies
    if title not in known:
        raise Rejected(f"no ally {title!r} in the assets data (known: {', '.join(sorted(known)) or 'none'})")
    card = known[title]
    if title in assets.assets(txn.state, seat):
        raise Rejected(f"seat {seat} already has {title} in play")
    play(txn, (f"seat{seat}", str(card.cost), "asset"))  # its attacks of opportunity come first
    if effects.is_live(txn.state, seat):
        assets.add(txn, seat, title, card.health, card.sanity)


def _check_target(state: GameState, seat: int, kind: str, target: str | None) -> None:
    if kind == "investigate":
        here = board.where(state, seat)
        if target is not None:
            count(target, "difficulty")
        elif here is None:
            raise Rejected("investigate needs a difficulty (act SEAT investigate N) or a location (enter)")
        blocked = _blocker(state, here) if here is not None else None
        if blocked:
            raise Rejected(f"{here} cannot be investigated while {blocked} is attached to it")
    elif kind == "move":
        if target is None:
            raise Rejected("usage: act SEAT move LOCATION")
        board.location(state, target)
        if board.where(state, seat) == target:
            raise Rejected(f"seat {seat} is already at {target}")
    elif kind in ("engage", "fight", "evade"):
        if target is None:
            raise Rejected(f"usage: act SEAT {kind} ENEMY")
        foe = board.enemy(state, target)
        here = board.where(state, seat)
        if kind == "evade" and not board.is_engaged(state, foe, seat):
            raise Rejected(f"{target} is not engaged with seat {seat}: Evade targets only your own enemies")
        if kind == "engage" and board.is_engaged(state, foe, seat):
            raise Rejected(f"{target} is already engaged with seat {seat}")  # AH-ENGAGE-3
        if kind == "engage" and foe.has("massive"):
            raise Rejected(f"{target} is massive: never in a threat area, engaged with everyone at its "
                           "location while ready")
        if not board.is_engaged(state, foe, seat) and board.enemy_location(state, foe) != here:
            raise Rejected(f"{target} is not at seat {seat}'s location")  # AH-ENGAGE-1
        if kind == "fight" and foe.aloof and foe.engaged is None:
            raise Rejected(f"{target} is aloof and engaged with nobody: engage it first")  # AH-ALOOF-4


def _blocker(state: GameState, here: str) -> str | None:
    """The treachery attached to ``here`` that forbids investigating it (Locked Door, 01174), or None."""
    return next((n for n, t in sorted(rec(state).treacheries.items()) if t.location == here and t.no_investigate), None)


ACTIVATE = "activate SEAT ACTIONS [RESOURCES] [parley|fight|evade] [less=N]"


def activate(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-ACTV-1/2, AH-TRIG-7: an ability costing N action icons (and resources) on the seat's own
    turn; every cost is paid together or nothing is; one attack per engaged enemy (AH-AOO-3)."""
    plain, named = keywords(args)
    usage(tuple(plain), 2, 4, ACTIVATE)
    state = txn.state
    seat = live_seat(state, plain[0])
    actions = count(plain[1], "actions", 1)
    rest = plain[2:]
    kind = rest.pop() if rest and rest[-1] in ("parley", "fight", "evade", "resign") else "activate"
    if len(rest) > 1:  # what is left is RESOURCES: no word goes unread
        raise Rejected(f"activate: unknown word {rest[-1]!r} (usage: {ACTIVATE})")
    resources = count(rest[0], "resources") if rest else 0
    resources = max(0, resources - cost_less(named))  # AH-TRIG-9: active cost modifiers count
    own_turn(txn, seat, "an activated ability")
    no_test(state)
    have = effects.seat_value(state, seat, "resources")
    if have < resources:
        raise Rejected(f"seat {seat} has {have} resources; the ability costs {resources}")
    spend_actions(txn, seat, actions, "this ability", kind)
    if resources:
        txn.add(seat_track(seat, "resources"), -resources)
    attacks.provoke(txn, seat, kind)  # AH-DESIG-1: a designated Evade/Fight is exempt


def lose(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-ACTION-3: lose N actions this round (never below 0)."""
    usage(args, 2, 2, "lose SEAT N")
    seat = live_seat(txn.state, args[0])
    n = count(args[1], "actions", 1)
    txn.set(seat_track(seat, "actions"), max(0, effects.seat_value(txn.state, seat, "actions") - n))


def play(txn: Txn, args: tuple[str, ...]) -> None:
    """Play a card from hand paying its resource cost (AH-COST-2). A non-fast card needs the Play
    action on the player's own turn (AH-EVENT-2); a fast card costs no action (AH-FAST-1), a fast
    asset only on its player's turn (AH-FAST-5); `free` when a card lets it be played without an
    action (AH-GOLD-2)."""
    plain, named = keywords(args)
    usage(tuple(plain), 2, 5, "play SEAT COST [event|asset] [fast] [free] [less=N]")
    state = txn.state
    seat = live_seat(state, plain[0])
    cost = max(0, count(plain[1], "cost") - cost_less(named))
    words = {a.lower() for a in plain[2:]}
    unknown = words - {"event", "asset", "fast", "free", "skill"}
    if unknown:
        raise Rejected(f"play: unknown word {sorted(unknown)[0]!r} (event, asset, fast, free)")
    if "skill" in words:
        raise Rejected("skill cards are committed to a test (commit SEAT N), not played")
    cardtype: PlayedType = "asset" if "asset" in words else "event"
    threat.refuse_play(state, seat, (cardtype,))  # 01165
    fast, free = "fast" in words, "free" in words
    if not fast or cardtype == "asset":
        own_turn(txn, seat, f"playing {'a fast' if fast else 'an' if cardtype[:1] in 'aeiou' else 'a'} {cardtype}")
    no_test(state)
    if effects.seat_value(state, seat, "hand") < 1:
        raise Rejected(f"seat {seat} has no card in hand")
    have = effects.seat_value(state, seat, "resources")
    if have < cost:
        raise Rejected(f"seat {seat} has {have} resources; the card costs {cost}")
    needs_action = not fast and not free
    if needs_action:
        spend_actions(txn, seat, 1, "the play action")
    if cost:
        txn.add(seat_track(seat, "resources"), -cost)
    txn.add(seat_track(seat, "hand"), -1)
    if cardtype == "event":
        txn.add(seat_track(seat, "discard"), 1)  # AH-EVENT-4
    if needs_action:
        attacks.provoke(txn, seat, "play")  # AH-AOO-7: fast cards provoke nothing


# --- cards and harm ------------------------------------------------------------------------------
def draw_cards(txn: Txn, args: tuple[str, ...]) -> None:
    """A card effect's draw (AH-DRAW-3/5): several cards at once, with the deck reset if needed."""
    usage(args, 1, 2, "draw-cards SEAT [N]")
    seat = live_seat(txn.state, args[0])
    effects.draw_cards(txn, seat, count(args[1], "cards", 1) if len(args) > 1 else 1)


def discard(txn: Txn, args: tuple[str, ...]) -> None:
    """Discard N cards from hand (4.5 hand size, or a card effect)."""
    usage(args, 2, 2, "discard SEAT N")
    seat = live_seat(txn.state, args[0])
    n = count(args[1], "cards", 1)
    hand = effects.seat_value(txn.state, seat, "hand")
    if n > hand:
        raise Rejected(f"seat {seat} holds {hand} cards, cannot discard {n}")
    txn.add(seat_track(seat, "hand"), -n)
    txn.add(seat_track(seat, "discard"), n)


def hit(txn: Txn, args: tuple[str, ...]) -> None:
    """Deal damage and horror: assign some to the seat's assets (AH-DMG-2..6; ``NAME=D/H``), none
    when ``direct`` (AH-DIRECT-1); then all of it lands at once (AH-DMG-8) and defeat is checked
    (AH-DMG-9..11, AH-TRAUMA-5)."""
    plain, named = _asset_keys(args)
    direct = "direct" in plain
    plain = [p for p in plain if p != "direct"]
    usage(tuple(plain), 2, 3, "hit SEAT DAMAGE [HORROR] [ASSET=D/H ...] [prevent=D/H] [direct]")
    seat = live_seat(txn.state, plain[0])
    damage, horror = count(plain[1], "damage"), count(plain[2], "horror") if len(plain) > 2 else 0
    prevent = named.pop("prevent", None)
    if direct and named:
        raise Rejected("direct damage and horror cannot be assigned to assets")
    assigned: dict[str, tuple[int, int]] = {}
    for name, split in named.items():
        d, sep, h = split.partition("/")
        assigned[name] = (count(d, "damage"), count(h, "horror") if sep else 0)
    if prevent is not None:
        # AH-DMG-7: prevention acts between assigning and applying, on what would reach the investigator.
        d, sep, h = prevent.partition("/")
        stop_d, stop_h = count(d, "prevented damage"), count(h, "prevented horror") if sep else 0
        to_assets = (sum(a for a, _ in assigned.values()), sum(b for _, b in assigned.values()))
        if stop_d > damage - to_assets[0] or stop_h > horror - to_assets[1]:
            raise Rejected("cannot prevent more than is assigned to the investigator")
        damage, horror = damage - stop_d, horror - stop_h
        if damage == 0 and horror == 0 and not assigned:
            txn.notice(f"seat {seat}: everything was prevented; nothing was dealt")  # AH-DMG-8
            return
    assets.assign(txn, seat, damage, horror, assigned)


def _asset_keys(args: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """``hit``'s words: an asset's name may be several words before its ``=D/H`` (Beat Cop=1/0)."""
    plain: list[str] = []
    named: dict[str, str] = {}
    words: list[str] = []
    for word in args:
        if "=" in word:
            key, value = word.split("=", 1)
            named[" ".join([*words, key])] = value
            words = []
        elif plain and not is_number(word, signed=False) and word != "direct" and not word.startswith("seat"):
            words.append(word)
        else:
            plain.extend(words)
            words = []
            plain.append(word)
    return [*plain, *words], named


def heal(txn: Txn, args: tuple[str, ...]) -> None:
    usage(args, 2, 3, "heal SEAT DAMAGE [HORROR]")
    seat = live_seat(txn.state, args[0])
    damage, horror = count(args[1], "damage"), count(args[2], "horror") if len(args) > 2 else 0
    for name, n in (("damage", damage), ("horror", horror)):
        have = effects.seat_value(txn.state, seat, name)
        if n > have:
            raise Rejected(f"seat {seat} has {have} {name}; cannot heal {n}")
        if n:
            txn.add(seat_track(seat, name), -n)


def defeat(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-CAMPDEF-1: a card ability defeats the investigator; no trauma unless the card says so."""
    usage(args, 1, 1, "defeat SEAT")
    effects.eliminate(txn, live_seat(txn.state, args[0]), rules.Defeat("ability"))


def resign(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-ELIM-1 / AH-DEFEAT-2: resigning eliminates without defeat, so without trauma."""
    usage(args, 1, 1, "resign SEAT")
    effects.eliminate(txn, live_seat(txn.state, args[0]), rules.Defeat("resign"))


# --- agenda, act, clues --------------------------------------------------------------------------
def advance(txn: Txn, args: tuple[str, ...]) -> None:
    """Advance a card outside its usual moment: the agenda only when a card allows it (AH-DOOM-4),
    an act with an Objective once the players say it is met (AH-ACTAG-5)."""
    usage(args, 1, 2, "advance agenda card | advance act objective")
    which = args[0]
    why = args[1] if len(args) > 1 else ""
    if which == "agenda":
        if why != "card":
            raise Rejected("the agenda advances only at 1.3 Check doom; say `advance agenda card` if a card "
                           "allows it now")
        scenario_cards.advance_agenda(txn, "a card allows it")
    elif which == "act":
        current = effects.card(txn.state, "act")
        if current.objective and why != "objective":
            raise Rejected(f"say `advance act objective` once the objective is met: {current.objective}")
        scenario_cards.advance_objective(txn)
    else:
        raise Rejected("advance agenda card | advance act objective")


def spend_clues(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-ACTAG-3/4, AH-CLUE-4, AH-COST-8: the group spends the act's clue requirement, split as it
    likes, during an investigator's turn, when the act has no Objective."""
    if not args:
        raise Rejected("usage: spend-clues SEAT:N [SEAT:N ...]")
    state = txn.state
    current = effects.card(state, "act")
    if current.objective and current.ability is None:
        raise Rejected(f"act {state.value('act')} has an objective: {current.objective}")
    allowed = scenario_cards.spenders(state)
    if allowed is None and (state.phase != "investigation" or state.active_seat is None):
        raise Rejected("clues are spent on the act only during an investigator's turn")
    no_test(state)
    spend: dict[int, int] = {}
    for item in args:
        who, sep, n = item.partition(":")
        if not sep:
            raise Rejected(f"expected SEAT:N, not {item!r}")
        seat = live_seat(state, who)
        spend[seat] = spend.get(seat, 0) + count(n, "clues")
    if allowed is not None and set(spend) - set(allowed):
        where = current.spend.at if current.spend else None
        raise Rejected(f"seat {sorted(set(spend) - set(allowed))[0]} is not {'at ' + where if where else 'able to'} "
                       "spend clues on the act now")
    holdings = {s: effects.seat_value(state, s, "clues") for s in effects.live_seats(state)}
    ability = current.ability if current.objective else None
    need = state.value("act.clues_required") if ability is None else \
        rules.per_investigator(ability.clues, ability.per_investigator, effects.investigator_count(state))
    rules.group_spend(holdings, spend, need)
    for seat, paid in spend.items():
        if paid:
            txn.add(seat_track(seat, "clues"), -paid)
    if ability is not None:  # the act's ability (The Midnight Masks: the next card of the Cultist deck)
        steps.run(txn, ability.then, state.active_seat or state.lead, source=current.name)
        return
    scenario_cards.advance_act(txn, f"{sum(spend.values())} clues spent")


def resolution(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-ACTAG-11: the players reached a resolution point (→R#) on a card. After a scenario that
    ended with no resolution (AH-ELIM-3 step 6), the guide's entry for that may send the group to a
    numbered resolution: it is recorded beside the ending."""
    usage(args, 1, 1, "resolution R#")
    if not args[0].upper().startswith("R") or not is_number(args[0][1:], signed=False):
        raise Rejected(f"a resolution is written R1, R2, ...; not {args[0]!r}")
    if txn.state.over is not None:
        if rec(txn.state).resolution != "no resolution" or rec(txn.state).resolution_to:
            raise Rejected(f"the scenario already ended ({txn.state.over})")
        txn.put("resolution_to", args[0].upper())
        txn.notice(f"No resolution was reached: the guide sends the group to resolution {args[0].upper()}")
        return
    effects.reach_resolution(txn, args[0].upper(), Result.DRAW)  # the card's own text says how it went


def bonus(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-XP-2: the resolution's experience adjustment, for the campaign log."""
    usage(args, 1, 1, "bonus +N|-N")
    txn.put("xp_bonus", parse_int(args[0], "experience"))


def go_to(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-NEXT-1: the resolution sends the group to another scenario of the campaign."""
    usage(args, 1, 1, "go-to SCENARIO")
    sequence = rec(txn.state).scenario.sequence
    if args[0] not in sequence:
        raise Rejected(f"the campaign has no scenario {args[0]!r} (scenarios: {', '.join(sequence)})")
    txn.put("go_to", args[0])


def _seats_named(state: GameState, text: str) -> list[int]:
    """A seat, or ``each`` for every investigator of the scenario (a defeated one too: the guide's
    "each investigator" counts them)."""
    return list(state.seat_numbers()) if text.lower() in ("each", "all") else [parse_seat(state, text)]


def trauma(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-CAMP-2, AH-TRAUMA-1: trauma the resolution (or a card) gives, for the campaign log; killed or
    insane is judged when the log is written (AH-TRAUMA-3/4)."""
    usage(args, 2, 3, "trauma SEAT|each physical|mental [N]")
    kind = args[1].lower()
    if kind not in ("physical", "mental"):
        raise Rejected(f"trauma is physical or mental, not {args[1]!r}")
    n = count(args[2], "trauma", 1) if len(args) == 3 else 1
    for seat in _seats_named(txn.state, args[0]):
        txn.add(seat_track(seat, f"{kind}_trauma"), n)
        txn.notice(f"seat {seat} suffers {n} {kind} trauma")


def experience(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-XP-2: experience the resolution gives or takes from one investigator (``bonus`` is every
    investigator's); it joins what the seat has unspent in the campaign log."""
    usage(args, 2, 2, "xp SEAT|each +N|-N")
    n = parse_int(args[1], "experience")
    for seat in _seats_named(txn.state, args[0]):
        txn.set(seat_track(seat, "xp"), max(0, effects.seat_value(txn.state, seat, "xp") + n))


def record(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-CAMP-2: a line the campaign guide says to write in the campaign log ("the Ghoul Priest is still
    alive"); the log keeps it with the scenario's result."""
    if not args:
        raise Rejected("usage: record TEXT (what the campaign guide says to write in the log)")
    text = " ".join(args)
    txn.put("records", (*rec(txn.state).records, text))
    txn.notice(f"Campaign log: {text}")


def victory(txn: Txn, args: tuple[str, ...]) -> None:
    """A card with victory points goes to the victory display (AH-XP-2 counts them); named, an
    Objective that counts such cards sees it, and an enemy of that name in play leaves play."""
    if not args:
        raise Rejected("usage: victory N [CARD]")
    card = name_of(args[1:], "card") if len(args) > 1 else None
    found = None if card is None else encounter.known_card(txn.state, card)
    name = found[0] if found else card
    points = count(args[0], "victory points", 1)
    if found is not None and all_in_victory(txn.state, *found):
        raise Rejected(f"{found[0]} is in the victory display already (the scenario has "
                       f"{found[1].count} cop{'y' if found[1].count == 1 else 'ies'})")
    if name is not None and name in board.enemies(txn.state):
        board.enemy_to_victory(txn, name)
    effects.add_victory(txn, points, name)


def all_in_victory(state: GameState, name: str, card: EncounterCard) -> bool:
    """Every copy of the scenario's card is in the victory display (a Forced effect may have put it
    there: Ruth Turner, 01141), so naming it again would score it twice."""
    return rec(state).victory_cards.count(name) >= card.count


def grim(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-GRIM-1: the players settle an open question the worst way for them; the log keeps it."""
    if not args:
        raise Rejected("usage: grim TEXT (how the players resolved it)")
    text = " ".join(args)
    txn.put("grim", (*rec(txn.state).grim, GrimNote(txn.state.round, txn.state.step, text)))
    txn.notice(f"Grim Rule: {text}")


def buy(txn: Txn, args: tuple[str, ...]) -> None:
    """AH-XP-3..8, AH-EXCEPT-1: between scenarios (a campaign scenario before its first NEXT) an
    investigator buys a card with experience; the campaign log keeps the purchase and the deck list,
    and the seat's ``xp`` track shows what is left."""
    plain, named = keywords(args, glue=("remove",), stop=("exceptional", "permanent"))
    level_at = next((i for i, word in enumerate(plain) if i >= 2 and is_number(word, signed=False)), None)
    if len(plain) < 3 or level_at is None:
        raise Rejected("usage: buy SEAT TITLE LEVEL [exceptional] [permanent] [upgrade=N] [remove=TITLE] [class=C]")
    plain = [plain[0], name_of(plain[1:level_at], "card title"), *plain[level_at:]]  # a title is its words
    state = txn.state
    log_body = rec(state).campaign_log
    if log_body is None:
        raise Rejected("cards are bought between the scenarios of a campaign (play --campaign NAME)")
    if (state.round, state.step) != (1, "2.1") or state.prompt is not None:
        raise Rejected("cards are bought only between scenarios: before this scenario's first NEXT")
    unknown = set(named) - {"upgrade", "remove", "class"}
    words = set(plain[3:]) - {"exceptional", "permanent"}
    if unknown or words:
        raise Rejected(f"buy: unknown word {sorted(unknown | words)[0]!r}")
    seat = live_seat(state, plain[0])
    log = Campaign(thaw(log_body))  # a copy: ``Campaign`` writes into its body
    inv = effects.seat_info(state, seat).investigator
    log_seat = next((int(s) for s, i in log.body["players"].items() if i == inv), None)
    if log_seat is None:
        raise Rejected(f"{inv} has no record in the campaign log yet")
    log.investigator(inv)["xp"] = effects.seat_value(state, seat, "xp")
    cost = log.buy(log_seat, plain[1], count(plain[2], "level"), exceptional="exceptional" in plain[3:],
                   upgrade_from=count(named["upgrade"], "level") if "upgrade" in named else None,
                   remove=named.get("remove"), card_class=named.get("class"),
                   permanent="permanent" in plain[3:])
    txn.add(seat_track(seat, "xp"), -cost)
    txn.put("campaign_log", log.body)
    txn.notice(f"seat {seat} buys {plain[1]} for {cost} experience")


def turn(txn: Txn, args: tuple[str, ...]) -> None:
    """2.2 / AH-FW-3: the investigators take their turns in any order; this seat begins its turn now
    (an action or a pass by a seat begins it too)."""
    usage(args, 1, 1, "turn SEAT")
    state = txn.state
    seat = live_seat(state, args[0])
    if state.step != "2.2" or state.prompt is not None or not flowmod.take_turn(txn, txn.game.flow, seat):
        raise Rejected("no turn to start now" + (f" (seat {state.active_seat}'s turn is on)"
                                                  if state.active_seat else ""))


VERBS: dict[str, Verb] = {v.usage.split()[0]: v for v in (
    Verb("actions SEAT", "open the seat's action menu (its B button): pick the action by name", action_menu),
    Verb("ally SEAT NAME", "play an ally from the assets data (cost, Play action, health and sanity)", ally),
    Verb("act SEAT [KIND [TARGET]] [skill=N] [order=E1,E2]", "spend an action (investigate, move, draw, resource, "
         "play, activate, fight, engage, evade, parley, resign, other)", act),
    Verb(ACTIVATE, "an ability costing action icons",
         activate),
    Verb("lose SEAT N", "lose N actions this round", lose),
    Verb("play SEAT COST [event|asset] [fast] [free] [less=N]", "play a card from hand, paying its cost", play),
    Verb("draw-cards SEAT [N]", "draw cards by a card effect (deck reset + 1 horror when empty)", draw_cards),
    Verb("discard SEAT N", "discard cards from hand", discard),
    Verb("hit SEAT DAMAGE [HORROR] [ASSET=D/H ...] [prevent=D/H] [direct]", "deal damage and horror at once", hit),
    Verb("heal SEAT DAMAGE [HORROR]", "heal damage and horror", heal),
    Verb("defeat SEAT", "a card ability defeats the investigator", defeat),
    Verb("resign SEAT", "the investigator resigns", resign),
    Verb("advance agenda card|act objective", "advance outside the usual moment", advance),
    Verb("spend-clues SEAT:N [SEAT:N ...]", "the group spends clues to advance the act", spend_clues),
    Verb("resolution R#", "a resolution point is reached", resolution),
    Verb("victory N [CARD]", "a card worth N victory points joins the victory display", victory),
    Verb("bonus +N|-N", "the resolution's experience adjustment (campaign log)", bonus),
    Verb("go-to SCENARIO", "the resolution sends the group to this scenario next", go_to),
    Verb("trauma SEAT|each physical|mental [N]", "trauma the resolution or a card gives (campaign log)", trauma),
    Verb("xp SEAT|each +N|-N", "experience the resolution gives one investigator (campaign log)", experience),
    Verb("record TEXT", "write a line in the campaign log, as the campaign guide says", record),
    Verb("buy SEAT TITLE LEVEL [exceptional] [permanent] [upgrade=N] [remove=TITLE] [class=C]",
         "between scenarios: buy a card with experience (campaign log)", buy),
    Verb("grim TEXT", "record a Grim Rule resolution", grim),
    Verb("turn SEAT", "the seat begins its turn (any order; acting or passing begins it too)", turn),
    Verb("test SEAT SKILL VALUE DIFFICULTY [auto-success]", "begin a skill test (ST.1)", chaos_verbs.begin_test),
    Verb("commit SEAT ICONS", "commit cards with matching icons (ST.2)", chaos_verbs.commit),
    Verb("resolve", "apply the test's result and end it (ST.7, ST.8)", chaos_verbs.resolve),
    Verb("token add|remove|seal|release NAME [N]", "change the chaos bag", chaos_verbs.token),
    Verb("token-value NAME VALUE [again]", "set a token's modifier (scenario reference)", chaos_verbs.token_value),
    Verb("elder SEAT N", "set an investigator's Elder Sign modifier", chaos_verbs.elder),
    Verb("location NAME [SHROUD CLUES [per]] [to=A,B,...]", "put a location into play: from the scenario's "
         "data by name, or typed with its numbers and connections", board_verbs.location_verb),
    Verb("remove-location NAME", "a card removes a location from the game", board_verbs.remove_location),
    Verb("enter SEAT LOCATION", "place or move an investigator without an action", board_verbs.enter),
    Verb("enemy SEAT NAME [fight=F health=H evade=E damage=D horror=R] [aloof] [hunter] [retaliate] [alert] "
         "[massive] [exhausted] [weakness] [at=LOC]", "an enemy spawns (the scenario's own by name alone)",
         board_verbs.enemy_verb),
    Verb("asset SEAT NAME [health=H] [sanity=S]", "an asset that soaks damage/horror or exhausts",
         board_verbs.asset_verb),
    Verb("exhaust SEAT ASSET", "exhaust an asset (an exhausted one cannot)", board_verbs.exhaust),
    Verb("ready SEAT ASSET", "ready an exhausted asset", board_verbs.ready),
    Verb("enemy-mod NAME fight|evade +N|-N", "modify an enemy's fight or evade", board_verbs.enemy_mod),
    Verb("move-enemy NAME LOCATION", "move an enemy (hunters, card effects)", board_verbs.move_enemy),
    Verb("enemy-state NAME ready|exhausted", "ready or exhaust an enemy by an effect", board_verbs.enemy_state),
    Verb("evade ENEMY", "an ability evades the enemy automatically", board_verbs.evade_auto),
    Verb("engage SEAT ENEMY", "a card effect engages the enemy (no action)", board_verbs.engage_verb),
    Verb("discard-treachery NAME", "a treachery in play leaves it for the encounter discard pile",
         board_verbs.treachery_gone),
    Verb("harm-enemy NAME N", "deal damage to an enemy", board_verbs.harm_enemy),
    Verb("enemy-doom NAME +N|-N", "place or remove doom on an enemy", board_verbs.enemy_doom),
)}
