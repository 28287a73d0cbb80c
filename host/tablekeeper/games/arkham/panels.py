"""What the station's displays show for Arkham (128x64 OLED: about 21 characters by 5 lines), which
tracks the up/down buttons reach first, and what each seat's two buttons mean right now."""

from __future__ import annotations

from tablekeeper.core import derived
from tablekeeper.core.events import Command
from tablekeeper.core.flow import Flow
from tablekeeper.core.odds import percent
from tablekeeper.core.state import GameState, Prompt
from tablekeeper.core.tracks import SeatTrack, seat_track
from tablekeeper.core.view import Panel, Priority
from tablekeeper.games.arkham import board, effects, reference, skilltest
from tablekeeper.games.arkham.data import TokenKind
from tablekeeper.games.arkham.odds import success_chance
from tablekeeper.games.arkham.record import rec

WIDTH = 21  # a title longer than this is cut by the renderer; lines wrap and page instead

MARGIN_KEY = (("+1: 63%", "a skill 1 above the test's difficulty passes 63% of the time"),)


def _panel(title: str, lines: list[str], big: str | None = None,
           legend: tuple[tuple[str, str], ...] = ()) -> Panel:
    return Panel(title, tuple(lines), big, legend)


def track_panel(flow: Flow, state: GameState) -> Panel:
    """The time track: round, phase and framework step, with the doom against the agenda."""
    phase = flow.phase(state.phase).label if state.phase else ""
    step = flow.step(state.phase, state.step).title if state.step else ""
    doom = state.value("agenda.doom") + state.value("doom.other")
    lines = [phase, step, f"Doom {doom} of {state.value('agenda.threshold')}", _act_line(state)]
    # doom and act only where there is room (the big figure shows the doom; both cards lie on the
    # table), so the screen fits a small display, "waiting" line included, without turning pages
    ranks = [Priority.KEY, Priority.KEY, Priority.DETAIL, Priority.DETAIL]
    if state.over:
        lines, ranks = [f"Over: {state.over}", *lines[:3]], [Priority.KEY, *ranks[:3]]
    return Panel.ranked(f"Round {state.round}, agenda {state.value('agenda')}", tuple(zip(lines, ranks, strict=True)),
                        big=str(doom))


def _act_line(state: GameState) -> str:
    act = effects.card(state, "act")
    if act.objective:
        return f"Act {state.value('act')}: objective"
    return f"Act {state.value('act')} needs {state.value('act.clues_required')} clues"


def tokens_panel(state: GameState) -> Panel:
    """The chaos bag, or the running skill test with its exact odds before the reveal."""
    if state.prompt is not None:  # the whole question (wrapped); the banner shows the answer pointed at
        return Panel.question("Question", state.prompt.text,
                              tuple(f"{i}. {o}" for i, o in enumerate(state.prompt.options, 1)))
    test = skilltest.current(state)
    bag = skilltest.chaos_bag(state)
    if test is None:
        sealed = bag.sealed.total
        seat = state.active_seat or state.lead
        kinds = skilltest.token_kinds(state, seat)  # the reference card read on the board, once a frame
        margins = [margin_chance(state, seat, k, kinds) for k in range(4)]
        lines = ["Skill over test: pass", f"+0: {margins[0]}  +1: {margins[1]}", f"+2: {margins[2]}  +3: {margins[3]}"]
        if sealed:
            lines.append(f"{sealed} tokens sealed")
        lines += _doubts(state, seat)
        return _panel(f"{rec(state).scenario.difficulty.capitalize()} bag: {bag.contents.total}", lines,
                      legend=MARGIN_KEY)
    title = f"{seat_name(state, test.seat)}: {test.skill}"  # the test's seat and skill
    drawn = ", ".join(test.tokens)
    against = f"skill {test.value} vs {test.difficulty}"
    if test.result is None:  # lines stay short: the big figure (the chance to pass) takes the right
        exact = skilltest.odds(state, test)
        chance = ".." if exact is None else percent(exact)
        return _panel(title, [against, f"drew {drawn}" if drawn else "commit cards now", "A: draw a token",
                              *_doubts(state, test.seat)], big=chance)
    result = test.result
    return _panel(title, [f"skill {result.modified_skill} vs {result.difficulty}", f"drew {drawn}",
                          "A: resolve it"], big="PASS" if result.success else "FAIL")


def _doubts(state: GameState, seat: int) -> list[str]:
    """What the odds shown rest on that is not the printed game, or not on the board the station sees."""
    out = [] if rec(state).scenario.verified else ["unverified ref card"]
    if reference.unseen(state, seat):
        out.append("odds: enemies unseen")
    return out


def margin_chance(state: GameState, seat: int, margin: int, kinds: dict[str, TokenKind]) -> str:
    """The chance of a test whose skill beats the difficulty by ``margin`` (before any test starts)."""
    contents = skilltest.chaos_bag(state).contents
    base = 20  # high enough that the floor of the modified skill at 0 never matters
    elder = skilltest.elder_sign(state, seat)

    def compute() -> str:
        chance = success_chance(contents.as_dict(), kinds, base + margin, base, elder)
        return percent(chance, 0)

    key = ("arkham.margin", contents, tuple(sorted(kinds.items())), margin, elder)
    return derived.get(key, compute, placeholder="..")


def counted(n: int, noun: str) -> str:
    """``'1 action'``, ``'3 actions'``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def seat_name(state: GameState, seat: int) -> str:
    """The investigator's first name, as the table calls the seat."""
    info = rec(state).seats.get(str(seat))
    return info.name.split()[0] if info is not None and info.name else f"seat {seat}"


