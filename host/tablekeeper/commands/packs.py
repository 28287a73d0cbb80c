"""``tablekeeper packs``: list the content every pack holds, check a pack, start a new one from a template.

A pack is a folder of TOML files for one game (``docs/packs.md``); the built-in content is the pack
``core`` of each game, a user's packs live in the data directory's ``packs/`` folder.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from string import Template
from typing import Any

from tablekeeper import games
from tablekeeper.core import packs as packlib
from tablekeeper.errors import ConfigError, PathError
from tablekeeper.user_paths import output_dir, packs_dir


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "packs", help="list, check or start packs of game content",
        description="A pack is a folder of TOML files holding one game's content (scenarios, Spirits, "
                    "adversaries, encounters, decks) under that game's schema; see docs/packs.md. Your packs "
                    f"live in {packs_dir()} (one folder each), or anywhere --pack PATH names.")
    actions = p.add_subparsers(dest="packs_action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the content of the built-in and installed packs, by game and kind")
    listing.add_argument("--json", action="store_true",
                         help='one JSON object: game -> kind -> [{"name", "pack", "verified"}]')
    listing.set_defaults(func=run_list)
    check = actions.add_parser("check", help="check a pack: one line per problem (file:line: key: problem), exit 2")
    check.add_argument("path", help="the pack's folder")
    check.set_defaults(func=run_check)
    new = actions.add_parser("new", help="a commented template for one piece of content, to fill in from the "
                                         "printed card or panel")
    new.add_argument("game", help=", ".join(games.GAMES))
    new.add_argument("kind", help="the kind of content (packs list shows the kinds of each game)")
    new.add_argument("name", help="its name as printed (the key players type is made from it)")
    new.add_argument("--into", metavar="FOLDER", type=Path,
                     help="add it to this pack's folder (default: a new pack in your packs folder, named after it)")
    new.set_defaults(func=run_new)


def _schemas() -> dict[str, packlib.Schema]:
    return games.pack_schemas()


def listing() -> tuple[dict[str, dict[str, list[packlib.Listed]]], list[packlib.Problem]]:
    """Per game, per kind, every entry of the built-in pack and of the installed ones; and the
    installed folders that could not be read as packs."""
    schemas = _schemas()
    out: dict[str, dict[str, list[packlib.Listed]]] = {}
    installed, problems = packlib.installed()
    for name, schema in schemas.items():
        found = [packlib.builtin(name, schema.package), *(p for p in installed if p.game == name)]
        kinds: dict[str, list[packlib.Listed]] = {kind: [] for kind in schema.kinds()}
        for pack in found:
            try:
                part = packlib.listing((pack,) if pack.where == packlib.BUILTIN_WHERE else (found[0], pack), schema)
            except ConfigError as exc:
                problems.append(packlib.problem_of(exc, pack.files))
                continue
            for kind, entries in part.items():
                kinds.setdefault(kind, []).extend(e for e in entries if e.pack == pack.name)
        out[name] = kinds
    unknown = sorted({p.game for p in installed} - set(schemas))
    problems += [packlib.Problem(p.folder, f"a pack for {p.game!r}, which is not a game here")
                 for p in installed if p.game in unknown]
    return out, problems


def run_list(args: argparse.Namespace) -> int:
    found, problems = listing()
    for problem in problems:
        print(f"tablekeeper: {problem.text()} (tablekeeper packs check shows every problem)", file=sys.stderr)
    if args.json:
        print(json.dumps({game: {kind: [e.to_json() for e in entries] for kind, entries in kinds.items()}
                          for game, kinds in found.items()}, indent=2))
        return 0
    for game, kinds in found.items():
        print(game)
        for kind, entries in kinds.items():
            print(f"  {kind}")
            for e in entries:
                key = f" ({e.key})" if e.key and e.key != e.name else ""
                checked = "" if e.verified else ", unverified"
                print(f"    {e.name}{key} [{e.pack}{checked}]")
    return 0


def run_check(args: argparse.Namespace) -> int:
    pack, problems = packlib.check(Path(args.path), _schemas())
    for problem in problems:
        print(problem.text(), file=sys.stderr)
    if problems or pack is None:
        return 2
    schema = _schemas()[pack.game]
    shown = (pack,) if pack.where == packlib.BUILTIN_WHERE else (packlib.builtin(pack.game, schema.package), pack)
    found = packlib.listing(shown, schema)
    held = [f"{len(mine)} {kind}" for kind, entries in found.items() if (mine := [e for e in entries
                                                                               if e.pack == pack.name])]
    print(f"{args.path}: pack {pack.name!r} for {pack.game} is fine ({', '.join(held) or 'nothing in it yet'})")
    return 0


def _key(name: str) -> str:
    key = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not key:
        raise ConfigError(f"packs new: {name!r} has no letters or digits to make a key from")
    return key[:40]


MANIFEST_TEMPLATE = Template("""\
# A pack of $game content (docs/packs.md). Choose it with --pack $name (or --pack FOLDER), and check
# it with: tablekeeper packs check FOLDER
name = "$name"
game = "$game"
title = ""                     # what it is, e.g. the expansion's name or "our homebrew"
source = ""                    # where its numbers come from
""")


def run_new(args: argparse.Namespace) -> int:
    schemas = _schemas()
    if args.game not in schemas:
        raise ConfigError(f"packs new: unknown game {args.game!r} (games: {', '.join(schemas)})")
    schema = schemas[args.game]
    if args.kind not in schema.templates:
        raise ConfigError(f"packs new {args.game}: unknown kind {args.kind!r} (kinds: {', '.join(schema.templates)})")
    key = _key(args.name)
    folder = args.into if args.into is not None else packs_dir() / key.replace("_", "-")
    manifest = folder / packlib.MANIFEST
    if manifest.exists():
        existing = packlib.read_folder(folder, where=str(folder))
        if existing.game != args.game:
            raise ConfigError(f"--into {folder}: a pack for {existing.game}, not {args.game}")
    else:
        if args.into is None:  # the packs folder is the station's own: made with the data directory if need be
            try:
                packs_dir().mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PathError(f"{packs_dir()}: cannot create the packs folder: {exc.strerror or exc}") from None
        output_dir(folder, option="--into")
        pack_name = folder.name.lower() if re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", folder.name.lower()) else key
        _write(manifest, MANIFEST_TEMPLATE.substitute(game=args.game, name=pack_name), append=False)
    target = folder / schema.file_of(args.kind)
    text = Template(schema.templates[args.kind]).substitute(key=key, name=args.name.replace('"', "'"))
    _write(target, text, append=target.exists())
    print(f"wrote {target}: fill it in from the printed card, then check it with: tablekeeper packs check {folder}")
    return 0


def _write(path: Path, text: str, *, append: bool) -> None:
    try:
        with path.open("a" if append else "x", encoding="utf-8") as out:
            out.write(("\n" if append else "") + text)
    except OSError as exc:
        raise PathError(f"{path}: cannot write: {exc.strerror or exc}") from None
