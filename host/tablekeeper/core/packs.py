"""Packs: a folder of TOML files holding one game's content (scenarios, Spirits, decks ...) under the
game's schema, with a ``pack.toml`` naming it. The content shipped with the package is the pack
``core`` of each game (its ``data/`` folder); a user's packs live in the data directory's ``packs/``
folder, or anywhere a path names.

A session chooses its packs when it begins (option ``packs``: names or paths, comma-separated) and
records each one's name, where it was found and the SHA-256 of its files; resuming a save reads the
pack again from there and refuses, naming the pack, when its content changed since. The records stay
in the setup, so every later read of the game's data finds the same content. The only paths a save
makes the station open are its packs' folders, read as ``packs check`` reads them: a folder's regular
TOML files, bounded in number and size (a FIFO or a device is refused, never read).
"""


import functools
import importlib
import os
import stat
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final

import msgspec

from tablekeeper.core import pack_cache
from tablekeeper.errors import ConfigError, PackChangedError
from tablekeeper.schema import decode, fail, key_line, parse_toml, read_text
from tablekeeper.user_paths import packs_dir

PACKS_OPTION: Final = "packs"
MANIFEST: Final = "pack.toml"
BUILTIN: Final = "core"
BUILTIN_WHERE: Final = "builtin"
USER_WHERE: Final = "user"
RECORDS_MARK: Final = "tablekeeper-packs:"
MAX_FILES: Final = 64  # TOML files in one pack
MAX_PACK_BYTES: Final = 4_000_000  # all of a pack's files together
MAX_FOLDERS: Final = 500  # folders looked at in the packs folder
KEEP: Final = 16  # packs kept read in memory (besides the built-in ones)

PackName = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=40)]


class Manifest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``pack.toml``: what the pack is called (the name ``--pack`` takes) and which game it is for."""

    name: PackName
    game: str
    title: str = ""
    source: str = ""


# The records below are msgspec Structs, made in C: a frozen dataclass compiles its methods from generated
# source when its module loads (about 1 ms a class here), and every game loads this module before its first frame.
class PackFile(msgspec.Struct, frozen=True):
    name: str  # file name inside the pack ("scenarios.toml")
    label: str  # how messages name it (a path, or "arkham/data/scenarios.toml" for the built-in pack)
    text: str


class Pack(msgspec.Struct, frozen=True):
    """One pack as read: its manifest's name and game, where it was found, its files and their hash."""

    name: str
    game: str
    where: str  # BUILTIN_WHERE, USER_WHERE (found by name in the packs folder) or the folder's path
    folder: str  # the folder, as messages show it
    sha256: str
    files: tuple[PackFile, ...]
    title: str = ""
    source: str = ""

    def file(self, name: str) -> PackFile | None:
        return next((f for f in self.files if f.name == name), None)

    def record(self) -> "Record":
        return Record(self.name, self.where, self.sha256)


class Record(msgspec.Struct, frozen=True):
    """What a save keeps of a pack: enough to find it again and to know it is the same."""

    name: str
    where: str
    sha256: str


class Listed(msgspec.Struct, frozen=True):
    """One piece of content as ``packs list`` shows it (and a game's view lists what it knows): its
    name, its pack, whether it was checked, and the key players type to choose it, when it has one."""

    name: str
    pack: str
    verified: bool
    key: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "pack": self.pack, "verified": self.verified}
        if self.key and self.key != self.name:
            out["key"] = self.key
        return out