def seat_panel(state: GameState, seat: int) -> Panel:
    info = effects.seat_info(state, seat)

    def value(name: str) -> int:
        return effects.seat_value(state, seat, name)

    name = info.name.split()[0]
    out = effects.eliminated(state).get(str(seat))
    if out is not None:
        fate = rec(state).fate.get(str(seat))
        return _panel(name, [f"out: {out}", *([fate] if fate else []),
                             f"trauma: {value('physical_trauma')} physical, {value('mental_trauma')} mental"])
    engaged = board.engaged_with(state, seat)
    # health and sanity left (the printed values are on the investigator card)
    lines = [f"Health {value('health') - value('damage')} Sanity {value('sanity') - value('horror')}",
             f"{counted(value('actions'), 'action')}, {counted(value('hand'), 'card')}",
             f"Clues {value('clues')} Resources {value('resources')}"]
    # clues and resources (tokens on the table too) only where there is room: with the seat's
    # "still to play" line the first screen fits without turning pages; an engagement and the
    # treacheries that stay around the seat page in
    ranks = [Priority.KEY, Priority.KEY, Priority.DETAIL]
    if engaged:
        lines.append("Engaged: " + ", ".join(engaged))
    lines += lasting_treacheries(state, seat)
    title = f"{name} (lead)" if state.lead == seat else name
    ranks += [Priority.NORMAL] * (len(lines) - len(ranks))
    return Panel.ranked(title, tuple(zip(lines, ranks, strict=True)))


def lasting_treacheries(state: GameState, seat: int) -> list[str]:
    """The treacheries that stay in play around the seat, so the table does not forget them: those in
    its threat area, and those attached to its location."""
    here = board.where(state, seat)
    mine = list(board.threat_area(state, seat))
    attached = [label for label, t in rec(state).treacheries.items() if here is not None and t.location == here]
    out = [f"Threat area: {', '.join(sorted(mine))}"] if mine else []
    return out + ([f"At {here}: {', '.join(sorted(attached))}"] if attached else [])


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
    names = [seat_track(first, n) for n in per_seat]
    names += ["agenda.doom", "doom.other", "agenda.threshold"]
    if not effects.card(state, "act").objective:  # AH-ACTAG-5: an objective needs no clues
        names.append("act.clues_required")
    names += [seat_track(s, n) for s in seats[1:] for n in per_seat]
    return [n for n in names if n in state.tracks]


TABLE_PICKS = ("lead", "prey", "spawn_prey")  # the table names a seat: each candidate's A says "me"


def legend(state: GameState, seat: int) -> str | None:
    """The seat display's last line (``Game.legend``) while a question is the seat's to answer: what
    A and B mean (the answers are numbered on the tokens display)."""
    prompt = state.prompt
    if prompt is None and seat in effects.hand_owing(state):
        return "A: discard down to 8"
    if prompt is None:
        test = skilltest.current(state)
        if test is not None and test.seat == seat:  # A is "done" with the test's next step
            return "A: draw a token" if test.result is None else "A: resolve the test"
        return None
    if prompt.seat == seat:  # a question put to this seat: A and B are its first two answers
        first = f"A: {prompt.options[0]}"
        return first + (f", B: {prompt.options[1]}" if len(prompt.options) > 1 else "")
    if prompt.id in TABLE_PICKS and seat in prompt.context.get("seats", ()):
        return "A: me"
    return None


def button(state: GameState, role: str, held: bool) -> Command | None:
    """Seat buttons: A is "done" (end my turn, reveal or resolve my test, the first answer of a
    question put to me, "me" when the table picks a seat, discard down to 8 at 4.5); B is the seat's
    own menu (the action menu on its turn, the second answer of its question). The panel's up/down
    and NEXT reach every answer of any question."""
    owner = SeatTrack.parse(role)
    if held or owner is None or owner.track not in ("a", "b"):
        return None
    seat, which = owner.seat, owner.track
    seat_text = f"seat{seat}"  # the SEAT word the verbs take
    prompt = state.prompt
    if prompt is not None:
        return _answer(prompt, seat, which)
    test = skilltest.current(state)
    if test is not None:
        if which == "a" and test.seat == seat:
            return Command("draw" if test.result is None else "resolve",
                           ("chaos",) if test.result is None else (), origin="button")
        return None
    if which == "a" and seat in effects.hand_owing(state):  # 4.5: down to 8 (the player picks the cards)
        return Command("pass", (seat_text,), origin="button")
    if state.step == "2.2" and state.active_seat == seat:
        if which == "a":
            return Command("next", origin="button")
        if effects.seat_value(state, seat, "actions") > 0:
            return Command("actions", (seat_text,), origin="button")
    elif state.step == "2.2" and state.active_seat is None and seat in state.owing:
        # AH-FW-3: turns in any order; the seat that presses first takes its turn (A: pass it)
        if which == "a":
            return Command("pass", (seat_text,), origin="button")
        if effects.seat_value(state, seat, "actions") > 0:
            return Command("actions", (seat_text,), origin="button")
    return None


def _answer(prompt: Prompt, seat: int, which: str) -> Command | None:
    def choose(n: int) -> Command | None:
        return Command("choose", (str(n),), origin="button") if n <= len(prompt.options) else None

    seats = [int(s) for s in prompt.context.get("seats", ())]
    if prompt.seat is not None:
        return choose(1 if which == "a" else 2) if prompt.seat == seat else None
    if which == "a" and prompt.id in TABLE_PICKS and seat in seats:
        return choose(seats.index(seat) + 1)
    return None
