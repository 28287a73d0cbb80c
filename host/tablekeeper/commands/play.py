"""``tablekeeper play``: run a game headless from a script, the contract scripts and tests use.

Each script line is handled as it arrives, so another program can drive a game through a pipe;
with ``--trace`` one JSON line per script line is flushed at once.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from tablekeeper import games
from tablekeeper.commands.sessions import check_slot, open_session
from tablekeeper.core.events import Command
from tablekeeper.core.numbers import option_number
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Outcome, Session
from tablekeeper.core.store import Store, export_lines, inspect, refusal
from tablekeeper.errors import ConfigError, Rejected, ScriptError, StoreError
from tablekeeper.schema import read_text
from tablekeeper.station.controls import Controls

DEFAULT_SLOT = "main"
MAX_EXPORT_BYTES = 64_000_000
"""A session export read whole by ``saves import`` (a long campaign is a few MB)."""
MAX_SCRIPT_BYTES = 64_000_000


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("play", help="play a game headless from a script",
                              description="Run a game headless. Script lines: next, choose N, undo, redo, "
                              "rewind K, set TRACK VALUE, add TRACK +N|-N, draw SOURCE, reveal SOURCE OUTCOME, "
                              "press BUTTON, hold BUTTON, and the game's own verbs (see docs/scripting.md).")
    p.add_argument("game", help="arkham, spirit_island, oathsworn or earthborne")
    p.add_argument("--seats", type=option_number, default=None, help="number of seats (players)")
    p.add_argument("--seed", type=option_number, default=1, help="seed for the device's draws (default 1)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. difficulty=hard (repeatable)")
    p.add_argument("--pack", action="append", default=[], metavar="NAME|PATH", help=PACK_HELP)
    p.add_argument("--script", metavar="FILE", help="script file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    p.add_argument("--trace", action="store_true", help="print one JSON line per script line")
    p.add_argument("--strict", action="store_true", help="exit 1 if any line was rejected")
    p.add_argument("--save", metavar="PATH", help="keep the session in this SQLite file; resume if it holds one")
    p.add_argument("--slot", default=DEFAULT_SLOT, help=f"save slot name (default {DEFAULT_SLOT})")
    p.add_argument("--campaign", metavar="NAME",
                   help="a campaign kept in the --save file: its record feeds this game, and is updated when it ends")
    p.add_argument("--walk", action="store_true",
                   help="every step waits for next (for teaching a new group); by default the station runs the "
                        "steps with nothing to decide by itself")
    p.add_argument("--verbs", action="store_true", help="list the game's verbs and exit")
    p.set_defaults(func=run)

    s = subparsers.add_parser("saves", help="list, check, export or import saved sessions",
                              description="check verifies a save whole without writing to it; export "
                              "--good-only writes the verified part of a damaged slot, to import into a new file.")
    s.add_argument("action", choices=("list", "check", "export", "import"))
    s.add_argument("path", help="the SQLite save file")
    s.add_argument("--slot", default=DEFAULT_SLOT)
    s.add_argument("--file", help="JSON-lines file to import from (export writes to stdout)")
    s.add_argument("--good-only", action="store_true",
                   help="export: write the entries verified before the first damaged one")
    s.set_defaults(func=run_saves)


PACK_HELP = ("a pack whose content the game may use, by its name in your packs folder or its folder's path "
             "(repeatable; choose its content with the usual options, e.g. --option scenario_id=ID)")


def read_lines(path: str) -> Iterator[str]:
    """Standard input line by line (a pipe drives the game as it goes), or a bounded regular file."""
    if path == "-":
        yield from iter(sys.stdin.readline, "")
        return
    try:
        text = read_text(path, max_bytes=MAX_SCRIPT_BYTES, what="script")
    except ConfigError as exc:
        raise ScriptError(f"{path}: cannot read script: {str(exc).removeprefix(f'{path}: ')}") from None
    yield from text.splitlines(keepends=True)


class Runner:
    """Feeds script lines to a session through the same controls the panel uses."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.controls = Controls(session.game, clock=lambda: 0.0)

    def line(self, number: int, text: str) -> Outcome | None:
        try:
            parsed = parse_line(text, number)
        except ScriptError as exc:  # one malformed line is rejected like any other, the script goes on
            return Outcome(False, str(exc).removeprefix(f"line {number}: "))
        if parsed is None:
            return None
        cmd = parsed.command
        try:
            if cmd.verb in ("press", "hold"):
                if len(cmd.args) != 1:
                    return Outcome(False, f"usage: {cmd.verb} BUTTON")
                act = self.controls.hold if cmd.verb == "hold" else self.controls.press
                return self.perform_all(act(cmd.args[0], self.session.state))
            pending = self.controls.flush()
            if pending:
                outcome = self.perform_all(pending)
                if not outcome.accepted:
                    return outcome
            return self.session.perform(cmd)
        except Rejected as exc:
            return Outcome(False, exc.reason)

    def perform_all(self, commands: list[Command]) -> Outcome:
        last = Outcome(True)
        for cmd in commands:
            if cmd.verb == "menu":
                return Outcome(False, "menu: the settings menu exists only on the station")
            last = self.session.perform(cmd)
            if not last.accepted:
                return last
        return last

    def finish(self) -> Outcome:
        return self.perform_all(self.controls.flush())

    def view(self) -> dict[str, Any]:
        out = self.session.view()
        out["pending"] = self.controls.pending.text() if self.controls.pending else None
        return out


