"""A session's state as data (JSON through msgspec, never pickle), kept in the save beside the log so a
resume applies only the entries after it instead of replaying the whole game.

A snapshot is a cache of the log, never the truth: it is used only when its key matches (format, the
software's version and its rules' source files, the session's setup with its packs' SHA-256), when it
decodes, and when the active line still passes through the entry it was taken after; otherwise it is
ignored with one line to the log and the log is replayed whole.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import msgspec

from tablekeeper import __version__
from tablekeeper.core.chance import Bag, Deck, Dice, Source
from tablekeeper.core.frozen import freeze
from tablekeeper.core.state import GameState, Prompt

FORMAT: Final = 1
"""The snapshot's own layout; a change makes older snapshots mismatch (they are then replayed past)."""
SOURCE_KINDS: Final[Mapping[str, type[Source]]] = {"bag": Bag, "deck": Deck, "dice": Dice}
_SPECIAL: Final = frozenset({"tracks", "sources", "prompt", "data", "record"})
_CORE: Final = Path(__file__).resolve().parent


class Stored(msgspec.Struct, frozen=True):
    """One snapshot as the save keeps it: taken with log entry ``index``, the state at active-line
    ``position``, whose last active entry was log entry ``last``; ``crc`` is the body's CRC32."""

    index: int
    position: int
    last: int
    key: str
    body: bytes
    crc: int


class Checkpoint(msgspec.Struct, frozen=True):
    """A state the session hands its journal to keep: the state after active-line ``position``."""

    position: int
    last: int
    state: GameState
    key: str


def _builtin(value: Any) -> Any:
    if isinstance(value, Mapping):  # the deep-frozen values of ``data`` and prompt contexts
        return dict(value)
    raise NotImplementedError(f"cannot keep a {type(value).__name__} in a snapshot")


def encode(state: GameState) -> bytes:
    """The state as JSON: every field by name; each chance source tagged with its kind; the game's typed
    record as its fields (a mapping ``data`` and a msgspec Struct ``record`` alike)."""
    plain = msgspec.to_builtins(state, enc_hook=_builtin)
    plain["sources"] = {name: [_kind(source), plain["sources"][name]] for name, source in state.sources.items()}
    return msgspec.json.encode(plain)


def _kind(source: Source) -> str:
    return next(kind for kind, cls in SOURCE_KINDS.items() if isinstance(source, cls))


@functools.cache
def _field_types() -> Mapping[str, Any]:
    return typing.get_type_hints(GameState)


def decode(body: bytes, record_type: type[msgspec.Struct] | None) -> GameState:
    """The state :func:`encode` wrote, with the same value types a replay builds (tuples, read-only
    mappings, the record's own type); a body that does not fit raises ``msgspec.ValidationError`` or
    ``msgspec.DecodeError`` (or ``ValueError``, ``TypeError``, ``KeyError``)."""
    raw = msgspec.json.decode(body)
    if not isinstance(raw, dict):
        raise msgspec.ValidationError("a snapshot is a JSON object")
    types = _field_types()
    fields: dict[str, Any] = {name: msgspec.convert(value, types[name]) for name, value in raw.items()
                              if name not in _SPECIAL}
    fields["tracks"] = msgspec.convert(raw["tracks"], types["tracks"])
    fields["sources"] = {str(name): msgspec.convert(body, SOURCE_KINDS[kind])
                         for name, (kind, body) in raw["sources"].items()}
    prompt = raw["prompt"]
    if prompt is not None:
        prompt = msgspec.convert(prompt, Prompt)
        prompt = Prompt(prompt.id, prompt.text, prompt.options, prompt.seat, freeze(prompt.context))
    fields["prompt"] = prompt
    fields["data"] = {str(key): freeze(value) for key, value in raw["data"].items()}
    record = raw.get("record")
    if (record is None) != (record_type is None):
        raise msgspec.ValidationError("the snapshot's record does not fit the game's record type")
    fields["record"] = None if record is None or record_type is None else msgspec.convert(record, record_type)
    return GameState(**fields)


def key(setup_json: Mapping[str, Any], game_package: str) -> str:
    """What a snapshot is valid for: its format, this software (version and the rules' source files),
    and the session's setup (game, seats, seed, options, the packs' SHA-256 among them)."""
    import hashlib  # OpenSSL's module: not before a new game's first frame, which needs no snapshot

    text = msgspec.json.encode([FORMAT, __version__, code_stamp(game_package), setup_json], order="sorted")
    return hashlib.sha256(text).hexdigest()


@functools.cache
def code_stamp(game_package: str) -> str:
    """The core's and the game's Python files by name, size and modification time: a changed rule
    (a new release, or a file edited in place) makes every snapshot mismatch, never replay wrong."""
    import hashlib

    stamp = hashlib.sha256()
    module = importlib.import_module(game_package)
    own = getattr(module, "__path__", None) or [Path(getattr(module, "__file__", "") or ".").parent]
    folders = [_CORE, *(Path(p) for p in own)]
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(root, name)
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                stamp.update(f"{os.path.relpath(path, folder)}:{info.st_size}:{info.st_mtime_ns};".encode())
    return stamp.hexdigest()[:16]


def choose(stored: Sequence[Stored], line_indexes: Sequence[int], wanted_key: str,
           record_type: type[msgspec.Struct] | None, where: str) -> Checkpoint | None:
    """The newest stored snapshot that fits this software, this setup and this active line (its indexes,
    oldest first), decoded; each one passed over for a fault is one line to the log."""
    log = logging.getLogger(__name__)
    for snap in sorted(stored, key=lambda s: s.index, reverse=True):
        if not _fits(snap, wanted_key):
            log.info("%s: snapshot after entry %d was made by other software or for another setup; not used",
                     where, snap.index)
            continue
        if not 0 < snap.position <= len(line_indexes) or line_indexes[snap.position - 1] != snap.last:
            continue  # undone since: the active line no longer passes through it (nothing is wrong)
        if not _intact(snap):
            log.warning("%s: snapshot after entry %d fails its checksum; replaying the log instead", where, snap.index)
            continue
        state = _decoded(snap, record_type)
        if state is None:
            log.warning("%s: snapshot after entry %d does not decode; replaying the log instead", where, snap.index)
            continue
        return Checkpoint(snap.position, snap.last, state, snap.key)
    return None


def _fits(snap: Stored, wanted_key: str) -> bool:
    return snap.key == wanted_key


def _intact(snap: Stored) -> bool:
    import zlib  # a shared library: loaded when a snapshot is checked, not by every start

    return zlib.crc32(snap.body) == snap.crc


def _decoded(snap: Stored, record_type: type[msgspec.Struct] | None) -> GameState | None:
    try:
        return decode(snap.body, record_type)
    except (msgspec.MsgspecError, ValueError, TypeError, KeyError, AttributeError):
        return None
