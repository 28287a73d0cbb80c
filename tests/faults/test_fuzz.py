"""Fuzzing with hypothesis: the script parser and the play runner, the station config loader,
saved/imported session logs, and the counter protocol's decoder. Each input either works or is
refused with the project's own error (one line, naming where); nothing else may escape, and a
refused command changes nothing."""

from __future__ import annotations

import binascii
import contextlib
import io
import json
import string
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from cobs import cobs
from hypothesis import HealthCheck, Phase, assume, example, given, settings
from hypothesis import strategies as st

from tablekeeper.cli import main
from tablekeeper.commands.play import Runner
from tablekeeper.config import StationConfig, parse_config
from tablekeeper.core.game import Game
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session, Setup
from tablekeeper.core.store import Store, checksum
from tablekeeper.errors import ConfigError, ProtocolError, ScriptError, StoreError
from tablekeeper.hw import protocol as p
from tests.faults.test_bad_input import BASE, SPI
from tests.faults.walk import playable_games

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
FUZZ_FILES = settings(FUZZ, max_examples=25)  # each example writes a SQLite file with synchronous=FULL
GAMES = playable_games()
WORD = st.text(alphabet=string.ascii_letters + string.digits + "._+-", min_size=1, max_size=8)

# --- script lines -------------------------------------------------------------------------------


@FUZZ
@given(st.text(max_size=60))
def test_parse_line_returns_a_command_nothing_or_a_script_error(text: str) -> None:
    try:
        parsed = parse_line(text, 7)
    except ScriptError as exc:
        assert str(exc).startswith("line 7: ") and "\n" not in str(exc)
        return
    if parsed is None:
        assert not text.split("#", 1)[0].strip()
    else:
        assert parsed.number == 7 and parsed.command.verb == parsed.command.verb.lower()


def vocabulary(game: Game) -> tuple[list[str], list[str]]:
    """The verbs and argument words worth combining for this game (its tracks, sources, buttons)."""
    state = Session(game, seats=game.seats_default, seed=1).state
    verbs = [*game.all_verbs(), "undo", "redo", "rewind", "press", "hold", "menu"]
    words = [*state.tracks, *state.sources, "next", "back", "select", "up", "down", "seat1.a", "seat2.b",
             "0", "1", "2", "+1", "-1", "+5", "99", "-3", "x"]
    return verbs, words


