"""What the station's displays show for Arkham (128x64 OLED: about 21 characters by 5 lines), which
tracks the up/down buttons reach first, and what each seat's two buttons mean right now."""

from __future__ import annotations

from tablekeeper.core.derived import VIEWS, Same
from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow
from tablekeeper.core.odds import percent
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.games.arkham import board, effects, skilltest
from tablekeeper.games.arkham.odds import success_chance

WIDTH = 21


def _fit(text: str) -> str:
    return text if len(text) <= WIDTH else text[: WIDTH - 1] + "~"


def _panel(title: str, lines: list[str], big: str | None = None) -> Panel:
    return Panel(_fit(title), tuple(_fit(line) for line in lines[:4]), big)


def track_panel(flow: Flow, state: GameState) -> Panel:
    """The time track: round, phase and framework step, with the doom against the agenda."""
    phase = flow.phase(state.phase).label if state.phase else ""
    step = flow.step(state.phase, state.step).title if state.step else ""
    doom = state.value("agenda.doom") + state.value("doom.other")
    lines = [phase, step,
             f"Agenda {state.value('agenda')} doom {doom}/{state.value('agenda.threshold')}",
             _act_line(state)]
    if state.over:
        lines = [f"Over: {state.over}", *lines[:3]]
    return _panel(f"Round {state.round}", lines, big=str(doom))


def _act_line(state: GameState) -> str:
    act = effects.card(state, "act")
    if act.get("objective"):
        return f"Act {state.value('act')}: objective"
    return f"Act {state.value('act')} clues {state.value('act.clues_required')}"


def tokens_panel(state: GameState) -> Panel:
    """The chaos bag, or the running skill test with its exact odds before the reveal."""
    if state.prompt is not None and state.prompt.id != "flow.next_seat":
        return _panel(state.prompt.text, [f"{i}. {o}" for i, o in enumerate(state.prompt.options, 1)])
    test = skilltest.current(state)
    bag = skilltest.chaos_bag(state)
    if test is None:
        sealed = bag.sealed.total
        seat = state.active_seat or state.lead
        margins = [margin_chance(state, seat, k) for k in range(4)]
        return _panel(f"Chaos bag {bag.contents.total}",
                      [f"{state.get('scenario')['difficulty']}" + (f" sealed {sealed}" if sealed else ""),
                       f"+0 {margins[0]} +1 {margins[1]}", f"+2 {margins[2]} +3 {margins[3]}"])
    skill = int(test["base"]) + int(test["committed"])
    seat = int(test["seat"])
    title = f"{test['step']} s{seat} {test['skill'][:3]} {skill}v{test['difficulty']}"
    drawn = " ".join(test["tokens"])
    if test["result"] is None:  # lines stay short: the big figure takes the right-hand side
        chance = percent(skilltest.odds(state, test))
        return _panel(title, [drawn or "commit icons", f"{seat}A: reveal"], big=chance)
    result = test["result"]
    return _panel(title, [drawn, f"{result['modified_skill']} vs {result['difficulty']}", f"{seat}A: resolve"],
                  big="PASS" if result["success"] else "FAIL")


def margin_chance(state: GameState, seat: int, margin: int) -> str:
    """The chance of a test whose skill beats the difficulty by ``margin`` (before any test starts)."""
    contents = skilltest.chaos_bag(state).contents
    base = 20  # high enough that the floor of the modified skill at 0 never matters
    elder = skilltest.elder_sign(state, seat)

    def compute() -> str:
        chance = success_chance(contents.as_dict(), skilltest.token_kinds(state), base + margin, base, elder)
        return f"{float(chance) * 100:.0f}%"

    key = ("arkham.margin", contents, Same(state.get("tokens")), margin, elder)
    return VIEWS.get(key, compute, placeholder="..")


def seat_panel(state: GameState, seat: int) -> Panel:
    info = effects.seat_info(state, seat)

    def value(name: str) -> int:
        return effects.seat_value(state, seat, name)

    name = str(info["name"]).split()[0]
    out = effects.eliminated(state).get(str(seat))
    if out is not None:
        fate = state.get("fate", {}).get(str(seat))
        return _panel(name, [f"out: {out}", *([fate] if fate else []),
                             f"trauma {value('physical_trauma')}P {value('mental_trauma')}M"])
    turn = " TURN" if state.active_seat == seat else ""
    lead = "*" if state.lead == seat else ""
    engaged = board.engaged_with(state, seat)
    lines = [f"HP {value('health') - value('damage')}/{value('health')} San "
             f"{value('sanity') - value('horror')}/{value('sanity')}",
             f"Clu {value('clues')} Res {value('resources')}" + (f" Eng{len(engaged)}" if engaged else ""),
             f"Act {value('actions')} Hand {value('hand')}"]
    if engaged:
        lines.append("Eng " + ",".join(engaged))
    return _panel(f"{lead}{name}{turn}", lines, big=str(value("actions")) if turn else None)


def panels(flow: Flow, state: GameState) -> dict[str, Panel]:
    out = {"track": track_panel(flow, state), "tokens": tokens_panel(state)}
    for seat in state.seat_numbers():
        out[f"seat{seat}"] = seat_panel(state, seat)
    return out


def adjustable(state: GameState) -> list[str]:
    """The current seat's counters first, then the scenario's, then everyone else's."""
    first = state.active_seat or state.lead
    seats = [first, *[s for s in state.seat_numbers() if s != first]]
    per_seat = ("damage", "horror", "clues", "resources", "actions")
    names = [f"seat{first}.{n}" for n in per_seat]
    names += ["agenda.doom", "doom.other", "agenda.threshold", "act.clues_required"]
    names += [f"seat{s}.{n}" for s in seats[1:] for n in per_seat]
    return [n for n in names if n in state.tracks]


def button(state: GameState, role: str, held: bool) -> Command | None:
    """seatN.a: choose me to go next (or as lead, or as prey) / take physical trauma (held: mental) /
    pick option N of an attack-order or hunter prompt / reveal for my test / resolve it / spend an
    action; seatN.b: end my turn."""
    seat_text, _, which = role.partition(".")
    if not seat_text.startswith("seat") or not seat_text[4:].isdigit():
        return None
    seat = int(seat_text[4:])
    prompt = state.prompt
    test = skilltest.current(state)
    if which == "a":
        if prompt is not None and prompt.id == "flow.next_seat" and seat in prompt.context.get("seats", ()):
            return Command("turn", (seat_text,), origin="button")
        if prompt is not None and prompt.id in ("lead", "prey") and seat in prompt.context.get("seats", ()):
            return Command("choose", (str(list(prompt.context["seats"]).index(seat) + 1),), origin="button")
        if prompt is not None and prompt.id == "trauma" and prompt.context.get("seat") == seat:
            return Command("choose", ("2" if held else "1",), origin="button")
        if prompt is not None and prompt.id in ("attack_order", "hunter_move") and seat <= len(prompt.options):
            return Command("choose", (str(seat),), origin="button")  # seat buttons 1-4 pick options 1-4
        if test is not None and int(test["seat"]) == seat:
            if test["result"] is None:
                return Command("draw", ("chaos",), origin="button")
            return Command("resolve", origin="button")
        if state.step == "2.2" and state.active_seat == seat:
            return Command("act", (seat_text,), origin="button")
        return None
    if which == "b" and state.step == "2.2" and state.active_seat == seat and test is None:
        return Command("next", origin="button")
    return None