class Problem(msgspec.Struct, frozen=True):
    """One thing wrong in a pack: the file, the line (when known), the key and what is wrong."""

    file: str
    message: str
    key: str = ""
    line: int | None = None

    def text(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class Layer(msgspec.Struct, frozen=True):
    """One pack's copy of a data file, parsed: the built-in one first, then each chosen pack's."""

    pack: str
    label: str
    doc: dict[str, Any]


# --- what a game's packs hold (its schema) --------------------------------------------------------

class Table(msgspec.Struct, frozen=True):
    """A table of named entries in a pack file (``[scenarios.ID]``, ``[[sets]]`` with ``id``), or with
    ``path`` empty the file's top level; ``whole`` makes the file itself one entry (a deck)."""

    path: str
    kind: str  # what packs list calls it ("scenarios"); "" for entries it does not list
    entry: Any  # the msgspec type one entry must match
    name: str | None = "name"  # the field holding the name players see (None: the key is the name)
    id: str | None = None  # an array of tables: the field users type
    whole: bool = False
    checked: Callable[[dict[str, Any]], bool] | None = None  # whether an entry was checked (default: verified)


class FileSpec(msgspec.Struct, frozen=True):
    name: str
    tables: tuple[Table, ...]


class Schema(msgspec.Struct, frozen=True):
    """A game's pack schema: the files a pack may hold, how to read them all (``load`` raises the
    first ``ConfigError``), the content list, and a commented template per kind (``$key``, ``$name``)."""

    game: str
    package: str
    files: tuple[FileSpec, ...]
    load: Callable[[tuple[Pack, ...]], object]
    templates: Mapping[str, str] = msgspec.field(default_factory=dict)
    listing: Callable[[tuple[Pack, ...]], dict[str, list[Listed]]] | None = None

    def spec(self, name: str) -> FileSpec | None:
        return next((f for f in self.files if f.name == name), None)

    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.kind for f in self.files for t in f.tables if t.kind))

    def file_of(self, kind: str) -> str:
        """The file a kind of content lives in."""
        return next(f.name for f in self.files for t in f.tables if t.kind == kind)


# --- reading packs ---------------------------------------------------------------------------

def _digest(files: Sequence[PackFile]) -> str:
    import hashlib  # OpenSSL's module: a new game's built-in pack takes its hash from the parsed-data cache

    h = hashlib.sha256()
    for f in sorted(files, key=lambda f: f.name):
        h.update(f.name.encode("utf-8") + b"\0" + f.text.encode("utf-8") + b"\0")
    return h.hexdigest()


def gather(folder: Path) -> tuple[list[PackFile], list[Problem]]:
    """The TOML files at the top of ``folder`` (bounded in number and size), and what could not be read."""
    label = str(folder)
    try:
        info = folder.stat()
    except OSError as exc:
        return [], [Problem(label, f"cannot read: {exc.strerror or exc}")]
    if not stat.S_ISDIR(info.st_mode):
        return [], [Problem(label, "not a folder (a pack is a folder of TOML files)")]
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".toml") and not n.startswith("."))
    except OSError as exc:
        return [], [Problem(label, f"cannot list: {exc.strerror or exc}")]
    if len(names) > MAX_FILES:
        return [], [Problem(label, f"{len(names)} TOML files; a pack holds at most {MAX_FILES}")]
    files: list[PackFile] = []
    problems: list[Problem] = []
    total = 0
    for name in names:
        path = folder / name
        try:
            text = read_text(path, what="pack file")
        except ConfigError as exc:
            problems.append(Problem(str(path), str(exc).removeprefix(f"{path}: ")))
            continue
        total += len(text)
        if total > MAX_PACK_BYTES:
            return files, [*problems, Problem(label, f"more than {MAX_PACK_BYTES} bytes of TOML in one pack")]
        files.append(PackFile(name, str(path), text))
    return files, problems


def manifest(files: Sequence[PackFile], folder: str) -> Manifest:
    found = next((f for f in files if f.name == MANIFEST), None)
    if found is None:
        raise ConfigError(f"{folder}: no {MANIFEST} (a pack names itself and its game there: name = ..., game = ...)",
                          file=str(Path(folder) / MANIFEST))
    return decode(parse_toml(found.text, source=found.label), Manifest, source=found.label)


def read_folder(folder: Path, *, where: str) -> Pack:
    """A pack from its folder; the first problem is one ``ConfigError`` line."""
    files, problems = gather(folder)
    if problems:
        first = problems[0]
        raise ConfigError(first.text(), file=first.file, line=first.line)
    info = manifest(files, str(folder))
    return Pack(info.name, info.game, where, str(folder), _digest(files), tuple(files), info.title, info.source)


