"""The one place screens are made: the game's panels and state, the station's UI state and what the
controls point at, turned into ``Screens`` that every surface draws (the OLEDs, the terminal view, a
web page). Pure: the same inputs give the same screens, whatever draws them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from tablekeeper.core.game import Game
from tablekeeper.core.state import GameState
from tablekeeper.core.view import Panel
from tablekeeper.ui import flow_lines
from tablekeeper.ui.model import Banner, BannerKind, Cover, DisplayScreen, Question, Screens
from tablekeeper.ui.screens import fallback_panel
from tablekeeper.ui.state import UiState

NOT_SAVING = "not saving"  # the track display's line while a read-only save is played on unsaved


class Pointing(msgspec.Struct, frozen=True):
    """What the controls point at: the selected track, the +/- change being counted (its text), the
    open question's answer that NEXT would choose (``"2 of 3: rain"``, 0-based ``option``), and, while
    nothing is counted or asked, what +/- would change (``"+/- Roland damage: 0"``)."""

    selected: str | None = None
    pending: str | None = None
    answer: str | None = None
    option: int | None = None
    ready: str | None = None


NOTHING_POINTED = Pointing()


def compose(state: GameState, ui: UiState, panels: Mapping[str, Panel], *, game: Game, roles: Sequence[str],
            pointing: Pointing = NOTHING_POINTED) -> Screens:
    """Each display role's screen; a role the game's ``panels`` leaves out gets a fallback panel."""
    question = None
    if state.prompt is not None and pointing.option is not None:
        question = Question(state.prompt.text, state.prompt.options, pointing.option, state.prompt.seat)
    pending_role = "tokens" if "tokens" in roles else "track"
    displays = tuple(_display(role, state, ui, panels, game, pointing, pending_role) for role in roles)
    return Screens(displays, question, flow_lines.lights(state, game.flow), ui.page)


def _display(role: str, state: GameState, ui: UiState, panels: Mapping[str, Panel], game: Game, pointing: Pointing,
             pending_role: str) -> DisplayScreen:
    panel = panels.get(role) or fallback_panel(role, state, game)
    if role == "track" and ui.menu.is_open:
        panel = ui.menu.panel()
    keyed = ui.legend_until_s is not None and bool(panel.legend)
    if keyed:
        panel = panel.legend_page()
    banner = None if keyed else _banner(role, state, ui, panel, game, pointing, pending_role)
    covering = ui.cover_for(role)
    cover = None
    if covering is not None:  # a notice (a lost counter, the fleet's identify) still shows on the track
        cover = Cover(covering, ui.message.text if role == "track" and ui.message is not None else ui.cover_call)
    join = ui.join if role == "track" and ui.join_shown and not ui.menu.is_open else None
    return DisplayScreen(role, panel, banner, pointing.selected, keyed, cover, join)


def _banner(role: str, state: GameState, ui: UiState, panel: Panel, game: Game, pointing: Pointing,
            pending_role: str) -> Banner | None:
    """The line at the display's foot, the first that applies: the change being counted or the answer
    pointed at (on the pending display), the notice, a save that failed (track), a lost counter, the
    seat's own line (seats), whom a shared step waits for (track), what +/- would change (the pending
    display)."""
    seat = int(role[4:]) if role.startswith("seat") and role[4:].isdigit() else None
    shown = pointing.pending if pointing.pending is not None else pointing.answer
    if role == pending_role and shown is not None:
        if pointing.pending is None and state.prompt is not None \
                and state.prompt.text not in (panel.title, *panel.lines):
            return Banner(f"{state.prompt.text} {shown}", BannerKind.ANSWER)  # the question with the answer
        return Banner(shown, BannerKind.PENDING if pointing.pending is not None else BannerKind.ANSWER)
    if role == "track" and ui.message is not None:
        return Banner(ui.message.text, BannerKind.MESSAGE)
    if role == "track" and ui.save_problem is not None:
        return Banner(ui.save_problem, BannerKind.SAVE)
    if role == "track" and ui.not_saving and not ui.menu.is_open:
        return Banner(NOT_SAVING, BannerKind.SAVE)
    if seat is not None and seat in ui.missing_counters:
        return Banner("counter missing", BannerKind.COUNTER)
    if seat is not None:
        text = seat_line(state, game, seat)
        return Banner(text, BannerKind.SEAT) if text is not None else None
    if role == "track" and not ui.menu.is_open:
        text = flow_lines.waiting_line(state, game.flow)
        if text is not None:
            return Banner(text, BannerKind.WAITING)
    if role == pending_role and pointing.ready is not None and not ui.menu.is_open and state.over is None:
        return Banner(pointing.ready, BannerKind.SELECTED)
    return None


def seat_line(state: GameState, game: Game, seat: int) -> str | None:
    """A seat display's last line: whether it owes a move, and the game's legend for its buttons."""
    if seat > state.seats:
        return None  # an empty seat has no buttons to explain
    return flow_lines.seat_line(flow_lines.seat_status(state, game.flow, seat), game.legend(state, seat))
