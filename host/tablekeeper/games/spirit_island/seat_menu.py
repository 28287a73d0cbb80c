"""A seat's own menu on its two buttons: B opens it and shows the next item, A does the item shown
(the seat display's second line says which). From it a seat generates Fear, plays a card (picked from
its Spirit's data, or entered as cost, speed and elements), uses an Innate Power (its threshold
checked), gains an element, changes any seat's Presence, or adds Blight from a Power."""

from __future__ import annotations

from collections.abc import Sequence

from tablekeeper.core import flow as flowmod
from tablekeeper.core.events import Json
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import blight_prompts, spirits
from tablekeeper.games.spirit_island.spirit_data import ELEMENTS, SPEEDS

# "close menu" first: NEXT on the panel (which picks the option it shows, the first) never acts for a
# seat; the seat's own B opens the menu on "add 1 Fear".
MENU = ("close menu", "add 1 Fear", "play a Power Card", "use an Innate Power", "change Presence",
        "gain an element", "add 1 Blight", "add Presence from a track")
PREFIX = "si.seat."
OTHER = "another card (enter cost, speed, elements)"
DONE = "no more elements"


def _ask(txn: Txn, seat: int, what: str, text: str, options: Sequence[str], **context: Json) -> None:
    txn.ask(PREFIX + what, text, list(options), seat=seat, context={"cursor": 0, **context})


def is_menu(state: GameState) -> bool:
    prompt = state.prompt
    return prompt is not None and prompt.id.startswith(PREFIX)


def cursor(state: GameState) -> int:
    prompt = state.prompt
    return int(prompt.context.get("cursor", 0)) if prompt is not None else 0


def legend(state: GameState, seat: int) -> str | None:
    """What A and B do, shown on the seat display while this seat's menu is open."""
    prompt = state.prompt
    if prompt is None or not is_menu(state) or prompt.seat != seat:
        return None
    return f"A: {prompt.options[cursor(state)]}, B: next choice"


def open_menu(txn: Txn, seat: int) -> None:
    if txn.state.prompt is not None:
        raise Rejected(flowmod.answer_first(txn.state))
    _ask(txn, seat, "menu", f"Seat {seat}'s menu", MENU, cursor=1)


def more(txn: Txn, seat: int) -> None:
    """Show the menu's next item (the question is asked again with the cursor moved)."""
    prompt = txn.state.prompt
    if prompt is None or not is_menu(txn.state) or prompt.seat != seat:
        raise Rejected(f"seat {seat} has no menu open")
    nxt = (cursor(txn.state) + 1) % len(prompt.options)
    txn.close_prompt()
    txn.ask(prompt.id, prompt.text, list(prompt.options), seat=seat, context={**prompt.context, "cursor": nxt})


def _seat(txn: Txn) -> int:
    prompt = txn.state.prompt
    if prompt is None or prompt.seat is None:
        raise Rejected("there is nothing to choose")
    return prompt.seat


def on_menu(txn: Txn, index: int) -> None:
    """Do the item; one that cannot be done now closes the menu with the reason on screen."""
    seat = _seat(txn)
    txn.close_prompt()
    try:
        _do(txn, seat, MENU[index])
    except Rejected as exc:
        txn.notice(f"Seat {seat}: {exc}")


def _do(txn: Txn, seat: int, item: str) -> None:
    if item == "add 1 Fear":
        txn.add("fear.generated", 1)
    elif item == "play a Power Card":
        _ask_card(txn, seat)
    elif item == "use an Innate Power":
        names = spirits.innate_names(txn.state, seat)
        if len(names) > 1:
            _ask(txn, seat, "innate", "Which Innate Power?", names)
        else:
            _innate(txn, seat, ())
    elif item == "change Presence":
        _ask(txn, seat, "presence", "Whose Presence changes?", presence_options(txn.state, seat))
    elif item == "gain an element":
        _ask(txn, seat, "element", "Which element is gained?", [DONE, *(e.title() for e in ELEMENTS)])
    elif item == "add 1 Blight":
        blight_prompts.start(txn)
    elif item == "add Presence from a track":
        _ask(txn, seat, "track", "Which track does the Presence leave?", track_options(txn.state, seat))