def _data_folder(package: str) -> Path:
    """``<package>/data/``. The package is installed as files, never zipped: read as a folder, a new game's
    first frame does not wait for ``importlib.resources`` and its zip reader to load (4-7 ms)."""
    return Path(importlib.import_module(package).__file__ or "").parent / "data"


@functools.cache
def builtin(game: str, package: str) -> Pack:
    """The content shipped with the package: ``<package>/data/``, the pack ``core`` of ``game``."""
    return read_builtin(game, _data_folder(package))


def read_builtin(game: str, root: Path) -> Pack:
    """The pack in ``root``, its tables and hash from the parsed-data cache when that holds these very
    files (``pack_cache``); otherwise parsed and hashed here, and the cache written for the next process."""
    found = pack_cache.stamps(root)
    files = tuple(PackFile(s.name, f"{game}/data/{s.name}", (root / s.name).read_text(encoding="utf-8"))
                  for s in found)
    texts = [f.text for f in files]
    cached = pack_cache.load(root, found, texts)
    info = manifest(files, f"{game}/data")
    if cached is not None:
        sha256 = cached.sha256
    else:
        sha256 = _digest(files)
        pack_cache.store(root, found, texts, [parse_toml(f.text, source=f.label) for f in files], sha256)
    return Pack(info.name, info.game, BUILTIN_WHERE, f"{game}/data", sha256, files, info.title, info.source)


def _folders() -> tuple[list[Path], list[Problem]]:
    root = packs_dir()
    try:
        return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))[:MAX_FOLDERS], []
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        return [], [Problem(str(root), f"cannot list: {exc.strerror or exc}")]


def installed(game: str | None = None) -> tuple[list[Pack], list[Problem]]:
    """The packs in the user's packs folder (of ``game``, or all), and the folders that are not packs."""
    folders, problems = _folders()
    packs = []
    for folder in folders:
        try:
            pack = read_folder(folder, where=USER_WHERE)
        except ConfigError as exc:
            problems.append(Problem(str(exc.file or folder), str(exc).removeprefix(f"{exc.file}: ")))
            continue
        if game is None or pack.game == game:
            packs.append(pack)
    return packs, problems


def _named(game: str) -> dict[str, list[Path]]:
    """The folders of the packs folder by the pack name their manifest gives, for ``game`` (only the
    manifests are read: finding one pack does not read every other)."""
    folders, _ = _folders()
    found: dict[str, list[Path]] = {}
    for folder in folders:
        try:
            text = read_text(folder / MANIFEST, what="pack manifest")
            info = decode(parse_toml(text, source=str(folder / MANIFEST)), Manifest, source=str(folder / MANIFEST))
        except ConfigError:
            continue  # not a pack: packs list and packs check say why
        if info.game == game:
            found.setdefault(info.name, []).append(folder)
    return found


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or os.sep in ref or ref.startswith((".", "~"))


def resolve(ref: str, game: str, package: str) -> Pack:
    """The pack ``ref`` names: ``core`` (the built-in one), a pack's name in the packs folder, or a folder's path."""
    if ref == BUILTIN:
        return builtin(game, package)
    if _looks_like_path(ref):
        folder = Path(ref).expanduser()
        pack = read_folder(folder, where=str(folder.resolve()))
        if pack.game != game:
            raise ConfigError(f"--pack {ref}: a pack for {pack.game}, not {game}")
        if pack.name == BUILTIN:
            raise ConfigError(f"--pack {ref}: the name {BUILTIN!r} is the built-in pack's; rename it in its {MANIFEST}")
        return pack
    named = _named(game)
    found = named.get(ref, [])
    if len(found) > 1:
        raise ConfigError(f"--pack {ref}: two {game} packs of that name ({', '.join(map(str, found))})")
    if not found:
        names = ", ".join(sorted({BUILTIN, *named}))
        raise ConfigError(f"--pack {ref}: no {game} pack of that name in {packs_dir()} (packs: {names}; "
                          "or give the pack folder's path)")
    return read_folder(found[0], where=USER_WHERE)


