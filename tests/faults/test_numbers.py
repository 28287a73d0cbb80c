"""One number parser for every verb (``core/numbers.py``): a word where a number belongs is ASCII digits
with an optional sign, or it is refused in one line naming it.

``str.isdigit()`` and ``int()`` take more for numbers, and not the same more: other scripts' digits,
superscripts, full-width forms, ``1_0``, a space around the digits. Every verb of every game (the
core's ``set``, ``add``, ``choose`` and ``rewind`` among them, and the station's console) is fed such
words at each place its usage line has, beside the same line written in ASCII digits. Nothing may
escape as an exception, and a line with an odd word may not do what its ASCII twin does: that would
be the odd word read as the number it resembles."""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablekeeper.cli import main
from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.core import numbers
from tablekeeper.core.events import Command
from tablekeeper.core.game import Game
from tablekeeper.core.session import Outcome, Session
from tablekeeper.core.state import GameState
from tablekeeper.intents import Typed
from tablekeeper.sim.clock import FakeClock
from tablekeeper.sim.simulator import SimulatedParts
from tablekeeper.station.loop import Station
from tablekeeper.station.parts import make_displays
from tests.faults.walk import playable_games, random_walk

GAMES = playable_games()
DIGITS = ("⁰¹²³⁴⁵⁶⁷⁸⁹", "₀₁₂₃₄₅₆₇₈₉", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९", "০১২৩৪৫৬৭৮৯",
          "０１２３４５６７８９", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗")
"""Digits of other scripts and forms: ``int()`` reads all but the superscripts and subscripts, which
``str.isdigit()`` calls digits."""
MINUSES = ("−", "－", "﹣", "‐")  # minus sign, full-width hyphen-minus, small hyphen-minus, hyphen
SAMPLE = ("³", "٣", "１", "1_0", " 3", "3 ", "−3", "++3", "+-3", "9" * 13, "9" * 5000)
"""The odd words every verb gets at every place (the hypothesis tests draw many more)."""
NUMBER_VERBS = ("set", "add", "choose", "rewind")


def ascii_twin(word: str) -> str | None:
    """The ASCII number an odd word resembles (what a lenient reading would take it for); None for a
    value too long to be any count."""
    if len(word) > numbers.MAX_DIGITS + 1:
        return None
    text = "".join(word.split()).replace("_", "")
    for minus in MINUSES:
        text = text.replace(minus, "-")
    text = re.sub(r"^([+-])[+-]+", r"\1", text)
    return "".join(str(next((t.index(c) for t in DIGITS if c in t), c)) for c in text)


@st.composite
def odd_number(draw: st.DrawFn) -> str:
    """A word ``int()`` or ``str.isdigit()`` would take for a number, which the parser must not."""
    value = str(draw(st.integers(0, 120)))
    kind = draw(st.sampled_from(["digits", "underscore", "space", "sign", "huge"]))
    if kind == "digits":
        table = draw(st.sampled_from(DIGITS))
        odd = [draw(st.booleans()) for _ in value]
        odd[draw(st.integers(0, len(value) - 1))] = True
        return "".join(table[int(c)] if o else c for c, o in zip(value, odd, strict=True))
    if kind == "underscore":
        at = draw(st.integers(0, len(value)))
        return value[:at] + "_" + value[at:] if 0 < at < len(value) else value + "_0"
    if kind == "space":
        space = draw(st.sampled_from([" ", "\t", "\u00a0", "\u2003"]))
        return draw(st.sampled_from([space + value, value + space, value[:1] + space + value[1:] or space]))
    if kind == "sign":
        return draw(st.sampled_from([*MINUSES, "++", "+-", "--", "-+"])) + value
    return "9" * draw(st.integers(numbers.MAX_DIGITS + 1, 5000))


def usage_slots(game: Game, state: GameState, usage: str) -> list[str]:
    """A verb's usage line as plausible words, one per place: seats as numbers, tracks and sources by
    the game's names, ``key=N`` as written, a choice as its first word in lower case, anything else ``1``."""
    first = usage.split(" | ")[0].split()[1:]
    tracks = sorted(state.tracks) or ["x"]
    sources = sorted(state.sources) or ["x"]
    words = []
    for token in first:
        bare = token.strip("[]").rstrip(".")
        if bare in ("SEAT", "SEAT[,SEAT]", "SEAT:N"):
            words.append("1:1" if bare == "SEAT:N" else "1")
        elif bare == "TRACK":
            words.append(tracks[0])
        elif bare == "SOURCE":
            words.append(sources[0])
        elif "=" in bare:
            words.append(bare.split("=")[0] + "=1")
        elif "|" in bare and any(alt.islower() for alt in bare.split("|")):
            words.append(next(alt for alt in bare.split("|") if alt.islower()))
        else:
            words.append("1")
    return words


def placed(words: list[str], at: int, odd: str) -> list[str]:
    """``words`` with the number at place ``at`` written as ``odd`` (after ``key=`` when it has one)."""
    out = list(words)
    key, sep, _value = out[at].rpartition("=") if "=" in out[at] else ("", "", out[at])
    if ":" in out[at] and not sep:
        out[at] = out[at].split(":")[0] + ":" + odd
    else:
        out[at] = key + sep + odd
    return out


def attempt(session: Session, verb: str, args: list[str]) -> Outcome:
    """Perform the line and take it back when accepted, so the next line meets the same state (and,
    being at the same place in the log, the same draws)."""
    outcome = session.perform(Command(verb, tuple(args)))
    if outcome.accepted:
        assert session.undo().accepted
    return outcome


def check_line(session: Session, verb: str, args: list[str], odd: str, at: int) -> None:
    before = session.state
    outcome = attempt(session, verb, placed(args, at, odd))
    assert outcome.accepted or (outcome.reason and "\n" not in outcome.reason), outcome
    assert session.state == before
    twin = ascii_twin(odd)
    if verb in NUMBER_VERBS and at == len(args) - 1:
        assert not outcome.accepted, (verb, args, odd)
    if not outcome.accepted or twin is None or " ".join(odd.split()) == twin:
        return  # (a name is its words, however spaced: `victory 1 " 3"` names the card 3, as it should)
    same = attempt(session, verb, placed(args, at, twin))
    assert not (same.accepted and [e.to_json() for e in same.events] == [e.to_json() for e in outcome.events]), (
        f"{verb} {' '.join(placed(args, at, odd))!r} did what {twin!r} does: {odd!r} was read as a number")


@functools.cache
def walked(game_name: str) -> tuple[int, int, tuple[str, ...]]:
    game = next(g for g in GAMES if g.name == game_name)
    walk = random_walk(game, length=24, seed=3)
    return walk.seats, walk.seed, tuple(walk.lines)


def session_at(game: Game, steps: int) -> Session:
    """The game after ``steps`` lines of a seeded walk (its rounds, prompts and draws)."""
    seats, seed, lines = walked(game.name)
    session = Session(game, seats=seats, seed=seed)
    for line in lines[:steps]:
        verb, *args = line.split()
        assert session.perform(Command(verb, tuple(args))).accepted
    return session


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_verb_at_every_place_refuses_each_odd_number(game: Game) -> None:
    for steps in (0, 6, 24):
        session = session_at(game, steps)
        verbs = {**game.all_verbs()}
        usages = [v.usage for v in verbs.values()] + ["rewind K"]
        for usage in usages:
            verb = usage.split()[0]
            words = usage_slots(game, session.state, usage)
            for at in range(len(words)):
                for odd in SAMPLE:
                    check_line(session, verb, words, odd, at)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_odd_numbers_anywhere_in_any_line(game: Game, data: st.DataObject) -> None:
    session = session_at(game, data.draw(st.integers(0, 24), label="walked"))
    usages = [v.usage for v in game.all_verbs().values()] + ["rewind K"]
    usage = data.draw(st.sampled_from(usages), label="usage")
    words = usage_slots(game, session.state, usage) or ["1"]
    extra = data.draw(st.lists(st.sampled_from(["1", "2", "+1", "-1", "seat1", "seat2", *sorted(session.state.tracks)]),
                               max_size=2))
    words = words + extra
    odd = data.draw(odd_number(), label="odd")
    check_line(session, usage.split()[0], words, odd, data.draw(st.integers(0, len(words) - 1), label="at"))


@pytest.fixture(scope="module")
def consoles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Station]]:
    """A station per game on simulated parts, whose console lines go through ``Station._typed``."""
    config = load_config(REFERENCE_CONFIG)
    built: dict[str, Station] = {}
    parts = []
    for game in GAMES:
        clock = FakeClock(10.0)
        part = SimulatedParts(config, display_mode=None, capture_dir=tmp_path_factory.mktemp(game.name))
        parts.append(part)
        station = Station(session=Session(game, seats=game.seats_default, seed=1), config=config, clock=clock,
                          displays=make_displays(config, part.open_device, clock=clock))
        station.start()
        built[game.name] = station
    yield built
    for station in built.values():
        station.close()
    for part in parts:
        part.close()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_station_console_refuses_odd_numbers(consoles: dict[str, Station], game: Game,
                                                 data: st.DataObject) -> None:
    station = consoles[game.name]
    state = station.session.state
    verb = data.draw(st.sampled_from(NUMBER_VERBS))
    track = data.draw(st.sampled_from(sorted(state.tracks)))
    odd = data.draw(odd_number())
    line = {"set": f"set {track} '{odd}'", "add": f"add {track} '{odd}'", "choose": f"choose '{odd}'",
            "rewind": f"rewind '{odd}'"}[verb]
    refused = station.stats.refusals
    clock = station.clock
    assert isinstance(clock, FakeClock)
    shown = station.ui.message  # past the last refusal's time on the display (a long one stays until
    clock.now_s = max(clock.now_s + 5, shown.until_s if shown is not None else 0.0)  # read): each is said anew
    station.poll(clock())
    station.put(Typed(line, 1))
    station.drain()
    assert station.session.state == state
    assert station.stats.refusals == refused + 1, line


