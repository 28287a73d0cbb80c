"""What the station's displays show for Spirit Island, which tracks up/down adjust, and what the
seat buttons mean, in plain words: the station's renderer wraps and pages lines to each display."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablekeeper.core.events import Command
from tablekeeper.core.flow import Turns
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import SeatTrack, seat_track
from tablekeeper.core.view import Panel, Priority
from tablekeeper.games.spirit_island import blight_track, invader_track, seat_menu, spirits
from tablekeeper.games.spirit_island.common import adversary, blight_card, slots, table
from tablekeeper.games.spirit_island.fear import ROMAN
from tablekeeper.games.spirit_island.record import shared
from tablekeeper.games.spirit_island.turn import FLOW

if TYPE_CHECKING:
    from tablekeeper.core.game import Game



def panels(game: Game, state: GameState) -> dict[str, Panel]:
    step = game.flow.step(state.phase, state.step).title if state.step else ""
    phase = game.flow.phase(state.phase).label if state.phase else ""
    # the phase is the title (short enough to leave room for a page mark); the turn and the step are
    # the key line, so a small display's first page says where the table is
    where = f"Turn {state.round}" + (f", {step}" if step and step != phase else "")
    if step == phase:  # "Fast Powers" once: the next line says what the seat buttons do
        where += ". A: done, B: seat menu"
    stage = ROMAN[state.value("invader.stage")]
    # an empty Invader slot only where there is room: the first screens (nothing in Ravage or Build
    # yet) fit without turning pages
    filled = slots(state).as_mapping()
    names = ["ravage", "build", "explore"]
    if shared(state).immigration_tile:  # England's High Immigration slot, while its tile is out
        filled["immigration"] = invader_track.immigration(state)
        names.insert(0, "immigration")
    slot_items = [(line, Priority.NORMAL if filled[name] else Priority.DETAIL)
                  for line, name in zip(invader_track.slot_lines(state), names, strict=True)]
    items = [(where, Priority.KEY), *slot_items,
             (f"Invader deck: {state.value('invader.cards_left')} cards, stage {stage}", Priority.DETAIL)]
    ravaged = shared(state).ravage_blight_boards
    if ravaged:  # SI-BLIGHT-3: the boards this turn's Ravage added Blight to
        items[-1] = ("Ravage added Blight on board " + ", ".join(sorted(ravaged)), Priority.NORMAL)
    if state.over:
        items = [(state.over, Priority.KEY), *items[:len(names) + 1]]
    title = phase or f"Turn {state.round}"
    out = {"track": Panel.ranked(title, tuple(items))}
    card = blight_card(state)
    side = "Blighted" if state.value("blight.flipped") else "Healthy"
    cascades = shared(state).blight_pending
    token_lines = [
        f"Fear {state.value('fear.generated')} of {state.value('fear.pool')}, "
        f"cards earned {state.value('fear.earned')}",
        f"Terror Level {ROMAN[state.value('terror')]}, Fear cards left {state.value('fear.cards_left')}",
        f"Blight {state.value('blight.card')} on the {side + ' card' if card else 'Blight space'}",
        f"Explorers {state.value('island.explorers')} Towns {state.value('island.towns')} "
        f"Cities {state.value('island.cities')}",
    ]
    if blight_track.HEALING in state.tracks:  # France 5: removed Blight waits on the panel
        token_lines[2] += f", {state.value(blight_track.HEALING)} on the panel"
    if cascades:
        token_lines[3] = f"Cascade from {cascades[0]}!"
    if state.prompt is not None:
        out["tokens"] = _prompt_panel(state)
    else:
        doubtful = unverified(state)
        ranked = [(line, Priority.NORMAL) for line in token_lines]
        if doubtful:
            ranked.append(("Unverified data: " + ", ".join(doubtful), Priority.DETAIL))
        out["tokens"] = Panel.ranked("Fear & Blight", tuple(ranked))
    for seat in state.seat_numbers():
        out[f"seat{seat}"] = _seat_panel(state, seat)
    return out


def _prompt_panel(state: GameState) -> Panel:
    """The open question in full (a body line wraps where a title would be cut), then its answers:
    two are answered with the seat buttons A and B."""
    prompt = state.prompt
    if prompt is None:
        return Panel("")
    title = f"Seat {prompt.seat}'s question" if prompt.seat is not None else "Question"
    if len(prompt.options) <= 2:
        who = f"seat {prompt.seat}" if prompt.seat is not None else "any seat"
        lines = [f"{key}: {option}" for key, option in zip("AB", prompt.options, strict=False)]
        return Panel.question(title, prompt.text, (*lines, f"({who}'s buttons)"))
    shown = [f"{i}. {o}" for i, o in enumerate(prompt.options[:3], 1)]
    if len(prompt.options) > 3:
        shown.append(f"{len(prompt.options) - 3} more: UP/DOWN")
    return Panel.question(title, prompt.text, tuple(shown))


def _seat_panel(state: GameState, seat: int) -> Panel:
    energy = state.value(seat_track(seat, "energy"))
    played = state.value(seat_track(seat, "cards_played"))
    limit = state.value(seat_track(seat, "card_plays"))
    elements = spirits.elements(state, seat)
    el_text = " ".join(f"{e.title()} {n}" for e, n in sorted(elements.items())) or "no elements"
    reminder = spirits.REMINDERS[(state.round - 1) % len(spirits.REMINDERS)]
    presence = state.value(seat_track(seat, "presence"))
    # most important first: a small seat display pages the rest; what A and B do in the seat's menu
    # is the display's last line (``SpiritIsland.legend``)
    lines = ["Energy:", f"Cards played {played} of {limit}", f"Presence {presence}", el_text, reminder]
    ranks = [Priority.KEY, Priority.NORMAL, Priority.NORMAL,
             Priority.NORMAL if elements else Priority.DETAIL,  # "no elements" only where there is room
             Priority.DETAIL]  # reminder last
    spirit = spirits.spirit_of(state, seat)
    if spirit is not None:
        nxt = []
        for which, label in (("energy", "Energy"), ("plays", "Plays")):
            spaces = getattr(spirit, spirits.TRACKS[which])
            n = state.value(seat_track(seat, spirits.TRACKS[which])) + 1
            nxt.append(f"{label} {spaces[n]}" if n < len(spaces) else f"{label} done")
        lines.insert(3, "Next on tracks: " + ", ".join(nxt))
        ranks.insert(3, Priority.DETAIL)
    return Panel.ranked(f"Seat {seat}", tuple(zip(lines, ranks, strict=True)), big=str(energy))


def unverified(state: GameState) -> list[str]:
    """The data in play that is not checked against a second source: every screen that shows it
    says so (the Fear card question names its own)."""
    data = table(state)
    out: list[str] = []
    card = blight_card(state)
    if card is not None and not card.verified:
        out.append(f"Blight card {card.name}")
    key, _ = adversary(state)
    if key and not data.adversaries[key].verified:
        out.append(f"adversary {data.adversaries[key].name}")
    for seat in state.seat_numbers():
        spirit = spirits.spirit_of(state, seat)
        if spirit is not None and not spirit.verified:
            out.append(f"Spirit {spirit.name}")
    if any(not c.verified for c in data.fear_cards):
        out.append("Fear card effects")
    return out


def current_seat(state: GameState) -> int:
    if state.active_seat is not None:
        return state.active_seat
    waiting = [s for s in state.seat_numbers() if s not in state.done]
    return waiting[0] if waiting else 1


def adjustable(state: GameState) -> list[str]:
    """Current seat's tracks first, then the others', then Fear, island and Blight."""
    first = current_seat(state)
    order = [first, *[s for s in state.seat_numbers() if s != first]]
    names = []
    for seat in order:
        names += [seat_track(seat, "energy"), seat_track(seat, "presence"), seat_track(seat, "energy_per_turn"),
                  seat_track(seat, "card_plays")]
    names += ["fear.generated", "island.towns", "island.cities", "island.explorers", "blight.card", "fear.pool"]
    return names


def button(state: GameState, role: str, held: bool) -> Command | None:
    """The station fires a press as soon as a button goes down, so a hold never gets a meaning of
    its own here (it would come after the press's). A is "done" (in the steps every seat plays
    together; elsewhere it does nothing, so a seat meaning "done" never adds anything) and B opens
    the seat's own menu. A question open: A answers the first option and B the second (only the
    asked seat's buttons for a seat's question); in the seat's menu A does the item shown and B
    shows the next (the seat display's second line says so)."""
    owner = SeatTrack.parse(role)
    if held or owner is None or owner.track not in ("a", "b"):
        return None
    number, which = str(owner.seat), owner.track
    prompt = state.prompt
    if prompt is not None:
        if prompt.seat is not None and str(prompt.seat) != number:
            return None
        if seat_menu.is_menu(state):
            if which == "a":
                return Command("choose", (str(seat_menu.cursor(state) + 1),), origin="button")
            return Command("more", (number,), origin="button")
        index = 1 if which == "a" else 2
        return Command("choose", (str(index),), origin="button") if index <= len(prompt.options) else None
    if which == "b":
        return Command("seat-menu", (number,), origin="button")
    together = bool(state.step) and FLOW.step(state.phase, state.step).turns is Turns.TOGETHER
    if together and int(number) not in state.done:
        return Command("done", (number,), origin="button")
    return None