_READ: OrderedDict[tuple[str, str, str], Pack] = OrderedDict()


def _keep(pack: Pack) -> None:
    key = (pack.game, pack.where, pack.sha256)
    _READ[key] = pack
    _READ.move_to_end(key)
    while len(_READ) > KEEP:
        _READ.popitem(last=False)


# --- the packs of a session -----------------------------------------------------------------

def _records(value: str, source: str) -> tuple[Record, ...]:
    try:
        return _parsed(value)
    except (ValueError, TypeError, KeyError) as exc:
        raise ConfigError(f"{source}: option packs: not a record of packs ({exc})") from None


@functools.lru_cache(maxsize=64)
def _parsed(value: str) -> tuple[Record, ...]:
    """The records of an option value (a game reads them again at every look at its data)."""
    body = msgspec.json.decode(value[len(RECORDS_MARK):])  # msgspec is loaded already; ``json`` is not
    return tuple(Record(str(r["name"]), str(r["where"]), str(r["sha256"])) for r in body)


def record(options: Mapping[str, str], game: str, package: str | None, *, from_save: str | None = None
           ) -> dict[str, str]:
    """``options`` with ``packs`` turned into records (the built-in pack first) for a new session; a
    save's records are kept as they are (a save without any predates packs and reads the built-in one)."""
    out = dict(options)
    value = out.get(PACKS_OPTION, "")
    if package is None:
        if value:
            raise ConfigError(f"{game} takes no packs (option packs={value})")
        return out
    if value.startswith(RECORDS_MARK):
        records = _records(value, from_save or "option packs")
        if from_save is not None:  # read each pack again now: its hash must still match
            for rec in records:
                _checked(rec, game, package, fresh=True)
        return out
    if from_save is not None:
        if value:
            raise ConfigError(f"{from_save}: option packs={value!r} names packs; a save keeps each pack's "
                              "record (start the game anew with --pack)")
        return out
    chosen = [builtin(game, package)]
    for ref in (r.strip() for r in value.split(",")):
        if not ref or ref == BUILTIN:
            continue
        pack = resolve(ref, game, package)
        if any(p.name == pack.name for p in chosen):
            raise ConfigError(f"--pack {ref}: the pack {pack.name!r} is chosen twice")
        _keep(pack)
        chosen.append(pack)
    out[PACKS_OPTION] = RECORDS_MARK + msgspec.json.encode(
        [{"name": p.name, "where": p.where, "sha256": p.sha256} for p in chosen]).decode()
    return out


def _find(rec: Record, game: str, package: str) -> Pack:
    if rec.where == BUILTIN_WHERE:
        return builtin(game, package)
    if rec.where == USER_WHERE:
        found = _named(game).get(rec.name, [])
        if not found:
            raise PackChangedError(f"pack {rec.name!r} ({game}): not in {packs_dir()} any more; this save was "
                                   "made with it (put it back to go on)", pack=rec.name)
        return read_folder(found[0], where=USER_WHERE)
    try:
        return read_folder(Path(rec.where), where=rec.where)
    except ConfigError as exc:
        raise PackChangedError(f"pack {rec.name!r} ({game}, {rec.where}): cannot be read again ({exc}); this "
                               "save was made with it", pack=rec.name) from None


def active(options: Mapping[str, str], game: str, package: str | None) -> tuple[Pack, ...]:
    """The packs a session's options record, each checked against its hash: built-in first."""
    if package is None:
        return ()
    value = options.get(PACKS_OPTION, "")
    if not value.startswith(RECORDS_MARK):
        if value:
            raise ConfigError(f"option packs={value!r}: packs are chosen when a session begins")
        return (builtin(game, package),)
    return tuple(_checked(rec, game, package) for rec in _records(value, "option packs"))


