"""Random command sequences keep the game's invariants: gems are conserved (OS-ANIM-5), tracks stay
in bounds, rejected commands change nothing, and the log replays to the same state."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablekeeper.core.script import parse_line
from tablekeeper.games.oathsworn.record import rec

from .helpers import new

TEMPLATES = (
    "attack {s} head white={n}", "attack {s} {d} white={n}", "check {s} {d} {n}", "check each {d} 1,2,3,4",
    "redraw {n} {s}", "resolve", "resolve", "enemy {s} R Y", "enemy {s},{t} B", "next", "next", "pass {a}",
    "pass {a}", "token {s} redraw", "token {s} animus", "token {s} battleflow", "move {s} {n}",
    "play {s} C{n} {c} 1", "item {s} Buckler", "boost {s}", "battleflow {s} {c}", "ability {s} 1",
    "archetype {s} Guide B",
    "ally {s} men-at-arms", "break head {s}", "minion m{n} 2 1", "attack {s} m{n} white=2", "keep",
    "status {s} crippled", "status {s} caged", "fire {s}", "choose 1", "choose 2", "set seat{s}.hp 0",
    "add seat{s}.animus -1", "add seat{s}.animus_reserve -1", "goto {g}", "time 1", "secret open",
    "secret reveal", "gain Cudgel", "equip {s} Cudgel", "loseiron 20", "tally", "undo", "injure {s}",
    "injury {s}", "switch {s}", "refresh white red", "difficulty grim", "escape {s} 5 3",
    "defend {s} Parry 2 {n}", "plan check {d}", "plan {s} head white={n}", "add plan.white +1", "stage {c}",
    "lose {s} Buckler", "goto {g} = city{n}", "companion {s} animus attack", "ability {s} 1 interrupt",
)

line = st.builds(lambda t, s, u, n, d, c, g: (t, {"s": s, "t": u, "n": n, "d": d, "c": c, "g": g}),
                 st.sampled_from(TEMPLATES), st.integers(1, 4), st.integers(1, 4), st.integers(0, 4),
                 st.integers(1, 6), st.integers(0, 3), st.integers(1, 30))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["story", "encounter"]), st.booleans(), st.lists(line, min_size=5, max_size=60))
def test_random_play_keeps_invariants(start: str, companion: bool,
                                      lines: list[tuple[str, dict[str, int]]]) -> None:
    s = new(part=start, **({"companions": "2"} if companion else {}))
    for template, values in lines:
        parsed = parse_line(template.format(a=s.state.active_seat or 1, **values))
        assert parsed is not None
        before = s.state
        outcome = s.perform(parsed.command)
        if not outcome.accepted:
            assert s.state == before
        for k in (1, 2, 3, 4):
            record = rec(s.state).seat(k)
            assert s.state.value(f"seat{k}.animus") + s.state.value(f"seat{k}.animus_reserve") == record.max_animus
        for name, c in s.state.tracks.items():
            assert c.lo is None or c.value >= c.lo, name
            assert c.hi is None or c.value <= c.hi, name
    assert s.replay() == s.state
