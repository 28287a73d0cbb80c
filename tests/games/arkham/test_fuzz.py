"""Random command sequences: every command is accepted or refused with a reason (never a crash),
and the bookkeeping invariants hold after each one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.core.script import parse_line
from tablekeeper.games.arkham.record import rec

from .helpers import new

LINES = [
    "next", "choose 1", "choose 2", "turn seat1", "turn seat2", "act seat1", "act seat2 draw", "act seat1 investigate",
    "act seat1 fight Ghoul", "act seat1 evade Ghoul", "act seat2 engage Ghoul", "act seat1 move Hall",
    "activate seat1 2 1", "lose seat2 1", "play seat1 2 asset", "play seat2 1 event fast", "draw-cards seat1 3",
    "discard seat1 2", "hit seat1 2 1", "hit seat2 3 3", "hit seat1 1 0 Dog=1/0", "heal seat1 1", "defeat seat2",
    "advance agenda card", "spend-clues seat1:2 seat2:2", "victory 1", "test seat1 willpower 3 2", "commit seat1 1",
    "resolve", "draw chaos", "reveal chaos bless", "reveal chaos autofail", "token add bless 2", "token seal skull",
    "token release skull", "location Study 2 2 per to=Hall", "location Hall 1 1", "enter seat1 Study",
    "enter seat2 Hall", "enemy seat1 Ghoul fight=2 health=2 evade=2 damage=1 horror=1",
    "enemy seat2 Hound fight=1 health=1 evade=3 damage=1 horror=0 hunter at=Hall", "harm-enemy Ghoul 1",
        "enemy-doom Ghoul +1",
    "asset seat1 Dog health=2 sanity=1", "set agenda.doom 5", "add doom.other +1", "undo", "redo",
]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=50), st.integers(1, 3))
def test_random_commands_keep_the_books_straight(lines: list[str], seats: int) -> None:
    s = new(seats=seats)
    for text in lines:
        parsed = parse_line(text)
        assert parsed is not None
        before = s.state
        outcome = s.perform(parsed.command)
        if not outcome.accepted:
            assert outcome.reason and s.state == before
        state = s.state
        out = rec(state).eliminated
        waiting = state.prompt is not None and state.prompt.id == "trauma"
        for seat in state.seat_numbers():
            damage, health = state.value(f"seat{seat}.damage"), state.value(f"seat{seat}.health")
            horror, sanity = state.value(f"seat{seat}.horror"), state.value(f"seat{seat}.sanity")
            assert damage <= health and horror <= sanity
            if str(seat) not in out and not waiting:
                assert damage < health and horror < sanity  # reaching either defeats at once
            if str(seat) in out:
                assert state.value(f"seat{seat}.actions") == 0
        assert state.value("agenda.threshold") >= 1
        bag = state.sources["chaos"]
        assert all(n >= 0 for _, n in bag.contents.items)
        s.game.panels(state)