@st.composite
def script_line(draw: st.DrawFn, verbs: list[str], words: list[str]) -> str:
    """Mostly well-formed lines built from the game's own verbs, tracks and sources, some noise."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=30))
    verb = draw(st.sampled_from(verbs) | WORD)
    args = draw(st.lists(st.sampled_from(words) | WORD, max_size=3))
    return " ".join([verb, *args])


def within_bounds(session: Session) -> bool:
    return all((c.lo is None or c.value >= c.lo) and (c.hi is None or c.value <= c.hi)
               for c in session.state.tracks.values())


VOCABULARY = {game.name: vocabulary(game) for game in GAMES}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@settings(FUZZ, max_examples=40)
@given(data=st.data())
def test_play_runner_accepts_or_rejects_cleanly(game: Game, data: st.DataObject) -> None:
    session = Session(game, seats=game.seats_default, seed=data.draw(st.integers(0, 3)))
    runner = Runner(session)
    lines = st.lists(script_line(*VOCABULARY[game.name]), min_size=1, max_size=25)
    for number, text in enumerate(data.draw(lines), 1):
        before, length, pending = session.state, session.log_length, runner.controls.pending
        try:
            outcome = runner.line(number, text)
        except ScriptError as exc:
            assert str(exc).startswith(f"line {number}: ")
            assert session.state == before
            continue
        if outcome is not None and not outcome.accepted:
            assert outcome.reason
            if pending is None:
                assert session.state == before and session.log_length == length
        assert within_bounds(session)
    runner.finish()
    json.dumps(runner.view())
    replayed = Session(game, seats=session.setup.seats, seed=session.setup.seed, entries=session.entries)
    assert replayed.state == session.state


@FUZZ_FILES
@given(st.lists(st.text(max_size=20), max_size=6))
def test_play_command_line_exits_0_or_2(fixture_registered: None, lines: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "script.txt"
        script.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        code, _out, err = run_main("play", "fixture", "--script", str(script))
    assert code in (0, 2)
    *rejected, last = err.splitlines() or [""]
    assert all(line.startswith("line ") for line in rejected)
    assert last.startswith("tablekeeper: ") if code == 2 else last.startswith(("line ", "end of script")) or not last


def run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --- station config -----------------------------------------------------------------------------

VALID = tomllib.loads(BASE + SPI)
TOML_VALUE = st.recursive(
    st.integers(-300, 300) | st.booleans() | st.text(max_size=8) | st.floats(allow_nan=False, width=32),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORD, inner, max_size=3),
    max_leaves=6,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths(value, (*prefix, i))
    return out


@st.composite
def mutated_config(draw: st.DrawFn) -> dict[str, Any]:
    """The valid two-display config with a few keys replaced, removed or added."""
    cfg: dict[str, Any] = json.loads(json.dumps(VALID))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(cfg)))
        parent = cfg
        for step in where[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if action == "replace":
            parent[where[-1]] = draw(TOML_VALUE)
        elif action == "remove" and isinstance(parent, dict):
            del parent[where[-1]]
        elif isinstance(parent, dict):
            parent[draw(WORD)] = draw(TOML_VALUE)
    return cfg


@FUZZ
@given(mutated_config())
def test_config_loader_accepts_or_names_the_key(cfg: dict[str, Any]) -> None:
    text = tomli_w.dumps(cfg)
    try:
        loaded = parse_config(text, source="fuzz.toml")
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith("fuzz.toml: ") and "\n" not in message
        return
    assert isinstance(loaded, StationConfig)
    assert len(loaded.pin_map()) == len(set(loaded.pin_map().values()))


@FUZZ
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_config_loader_on_any_text(text: str) -> None:
    try:
        parse_config(text, source="any.toml")
    except ConfigError as exc:
        assert str(exc).startswith("any.toml: ") and "\n" not in str(exc)


# --- saved and imported logs --------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 70) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                              max_size=3), max_leaves=8)
ENTRY = st.fixed_dictionaries(
    {"index": st.integers(0, 5) | JSON, "kind": st.sampled_from(["command", "undo", "redo", "rewind"]) | JSON},
    optional={"command": st.fixed_dictionaries({"verb": st.sampled_from(["next", "add", "draw"]) | JSON,
                                                "args": st.lists(st.sampled_from(["doom", "+1", "bag"]))
                                                | JSON}) | JSON,
              "events": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(
                  ["track.set", "flow", "data", "notice", "source", "zzz"]) | JSON}, optional={
                  "track": st.sampled_from(["doom", "seat1.actions"]) | JSON, "value": JSON}), max_size=3) | JSON,
              "target": st.integers(0, 5) | JSON})
BODY = ENTRY.map(json.dumps) | JSON.map(json.dumps) | st.text(max_size=20)


@FUZZ_FILES
@given(st.lists(BODY, min_size=1, max_size=5))
def test_a_damaged_saved_log_is_refused_in_one_line(fixture_registered: None, bodies: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "s.sqlite"
        with Store.open(save) as store:
            store.create("main", Setup("fixture", 2, 1, {}))
            for index, body in enumerate(bodies, 1):
                store._db.execute("INSERT INTO entries (slot, idx, body, crc) VALUES ('main', ?, ?, ?)",
                                  (index, body, checksum(body)))
        before = save.read_bytes()
        code, _out, err = run_main("play", "fixture", "--save", str(save), "--json")
        if code == 2:
            assert len(err.splitlines()) == 1 and err.startswith(f"tablekeeper: {save}: ")
            assert save.read_bytes() == before
        else:
            assert code == 0


@FUZZ_FILES
@given(st.lists(BODY, min_size=1, max_size=5))
def test_import_validates_before_writing(bodies: list[str]) -> None:
    indexes = [b.get("index") for b in map(_json_or_none, bodies) if isinstance(b, dict)]
    assume(len(indexes) == len(set(map(repr, indexes))))  # a repeated index: see test_bad_input
    header = json.dumps({"tablekeeper": 1, "setup": {"game": "fixture", "seats": 2, "seed": 1}})
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "t.sqlite") as store:
        try:
            saved = store.import_lines("main", [header, *bodies], source="in.jsonl")
        except StoreError as exc:
            assert str(exc).startswith("in.jsonl: line ") and "\n" not in str(exc)
            assert store.load("main") is None
            return
        loaded = store.load("main")
        assert loaded is not None and loaded.setup == saved.setup
        assert sorted(loaded.entries, key=lambda e: e.index) == sorted(saved.entries, key=lambda e: e.index)


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


# --- counter protocol decoder -------------------------------------------------------------------

PAYLOAD = st.builds(lambda version, kind, seq, body: bytes((version, kind, seq)) + body,
                    st.sampled_from([p.PROTOCOL_VERSION, p.PROTOCOL_VERSION, 0, p.LEGACY_VERSION, 3, 255]),
                    st.sampled_from([int(t) for t in p.MsgType]) | st.integers(0, 255),
                    st.integers(0, 255), st.binary(max_size=p.MAX_PAYLOAD - 3))
STREAM_PIECE = (PAYLOAD.map(lambda payload: p.encode_frame(payload))
                | st.binary(max_size=60)
                | st.sampled_from([b"\x00", b"\x03\x03", b">>> ", b"\x00\x00\x00"]))
PARSERS = {p.MsgType.IDENT: p.parse_ident, p.MsgType.CHANGE: p.parse_change, p.MsgType.ROLL: p.parse_roll,
           p.MsgType.ERROR: p.parse_error}


@settings(FUZZ, max_examples=150)
@given(st.lists(STREAM_PIECE, max_size=12), st.integers(1, 64), st.data())
def test_decoder_turns_any_byte_stream_into_messages_or_protocol_errors(
        pieces: list[bytes], chunk: int, data: st.DataObject) -> None:
    stream = b"".join(pieces)
    if stream and data.draw(st.booleans()):  # a bit flip somewhere
        at = data.draw(st.integers(0, len(stream) - 1))
        stream = stream[:at] + bytes((stream[at] ^ 1 << data.draw(st.integers(0, 7)),)) + stream[at + 1:]
    _check_decoded(pieces, stream, chunk)


def _check_decoded(pieces: list[bytes], stream: bytes, chunk: int) -> None:
    splitter = p.FrameSplitter()
    payloads = [payload for start in range(0, len(stream), chunk)
                for payload in splitter.feed(stream[start:start + chunk])]
    sent = {bytes(piece[1:-1]) for piece in pieces}
    for payload in payloads:
        # nothing damaged comes out of the splitter: every payload was framed whole into the stream
        # (a flipped trailing delimiter merging a frame with a restored zero included), or it is a
        # version-1 frame, passed on only to be refused by version
        if p.encode_frame(payload)[1:-1] not in sent:
            assert payload[0] == p.LEGACY_VERSION
            with pytest.raises(p.FrameRejected):
                p.parse(payload)
        assert 3 <= len(payload) <= p.MAX_PAYLOAD
        try:
            message = p.parse(payload)
        except p.FrameRejected as exc:
            assert isinstance(exc.code, p.ErrorCode)
            continue
        parser = PARSERS.get(message.type)
        if parser is not None:
            with contextlib.suppress(ProtocolError):
                parser(message.body)


@pytest.mark.parametrize("final_xor", [True, False], ids=["final XOR", "protection removed"])
def test_a_frame_with_a_flipped_trailing_delimiter_is_dropped(final_xor: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A CHANGE whose closing 0x00 became 0x01 (the next frame's 0x00 ends it): COBS restores one
    extra zero, which a CRC without a final XOR (protocol version 1) still checks out over. The
    decoder check fails once the XOR is patched out, so it proves the protection."""
    if not final_xor:
        monkeypatch.setattr(p, "CRC_XOROUT", 0)
    frame = p.encode_frame(p.build(p.MsgType.CHANGE, 7, bytes((0, 0, 3, 0, 9))))
    merged = frame[:-1] + b"\x01"
    heartbeat = p.encode_frame(p.build(p.MsgType.HEARTBEAT, 0))
    if final_xor:
        _check_decoded([merged, heartbeat], merged + heartbeat, 64)
    else:
        with pytest.raises(AssertionError):
            _check_decoded([merged, heartbeat], merged + heartbeat, 64)


@settings(FUZZ, max_examples=200)
@given(st.binary(max_size=80))
@example(bytes.fromhex("0401030101021c0403aecd"))  # a CHANGE frame with one bit flipped in its value
def test_decode_frame_refuses_with_protocol_error(raw: bytes) -> None:
    try:
        payload = p.decode_frame(raw)
    except ProtocolError:
        return
    crc = int.from_bytes(bytes(cobs.decode(raw))[-2:], "big")
    legacy = payload[0] == p.LEGACY_VERSION and binascii.crc_hqx(payload, 0xFFFF) == crc
    assert p.crc16(payload) == crc or legacy


@pytest.mark.parametrize("fuzz", [test_decode_frame_refuses_with_protocol_error], ids=["frame"])
def test_the_decoder_fuzz_fails_with_the_crc_check_off(fuzz: Callable[[], None],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(p, "CHECK_CRC", False)
    current = fuzz._hypothesis_internal_use_settings  # type: ignore[attr-defined]
    quick = settings(current, phases=[Phase.explicit, Phase.generate])
    monkeypatch.setattr(fuzz, "_hypothesis_internal_use_settings", quick)  # a failure is enough; no shrinking
    with pytest.raises((AssertionError, ExceptionGroup)):
        fuzz()
