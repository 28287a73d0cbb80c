"""Keeping the island's Invaders true, land by land: at setup, Build, Explore and Ravage the station
asks what the players put on (or took off) the real boards, with the answer the rules give from
each land's pieces offered first. Nothing is added that the players did not confirm.

The questions wait in a queue (``counts.queue``) and are asked one at a time. Each step asks one
question first (``overview``): its first answer takes the rules' answer for every land at once, its
second asks land by land. Each land's Ravage, Build or Explore is an Invader Action of its own
(``begin``/``end`` on the timing stack, SI-BLIGHT-1 step 6), so triggered actions such as Scotland's
wait for it, and the victory check sees the whole action. A script's ``end`` never closes one of
these: they end when their questions are answered."""

from __future__ import annotations

from itertools import product

import msgspec

from tablekeeper.core import timing
from tablekeeper.core.events import Json
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import (
    adversary_rules,
    blight_effects,
    blight_track,
    damage,
    fear_rules,
    invader_rules,
    island_setup,
    lands,
    spirits,
    table_actions,
)
from tablekeeper.games.spirit_island.common import adversary, slots, table
from tablekeeper.games.spirit_island.invader_rules import Invader
from tablekeeper.games.spirit_island.record import LandRecord, PresenceLoss, Question, shared

QUEUE = "counts.queue"
OWN = "counts.own"  # timing-stack depths of the Invader Actions the station opened itself
KINDS = ("explorers", "towns", "cities")
PIECE_OF = {kind: piece for piece, kind in lands.PIECE_KINDS.items()}
NAMES = {"explorers": ("Explorer", "Explorers"), "towns": ("Town", "Towns"), "cities": ("City", "Cities")}
PROMPTS = {"setup": "si.counts.setup", "build": "si.counts.build", "explore": "si.counts.explore",
           "ravage": "si.counts.ravage_blight", "destroyed": "si.counts.ravage_destroyed",
           "loss": "si.counts.loss", "overview": "si.counts.overview", "where": "si.counts.where",
           "place": "si.counts.place", "swayed": "si.counts.swayed", "push": "si.counts.push",
           "entrench": "si.counts.entrench"}
AS_THE_RULES = "as the rules place them"
ANSWERED = ("setup", "build", "explore", "ravage", "destroyed")
NOWHERE = "nowhere"

Counts = tuple[int, int, int]  # explorers, towns, cities


def _text(counts: tuple[int, ...]) -> str:
    """``2 Explorers, 1 Town``, or ``nothing``."""
    parts = [f"{n} {NAMES[k][n != 1]}" for k, n in zip(KINDS, counts, strict=False) if n]
    return ", ".join(parts) if parts else "nothing"


def _answers(likely: Counts, kinds: tuple[str, ...], cap: int) -> list[Counts]:
    """Every combination of ``kinds`` up to ``cap`` pieces, the rules' answer first, then none,
    then by size."""
    ranges = [range(cap + 1) if k in kinds else range(1) for k in KINDS]
    combos = [(e, t, c) for e, t, c in product(*ranges) if e + t + c <= cap]
    combos.sort(key=lambda x: (sum(x), x))
    rest = [x for x in combos if x != likely]
    return [likely, *rest] if likely in combos else combos


# --- what the rules expect, land by land ---------------------------------------------------------------
def _invaders(state: GameState, rec: LandRecord) -> list[Invader]:
    """The land's Invaders, biggest first; its recorded Strife sits on the biggest of them."""
    pieces = [Invader("city")] * rec.cities + [Invader("town")] * rec.towns + [Invader("explorer")] * rec.explorers
    return [Invader(p.kind, strife=1) if i < rec.strife else p for i, p in enumerate(pieces)]


def defend_in(state: GameState, name: str, rec: LandRecord) -> int:
    """SI-DEFEND-1/4: Defend recorded in the land (a single-land amount settled when recorded), plus
    a Spirit's own Defend at its Sacred Sites (Earth's Vitality) and this turn's Fear cards'
    island-wide Defend, counted now."""
    extra = sum(adversary_rules.sacred_site_defend(state, seat) for seat in state.seat_numbers()
                if rec.presence.get(str(seat), 0) >= 2)
    sources = [damage.DefendSource(locked=rec.defend + extra),
               damage.DefendSource(amount=fear_rules.defend(state, name), island_wide=True)]
    return damage.defend_total(sources, dahan=0, sitting_out=0, in_ravage=True)


def ravage_damage(state: GameState, name: str, rec: LandRecord) -> int:
    """SI-INV-2 / SI-DEFEND-1 / SI-STRIFE-2 / SI-BADLANDS-3: the damage the land's Invaders deal in
    it (an Invader with Strife deals none), less its Defend, boosted by its Badlands."""
    dealt, _ = invader_rules.ravage_damage(_invaders(state, rec), defend_in(state, name, rec),
                                           adversary_rules.piece_damage(state))
    return damage.boosted(dealt, rec.badlands)


def rules_ravage(state: GameState, name: str) -> tuple[int, int, int, int]:
    """(Blight added, Damage to the land, Dahan destroyed, extra Blight) for one land's Ravage."""
    rec = lands.land(state, name)
    dealt = ravage_damage(state, name, rec)
    health = table(state).piece_health["dahan"]
    survivors = invader_rules.dahan_casualties((0,) * rec.dahan, dealt, health)
    extra = adversary_rules.heavy_mining(state, dealt)
    return invader_rules.blight_from_ravage(dealt), dealt, rec.dahan - len(survivors), extra