def _checked(rec: Record, game: str, package: str, *, fresh: bool = False) -> Pack:
    """The pack a record names, read again (``fresh``) or as this process last read it."""
    key = (game, rec.where, rec.sha256)
    if key in _READ and not fresh:
        _READ.move_to_end(key)
        return _READ[key]
    pack = _find(rec, game, package)
    if pack.sha256 != rec.sha256 or pack.name != rec.name:
        where = "built in" if rec.where == BUILTIN_WHERE else pack.folder
        raise PackChangedError(f"pack {rec.name!r} ({game}, {where}): its content changed since this game began "
                               f"(SHA-256 {rec.sha256[:12]} then, {pack.sha256[:12]} now); the save replays only "
                               "against the pack it was made with: put that version back, or start a new game",
                               pack=rec.name)
    if rec.where != BUILTIN_WHERE:
        _keep(pack)
    return pack


def layers(packs: Sequence[Pack], name: str) -> list[Layer]:
    """File ``name`` of each pack that has one, parsed, in the packs' order."""
    out = []
    for pack in packs:
        f = pack.file(name)
        if f is not None:
            out.append(Layer(pack.name, f.label, parse_toml(f.text, source=f.label)))
    return out


def at(doc: Mapping[str, Any], table: str, default: Any) -> Any:
    """The value at a dotted ``table`` path of a parsed document (``""``: the document itself)."""
    value: Any = doc
    for part in table.split(".") if table else ():
        value = value.get(part, default) if isinstance(value, dict) else default
    return value


def entries(found: Sequence[Layer], table: str) -> Iterator[tuple[Layer, str, Any]]:
    """Every entry of ``table`` (a table of tables by key; a dotted path reaches into one) across
    the layers; a key two packs both define is one line naming the file and the pack that has it already."""
    owner: dict[str, Layer] = {}
    for layer in found:
        raw = at(layer.doc, table, {})
        if not isinstance(raw, dict):
            raise fail(layer.label, table, f"expected a table, got {type(raw).__name__}")
        for key, value in raw.items():
            if key in owner:
                raise fail(layer.label, f"{table}.{key}" if table else key,
                           f"already in pack {owner[key].pack!r} ({owner[key].label}): a pack adds content under "
                           "names of its own")
            owner[key] = layer
            yield layer, key, value


def rows(found: Sequence[Layer], table: str, id_field: str) -> Iterator[tuple[Layer, int, Any]]:
    """Every row of an array of tables across the layers, checked for an ``id_field`` two packs share."""
    owner: dict[str, Layer] = {}
    for layer in found:
        raw = at(layer.doc, table, [])
        if not isinstance(raw, list):
            raise fail(layer.label, table, f"expected an array, got {type(raw).__name__}")
        for i, value in enumerate(raw):
            key = value.get(id_field) if isinstance(value, dict) else None
            if isinstance(key, str):
                if key.lower() in owner and owner[key.lower()] is not layer:
                    raise fail(layer.label, f"{table}[{i}].{id_field}",
                               f"{key!r} is already in pack {owner[key.lower()].pack!r}")
                owner.setdefault(key.lower(), layer)
            yield layer, i, value


def check_entries(found: Sequence[Layer], spec: FileSpec) -> None:
    """Each pack's entries against the schema, so a wrong one is named in the pack's own file (the
    game then reads them merged into the built-in file)."""
    for layer in found[1:]:
        for table in spec.tables:
            for _, prefix, raw in _entry_tables(layer.doc, table):
                decode(raw, table.entry, source=layer.label, prefix=prefix)


def only(found: Sequence[Layer], keys: Sequence[str]) -> None:
    """A pack's copy of a file adds entries; any other key is one line (the built-in copy, the first
    layer, holds the file's numbers). A dotted key allows that one key inside its table."""
    tops = {k.split(".")[0] for k in keys}
    for layer in found[1:]:
        for key, value in layer.doc.items():
            if key not in tops:
                raise fail(layer.label, key, f"unknown key (a pack's copy of this file holds {', '.join(keys)})")
            inner = {k.split(".", 1)[1] for k in keys if k.startswith(f"{key}.")}
            if inner and isinstance(value, dict):
                for sub in value:
                    if sub not in inner:
                        raise fail(layer.label, f"{key}.{sub}",
                                   f"unknown key (a pack's copy of this file holds {', '.join(keys)})")


