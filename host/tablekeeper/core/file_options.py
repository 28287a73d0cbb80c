"""Options that name data files (``scenario=``, ``data=``, ``rules=`` ...) carry the file's content.

A session reads each such file once, when it is created, and keeps the text with its SHA-256 in the
setup it logs; a save therefore replays the same wherever it is opened, and resuming a save never
opens a path it names (a save is data from anywhere: ``scenario=/dev/zero`` must not be read).
"""

from __future__ import annotations

from collections.abc import Mapping, Set

from tablekeeper.errors import ConfigError
from tablekeeper.schema import read_text

EMBEDDED_MARK = "tablekeeper-file:"


def embed(options: Mapping[str, str], file_keys: Set[str]) -> dict[str, str]:
    """``options`` with every named file replaced by its content (already embedded values stay)."""
    out = dict(options)
    for key in sorted(file_keys & out.keys()):
        value = out[key]
        if not value or value.startswith(EMBEDDED_MARK):
            continue
        try:
            text = read_text(value, what="data file")
        except ConfigError as exc:  # the reason without read_text's own "PATH: " in front
            raise ConfigError(f"--option {key}={value}: {str(exc).removeprefix(f'{value}: ')}") from None
        import hashlib  # loaded only for a session that names a file (not before a plain game's first frame)
        import json

        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        out[key] = EMBEDDED_MARK + json.dumps({"file": value, "sha256": digest, "text": text})
    return out


def refuse_paths(options: Mapping[str, str], file_keys: Set[str], *, source: str) -> None:
    """A saved setup must carry content: a bare path in it is refused, never opened."""
    for key in sorted(file_keys & options.keys()):
        value = options[key]
        if value and not value.startswith(EMBEDDED_MARK):
            raise ConfigError(f"{source}: option {key}={value!r} is a file path; a save carries the file's "
                              "content and never opens a path (start the game anew with the file)")


def option_file(value: str) -> tuple[str, str]:
    """(label, text) of a file option: the embedded copy (checked against its hash) or, for a session
    being created, the file itself (bounded, regular, UTF-8)."""
    if not value.startswith(EMBEDDED_MARK):
        return value, read_text(value, what="data file")
    import hashlib
    import json

    try:
        body = json.loads(value[len(EMBEDDED_MARK):])
        label, digest, text = str(body["file"]), str(body["sha256"]), str(body["text"])
    except (ValueError, TypeError, KeyError) as exc:
        raise ConfigError(f"saved data file: not a kept copy ({exc})") from None
    if hashlib.sha256(text.encode("utf-8")).hexdigest() != digest:
        raise ConfigError(f"{label} (kept copy): its content does not match its SHA-256")
    return label, text