def track_options(state: GameState, seat: int) -> list[str]:
    """The two tracks with the space each would uncover next."""
    spirit = spirits.spirit_of(state, seat)
    if spirit is None:
        raise Rejected(f"seat {seat} has no Spirit set: change its Energy per turn and Card Plays by hand")
    out = []
    for which, label in (("energy", "Energy"), ("plays", "Card Plays")):
        spaces = getattr(spirit, spirits.TRACKS[which])
        n = state.value(seat_track(seat, spirits.TRACKS[which])) + 1
        out.append(f"{label}: uncovers {spaces[n]}" if n < len(spaces) else f"{label}: empty")
    return out


def on_track(txn: Txn, index: int) -> None:
    seat = _seat(txn)
    txn.close_prompt()
    try:
        spirits.uncover(txn, seat, ("energy", "plays")[index])
    except Rejected as exc:
        txn.notice(f"Seat {seat}: {exc}")


def presence_changes(state: GameState, seat: int) -> list[tuple[int, int]]:
    """(seat, change): this seat's loss first, then the others' losses, then the gains: a few
    presses for any seat."""
    order = [seat, *[s for s in state.seat_numbers() if s != seat]]
    return [(s, -1) for s in order] + [(s, 1) for s in order]


def presence_options(state: GameState, seat: int) -> list[str]:
    return [f"seat {s} {'loses' if d < 0 else 'gains'} 1 Presence" for s, d in presence_changes(state, seat)]


def on_presence(txn: Txn, index: int) -> None:
    seat = _seat(txn)
    who, delta = presence_changes(txn.state, seat)[index]
    txn.close_prompt()
    track = seat_track(who, "presence")
    try:
        txn.add(track, delta)
    except Rejected as exc:
        txn.notice(f"Presence: {exc}")


def _ask_card(txn: Txn, seat: int) -> None:
    if (txn.state.phase, txn.state.step) != ("spirit", "growth"):
        raise Rejected("Power Cards are chosen and paid for in the Spirit Phase")
    names = [f"{c.name} ({c.cost} Energy)" for c in spirits.unplayed_cards(txn.state, seat)]
    _ask(txn, seat, "card", "Which card is played?", [*names, OTHER])


def on_card(txn: Txn, index: int) -> None:
    seat = _seat(txn)
    cards = spirits.unplayed_cards(txn.state, seat)
    txn.close_prompt()
    if index < len(cards):
        spirits.play_named(txn, seat, cards[index].name)
    else:
        _ask(txn, seat, "cost", "What does the card cost?", [f"{n} Energy" for n in range(9)])


def on_cost(txn: Txn, index: int) -> None:
    seat = _seat(txn)
    txn.close_prompt()
    _ask(txn, seat, "speed", "Is the card Fast or Slow?", [s.title() for s in SPEEDS], cost=index)


def on_speed(txn: Txn, index: int) -> None:
    seat = _seat(txn)
    prompt = txn.state.prompt
    cost = int(prompt.context["cost"]) if prompt is not None else 0
    txn.close_prompt()
    spirits.play(txn, seat, str(cost), SPEEDS[index], ())
    _ask(txn, seat, "element", "The card's elements, one at a time", [DONE, *(e.title() for e in ELEMENTS)])


def on_element(txn: Txn, index: int) -> None:
    """Each element chosen is gained (and the question asked again) until ``done``."""
    seat = _seat(txn)
    prompt = txn.state.prompt
    text = prompt.text if prompt is not None else ""
    txn.close_prompt()
    if index == 0:
        return
    spirits.gain_element(txn, seat, ELEMENTS[index - 1])
    _ask(txn, seat, "element", text, [DONE, *(e.title() for e in ELEMENTS)])


def on_innate(txn: Txn, index: int) -> None:
    seat = _seat(txn)
    names = spirits.innate_names(txn.state, seat)
    txn.close_prompt()
    _innate(txn, seat, (names[index],))


def _innate(txn: Txn, seat: int, name: tuple[str, ...]) -> None:
    """From the panel a threshold not met closes the menu with the reason on screen (a typed
    ``innate`` is refused outright)."""
    try:
        spirits.innate(txn, seat, name)
    except Rejected as exc:
        txn.notice(f"Innate refused: {exc}")
