"""Files in the cache folder (``user_paths.cache_dir``): each named after the absolute path it stands
for, and written whole or not at all, so a reader finds either the old file, the new one, or none; a
damaged one is the reader's to refuse. Standard library only, for the start-up splash."""

from __future__ import annotations

import contextlib
import os

MAX_NAME = 240  # most file systems take 255 bytes a name


def entry_path(cache: str, kind: str, of: str, suffix: str) -> str | None:
    """Where the ``kind`` entry for the file or folder ``of`` lives under ``cache``: its absolute path
    escaped into one file name (None when that is too long)."""
    name = os.path.abspath(of).replace("%", "%25").replace("/", "%2F") + suffix
    return os.path.join(cache, kind, name) if len(name) <= MAX_NAME else None


def write_whole(path: str, data: bytes) -> bool:
    """``data`` as the file ``path`` (its folder made), through a file of this process's own then a
    rename; False when nothing could be written (a read-only or full disk)."""
    temporary = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    return True