def rules_destroyed(state: GameState, name: str, dahan_lost: int) -> Counts:
    """SI-INV-4: the Dahan that survive the Ravage strike back with 2 Damage each; their damage
    destroys what it can, Towns first, then Explorers, then Cities."""
    rec = lands.land(state, name)
    data = table(state)
    left = data.piece_damage["dahan"] * max(0, rec.dahan - dahan_lost)
    health = adversary_rules.piece_health(state)
    have = [rec.explorers, rec.towns, rec.cities]
    out = [0, 0, 0]
    for i, kind in ((1, "town"), (0, "explorer"), (2, "city")):
        while left >= health[kind] and have[i]:
            left -= health[kind]
            have[i] -= 1
            out[i] += 1
    return out[0], out[1], out[2]


def rules_build(state: GameState, name: str) -> Counts:
    """SI-INV-5: a City where Towns outnumber Cities, else a Town; none without Invaders (England 1:
    an empty land next to enough Towns and Cities builds a Town), nor where a Fear card resolved
    this turn says Invaders do not Build (that piece)."""
    rec = lands.land(state, name)
    piece = invader_rules.build(rec.explorers, rec.towns, rec.cities)
    if piece is None and adversary_rules.builds_empty(state, name):
        piece = "town"
    if piece is not None and fear_rules.stops_build(state, name, piece):
        piece = None  # a Fear card resolved this turn (Trade Suffers, Avoid the Dahan, ...)
    return {None: (0, 0, 0), "town": (0, 1, 0), "city": (0, 0, 1)}[piece]


def explores(state: GameState, name: str) -> bool:
    """SI-INV-6: the land has a source: it is Coastal, or holds or touches a Town or City."""
    where = lands.place(state, name)
    records = lands.all_lands(state)

    def model(n: str) -> invader_rules.Land:
        rec, at = records.get(n, LandRecord()), lands.place(state, n)
        return invader_rules.Land(n, at.terrain, at.coastal, rec.towns, rec.cities, rec.explorers,
                                  adjacent=at.adjacent)

    return bool(invader_rules.explore_adds(model(name), {n: model(n) for n in (name, *where.adjacent)}))


def rules_explore(state: GameState, name: str, card: str = "") -> Counts:
    """SI-INV-6: 1 Explorer where the land has a source. After setup, Scotland 1 puts a Town
    instead in a Coastal land (the Coastal Lands card: in its board's first 2), France 1 a second
    Explorer in a land without Towns or Cities."""
    if not explores(state, name) or fear_rules.stops_explore(state, name):
        return 0, 0, 0
    if state.phase == "setup":
        return 1, 0, 0
    where = lands.place(state, name)
    port = adversary_rules.applies(state, "trading_port")
    if port is not None and where.coastal:
        ranked = [n for n, p in lands.places(state).items() if p.board == where.board and p.coastal]
        if card != "Coastal" or ranked.index(name) < port[0]:
            return 0, 1, 0
    rec = lands.land(state, name)
    if adversary_rules.applies(state, "frontier_explorers") is not None and not rec.buildings:
        return 2, 0, 0
    return 1, 0, 0


def _step_lands(state: GameState, kind: str, terrains: list[str], cards: bool = True) -> list[str]:
    """The lands a step's cards hit where the rules may do something: Invaders there (Ravage,
    Build; or England's empty lands next to Towns and Cities), a source (Explore). Russia 3's
    Ravage cards (not an Event's Ravage) also hit lands with 3 or more Explorers."""
    out: list[str] = []
    if kind == "ravage" and cards:
        terrains = [*terrains, *(name for name in lands.places(state) if adversary_rules.ravages_too(state, name))]
    for terrain in terrains:
        for name in [terrain] if terrain in lands.places(state) else lands.matching(state, terrain):
            if name in out:
                continue
            rec = lands.land(state, name)
            if kind == "explore":
                if explores(state, name):
                    out.append(name)
            elif rec.invaders or (kind == "build" and adversary_rules.builds_empty(state, name)):
                out.append(name)
    return out


# --- queueing -------------------------------------------------------------------------------------------
def _terrains(cards: list[str]) -> list[str]:
    out: list[str] = []
    for card in cards:
        shown = ["Coastal"] if card == "Coastal" else sorted(invader_rules.card_terrains(card))
        out += [t for t in shown if t not in out]
    return out


def _push(txn: Txn, questions: list[Question], front: bool = False) -> None:
    queue = shared(txn.state).queue
    txn.put(QUEUE, [*questions, *queue] if front else [*queue, *questions])


def _action(label: str, land: str, inner: list[Question]) -> list[Question]:
    return [Question("begin", land=land, step=label), *inner, Question("end", land=land, step=label)]


def _overview(kind: str, label: str, terrains: list[str]) -> Question:
    """One question for a whole step; the lands it asks about are found when it is asked, from the
    pieces on the island then."""
    return Question("overview", " and ".join(terrains), board=kind, step=label)


