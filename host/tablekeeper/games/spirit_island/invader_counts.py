"""Keeping the island's Invader counts true: at setup, Build, Explore and Ravage the station asks
what the players put on (or took off) the boards, per terrain shown, with the answer the rules
give from the island's counts offered first. Nothing is added that the players did not confirm.

The questions wait in a queue (``counts.queue``) and are asked one at a time; a Ravage's Blight
runs the FAQ's Blight questions (``blight_prompts``) in between. Each terrain's Ravage, Build or
Explore is an Invader Action (``begin``/``end`` on the timing stack), so triggered actions such as
Scotland's wait for it to finish (SI-BLIGHT-1 step 6) and the victory check sees the whole action.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import msgspec

from tablekeeper.core import timing
from tablekeeper.core.events import Json
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import blight_prompts, damage, invader_rules, lands, table_actions
from tablekeeper.games.spirit_island.common import adversary, get, slots, table
from tablekeeper.games.spirit_island.invader_rules import Invader, Land

QUEUE = "counts.queue"
KINDS = ("explorers", "towns", "cities")
PIECE_OF = {"explorers": "explorer", "towns": "town", "cities": "city"}
NAMES = {"explorers": ("Explorer", "Explorers"), "towns": ("Town", "Towns"), "cities": ("City", "Cities")}
PROMPTS = {"setup": "si.counts.setup", "build": "si.counts.build", "explore": "si.counts.explore",
           "blight": "si.counts.ravage_blight", "destroyed": "si.counts.ravage_destroyed",
           "loss": "si.counts.loss", "overview": "si.counts.overview"}
AS_THE_RULES = "as the rules place them"
ANSWERED = ("setup", "build", "explore", "blight", "destroyed")


class Question(msgspec.Struct, frozen=True, omit_defaults=True):
    """One queued question (or an Invader Action's begin/end marker) about one terrain; logged as a
    JSON object without its default fields.

    An ``overview`` question stands for the ``group`` entries after it: its first answer takes the
    rules' answer (``preset``) for each of them at once (``auto``), its second asks them one by one.
    """

    kind: str  # overview | setup | build | explore | blight | destroyed | loss | begin | end
    terrain: str = ""
    board: str = ""
    step: str = ""
    group: int = 0
    auto: bool = False
    preset: tuple[int, int, int] | None = None

    @staticmethod
    def of(raw: Any) -> Question:
        return msgspec.convert(raw, Question)

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = msgspec.to_builtins(self)
        return out


Counts = tuple[int, int, int]  # explorers, towns, cities


def _boards(state: GameState) -> int:
    return int(state.get("boards", state.seats))


def board_names(state: GameState) -> list[str]:
    return [chr(ord("A") + i) for i in range(_boards(state))]


def island(state: GameState) -> Counts:
    e, t, c = (state.value(f"island.{k}") for k in KINDS)
    return e, t, c


def _per_board(state: GameState) -> Counts:
    """The island's pieces shared out over the boards (rounded up): the rules' view of one board."""
    n = _boards(state)
    e, t, c = island(state)
    return -(-e // n), -(-t // n), -(-c // n)


def _text(counts: Counts) -> str:
    """``2 Explorers, 1 Town``, or ``nothing``."""
    parts = [f"{n} {NAMES[k][n != 1]}" for k, n in zip(KINDS, counts, strict=True) if n]
    return ", ".join(parts) if parts else "nothing"


def _answers(likely: Counts, kinds: tuple[str, ...], cap: int) -> list[Counts]:
    """Every combination of ``kinds`` up to ``cap`` pieces, the rules' answer first, then none,
    then by size."""
    ranges = [range(cap + 1) if k in kinds else range(1) for k in KINDS]
    combos = [(e, t, c) for e, t, c in product(*ranges) if e + t + c <= cap]
    combos.sort(key=lambda x: (sum(x), x))
    rest = [x for x in combos if x != likely]
    return [likely, *rest] if likely in combos else combos


# --- what the rules expect -----------------------------------------------------------------------
def likely_build(state: GameState) -> Counts:
    """SI-INV-5 on each board: a City where Towns outnumber Cities, else a Town; none without
    Invaders."""
    piece = invader_rules.build(*_per_board(state))
    n = _boards(state)
    return {None: (0, 0, 0), "town": (0, n, 0), "city": (0, 0, n)}[piece]


def _model_lands(state: GameState, terrain: str) -> list[Land]:
    """One board's lands of ``terrain`` as the data describes a board: the first coastal, the
    others inland beside a land holding the board's buildings (if it has any)."""
    data = table(state)
    _, towns, cities = _per_board(state)
    town_land = Land("built", terrain, towns=towns, cities=cities)
    if terrain == "Coastal":
        return [Land(f"c{i}", "Coastal", coastal=True) for i in range(data.coastal_lands_per_board)]
    return [Land(f"{terrain}{i}", terrain, coastal=(i == 0), adjacent=("built",))
            for i in range(data.lands_per_terrain)] + [town_land]


def likely_explore(state: GameState, terrain: str) -> int:
    """SI-INV-6 on each board's lands of the terrain."""
    lands = _model_lands(state, terrain)
    by_name = {land.name: land for land in lands}
    per_board = sum(invader_rules.explore_adds(land, by_name) for land in lands if land.name != "built")
    return per_board * _boards(state)


def ravage_damage(state: GameState, terrain: str, board: str) -> int:
    """SI-INV-2 / SI-DEFEND-1 / SI-STRIFE-2: the damage one board's Invaders deal in a land of the
    terrain (an Invader with Strife deals none), less the Defend recorded on that board's lands of
    the terrain."""
    dealt, _ = invader_rules.ravage_damage(_invaders(state, terrain, board), _defend(state, terrain, board),
                                           table(state).piece_damage)
    return damage.boosted(dealt, _badlands(state, terrain, board))  # SI-BADLANDS-3


def _invaders(state: GameState, terrain: str = "", board: str = "") -> list[Invader]:
    """One board's share of the Invaders; the Strife recorded on its lands of the terrain sits on
    the biggest of them."""
    e, t, c = _per_board(state)
    pieces = [Invader("city")] * c + [Invader("town")] * t + [Invader("explorer")] * e
    strife = sum(rec.strife for rec in lands.of_terrain(state, terrain, board)) if terrain else 0
    return [Invader(p.kind, strife=1) if i < strife else p for i, p in enumerate(pieces)]


def _defend(state: GameState, terrain: str, board: str) -> int:
    """SI-DEFEND-4: Defend recorded (``land A3 terrain=Jungle defend=2``) on the board's lands of
    the terrain, a single-land amount settled when it was recorded."""
    sources = [damage.DefendSource(locked=rec.defend) for rec in lands.of_terrain(state, terrain, board)]
    return damage.defend_total(sources[:1], dahan=0, sitting_out=0, in_ravage=True) if sources else 0


def _badlands(state: GameState, terrain: str, board: str) -> int:
    return max((rec.badlands for rec in lands.of_terrain(state, terrain, board)), default=0)


def likely_destroyed(state: GameState, terrain: str) -> Counts:
    """SI-INV-4: the Dahan that survive the Ravage (the ones recorded in the terrain's lands, or
    the data's per land) strike back; their damage destroys what it can, Towns first."""
    data = table(state)
    total: list[int] = [0, 0, 0]
    for board in board_names(state):
        recorded = [rec.dahan for rec in lands.of_terrain(state, terrain, board) if rec.dahan is not None]
        dahan = sum(recorded) if recorded else data.dahan_per_land
        e, t, c = _per_board(state)
        result = invader_rules.ravage(_invaders(state, terrain, board), (0,) * dahan,
                                      defend=_defend(state, terrain, board), damage=data.piece_damage,
                                      dahan_health=data.piece_health["dahan"])
        left = result.counterattack
        for i, kind in ((1, "town"), (0, "explorer"), (2, "city")):
            health = data.piece_health[kind]
            have = (e, t, c)[i]
            while left >= health and have:
                left -= health
                have -= 1
                total[i] += 1
    e, t, c = island(state)
    return min(total[0], e), min(total[1], t), min(total[2], c)


# --- queueing -------------------------------------------------------------------------------------
def _terrains(cards: list[str]) -> list[str]:
    out: list[str] = []
    for card in cards:
        shown = ["Coastal"] if card == "Coastal" else sorted(invader_rules.card_terrains(card))
        out += [t for t in shown if t not in out]
    return out


def _push(txn: Txn, questions: list[Question]) -> None:
    queue = get(txn.state, QUEUE, [])
    txn.put(QUEUE, [*queue, *(q.to_json() for q in questions)])


def _action(step: str, terrain: str, inner: list[Question]) -> list[Question]:
    return [Question("begin", terrain, step=step), *inner, Question("end", terrain, step=step)]


def _overview(step: str, terrains: str, questions: list[Question]) -> list[Question]:
    """One question for the whole step, every board at once, before its detailed questions."""
    return [Question("overview", terrains, step=step, group=len(questions)), *questions]


def ask_setup(txn: Txn) -> None:
    """Setup: the pieces the boards start with, confirmed rather than assumed."""
    _push(txn, _overview("Setup", "", [Question("setup", terrain=k) for k in KINDS]))
    resume(txn)


def ask_build(txn: Txn, terrains: list[str] | None = None, label: str = "Build") -> None:
    """The Build step (or an Event's Build in one terrain, SI-ERRATA-3)."""
    questions: list[Question] = []
    shown = terrains if terrains is not None else _terrains(list(slots(txn.state).build))
    for terrain in shown:
        questions += _action(label, terrain, [Question("build", terrain, step=label.split(" (")[0])])
    _push(txn, [*_overview(label, " and ".join(shown), questions), *_loss_check(txn.state, "build")])
    resume(txn)


def ask_explore(txn: Txn, card: str, escalation: str = "") -> None:
    """The Explore card's additions; with an adversary's escalation on the card, what it added
    after the Explore."""
    questions: list[Question] = []
    shown = _terrains([card])
    for terrain in shown:
        questions += _action("Explore", terrain, [Question("explore", terrain, step="Explore")])
    if escalation:
        txn.notice(f"Escalation: {escalation}")
        for terrain in shown:
            questions += _action("Escalation", terrain, [Question("build", terrain, step="Escalation")])
    _push(txn, _overview("Explore", " and ".join(shown), questions))
    resume(txn)


def _loss_check(state: GameState, step: str) -> list[Question]:
    """The adversary's extra loss condition, asked as the step named for it ends."""
    name = adversary(state)[0]
    rules = table(state).adversaries.get(name)
    if not name or rules is None or not rules.loss or rules.loss_at != step:
        return []
    return [Question("loss", terrain=name)]


def ask_ravage(txn: Txn, terrains: list[str] | None = None, label: str = "Ravage") -> None:
    """The Ravage step (or an Event's Ravage in one terrain, SI-ERRATA-4)."""
    questions: list[Question] = []
    shown = terrains if terrains is not None else _terrains(list(slots(txn.state).ravage))
    for terrain in shown:
        inner = [Question("blight", terrain, board, step=label) for board in board_names(txn.state)]
        questions += _action(label, terrain, [*inner, Question("destroyed", terrain, step=label)])
    _push(txn, [*_overview(label, " and ".join(shown), questions), *_loss_check(txn.state, "ravage")])
    resume(txn)


def withdraw(txn: Txn, step: str) -> None:
    """Drop the queued and open questions of ``step`` (and close its open Invader Actions)."""
    prompt = txn.state.prompt
    if prompt is not None and prompt.id.startswith("si.counts."):
        q = Question.of(prompt.context["q"])
        if q.step == step or q.kind == step.lower():
            txn.close_prompt()
    queue = [q for q in get(txn.state, QUEUE, []) if q.get("step") != step and q.get("kind") != step.lower()]
    txn.put(QUEUE, queue or None)
    while (timing.current_action(txn.state) or "").startswith(f"{step} in "):
        table_actions.end(txn)


def waiting(state: GameState) -> str | None:
    if get(state, QUEUE, []):
        return "answer the Invader questions first"
    return None


# --- asking ---------------------------------------------------------------------------------------
def resume(txn: Txn) -> None:
    """Ask the next queued question, unless a question or a cascade is already waiting; a question
    the table answered with "as the rules place them" takes its preset answer without asking."""
    while txn.state.prompt is None and not get(txn.state, "blight.pending", []):
        queue = get(txn.state, QUEUE, [])
        if not queue or txn.state.over is not None:
            return
        q = Question.of(queue[0])
        txn.put(QUEUE, queue[1:] or None)
        if q.kind == "begin":
            table_actions.begin(txn, f"{q.step} in {q.terrain}")
        elif q.kind == "end":
            table_actions.end(txn, quiet=True)
        elif q.auto and q.preset is not None:
            _take_preset(txn, q, q.preset)
        else:
            _ask(txn, q)


def _rules_answer(state: GameState, q: Question) -> Counts:
    """What the rules give for one question, from the island's counts now: the pieces added or
    destroyed; for a board's Ravage Blight, (1 if it adds Blight, damage dealt, 0)."""
    if q.kind == "setup":
        i = KINDS.index(q.terrain)
        n = table(state).island_per_board[q.terrain] * _boards(state)
        return (n if i == 0 else 0, n if i == 1 else 0, n if i == 2 else 0)
    if q.kind == "build":
        return likely_build(state)
    if q.kind == "explore":
        return likely_explore(state, q.terrain), 0, 0
    if q.kind == "blight":
        dealt = ravage_damage(state, q.terrain, q.board)
        return int(invader_rules.blight_from_ravage(dealt)), dealt, 0
    return likely_destroyed(state, q.terrain)


def _summary(overview: Question, group: list[Question]) -> str:
    """The rules' answers for the whole step in words (the first option of an overview question)."""
    if overview.step == "Setup":
        total = [sum(q.preset[i] for q in group if q.preset is not None) for i in range(3)]
        return _text((total[0], total[1], total[2]))
    parts: list[str] = []
    terrains = list(dict.fromkeys(q.terrain for q in group if q.kind in ANSWERED))
    for terrain in terrains:
        mine = [q for q in group if q.terrain == terrain and q.preset is not None]
        said: list[str] = []
        boards = [q.board for q in mine if q.kind == "blight" and q.preset and q.preset[0]]
        if boards:
            where = f"board {', '.join(boards)}" if len(board_names_of(mine)) > 1 else "the board"
            said.append(f"Blight on {where} (no cascade, no Presence there)")
        for q in mine:
            if q.kind in ("build", "explore") and q.preset is not None:
                said.append(("Escalation adds " if q.step == "Escalation" else "")
                            + f"{_text(q.preset)} added")
            elif q.kind == "destroyed" and q.preset is not None:
                said.append(f"{_text(q.preset)} destroyed")
        if any(q.kind == "blight" for q in mine) and not boards:
            said.insert(0, "no Blight")
        parts.append((f"{terrain}: " if len(terrains) > 1 else "") + ", ".join(said))
    return "; ".join(parts)


def board_names_of(questions: list[Question]) -> list[str]:
    return sorted({q.board for q in questions if q.board})


def _ask_overview(txn: Txn, q: Question) -> None:
    """Fill in the rules' answer for each question of the group now, and ask once for all."""
    queue = get(txn.state, QUEUE, [])
    group = [Question.of(raw) for raw in queue[:q.group]]
    filled = [msgspec.structs.replace(g, preset=_rules_answer(txn.state, g)) if g.kind in ANSWERED else g
              for g in group]
    txn.put(QUEUE, [*(g.to_json() for g in filled), *queue[q.group:]] or None)
    summary = _summary(q, [g for g in filled if g.kind in ANSWERED])
    if q.step == "Setup":
        text, detail = "Setup: the pieces on the island?", "piece by piece"
    elif q.step.startswith("Ravage"):
        text, detail = f"{q.step} in {q.terrain}: what happened?", "board by board"
    else:
        text, detail = f"{q.step} in {q.terrain}: what was added?", "terrain by terrain"
    txn.ask(PROMPTS["overview"], text, [f"{AS_THE_RULES}: {summary}", detail], context={"q": q.to_json()})


def on_overview(txn: Txn, index: int) -> None:
    """First answer: the whole group takes the rules' answers; second: asked one by one."""
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("there is nothing to choose")
    q = Question.of(prompt.context["q"])
    txn.close_prompt()
    if index == 0:
        queue = get(txn.state, QUEUE, [])
        group = [msgspec.structs.replace(Question.of(raw), auto=True).to_json() for raw in queue[:q.group]]
        txn.put(QUEUE, [*group, *queue[q.group:]] or None)
    resume(txn)


def _take_preset(txn: Txn, q: Question, preset: Counts) -> None:
    """Apply one question's rules answer, as if the players had chosen it."""
    if q.kind == "setup":
        txn.set(f"island.{q.terrain}", sum(preset))
    elif q.kind in ("build", "explore"):
        _added(txn, q.step or "Build", q.terrain, preset)
    elif q.kind == "blight":
        if preset[0]:
            mark_board(txn, q.board)
            txn.notice(f"Ravage in {q.terrain}: Blight on board {q.board}")
            blight_prompts.add_plain(txn)
    elif q.kind == "destroyed":
        _destroyed(txn, q.terrain, preset)


def _ask(txn: Txn, q: Question) -> None:
    state = txn.state
    boards = _boards(state)
    context: dict[str, Json] = {"q": q.to_json()}
    if q.kind == "overview":
        _ask_overview(txn, q)
        return
    if q.kind == "setup":
        likely = q.preset or _rules_answer(state, q)
        answers = _answers(likely, (q.terrain,), max(sum(likely) + boards, 3 * boards))
        txn.ask(PROMPTS["setup"], f"Setup: how many {q.terrain} are on the island?",
                [_text(a) for a in answers], context={**context, "answers": [list(a) for a in answers]})
    elif q.kind == "build":
        answers = _answers(q.preset or likely_build(state), ("towns", "cities"), boards + 1)
        txn.ask(PROMPTS["build"], f"{q.step or 'Build'} in {q.terrain}: what was added?",
                [_text(a) for a in answers], context={**context, "answers": [list(a) for a in answers]})
    elif q.kind == "explore":
        n = (q.preset or (likely_explore(state, q.terrain), 0, 0))[0]
        cap = max(n, (table(state).lands_per_terrain if q.terrain != "Coastal"
                      else table(state).coastal_lands_per_board) * boards) + 1
        answers = _answers((n, 0, 0), ("explorers",), cap)
        txn.ask(PROMPTS["explore"], f"Explore in {q.terrain}: what was added?", [_text(a) for a in answers],
                context={**context, "answers": [list(a) for a in answers]})
    elif q.kind == "blight":
        blight, dealt, _ = q.preset or _rules_answer(state, q)
        where = f" on board {q.board}" if boards > 1 else ""
        options = [f"Blight added ({dealt} Damage to the land)", "no Blight"] if blight \
            else [f"no Blight ({dealt} Damage to the land)", "Blight added"]
        txn.ask(PROMPTS["blight"], f"Ravage in {q.terrain}{where}: did it add Blight?", options,
                context={**context, "blight_first": bool(blight)})
    elif q.kind == "loss":
        rules = table(state).adversaries[q.terrain]
        txn.ask(PROMPTS["loss"], f"{q.terrain.title()}'s loss condition: {rules.loss}",
                ["no, play on", "yes: the game is lost"], context=context)
    elif q.kind == "destroyed":
        likely = q.preset or likely_destroyed(state, q.terrain)
        answers = _answers(likely, KINDS, max(2, sum(likely)))
        txn.ask(PROMPTS["destroyed"], f"Ravage in {q.terrain}: what did the Dahan destroy?",
                [_text(a) for a in answers], context={**context, "answers": [list(a) for a in answers]})


def _chosen(txn: Txn, index: int) -> tuple[Question, Counts]:
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("there is nothing to choose")
    q = Question.of(prompt.context["q"])
    raw = prompt.context.get("answers") or [[0, 0, 0]]
    picked = raw[index] if index < len(raw) else [0, 0, 0]
    txn.close_prompt()
    return q, (int(picked[0]), int(picked[1]), int(picked[2]))


def on_setup(txn: Txn, index: int) -> None:
    q, counts = _chosen(txn, index)
    txn.set(f"island.{q.terrain}", sum(counts))
    resume(txn)


def _added(txn: Txn, what: str, terrain: str, counts: Counts) -> None:
    for kind, n in zip(KINDS, counts, strict=True):
        if n:
            txn.add(f"island.{kind}", n)
    txn.notice(f"{what} {terrain}: {_text(counts)} added")


def on_loss(txn: Txn, index: int) -> None:
    q, _ = _chosen(txn, 0)
    if index == 1:
        txn.put("defeat.pending", [f"{q.terrain.title()}: {table(txn.state).adversaries[q.terrain].loss.rstrip('?')}"])
    resume(txn)


def on_build(txn: Txn, index: int) -> None:
    q, counts = _chosen(txn, index)
    _added(txn, q.step or "Build", q.terrain, counts)
    resume(txn)


def on_explore(txn: Txn, index: int) -> None:
    q, counts = _chosen(txn, index)
    _added(txn, "Explore", q.terrain, counts)
    resume(txn)


def on_ravage_blight(txn: Txn, index: int) -> None:
    prompt = txn.state.prompt
    if prompt is None:
        raise Rejected("there is nothing to choose")
    q = Question.of(prompt.context["q"])
    blight = (index == 0) == bool(prompt.context["blight_first"])
    txn.close_prompt()
    if not blight:
        resume(txn)
        return
    mark_board(txn, q.board)
    txn.notice(f"Ravage in {q.terrain}: Blight on board {q.board}")
    blight_prompts.start(txn)


def mark_board(txn: Txn, board: str) -> None:
    """SI-BLIGHT-3: the boards a Ravage added Blight to this turn, shown on the track display."""
    boards = get(txn.state, "ravage.blight_boards", []) or []
    if board not in boards:
        txn.put("ravage.blight_boards", [*boards, board])


def destroy_pieces(txn: Txn, piece: str, n: int) -> None:
    """SI-INV-8: destroying a Town or City generates Fear on top of the effect's own."""
    track = "island." + {"explorer": "explorers", "town": "towns", "city": "cities"}[piece]
    if txn.value(track) < n:
        raise Rejected(f"the island has {txn.value(track)} {track.split('.')[1]}, cannot destroy {n}")
    txn.add(track, -n)
    fear_each = table(txn.state).piece_fear[piece]
    if fear_each * n:
        txn.notice(f"Destroying {n} {piece}(s) generates {fear_each * n} Fear")
        txn.add("fear.generated", fear_each * n)


def on_ravage_destroyed(txn: Txn, index: int) -> None:
    q, counts = _chosen(txn, index)
    _destroyed(txn, q.terrain, counts)
    resume(txn)


def _destroyed(txn: Txn, terrain: str, counts: Counts) -> None:
    have = island(txn.state)
    counts = (min(counts[0], have[0]), min(counts[1], have[1]), min(counts[2], have[2]))
    for kind, n in zip(KINDS, counts, strict=True):
        if n:
            destroy_pieces(txn, PIECE_OF[kind], n)
    if sum(counts):
        txn.notice(f"Ravage in {terrain}: {_text(counts)} destroyed")


def ravage_question_board(state: GameState) -> str | None:
    """The board a Ravage's open Blight question is about (a named ``blight LAND`` answers it)."""
    prompt = state.prompt
    if prompt is None or prompt.id != PROMPTS["blight"]:
        return None
    return str(prompt.context["q"]["board"])
