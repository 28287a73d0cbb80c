"""Folders a user names for output (simulator captures, hardware photos): made when missing (the
named folder only, never the folders above it) and proved writable before any work starts, so a
wrong path is one line naming the option, never a traceback halfway through a run."""

from __future__ import annotations

from pathlib import Path

from tablekeeper.errors import PathError


def output_dir(path: Path, *, option: str) -> Path:
    """``path`` as a folder this process can write files into, or one ``PathError`` line."""
    try:
        path.mkdir(exist_ok=True)
    except FileNotFoundError:
        raise PathError(f"{option} {path}: no folder {path.parent} to make it in") from None
    except FileExistsError:
        raise PathError(f"{option} {path}: exists and is not a folder") from None
    except OSError as exc:
        raise PathError(f"{option} {path}: cannot create the folder: {exc.strerror or exc}") from None
    import tempfile  # shutil, random and the compressors: not before the station's first frame

    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise PathError(f"{option} {path}: cannot write files there: {exc.strerror or exc}") from None
    return path