def _land_questions(state: GameState, q: Question) -> list[Question]:
    """The land-by-land questions an overview stands for: each land its cards hit where the rules
    may do something, each its own Invader Action."""
    kind, label = q.board, q.step
    step = label.split(" (")[0]
    out: list[Question] = []
    for name in _step_lands(state, kind, q.terrain.split(" and "), cards=label in ("Ravage", "Build", "Explore")):
        if kind == "ravage":
            inner = [Question("ravage", land=name, board=lands.board_of(name), step=step),
                     Question("destroyed", land=name, step=step)]
        else:
            inner = [Question(kind, q.terrain if kind == "explore" else "", land=name, step=step)]
        out += _action(label, name, inner)
    return out


def ask_setup(txn: Txn) -> None:
    """Setup: the pieces printed on the boards (and an adversary's additions), confirmed."""
    _push(txn, [Question("setup", step="Setup")])
    resume(txn)


def ask_build(txn: Txn, terrains: list[str] | None = None, label: str = "Build",
              cards: list[str] | None = None) -> None:
    """A Build step (or an Event's Build in one terrain, SI-ERRATA-3; or England's extra Build)."""
    if terrains is None:
        terrains = _terrains(cards if cards is not None else list(slots(txn.state).build))
    _push(txn, [_overview("build", label, terrains), *_loss_check(txn.state, "build")])
    resume(txn)


def ask_explore(txn: Txn, card: str, escalation: bool = False) -> None:
    """An Explore card's additions, land by land; an adversary's escalation after them; and the
    reactions after an Explore card resolves (France 6), once per card (SI-ERRATA-2)."""
    shown = _terrains([card])
    after = [Question("after_card", card)]
    if escalation:
        after = [Question("escalation", " and ".join(shown)), *after]
    if txn.state.phase == "setup" and adversary_rules.applies(txn.state, "royal_backing") is not None:
        after.append(Question("royal_backing"))
    _push(txn, [_overview("explore", "Explore", shown), *after])
    resume(txn)


def escalation_questions(txn: Txn, terrains: list[str]) -> list[Question]:
    """The adversary's escalation, asked or placed after the card's Explore."""
    key, level = adversary(txn.state)
    if not key:
        return []
    esc = table(txn.state).adversary_at(key, level).escalation
    if esc is None:
        return []
    txn.notice(f"Escalation ({esc.name}): {esc.effect}")
    if esc.rule == "town_replaces_dahan":
        explored = [n for t in terrains for n in lands.matching(txn.state, t)]
        return [q for name in explored
                for q in _action("Escalation", name, [Question("swayed", land=name, step="Escalation")])]
    if esc.rule == "ports_sprawl":  # one board, N = players Towns, each in another land
        txn.put(adversary_rules.PORTS, None)
        return _action("Escalation", "the island", [Question("place", esc.rule, step="Escalation")
                                                    for _ in range(txn.state.seats)])
    if esc.rule:
        return [q for board in lands.board_letters(txn.state)
                for q in _action("Escalation", board, [Question("place", esc.rule, board=board, step="Escalation",
                                                                land=" and ".join(terrains))] * max(1, esc.n))]
    return []


def _loss_check(state: GameState, step: str) -> list[Question]:
    """The adversary's extra loss condition that the players judge, asked as its step ends."""
    key, level = adversary(state)
    if not key:
        return []
    loss = table(state).adversary_at(key, level).loss
    if loss is None or loss.rule or loss.at != step:
        return []
    return [Question("loss", terrain=key)]


def ask_ravage(txn: Txn, terrains: list[str] | None = None, label: str = "Ravage") -> None:
    """The Ravage step (or an Event's Ravage in one terrain, SI-ERRATA-4), land by land."""
    shown = terrains if terrains is not None else _terrains(list(slots(txn.state).ravage))
    after = [Question("after_ravage", " and ".join(shown))] if label == "Ravage" else []
    _push(txn, [_overview("ravage", label, shown), *_loss_check(txn.state, "ravage"), *after])
    resume(txn)


def entrench(txn: Txn, earned: int) -> None:
    """Russia 5: the Invader card under the ``earned``-th Fear card is revealed once that card is
    earned (Stage II under the 3rd, Stage III under the 7th)."""
    found = adversary_rules.applies(txn.state, "entrench") or ()
    if earned in found:
        stage = 2 if found.index(earned) == 0 else 3
        _push(txn, [Question("entrench", str(stage), step="Entrench in the Face of Fear")], front=True)
        resume(txn)


def royal_backing(txn: Txn) -> None:
    """Sweden 4, after the setup's Explore: the next Invader card is flipped and discarded (the
    device's, or the players' ``reveal invaders CARD``); ``invader_track`` places its Towns."""
    txn.put("invader.royal_backing", 1)
    txn.notice("Royal Backing: the next Invader card is discarded; each board gets a Town in its terrain")
    if shared(txn.state).invader_draws == "device":
        txn.draw("invaders")


def place_on_each_board(txn: Txn, rule: str, where: str, label: str) -> None:
    """A placing rule on every board, placed by the rules where they leave no choice."""
    _push(txn, [Question("place", rule, board=b, land=where, step=label, auto=True)
                for b in lands.board_letters(txn.state)], front=True)
    resume(txn)