@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_the_parser_is_what_keeps_a_superscript_from_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], protection: str) -> None:
    """The check the verbs used before (``str.isdigit()``, then ``int()``) in place of the parser's own:
    ``rewind ³`` escapes as a ValueError again; with the parser it is one line, exit 2."""
    monkeypatch.setattr("sys.stdin", io.StringIO("rewind ³\n"))
    if protection == "protection-removed":
        monkeypatch.setattr(numbers, "is_number",
                            lambda word, *, signed=True, max_digits=numbers.MAX_DIGITS: word.lstrip("+-").isdigit())
        with pytest.raises(ValueError, match="invalid literal for int"):
            main(["play", "arkham", "--script", "-"])
        return
    assert main(["play", "arkham", "--script", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [
        "tablekeeper: line 1: rewind K (a log entry number) must be a whole number, not '³' (digits 0-9 only)"]


@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_the_parser_is_what_keeps_other_digits_from_being_read(monkeypatch: pytest.MonkeyPatch,
                                                               protection: str) -> None:
    """``int()`` reads Arabic-Indic and full-width digits: with a lenient parser ``set doom ٣`` would set 3."""
    game = next(g for g in GAMES if g.name == "arkham")
    session = Session(game, seats=2, seed=1)
    if protection == "protection-removed":
        monkeypatch.setattr(numbers, "is_number", lenient)
    outcome = session.perform(Command("set", ("agenda.doom", "٢")))
    if protection == "protection-removed":
        assert outcome.accepted and session.state.tracks["agenda.doom"].value == 2
        return
    assert not outcome.accepted and outcome.malformed
    assert outcome.reason == "agenda.doom must be a whole number, not '٢' (digits 0-9 only)"


def lenient(word: str, *, signed: bool = True, max_digits: int = numbers.MAX_DIGITS) -> bool:
    """A number is whatever ``int()`` reads (the parser's check removed)."""
    try:
        int(word)
    except ValueError:
        return False
    return True


def test_the_twins_are_what_a_lenient_reading_takes() -> None:
    """The oracle above: each odd word's twin is the number ``int()`` (or the old ``isdigit``) saw."""
    assert [ascii_twin(w) for w in ("³", "٣", "１", "1_0", " 3", "−3", "++3", "𝟏𝟐")] == \
        ["3", "3", "1", "10", "3", "-3", "+3", "12"]
    assert ascii_twin("9" * 5000) is None