# --- checking and listing -------------------------------------------------------------------

def problem_of(exc: ConfigError, files: Sequence[PackFile]) -> Problem:
    """A ``ConfigError`` from reading a pack as a problem with its file, key and line."""
    text = str(exc)
    file = exc.file or ""
    key = exc.key or ""
    message = text.removeprefix(f"{file}: ").removeprefix(f"{key or '(top level)'}: ") if file else text
    line = exc.line
    if line is None and file:
        source = next((f for f in files if f.label == file), None)
        if source is not None:
            line = key_line(source.text, key) if key else 1
    return Problem(file or "(pack)", message, key, line)


def _entry_tables(doc: dict[str, Any], table: Table) -> Iterator[tuple[str, str, Any]]:
    """(key, prefix, raw entry) of one table of a parsed pack file."""
    if table.whole:
        yield str(doc.get(table.name or "name", "")), "", doc
        return
    raw = at(doc, table.path, {})
    if table.id is not None:
        for i, row in enumerate(raw if isinstance(raw, list) else []):
            key = row.get(table.id, "") if isinstance(row, dict) else ""
            yield str(key), f"{table.path}[{i}]", row
    elif isinstance(raw, dict):
        for key, value in raw.items():
            yield str(key), f"{table.path}.{key}" if table.path else str(key), value


def check(folder: Path, schemas: Mapping[str, Schema]) -> tuple[Pack | None, list[Problem]]:
    """Every problem of the pack at ``folder``, each with its file, key and line where known: the
    manifest, each file's TOML, each entry against the game's schema, names missing or used twice,
    and then (when all that is right) the game reading its content with the pack."""
    files, problems = gather(folder)
    try:
        info: Manifest | None = manifest(files, str(folder))
    except ConfigError as exc:
        problems.append(problem_of(exc, files))
        info = None
    schema = schemas.get(info.game if info is not None else _game_named(files))
    if info is not None and schema is None:
        found = next(f for f in files if f.name == MANIFEST)
        problems.append(Problem(found.label, f"unknown game {info.game!r} (games: {', '.join(schemas)})", "game",
                                key_line(found.text, "game")))
    shipped = schema is not None and folder.resolve() == _builtin_folder(schema)  # the built-in pack itself
    if info is not None and info.name == BUILTIN and not shipped:
        found = next(f for f in files if f.name == MANIFEST)
        problems.append(Problem(found.label, f"{BUILTIN!r} is the built-in pack's name; choose another", "name",
                                key_line(found.text, "name")))
    base = builtin(schema.game, schema.package) if schema is not None and not shipped else None
    taken = _names(base, schema) if base is not None and schema is not None else {}
    for f in files:
        if f.name == MANIFEST:
            continue
        try:
            doc = parse_toml(f.text, source=f.label)
        except ConfigError as exc:
            problems.append(problem_of(exc, files))
            continue
        if schema is None:
            continue
        spec = schema.spec(f.name)
        if spec is None:
            if not shipped:  # the built-in pack also holds the game's file-wide numbers
                known = ", ".join(s.name for s in schema.files)
                problems.append(Problem(f.label, f"not one of the files of a pack for {schema.game} ({known})"))
            continue
        problems += _check_file(f, doc, spec, taken, numbers=shipped)
    if problems or info is None or schema is None:
        return None, problems
    pack = Pack(info.name, info.game, str(folder), str(folder), _digest(files), tuple(files), info.title, info.source)
    if shipped:
        pack = builtin(schema.game, schema.package)
    try:
        schema.load((base, pack) if base is not None else (pack,))
    except ConfigError as exc:
        problems.append(problem_of(exc, files))
    return pack, problems


def _game_named(files: Sequence[PackFile]) -> str:
    """The game a manifest names even when something else in it is wrong (so its files are checked too)."""
    found = next((f for f in files if f.name == MANIFEST), None)
    try:
        game = parse_toml(found.text, source=found.label).get("game") if found is not None else None
    except ConfigError:
        return ""
    return game if isinstance(game, str) else ""