def after_ravage(txn: Txn, terrains: list[str]) -> None:
    """After the Ravage step: Scotland 6 adds a Town to each Inland land the Ravage card matches
    within 1 of a Town or City; Russia 6 (from turn 2), on each board where the Ravage added no
    Blight, an Explorer and a Town in the land with the most Explorers."""
    state = txn.state
    if adversary_rules.applies(state, "inward_growth") is not None:
        inland = [n for n, p in lands.places(state).items() if not p.coastal and any(p.matches(t) for t in terrains)]
        for name in inland:
            near = [name, *lands.place(state, name).adjacent]
            if any(lands.land(state, n).buildings for n in near):  # as the Ravage step left them
                lands.put(txn, name, lands.land(txn.state, name).add("towns", 1))
                txn.notice(f"Exports Fuel Inward Growth: 1 Town added in {name}")
    if adversary_rules.applies(state, "fast_profit") is not None and state.round >= 2:
        blighted = shared(state).ravage_blight_boards
        _push(txn, [Question("place", "fast_profit", board=b, step="Pressure for Fast Profit", auto=True)
                    for b in lands.board_letters(state) if b not in blighted], front=True)


def ask_where(txn: Txn, kind: str, delta: int) -> None:
    """A hand change of the island's count of ``kind``: which land it was in (asked before the
    next Invader question)."""
    step = 1 if delta > 0 else -1
    _push(txn, [Question("where", piece=kind, delta=step) for _ in range(abs(delta))], front=True)
    resume(txn)


def withdraw(txn: Txn, step: str) -> None:
    """Drop the queued and open questions of ``step`` (and close its open Invader Actions)."""
    prompt = txn.state.prompt
    if prompt is not None and prompt.id.startswith("si.counts."):
        q = Question.of(prompt.context["q"])
        if q.step == step or q.kind == step.lower():
            txn.close_prompt()
    queue = [q for q in shared(txn.state).queue if q.step != step and q.kind not in (step.lower(), "after_card")]
    txn.put(QUEUE, queue or None)
    while (timing.current_action(txn.state) or "").startswith(f"{step} in "):
        _end_own(txn)


def waiting(state: GameState) -> str | None:
    if shared(state).queue:
        return "answer the Invader questions first"
    return None


def owns_current_action(state: GameState) -> bool:
    """Is the innermost open action one of the station's own Invader Actions?"""
    return timing.depth(state) in shared(state).own_actions


def _begin_own(txn: Txn, name: str) -> None:
    table_actions.begin(txn, name)
    txn.put(OWN, [*shared(txn.state).own_actions, timing.depth(txn.state)])


def _end_own(txn: Txn) -> None:
    own = [d for d in shared(txn.state).own_actions if d != timing.depth(txn.state)]
    txn.put(OWN, own or None)
    table_actions.end(txn, quiet=True)


# --- asking ----------------------------------------------------------------------------------------------
def resume(txn: Txn) -> None:
    """Ask the next queued question, unless a question or a cascade is already waiting; a question
    the table answered with "as the rules place them" takes its rules' answer without asking."""
    blight_track.next_question(txn)
    while txn.state.prompt is None and not blight_track.busy(txn.state):
        queue = shared(txn.state).queue
        if not queue or txn.state.over is not None:
            return
        q = queue[0]
        txn.put(QUEUE, queue[1:] or None)
        if q.kind == "begin":
            _begin_own(txn, f"{q.step} in {q.land}")
        elif q.kind == "end":
            _end_own(txn)
        elif q.kind == "after_card":
            adversary_rules.after_explore_card(txn, q.terrain)
        elif q.kind == "sworn":
            sworn_to_victory(txn, q.land, q.count)
        elif q.kind == "after_ravage":
            after_ravage(txn, q.terrain.split(" and "))
        elif q.kind == "royal_backing":
            royal_backing(txn)
        elif q.kind == "escalation":
            found = escalation_questions(txn, q.terrain.split(" and "))
            _push(txn, [msgspec.structs.replace(e, auto=q.auto) for e in found], front=True)
        elif q.kind == "where":
            _ask_where(txn, q)
        elif q.auto and q.kind in ANSWERED:
            _take(txn, q, q.preset if q.preset is not None else _rules_answer(txn.state, q))
        elif q.auto and q.kind in ("swayed", "place") and _automatic(txn.state, q) is not None:
            _take_place(txn, q, _automatic(txn.state, q))
        else:
            _ask(txn, q)


def _rules_answer(state: GameState, q: Question) -> tuple[int, ...]:
    """What the rules give for one question, from the lands now."""
    if q.kind == "setup":
        return (1,)
    if q.kind == "build":
        return rules_build(state, q.land)
    if q.kind == "explore":
        return rules_explore(state, q.land, q.terrain)
    if q.kind == "ravage":
        return rules_ravage(state, q.land)
    if q.kind == "destroyed":  # before the land's Ravage: the Dahan its damage will destroy don't strike back
        return rules_destroyed(state, q.land, rules_ravage(state, q.land)[2])
    return ()