def run(args: argparse.Namespace) -> int:
    game = games.load(args.game)
    if args.verbs:
        for verb in game.all_verbs().values():
            print(f"{verb.usage:32} {verb.help}")
        return 0
    session, store = open_session(game, args)
    runner = Runner(session)
    rejected = 0
    out: TextIO = sys.stdout
    try:
        if args.script:
            rejected = run_script(runner, args, out)
        final = runner.finish()
        if not final.accepted:
            rejected += 1
            print(f"end of script: {final.reason}", file=sys.stderr)
        if store is not None and args.campaign:
            save_campaign(store, session, args.campaign)
        if args.json:
            out.write(json.dumps(runner.view()) + "\n")
        elif not args.trace:
            print(describe(session))
        out.flush()
        session.keep_snapshot()  # after the answer: a resume past stale snapshots spares the next one
    finally:
        if store is not None:
            store.close()
    return 1 if (args.strict and rejected) else 0


def run_script(runner: Runner, args: argparse.Namespace, out: TextIO) -> int:
    """Feed ``args.script`` to ``runner`` line by line (refusals on stderr, ``--trace`` lines on ``out``);
    returns how many lines were refused."""
    rejected = 0
    for number, text in enumerate(read_lines(args.script), 1):
        try:
            outcome = runner.line(number, text)
        except StoreError as exc:  # e.g. a full disk: this line is not acknowledged
            raise type(exc)(f"line {number} not saved: {exc}") from None
        if outcome is None:
            continue
        if outcome.malformed:  # a word that cannot be read is bad input, not a refused move
            raise ScriptError(f"line {number}: {outcome.reason}")
        if not outcome.accepted:
            rejected += 1
            if not args.trace:  # in trace mode the trace is the answer: a driver need not read stderr
                print(f"line {number}: {outcome.reason}", file=sys.stderr, flush=True)
        if args.trace:
            state = runner.view()
            if not outcome.accepted:
                state["notices"] = []  # the session's notices are the last accepted line's
            record = {"line": number, "text": text.strip(), "accepted": outcome.accepted,
                      "reason": outcome.reason, "entry": outcome.entry, "state": state}
            out.write(json.dumps(record) + "\n")
            out.flush()
    return rejected


def save_campaign(store: Store, session: Session, name: str) -> None:
    """Keep the campaign record once the game has ended (a scenario in progress changes nothing)."""
    if session.state.over is None:
        return
    record = session.game.campaign_record(session.state, store.campaign(name))
    if record is not None:
        store.save_campaign(name, session.game.name, record)


def describe(session: Session) -> str:
    view = session.view()
    lines = [f"{session.game.title}: round {view['round']}, {view['phase']} / {view['step_label']}"
             + (f", seat {view['active_seat']}'s turn" if view["active_seat"] else "")]
    if view["prompt"]:
        lines.append("prompt: " + view["prompt"]["text"] + " " +
                     " ".join(f"[{i}] {o}" for i, o in enumerate(view["prompt"]["options"], 1)))
    tracks = view["tracks"]
    lines.append(", ".join(f"{k}={v}" for k, v in tracks.items()))
    if view["over"]:
        lines.append(f"over: {view['over']}")
    return "\n".join(lines)


def run_saves(args: argparse.Namespace) -> int:
    check_slot(args.slot)
    if args.action == "import":
        if not args.file:
            raise ScriptError("saves import: --file FILE is required")
        try:
            lines = read_text(args.file, max_bytes=MAX_EXPORT_BYTES, what="session export").splitlines()
        except ConfigError as exc:
            raise ScriptError(f"cannot read: {exc}") from None
        with Store.open(args.path) as store:
            saved = store.import_lines(args.slot, lines, source=args.file)
        print(f"imported {len(saved.entries)} entries into slot {args.slot!r} of {args.path}")
        return 0
    found = inspect(args.path)  # reads only: works beside a running station, never writes
    if args.action == "list":
        for slot in found.slots:
            state = "verified" if slot.problem is None else f"DAMAGED: {slot.problem}"
            game = f"{slot.setup.game}, {slot.setup.seats} seats, " if slot.setup else ""
            print(f"{slot.slot}: {game}{len(slot.entries)} entries, {state}")
        return 0
    if args.action == "check":
        if found.integrity != "ok":
            print(f"{args.path}: integrity check: {found.integrity}")
        for slot in found.slots:
            if slot.problem is None:
                print(f"{args.path}: slot {slot.slot!r}: {len(slot.entries)} entries, verified")
            else:
                print(f"{args.path}: slot {slot.slot!r}: {slot.problem}; entries 1..{len(slot.entries)} are good "
                      f"(tablekeeper saves export {args.path} --slot {slot.slot} --good-only)")
        if found.missing is not None:
            print(f"{args.path}: {found.missing}")
        if not found.checksums:
            print(f"{args.path}: an older save without entry checksums: numbering and entries checked")
        return 0 if found.ok else 1
    chosen = found.slot(args.slot)
    if chosen is None or chosen.setup is None:
        raise StoreError(f"{args.path}: no session in slot {args.slot!r}")
    if not found.ok and not args.good_only:
        raise StoreError(refusal(found.path, found.first_problem()))
    for line in export_lines(chosen.setup, chosen.entries):
        print(line)
    return 0