def _builtin_folder(schema: Schema) -> Path:
    return _data_folder(schema.package).resolve()


def _names(pack: Pack, schema: Schema) -> dict[tuple[str, str], str]:
    """(table path, key or lower-case name) -> the pack that has it: what a new pack must not reuse."""
    taken: dict[tuple[str, str], str] = {}
    for spec in schema.files:
        f = pack.file(spec.name)
        if f is None:
            continue
        doc = parse_toml(f.text, source=f.label)
        for table in spec.tables:
            if table.whole:
                continue
            for key, _, raw in _entry_tables(doc, table):
                taken[(table.path, key)] = pack.name
                name = raw.get(table.name) if table.name and isinstance(raw, dict) else None
                if isinstance(name, str) and table.kind:
                    taken[(table.kind, name.lower())] = pack.name
    return taken


def _check_file(f: PackFile, doc: dict[str, Any], spec: FileSpec, taken: dict[tuple[str, str], str], *,
                numbers: bool = False) -> list[Problem]:
    """The problems of one pack file: its keys (``numbers``: the built-in copy, whose file-wide keys
    are the game's own), each entry against the schema, names missing or taken."""
    problems: list[Problem] = []
    whole = next((t for t in spec.tables if t.whole), None)
    paths = {t.path.split(".")[0] for t in spec.tables if not t.whole}
    if whole is None and "" not in paths and not numbers:
        for key in doc:
            if key not in paths:
                import difflib

                close = difflib.get_close_matches(key, sorted(paths), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f" (this file holds: {', '.join(sorted(paths))})"
                problems.append(Problem(f.label, f"unknown key{hint}", key, key_line(f.text, key)))
    seen: dict[tuple[str, str], str] = {}  # slot -> where in this file it was first
    for table in spec.tables:
        for key, prefix, raw in _entry_tables(doc, table):
            try:
                decode(raw, table.entry, source=f.label, prefix=prefix)
            except ConfigError as exc:
                problems.append(problem_of(exc, (f,)))
                continue
            if table.id == "":  # rows without a name of their own (the paths between locations)
                continue
            name = raw.get(table.name) if table.name else key
            at = prefix or (table.name or "")
            if not isinstance(name, str) or not name.strip():
                field_name = table.name or "key"
                problems.append(Problem(f.label, f"missing name (the {field_name} players see)",
                                        f"{prefix}.{field_name}" if prefix else field_name, key_line(f.text, at) or 1))
                continue
            if table.whole:
                continue
            slots = [((table.path, key), f"{table.id or 'key'} {key!r}")]
            if table.kind:
                slots.append(((table.kind, name.lower()), f"name {name!r}"))
            for slot, what in slots:
                if slot in taken or slot in seen:
                    owner = f"already in pack {taken[slot]!r}" if slot in taken else f"also at {seen[slot]}"
                    problems.append(Problem(f.label, f"duplicate {what}: {owner}", prefix, key_line(f.text, prefix)))
                    break
            for slot, _ in slots:
                seen.setdefault(slot, prefix)
    return problems


def listing(packs: Sequence[Pack], schema: Schema) -> dict[str, list[Listed]]:
    """What each pack holds, by kind: every entry's name, its pack and whether it was checked."""
    if schema.listing is not None:
        return schema.listing(tuple(packs))
    out: dict[str, list[Listed]] = {kind: [] for kind in schema.kinds()}
    for pack in packs:
        for spec in schema.files:
            f = pack.file(spec.name)
            if f is None:
                continue
            doc = parse_toml(f.text, source=f.label)
            for table in spec.tables:
                if not table.kind:
                    continue
                for key, _, raw in _entry_tables(doc, table):
                    if not isinstance(raw, dict):
                        continue
                    name = raw.get(table.name) if table.name else None
                    checked = table.checked(raw) if table.checked is not None else raw.get("verified") is True
                    out[table.kind].append(Listed(str(name or key), pack.name, checked, key))
    return out