def _summary(overview: Question, group: list[Question], state: GameState) -> str:
    """The rules' answers for the whole step in words (the first option of an overview question)."""
    if overview.step == "Setup":
        return island_setup.summary(state)
    parts: dict[str, list[str]] = {}  # what the rules do: the lands it happens in (a short line)
    for name in dict.fromkeys(q.land for q in group if q.kind in ANSWERED):
        said: list[str] = []
        for q in (g for g in group if g.land == name and g.preset is not None):
            answer: tuple[int, ...] = q.preset or ()
            if q.kind == "ravage":
                blight, dealt, lost, extra = answer
                said.append(f"{dealt} Damage" + (", Blight" if blight else "") + (" +1 (Heavy Mining)" if extra else "")
                            + (f", {lost} Dahan lost" if lost else ""))
            elif q.kind == "destroyed" and any(answer):
                said.append(f"{_text(answer)} destroyed")
            elif q.kind in ("build", "explore") and any(answer):
                said.append(f"{_text(answer)} added")
        if said:
            parts.setdefault(", ".join(said), []).append(name)
    text = "; ".join(f"{', '.join(names)}: {said}" for said, names in parts.items()) if parts else "nothing happens"
    applied = fear_rules.names(state, overview.board)
    if applied:
        text += f" (with {', '.join(applied)})"
    if overview.board in ("ravage", "build"):
        stoppable = [name for name in dict.fromkeys(q.land for q in group if q.kind == overview.board)
                     if chokers(state, name)]
        if stoppable:
            text += f" ({', '.join(stoppable)}: Choke the Land with Green may stop it, land by land)"
    if any(q.kind == "ravage" and q.preset and q.preset[0] for q in group) and any(
            lands.placed_presence(state, s) < state.value(seat_track(s, "presence")) for s in state.seat_numbers()):
        text += " (Presence not placed in a land is not lost)"
    return text


def _ask_overview(txn: Txn, q: Question) -> None:
    """Find the step's lands, fill in the rules' answer for each of their questions now, and ask
    once for all."""
    group = _land_questions(txn.state, q)
    q = msgspec.structs.replace(q, group=len(group))
    filled = [msgspec.structs.replace(g, preset=_rules_answer(txn.state, g)) if g.kind in ANSWERED else g
              for g in group]
    _push(txn, filled, front=True)
    summary = _summary(q, filled, txn.state)
    if q.step.startswith("Ravage"):
        text, detail = f"{q.step} in {q.terrain}: what happened?", "land by land"
    else:
        text, detail = f"{q.step} in {q.terrain}: what was added?", "land by land"
    txn.ask(PROMPTS["overview"], text, [f"{AS_THE_RULES}: {summary}", detail], context={"q": q.to_json()})


def on_overview(txn: Txn, index: int) -> None:
    """First answer: the whole group takes the rules' answers; second: asked one by one."""
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    txn.close_prompt()
    if index == 0:  # the group, and the escalation right after it, take the rules' answers
        queue = shared(txn.state).queue
        size = q.group + int(len(queue) > q.group and queue[q.group].kind == "escalation")
        group = [msgspec.structs.replace(queued, auto=True) for queued in queue[:size]]
        txn.put(QUEUE, [*group, *queue[size:]] or None)
    resume(txn)


def _take(txn: Txn, q: Question, preset: tuple[int, ...]) -> None:
    """Apply one question's rules answer, as if the players had chosen it."""
    if q.kind == "setup":
        island_setup.place(txn, printed_pieces=bool(preset[0]))
    elif q.kind == "build":
        _built(txn, q, (preset[0], preset[1], preset[2]))
    elif q.kind == "explore":
        _added(txn, q.step or "Explore", q.land, (preset[0], preset[1], preset[2]))
    elif q.kind == "ravage":
        _ravaged(txn, q, blight=bool(preset[0]), lost=preset[2], extra=preset[3], ask_presence=False)
    elif q.kind == "destroyed":
        _destroyed(txn, q.land, (preset[0], preset[1], preset[2]))


