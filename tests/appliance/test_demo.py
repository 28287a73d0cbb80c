"""Convention demo mode driven by a fake clock: attract loop, guided demo, timeouts, the locked settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper import games
from tablekeeper.config import BUTTON_ROLES
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.core.view import Panel
from tablekeeper.demo.mode import (
    DemoMode,
    DemoScript,
    DemoSettings,
    DemoStep,
    MemoryCounts,
    Mode,
    load_script,
    load_scripts,
    parse_script,
    stats_panel,
)
from tablekeeper.errors import Rejected, ScriptError
from tablekeeper.sim.clock import FakeClock
from tablekeeper.station.controls import Controls

TIMING = DemoSettings(idle_reset_s=60.0, attract_frame_s=4.0, finished_show_s=10.0, operator_timeout_s=30.0,
                      unlock_hold_s=5.0)


def _script(game: str, presses: tuple[str, ...]) -> DemoScript:
    steps = tuple(DemoStep(prompt=(f"{game} step {i}", f"press {p}"), press=p) for i, p in enumerate(presses))
    return DemoScript(game=game, title=game.title(), attract=(f"try {game}",), steps=steps, farewell=("bye",))


SCRIPTS = (_script("alpha", ("next", "up", "next")), _script("beta", ("select", "down")))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "tablekeeper.sqlite3") as opened:
        yield opened


def test_idle_attract_visitor_idle_timeout_fresh_demo(store: Store) -> None:
    clock = FakeClock(1000.0)
    demo = DemoMode(SCRIPTS, counters=store, now_s=clock(), settings=TIMING)

    idle = demo.tick(clock.advance(1.0))
    assert idle.mode is Mode.ATTRACT
    assert idle.panels["track"].title == "Alpha" and idle.panels["seat1"].lines == ()
    assert idle.call == "Press any button"  # pinned at the foot of every display while the loop runs
    assert demo.tick(clock.advance(3.0)).panels["track"].title == "Beta"  # the attract loop moves on every 4 s
    assert demo.tick(clock.advance(4.0)).panels["track"].title == "Alpha"

    visitor = demo.on_press("seat2.a", clock.advance(5.0))  # 13 s in: beta is showing
    assert (visitor.mode, visitor.start_game, visitor.forward) == (Mode.GUIDED, "beta", None)
    assert visitor.panels["track"].lines == ("beta step 0", "press select")
    assert demo.on_press("select", clock.advance(2.0)).forward == "select"
    assert demo.tick(clock.advance(59.9)).mode is Mode.GUIDED

    timed_out = demo.tick(clock.advance(0.1))  # 60 s after the last press
    assert (timed_out.mode, timed_out.reset) == (Mode.ATTRACT, True)
    assert demo.counts()["beta"] == (1, 0)

    fresh = demo.on_press("next", clock.advance(3.0))  # 3 s into the new loop: alpha again
    assert (fresh.mode, fresh.start_game) == (Mode.GUIDED, "alpha")
    assert fresh.panels["track"].lines == ("alpha step 0", "press next")
    assert fresh.panels["track"].title == "Alpha 1/3"
    assert store.count("demo.alpha.started") == 1 and store.count("demo.beta.started") == 1


def test_following_every_prompt_finishes_the_demo_and_counts_it(store: Store) -> None:
    demo = DemoMode(SCRIPTS, counters=store, now_s=0.0, settings=TIMING)
    demo.on_press("next", 1.0)
    forwarded = [demo.on_press(role, 2.0 + i).forward for i, role in enumerate(("next", "up", "next"))]
    assert forwarded == ["next", "up", "next"]
    assert demo.mode is Mode.FINISHED
    assert demo.on_press("next", 6.0).forward is None  # mashing after the end changes nothing
    assert demo.tick(4.0 + 9.9).panels["seat3"].lines == ("bye",)
    assert demo.tick(4.0 + 10.0).mode is Mode.ATTRACT
    assert demo.counts() == {"alpha": (1, 1), "beta": (0, 0)}


def test_a_wrong_button_shows_a_hint_and_does_not_reach_the_game() -> None:
    demo = DemoMode(SCRIPTS, counters=MemoryCounts(), now_s=0.0, settings=TIMING)
    demo.on_press("up", 1.0)
    wrong = demo.on_press("seat1.b", 2.0)
    assert wrong.forward is None
    assert wrong.call == "That was SEAT1 B: try NEXT" and wrong.panels["track"].lines == ("alpha step 0", "press next")
    right = demo.on_press("next", 3.0)
    assert right.forward == "next" and right.panels["track"].lines == ("alpha step 1", "press up")
    assert right.call is None


def test_settings_are_locked_behind_holding_the_combination() -> None:
    counters = MemoryCounts()
    demo = DemoMode(SCRIPTS, counters=counters, now_s=0.0, settings=TIMING)
    assert demo.on_press("menu", 10.0).mode is Mode.ATTRACT  # no demo starts while the combo may be coming
    assert demo.on_press("back", 10.5).mode is Mode.ATTRACT
    assert demo.tick(15.4).mode is Mode.ATTRACT
    operator = demo.tick(15.5)
    assert operator.mode is Mode.OPERATOR
    assert operator.panels["track"] == stats_panel({"alpha": (0, 0), "beta": (0, 0)}, SCRIPTS)
    demo.on_release("menu", 16.0)
    demo.on_release("back", 16.0)
    assert demo.mode is Mode.OPERATOR and counters.values == {}
    opened = demo.on_press("select", 17.0)
    assert (opened.mode, opened.open_settings) == (Mode.SETTINGS, True)
    assert demo.on_press("down", 18.0).forward == "down"  # the station's menu gets every button
    assert demo.tick(18.0 + 29.9).mode is Mode.SETTINGS
    left = demo.tick(18.0 + 30.0)
    assert (left.mode, left.reset) == (Mode.ATTRACT, True)


def test_holds_and_repeats_reach_the_game_only_in_the_settings() -> None:
    demo = DemoMode(SCRIPTS, counters=MemoryCounts(), now_s=0.0, settings=TIMING)
    demo.on_button("next", "press", 1.0)
    assert demo.on_button("next", "hold", 1.6).forward is None  # a held NEXT must not skip the prompts
    assert demo.on_button("next", "release", 2.0).mode is Mode.GUIDED
    demo.on_button("menu", "press", 3.0)
    demo.on_button("back", "press", 3.0)
    demo.tick(8.0)
    demo.on_button("select", "press", 9.0)
    assert demo.mode is Mode.SETTINGS
    assert demo.on_button("up", "repeat", 10.0).forward == "up"


def test_a_short_press_of_a_combo_button_starts_the_demo_on_release() -> None:
    demo = DemoMode(SCRIPTS, counters=MemoryCounts(), now_s=0.0, settings=TIMING)
    demo.on_press("back", 1.0)
    started = demo.on_release("back", 1.2)
    assert (started.mode, started.start_game) == (Mode.GUIDED, "alpha")


def test_a_stuck_combination_does_not_reopen_the_operator_screen() -> None:
    demo = DemoMode(SCRIPTS, counters=MemoryCounts(), now_s=0.0, settings=TIMING)
    demo.on_press("menu", 1.0)
    demo.on_press("back", 1.0)
    assert demo.tick(6.0).mode is Mode.OPERATOR
    assert demo.tick(36.0).mode is Mode.ATTRACT  # buttons still "held": no new unlock
    assert demo.tick(100.0).mode is Mode.ATTRACT


EVENTS = st.lists(st.tuples(st.sampled_from(("press", "release", "hold", "tick")), st.sampled_from(BUTTON_ROLES),
                            st.floats(min_value=0.0, max_value=20.0)), max_size=60)


@settings(max_examples=150, deadline=None)
@given(EVENTS)
def test_mashing_always_returns_to_the_attract_loop_by_itself(events: list[tuple[str, str, float]]) -> None:
    counters = MemoryCounts()
    demo = DemoMode(SCRIPTS, counters=counters, now_s=0.0, settings=TIMING)
    now_s = 0.0
    for kind, role, gap_s in events:
        now_s += gap_s
        step = demo.step_index if demo.mode is Mode.GUIDED else None
        out = demo.tick(now_s) if kind == "tick" else demo.on_button(role, kind, now_s)
        if out.forward is not None and step is not None:
            assert out.forward == demo.script.steps[step].press  # only the prompted button reaches the game
    for name in ("alpha", "beta"):
        assert counters.count(f"demo.{name}.finished") <= counters.count(f"demo.{name}.started")
    for role in BUTTON_ROLES:
        demo.on_release(role, now_s)  # even with every button let go only now...
    assert demo.tick(now_s + TIMING.longest_wait_s + TIMING.unlock_hold_s).mode is Mode.ATTRACT


def test_shipped_scripts_cover_every_game_with_valid_buttons() -> None:
    scripts = load_scripts()
    assert {s.game for s in scripts} == {"arkham", "spirit_island", "oathsworn", "earthborne"}
    for script in scripts:
        assert script.steps and all(step.press in BUTTON_ROLES for step in script.steps)
        lines = [*script.attract, *script.farewell, *(line for step in script.steps for line in step.prompt)]
        assert all(line.strip() == line and line for line in lines), script.game  # sentences: the display wraps them
        assert not script.short or len(script.short) < len(script.title), script.game


def test_script_errors_name_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "x"\ntitle = "X"\nattract = ["a"]\nfarewell = ["b"]\n'
                    '[[steps]]\nprompt = ["go"]\npress = "jump"\n')
    with pytest.raises(ScriptError, match=r"bad\.toml: steps\[0\]\.press: 'jump' is not a button role"):
        load_script(path)
    with pytest.raises(ScriptError, match="src: colour: unknown key"):
        parse_script({"colour": "red"}, source="src")
    with pytest.raises(ScriptError, match="no demo script for chess"):
        load_scripts(games=["arkham", "chess"])
    good = {"game": "x", "title": "X", "attract": ["a"], "farewell": ["b"],
            "steps": [{"prompt": ["go"], "press": "next"}]}
    with pytest.raises(ScriptError, match="src: options: expected a table of strings"):
        parse_script({**good, "options": {"pathdeck": 17}}, source="src")
    assert parse_script({**good, "options": {"pathdeck": "17"}}, source="src").options == (("pathdeck", "17"),)


def _rehearse(script: DemoScript, seats: int, seed: int = 1) -> list[str]:
    """Follow a demo script on the real game through the real controls; returns every refusal."""
    game = games.load(script.game)
    clock = FakeClock()
    session = Session(game, seats=seats, seed=seed, options=dict(script.options))
    controls = Controls(game, clock=clock, pending_window_s=1.5)
    refusals = []
    for number, step in enumerate(script.steps, 1):
        try:
            commands = controls.press(step.press, session.state)
        except Rejected as exc:
            refusals.append(f"step {number} ({step.press}): {exc.reason}")
            continue
        clock.advance(2.0)  # the visitor reads the next prompt; a pending +/- change is entered
        commands += controls.tick(session.state)
        for command in commands:
            if command.verb in ("undo", "redo"):
                outcome = session.undo() if command.verb == "undo" else session.redo()
            else:
                outcome = session.submit(command)
            if not outcome.accepted:
                refusals.append(f"step {number} ({step.press}): {command.verb} refused: {outcome.reason}")
    return refusals


@pytest.mark.parametrize("script", load_scripts(), ids=lambda s: s.game)
@pytest.mark.parametrize("seed", range(1, 7))
def test_each_demo_script_is_accepted_by_its_game(script: DemoScript, seed: int) -> None:
    """At the seat count the demo plays (the game's default: a script that asks each seat for its move,
    Earthborne's path cards, ER-PATH-1, is written for that many seats) and whatever the seed deals,
    since each visitor's session has a seed of its own."""
    if script.game not in games.names():
        pytest.skip(f"the {script.game} package is not present")
    assert _rehearse(script, games.load(script.game).seats_default, seed) == []


@pytest.mark.parametrize("build", ["station.toml", "compact.toml"])
@pytest.mark.parametrize("protection", ["kept", "removed"])
def test_the_call_to_action_is_whole_on_every_frame_of_the_attract_loop(build: str, protection: str) -> None:
    """On every display of both builds, each frame of each game's attract screen shows the call whole
    at its foot (its short form where twelve columns cannot hold it), never on a page of its own nor
    scrolled. Without the short form the compact build's track display gives it a page of its own."""
    from tablekeeper.config import load_config
    from tablekeeper.demo.mode import CALL_SHORT, CALL_TO_ACTION
    from tablekeeper.ui.render import fit

    config = load_config(Path(__file__).resolve().parents[2] / "hardware" / build)
    demo = DemoMode(load_scripts(), counters=MemoryCounts(), now_s=0.0, settings=TIMING)
    out = demo.tick(0.0)
    assert out.call == CALL_TO_ACTION
    missing = []
    for index in range(len(demo.scripts)):
        for role, panel in demo.tick(index * TIMING.attract_frame_s).panels.items():
            if protection == "removed":
                panel = Panel(panel.title, panel.lines, legend=panel.legend[:-1])
            display = config.display(role)
            assert display is not None
            for frame in fit(panel, display.viewing, banner=out.call).frames:
                if frame.banner not in ((CALL_TO_ACTION,), (CALL_SHORT[0],)):
                    missing.append((panel.title, role, frame.page, frame.banner))
    if protection == "removed" and build == "compact.toml":
        assert missing, "the compact build's displays would hold the call without its short form"
    else:
        assert not missing, missing[:5]