def _ask(txn: Txn, q: Question) -> None:
    state = txn.state
    context: dict[str, Json] = {"q": q.to_json()}
    if q.kind == "overview":
        _ask_overview(txn, q)
    elif q.kind == "setup":
        boards = ", ".join(lands.board_letters(state))
        txn.ask(PROMPTS["setup"], "Setup: the pieces on the island?",
                [f"as printed on boards {boards}: {island_setup.summary(state)}",
                 "none yet (record them with land LAND town=N ...)"], context=context)
    elif q.kind == "build":
        likely = q.preset or rules_build(state, q.land)
        answers = _answers((likely[0], likely[1], likely[2]), ("towns", "cities"), 2)
        stoppers = chokers(state, q.land)
        txn.ask(PROMPTS["build"], f"{q.step or 'Build'} in {q.land}: what was added?",
                [*(_text(a) for a in answers), *(CHOKE.format(seat=seat) for seat in stoppers)],
                context={**context, "answers": [list(a) for a in answers], "choke": stoppers})
    elif q.kind == "explore":
        likely = q.preset or rules_explore(state, q.land, q.terrain)
        kinds = ("explorers", "towns") if adversary_rules.applies(state, "trading_port") is not None else ("explorers",)
        answers = _answers((likely[0], likely[1], likely[2]), kinds, max(sum(likely), 1) + 1)
        txn.ask(PROMPTS["explore"], f"Explore in {q.land}: what was added?", [_text(a) for a in answers],
                context={**context, "answers": [list(a) for a in answers]})
    elif q.kind == "ravage":
        blight, dealt, lost, _ = q.preset or rules_ravage(state, q.land)
        said = f"{dealt} Damage" + (f", {lost} Dahan lost" if lost else "")
        options = [f"Blight added ({said})", "no Blight"] if blight else [f"no Blight ({said})", "Blight added"]
        stoppers = chokers(state, q.land)
        txn.ask(PROMPTS["ravage"], f"Ravage in {q.land}: did it add Blight?",
                [*options, *(CHOKE.format(seat=seat) for seat in stoppers)],
                context={**context, "blight_first": bool(blight), "choke": stoppers})
    elif q.kind == "loss":
        at = table(state).adversary_at(q.terrain, adversary(state)[1])
        effect = at.loss.effect if at.loss else ""
        txn.ask(PROMPTS["loss"], f"{at.name}'s loss condition: {effect}",
                ["no, play on", "yes: the game is lost"], context=context)
    elif q.kind == "destroyed":
        likely = rules_destroyed(state, q.land, 0)  # asked after the land's Ravage: its Dahan are counted
        answers = _answers((likely[0], likely[1], likely[2]), KINDS, max(2, sum(likely)))
        txn.ask(PROMPTS["destroyed"], f"Ravage in {q.land}: what did the Dahan destroy?",
                [_text(a) for a in answers], context={**context, "answers": [list(a) for a in answers]})
    elif q.kind == "swayed":
        rec = lands.land(state, q.land)
        yes_first = _automatic(state, q) == [q.land]
        options = ["yes: a Town replaces a Dahan", "no"] if yes_first else ["no", "yes: a Town replaces a Dahan"]
        txn.ask(PROMPTS["swayed"], f"Swayed by the Invaders in {q.land} ({rec.invaders} Invaders, "
                f"{rec.dahan} Dahan): does a Town replace a Dahan?", options,
                context={**context, "yes_first": yes_first})
    elif q.kind == "entrench":
        stage = int(q.terrain)
        options = list(dict.fromkeys(table(state).invader_pools[stage - 1]))
        txn.ask(PROMPTS["entrench"], f"Entrench in the Face of Fear: the Stage {'I' * stage} Invader card under "
                "the Fear cards is revealed: which is it? It goes to the Build slot", options,
                context={**context, "cards": options, "stage": stage})
    elif q.kind == "push":
        options = list(lands.place(state, q.land).adjacent)
        piece = NAMES[q.piece or "explorers"][0]
        txn.ask(PROMPTS["push"], f"{q.step}: the {piece} in {q.land} is pushed: into which adjacent land?",
                options, context={**context, "lands": options})
    elif q.kind == "place":
        candidates = adversary_rules.escalation_lands(state, q.terrain, q.board, q.land)
        if not candidates:
            return
        txn.ask(PROMPTS["place"], adversary_rules.place_question(state, q.terrain, q.board, q.land),
                [*candidates, NOWHERE], context={**context, "lands": candidates})


def _automatic(state: GameState, q: Question) -> list[str] | None:
    """Lands an escalation question places in by the rules alone (None: the players choose)."""
    if q.kind == "swayed":
        rec = lands.land(state, q.land)
        return [q.land] if rec.dahan and rec.invaders >= rec.dahan else []
    return adversary_rules.automatic_lands(state, q.terrain, q.board, q.land)


def _take_place(txn: Txn, q: Question, chosen: list[str] | None) -> None:
    for name in chosen or []:
        adversary_rules.escalate(txn, q.terrain if q.kind == "place" else "town_replaces_dahan", name)


def _chosen(txn: Txn, index: int) -> tuple[Question, Counts]:
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    raw = prompt.context.get("answers") or [[0, 0, 0]]
    picked = raw[index] if index < len(raw) else [0, 0, 0]
    txn.close_prompt()
    return q, (int(picked[0]), int(picked[1]), int(picked[2]))


def on_setup(txn: Txn, index: int) -> None:
    txn.open_prompt()
    txn.close_prompt()
    island_setup.place(txn, printed_pieces=index == 0)
    resume(txn)


def _added(txn: Txn, what: str, land: str, counts: Counts) -> None:
    rec = lands.land(txn.state, land)
    for kind, n in zip(KINDS, counts, strict=True):
        rec = rec.add(kind, n)
    lands.put(txn, land, rec)
    if sum(counts):
        txn.notice(f"{what} in {land}: {_text(counts)} added")


def on_loss(txn: Txn, index: int) -> None:
    q, _ = _chosen(txn, 0)
    if index == 1:
        at = table(txn.state).adversary_at(q.terrain, adversary(txn.state)[1])
        effect = at.loss.effect.rstrip("?") if at.loss else ""
        txn.put("defeat.pending", [f"{at.name}: {effect}"])
    resume(txn)


def on_counts(txn: Txn, index: int) -> None:
    """A land's Build, Explore or Dahan strike-back answered (pieces added or destroyed): applied as
    the rules' own answer is (one handler for the three questions of this shape); a Build stopped
    by Choke the Land with Green adds nothing and costs its seat a Presence."""
    context = txn.open_prompt().context
    stopped = index - len(context.get("answers") or [])
    q, counts = _chosen(txn, index)
    if stopped >= 0 and context.get("choke"):
        _choke(txn, q, int(context["choke"][stopped]))
    else:
        _take(txn, q, counts)
    resume(txn)


def _built(txn: Txn, q: Question, counts: Counts) -> None:
    """A land's Build as answered, then what an adversary adds after it: France 2 turns all but 1
    of 2 or more Explorers there into Towns; France 4's Coastal City adds a Town next door."""
    _added(txn, q.step or "Build", q.land, counts)
    if not sum(counts):
        return
    rec = lands.land(txn.state, q.land)
    if adversary_rules.applies(txn.state, "slave_labor") is not None and rec.explorers >= 2:
        n = rec.explorers - 1
        lands.put(txn, q.land, rec.add("explorers", -n).add("towns", n))
        plural = "s" if n > 1 else ""
        txn.notice(f"Slave Labor: {n} Explorer{plural} in {q.land} replaced by Town{plural}")
    if counts[2] and adversary_rules.applies(txn.state, "triangle_trade") is not None \
            and lands.place(txn.state, q.land).coastal:
        _push(txn, [Question("place", "triangle_trade", land=q.land, board=lands.board_of(q.land),
                             step="Triangle Trade", auto=q.auto)], front=True)


def on_ravage_blight(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    rules = q.preset or rules_ravage(txn.state, q.land)
    blight = (index == 0) == bool(prompt.context["blight_first"])
    txn.close_prompt()
    if index >= 2:  # Choke the Land with Green: no Ravage here
        _choke(txn, q, int(prompt.context["choke"][index - 2]))
        resume(txn)
        return
    # the Dahan losses follow the answer: no Blight means less than 2 Damage, which destroys none
    lost = rules[2] if blight or not rules[0] else 0
    _ravaged(txn, q, blight=blight, lost=lost, extra=rules[3] if blight else 0, ask_presence=True)
    resume(txn)


def _ravaged(txn: Txn, q: Question, *, blight: bool, lost: int, extra: int, ask_presence: bool) -> None:
    """A land's Ravage as the players answered: Dahan destroyed by the Invaders' damage, then the
    Blight (SI-BLIGHT-1) with its cascade chosen among the adjacent lands."""
    if lost:
        rec = lands.land(txn.state, q.land)
        lands.put(txn, q.land, rec.add("dahan", -lost))
        txn.notice(f"Ravage in {q.land}: {lost} Dahan destroyed")
        _after_action(txn, q.land, Question("sworn", land=q.land, count=lost))
    if blight:
        mark_board(txn, lands.board_of(q.land))
        txn.notice(f"Ravage in {q.land}: Blight added")
        blight_track.add(txn, q.land, 1, ask_presence=ask_presence)
        if extra:
            blight_track.add_plain(txn, q.land, "Heavy Mining")


def _after_action(txn: Txn, land: str, question: Question) -> None:
    """Queue ``question`` right after the end of ``land``'s open Invader Action: a triggered
    action waits for the action that set it off (SI-TRIGGER-1)."""
    queue = list(shared(txn.state).queue)
    at = next((i + 1 for i, queued in enumerate(queue) if queued.kind == "end" and queued.land == land), 0)
    txn.put(QUEUE, [*queue[:at], question, *queue[at:]])


CHOKE = "stopped: seat {seat} destroys 1 Presence there (Choke the Land with Green)"


def chokers(state: GameState, land: str) -> list[int]:
    """The seats that may stop a Ravage or Build in ``land`` by destroying 1 of their Presence
    there: a Spirit with Choke the Land with Green and a Sacred Site in it."""
    rec = lands.land(state, land)
    out: list[int] = []
    for seat in state.seat_numbers():
        spirit = spirits.spirit_of(state, seat)
        if spirit is not None and spirit.stops_invaders_at_sacred_sites and rec.presence.get(str(seat), 0) >= 2:
            out.append(seat)
    return out


def _choke(txn: Txn, q: Question, seat: int) -> None:
    """The land's Ravage or Build does not happen; the seat destroys 1 of its Presence there."""
    rec = lands.land(txn.state, q.land)
    lands.put(txn, q.land, rec.with_presence(str(seat), rec.presence.get(str(seat), 0) - 1))
    txn.add(seat_track(seat, "presence"), -1)
    txn.notice(f"Choke the Land with Green: the {q.step or 'Build'} in {q.land} is stopped; "
               f"seat {seat} destroys 1 Presence there")
    if q.kind == "ravage":  # no Ravage: no Dahan strike back either
        queue = list(shared(txn.state).queue)
        at = next((i for i, queued in enumerate(queue) if queued.kind == "destroyed" and queued.land == q.land), None)
        if at is not None:
            txn.put(QUEUE, [*queue[:at], *queue[at + 1:]] or None)


def sworn_to_victory(txn: Txn, land: str, dahan: int) -> None:
    """SI-TRIGGER-2: after a Ravage destroyed Dahan, a Spirit sworn to victory (Thunderspeaker)
    destroys 1 of its Presence within its Range of that land for each, asked land by land."""
    for seat in txn.state.seat_numbers():
        spirit = spirits.spirit_of(txn.state, seat)
        reach = spirit.presence_per_ravaged_dahan_within if spirit is not None else None
        if reach is None or not txn.value(seat_track(seat, "presence")):
            continue
        near = lands.within(txn.state, land, reach)
        unplaced = txn.value(seat_track(seat, "presence")) > lands.placed_presence(txn.state, seat)
        if not unplaced and not any(lands.land(txn.state, n).presence.get(str(seat), 0) for n in near):
            continue
        txn.notice(f"Sworn to Victory: the Ravage in {land} destroyed {dahan} Dahan, so seat {seat} "
                   f"destroys {dahan} Presence within {reach} of {land}")
        reason = f"Sworn to Victory (Ravage in {land})"
        txn.put(blight_effects.LOSS, [*shared(txn.state).presence_loss,
                                      PresenceLoss(seat, dahan, reason, tuple(near))])
    blight_effects.ask_loss(txn)


def mark_board(txn: Txn, board: str) -> None:
    """SI-BLIGHT-3: the boards a Ravage added Blight to this turn, shown on the track display."""
    boards = shared(txn.state).ravage_blight_boards
    if board not in boards:
        txn.put("ravage.blight_boards", [*boards, board])


def destroy_pieces(txn: Txn, piece: str, n: int, land: str) -> None:
    """SI-INV-8: destroying a Town or City generates Fear on top of the effect's own. Russia 2's
    push is queued first; the caller asks it (a Ravage's own questions run on, in order)."""
    kind = lands.PIECE_KINDS[piece]
    rec = lands.land(txn.state, land)
    if rec.count(kind) < n:
        raise Rejected(f"{land} has {rec.count(kind)} {kind}, cannot destroy {n}")
    if piece == "explorer" and n and adversary_rules.impending_disaster(txn):
        n -= 1  # Russia 2: the first Explorer this action would destroy is pushed instead
        _push(txn, [Question("push", land=land, step="A Sense for Impending Disaster")], front=True)
        txn.notice(f"A Sense for Impending Disaster: 1 Explorer in {land} is pushed instead of destroyed (1 Fear)")
        txn.add("fear.generated", 1)
    lands.put(txn, land, rec.add(kind, -n))
    fear_each = table(txn.state).piece_fear[piece]
    if fear_each * n:
        txn.notice(f"Destroying {n} {piece}(s) generates {fear_each * n} Fear")
        txn.add("fear.generated", fear_each * n)


def _destroyed(txn: Txn, land: str, counts: Counts) -> None:
    rec = lands.land(txn.state, land)
    counts = (min(counts[0], rec.explorers), min(counts[1], rec.towns), min(counts[2], rec.cities))
    for kind, n in zip(KINDS, counts, strict=True):
        if n:
            destroy_pieces(txn, PIECE_OF[kind], n, land)
    if sum(counts):
        txn.notice(f"Ravage in {land}: {_text(counts)} destroyed")


def _where_options(state: GameState, q: Question) -> list[str]:
    records = lands.all_lands(state)
    if q.delta > 0:
        return list(lands.places(state))
    return [name for name in lands.places(state) if records.get(name, LandRecord()).count(q.piece)]


def _ask_where(txn: Txn, q: Question) -> None:
    if (q.delta > 0) != (lands.unplaced(txn.state, q.piece) > 0) or not lands.unplaced(txn.state, q.piece):
        return  # already placed (the count and the lands agree again)
    options = _where_options(txn.state, q)
    one = NAMES[q.piece][0]
    if not options:
        txn.notice(f"No land holds a {one}: the island's count alone changed")
        return
    text = f"A {one} was added: in which land?" if q.delta > 0 else f"A {one} was removed: from which land?"
    txn.ask(PROMPTS["where"], text, options, context={"q": q.to_json(), "lands": options})


def on_where(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    name = str(prompt.context["lands"][index])
    txn.close_prompt()
    rec = lands.land(txn.state, name)
    lands.place_waiting(txn, name, rec.add(q.piece, q.delta))
    resume(txn)


def on_place(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    candidates = [str(c) for c in prompt.context["lands"]]
    txn.close_prompt()
    if index < len(candidates):
        adversary_rules.escalate(txn, q.terrain, candidates[index])
    resume(txn)


def on_push(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    to = str(prompt.context["lands"][index])
    txn.close_prompt()
    source, kind = lands.land(txn.state, q.land), q.piece or "explorers"
    if source.count(kind):
        lands.put(txn, q.land, source.add(kind, -1))
        lands.put(txn, to, lands.land(txn.state, to).add(kind, 1))
        txn.notice(f"1 {NAMES[kind][0]} pushed from {q.land} into {to}")
    resume(txn)


def push_pieces(txn: Txn, kind: str, n: int, land: str, why: str) -> None:
    """``n`` of ``kind`` pushed out of ``land``, each asked where (SI-PUSH-1: they may split)."""
    _push(txn, [Question("push", land=land, step=why, piece=kind)] * n, front=True)
    resume(txn)


def on_swayed(txn: Txn, index: int) -> None:
    prompt = txn.open_prompt()
    q = Question.of(prompt.context["q"])
    yes = (index == 0) == bool(prompt.context["yes_first"])
    txn.close_prompt()
    if yes:
        adversary_rules.escalate(txn, "town_replaces_dahan", q.land)
    resume(txn)


def ravage_question_land(state: GameState) -> str | None:
    """The land a Ravage's open Blight question is about (``blight LAND`` answers it)."""
    prompt = state.prompt
    if prompt is None or prompt.id != PROMPTS["ravage"]:
        return None
    return str(prompt.context["q"]["land"])
